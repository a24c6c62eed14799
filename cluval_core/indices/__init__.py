"""Every index, one family module each: the pair counting, information theoretic, set matching,
object level and cluster level families.

A family module holds everything about each of its indices, side by side: its registry entry
(name, formula, range, properties, reference, caveat), its value from a comparison, its exact
expectation and standard deviation under the permutation model where a closed form exists,
its anatomy, its computation in steps, and its public one-line function. Importing this
package registers the families, in this order, in :data:`cluval_core.INDICES`.

>>> from cluval_core.indices import find_indices
>>> [info.id for info in find_indices("Rand")]
['ri', 'ari', 'mari']
"""

from ..core.registry import find_indices
from . import pair_counting, information, set_matching, object_level, cluster_level  # noqa: I001 - registry order
from .cluster_level import *  # noqa: F403 - the one-line functions
from .information import *  # noqa: F403
from .object_level import *  # noqa: F403
from .pair_counting import *  # noqa: F403
from .set_matching import *  # noqa: F403

FUNCTIONS = [*pair_counting.__all__, *information.__all__, *set_matching.__all__, *object_level.__all__,
             *cluster_level.__all__]
FUNCTIONS.remove("NORMALISERS")

__all__ = ["find_indices", "FUNCTIONS", *FUNCTIONS]

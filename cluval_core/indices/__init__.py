"""Every index, one family module each: the pair counting, information theoretic, set matching,
object level and cluster level families.

A family module holds everything about each of its indices, side by side: its registry entry
(name, formula, range, properties, reference, caveat), its value from a comparison, its exact
expectation and standard deviation under the permutation model where a closed form exists,
its anatomy, its computation in steps, and its public one-line function. Importing this
package registers the families in :data:`cluval_core.INDICES`, in the order of :data:`FAMILY_MODULES`.

>>> from cluval_core.indices import find_indices
>>> [info.id for info in find_indices("Rand")]
['ri', 'ari', 'sri', 'pmi2', 'mari']
"""

from ..core.registry import find_indices, register
from . import cluster_level, information, object_level, pair_counting, set_matching

# the one-line functions: each family module's __all__ lists them (FUNCTIONS below)
from .cluster_level import *  # noqa: F403 - its __all__: the family's one-line functions
from .information import *  # noqa: F403 - as above
from .object_level import *  # noqa: F403 - as above
from .pair_counting import *  # noqa: F403 - as above
from .set_matching import *  # noqa: F403 - as above

# The families in the order the registry lists them.
FAMILY_MODULES = (pair_counting, information, set_matching, object_level, cluster_level)
for _module in FAMILY_MODULES:
    register(_module.FAMILY, _module.FAMILY_NAME, _module.ENTRIES)

FUNCTIONS = [*pair_counting.__all__, *information.__all__, *set_matching.__all__, *object_level.__all__,
             *cluster_level.__all__]

__all__ = ["find_indices", "FUNCTIONS", "FAMILY_MODULES", *FUNCTIONS]

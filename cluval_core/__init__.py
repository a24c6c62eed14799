"""cluval_core: compare two partitions of the same data with every external validity index.

>>> from cluval_core import compare

Rows 3, 3 and columns 2, 4: S = 2/3 + 3/4, E = 3*4/6/4 + 3*2/6/3 = 5/6, PSI = (S - E)/(2 - E).

>>> c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
>>> c.hungarian_pairing.to_frame()[["reference", "candidate", "overlap"]].values.tolist()
[[0, 0, 2], [1, 1, 3]]
>>> {k: round(v, 3) for k, v in c.scores(["ari", "psi", "ci_partition"]).items()}
{'ari': 0.324, 'psi': 0.5, 'ci_partition': 0.0}

The library's layers are its folders: :mod:`cluval_core.core` (the table, the comparison,
pairings and mappings, chance, the registry), :mod:`cluval_core.indices` (one module per
family of indices), :mod:`cluval_core.data` (benchmark sets, synthetic sets, users' files),
:mod:`cluval_core.algorithms` (clustering, stability), :mod:`cluval_core.outputs` (figures,
exports, the command line) and :mod:`cluval_core.experiments` (the seed papers' experiments).
The top level holds the public API: :func:`compare`, :class:`Comparison`, the registry and
the one-line functions.
"""

from . import _moved, indices
from ._version import __version__ as __version__
from .core.chance import Contributions
from .core.chunks import compare_chunks
from .core.comparison import CentroidRatio, Comparison, Entropies, PairCounts
from .core.contingency import contingency_table
from .core.emi import expected_mutual_information
from .core.labels import compare
from .core.many import compare_many
from .core.matching import Mappings, NearestMapping, Pairing
from .core.noise import Noise, cluster_count
from .core.paired import PairedComparison, compare_paired
from .core.registry import FAMILIES, INDICES, IndexInfo, get_index, index_table, remove_index
from .core.steps import Step, Steps
from .core.validation import CluvalError, CluvalWarning

# The one-line functions, and no other name of cluval_core.indices (index search lives there).
globals().update({name: getattr(indices, name) for name in indices.FUNCTIONS})

__all__ = [
    "CluvalError", "CluvalWarning", "Comparison", "compare", "cluster_count", "Noise", "PairCounts", "Entropies",
    "CentroidRatio", "Pairing", "NearestMapping", "Mappings", "Contributions", "Step", "Steps",
    "compare_chunks", "compare_many", "compare_paired", "PairedComparison", "contingency_table",
    "expected_mutual_information",
    "FAMILIES", "INDICES", "IndexInfo", "get_index", "index_table", "remove_index", *indices.FUNCTIONS,
]

_moved.install()


def __getattr__(name: str):
    return _moved.moved_name(name)

"""cluval_core: compare two partitions of the same data with every external validity index.

>>> from cluval_core import compare

Rows 3, 3 and columns 2, 4: S = 2/3 + 3/4, E = 3*4/6/4 + 3*2/6/3 = 5/6, PSI = (S - E)/(2 - E).

>>> c = compare([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
>>> c.hungarian_pairing.to_frame()[["reference", "candidate", "overlap"]].values.tolist()
[[0, 0, 2], [1, 1, 3]]
>>> {k: round(v, 3) for k, v in c.scores(["ari", "psi", "ci_partition"]).items()}
{'ari': 0.324, 'psi': 0.5, 'ci_partition': 0.0}
"""

from ._validation import CluvalError, CluvalWarning
from .comparison import CentroidRatio, Comparison, Entropies, Noise, PairCounts, cluster_count, compare
from .chunks import compare_chunks
from .contingency import contingency_table
from .emi import expected_mutual_information
from .many import compare_many
from .stability import cluster_many, most_stable, stability_curve
from .matching import Mapping, Pairing
from .peer_names import PEER_NAMES, PEERS, RELATIONS, Peer, PeerName, peer_names
from .registry import FAMILIES, INDICES, IndexInfo, find_indices, get_index, index_table
from .scores import *  # noqa: F401,F403
from .scores import __all__ as _score_names

__version__ = "0.1.0"

__all__ = [
    "CluvalError", "CluvalWarning", "Comparison", "compare", "cluster_count", "Noise", "PairCounts", "Entropies", "CentroidRatio",
    "compare_chunks", "compare_many", "cluster_many", "stability_curve", "most_stable", "contingency_table", "expected_mutual_information", "Mapping", "Pairing",
    "PEERS", "PEER_NAMES", "RELATIONS", "Peer", "PeerName", "peer_names",
    "FAMILIES", "INDICES", "IndexInfo", "get_index", "index_table", "find_indices", *_score_names,
]

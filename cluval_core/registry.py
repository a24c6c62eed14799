"""The index registry: one table that drives the API, the app, the docs and the tests.

>>> INDICES["psi"].name, INDICES["psi"].best, INDICES["psi"].higher_is_better
('Pair Sets Index', 1.0, True)
>>> get_index("nope")
Traceback (most recent call last):
...
cluval_core.CluvalError: unknown index id 'nope'; valid ids: ri, ari, ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from . import cluster_level as cl
from . import information as it
from . import pair_counting as pc
from . import set_matching as sm
from ._validation import CluvalError

__all__ = ["IndexInfo", "INDICES", "FAMILIES", "get_index", "index_table"]

INF = math.inf

FAMILIES = {
    "pair_counting": "Pair counting",
    "information": "Information theoretic",
    "set_matching": "Set matching",
    "cluster_level": "Cluster level (centroid index family)",
}

PSI_PAPER = "Rezaei & Fränti (2016), Set matching measures for external cluster validity, IEEE TKDE 28(8)"
CI_PAPER = "Fränti, Rezaei & Zhao (2014), Centroid index: cluster level similarity measure, Pattern Recognition 47(9)"
VINH = "Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison, JMLR 11"
GAGOLEWSKI = "Gagolewski (2022), Adjusted asymmetric accuracy: a well-behaving external cluster validity measure"


@dataclass(frozen=True)
class IndexInfo:
    """Everything cluval knows about one index."""

    id: str
    name: str
    family: str
    range: tuple[float, float]
    best: float
    higher_is_better: bool
    chance_adjusted: bool
    symmetric: bool
    needs_data: bool
    formula: str
    reference: str
    caveat: str
    compute: Callable
    soft: bool = True  # meaningful on a soft (real-valued) table N* = U^T V

    @property
    def kind(self) -> str:
        return "similarity" if self.higher_is_better else "distance"


def _i(id, name, family, lo, hi, best, higher, adjusted, symmetric, formula, reference, caveat, compute,
       needs_data=False, soft=True):
    return IndexInfo(id, name, family, (lo, hi), best, higher, adjusted, symmetric, needs_data, formula,
                     reference, caveat, compute, soft and not needs_data)


_ALL = [
    # ------------------------------------------------------------------ pair counting
    _i("ri", "Rand index", "pair_counting", 0, 1, 1.0, True, False, True,
       r"\mathrm{RI} = \frac{a+d}{\binom{N}{2}}",
       "Rand (1971), Objective criteria for the evaluation of clustering methods, JASA 66",
       "Not corrected for chance: random partitions with many clusters score close to 1, because "
       "almost every pair is 'apart in both'. Compare RI values only for equal K and N.",
       pc.rand),
    _i("ari", "Adjusted Rand index", "pair_counting", -1, 1, 1.0, True, True, True,
       r"\mathrm{ARI} = \frac{2(ad-bc)}{(a+b)(b+d)+(a+c)(c+d)}",
       "Hubert & Arabie (1985), Comparing partitions, J. Classification 2",
       "Counts pairs, so a cluster of n objects weighs like n^2: errors in small clusters barely move it "
       "(on imbalanced data a clustering that merges all small clusters can still score above 0.9).",
       pc.adjusted_rand),
    _i("fowlkes_mallows", "Fowlkes-Mallows index", "pair_counting", 0, 1, 1.0, True, False, True,
       r"\mathrm{FM} = \frac{a}{\sqrt{(a+b)(a+c)}}",
       "Fowlkes & Mallows (1983), A method for comparing two hierarchical clusterings, JASA 78",
       "Ignores pairs apart in both partitions; not corrected for chance and high whenever one large "
       "cluster dominates. Undefined (NaN) when one partition has only singletons.",
       pc.fowlkes_mallows),
    _i("afm", "Adjusted Fowlkes-Mallows", "pair_counting", -INF, 1, 1.0, True, True, True,
       r"\mathrm{AFM} = \frac{\mathrm{FM}-E}{1-E},\; E=\frac{\sqrt{(a+b)(a+c)}}{\binom{N}{2}}",
       "Fowlkes & Mallows (1983); Albatineh et al. (2006), J. Classification 23",
       "A rough chance correction (E is not the exact expectation under the permutation model); "
       "undefined when both partitions are a single cluster.",
       pc.adjusted_fowlkes_mallows),
    # ------------------------------------------------------------------ information theoretic
    _i("mi", "Mutual information", "information", 0, INF, INF, True, False, True,
       r"\mathrm{MI} = \sum_{ij} \frac{n_{ij}}{N}\log\frac{N n_{ij}}{r_i c_j}",
       "Shannon (1948); Strehl & Ghosh (2002), JMLR 3",
       "Unbounded and grows with the number of clusters: a finer candidate always shares more "
       "information. Its best value depends on the data (the entropies), so it is not comparable "
       "across data sets.",
       it.mutual_information),
    _i("nmi_sum", "NMI (arithmetic mean)", "information", 0, 1, 1.0, True, False, True,
       r"\mathrm{NMI}_{sum} = \frac{2\,\mathrm{MI}}{H_a+H_b}",
       "Kvalseth (1987), IEEE SMC 17; equal to the V-measure (Rosenberg & Hirschberg 2007)",
       "Not corrected for chance: random partitions with many clusters score well above 0. Like ARI "
       "it weighs clusters by size, so small clusters barely count.",
       lambda c: it.normalized_mutual_information(c, "sum")),
    _i("nmi_sqrt", "NMI (geometric mean)", "information", 0, 1, 1.0, True, False, True,
       r"\mathrm{NMI}_{sqrt} = \frac{\mathrm{MI}}{\sqrt{H_a H_b}}",
       "Strehl & Ghosh (2002), JMLR 3",
       "As NMI (arithmetic); the geometric mean rewards a lopsided pair of entropies slightly more.",
       lambda c: it.normalized_mutual_information(c, "sqrt")),
    _i("nmi_max", "NMI (max)", "information", 0, 1, 1.0, True, False, True,
       r"\mathrm{NMI}_{max} = \frac{\mathrm{MI}}{\max(H_a,H_b)}",
       VINH + "; Lei et al. (2017) recommend it for soft partitions",
       "The strictest NMI: a metric in its distance form, but still not corrected for chance.",
       lambda c: it.normalized_mutual_information(c, "max")),
    _i("nmi_min", "NMI (min)", "information", 0, 1, 1.0, True, False, True,
       r"\mathrm{NMI}_{min} = \frac{\mathrm{MI}}{\min(H_a,H_b)}",
       VINH,
       "Reaches 1 whenever one partition refines the other (splitting every cluster in two still "
       "scores 1): it cannot see over-segmentation.",
       lambda c: it.normalized_mutual_information(c, "min")),
    _i("nmi_joint", "NMI (joint entropy)", "information", 0, 1, 1.0, True, False, True,
       r"\mathrm{NMI}_{joint} = \frac{\mathrm{MI}}{H_{ab}}",
       VINH,
       "Equal to 1 - VI/H_ab; tends to be lower than the other NMIs for the same pair.",
       lambda c: it.normalized_mutual_information(c, "joint")),
    _i("vi", "Variation of information", "information", 0, INF, 0.0, False, False, True,
       r"\mathrm{VI} = H_a + H_b - 2\,\mathrm{MI}",
       "Meila (2007), Comparing clusterings - an information based distance, J. Multivariate Analysis 98",
       "A true metric, but in nats and bounded by log N: its size depends on N and K, so values are "
       "not comparable across data sets.",
       it.variation_of_information),
    _i("nvi", "Normalised variation of information", "information", 0, 1, 0.0, False, False, True,
       r"\mathrm{NVI} = \frac{H_a+H_b-2\,\mathrm{MI}}{H_a+H_b}",
       "Wu, Xiong & Chen (2009), KDD; equals 1 - NMI (arithmetic)",
       "1 - NMI_sum in disguise: it shares NMI's bias towards many clusters and large clusters.",
       it.normalized_variation_of_information),
    _i("ami", "Adjusted mutual information", "information", -INF, 1, 1.0, True, True, True,
       r"\mathrm{AMI} = \frac{\mathrm{MI}-E[\mathrm{MI}]}{\frac{H_a+H_b}{2}-E[\mathrm{MI}]}",
       VINH,
       "Corrected for chance under the permutation model, but still size-weighted like NMI; for "
       "large N the correction vanishes and AMI = NMI (Rezaei & Fränti, Theorem 1). NaN for soft "
       "tables, where the hypergeometric model does not apply.",
       it.adjusted_mutual_information, soft=False),
    # ------------------------------------------------------------------ set matching
    _i("f_measure", "F-measure", "set_matching", 0, 1, 1.0, True, False, False,
       r"F = \frac{1}{N}\sum_i r_i \max_j \frac{2 n_{ij}}{r_i + c_j}",
       "Larsen & Aone (1999), KDD; de Souto et al. (2012)",
       "One-way matching over the reference's clusters, weighted by size: several reference clusters "
       "may match the same candidate cluster, and small clusters weigh little.",
       lambda c: sm.f_measure(c, "true")),
    _i("f_measure_pred", "F-measure (over candidate)", "set_matching", 0, 1, 1.0, True, False, False,
       r"F' = \frac{1}{N}\sum_j c_j \max_i \frac{2 n_{ij}}{r_i + c_j}",
       PSI_PAPER + ", Table 2 (sum over P's clusters)",
       "The paper's literal direction: sums over the candidate's clusters, so splitting a reference "
       "cluster is penalised differently from merging two.",
       lambda c: sm.f_measure(c, "pred")),
    _i("purity", "Purity", "set_matching", 0, 1, 1.0, True, False, False,
       r"\mathrm{Purity} = \frac{1}{N}\sum_j \max_i n_{ij}",
       "Rendón et al. (2011); equal to 'accuracy' of Nguyen & Caruana (2007)",
       "Reaches 1 for all singletons: it never penalises splitting clusters. Use it only with equal K.",
       lambda c: sm.purity(c, "pred")),
    _i("purity_inverse", "Inverse purity", "set_matching", 0, 1, 1.0, True, False, False,
       r"\mathrm{Purity}^{-1} = \frac{1}{N}\sum_i \max_j n_{ij}",
       "Rendón et al. (2011)",
       "Reaches 1 when the candidate is one single cluster: it never penalises merging.",
       lambda c: sm.purity(c, "true")),
    _i("nvd", "Normalised van Dongen", "set_matching", 0, 1, 0.0, False, False, True,
       r"\mathrm{NVD} = \frac{2N - \sum_i \max_j n_{ij} - \sum_j \max_i n_{ij}}{2N}",
       "van Dongen (2000), CWI report INS-R0012",
       "Not corrected for chance (random partitions are far from 1) and blind to small clusters: "
       "merging two small clusters costs only their smaller size.",
       sm.van_dongen),
    _i("ch_greedy", "Criterion H (greedy)", "set_matching", 0, 1, 0.0, False, False, False,
       r"\mathrm{CH} = 1 - \frac{1}{N}\sum_{(i,j)\in\text{greedy}} n_{ij}",
       "Meila & Heckerman (2001), Machine Learning 42",
       "The greedy pairing can miss the best pairing; symmetric except when equal cells tie, where "
       "the cell whose reference cluster occurs first in the data wins (then the candidate's).",
       lambda c: sm.criterion_h(c, "greedy")),
    _i("ch_optimal", "Criterion H (optimal)", "set_matching", 0, 1, 0.0, False, False, True,
       r"\mathrm{CH}^* = 1 - \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
       "Meila & Heckerman (2001); = 1 - pivoted accuracy",
       "Weighted by cluster size: a perfectly found small cluster counts for little.",
       lambda c: sm.criterion_h(c, "optimal")),
    _i("pa", "Pivoted accuracy", "set_matching", 0, 1, 1.0, True, False, True,
       r"\mathrm{PA} = \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
       "Gagolewski (2022); Steinley (2004) 'classification rate'",
       "Never below 1/max(K_a, K_b) and not corrected for chance; dominated by the largest clusters.",
       sm.pivoted_accuracy),
    _i("na", "Normalised pivoted accuracy", "set_matching", 0, 1, 1.0, True, False, True,
       r"\mathrm{NA} = \frac{\mathrm{PA} - 1/k}{1 - 1/k},\; k=\max(K_a,K_b)",
       GAGOLEWSKI,
       "Normalised to [0, 1] but still dominated by the largest clusters.",
       sm.normalized_accuracy),
    _i("aaa", "Adjusted asymmetric accuracy", "set_matching", -1, 1, 1.0, True, True, False,
       r"\mathrm{AAA} = \frac{\max_\sigma \frac{1}{K_a}\sum_i \frac{n_{i\sigma(i)}}{r_i} - \frac{1}{K_a}}"
       r"{1 - \frac{1}{K_a}}",
       GAGOLEWSKI,
       "Asymmetric by design (recall per reference cluster): extra candidate clusters are penalised "
       "only through the rows they fail to cover. Undefined when the reference has one cluster.",
       sm.adjusted_asymmetric_accuracy),
    _i("psi", "Pair Sets Index", "set_matching", 0, 1, 1.0, True, True, True,
       r"\mathrm{PSI} = \frac{S - E}{\max(K_a,K_b) - E},\; S = \max_\sigma \sum_i "
       r"\frac{n_{i\sigma(i)}}{\max(r_i, c_{\sigma(i)})}",
       PSI_PAPER,
       "Each cluster counts the same whatever its size: on imbalanced data, a lost small cluster costs "
       "as much as a lost large one. Clipped at 0 (S < E), so it cannot say 'worse than chance'.",
       lambda c: sm.pair_sets_index(c, simplified=False)),
    _i("psi_simplified", "Simplified PSI", "set_matching", 0, 1, 1.0, True, False, True,
       r"\mathrm{PSI}^* = \frac{S - 1}{\max(K_a,K_b) - 1}",
       PSI_PAPER + ", eq. (20)",
       "Assumes the expectation E is 1 (true when the two partitions have similar cluster sizes): "
       "a metric, but only approximately corrected for chance.",
       lambda c: sm.pair_sets_index(c, simplified=True)),
    # ------------------------------------------------------------------ cluster level
    _i("ci_partition", "Centroid index (partition-based)", "cluster_level", 0, INF, 0.0, False, False, True,
       r"\mathrm{CI} = \max(\mathrm{orphans}(G\to P), \mathrm{orphans}(P\to G))",
       CI_PAPER,
       "Counts missing clusters, not misplaced objects: two partitions with CI = 0 can still differ "
       "in many border points.",
       lambda c: cl.centroid_index(c, "partition")),
    _i("csi_partition", "Centroid similarity index (partition-based)", "cluster_level", 0, 1, 1.0, True, False,
       True,
       r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
       CI_PAPER,
       "Object-level counterpart of CI with the same nearest-neighbour mapping; not corrected for chance.",
       lambda c: cl.centroid_similarity_index(c, "partition")),
    _i("ci_centroid", "Centroid index", "cluster_level", 0, INF, 0.0, False, False, True,
       r"\mathrm{CI} = \max(\mathrm{orphans}(C\to C'), \mathrm{orphans}(C'\to C))",
       CI_PAPER,
       "Maps clusters by centroid distance: for non-convex clusters (rings, spirals) the nearest "
       "centroid need not be the matching cluster.",
       lambda c: cl.centroid_index(c, "centroid"), needs_data=True),
    _i("csi_centroid", "Centroid similarity index", "cluster_level", 0, 1, 1.0, True, False, True,
       r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
       CI_PAPER,
       "As CSI (partition-based), with the nearest-centroid mapping.",
       lambda c: cl.centroid_similarity_index(c, "centroid"), needs_data=True),
    _i("cr", "Centroid ratio", "cluster_level", 0, 1, 1.0, True, False, True,
       r"\mathrm{CR} = 1 - \frac{\#\text{unstable pairs}}{K}",
       "Zhao & Fränti (2014), Centroid ratio for a pairwise random swap clustering algorithm, IEEE TKDE 26(5)",
       "A cluster-level yes/no per pair: says nothing about how many objects are misplaced.",
       cl.centroid_ratio, needs_data=True),
]

INDICES: dict[str, IndexInfo] = {info.id: info for info in _ALL}


def get_index(index_id: str) -> IndexInfo:
    """The registry entry of `index_id`; a ValueError lists the valid ids otherwise."""
    try:
        return INDICES[index_id]
    except (KeyError, TypeError):
        raise CluvalError(f"unknown index id {index_id!r}; valid ids: {', '.join(INDICES)}") from None


def index_table():
    """The registry as a pandas DataFrame (one row per index, without the compute function)."""
    import pandas as pd

    rows = []
    for info in INDICES.values():
        rows.append({
            "id": info.id, "name": info.name, "family": FAMILIES[info.family],
            "range": f"[{info.range[0]:g}, {info.range[1]:g}]", "best": info.best,
            "kind": info.kind, "chance adjusted": info.chance_adjusted, "symmetric": info.symmetric,
            "needs X": info.needs_data, "soft tables": info.soft, "formula": info.formula, "reference": info.reference,
        })
    return pd.DataFrame(rows)

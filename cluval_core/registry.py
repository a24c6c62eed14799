"""The index registry: one table that drives the API, the app, the docs and the tests.

Every fact about an index lives in its entry here and everything else reads it: family,
range and direction, chance adjustment, symmetry, whether it needs the data X, whether it
is meaningful on soft tables, whether its values are whole numbers, whether it can depend
on the tie order, and the public one-line function that computes it.

>>> INDICES["psi"].name, INDICES["psi"].best, INDICES["psi"].higher_is_better
('Pair Sets Index', 1.0, True)
>>> INDICES["nmi_max"].call
'cluval_core.normalized_mutual_info_score(labels_true, labels_pred, normaliser="max")'
>>> INDICES["ci_centroid"].call
'cluval_core.centroid_index(labels_true, labels_pred, X=X)'
>>> [info.id for info in find_indices("Rand")]
['ri', 'ari', 'mari']
>>> get_index("nope")
Traceback (most recent call last):
...
cluval_core.CluvalError: unknown index id 'nope'; valid ids: ri, ari, ...
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import cluster_level as cl
from . import information as it
from . import modern as md
from . import pair_counting as pc
from . import scores as sc
from . import set_matching as sm
from ._validation import CluvalError

__all__ = ["FAMILIES", "INDICES", "IndexInfo", "find_indices", "get_index", "index_table"]

INF = math.inf

FAMILIES = {
    "pair_counting": "Pair counting",
    "information": "Information theoretic",
    "set_matching": "Set matching",
    "object_level": "Object level (BCubed, element-centric)",
    "cluster_level": "Cluster level (centroid index family)",
}

PSI_PAPER = "Rezaei & Fränti (2016), Set matching measures for external cluster validity, IEEE TKDE 28(8)"
CI_PAPER = "Fränti, Rezaei & Zhao (2014), Centroid index: cluster level similarity measure, Pattern Recognition 47(9)"
VINH = "Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison, JMLR 11"
GAGOLEWSKI = "Gagolewski (2022), Adjusted asymmetric accuracy: a well-behaving external cluster validity measure"
ROSENBERG = "Rosenberg & Hirschberg (2007), V-measure: a conditional entropy-based external cluster evaluation measure, EMNLP"
BCUBED = ("Bagga & Baldwin (1998), Entity-based cross-document coreferencing using the vector space model; "
          "Amigó, Gonzalo, Artiles & Verdejo (2009), Information Retrieval 12")
GOSGENS = ("Gösgens, Tikhonov & Prokhorenkova (2021), Systematic analysis of cluster similarity indices: how to "
           "validate validation measures, ICML")
JERDEE = "Jerdee, Kirkley & Newman (2024), Mutual information and the encoding of contingency tables, Phys. Rev. E 110"
AMI_MEANS = {"sqrt": ("geometric mean", r"\sqrt{H_a H_b}"), "max": ("max", r"\max(H_a, H_b)"),
             "min": ("min", r"\min(H_a, H_b)")}


@dataclass(frozen=True, kw_only=True)
class IndexInfo:
    """Everything cluval knows about one index.

    Attributes
    ----------
    id, name, family : str
        The index id used everywhere (``compare(...).score(id)``), its display name and its
        family (a key of :data:`FAMILIES`).
    range : tuple of float
        The values it can take; ``best`` is the upper end for similarities, the lower end
        for distances.
    higher_is_better : bool
        True for a similarity, False for a distance (``kind`` says it in words).
    chance_adjusted, symmetric, needs_data : bool
        Corrected for chance; unchanged when the two partitions swap; needs the data X.
    soft : bool
        Meaningful on a real-valued table: soft memberships N* = U^T V, or objects with real
        weights (``compare(..., sample_weight=w)``); ``score`` gives NaN otherwise (the index needs
        counts: the hypergeometric model, the reduced encodings, per-object coordinates).
    integer_valued : bool
        Its values are whole numbers (counts of clusters): displays show them without decimals.
    tie_dependent : bool
        Its value can depend on the tie order (INDICES.md, "Ties"): the index reads a greedy
        pairing or a nearest-cluster mapping, where equal candidates are decided by the order
        in which clusters first occur. Optimal pairings and row or column maxima are not:
        their value is the same whichever tied choice is made.
    anatomy : bool
        :meth:`Comparison.contributions` gives a table shaped like the contingency table
        whose cells (plus at most one constant) add up to the value (INDICES.md,
        "Contributions"). The Centroid Index has per-cluster contributions instead.
    function, function_options : callable, dict
        The public one-line function that computes it and the keyword options that select
        this index (``function(labels_true, labels_pred, **function_options)``, with
        ``X=X`` when ``needs_data``); ``call`` writes that call out.
    formula, symbols : str
        The definition in LaTeX, and what its symbols mean beyond the common notation
        (n_ij, r_i, c_j, N, K_a, K_b, pair counts a, b, c, d, entropies H), in Markdown.
    reference, caveat : str
        Where it is defined, and when it misleads.
    compute : callable
        ``compute(comparison) -> float``, used by :meth:`Comparison.score`.
    """

    id: str
    name: str
    family: str
    range: tuple[float, float]
    higher_is_better: bool
    chance_adjusted: bool
    symmetric: bool
    needs_data: bool = False
    soft: bool = True
    integer_valued: bool = False
    tie_dependent: bool = False
    anatomy: bool = True
    function: Callable
    function_options: dict = field(default_factory=dict, hash=False)
    formula: str
    symbols: str = ""
    reference: str
    caveat: str
    compute: Callable

    @property
    def kind(self) -> str:
        return "similarity" if self.higher_is_better else "distance"

    @property
    def best(self) -> float:
        """The value of identical partitions: the top of the range, or its bottom for a distance."""
        return float(self.range[1] if self.higher_is_better else self.range[0])

    @property
    def call(self) -> str:
        """The public call that computes this index, as a user would write it."""
        options = [f"{name}={_literal(value)}" for name, value in self.function_options.items()]
        if self.needs_data:
            options.append("X=X")
        return f"cluval_core.{self.function.__name__}({', '.join(['labels_true', 'labels_pred', *options])})"


def _literal(value) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


_ALL = [
    # ------------------------------------------------------------------ pair counting
    IndexInfo(
        id="ri", name="Rand index", family="pair_counting", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.rand_score,
        formula=r"\mathrm{RI} = \frac{a+d}{\binom{N}{2}}",
        reference="Rand (1971), Objective criteria for the evaluation of clustering methods, JASA 66",
        caveat="Not corrected for chance: random partitions with many clusters score close to 1, because "
               "almost every pair is 'apart in both'. Compare RI values only for equal K and N.",
        compute=pc.rand),
    IndexInfo(
        id="ari", name="Adjusted Rand index", family="pair_counting", range=(-1, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=sc.adjusted_rand_score,
        formula=r"\mathrm{ARI} = \frac{2(ad-bc)}{(a+b)(b+d)+(a+c)(c+d)}",
        reference="Hubert & Arabie (1985), Comparing partitions, J. Classification 2",
        caveat="Counts pairs, so a cluster of n objects weighs like n^2: errors in small clusters barely move it "
               "(on imbalanced data a clustering that merges all small clusters can still score above 0.9).",
        compute=pc.adjusted_rand),
    IndexInfo(
        id="fowlkes_mallows", name="Fowlkes-Mallows index", family="pair_counting", range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=True, function=sc.fowlkes_mallows_score,
        formula=r"\mathrm{FM} = \frac{a}{\sqrt{(a+b)(a+c)}}",
        reference="Fowlkes & Mallows (1983), A method for comparing two hierarchical clusterings, JASA 78",
        caveat="Ignores pairs apart in both partitions; not corrected for chance and high whenever one large "
               "cluster dominates. Undefined (NaN) when one partition has only singletons.",
        compute=pc.fowlkes_mallows),
    IndexInfo(
        id="afm", name="Adjusted Fowlkes-Mallows", family="pair_counting", range=(-INF, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=sc.adjusted_fowlkes_mallows_score,
        formula=r"\mathrm{AFM} = \frac{\mathrm{FM}-E}{1-E},\; E=\frac{\sqrt{(a+b)(a+c)}}{\binom{N}{2}}",
        reference="Fowlkes & Mallows (1983); Albatineh et al. (2006), J. Classification 23",
        caveat="A rough chance correction (E is not the exact expectation under the permutation model); "
               "undefined when both partitions are a single cluster.",
        compute=pc.adjusted_fowlkes_mallows),
    IndexInfo(
        id="mari", name="Modified adjusted Rand index", family="pair_counting", range=(-INF, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, anatomy=False, function=sc.modified_adjusted_rand_score,
        formula=r"\mathrm{MARI} = \frac{a - \hat E}{\frac{(a+b)+(a+c)}{2} - \hat E},\; \hat E = "
                r"\binom{N}{2}\frac{(a+b)(a+c) - a - (T_1 + T_2 + T_3)}{6\binom{N}{4}}",
        symbols="Ê is the expectation of a when the objects are drawn independently (the multinomial model) "
                "instead of with fixed cluster sizes: T₁ = 2N, T₂ = Σ n_ij r_i c_j, "
                "T₃ = −Σ n_ij² − Σ r_i² − Σ c_j². NaN below 4 objects.",
        reference="Sundqvist, Chiquet & Rigaill (2023), Adjusting the adjusted Rand index, Computational "
                  "Statistics 38",
        caveat="Corrects ARI's chance model (the cluster sizes are random too) and is then unbiased; close "
               "to ARI for large N, so it shares ARI's weighting of large clusters.",
        compute=md.modified_adjusted_rand),
    IndexInfo(
        id="pair_correlation", name="Pair-counting correlation", family="pair_counting", range=(-1, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=True, function=sc.pair_correlation_coefficient,
        formula=r"\mathrm{CC} = \frac{Ma - m_a m_b}{\sqrt{m_a m_b (M - m_a)(M - m_b)}}",
        symbols="M = C(N, 2) pairs; m_a = a + b and m_b = a + c are the pairs together in the reference and in "
                "the candidate: CC is the Pearson correlation of the two partitions' 'together' indicators "
                "over all pairs.",
        reference=GOSGENS,
        caveat="Satisfies nearly every desirable property Gösgens et al. list (constant baseline 0, "
               "symmetric, monotone); undefined (NaN) when one side is one cluster or all singletons.",
        compute=md.pair_correlation),
    IndexInfo(
        id="pair_correlation_distance", name="Pair-counting correlation distance", family="pair_counting",
        range=(0, 1), higher_is_better=False, chance_adjusted=False, symmetric=True, anatomy=False,
        function=sc.pair_correlation_distance,
        formula=r"\mathrm{CD} = \frac{\arccos \mathrm{CC}}{\pi}",
        symbols="CC is the pair-counting correlation; its arccos is the angle between the two partitions' "
                "centred pair-indicator vectors.",
        reference=GOSGENS,
        caveat="A metric on partitions whose value by chance is a constant 0.5 (CC = 0), not 0; undefined where "
               "CC is.",
        compute=md.pair_correlation_distance),
    IndexInfo(
        id="pair_jaccard", name="Jaccard index (pairs)", family="pair_counting", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.pair_jaccard_score,
        formula=r"J = \frac{a}{a+b+c}",
        symbols="The Jaccard similarity of the two sets of pairs put together; 1 when neither side puts any "
                "pair together (both all singletons).",
        reference="Jaccard (1912); Ben-Hur, Elisseeff & Guyon (2002), PSB",
        caveat="Ignores pairs apart in both; not corrected for chance and biased towards few large clusters.",
        compute=md.pair_jaccard),
    IndexInfo(
        id="sokal_sneath", name="Sokal-Sneath index", family="pair_counting", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.sokal_sneath_score,
        formula=r"\mathrm{SS} = \frac{1}{4}\left(\frac{a}{a+b} + \frac{a}{a+c} + \frac{d}{d+b} + \frac{d}{d+c}\right)",
        symbols="The mean of the four conditional agreement rates of the pair counts.",
        reference="Sokal & Sneath (1963), Principles of numerical taxonomy; 'Sokal & Sneath 1' in " + GOSGENS,
        caveat="Weighs together and apart pairs alike, so it stays near 0.5 by chance rather than 0; NaN when a "
               "denominator is 0 (one side one cluster or all singletons) unless the partitions are identical.",
        compute=md.sokal_sneath),
    # ------------------------------------------------------------------ information theoretic
    IndexInfo(
        id="mi", name="Mutual information", family="information", range=(0, INF), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.mutual_info_score,
        formula=r"\mathrm{MI} = \sum_{ij} \frac{n_{ij}}{N}\log\frac{N n_{ij}}{r_i c_j}",
        reference="Shannon (1948); Strehl & Ghosh (2002), JMLR 3",
        caveat="Unbounded and grows with the number of clusters: a finer candidate always shares more "
               "information. Its best value depends on the data (the entropies), so it is not comparable "
               "across data sets.",
        compute=it.mutual_information),
    IndexInfo(
        id="nmi_sum", name="NMI (arithmetic mean)", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.normalized_mutual_info_score,
        formula=r"\mathrm{NMI}_{sum} = \frac{2\,\mathrm{MI}}{H_a+H_b}",
        reference="Kvalseth (1987), IEEE SMC 17; equal to the V-measure (Rosenberg & Hirschberg 2007)",
        caveat="Not corrected for chance: random partitions with many clusters score well above 0. Like ARI "
               "it weighs clusters by size, so small clusters barely count.",
        compute=lambda c: it.normalized_mutual_information(c, "sum")),
    IndexInfo(
        id="nmi_sqrt", name="NMI (geometric mean)", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True,
        function=sc.normalized_mutual_info_score, function_options={"normaliser": "sqrt"},
        formula=r"\mathrm{NMI}_{sqrt} = \frac{\mathrm{MI}}{\sqrt{H_a H_b}}",
        reference="Strehl & Ghosh (2002), JMLR 3",
        caveat="As NMI (arithmetic); the geometric mean rewards a lopsided pair of entropies slightly more.",
        compute=lambda c: it.normalized_mutual_information(c, "sqrt")),
    IndexInfo(
        id="nmi_max", name="NMI (max)", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True,
        function=sc.normalized_mutual_info_score, function_options={"normaliser": "max"},
        formula=r"\mathrm{NMI}_{max} = \frac{\mathrm{MI}}{\max(H_a,H_b)}",
        reference=VINH + "; Lei et al. (2017) recommend it for soft partitions",
        caveat="The strictest NMI: a metric in its distance form, but still not corrected for chance.",
        compute=lambda c: it.normalized_mutual_information(c, "max")),
    IndexInfo(
        id="nmi_min", name="NMI (min)", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True,
        function=sc.normalized_mutual_info_score, function_options={"normaliser": "min"},
        formula=r"\mathrm{NMI}_{min} = \frac{\mathrm{MI}}{\min(H_a,H_b)}",
        reference=VINH,
        caveat="Reaches 1 whenever one partition refines the other (splitting every cluster in two still "
               "scores 1): it cannot see over-segmentation.",
        compute=lambda c: it.normalized_mutual_information(c, "min")),
    IndexInfo(
        id="nmi_joint", name="NMI (joint entropy)", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True,
        function=sc.normalized_mutual_info_score, function_options={"normaliser": "joint"},
        formula=r"\mathrm{NMI}_{joint} = \frac{\mathrm{MI}}{H_{ab}}",
        symbols="H_ab is the joint entropy, of the table's cells n_ij / N.",
        reference=VINH,
        caveat="Equal to 1 - VI/H_ab; tends to be lower than the other NMIs for the same pair.",
        compute=lambda c: it.normalized_mutual_information(c, "joint")),
    IndexInfo(
        id="vi", name="Variation of information", family="information", range=(0, INF), higher_is_better=False,
        chance_adjusted=False, symmetric=True, function=sc.variation_of_information,
        formula=r"\mathrm{VI} = H_a + H_b - 2\,\mathrm{MI}",
        reference="Meila (2007), Comparing clusterings - an information based distance, J. Multivariate Analysis 98",
        caveat="A true metric, but in nats and bounded by log N: its size depends on N and K, so values are "
               "not comparable across data sets.",
        compute=it.variation_of_information),
    IndexInfo(
        id="nvi", name="Normalised variation of information", family="information", range=(0, 1),
        higher_is_better=False, chance_adjusted=False, symmetric=True,
        function=sc.normalized_variation_of_information,
        formula=r"\mathrm{NVI} = \frac{H_a+H_b-2\,\mathrm{MI}}{H_a+H_b}",
        reference="Wu, Xiong & Chen (2009), KDD; equals 1 - NMI (arithmetic)",
        caveat="1 - NMI_sum in disguise: it shares NMI's bias towards many clusters and large clusters.",
        compute=it.normalized_variation_of_information),
    IndexInfo(
        id="ami", name="Adjusted mutual information", family="information", range=(-INF, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, soft=False, function=sc.adjusted_mutual_info_score,
        formula=r"\mathrm{AMI} = \frac{\mathrm{MI}-E[\mathrm{MI}]}{\frac{H_a+H_b}{2}-E[\mathrm{MI}]}",
        symbols="E[MI] is the expected mutual information when the objects are assigned at random with both "
                "partitions' cluster sizes fixed (the permutation model, hypergeometric).",
        reference=VINH,
        caveat="Corrected for chance under the permutation model, but still size-weighted like NMI; for "
               "large N the correction vanishes and AMI = NMI (Rezaei & Fränti, Theorem 1). NaN for soft "
               "tables, where the hypergeometric model does not apply.",
        compute=it.adjusted_mutual_information),
    *[IndexInfo(
        id=f"ami_{mean}", name=f"Adjusted mutual information ({words})", family="information", range=(-INF, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=True, soft=False,
        function=sc.adjusted_mutual_info_score, function_options={"normaliser": mean},
        formula=rf"\mathrm{{AMI}}_{{{mean}}} = \frac{{\mathrm{{MI}}-E[\mathrm{{MI}}]}}{{{bound}-E[\mathrm{{MI}}]}}",
        symbols="E[MI] is the expected mutual information under the permutation model, as for AMI.",
        reference=VINH + "; scikit-learn's average_method",
        caveat={"sqrt": "Between AMI (max) and AMI (min); the normaliser of NMI (geometric mean).",
                "max": "The most conservative AMI: the larger entropy bounds it, so refining a partition is "
                       "penalised most; like every AMI it weighs clusters by size.",
                "min": "The smaller entropy bounds it: a candidate that refines the reference can still score "
                       "close to 1, as NMI (min) does."}[mean],
        compute=lambda c, mean=mean: it.adjusted_mutual_information(c, mean))
      for mean, (words, bound) in AMI_MEANS.items()],
    IndexInfo(
        id="homogeneity", name="Homogeneity", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.homogeneity_score,
        formula=r"h = \frac{\mathrm{MI}}{H_a} = 1 - \frac{H(G \mid P)}{H_a}",
        symbols="H(G | P) is the entropy of the reference given the candidate; h = 1 when H_a = 0.",
        reference=ROSENBERG,
        caveat="Reaches 1 for all singletons (each candidate cluster is pure): it never penalises splitting. "
               "Read it with completeness.",
        compute=md.homogeneity),
    IndexInfo(
        id="completeness", name="Completeness", family="information", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.completeness_score,
        formula=r"c = \frac{\mathrm{MI}}{H_b} = 1 - \frac{H(P \mid G)}{H_b}",
        symbols="H(P | G) is the entropy of the candidate given the reference; c = 1 when H_b = 0.",
        reference=ROSENBERG,
        caveat="Reaches 1 when the candidate is one cluster: it never penalises merging. Read it with "
               "homogeneity; their harmonic mean (the V-measure) is NMI (arithmetic).",
        compute=md.completeness),
    IndexInfo(
        id="rmi", name="Reduced mutual information", family="information", range=(-INF, INF), higher_is_better=True,
        chance_adjusted=True, symmetric=False, soft=False, anatomy=False, function=sc.reduced_mutual_information,
        formula=r"\mathrm{RMI} = \frac{1}{N}\left[H(g) - H(g \mid c)\right]",
        symbols="H(g) is the information needed to transmit the reference labels: its cluster sizes under a "
                "Dirichlet-multinomial prior (its concentration chosen to minimise the cost), then the labels; "
                "H(g | c) the same given the candidate, column by column of the table. In nats per object; "
                "the reference is the 'ground truth' side, so RMI is slightly asymmetric.",
        reference=JERDEE,
        caveat="In nats per object, like MI: its size depends on N and the entropies, so it is not comparable "
               "across data sets (use NRMI). Negative when the candidate says less about the reference than "
               "it costs to describe the table.",
        compute=md.reduced_mutual_information),
    IndexInfo(
        id="rmi_flat", name="Reduced mutual information (flat)", family="information", range=(-INF, INF),
        higher_is_better=True, chance_adjusted=True, symmetric=False, soft=False,
        function=sc.reduced_mutual_information, function_options={"reduction": "flat"},
        formula=r"\mathrm{RMI}_{flat} = \frac{1}{N}\left[\log\frac{N!\,\prod_{ij} n_{ij}!}{\prod_i r_i!\,"
                r"\prod_j c_j!} - \log\Omega(c, r)\right]",
        symbols="Ω(c, r) is the number of tables of counts whose row sums are the candidate's cluster sizes and "
                "column sums the reference's, by the effective-columns estimate (exact when the reference is "
                "all singletons).",
        reference="Newman, Cantwell & Young (2020), Improved mutual information measure for clustering, "
                  "classification, and community detection, Phys. Rev. E 101",
        caveat="Every table with the given margins is taken as equally likely, which over-corrects for "
               "tables with very unequal clusters; the Dirichlet-multinomial RMI fixes that.",
        compute=md.reduced_mutual_information_flat),
    IndexInfo(
        id="nrmi", name="Normalised reduced mutual information", family="information", range=(-INF, 1),
        higher_is_better=True, chance_adjusted=True, symmetric=False, soft=False, anatomy=False,
        function=sc.normalized_reduced_mutual_information,
        formula=r"\mathrm{NRMI} = \frac{\mathrm{RMI}(g; c)}{\mathrm{RMI}(g; g)}",
        symbols="RMI(g; g) is the reference's reduced entropy, the RMI of the reference with itself: NRMI is the "
                "share of the reference that the candidate tells.",
        reference="Jerdee, Kirkley & Newman (2023), Normalized mutual information is a biased measure for "
                  "classification and community detection, arXiv:2307.01282",
        caveat="Asymmetric by design (normalised by the reference alone); 0 when the reference's reduced "
               "entropy is not positive (one cluster, or too few objects).",
        compute=md.normalized_reduced_mutual_information),
    # ------------------------------------------------------------------ set matching
    IndexInfo(
        id="f_measure", name="F-measure", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.f_measure,
        formula=r"F = \frac{1}{N}\sum_i r_i \max_j \frac{2 n_{ij}}{r_i + c_j}",
        reference="Larsen & Aone (1999), KDD; de Souto et al. (2012)",
        caveat="One-way matching over the reference's clusters, weighted by size: several reference clusters "
               "may match the same candidate cluster, and small clusters weigh little.",
        compute=lambda c: sm.f_measure(c, "true")),
    IndexInfo(
        id="f_measure_pred", name="F-measure (over candidate)", family="set_matching", range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=False,
        function=sc.f_measure, function_options={"over": "pred"},
        formula=r"F' = \frac{1}{N}\sum_j c_j \max_i \frac{2 n_{ij}}{r_i + c_j}",
        reference=PSI_PAPER + ", Table 2 (sum over P's clusters)",
        caveat="The paper's literal direction: sums over the candidate's clusters, so splitting a reference "
               "cluster is penalised differently from merging two.",
        compute=lambda c: sm.f_measure(c, "pred")),
    IndexInfo(
        id="purity", name="Purity", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.purity_score,
        formula=r"\mathrm{Purity} = \frac{1}{N}\sum_j \max_i n_{ij}",
        reference="Rendón et al. (2011); equal to 'accuracy' of Nguyen & Caruana (2007)",
        caveat="Reaches 1 for all singletons: it never penalises splitting clusters. Use it only with equal K.",
        compute=lambda c: sm.purity(c, "pred")),
    IndexInfo(
        id="purity_inverse", name="Inverse purity", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.purity_score, function_options={"inverse": True},
        formula=r"\mathrm{Purity}^{-1} = \frac{1}{N}\sum_i \max_j n_{ij}",
        reference="Rendón et al. (2011)",
        caveat="Reaches 1 when the candidate is one single cluster: it never penalises merging.",
        compute=lambda c: sm.purity(c, "true")),
    IndexInfo(
        id="nvd", name="Normalised van Dongen", family="set_matching", range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=True, function=sc.van_dongen_distance,
        formula=r"\mathrm{NVD} = \frac{2N - \sum_i \max_j n_{ij} - \sum_j \max_i n_{ij}}{2N}",
        reference="van Dongen (2000), CWI report INS-R0012",
        caveat="Not corrected for chance (random partitions are far from 1) and blind to small clusters: "
               "merging two small clusters costs only their smaller size.",
        compute=sm.van_dongen),
    IndexInfo(
        id="ch_greedy", name="Criterion H (greedy)", family="set_matching", range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=False, tie_dependent=True, function=sc.criterion_h,
        formula=r"\mathrm{CH} = 1 - \frac{1}{N}\sum_{(i,j)\in\text{greedy}} n_{ij}",
        symbols="The greedy pairing repeatedly takes the largest remaining cell and deletes its row and column; "
                "among equal cells, the one whose reference cluster occurs first in the data wins (then the "
                "candidate's).",
        reference="Meila & Heckerman (2001), Machine Learning 42",
        caveat="The greedy pairing can miss the best pairing; symmetric except when equal cells tie, where "
               "the cell whose reference cluster occurs first in the data wins (then the candidate's).",
        compute=lambda c: sm.criterion_h(c, "greedy")),
    IndexInfo(
        id="ch_optimal", name="Criterion H (optimal)", family="set_matching", range=(0, 1), higher_is_better=False,
        chance_adjusted=False, symmetric=True,
        function=sc.criterion_h, function_options={"pairing": "optimal"},
        formula=r"\mathrm{CH}^* = 1 - \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
        symbols="σ runs over the one-to-one pairings of reference and candidate clusters; clusters left "
                "unpaired add 0.",
        reference="Meila & Heckerman (2001); = 1 - pivoted accuracy",
        caveat="Weighted by cluster size: a perfectly found small cluster counts for little.",
        compute=lambda c: sm.criterion_h(c, "optimal")),
    IndexInfo(
        id="pa", name="Pivoted accuracy", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.pivoted_accuracy,
        formula=r"\mathrm{PA} = \frac{1}{N}\max_\sigma \sum_i n_{i\sigma(i)}",
        symbols="σ runs over the one-to-one pairings of reference and candidate clusters; clusters left "
                "unpaired add 0.",
        reference="Gagolewski (2022); Steinley (2004) 'classification rate'",
        caveat="Never below 1/max(K_a, K_b) and not corrected for chance; dominated by the largest clusters.",
        compute=sm.pivoted_accuracy),
    IndexInfo(
        id="na", name="Normalised pivoted accuracy", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.normalized_accuracy,
        formula=r"\mathrm{NA} = \frac{\mathrm{PA} - 1/k}{1 - 1/k},\; k=\max(K_a,K_b)",
        reference=GAGOLEWSKI,
        caveat="Normalised to [0, 1] but still dominated by the largest clusters.",
        compute=sm.normalized_accuracy),
    IndexInfo(
        id="aaa", name="Adjusted asymmetric accuracy", family="set_matching", range=(-1, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=False, function=sc.adjusted_asymmetric_accuracy,
        formula=r"\mathrm{AAA} = \frac{\max_\sigma \frac{1}{K_a}\sum_i \frac{n_{i\sigma(i)}}{r_i} - \frac{1}{K_a}}"
                r"{1 - \frac{1}{K_a}}",
        symbols="σ runs over the one-to-one pairings of reference and candidate clusters; a reference cluster "
                "left unpaired adds 0.",
        reference=GAGOLEWSKI,
        caveat="Asymmetric by design (recall per reference cluster): extra candidate clusters are penalised "
               "only through the rows they fail to cover. Undefined when the reference has one cluster.",
        compute=sm.adjusted_asymmetric_accuracy),
    IndexInfo(
        id="psi", name="Pair Sets Index", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=True, symmetric=True, function=sc.pair_sets_index,
        formula=r"\mathrm{PSI} = \frac{S - E}{\max(K_a,K_b) - E},\quad S = \max_\sigma \sum_i "
                r"\frac{n_{i\sigma(i)}}{\max(r_i, c_{\sigma(i)})},\quad E = \sum_{i=1}^{\min(K_a,K_b)} "
                r"\frac{r_{(i)}\, c_{(i)} / N}{\max(r_{(i)}, c_{(i)})}",
        symbols="S is the similarity of the best one-to-one pairing σ of the clusters (Hungarian algorithm). "
                "E is the S expected by chance, with the largest reference cluster paired with the largest "
                "candidate cluster, the second largest with the second largest, and so on: r₍₁₎ ≥ r₍₂₎ ≥ … and "
                "c₍₁₎ ≥ c₍₂₎ ≥ … are the cluster sizes sorted in decreasing order. PSI = 0 when S < E, and 1 "
                "when both partitions are one cluster.",
        reference=PSI_PAPER,
        caveat="Each cluster counts the same whatever its size: on imbalanced data, a lost small cluster costs "
               "as much as a lost large one. Clipped at 0 (S < E), so it cannot say 'worse than chance'.",
        compute=lambda c: sm.pair_sets_index(c, simplified=False)),
    IndexInfo(
        id="psi_simplified", name="Simplified PSI", family="set_matching", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True,
        function=sc.pair_sets_index, function_options={"simplified": True},
        formula=r"\mathrm{PSI}^* = \frac{S - 1}{\max(K_a,K_b) - 1}",
        symbols="S as for PSI, the similarity of the best one-to-one pairing; the chance expectation E is "
                "taken to be 1.",
        reference=PSI_PAPER + ", eq. (20)",
        caveat="Assumes the expectation E is 1 (true when the two partitions have similar cluster sizes): "
               "a metric, but only approximately corrected for chance.",
        compute=lambda c: sm.pair_sets_index(c, simplified=True)),
    # ------------------------------------------------------------------ object level
    IndexInfo(
        id="bcubed_precision", name="BCubed precision", family="object_level", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.bcubed_score, function_options={"measure": "precision"},
        formula=r"P = \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{c_j}",
        symbols="Each object's precision is the share of its candidate cluster that is in its reference "
                "cluster, n_ij / c_j; P is their mean.",
        reference=BCUBED,
        caveat="Reaches 1 for all singletons: it never penalises splitting. Read it with BCubed recall.",
        compute=md.bcubed_precision),
    IndexInfo(
        id="bcubed_recall", name="BCubed recall", family="object_level", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=sc.bcubed_score, function_options={"measure": "recall"},
        formula=r"R = \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{r_i}",
        symbols="Each object's recall is the share of its reference cluster that is in its candidate "
                "cluster, n_ij / r_i; R is their mean.",
        reference=BCUBED,
        caveat="Reaches 1 when the candidate is one cluster: it never penalises merging.",
        compute=md.bcubed_recall),
    IndexInfo(
        id="bcubed_f", name="BCubed F-measure", family="object_level", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, anatomy=False, function=sc.bcubed_score,
        formula=r"F = \frac{2PR}{P+R}",
        symbols="P and R are BCubed precision and recall.",
        reference=BCUBED,
        caveat="Satisfies Amigó et al.'s formal constraints (homogeneity, completeness, rag bag, size vs "
               "quantity), but is not corrected for chance: random partitions score well above 0.",
        compute=md.bcubed_f),
    IndexInfo(
        id="ecs", name="Element-centric similarity", family="object_level", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=sc.element_centric_similarity,
        formula=r"\mathrm{ECS} = \frac{1}{N}\sum_{ij} n_{ij}\left[1 - \tfrac{1}{2}\left(n_{ij}\left|\tfrac{1}{r_i}"
                r" - \tfrac{1}{c_j}\right| + \tfrac{r_i - n_{ij}}{r_i} + \tfrac{c_j - n_{ij}}{c_j}\right)\right] "
                r"= \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{\max(r_i, c_j)}",
        symbols="Each object's similarity is 1 minus half the L1 distance between its two clusters' membership "
                "vectors (uniform over each cluster), n_ij / max(r_i, c_j); ECS is their mean, and "
                "Comparison.element_scores gives each object's.",
        reference="Gates, Wood, Hetrick & Ahn (2019), Element-centric clustering comparison unifies overlaps "
                  "and hierarchy, Scientific Reports 9",
        caveat="Not corrected for chance; for flat partitions it does not depend on the restart parameter "
               "of its personalised PageRank. Small clusters weigh by their objects, like ARI.",
        compute=md.element_centric_similarity),
    # ------------------------------------------------------------------ cluster level
    IndexInfo(
        id="ci_partition", name="Centroid index (partition-based)", family="cluster_level", range=(0, INF),
        higher_is_better=False, chance_adjusted=False, symmetric=True, integer_valued=True, tie_dependent=True,
        anatomy=False, function=sc.centroid_index,
        formula=r"\mathrm{CI} = \max(\mathrm{orphans}(G\to P), \mathrm{orphans}(P\to G))",
        symbols="Each reference cluster maps to the candidate cluster with the largest Jaccard similarity "
                "n_ij / (r_i + c_j − n_ij); orphans(G → P) counts the candidate clusters nobody maps to, and "
                "P → G is the same the other way. Equal similarities go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="Counts missing clusters, not misplaced objects: two partitions with CI = 0 can still differ "
               "in many border points.",
        compute=lambda c: cl.centroid_index(c, "partition")),
    IndexInfo(
        id="csi_partition", name="Centroid similarity index (partition-based)", family="cluster_level",
        range=(0, 1), higher_is_better=True, chance_adjusted=False, symmetric=True, tie_dependent=True,
        function=sc.centroid_similarity_index,
        formula=r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
        symbols="NN(i) is the candidate cluster reference cluster i maps to (largest Jaccard similarity), "
                "NN(j) the reference cluster candidate cluster j maps to; equal similarities go to the "
                "cluster that occurs first.",
        reference=CI_PAPER,
        caveat="Object-level counterpart of CI with the same nearest-neighbour mapping; not corrected for chance.",
        compute=lambda c: cl.centroid_similarity_index(c, "partition")),
    IndexInfo(
        id="ci_centroid", name="Centroid index", family="cluster_level", range=(0, INF), higher_is_better=False,
        chance_adjusted=False, symmetric=True, needs_data=True, soft=False, integer_valued=True,
        tie_dependent=True, anatomy=False, function=sc.centroid_index,
        formula=r"\mathrm{CI} = \max(\mathrm{orphans}(C\to C'), \mathrm{orphans}(C'\to C))",
        symbols="C and C′ are the two partitions' centroids (the means of their clusters' points); each "
                "centroid maps to the nearest centroid of the other partition, and orphans(C → C′) counts "
                "the centroids of C′ nobody maps to. Equal distances go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="Maps clusters by centroid distance: for non-convex clusters (rings, spirals) the nearest "
               "centroid need not be the matching cluster.",
        compute=lambda c: cl.centroid_index(c, "centroid")),
    IndexInfo(
        id="csi_centroid", name="Centroid similarity index", family="cluster_level", range=(0, 1),
        higher_is_better=True, chance_adjusted=False, symmetric=True, needs_data=True, soft=False,
        tie_dependent=True, function=sc.centroid_similarity_index,
        formula=r"\mathrm{CSI} = \frac{\sum_i n_{i,NN(i)} + \sum_j n_{NN(j),j}}{2N}",
        symbols="NN(i) is the candidate cluster whose centroid is nearest to reference cluster i's centroid, "
                "NN(j) likewise the other way; equal distances go to the cluster that occurs first.",
        reference=CI_PAPER,
        caveat="As CSI (partition-based), with the nearest-centroid mapping.",
        compute=lambda c: cl.centroid_similarity_index(c, "centroid")),
    IndexInfo(
        id="cr", name="Centroid ratio", family="cluster_level", range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, needs_data=True, soft=False, tie_dependent=True, anatomy=False,
        function=sc.centroid_ratio,
        formula=r"\mathrm{CR} = 1 - \frac{\#\text{unstable pairs}}{K}",
        symbols="The centroids are paired greedily, closest pair first; a pair (C_i, C′_j) is unstable when "
                "D_ij² / (D_i D_j) > 1, with D_i the distance from C_i to the nearest other centroid of its "
                "own partition. K = max(K_a, K_b), and clusters left unpaired count as unstable.",
        reference="Zhao & Fränti (2014), Centroid ratio for a pairwise random swap clustering algorithm, "
                  "IEEE TKDE 26(5)",
        caveat="A cluster-level yes/no per pair: says nothing about how many objects are misplaced.",
        compute=cl.centroid_ratio),
]

INDICES: dict[str, IndexInfo] = {info.id: info for info in _ALL}


def get_index(index_id: str) -> IndexInfo:
    """The registry entry of `index_id`; a ValueError lists the valid ids otherwise."""
    try:
        return INDICES[index_id]
    except (KeyError, TypeError):
        raise CluvalError(f"unknown index id {index_id!r}; valid ids: {', '.join(INDICES)}") from None


_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def find_indices(query: str) -> list[IndexInfo]:
    """The entries a search for `query` finds, in registry order; all of them for an empty query.

    A search reads the name, id and family of each index, two of its properties ("chance
    adjusted", "tie dependent") and its reference (authors such as "Meila"); case does not
    matter and ids split at underscores ("nmi_max" is "nmi max").
    Indices that have every query word as a whole word are found; when no index has, every
    query word need only begin a word ("arith" finds NMI (arithmetic mean)), references
    still by whole words. Caveats are not searched: they name other indices.

    >>> [info.id for info in find_indices("ARI")], [info.id for info in find_indices("ran")]
    (['ari'], ['ri', 'ari', 'mari'])
    >>> [info.id for info in find_indices("psi")]
    ['psi', 'psi_simplified']
    >>> [info.id for info in find_indices("chance")][:6]
    ['ari', 'afm', 'mari', 'pair_correlation', 'ami', 'ami_sqrt']
    >>> [info.id for info in find_indices("nmi max")], find_indices("no such index")
    (['nmi_max'], [])
    """
    wanted = _words(query)
    described = [(info, _words(" ".join([info.name, info.id, FAMILIES[info.family],
                                         "chance adjusted" if info.chance_adjusted else "",
                                         "tie dependent" if info.tie_dependent else ""])),
                  set(_words(info.reference))) for info in INDICES.values()]
    whole = [info for info, words, reference in described if all(w in words or w in reference for w in wanted)]
    if whole:
        return whole
    return [info for info, words, reference in described
            if all(w in reference or any(word.startswith(w) for word in words) for w in wanted)]


def index_table():
    """The registry as a pandas DataFrame (one row per index, without the compute function)."""
    import pandas as pd

    rows = []
    for info in INDICES.values():
        rows.append({
            "id": info.id, "name": info.name, "family": FAMILIES[info.family],
            "range": f"[{info.range[0]:g}, {info.range[1]:g}]", "best": info.best,
            "kind": info.kind, "chance adjusted": info.chance_adjusted, "symmetric": info.symmetric,
            "needs X": info.needs_data, "soft tables": info.soft, "integer valued": info.integer_valued,
            "tie dependent": info.tie_dependent, "function": info.call,
            "formula": info.formula, "reference": info.reference,
        })
    return pd.DataFrame(rows)

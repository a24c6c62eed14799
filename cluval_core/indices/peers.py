"""Every index under its name in the peer tools, and how their conventions differ from cluval's.

One table, :data:`PEER_NAMES`: for each index id and each peer tool (:data:`PEERS`), the
call that computes it there, whether that call gives cluval's value, and the difference in
convention when it does not. :func:`peer_names` gives one index's row of the table as a
DataFrame; the Index reference page shows it.

How each peer's entry relates to cluval's value (``PeerName.relation``):

* ``"same"``: on the same labels (in the peer's input format) the call gives cluval's value;
  the note names the degenerate cases (one cluster, all singletons) where it does not;
* ``"scaled"``: the same index in other units (bits, a total over the objects): the note
  gives the conversion;
* ``"differs"``: a related but different quantity under the same or a similar name; the note
  says how it differs;
* ``"absent"``: the peer has no such index (its note may say how to assemble it from what
  the peer has, or that the authors' program was not found).

Placeholders in the calls: ``labels_true``/``labels_pred`` are label vectors (the reference
first); genieclust's ``x``/``y`` are integer label vectors (reference first); clusim's
``c_true``/``c_pred`` are ``clusim.clustering.Clustering`` objects; bcubed's ``cdict``/``ldict``
map each object to the set of its candidate/reference labels; aricode's ``c1``/``c2`` are
integer or factor vectors; igraph's ``membership_true``/``membership_pred`` are lists of
integer labels; clusterCrit's ``part1``/``part2`` and Clustering.jl's ``a``/``b`` are integer
vectors; ELKI's ``t`` is its contingency table of the reference against
the candidate; the UEF programs read partition files (``.pa``), the first the reference.

The Python peers' calls are checked in ``tests/test_peer_names.py``: every name resolves in
the installed package and every value relation (same, scaled, differs) is computed. The R,
Java, C and Ruby peers' entries were read in their source code (versions in :data:`PEERS`),
not run.

>>> table = peer_names("nvi")
>>> table.set_index("tool").loc["aricode", ["call", "relation"]].tolist()
['aricode::NVI(c1, c2)', 'differs']
>>> table.set_index("tool").loc["UEF tools", "relation"]
'same'
>>> peer_names("nope")
Traceback (most recent call last):
...
cluval_core.CluvalError: unknown index id 'nope'; the ids are ri, ari, ...
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.covers import COVER_MEASURES
from ..core.registry import get_index
from ..core.validation import CluvalError

__all__ = ["PEERS", "PEER_NAMES", "RELATIONS", "Peer", "PeerName", "peer_names", "COVER_PEERS", "COVER_PEER_NAMES",
           "cover_peer_names"]

SKLEARN, GENIECLUST, CLUSIM, CLUSTERING_MI, BCUBED, ARICODE, ELKI, UEF, IGRAPH, CLUSTERCRIT, CLUSTERING_JL = (
    "scikit-learn", "genieclust", "clusim", "clustering-mi", "bcubed", "aricode", "ELKI", "UEF tools", "igraph",
    "clusterCrit", "Clustering.jl")

# What each relation means, in the words a table shows.
RELATIONS = {
    "same": "same value",
    "scaled": "other units",
    "differs": "differs",
    "absent": "not available",
}


@dataclass(frozen=True)
class Peer:
    """A tool that computes external validity indices, as far as cluval's name map reads it.

    Attributes
    ----------
    name, language : str
        The tool's name and the language it is used from.
    version : str
        The release (or source) whose code the map was read from.
    module : str or None
        The import name of a Python peer, whose calls the tests resolve and run; None otherwise.
    checked : str
        How the map's entries for this tool were checked.
    conventions : tuple of str
        What differs from cluval for every index of the tool (argument order, label handling,
        logarithm base, degenerate cases, options), in Markdown with code in backticks.
    """

    name: str
    language: str
    version: str
    module: str | None
    checked: str
    conventions: tuple[str, ...]


@dataclass(frozen=True)
class PeerName:
    """One index in one peer tool.

    Attributes
    ----------
    call : str or None
        The call or command that computes it, with the placeholders of the module docstring;
        None when the tool has no such index.
    relation : str
        A key of :data:`RELATIONS`: "same", "scaled", "differs" or "absent".
    note : str
        The difference in convention (Markdown with code in backticks); empty when there is none.
    """

    call: str | None
    relation: str
    note: str = ""

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise CluvalError(f"unknown relation {self.relation!r}; valid relations: {', '.join(RELATIONS)}")
        if (self.call is None) != (self.relation == "absent"):
            raise CluvalError(f"a call is given exactly when the index is available: {self}")


_RUN = "every call is resolved and its value compared with cluval's in the tests"
_READ = "read in its source code, not run"

PEERS = {
    SKLEARN: Peer(
        name=SKLEARN, language="Python", version="1.9.1", module="sklearn", checked=_RUN,
        conventions=(
            "`f(labels_true, labels_pred)`, the reference first; labels may be any hashable values.",
            "Natural logarithms (nats), as cluval.",
            "NMI and AMI take `average_method`: `\"arithmetic\"` (the default) is cluval's `sum`, "
            "`\"geometric\"` its `sqrt`, `\"min\"` and `\"max\"` the same words.",
            "Degenerate cases as cluval for the information indices: both partitions one cluster gives "
            "1.0, exactly one of them 0.0.",
            "`sklearn.metrics.cluster.pair_confusion_matrix` counts ordered pairs: `[[2d, 2c], [2b, 2a]]`, "
            "each pair twice; the pair indices it lacks can be assembled from it.",
            "`accuracy_score`, `f1_score` and `jaccard_score` compare labels one object at a time and need "
            "labels that already match: they are not these cluster indices.",
        )),
    GENIECLUST: Peer(
        name=GENIECLUST, language="Python", version="1.3.0", module="genieclust", checked=_RUN,
        conventions=(
            "`f(x, y)` with `x` the reference, or `f(C)` with a confusion matrix; "
            "`compare_partitions(x, y)` returns them all (keys `ar`, `r`, `fm`, `afm`, `mi`, `nmi`, `ami`, "
            "`npa`, `psi`, `spsi`, `nca`).",
            "Labels must be integers (strings raise ValueError). The table has max − min + 1 rows and "
            "columns, so label gaps and negative labels create empty clusters: the pair-counting and "
            "information indices do not change, but PSI and NCA count the empty clusters (two identical "
            "partitions labelled 0, 2, 4 score 0.5), and NPA and NCA raise when the empty clusters leave the "
            "table not square. Map labels to 0..K − 1 first: `numpy.unique(labels, return_inverse=True)[1]`.",
            "In 1.3.0 `normalized_pivoted_accuracy` and `normalized_clustering_accuracy` accept square "
            "tables only: they raise when K_a ≠ K_b.",
            "Natural logarithms (nats).",
            "No special cases: when both partitions have one cluster, ARI, NMI, PSI, NPA and NCA are "
            "NaN (cluval 1.0), and AMI is NaN or 1.0 as rounding leaves its 0/0 (1.0 for 7, 10 or 14 objects, "
            "NaN for 6 or 8); ARI is NaN too when both are all singletons.",
        )),
    CLUSIM: Peer(
        name=CLUSIM, language="Python", version="0.4", module="clusim", checked=_RUN,
        conventions=(
            "Functions take `clusim.clustering.Clustering` objects: "
            "`c_true = Clustering().from_membership_list(labels_true)`; the elements must be in the same order.",
            "Logarithms base 2: `mi`, `vi` and `rmi` are in bits. `adj_mi` has a `logbase` argument that "
            "must stay 2: with another base its MI (always in bits) is mixed with an EMI and entropies in "
            "that base, and the value is wrong.",
            "`random_model=\"perm\"` (the default of `adjrand_index` and `adj_mi`) is the permutation model "
            "cluval uses; `\"num\"`, `\"all\"` and their one-sided forms adjust for other null models, "
            "taking the second clustering as the gold standard.",
            "Undefined values: the pair-counting indices return 0.0 where a denominator is 0, `nmi` gives "
            "NaN, and `adj_mi` raises ZeroDivisionError where its denominator is 0 (both partitions one "
            "cluster, or both all singletons; with `norm_type=\"min\"` whenever one partition has one cluster).",
            "`fmeasure` is the pair-counting F-measure and `purity_index` sums over the partition with fewer "
            "clusters: see those indices.",
        )),
    CLUSTERING_MI: Peer(
        name=CLUSTERING_MI, language="Python", version="0.2.2", module="clustering_mi", checked=_RUN,
        conventions=(
            "`f(labels_pred, labels_true)`: the SECOND argument is the ground truth (the table's rows are "
            "the second labelling), the reverse of scikit-learn.",
            "Values in bits and as totals over the N objects, not per object: multiply by ln 2 and divide "
            "by N for cluval's nats per object.",
            "`variation`: `\"stirling\"` is N · MI; `\"traditional\"` the microcanonical (exact-count) mutual "
            "information, which cluval does not compute; `\"adjusted\"` N · (MI − EMI); `\"reduced\"` (the "
            "default) and `\"reduced_flat\"` the reduced mutual information.",
            "`normalized_mutual_information` divides each variation by the same variation of a labelling "
            "with itself: `\"second\"` (the default) by the ground truth's, `\"first\"` by the candidate's, "
            "`\"mean\"`, `\"geometric\"`, `\"min\"`, `\"max\"` by a mean of both. It returns 0 where that "
            "denominator is 0 (cluval 1.0 when both partitions have one cluster).",
        )),
    BCUBED: Peer(
        name=BCUBED, language="Python", version="1.5", module="bcubed", checked=_RUN,
        conventions=(
            "`precision(cdict, ldict)` and `recall(cdict, ldict)`: `cdict` maps each object to the set of its "
            "candidate labels, `ldict` to the set of its reference labels (sets allow overlapping clusters, "
            "the extended BCubed of Amigó et al.; one label per object gives Bagga & Baldwin's values); "
            "`fscore(p, r, beta=1.0)`.",
            "Pure Python over all pairs of objects, O(N²): slow beyond a few thousand objects.",
        )),
    ARICODE: Peer(
        name=ARICODE, language="R", version="1.1.0 (R/aricode.R, src/aricode.cpp)", module=None, checked=_READ,
        conventions=(
            "`f(c1, c2)`; every index it has is symmetric. Integer or factor vectors; character vectors are "
            "converted with `as.integer` (strings that are not numbers become NA, which stops it). Labels "
            "are ranked densely: gaps create no empty clusters.",
            "Natural logarithms (nats).",
            "`NMI`'s default variant is `\"max\"` (scikit-learn's is the arithmetic mean), and `AMI` is "
            "normalised by the larger entropy.",
            "`NVI` is 1 − MI/H(joint), not VI/(H_a + H_b); `NID` is 1 − MI/max(H_a, H_b).",
            "No special cases: 0/0 gives NaN (NMI when both partitions have one cluster, ARI when both "
            "are all singletons).",
            "`compare_clustering(c1, c2)` returns RI, ARI, MI, NMI (max), VI, NVI, ID, NID, Chi2, MARI, "
            "MARIraw and Frobenius (AMI with `AMI = TRUE`); `clustComp` is its deprecated name.",
        )),
    ELKI: Peer(
        name=ELKI, language="Java", version="0.8.0 and its development code (elki.evaluation.clustering)",
        module=None, checked=_READ,
        conventions=(
            "`t` is `new ClusterContingencyTable(selfPairing, breakNoiseClusters, reference, candidate)`; the "
            "evaluator `EvaluateClustering` builds it with the reference first and reports the values in "
            "groups (Pair counting, Entropy based, B3, Set Matching, Edit Distance, Gini).",
            "Self-pairing counts each object as a pair with itself (N² ordered pairs): RI, ARI, FM and Jaccard "
            "change, and BCubed keeps each object in its own cluster. In 0.8.0 `EvaluateClustering` inverts the "
            "`-paircounting.selfpair` flag, so its report pairs objects with themselves unless the flag is "
            "given; the development code (April 2026) fixes this and makes self-pairing off by default.",
            "`-paircounting.noisespecial` (breakNoiseClusters) treats noise clusters as singletons, in pair "
            "counting only.",
            "Pair counting counts ordered pairs (each pair twice): the ratios are unchanged.",
            "Natural logarithms (nats). For N > 10 000 the expected mutual information is not computed (taken "
            "as 0): the adjusted MIs then equal the NMIs, and the report leaves AMI out.",
            "No special cases: 0/0 gives NaN (ARI and NMI for identical one-cluster partitions).",
        )),
    UEF: Peer(
        name=UEF, language="C, Ruby, Python (command line)",
        version=("cbevi 0.05 (17.8.2017) and generalized_ci.rb of uef-machine-learning/ClusterEvaluation; "
                 "Accuracy.py 0.2 (2022-09-16) of uef-machine-learning/ClusterAccuracy"),
        module=None, checked=_READ,
        conventions=(
            "Programs of Fränti's group at the University of Eastern Finland: `cbevi` (C, built with "
            "CBModules), `generalized_ci.rb` (Ruby) and `Accuracy.py` (Python).",
            "Partitions are `.pa` files, one cluster number per line (1..K, an optional `VQ PARTITIONING` "
            "header); data `.ts` or `.txt`, centroids `.cb`. The first partition is the reference.",
            "`cbevi` computes one index per run: `-P1`..`-P4` RI, ARI, Jaccard, FM; `-N1`..`-N4` NMI, NVI, "
            "MI, VI; `-M1`..`-M5` NVD, Criterion H, CI, `CI*`, CI from partitions. A pair-counting option wins "
            "over an information one, which wins over set matching; without options it computes CI.",
            "Logarithms base 2: MI and VI are in bits.",
            "No special cases: 0/0 gives NaN, except ARI, which prints 0 where cluval gives 1.0.",
            "PSI, the partition CSI and the Centroid Ratio were not found in the group's published code.",
        )),
    IGRAPH: Peer(
        name=IGRAPH, language="Python (C core)", version="1.0.0 (python-igraph), igraph C core 1.0",
        module="igraph", checked=_RUN,
        conventions=(
            "`igraph.compare_communities(membership_true, membership_pred, method=...)` with `method` one of "
            "`\"vi\"`, `\"nmi\"`, `\"split-join\"`, `\"rand\"`, `\"adjusted_rand\"`; "
            "`igraph.split_join_distance(membership_true, membership_pred)` returns the two projection "
            "distances, the first argument's first. Integer membership lists (or `VertexClustering` objects).",
            "Natural logarithms (nats). Memberships are renumbered first, so gaps create no empty clusters.",
            "`\"split-join\"` is the sum of the two projection distances, in objects: 2N times cluval's `nvd`.",
        )),
    CLUSTERCRIT: Peer(
        name=CLUSTERCRIT, language="R (Fortran core)", version="1.3.0 (src/indices.f95, src/critUtils.f95)",
        module=None, checked=_READ,
        conventions=(
            "`extCriteria(part1, part2, crit)` with `part1` the reference: the pair counts yy, yn, ny, nn are "
            "cluval's a, b, c, d (unordered pairs). `crit` names one criterion or `\"all\"`.",
            "The pair counts are 32-bit integers multiplied before they become reals: products such as "
            "`yy * nn` overflow beyond about 46 000 pairs a count (N of a few hundred), and the values are "
            "then wrong. No special cases: 0/0 gives NaN.",
            "`McNemar` is (yn − ny)/√(yn + ny), a test of whether one partition puts more pairs together "
            "than the other, not an agreement index: cluval gives it as "
            "`cluval_core.indices.pair_counting.pair_mcnemar(c.pair_counts)`.",
            "`Sokal_Sneath1` is a/(a + 2(b + c)), not cluval's `sokal_sneath` (the mean of four rates, "
            "Gösgens et al.'s Sokal & Sneath 1).",
        )),
    CLUSTERING_JL: Peer(
        name=CLUSTERING_JL, language="Julia", version="0.15.8 (src/randindex.jl, src/mutualinfo.jl)",
        module=None, checked=_READ,
        conventions=(
            "`randindex(a, b)` returns the tuple (ARI, RI, Mirkin, Hubert), with Mirkin (b + c)/M and Hubert "
            "(a + d − b − c)/M; `mutualinfo(a, b; normed=true)` the NMI 2 MI/(H_a + H_b); `varinfo(a, b)` "
            "the VI; `vmeasure(a, b; β=1)`.",
            "ARI is 1.0 whenever b + c = 0 (identical partitions), as cluval.",
            "Natural logarithms (nats).",
        )),
}


def _same(call: str, note: str = "") -> PeerName:
    return PeerName(call, "same", note)


def _scaled(call: str, note: str) -> PeerName:
    return PeerName(call, "scaled", note)


def _differs(call: str, note: str) -> PeerName:
    return PeerName(call, "differs", note)


def _absent(note: str = "") -> PeerName:
    return PeerName(None, "absent", note)


_SK = "sklearn.metrics."
_GC = "genieclust.compare_partitions."
_CS = "clusim.sim."
_CMI = "clustering_mi."
_BOTH_ONE_NAN = "NaN when both partitions have one cluster (cluval 1.0)."
_EITHER_ONE_NAN = "NaN when either partition has one cluster (cluval 0, or 1.0 when both have one)."
_SELF_PAIRS = "Changes with self-pairing (on by default in 0.8.0's report)."
_BIG_N = "For N > 10 000 its EMI is taken as 0 and the value is the NMI of the same mean."

_ELKI_PURITY_NAMES = ("ELKI's purity names are the other way round: with the reference first, its `purity()` "
                      "sums over the reference's clusters (cluval's `purity_inverse`) and `inversePurity()` "
                      "over the candidate's (cluval's `purity`).")
_CLUSIM_PURITY = ("Sums over the clusters of whichever partition has fewer clusters (the candidate's on a tie): "
                  "cluval's `purity` when K_b ≤ K_a, `purity_inverse` otherwise.")
_CLUSIM_PAIR_F = ("The pair-counting F-measure 2a/(2a + b + c) (the Dice coefficient of the pairs, cluval's "
                  "czekanowski_dice), not the set-matching F-measure.")
_ACCURACY_PY = "`python3 Accuracy.py -m -i reference.pa candidate.pa`"
_NOT_FOUND_UEF = "Not found in the group's published code."


def _nmi(sklearn_mean: str, clusim_norm: str, cmi_norm: str, aricode_variant: str | None, elki: str,
         notes: dict) -> dict:
    """The entries of one NMI variant, which the tools name by the mean of the two entropies."""
    aricode = f'aricode::NMI(c1, c2, variant="{aricode_variant}")' if aricode_variant else "aricode::NMI(c1, c2)"
    return {
        SKLEARN: _same(f'{_SK}normalized_mutual_info_score(labels_true, labels_pred, average_method="{sklearn_mean}")',
                       notes.get(SKLEARN, "")),
        CLUSIM: _same(f'{_CS}nmi(c_true, c_pred, norm_type="{clusim_norm}")', notes[CLUSIM]),
        CLUSTERING_MI: _same(f'{_CMI}normalized_mutual_information(labels_pred, labels_true, variation="stirling", '
                             f'normalization="{cmi_norm}")', "0 when both partitions have one cluster (cluval 1.0)."),
        ARICODE: _same(aricode, notes[ARICODE]),
        ELKI: _same(f"t.getEntropy().{elki}()", notes[ELKI]),
    }


def _ami(sklearn_mean: str, clusim_norm: str, cmi_norm: str, cmi_mean: str, elki: str,
         notes: dict) -> dict:
    """The entries of one AMI variant."""
    return {
        SKLEARN: _same(f'{_SK}adjusted_mutual_info_score(labels_true, labels_pred, average_method="{sklearn_mean}")',
                       notes.get(SKLEARN, "")),
        CLUSIM: _same(f'{_CS}adj_mi(c_true, c_pred, random_model="perm", norm_type="{clusim_norm}")', notes[CLUSIM]),
        CLUSTERING_MI: _differs(f'{_CMI}normalized_mutual_information(labels_pred, labels_true, variation="adjusted", '
                                f'normalization="{cmi_norm}")',
                                f"Not Vinh et al.'s AMI: (MI − EMI) over the {cmi_mean} of H_a − EMI(G, G) and "
                                f"H_b − EMI(P, P), each entropy less the EMI of that partition with itself rather "
                                f"than the pair's EMI."),
        ELKI: _same(f"t.getEntropy().{elki}()", notes[ELKI]),
    }


_MAP = {
    # ------------------------------------------------------------------ pair counting
    "ri": {
        SKLEARN: _same(f"{_SK}rand_score(labels_true, labels_pred)",
                       "1.0 for fewer than 2 objects, where cluval refuses the comparison."),
        GENIECLUST: _same(f"{_GC}rand_score(x, y)"),
        CLUSIM: _same(f"{_CS}rand_index(c_true, c_pred)"),
        ARICODE: _same("aricode::RI(c1, c2)"),
        ELKI: _same("t.getPaircount().randIndex()", f"Report: Pair counting › Rand. {_SELF_PAIRS}"),
        UEF: _same("cbevi -P1 reference.pa candidate.pa"),
    },
    "ari": {
        SKLEARN: _same(f"{_SK}adjusted_rand_score(labels_true, labels_pred)"),
        GENIECLUST: _same(f"{_GC}adjusted_rand_score(x, y)",
                          "NaN where cluval gives 1.0: both partitions one cluster, or both all singletons."),
        CLUSIM: _same(f'{_CS}adjrand_index(c_true, c_pred, random_model="perm")',
                      "0.0 where cluval gives 1.0 (both partitions one cluster, or both all singletons). "
                      "The other random models adjust for other null models."),
        ARICODE: _same("aricode::ARI(c1, c2)",
                       "NaN when both partitions are all singletons (0/0), where cluval gives 1.0."),
        ELKI: _same("t.getPaircount().adjustedRandIndex()",
                    f"Report: Pair counting › ARI. NaN (0/0) for two one-cluster partitions, and without "
                    f"self-pairing for two all-singleton partitions, where cluval gives 1.0. {_SELF_PAIRS}"),
        UEF: _same("cbevi -P2 reference.pa candidate.pa",
                   "Hubert & Arabie's expectation in the Rand-index form; prints 0 where the expected index equals "
                   "its maximum (identical one-cluster or all-singleton partitions), cluval 1.0."),
    },
    "fowlkes_mallows": {
        SKLEARN: _same(f"{_SK}fowlkes_mallows_score(labels_true, labels_pred)",
                       "0.0 when no pair is together in both (a = 0), also where cluval gives NaN because "
                       "a + b or a + c is 0."),
        GENIECLUST: _same(f"{_GC}fm_score(x, y)"),
        CLUSIM: _same(f"{_CS}fowlkes_mallows_index(c_true, c_pred)", "0.0 where cluval gives NaN."),
        ELKI: _same("t.getPaircount().fowlkesMallows()",
                    f"Report: Pair counting › Fowlkes-Mallows, the square root of pair precision times pair "
                    f"recall. {_SELF_PAIRS}"),
        UEF: _same("cbevi -P4 reference.pa candidate.pa"),
    },
    "afm": {
        GENIECLUST: _same(f"{_GC}adjusted_fm_score(x, y)", "Hubert & Arabie's eq. (4), as cluval."),
    },
    # ------------------------------------------------------------------ information theoretic
    "mi": {
        SKLEARN: _same(f"{_SK}mutual_info_score(labels_true, labels_pred)"),
        GENIECLUST: _same(f"{_GC}mi_score(x, y)"),
        CLUSIM: _scaled(f"{_CS}mi(c_true, c_pred)", "In bits: cluval's mi / ln 2."),
        CLUSTERING_MI: _scaled(f'{_CMI}mutual_information(labels_pred, labels_true, variation="stirling")',
                               "N · MI in bits, a total over the objects: cluval's mi · N / ln 2."),
        ARICODE: _same("aricode::compare_clustering(c1, c2)$MI"),
        ELKI: _same("t.getEntropy().mutualInformation()", "Report: Entropy based › MI."),
        UEF: _scaled("cbevi -N3 reference.pa candidate.pa", "In bits: cluval's mi / ln 2."),
    },
    "nmi_sum": {
        **_nmi("arithmetic", "sum", "mean", "sum", "arithmeticNMI", {
            SKLEARN: "The default `average_method`; `v_measure_score` gives the same value.",
            CLUSIM: _BOTH_ONE_NAN,
            ARICODE: f'Not the default variant (`"max"`). {_BOTH_ONE_NAN}',
            ELKI: f"Report: Entropy based › Arithmetic NMI. {_BOTH_ONE_NAN}",
        }),
        GENIECLUST: _same(f"{_GC}normalized_mi_score(x, y)", _BOTH_ONE_NAN),
        UEF: _same("cbevi -N1 reference.pa candidate.pa", f"cbevi's only NMI. {_BOTH_ONE_NAN}"),
    },
    "nmi_sqrt": {
        **_nmi("geometric", "sqrt", "geometric", "sqrt", "geometricNMI", {
            CLUSIM: _EITHER_ONE_NAN,
            ARICODE: _EITHER_ONE_NAN,
            ELKI: ("Report: Entropy based › Geometric NMI. Where an entropy is 0 it returns the unnormalised MI, "
                   "which is 0: 0 for two one-cluster partitions, where cluval gives 1.0."),
        }),
        UEF: _absent("`evi.c` computes MI/sqrt(H1 H2) inside its NMI but prints only the arithmetic NMI."),
    },
    "nmi_max": _nmi("max", "max", "max", None, "maxNMI", {
        CLUSIM: _BOTH_ONE_NAN,
        ARICODE: f'`variant = "max"` is the default; `aricode::NID(c1, c2)` is 1 minus this. {_BOTH_ONE_NAN}',
        ELKI: (f"Not in the report, which shows 1 minus it as NID (`normalizedInformationDistance()`). "
               f"{_BOTH_ONE_NAN}"),
    }),
    "nmi_min": _nmi("min", "min", "min", "min", "minNMI", {
        CLUSIM: _EITHER_ONE_NAN,
        ARICODE: _EITHER_ONE_NAN,
        ELKI: f"Not in the report. {_EITHER_ONE_NAN}",
    }),
    "nmi_joint": {
        ARICODE: _same('aricode::NMI(c1, c2, variant="joint")', _BOTH_ONE_NAN),
        ELKI: _same("t.getEntropy().jointNMI()",
                    "Report: Entropy based › Joint NMI. 0 when the joint entropy is 0 (both partitions one "
                    "cluster), where cluval gives 1.0."),
    },
    "vi": {
        SKLEARN: _absent("No function: H_a + H_b − 2 MI from `mutual_info_score` and the entropies of the "
                         "cluster sizes."),
        CLUSIM: _scaled(f"{_CS}vi(c_true, c_pred)", "In bits: cluval's vi / ln 2."),
        ARICODE: _same("aricode::compare_clustering(c1, c2)$VI"),
        ELKI: _same("t.getEntropy().variationOfInformation()", "Report: Entropy based › VI."),
        UEF: _scaled("cbevi -N4 reference.pa candidate.pa", "In bits: cluval's vi / ln 2."),
    },
    "nvi": {
        SKLEARN: _absent("No function; VI/(H_a + H_b) is 1 − `normalized_mutual_info_score(labels_true, "
                         "labels_pred)` (arithmetic)."),
        GENIECLUST: _absent("No function; it is 1 − `normalized_mi_score(x, y)`."),
        CLUSIM: _differs(f'{_CS}vi(c_true, c_pred, norm_type="entropy")',
                         "A similarity, 1 − ½(H(P∣G)/H_b + H(G∣P)/H_a) with H(P∣G) = H_ab − H_a: not "
                         "VI/(H_a + H_b)."),
        ARICODE: _differs("aricode::NVI(c1, c2)",
                          "1 − MI/H(joint), which is 1 − `nmi_joint`, not VI/(H_a + H_b). NaN when both "
                          "partitions have one cluster."),
        ELKI: _differs("t.getEntropy().normalizedVariationOfInformation()",
                       "Report: Entropy based › NVI. 1 − MI/H(joint), which is 1 − `nmi_joint`, as aricode's; "
                       "not VI/(H_a + H_b)."),
        UEF: _same("cbevi -N2 reference.pa candidate.pa", "VI/(H1 + H2): cluval follows this convention."),
    },
    "ami": {
        **_ami("arithmetic", "sum", "mean", "mean", "adjustedArithmeticMI", {
            SKLEARN: "The default `average_method`.",
            CLUSIM: ("Right only with the default `logbase=2`. Raises ZeroDivisionError where its denominator "
                     "is 0 (both partitions one cluster, or both all singletons), where cluval gives 1.0."),
            ELKI: f"Report: Entropy based › Arithmetic AMI, left out for N > 10 000. {_BIG_N}",
        }),
        GENIECLUST: _same(f"{_GC}adjusted_mi_score(x, y)",
                          "NaN or 1.0 when both partitions have one cluster, as rounding leaves its 0/0 (1.0 for 7, "
                          "10 or 14 objects, NaN for 6 or 8; cluval 1.0)."),
        ARICODE: _differs("aricode::AMI(c1, c2)",
                          "Normalised by the larger entropy: this is `ami_max`, not the arithmetic-mean AMI."),
    },
    "ami_sqrt": _ami("geometric", "sqrt", "geometric", "geometric mean", "adjustedGeometricMI", {
        CLUSIM: ("Right only with the default `logbase=2`. Raises ZeroDivisionError when either partition has "
                 "one cluster, or both are all singletons (cluval 0, or 1.0 for identical partitions)."),
        ELKI: (f"Report: Entropy based › Geometric AMI, left out for N > 10 000. {_BIG_N} Where an entropy is "
               f"0 it returns MI − EMI, unnormalised."),
    }),
    "ami_max": {
        **_ami("max", "max", "max", "larger", "adjustedMaxMI", {
            CLUSIM: "Right only with the default `logbase=2`.",
            ELKI: f"Not in the report. {_BIG_N}",
        }),
        ARICODE: _same("aricode::AMI(c1, c2)", "aricode's only AMI. NaN when both partitions have one cluster."),
    },
    "ami_min": _ami("min", "min", "min", "smaller", "adjustedMinMI", {
        SKLEARN: ("Where one partition is all singletons and the other is not, every random table reaches the "
                  "smaller entropy and AMI is 0/0: cluval gives NaN, scikit-learn what rounding leaves (1.0 for "
                  "12 singletons against 3 clusters of 4, 1.2 against clusters of 6, 4 and 2)."),
        CLUSIM: ("Right only with the default `logbase=2`. Raises ZeroDivisionError when either partition has "
                 "one cluster, or is all singletons (cluval NaN, 0 or 1.0)."),
        ELKI: f"Not in the report. {_BIG_N}",
    }),
    "homogeneity": {
        SKLEARN: _same(f"{_SK}homogeneity_score(labels_true, labels_pred)"),
        CLUSTERING_MI: _same(f'{_CMI}normalized_mutual_information(labels_pred, labels_true, variation="stirling", '
                             f'normalization="second")', "0 where the reference has one cluster (cluval 1.0)."),
        ELKI: _same("t.getEntropy().mutualInformation() / t.getEntropy().entropyFirst()",
                    "Computed in the report only (Entropy based › Homogeneity). NaN where the reference has one "
                    "cluster (cluval 1.0)."),
    },
    "completeness": {
        SKLEARN: _same(f"{_SK}completeness_score(labels_true, labels_pred)"),
        CLUSTERING_MI: _same(f'{_CMI}normalized_mutual_information(labels_pred, labels_true, variation="stirling", '
                             f'normalization="first")', "0 where the candidate has one cluster (cluval 1.0)."),
        ELKI: _same("t.getEntropy().mutualInformation() / t.getEntropy().entropySecond()",
                    "Computed in the report only (Entropy based › Completeness). NaN where the candidate has one "
                    "cluster (cluval 1.0)."),
    },
    # ------------------------------------------------------------------ set matching
    "f_measure": {
        SKLEARN: _absent("`f1_score` compares labels one object at a time and needs matched labels."),
        CLUSIM: _differs(f"{_CS}fmeasure(c_true, c_pred)", _CLUSIM_PAIR_F),
        ELKI: _same("t.getSetMatchingPurity().fMeasureFirst()",
                    "Not in the report, whose Set Matching › F1-Measure is the harmonic mean of purity and "
                    "inverse purity, another index."),
    },
    "f_measure_pred": {
        CLUSIM: _differs(f"{_CS}fmeasure(c_true, c_pred)", _CLUSIM_PAIR_F),
        ELKI: _same("t.getSetMatchingPurity().fMeasureSecond()", "Not in the report."),
    },
    "purity": {
        CLUSIM: _differs(f"{_CS}purity_index(c_true, c_pred)", _CLUSIM_PURITY),
        ELKI: _same("t.getSetMatchingPurity().inversePurity()", f"Report: Inverse Purity. {_ELKI_PURITY_NAMES}"),
        UEF: _same(_ACCURACY_PY,
                   "The “(B=>A)” value: each candidate cluster mapped to the reference cluster it shares most "
                   "with. The headline “ACC with Matching labels” is the smaller of the two directions. Labels "
                   "must be 1..K."),
    },
    "purity_inverse": {
        CLUSIM: _differs(f"{_CS}purity_index(c_true, c_pred)", _CLUSIM_PURITY),
        ELKI: _same("t.getSetMatchingPurity().purity()", f"Report: Purity. {_ELKI_PURITY_NAMES}"),
        UEF: _same(_ACCURACY_PY, "The “(A=>B)” value: each reference cluster mapped to the candidate cluster it "
                                 "shares most with. Labels must be 1..K."),
    },
    "nvd": {
        ELKI: _absent("Not computed; it is 1 − (`purity()` + `inversePurity()`)/2 of `t.getSetMatchingPurity()`."),
        UEF: _same("cbevi -M1 reference.pa candidate.pa"),
    },
    "ch_greedy": {
        UEF: _same("cbevi -M2 reference.pa candidate.pa",
                   "Ties between equal cells are decided by an unstable exchange sort of the cells in row-major "
                   "order of the cluster numbers, not by the order in which clusters first occur: the value can "
                   "differ where the greedy pairing meets a tie."),
    },
    "ch_optimal": {
        GENIECLUST: _absent("No function; 1 − pa, with pa = 1/K + (1 − 1/K) · `normalized_pivoted_accuracy(x, y)` "
                            "on a square table."),
        ELKI: _absent("Not computed; it is 1 − `t.getMaximumMatchingAccuracy().getAccuracy()`."),
        UEF: _absent("Not computed; it is 1 minus the value of `python3 Accuracy.py -p`."),
    },
    "pa": {
        SKLEARN: _absent("`accuracy_score` needs labels that already match."),
        GENIECLUST: _absent("No function; `normalized_pivoted_accuracy` is its normalised form `na`."),
        ELKI: _same("t.getMaximumMatchingAccuracy().getAccuracy()", "Report: Set Matching › Maximum Accuracy."),
        UEF: _same("python3 Accuracy.py -p -i reference.pa candidate.pa",
                   "Hungarian pairing (SciPy); labels must be 1..K."),
    },
    "na": {
        GENIECLUST: _same(f"{_GC}normalized_pivoted_accuracy(x, y)",
                          f"Square tables only in 1.3.0: raises when K_a ≠ K_b (after its max − min + 1 rows). "
                          f"{_BOTH_ONE_NAN}"),
    },
    "aaa": {
        GENIECLUST: _same(f"{_GC}normalized_clustering_accuracy(x, y)",
                          f"genieclust's normalised clustering accuracy, called `adjusted_asymmetric_accuracy` "
                          f"before 1.1.5; `x` is the reference. Square tables only in 1.3.0: raises when "
                          f"K_a ≠ K_b, where cluval counts unmatched reference clusters as 0. {_BOTH_ONE_NAN}"),
    },
    "psi": {
        GENIECLUST: _same(f"{_GC}pair_sets_index(x, y)",
                          f"E pairs the largest sizes with the largest, as cluval; clipped at 0 (`clipped=False` "
                          f"gives (S − E)/(max(K_a, K_b) − E) unclipped). Label gaps add empty clusters, which "
                          f"raise max(K_a, K_b) and change the value. {_BOTH_ONE_NAN}"),
        ELKI: _differs("t.getPairSetsIndex().psi()",
                       "Report: Set Matching › Pair Sets Index. E pairs the smallest sizes with the smallest (both "
                       "lists sorted ascending, cut at min(K_a, K_b)): differs from cluval when K_a ≠ K_b. Each "
                       "product r · c is a 32-bit int product, which overflows beyond 2 147 483 647 (two clusters "
                       "of 50 000 objects)."),
        UEF: _absent(_NOT_FOUND_UEF),
    },
    "psi_simplified": {
        GENIECLUST: _same(f"{_GC}pair_sets_index(x, y, simplified=True)",
                          f"Clipped at 0. Label gaps change the value. {_BOTH_ONE_NAN}"),
        ELKI: _same("t.getPairSetsIndex().simplifiedPSI()", "Not in the report; 0 when S < 1, as cluval."),
        UEF: _absent(_NOT_FOUND_UEF),
    },
    # ------------------------------------------------------------------ BCubed, element-centric
    "bcubed_precision": {
        BCUBED: _same("bcubed.precision(cdict, ldict)"),
        ELKI: _differs("t.getBCubed().precision()",
                       "Report: B3 › Precision. Without self-pairing each object is left out of its own cluster: "
                       "(1/N) Σ n_ij(n_ij − 1)/(c_j − 1), so an object alone in its cluster counts 0; with "
                       "self-pairing (the default of 0.8.0's report) it is cluval's value."),
    },
    "bcubed_recall": {
        BCUBED: _same("bcubed.recall(cdict, ldict)"),
        ELKI: _differs("t.getBCubed().recall()",
                       "Report: B3 › Recall. Without self-pairing each object is left out of its own cluster: "
                       "(1/N) Σ n_ij(n_ij − 1)/(r_i − 1); with self-pairing it is cluval's value."),
    },
    "bcubed_f": {
        BCUBED: _same("bcubed.fscore(bcubed.precision(cdict, ldict), bcubed.recall(cdict, ldict))"),
        ELKI: _differs("t.getBCubed().f1Measure()",
                       "Report: B3 › F1-Measure, of ELKI's precision and recall: differs without self-pairing."),
    },
    "ecs": {
        CLUSIM: _same(f"{_CS}element_sim(c_true, c_pred, alpha=0.9)",
                      "For flat partitions the value does not depend on `alpha`."),
    },
    # ------------------------------------------------------------------ reduced mutual information
    "rmi": {
        CLUSTERING_MI: _scaled(f'{_CMI}mutual_information(labels_pred, labels_true, variation="reduced")',
                               "A total over the objects in bits: cluval's rmi · N / ln 2, to the tolerance of its "
                               "golden-section search (about 1e-7 relative, 1e-5 where RMI is near 0). The second "
                               "argument is the ground truth; the value is slightly asymmetric."),
    },
    "rmi_flat": {
        CLUSIM: _differs(f"{_CS}rmi(c_true, c_pred)",
                         "In bits per object, and the number of tables with the given margins is Diaconis & "
                         "Efron's approximation, not the estimate of Jerdee, Kirkley & Newman (2023) that cluval "
                         "and clustering-mi use: another value, often a tenth of a nat per object or more away "
                         "from rmi_flat / ln 2 on small tables (several nats on some). "
                         "`norm_type=\"normalized\"` divides by the mean of the two partitions' own values, a "
                         "symmetric normalisation cluval does not compute."),
        CLUSTERING_MI: _scaled(f'{_CMI}mutual_information(labels_pred, labels_true, variation="reduced_flat")',
                               "A total over the objects in bits: cluval's rmi_flat · N / ln 2, except when the "
                               "reference is all singletons and the candidate is not: its count of tables is off "
                               "there (cluval's is exact and gives 0; it gives 0.36 nats per object for 5 "
                               "singletons against pairs)."),
    },
    "nrmi": {
        CLUSTERING_MI: _same(f"{_CMI}normalized_mutual_information(labels_pred, labels_true)",
                             'The package\'s defaults: `variation="reduced"`, `normalization="second"`.'),
        CLUSIM: _absent("`rmi(c_true, c_pred, norm_type=\"normalized\")` normalises the flat RMI by both partitions "
                        "symmetrically: another index."),
    },
    # ------------------------------------------------------------------ modern pair counting
    "mari": {
        ARICODE: _same("aricode::MARI(c1, c2)",
                       "`MARI(c1, c2, raw = TRUE)` (formerly `MARIraw`) is the unnormalised "
                       "(Σ C(n_ij, 2) − Ê)/C(N, 2)."),
    },
    "pair_correlation": {
        SKLEARN: _absent("No function; from `pair_confusion_matrix` (each pair counted twice, which the ratio "
                         "does not see)."),
        CLUSIM: _differs(f"{_CS}pearson_correlation(c_true, c_pred)",
                         "Divides by (a + b)(a + c)(d + b)(d + c) without the square root: cluval's "
                         "pair_correlation / sqrt((a + b)(a + c)(d + b)(d + c)), a tiny number rather than a "
                         "correlation; 0.0 where cluval gives NaN."),
    },
    "pair_correlation_distance": {},
    "pair_jaccard": {
        SKLEARN: _absent("`jaccard_score` compares labels one object at a time, not pairs."),
        CLUSIM: _same(f"{_CS}jaccard_index(c_true, c_pred)",
                      "0.0 when no pair is together on either side (a + b + c = 0)."),
        ELKI: _same("t.getPaircount().jaccard()", f"Report: Pair counting › Jaccard. {_SELF_PAIRS}"),
        UEF: _same("cbevi -P3 reference.pa candidate.pa"),
    },
    "sokal_sneath": {},
    # ------------------------------------------------------------------ cluster level
    "ci_partition": {
        UEF: _same("ruby generalized_ci.rb reference.pa candidate.pa",
                   "Prints the orphans each way and CI, their maximum. Among clusters of equal Jaccard it maps to "
                   "the one that occurs last, where cluval picks the one that occurs first. `cbevi -M5` (CI from "
                   "partitions) is listed but not computed in cbevi 0.05: it prints 0."),
    },
    "csi_partition": {
        UEF: _absent("Not found in the group's published code; cbevi's `CI*` works from centroids (`csi_centroid`)."),
    },
    "ci_centroid": {
        UEF: _same("cbevi -M3 data.ts reference.pa candidate.pa",
                   "Centroids are the clusters' means (or give two centroid files: `cbevi -M3 reference.cb "
                   "candidate.cb`); cbevi's default index."),
    },
    "csi_centroid": {
        UEF: _differs("cbevi -M4 data.ts reference.pa candidate.pa",
                      "`CI*`. The data are first re-partitioned by nearest centroid (a partition that is not the "
                      "Voronoi partition of its own means changes), and each target cluster counts only the "
                      "largest overlap among the clusters mapped to it, where cluval adds the overlap of every "
                      "cluster with its nearest."),
    },
    "cr": {
        UEF: _absent(_NOT_FOUND_UEF),
    },
}

_CC = "clusterCrit::extCriteria(part1, part2, "
_IG = "igraph."
_CC_OVERFLOW = "Wrong beyond a few hundred objects, where its 32-bit products overflow."
_CLUSIM_ZERO = "0.0 where the denominator is 0 (cluval 1.0 for identical partitions, NaN otherwise)."

# The indices added after the map above was first written, and the peers' names of the earlier ones
# that only the later peers (igraph, clusterCrit, Clustering.jl) add.
_LATER = {
    "ri": {
        IGRAPH: _same(f'{_IG}compare_communities(membership_true, membership_pred, method="rand")'),
        CLUSTERCRIT: _same(f'{_CC}"Rand")', _CC_OVERFLOW),
        CLUSTERING_JL: _same("randindex(a, b)[2]", "NaN for fewer than 2 objects."),
    },
    "ari": {
        IGRAPH: _same(f'{_IG}compare_communities(membership_true, membership_pred, method="adjusted_rand")'),
        CLUSTERING_JL: _same("randindex(a, b)[1]"),
    },
    "fowlkes_mallows": {CLUSTERCRIT: _same(f'{_CC}"Folkes_Mallows")', _CC_OVERFLOW)},
    "pair_jaccard": {CLUSTERCRIT: _same(f'{_CC}"Jaccard")', _CC_OVERFLOW)},
    "pair_correlation": {
        CLUSTERCRIT: _same(f'{_CC}"Hubert")', "clusterCrit's Hubert is the Pearson correlation of the pairs (its "
                           "`Phi` divides by the product without the square root: cluval's pair_correlation over "
                           f"√((a + b)(a + c)(d + b)(d + c)), a tiny number). {_CC_OVERFLOW}"),
    },
    "sokal_sneath": {
        CLUSTERCRIT: _differs(f'{_CC}"Sokal_Sneath1")', "a/(a + 2(b + c)): another index under the same name."),
    },
    "mi": {},
    "nmi_sum": {
        IGRAPH: _same(f'{_IG}compare_communities(membership_true, membership_pred, method="nmi")',
                      "1.0 when both partitions have one cluster, as cluval."),
        CLUSTERING_JL: _same("mutualinfo(a, b)", "The default `normed=true`."),
    },
    "vi": {
        IGRAPH: _same(f'{_IG}compare_communities(membership_true, membership_pred, method="vi")'),
        CLUSTERING_JL: _same("varinfo(a, b)"),
    },
    "nvd": {
        IGRAPH: _scaled(f'{_IG}compare_communities(membership_true, membership_pred, method="split-join")',
                        "The split-join distance in objects: 2N times cluval's nvd."),
    },
    "mirkin": {
        CLUSTERING_JL: _scaled("randindex(a, b)[3]", "(b + c)/M: cluval's mirkin / (N (N − 1))."),
    },
    "hubert": {
        CLUSTERING_JL: _same("randindex(a, b)[4]"),
        CLUSTERCRIT: _absent("Its `Hubert` is the pair correlation (pair_correlation)."),
    },
    "pair_recall": {CLUSTERCRIT: _same(f'{_CC}"Recall")', _CC_OVERFLOW)},
    "pair_precision": {CLUSTERCRIT: _same(f'{_CC}"Precision")', _CC_OVERFLOW)},
    "czekanowski_dice": {
        CLUSIM: _same(f"{_CS}czekanowski_index(c_true, c_pred)",
                      f"Also `dice_index`, `sorensen_index` and `fmeasure`. {_CLUSIM_ZERO}"),
        CLUSTERCRIT: _same(f'{_CC}"Czekanowski_Dice")', _CC_OVERFLOW),
    },
    "kulczynski": {CLUSTERCRIT: _same(f'{_CC}"Kulczynski")', _CC_OVERFLOW)},
    "russel_rao": {CLUSTERCRIT: _same(f'{_CC}"Russel_Rao")', _CC_OVERFLOW)},
    "rogers_tanimoto": {
        CLUSIM: _same(f"{_CS}rogers_tanimoto_index(c_true, c_pred)"),
        CLUSTERCRIT: _same(f'{_CC}"Rogers_Tanimoto")', _CC_OVERFLOW),
    },
    "sokal_sneath_2": {CLUSTERCRIT: _same(f'{_CC}"Sokal_Sneath2")', _CC_OVERFLOW)},
    "southwood": {
        CLUSIM: _same(f"{_CS}southwood_index(c_true, c_pred)",
                      "1.0 where b + c = 0 (identical partitions), where cluval gives ∞."),
    },
    "fnmi": {},
    "split_join_true": {IGRAPH: _same(f"{_IG}split_join_distance(membership_true, membership_pred)[0]")},
    "split_join_pred": {IGRAPH: _same(f"{_IG}split_join_distance(membership_true, membership_pred)[1]")},
    "chi2": {ARICODE: _same("aricode::Chi2(c1, c2)")},
    "frobenius": {ARICODE: _same("aricode::Frobenius(c1, c2)", "Since aricode 1.1.0; squared, as cluval.")},
    # the standardized indices, PMI₂ and the Tsallis family: none of the peers has them
    "sri": {}, "pmi2": {}, "smi": {}, "atmi": {},
}
for _index_id, _entries in _LATER.items():
    _MAP.setdefault(_index_id, {}).update(_entries)


PEER_NAMES: dict[str, dict[str, PeerName]] = {
    index_id: {peer: entries.get(peer, _absent()) for peer in PEERS} for index_id, entries in _MAP.items()
}
"""For each index id, for each peer (the keys of :data:`PEERS`, in that order), its :class:`PeerName`."""

assert all(set(entries) <= set(PEERS) for entries in _MAP.values()), "every peer of the map is in PEERS"


def peer_names(index_id: str):
    """The index's name and call in every peer tool, with the difference in convention.

    Parameters
    ----------
    index_id : str
        An index id (a key of :data:`PEER_NAMES`: every id of the registry).

    Returns
    -------
    pandas.DataFrame
        One row per peer tool, in the order of :data:`PEERS`, with the columns ``tool``,
        ``call`` (empty when the tool has no such index), ``relation`` (a key of
        :data:`RELATIONS`), ``value`` (the relation in words) and ``note``. Calls and notes
        are Markdown with code in backticks.

    Raises
    ------
    CluvalError
        For an unknown id, listing the valid ones.

    Examples
    --------
    scikit-learn and genieclust compute the ARI as cluval does; genieclust gives NaN where
    cluval gives 1.0.

    >>> table = peer_names("ari").set_index("tool")
    >>> table.loc["scikit-learn", "call"]
    'sklearn.metrics.adjusted_rand_score(labels_true, labels_pred)'
    >>> table.loc["genieclust", ["value", "note"]].tolist()
    ['same value', 'NaN where cluval gives 1.0: both partitions one cluster, or both all singletons.']
    >>> table.loc["bcubed", ["call", "value"]].tolist()
    ['', 'not available']
    """
    entries = PEER_NAMES.get(get_index(index_id).id, {peer: _absent() for peer in PEERS})  # a user's own: none
    return _rows(entries, PEERS)


def _rows(entries: dict[str, PeerName], peers: dict[str, Peer]) -> pd.DataFrame:
    """One row per peer of a map's entries: tool, call, relation, value (the relation in words), note."""
    return pd.DataFrame(
        [{"tool": peers[peer].name, "call": entry.call or "", "relation": entry.relation,
          "value": RELATIONS[entry.relation], "note": entry.note} for peer, entry in entries.items()],
        columns=["tool", "call", "relation", "value", "note"])


# ---------------------------------------------------------------------- overlapping clusterings (covers)
CDLIB, NETWORKIT = "cdlib", "networkit"

COVER_PEERS = {
    CLUSIM: PEERS[CLUSIM],
    BCUBED: PEERS[BCUBED],
    CDLIB: Peer(
        name=CDLIB, language="Python", version="0.4 (cdlib/evaluation/comparison.py, internal/omega.py, "
        "internal/onmi.py, internal/NF1.py)", module=None, checked=_READ,
        conventions=(
            "`f(first, second)` with `NodeClustering` objects (lists of communities); `f1` and `nf1` read the "
            "first as the candidate and the second as the ground truth.",
            "Over the objects either cover lists: an object one cover does not list is in no cluster there "
            "(cluval's `policy=\"singletons\"`).",
        )),
    NETWORKIT: Peer(
        name=NETWORKIT, language="Python (C++)", version="11 (networkit/community/OverlappingNMIDistance.hpp)",
        module=None, checked=_READ,
        conventions=(
            "Dissimilarities of two `Cover` objects over a graph's nodes: "
            "`getDissimilarity(G, X, Y)`, 0 for covers that agree.",
        )),
}
"""The peers that compare overlapping clusterings, in the order :data:`COVER_PEER_NAMES` lists them."""

_CDL = "cdlib.evaluation."
_BCUBED_ALL = ("Averages over the candidate's objects only: the same value when every object is in some cluster of "
               "both covers.")

COVER_PEER_NAMES: dict[str, dict[str, PeerName]] = {
    measure: {peer: entries.get(peer, _absent()) for peer in COVER_PEERS} for measure, entries in {
        "omega": {
            CLUSIM: _same(f"{_CS}omega_index(c_true, c_pred)",
                          "NaN where every pair shares the same number of clusters on both sides (one cluster "
                          "holding every object, say): cluval gives 1 for covers that agree there."),
            CDLIB: _same(f"{_CDL}omega(first, second).score"),
        },
        "onmi_lfk": {
            CLUSIM: _differs(f"{_CS}onmi(c_true, c_pred)",
                             "LFK's test and joint entropy with h(1 − P11) where LFK has h(P00): the same value "
                             "only for identical covers."),
            CDLIB: _same(f"{_CDL}overlapping_normalized_mutual_information_LFK(first, second).score",
                         "A cluster of no object or of every object counts as unpredicted (1), where cluval "
                         "counts it as predicted (0); 0 when one cover has no cluster, and an exception for a "
                         "value outside [0, 1]."),
        },
        "onmi_mgh": {
            CDLIB: _same(f'{_CDL}overlapping_normalized_mutual_information_MGH(first, second, normalization="max")'
                         ".score",
                         "Its `\"max\"` is cluval's default; its other, `\"LFK\"`, rescales each side's "
                         "conditional entropy by that side's entropy (McDaid et al.'s variant of LFK), which cluval "
                         "does not offer."),
            NETWORKIT: _scaled("networkit.community.OverlappingNMIDistance(normalization).getDissimilarity(G, X, Y)",
                               "A distance: 1 minus cluval's value with the same normalisation (`MIN`, "
                               "`GEOMETRIC_MEAN`, `ARITHMETIC_MEAN`, `MAX`, `JOINT_ENTROPY`)."),
        },
        "extended_bcubed_precision": {BCUBED: _same("bcubed.precision(cdict, ldict)", _BCUBED_ALL)},
        "extended_bcubed_recall": {BCUBED: _same("bcubed.recall(cdict, ldict)", _BCUBED_ALL)},
        "extended_bcubed_f": {
            BCUBED: _same("bcubed.fscore(bcubed.precision(cdict, ldict), bcubed.recall(cdict, ldict))", _BCUBED_ALL),
        },
        "f1": {
            CDLIB: _differs(f"{_CDL}f1(first, second).score",
                            "The mean, over the candidate's clusters, of each one's F1 with the ground-truth "
                            "clusters sharing most of its objects (all of them where they tie), each F1 rounded "
                            "to two decimals: the F1 part of NF1, not the two-way average."),
        },
        "nf1": {
            CDLIB: _differs(f"{_CDL}nf1(first, second).score",
                            "F1s rounded to two decimals, every ground-truth cluster tied for the best match "
                            "counted, an object counted only in the first candidate cluster that lists it, and "
                            "redundancy over all candidate clusters rather than those that match."),
        },
        "ecs": {
            CLUSIM: _same(f"{_CS}element_sim(c_true, c_pred, alpha=0.9)",
                          "For overlapping clusterings clusim 0.4 raises AttributeError with recent SciPy (it "
                          "calls `csr_matrix.tolist`); with that call mended it gives cluval's value."),
        },
    }.items()
}
"""For each cover measure (:data:`~cluval_core.core.covers.COVER_MEASURES`), for each peer of
:data:`COVER_PEERS`, its :class:`PeerName`."""


def cover_peer_names(measure: str):
    """A cover measure's name and call in the peers that compare overlapping clusterings, with the
    difference in convention: the same columns as :func:`peer_names`.

    >>> cover_peer_names("omega").set_index("tool").loc["cdlib", "call"]
    'cdlib.evaluation.omega(first, second).score'
    """
    if measure not in COVER_PEER_NAMES:
        raise CluvalError(f"unknown cover measure {measure!r}; the measures are {', '.join(COVER_MEASURES)}")
    return _rows(COVER_PEER_NAMES[measure], COVER_PEERS)

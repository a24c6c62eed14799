"""Object-level indices: BCubed precision, recall and F, and element-centric similarity, each in one place.

Each object gets a score from the two clusters it belongs to, and the index is their mean.
For an object of cell (i, j) of the table (reference cluster i of size r_i, candidate
cluster j of size c_j, n_ij objects in both):

* ``bcubed_precision``: its precision n_ij / c_j, so P = (1/N) sum n_ij^2 / c_j;
  ``bcubed_recall``: its recall n_ij / r_i, R = (1/N) sum n_ij^2 / r_i; ``bcubed_f`` their
  harmonic mean 2PR / (P + R) (Bagga & Baldwin 1998; Amigó et al. 2009);
* ``chi2`` and ``frobenius``, from S = sum n_ij^2 / (r_i c_j), the inner product of the two
  partitions' co-membership matrices with each cluster's block divided by its size (the
  projections onto the clusters' indicator vectors): Pearson's statistic chi^2 = N (S - 1), and
  the squared Frobenius distance between those matrices, K_a + K_b - 2S (Lajugie et al. 2014);
* ``ecs``, element-centric similarity of flat partitions (Gates et al. 2019): 1 minus half the
  L1 distance between its two clusters' uniform membership vectors, which is
  n_ij / max(r_i, c_j); ECS = (1/N) sum n_ij^2 / max(r_i, c_j), and
  ``Comparison.element_scores`` gives each object's.

Under the permutation model E[n_ij^2] = r_i (r_i - 1) c_j (c_j - 1) / (N (N - 1)) + r_i c_j / N,
so BCubed precision and recall have exact expectations, and so have chi^2 and the Frobenius
distance: E[S] = (N - K_a)(N - K_b) / (N (N - 1)) + K_a K_b / N.

>>> from cluval_core import compare
>>> c = compare([0, 0, 1, 1], [0, 0, 0, 1])
>>> c.score("bcubed_precision"), c.score("bcubed_recall"), round(c.score("ecs"), 4)
(0.6666666666666666, 0.75, 0.5417)
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..core.compiled import compiled
from ..core.labels import compare, score_labels
from ..core.numeric import distinct_counts, merged_replaced
from ..core.registry import INF, Anatomy, IndexInfo, left_out_update
from ..core.steps import SHOWN_TERMS, Step, shown, sum_of
from ..core.validation import check_choice

__all__ = ["bcubed_score", "element_centric_similarity", "element_centric_scores", "chi_squared",
           "frobenius_distance"]

FAMILY, FAMILY_NAME = "object_level", "Object level (BCubed, element-centric, co-membership)"

BCUBED = ("Bagga & Baldwin (1998), Entity-based cross-document coreferencing using the vector space model; "
          "Amigó, Gonzalo, Artiles & Verdejo (2009), Information Retrieval 12")

# For each index: the size an object's cell count is divided by, as code and in words.
_SIZES = {
    "precision": (lambda c, r, col: c.col_sizes[col], "c_j"),
    "recall": (lambda c, r, col: c.row_sizes[r], "r_i"),
    "ecs": (lambda c, r, col: np.maximum(c.row_sizes[r], c.col_sizes[col]), "max(r_i, c_j)"),
    "both": (lambda c, r, col: c.row_sizes[r].astype(np.float64) * c.col_sizes[col], "(r_i c_j)"),
}


def _cell_totals(c, which: str, cells=None) -> np.ndarray:
    """Each cell's objects' scores summed, n_ij^2 / size (for ECS n_ij (n_ij / size), each
    object's score times the objects), of c's non-empty cells or of the given (rows, cols,
    values); c may be anything with the tables' ``row_sizes`` and ``col_sizes``."""
    r, col, v = c.cells if cells is None else cells
    return _totals(which, v, _SIZES[which][0](c, r, col))


def _totals(which: str, counts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The total of cells of these counts over these sizes (see :func:`_cell_totals`)."""
    return counts * (counts / sizes) if which == "ecs" else counts.astype(np.float64) * counts / sizes


# From this many cells, the totals of counts (whose term depends on the count and one size) are
# sorted by their distinct (count, size) pairs, counted in one pass where they span a small range.
_MANY_CELLS = 1 << 14


def _sorted_of(which: str):
    def sorted_totals(c) -> np.ndarray:
        r, col, v = c.cells
        if which == "both" or c.is_soft or len(v) < _MANY_CELLS:
            return np.sort(np.ravel(_cell_totals(c, which)))
        # the sorted totals are each distinct total, in order, as often as its (count, size) pair occurs
        sizes = np.asarray(_SIZES[which][0](c, r, col), dtype=np.int64)
        base = int(sizes.max()) + 1
        if int(v.max()) >= (1 << 62) // base:
            return np.sort(np.ravel(_cell_totals(c, which)))
        keys, counts = distinct_counts(v.astype(np.int64) * base + sizes)
        totals = _totals(which, keys // base, keys % base)
        order = np.argsort(totals)
        return np.repeat(totals[order], counts[order])
    return sorted_totals


# each kind's cell totals, sorted (kept per comparison): their sum is the order-free sum
_SORTED = {which: _sorted_of(which) for which in _SIZES}


# each kind's code in the compiled update
_KIND = {which: code for code, which in enumerate(_SIZES)}


@compiled
def _cell_total(kind, x, r, c):
    """:func:`_cell_totals` of one cell of count x, in a row of r and a column of c objects (the
    same operations, in the same order and types)."""
    if kind == 0:
        return float(x) * x / c
    if kind == 1:
        return float(x) * x / r
    if kind == 2:
        return x * (x / max(r, c))
    return float(x) * x / (float(r) * c)


@compiled
def _lines_replaced(sorted_totals, kind, table, row_sizes, col_sizes, i, j):
    """The sorted cell totals of a dense table with one object of cell (i, j) left out, from the
    whole table's: row i's and column j's cells (the only ones whose count or sizes change) taken
    out and put back as they become (None if one is missing)."""
    k_a, k_b = table.shape
    old = np.empty(k_a + k_b - 1)
    new = np.empty(k_a + k_b - 1)
    n_old = n_new = 0
    for q in range(k_b):
        x = table[i, q]
        if x > 0:
            old[n_old] = _cell_total(kind, x, row_sizes[i], col_sizes[q])
            n_old += 1
            if q != j or x > 1:
                new[n_new] = _cell_total(kind, x - (q == j), row_sizes[i] - 1, col_sizes[q] - (q == j))
                n_new += 1
    for p in range(k_a):
        x = table[p, j]
        if x > 0 and p != i:
            old[n_old] = _cell_total(kind, x, row_sizes[p], col_sizes[j])
            new[n_new] = _cell_total(kind, x, row_sizes[p], col_sizes[j] - 1)
            n_old += 1
            n_new += 1
    return merged_replaced(sorted_totals, np.sort(old[:n_old]), np.sort(new[:n_new]))


def _left_out_of(which: str):
    def update(sorted_totals: np.ndarray, c, i: int, j: int) -> np.ndarray:
        """One object of cell (i, j) left out: the totals of row i's and column j's cells change
        (n_ij, r_i and c_j lose one); they are taken out and put back changed."""
        merged = _lines_replaced(sorted_totals, _KIND[which], np.asarray(c.table), c.row_sizes, c.col_sizes, i, j)
        if merged is None:
            raise ValueError(f"a {which} cell total of the whole table is missing from its sorted totals")
        return merged
    return update


for _which in _SIZES:
    left_out_update(_SORTED[_which])(_left_out_of(_which))


def _total(c, which: str) -> float:
    """The order-free sum of the kind's cell totals (their sorted array, kept, summed)."""
    return float(c.memo(_SORTED[which]).sum())


def _mean_of(which: str):
    def mean(c) -> float:
        return _total(c, which) / c.n
    return mean


_MEANS = {which: _mean_of(which) for which in _SIZES}


def _squares_over(c, which: str) -> float:
    """(1/N) sum n_ij^2 / size, the mean of the objects' scores n_ij / size (kept per comparison:
    BCubed F reads precision and recall)."""
    return c.memo(_MEANS[which])


def _mean_steps(c, which: str, symbol: str):
    r, col, v = c.cells
    sizes = _SIZES[which][0](c, r, col)
    total = _total(c, which)
    terms = [f"{shown(x)}²/{shown(s)}" for x, s in zip(v[:SHOWN_TERMS], sizes[:SHOWN_TERMS])]
    return [Step("Σ", f"Σ n_ij² / {_SIZES[which][1]}", sum_of(terms, count=len(v)), total,
                 f"each cell's objects' scores n_ij / {_SIZES[which][1]}, summed"),
            Step(symbol, "Σ / N", f"{shown(total)} / {shown(c.n)}", _squares_over(c, which))]


def _mean_cells(c, dense, which: str):
    t, rows, cols, n = dense
    sizes = {"precision": np.broadcast_to(cols[None, :], t.shape), "recall": np.broadcast_to(rows[:, None], t.shape),
             "ecs": np.maximum.outer(rows, cols)}[which]
    return Anatomy(t * t / sizes / n, 0.0, f"n_ij (n_ij / {_SIZES[which][1]}) / N: the cell's objects' scores over N")


def _bcubed_expectation(c, which: str):
    """E[(1/N) sum n_ij^2 / size] with E[n_ij^2] summed over every cell: exact in fractions."""
    rows, cols = c.row_sizes.astype(np.int64).tolist(), c.col_sizes.astype(np.int64).tolist()
    n = int(c.n)
    if which == "precision":  # sum_j (1/c_j) sum_i E[n_ij^2] = sum_i r_i (r_i - 1) (N - K_b) / (N (N - 1)) + K_b
        twice = sum(x * (x - 1) for x in rows)
        return float(Fraction(twice * (n - len(cols)), n * (n - 1)) + len(cols)) / n, None
    twice = sum(x * (x - 1) for x in cols)
    return float(Fraction(twice * (n - len(rows)), n * (n - 1)) + len(rows)) / n, None


def _bcubed_f(c) -> float:
    p, r = _squares_over(c, "precision"), _squares_over(c, "recall")
    return 2 * p * r / (p + r)


def _bcubed_f_steps(c):
    p, r = _squares_over(c, "precision"), _squares_over(c, "recall")
    return [Step("P", "(1/N) Σ n_ij² / c_j", "", p), Step("R", "(1/N) Σ n_ij² / r_i", "", r),
            Step("F", "2PR / (P + R)", f"2 × {shown(p)} × {shown(r)} / ({shown(p)} + {shown(r)})", _bcubed_f(c))]


# ---------------------------------------------------------------------- co-membership: chi-squared and Frobenius
def _co_membership(c) -> float:
    """S = sum n_ij^2 / (r_i c_j): the inner product of the two partitions' normalised co-membership matrices
    (kept per comparison: chi-squared and the Frobenius distance both read it)."""
    return c.memo(_co_membership_sum)


def _co_membership_sum(c) -> float:
    return _total(c, "both")


def _co_membership_step(c) -> Step:
    r, col, v = c.cells
    terms = [f"{shown(x)}²/({shown(a)}×{shown(b)})" for x, a, b in
             zip(v[:SHOWN_TERMS], c.row_sizes[r[:SHOWN_TERMS]], c.col_sizes[col[:SHOWN_TERMS]])]
    return Step("S", "Σ n_ij² / (r_i c_j)", sum_of(terms, count=len(v)), _co_membership(c),
                "the two partitions' co-membership matrices, each cluster's block divided by its size, multiplied "
                "and summed")


def _expected_co_membership(c) -> Fraction:
    """E[S] under the permutation model, from E[n_ij^2] = r_i (r_i - 1) c_j (c_j - 1) / (N (N - 1)) + r_i c_j / N."""
    n, k_a, k_b = int(c.n), int(c.k_true), int(c.k_pred)
    return Fraction((n - k_a) * (n - k_b), n * (n - 1)) + Fraction(k_a * k_b, n)


def _chi_squared(c) -> float:
    """N (S - 1), at least 0 (S is 1 exactly when a side has one cluster; its sum may round below)."""
    return math.nan if c.is_soft else max(float(c.n) * (_co_membership(c) - 1), 0.0)


def _needs_counts(symbol: str) -> list[Step]:
    return [Step(symbol, "", "", math.nan, "needs a table of counts: undefined on a soft or weighted table")]


def _chi_squared_steps(c):
    if c.is_soft:
        return _needs_counts("χ²")
    step = _co_membership_step(c)
    return [step, Step("χ²", "N (S − 1)", f"{shown(c.n)} × ({shown(step.value)} − 1)", _chi_squared(c))]


def _chi_squared_expectation(c):
    return float(int(c.n) * (_expected_co_membership(c) - 1)), None


def _chi_squared_cells(c, dense):
    t, rows, cols, n = dense
    return Anatomy(n * t * t / np.outer(rows, cols), -float(n), "N n_ij² / (r_i c_j); the constant is −N")


def _frobenius(c) -> float:
    """K_a + K_b - 2 S, at least 0 (identical partitions' S is K exactly)."""
    return math.nan if c.is_soft else max(c.k_true + c.k_pred - 2 * _co_membership(c), 0.0)


def _frobenius_steps(c):
    if c.is_soft:
        return _needs_counts("F")
    step = _co_membership_step(c)
    return [step, Step("F", "K_a + K_b − 2 S", f"{shown(c.k_true)} + {shown(c.k_pred)} − 2 × {shown(step.value)}",
                       _frobenius(c))]


def _frobenius_expectation(c):
    return float(c.k_true + c.k_pred - 2 * _expected_co_membership(c)), None


def _frobenius_cells(c, dense):
    t, rows, cols, n = dense
    return Anatomy(-2 * t * t / np.outer(rows, cols), float(c.k_true + c.k_pred),
                   "−2 n_ij² / (r_i c_j); the constant is K_a + K_b")


# ---------------------------------------------------------------------- one-line functions
def bcubed_score(labels_true, labels_pred, *, measure="f", noise=None) -> float:
    """BCubed ``"precision"``, ``"recall"`` or their harmonic mean ``"f"`` (Bagga & Baldwin 1998)."""
    check_choice("measure", measure, ("f", "precision", "recall"))
    return score_labels(f"bcubed_{measure}", labels_true, labels_pred, noise=noise)


def element_centric_similarity(labels_true, labels_pred, *, noise=None) -> float:
    """Element-centric similarity of flat partitions (Gates et al. 2019): the mean of every object's
    n_ij / max(r_i, c_j)."""
    return score_labels("ecs", labels_true, labels_pred, noise=noise)


def element_centric_scores(labels_true, labels_pred, *, noise=None) -> np.ndarray:
    """Each object's element-centric similarity, in the order given (their mean is ``ecs``).

    >>> element_centric_scores([0, 0, 1, 1], [0, 0, 0, 1]).round(3).tolist()
    [0.667, 0.667, 0.333, 0.5]
    """
    return compare(labels_true, labels_pred, noise=noise).element_scores.copy()


def chi_squared(labels_true, labels_pred, *, noise=None) -> float:
    """Pearson's chi-squared statistic of the contingency table, N (sum n_ij^2 / (r_i c_j) - 1).

    >>> chi_squared([0, 0, 1, 1], [0, 0, 1, 1])
    4.0
    """
    return score_labels("chi2", labels_true, labels_pred, noise=noise)


def frobenius_distance(labels_true, labels_pred, *, noise=None) -> float:
    """The squared Frobenius distance K_a + K_b - 2 sum n_ij^2 / (r_i c_j) between the two partitions'
    normalised co-membership matrices; 0 for identical partitions."""
    return score_labels("frobenius", labels_true, labels_pred, noise=noise)


# ---------------------------------------------------------------------- the registry's entries
# The family's indices, in the order the registry lists them (cluval_core.indices registers them).
ENTRIES = (
    IndexInfo(
        id="bcubed_precision", name="BCubed precision", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=bcubed_score, function_options={"measure": "precision"},
        formula=r"P = \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{c_j}",
        symbols="Each object's precision is the share of its candidate cluster that is in its reference cluster, "
                "$n_{ij} / c_j$; $P$ is their mean.",
        reference=BCUBED,
        caveat="Reaches 1 for all singletons: it never penalises splitting. Read it with BCubed recall.",
        compute=lambda c: _squares_over(c, "precision"), steps=lambda c: _mean_steps(c, "precision", "P"),
        expectation=lambda c: _bcubed_expectation(c, "precision"),
        cells=lambda c, dense: _mean_cells(c, dense, "precision")),
    IndexInfo(
        id="bcubed_recall", name="BCubed recall", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=False, function=bcubed_score, function_options={"measure": "recall"},
        formula=r"R = \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{r_i}",
        symbols="Each object's recall is the share of its reference cluster that is in its candidate cluster, $n_{ij} "
                "/ r_i$; $R$ is their mean.",
        reference=BCUBED,
        caveat="Reaches 1 when the candidate is one cluster: it never penalises merging.",
        compute=lambda c: _squares_over(c, "recall"), steps=lambda c: _mean_steps(c, "recall", "R"),
        expectation=lambda c: _bcubed_expectation(c, "recall"),
        cells=lambda c, dense: _mean_cells(c, dense, "recall")),
    IndexInfo(
        id="bcubed_f", name="BCubed F-measure", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=bcubed_score,
        formula=r"F = \frac{2PR}{P+R}",
        symbols="$P$ and $R$ are BCubed precision and recall.",
        reference=BCUBED,
        caveat="Satisfies Amigó et al.'s formal constraints (homogeneity, completeness, rag bag, size vs "
               "quantity), but is not corrected for chance: random partitions score well above 0.",
        compute=_bcubed_f, steps=_bcubed_f_steps),
    IndexInfo(
        id="ecs", name="Element-centric similarity", family=FAMILY, range=(0, 1), higher_is_better=True,
        chance_adjusted=False, symmetric=True, function=element_centric_similarity,
        formula=r"\mathrm{ECS} = \frac{1}{N}\sum_{ij} n_{ij}\left[1 - \tfrac{1}{2}\left(n_{ij}\left|\tfrac{1}{r_i}"
                r" - \tfrac{1}{c_j}\right| + \tfrac{r_i - n_{ij}}{r_i} + \tfrac{c_j - n_{ij}}{c_j}\right)\right] "
                r"= \frac{1}{N}\sum_{ij} \frac{n_{ij}^2}{\max(r_i, c_j)}",
        symbols=r"Each object's similarity is 1 minus half the $L_1$ distance between its two clusters' membership "
                r"vectors (uniform over each cluster), $n_{ij} / \max(r_i, c_j)$; ECS is their mean, and "
                r"Comparison.element_scores gives each object's.",
        reference="Gates, Wood, Hetrick & Ahn (2019), Element-centric clustering comparison unifies overlaps "
                  "and hierarchy, Scientific Reports 9",
        caveat="Not corrected for chance; for flat partitions it does not depend on the restart parameter "
               "of its personalised PageRank. Small clusters weigh by their objects, like ARI.",
        compute=lambda c: _squares_over(c, "ecs"), steps=lambda c: _mean_steps(c, "ecs", "ECS"),
        cells=lambda c, dense: _mean_cells(c, dense, "ecs")),
    IndexInfo(
        id="chi2", name="Chi-squared statistic", family=FAMILY, range=(0, INF), higher_is_better=True,
        chance_adjusted=False, symmetric=True, soft=False, function=chi_squared,
        formula=r"\chi^2 = \sum_{ij}\frac{(n_{ij} - r_i c_j / N)^2}{r_i c_j / N} = N\left(\sum_{ij}"
                r"\frac{n_{ij}^2}{r_i c_j} - 1\right)",
        symbols="Pearson's statistic of the table's departure from independence; by chance (both partitions' "
                r"cluster sizes fixed) its expectation is exactly $N (K_a - 1)(K_b - 1) / (N - 1)$.",
        reference="Pearson (1900), Philosophical Magazine 50; the aricode package's Chi2 (Chiquet, Rigaill & "
                  "Sundqvist)",
        caveat="A test statistic, not a similarity on a fixed scale: it grows with N and with the numbers of "
               "clusters, and identical partitions score N (K − 1). Compare values only for the same N and K.",
        compute=_chi_squared, steps=_chi_squared_steps, expectation=_chi_squared_expectation,
        cells=_chi_squared_cells),
    IndexInfo(
        id="frobenius", name="Frobenius distance (co-membership)", family=FAMILY, range=(0, INF),
        higher_is_better=False, chance_adjusted=False, symmetric=True, soft=False, function=frobenius_distance,
        formula=r"F = \lVert P_a - P_b \rVert_F^2 = K_a + K_b - 2\sum_{ij}\frac{n_{ij}^2}{r_i c_j}",
        symbols=r"$P_a$ is the reference's $N \times N$ co-membership matrix with each cluster's block divided by "
                r"the cluster's size (the projection onto its clusters' indicators), $P_b$ the candidate's; the "
                r"squared Frobenius norm of their difference, as aricode's Frobenius computes it (no square root).",
        reference="Lajugie, Bach & Arlot (2014), Large-margin metric learning for constrained partitioning "
                  "problems, ICML; the aricode package's Frobenius",
        caveat="At most K_a + K_b − 2, so it grows with the numbers of clusters: splitting every cluster in "
               "two costs as much as a random relabelling of few clusters. Not corrected for chance.",
        compute=_frobenius, steps=_frobenius_steps, expectation=_frobenius_expectation, cells=_frobenius_cells),
)

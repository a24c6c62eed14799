"""Random models of clusterings beyond the permutation model (Gates & Ahn 2017).

What "by chance" means depends on what is held fixed. Each model says how each side is drawn:

====== ============================================== ==============================================
model  reference                                      candidate
====== ============================================== ==============================================
perm   its cluster sizes fixed, objects at random     its cluster sizes fixed, objects at random
perm1  as observed                                    its cluster sizes fixed, objects at random
num    uniform over partitions with K_a clusters      uniform over partitions with K_b clusters
num1   as observed                                    uniform over partitions with K_b clusters
all    uniform over all partitions of the N objects   uniform over all partitions of the N objects
all1   as observed                                    uniform over all partitions of the N objects
====== ============================================== ==============================================

perm and perm1 give the same tables (permuting one side's objects is enough). The two sides
are drawn independently.

Exact expectations. Under every model the chance that a given pair of objects is together is
the same for every pair: m/M for fixed sizes (m pairs together of M = C(N, 2)), S(N-1, K) /
S(N, K) for partitions with K clusters (S the Stirling numbers of the second kind: merge the
two objects into one) and B(N-1) / B(N) for all partitions (B the Bell numbers); three objects,
or two disjoint pairs, are together with chance S(N-2, K) / S(N, K) and B(N-2) / B(N). From
these the Rand index has an exact expectation and standard deviation under every model. The
expected number of clusters of each size, C(N, a) S(N-a, K-1) / S(N, K) and C(N, a) B(N-a) /
B(N), gives the expected mutual information exactly: the sum over pairs of sizes of both sides'
expected counts times the hypergeometric expectation of one cell (the sum the permutation
model's expected mutual information takes over the observed sizes). Stirling and Bell numbers
are taken as logarithms (by their recurrence and by Dobinski's series), so that they hold at
large N.

Random partitions for everything else: with K clusters, N objects put in K boxes uniformly and
kept when no box is empty (each partition into K clusters is K! such assignments, so it is
drawn uniformly), or, where that is rare, the sequential algorithm on the Stirling recurrence;
over all partitions, Stam's algorithm (a number of boxes M drawn with chance proportional to
M^N / M!, the objects put in them uniformly, the empty boxes dropped).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, logsumexp

from .emi import _distinct_pair_sums
from .validation import CluvalError

__all__ = ["MODELS", "MODEL_NAMES", "sides", "pair_chances", "expected_rand", "expected_mutual_information_under",
           "size_spectrum", "random_partition", "log_stirling", "log_bell"]

MODELS = {
    "perm": "both partitions' cluster sizes fixed, objects assigned at random (the permutation model)",
    "perm1": "the reference as observed, the candidate's cluster sizes fixed (the same tables as perm)",
    "num": "both uniform over the partitions with their observed numbers of clusters",
    "num1": "the reference as observed, the candidate uniform over the partitions with its number of clusters",
    "all": "both uniform over all partitions of the objects",
    "all1": "the reference as observed, the candidate uniform over all partitions of the objects",
}
# What a short label calls each model (a menu, a caption); one-sided: the reference as observed.
MODEL_NAMES = {
    "perm": "cluster sizes fixed (permutation)",
    "perm1": "one-sided: the candidate's cluster sizes fixed",
    "num": "numbers of clusters fixed",
    "num1": "one-sided: the candidate's number of clusters fixed",
    "all": "any partitions",
    "all1": "one-sided: any candidate partition",
}
# The most cells of a table of Stirling numbers the sequential sampler keeps (N x K floats, 40 MB).
MAX_STIRLING_CELLS = 5_000_000
# The most steps of the Stirling recurrence one column takes (N x K; about a second).
MAX_STIRLING_WORK = 100_000_000
# Expected counts of cluster sizes below this share of the largest are left out of the sums.
_NEGLIGIBLE = math.log(1e-20)


def sides(model: str) -> tuple[str, str]:
    """How each side is drawn: ("fixed" | "sizes" | "number" | "all") for the reference and the candidate."""
    if not isinstance(model, str) or model not in MODELS:
        raise CluvalError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    return {"perm": ("sizes", "sizes"), "perm1": ("fixed", "sizes"), "num": ("number", "number"),
            "num1": ("fixed", "number"), "all": ("all", "all"), "all1": ("fixed", "all")}[model]


# ---------------------------------------------------------------------- Stirling and Bell numbers
def log_stirling(n_max: int, k: int) -> np.ndarray:
    """log S(n, j) for n = 0..n_max and j = 0..k, an (n_max + 1) x (k + 1) array (-inf where S is 0),
    by the recurrence S(n, j) = j S(n-1, j) + S(n-1, j-1)."""
    if (n_max + 1) * (k + 1) > MAX_STIRLING_CELLS:
        raise CluvalError(f"a table of Stirling numbers for N = {n_max:,} and K = {k:,} holds "
                          f"{(n_max + 1) * (k + 1):,} numbers, more than the {MAX_STIRLING_CELLS:,} cluval keeps")
    table = np.full((n_max + 1, k + 1), -np.inf)
    table[0, 0] = 0.0
    log_j = np.log(np.arange(1, k + 1))
    for n in range(1, n_max + 1):
        table[n, 1:] = np.logaddexp(log_j + table[n - 1, 1:], table[n - 1, :-1])
    return table


def _log_stirling_column(n_values, k: int) -> np.ndarray:
    """log S(n, k) for each n of `n_values` (at most N, K fixed), by the recurrence kept one row at a time."""
    n_values = np.asarray(n_values, dtype=np.int64)
    n_max = int(n_values.max()) if len(n_values) else 0
    if n_max * (k + 1) > MAX_STIRLING_WORK:
        raise CluvalError(f"Stirling numbers for N = {n_max:,} and K = {k:,} take {n_max * (k + 1):.2g} steps, more "
                          f"than the {MAX_STIRLING_WORK:.0e} cluval takes: use the permutation model")
    wanted = np.full(n_max + 1, -np.inf)
    row = np.full(k + 1, -np.inf)
    row[0] = 0.0
    wanted[0] = row[k]
    log_j = np.log(np.arange(1, k + 1))
    for n in range(1, n_max + 1):
        row[1:] = np.logaddexp(log_j + row[1:], row[:-1])
        row[0] = -np.inf
        wanted[n] = row[k]
    return wanted[n_values]


def log_bell(n_values) -> np.ndarray:
    """log B(n) for each n, by Dobinski's series B(n) = (1/e) sum_m m^n / m! (its terms, summed in
    logarithms, run far enough past their largest that the rest is below 1e-17 of the sum)."""
    n_values = np.atleast_1d(np.asarray(n_values, dtype=np.int64))
    top = int(n_values.max()) if len(n_values) else 0
    m = np.arange(1, 4 * top + 60, dtype=np.float64)  # the terms peak near n / log n and fall fast after
    out = np.empty(len(n_values))
    for position, n in enumerate(n_values.tolist()):
        out[position] = 0.0 if n == 0 else float(logsumexp(n * np.log(m) - gammaln(m + 1))) - 1.0
    return out


# ---------------------------------------------------------------------- pairs together
def pair_chances(n: int, side: str, sizes=None) -> tuple[float, float, float]:
    """(the chance one pair is together, two pairs sharing an object, two disjoint pairs) for one side.

    `side` is "sizes" (the cluster sizes `sizes` fixed, objects at random), "number" (uniform over
    partitions with len(sizes) clusters) or "all" (uniform over all partitions)."""
    if side == "sizes":
        sizes = [int(s) for s in sizes]
        pairs = n * (n - 1) // 2
        together = sum(s * (s - 1) // 2 for s in sizes)
        one = together / pairs
        shared = sum(s * (s - 1) * (s - 2) for s in sizes) / (n * (n - 1) * (n - 2)) if n >= 3 else 0.0
        squares = sum(s * (s - 1) for s in sizes)
        quads = sum(s * (s - 1) * (s - 2) * (s - 3) for s in sizes) + squares * squares - sum(
            (s * (s - 1)) ** 2 for s in sizes)
        disjoint = quads / (n * (n - 1) * (n - 2) * (n - 3)) if n >= 4 else 0.0
        return one, shared, disjoint
    if side == "number":
        k = len(sizes)
        logs = _log_stirling_column([n, n - 1, max(n - 2, 0)], k)
        one = math.exp(logs[1] - logs[0])
        two = math.exp(logs[2] - logs[0]) if n >= 3 else 0.0
        return one, two, two
    logs = log_bell([n, n - 1, max(n - 2, 0)])
    one = math.exp(logs[1] - logs[0])
    two = math.exp(logs[2] - logs[0]) if n >= 3 else 0.0
    return one, two, two


def expected_rand(n: int, model: str, rows, cols) -> tuple[float, float]:
    """(E, SD) of the Rand index under `model` for N = `n` objects whose observed cluster sizes are
    `rows` (reference) and `cols` (candidate).

    RI = (1/M) sum over pairs of Z_p, Z_p = 1 when the pair agrees (together on both sides or apart on
    both). A fixed reference makes Z_p = X_p or 1 - X_p (X_p: together in the candidate), a linear
    form in the candidate's indicators; two random sides are independent, so E[Z_p Z_q] factors
    into the chances of each side."""
    pairs = n * (n - 1) // 2
    reference, candidate = sides(model)
    q = pair_chances(n, candidate, cols)
    if reference in ("fixed", "sizes"):  # perm: permuting the candidate alone gives the same tables
        m_a = sum(int(s) * (int(s) - 1) // 2 for s in rows)
        # sum_p s_p X_p with s_p = +1 on the reference's pairs together, -1 elsewhere: RI = (M - m_a + that) / M
        mean = (pairs - m_a + (2 * m_a - pairs) * q[0]) / pairs
        shared_pairs = sum(int(s) * (int(s) - 1) * (int(s) - 2) for s in rows)  # ordered, sharing an object, both in
        weights = _ordered_pair_weights(n, m_a, shared_pairs)
        variance = pairs * q[0] * (1 - q[0]) + weights[0] * (q[1] - q[0] ** 2) + weights[1] * (q[2] - q[0] ** 2)
        return mean, math.sqrt(max(variance, 0.0)) / pairs
    p = pair_chances(n, reference, rows)
    agree = 1 - p[0] - q[0] + 2 * p[0] * q[0]
    variance = pairs * agree * (1 - agree)
    for k, count in ((1, n * (n - 1) * (n - 2)), (2, pairs * (pairs - 1) - n * (n - 1) * (n - 2))):
        both = ((1 - 2 * p[0] + p[k]) * (1 - 2 * q[0] + q[k]) + 2 * (p[0] - p[k]) * (q[0] - q[k]) + p[k] * q[k])
        variance += count * (both - agree * agree)
    return agree, math.sqrt(max(variance, 0.0)) / pairs


def _ordered_pair_weights(n: int, m_a: int, shared_in: int) -> tuple[float, float]:
    """sum of s_p s_q over ordered pairs of distinct object pairs (p, q) that share an object, and that
    are disjoint, with s = +1 on the reference's pairs together and -1 elsewhere.

    Of the n(n-1)(n-2) ordered pairs sharing an object, `shared_in` have both pairs together in
    the reference; those with one together and one apart number 2 (T - shared_in), T the ordered
    pairs sharing an object whose first is together (m_a * 2 (n - 2)), and the rest both apart."""
    sharing = n * (n - 1) * (n - 2)
    one_in = 2 * (m_a * 2 * (n - 2) - shared_in)
    both_out = sharing - shared_in - one_in
    sharing_weight = shared_in + both_out - one_in
    pairs = n * (n - 1) // 2
    total = (2 * m_a - pairs) ** 2 - pairs  # every ordered pair of distinct pairs
    return float(sharing_weight), float(total - sharing_weight)


# ---------------------------------------------------------------------- sizes and the mutual information
def size_spectrum(n: int, side: str, sizes) -> tuple[np.ndarray, np.ndarray]:
    """(sizes, expected number of clusters of each size) of one side: the observed sizes for
    "fixed" and "sizes"; C(N, a) S(N-a, K-1) / S(N, K) for "number"; C(N, a) B(N-a) / B(N) for "all"
    (sizes whose expected count is negligible left out)."""
    if side in ("fixed", "sizes"):
        values, counts = np.unique(np.asarray(sizes, dtype=np.int64), return_counts=True)
        return values, counts.astype(np.float64)
    a = np.arange(1, n + 1, dtype=np.int64)
    log_choose = gammaln(n + 1.0) - gammaln(a + 1.0) - gammaln(n - a + 1.0)
    if side == "number":
        k = len(sizes)
        if k == 1:
            return np.array([n]), np.array([1.0])
        a = a[: n - k + 1]
        logs = log_choose[: len(a)] + _log_stirling_column(n - a, k - 1) - _log_stirling_column([n], k)[0]
    else:  # the counts rise to a mode at small sizes and fall fast after it: take them a block at a time
        total, logs = log_bell([n])[0], []
        for start in range(0, n, 64):
            block = a[start:start + 64]
            logs.append(log_choose[start:start + 64] + log_bell(n - block) - total)
            top = max(float(np.max(part)) for part in logs)
            if logs[-1][-1] < top + _NEGLIGIBLE and logs[-1][-1] < logs[-1][0]:
                break
        logs = np.concatenate(logs)
        a = a[: len(logs)]
    keep = logs >= logs.max() + _NEGLIGIBLE
    return a[keep], np.exp(logs[keep])


def expected_mutual_information_under(n: int, model: str, rows, cols) -> float:
    """E[MI] in nats under `model`: sum over pairs of sizes (a, b) of the expected numbers of clusters of
    sizes a and b times the expected term of one cell of sizes a and b (hypergeometric)."""
    reference, candidate = sides(model)
    a, count_a = size_spectrum(n, reference, rows)
    b, count_b = size_spectrum(n, candidate, cols)
    sums = _distinct_pair_sums(a.astype(np.int64).tobytes(), b.astype(np.int64).tobytes(), n).reshape(len(a), len(b))
    return max(float(count_a @ sums @ count_b), 0.0)


# ---------------------------------------------------------------------- random partitions
def random_partition(n: int, k: int | None, rng: np.random.Generator) -> np.ndarray:
    """Cluster codes of a partition of n objects drawn uniformly among those with k clusters (all
    partitions when k is None)."""
    if k is None:
        return _stam(n, rng)
    if not 1 <= k <= n:
        raise CluvalError(f"a partition of {n} objects has 1 to {n} clusters, not {k}")
    log_s = _log_stirling_column([n], k)[0]
    accept = float(gammaln(k + 1) + log_s - n * math.log(k))  # log of the share of assignments with no empty box
    if accept > math.log(0.05):
        while True:
            codes = rng.integers(0, k, n)
            if np.bincount(codes, minlength=k).min() > 0:
                return codes
    return _sequential(n, k, rng)


def _stam(n: int, rng) -> np.ndarray:
    m = np.arange(1, 4 * n + 60, dtype=np.float64)
    logs = n * np.log(m) - gammaln(m + 1)
    chances = np.exp(logs - logsumexp(logs))
    boxes = int(rng.choice(len(m), p=chances / chances.sum())) + 1
    codes = rng.integers(0, boxes, n)
    return np.unique(codes, return_inverse=True)[1].ravel()


def _sequential(n: int, k: int, rng) -> np.ndarray:
    """The Stirling recurrence read backwards: object i (from the last) opens cluster j (the j-th
    still to open) alone with chance S(i-1, j-1) / S(i, j), else joins one of the j uniformly."""
    table = log_stirling(n, k)
    codes = np.empty(n, dtype=np.int64)
    j = k
    for i in range(n, 0, -1):
        if j == i or math.log(rng.random()) < table[i - 1, j - 1] - table[i, j]:
            codes[i - 1] = j - 1
            j -= 1
        else:
            codes[i - 1] = rng.integers(0, j)
    return codes

"""The adjusted Tsallis-q mutual information (Romano et al. 2016): ARI at q = 2 on random tables, AMI at
q = 1 and its limit, the expectation against every arrangement of the objects, and the refusals."""

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from cluval_core import CluvalError, adjusted_mutual_info_score, adjusted_rand_score, adjusted_tsallis_mutual_info_score
from cluval_core.indices.information import _expected_power_sum, _second_moment


def _random_pair(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    a = rng.integers(0, rng.integers(1, 9), n)
    b = np.where(rng.random(n) < rng.random(), a, rng.integers(0, rng.integers(1, 9), n))
    return a, b


@pytest.mark.parametrize("seed", range(40))
def test_q_2_is_ari_and_q_1_is_ami(seed):
    a, b = _random_pair(seed)
    assert adjusted_tsallis_mutual_info_score(a, b, q=2) == pytest.approx(adjusted_rand_score(a, b), abs=1e-12)
    assert adjusted_tsallis_mutual_info_score(a, b, q=1) == adjusted_mutual_info_score(a, b)
    near = adjusted_tsallis_mutual_info_score(a, b, q=1 + 1e-6)
    assert near == pytest.approx(adjusted_mutual_info_score(a, b), abs=1e-4)  # the limit q -> 1 is Shannon's


def _tsallis(counts, n, q):
    return (1 - sum((c / n) ** q for c in counts if c)) / (q - 1)


@pytest.mark.parametrize("q", [1.3, 1.7, 2.5])
def test_the_expectation_is_the_mean_over_every_arrangement(q):
    """(MI_q - E) / ((H_q(U) + H_q(V)) / 2 - E) with E the mean of MI_q over every order of the candidate's labels."""
    a = [0, 0, 0, 1, 1, 2, 2]
    b = [0, 0, 1, 1, 1, 1, 2]
    n = len(a)

    def mi(x, y):
        cells = {}
        for key in zip(x, y):
            cells[key] = cells.get(key, 0) + 1
        rows = [x.count(v) for v in set(x)]
        cols = [y.count(v) for v in set(y)]
        return _tsallis(rows, n, q) + _tsallis(cols, n, q) - _tsallis(cells.values(), n, q), rows, cols

    orders = list(itertools.permutations(b))
    expected = sum(mi(a, list(order))[0] for order in orders) / len(orders)
    value, rows, cols = mi(a, b)
    by_hand = (value - expected) / ((_tsallis(rows, n, q) + _tsallis(cols, n, q)) / 2 - expected)
    assert adjusted_tsallis_mutual_info_score(a, b, q=q) == pytest.approx(by_hand, abs=1e-12)


def test_conventions_relabelling_and_refusals():
    assert adjusted_tsallis_mutual_info_score([0, 0, 0], [5, 5, 5], q=1.5) == 1.0  # both one cluster: identical
    assert adjusted_tsallis_mutual_info_score([0, 1, 2, 3], [0, 1, 2, 3], q=1.5) == 1.0
    a, b = _random_pair(3)
    assert adjusted_tsallis_mutual_info_score(a, b, q=1.4) == adjusted_tsallis_mutual_info_score(
        np.array(list("abcdefgh"))[a], 100 - b, q=1.4)
    for bad in (0.5, 11, math.nan, True, "2"):
        with pytest.raises(CluvalError, match="q must be a number from 1 to 10"):
            adjusted_tsallis_mutual_info_score([0, 1], [0, 1], q=bad)


def test_the_expected_power_sum_at_q_2_is_the_sum_of_every_pair_of_sizes_second_moment():
    """At q = 2 the sum over pairs of cluster sizes factors by side: the same exact value as
    summing each pair's E[m^2] = Var + mean^2."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        a = rng.integers(1, 400, rng.integers(1, 25))
        n = int(a.sum())
        b = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, n), size=min(int(rng.integers(0, 25)), n - 1),
                                                replace=False)), n]) if n > 1 else np.array([n])
        pairwise = sum((Fraction(_second_moment(int(x), int(y), n)) for x in a for y in b), Fraction(0))
        assert _expected_power_sum(a.astype(np.int64), b.astype(np.int64), n, 2.0) == float(pairwise)


def _exact_power_sum(rows, cols, q):
    """E[sum_ij n_ij^q] summed over every count of every pair of clusters, each probability and
    m^q at 30 digits (mpmath)."""
    n = sum(rows)
    mpmath.mp.dps = 30

    def log_factorial(x):
        return mpmath.loggamma(x + 1)

    total = mpmath.mpf(0)
    for a in rows:
        for b in cols:
            ways = log_factorial(b) + log_factorial(n - b) - log_factorial(n) + log_factorial(a) + log_factorial(n - a)
            for m in range(max(1, a + b - n), min(a, b) + 1):
                log_p = ways - log_factorial(m) - log_factorial(b - m) - log_factorial(a - m) - log_factorial(
                    n - a - b + m)
                total += mpmath.exp(log_p) * mpmath.mpf(m) ** q
    return total


@pytest.mark.parametrize(("rows", "cols"), [([1200, 800], [1000, 1000]), ([1500, 300, 17], [700, 700, 417]),
                                            ([50, 50, 50], [75, 75])])
@pytest.mark.parametrize("q", [1.5, 3.0, 7.25])
def test_the_expected_power_sum_keeps_thirteen_digits(rows, cols, q):
    """The probabilities anchored in Loader's form and carried by their exact ratios (as the expected
    mutual information's) give E[sum n^q] to within 5e-14 of itself; a running sum of the ratios'
    logarithms lost 2e-13 of it on two clusters of 1 200 and 800 objects."""
    exact = _exact_power_sum(rows, cols, q)
    found = _expected_power_sum(np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), sum(rows), q)
    assert abs(float((found - exact) / exact)) < 1e-13

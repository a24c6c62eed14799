"""The expected mutual information against exact sums: rational arithmetic for small N, 40-digit
sums (mpmath) for large N, and its invariances."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cluval_core import expected_mutual_information


def exact_expected_mutual_information(a, b) -> float:
    """Every hypergeometric term, each probability an exact fraction."""
    n = sum(a)
    total = 0.0
    for size_a in a:
        for size_b in b:
            for m in range(max(1, size_a + size_b - n), min(size_a, size_b) + 1):
                p = Fraction(math.comb(size_a, m) * math.comb(n - size_a, size_b - m), math.comb(n, size_b))
                total += float(p) * m / n * math.log(n * m / (size_a * size_b))
    return total


def sizes_summing_to(n):
    """Cluster sizes of a partition of n objects, as a strategy."""
    return st.lists(st.integers(1, n), min_size=1, max_size=n).map(lambda cuts: np.diff(sorted({0, n, *cuts})).tolist())


@st.composite
def size_pairs(draw):
    n = draw(st.integers(1, 60))
    return draw(sizes_summing_to(n)), draw(sizes_summing_to(n))


@settings(max_examples=150, deadline=None)
@given(size_pairs())
def test_equals_the_exact_sum_on_small_partitions(sizes):
    a, b = sizes
    assert expected_mutual_information(a, b) == pytest.approx(exact_expected_mutual_information(a, b),
                                                              rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("a, b", [
    ([7], [7]),                      # one cluster each: MI is always 0
    ([7], [1] * 7),                  # one cluster against singletons
    ([7], [3, 4]),
    ([1] * 5, [1] * 5),              # singletons against singletons: MI is always log N
    ([2, 2], [2, 2]),
    ([10, 1], [6, 5]),
    ([1, 1, 30], [30, 1, 1]),
])
def test_equals_the_exact_sum_at_the_edges(a, b):
    assert expected_mutual_information(a, b) == pytest.approx(exact_expected_mutual_information(a, b),
                                                              rel=1e-13, abs=1e-15)
    if len(a) == 1 or len(b) == 1:
        assert expected_mutual_information(a, b) < 1e-15
    if a == [1] * len(a) and b == [1] * len(b):
        assert expected_mutual_information(a, b) == pytest.approx(math.log(len(a)), rel=1e-15)


# Every term summed with 40 significant digits (mpmath), the hypergeometric probabilities from
# log-gamma at that precision. A difference of double-precision log-factorials of size N is off
# by about 1e-9 relative at N = 1e7 and 4e-6 at N = 1e9 on these.
REFERENCES = [
    ([4000] * 100 + [6000] * 100, [2500] * 200 + [5000] * 100, "0.03013094667011525942181299"),
    ([400_000] * 5 + [450_000] * 4 + [500_000] * 6 + [550_000] * 5 + [450_000],
     [1_000_000] * 6 + [250_000] * 12 + [1_000_000], "0.00001800020406907974590522656"),
    ([1_000_000] * 1000, [2_000_000] * 300 + [500_000] * 800, "0.0005490966066248679965298489"),
    # a value of 1e-9 left by terms of up to 1e-5 that cancel: the absolute error counts here
    ([400_000_000, 600_000_000], [500_000_000, 300_000_000, 200_000_000], "1.00000000246296297502572e-9"),
]


@pytest.mark.parametrize("a, b, reference", REFERENCES, ids=["N=1e6", "N=1e7", "N=1e9", "N=1e9 few clusters"])
def test_equals_a_forty_digit_sum_at_large_n(a, b, reference):
    assert sum(a) == sum(b)
    assert expected_mutual_information(a, b) == pytest.approx(float(reference), rel=1e-12, abs=5e-15)


@settings(max_examples=50, deadline=None)
@given(size_pairs(), st.randoms(use_true_random=False))
def test_depends_only_on_the_multisets_of_sizes_and_is_symmetric(sizes, random):
    a, b = sizes
    value = expected_mutual_information(a, b)
    shuffled_a, shuffled_b = random.sample(a, len(a)), random.sample(b, len(b))
    assert expected_mutual_information(shuffled_a, shuffled_b) == value
    assert expected_mutual_information(b, a) == pytest.approx(value, rel=1e-13, abs=1e-15)


def test_scales_with_repeated_sizes_like_the_full_sum():
    # the sum over distinct size pairs weights each by how often it occurs: repeating every
    # cluster of both partitions twice (N doubled) must equal the exact sum at 2N
    a, b = [3, 5, 2, 6], [4, 4, 8]
    assert expected_mutual_information(a * 2, b * 2) == pytest.approx(
        exact_expected_mutual_information(a * 2, b * 2), rel=1e-13)


def test_sizes_that_do_not_sum_alike_are_refused():
    with pytest.raises(ValueError, match="different totals"):
        expected_mutual_information([2, 3], [4])


@pytest.mark.parametrize("a, b, message", [
    ([2.5, 1.5], [2.5, 1.5], "whole numbers"), ([-1, 5], [2, 2], "must not be negative"),
    ([np.nan, 4], [2, 2], "whole numbers"), ([2**63], [2**63], "more than cluval counts"),
    (4, 4, "1-D sequence"), (None, [1], "1-D sequence"), (["2", "2"], [2, 2], "1-D sequence"),
    ([], [], "1-D sequence"), ([2, 2], [3, 2], "different totals"),
])
def test_hostile_sizes_are_refused_by_name(a, b, message):
    from cluval_core import CluvalError
    with pytest.raises(CluvalError, match=message):
        expected_mutual_information(a, b)


def test_too_many_distinct_sizes_are_refused_before_the_work():
    from cluval_core import CluvalError
    sizes = np.arange(1, 3001)
    with pytest.raises(CluvalError, match="distinct pairs of sizes"):
        expected_mutual_information(sizes, sizes)
    assert expected_mutual_information([0, 2, 2], [2, 2]) == expected_mutual_information([2, 2], [2, 2])


@pytest.mark.parametrize("n, k_a, k_b, skew", [(20_000, 30, 40, False), (50_000, 8, 60, True), (3_000, 200, 3, True)])
def test_windowed_expected_mutual_information_equals_the_full_sum(n, k_a, k_b, skew):
    # scikit-learn sums every hypergeometric term; the window must not change the value
    from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information as full_sum

    from cluval_core import compare

    rng = np.random.default_rng(n)
    p_a = rng.dirichlet(np.full(k_a, 0.3 if skew else 5.0))
    a = rng.choice(k_a, size=n, p=p_a)
    b = rng.integers(0, k_b, n)
    table = compare(a, b).table
    ours = expected_mutual_information(table.sum(1), table.sum(0))
    assert ours == pytest.approx(full_sum(table, n), rel=1e-10, abs=1e-14)


@settings(max_examples=150, deadline=None)
@given(size_pairs(), st.integers(0, 2**32 - 1), st.sampled_from([1, 1000, 100_000]))
def test_every_left_out_expectation_equals_its_own_sum(sizes, seed, scale):
    """The jackknife's expectations, all from one grid at N - 1, equal each reduced margin's own
    sum (clusters of one object emptied included) to the last bits of the sums."""
    from cluval_core.core.emi import expected_mutual_information_left_out
    a, b = (np.array(x) * scale for x in sizes)
    if a.sum() < 3:
        return
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, len(a), 12), rng.integers(0, len(b), 12)
    got = expected_mutual_information_left_out(a, b, rows, cols)
    for value, i, j in zip(got, rows, cols):
        left_a, left_b = a.copy(), b.copy()
        left_a[i] -= 1
        left_b[j] -= 1
        want = expected_mutual_information(left_a, left_b)
        assert value == pytest.approx(want, rel=1e-13, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(size_pairs(), st.integers(0, 2**32 - 1), st.sampled_from([1, 1000]), st.sampled_from([0.5, 1.5, 2.0, 3.0]))
def test_every_left_out_power_sum_equals_its_own_sum(sizes, seed, scale, q):
    """The same one-grid algebra for another sum over the cells, E[sum n_ij^q] (the Tsallis
    indices'): each reduced margin's own sum, to the last bits of the sums."""
    from cluval_core.core.emi import expected_cell_sums_left_out
    from cluval_core.indices.information import _expected_power_sum, _power_grid
    a, b = (np.array(x) * scale for x in sizes)
    if a.sum() < 3:
        return
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, len(a), 8), rng.integers(0, len(b), 8)
    got = expected_cell_sums_left_out(_power_grid(q), a, b, rows, cols)
    for value, i, j in zip(got, rows, cols):
        left_a, left_b = a.copy(), b.copy()
        left_a[i] -= 1
        left_b[j] -= 1
        want = _expected_power_sum(left_a[left_a > 0], left_b[left_b > 0], int(left_a.sum()), q)
        assert value == pytest.approx(want, rel=1e-12)


def test_left_out_expectations_refuse_what_the_sum_refuses():
    from cluval_core import CluvalError
    from cluval_core.core.emi import expected_mutual_information_left_out
    with pytest.raises(CluvalError, match="different totals"):
        expected_mutual_information_left_out([2, 3], [4], [0], [0])
    sizes = np.arange(1, 2001) * 2  # sizes and sizes - 1: 4 000 distinct a side
    with pytest.raises(CluvalError, match="distinct pairs of sizes"):
        expected_mutual_information_left_out(sizes, sizes, [0], [0])
    assert expected_mutual_information_left_out([1, 1], [2], [0, 1], [0, 0]).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("rows, cols, message", [
    ([5], [0], "non-empty clusters"), ([-1], [0], "non-empty clusters"), ([0.5], [0], "whole numbers"),
    ([0, 1], [0], "one each"), ([[0]], [0], "1-D"), ([0], [2], "non-empty clusters"),
])
def test_left_out_expectations_refuse_cells_that_are_not_there(rows, cols, message):
    from cluval_core import CluvalError
    from cluval_core.core.emi import expected_mutual_information_left_out
    with pytest.raises(CluvalError, match=message):
        expected_mutual_information_left_out([3, 2], [2, 3, 0], rows, cols)
    assert expected_mutual_information_left_out([3, 2], [2, 3], [], []).tolist() == []

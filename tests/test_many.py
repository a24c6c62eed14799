"""compare_many: every pairwise value equals compare() on that pair."""

import math

import numpy as np
import pandas as pd
import pytest

from cluval_core import CluvalError, compare, compare_many


def _partitions(seed, p=5, n=300):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 6, n)
    return [np.where(rng.random(n) < 0.7, base, rng.integers(0, int(rng.integers(2, 9)), n)) for _ in range(p)]


@pytest.mark.parametrize("seed", range(3))
def test_every_entry_equals_compare_on_that_pair(seed):
    parts = _partitions(seed)
    ids = ["ari", "psi", "purity", "f_measure", "ch_greedy", "ci_partition", "ami"]  # symmetric and not
    matrices = compare_many(parts, ids)
    for i in ids:
        assert matrices[i].shape == (5, 5)
        for a in range(5):
            for b in range(5):
                expected = compare(parts[a], parts[b]).score(i)
                got = matrices[i].iloc[a, b]
                assert got == expected or (math.isnan(got) and math.isnan(expected)), (i, a, b)


def test_names_come_from_a_dict_or_a_dataframe_and_labels_may_be_strings():
    frame = pd.DataFrame({"k=2": ["x", "x", "y", "y"], "k=3": ["p", "p", "q", "r"], "seed 1": [1, 1, 2, 2]})
    m = compare_many(frame, "ari")["ari"]
    assert list(m.index) == list(m.columns) == ["k=2", "k=3", "seed 1"]
    assert m.loc["k=2", "seed 1"] == 1.0 and m.loc["k=3", "k=3"] == 1.0
    seen = []
    compare_many(dict(frame), ["ari", "purity"], progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (9, 9)  # purity is asymmetric: every ordered pair


def test_refuses_what_it_cannot_compare():
    with pytest.raises(CluvalError, match="at least 2 partitions"):
        compare_many([[0, 1, 1]])
    with pytest.raises(CluvalError, match="has 2 labels, the first has 3"):
        compare_many([[0, 1, 1], [0, 1]])
    with pytest.raises(CluvalError, match="unknown index id 'nope'"):
        compare_many([[0, 1], [1, 0]], ["nope"])
    with pytest.raises(CluvalError, match="ci_centroid needs the data X: compare_many compares labels alone"):
        compare_many([[0, 1], [1, 0]], ["ci_centroid"])
    with pytest.raises(CluvalError, match="ids is empty"):
        compare_many([[0, 1], [1, 0]], [])
    with pytest.raises(CluvalError, match="list of label vectors"):
        compare_many("abc")


def test_partitions_that_mostly_agree_are_counted_over_their_meet_with_the_same_values():
    """Runs of one algorithm: the meet (objects labelled alike in every partition) has a few
    groups, and every table counted over them, weighted by their sizes, is the objects' table."""
    from cluval_core.core import many
    rng = np.random.default_rng(11)
    n = 3000
    base = rng.integers(0, 8, n)
    parts = []
    for _ in range(6):
        labels = base.copy()
        labels[rng.integers(0, n, 20)] = rng.integers(0, 12, 20)  # a few objects move
        parts.append(labels)
    codes = [np.asarray(many.factorize(x)[0], dtype=np.intp) for x in parts]
    met = many._meet(codes, [int(c.max()) + 1 for c in codes])
    assert met is not None and len(met[1]) < n * many._MEET_SHARE and met[1].sum() == n
    ids = ["ari", "psi", "ami", "purity", "ch_greedy", "ecs"]
    matrices = compare_many(parts, ids)
    for a in range(6):
        for b in range(6):
            expected = compare(parts[a], parts[b]).scores(ids)
            for i in ids:
                assert matrices[i].iloc[a, b] == expected[i], (i, a, b)


def test_many_partitions_with_many_clusters_build_sparse_tables_with_the_same_values():
    rng = np.random.default_rng(12)
    n, k = 9000, 2500  # about 2 430 clusters a side: beyond the dense limit
    parts = [rng.integers(0, k, n), rng.integers(0, k, n)]
    matrices = compare_many(parts, ["ari", "nmi_sum"])
    single = compare(parts[0], parts[1])
    assert single.is_sparse
    expected = single.scores(["ari", "nmi_sum"])
    assert matrices["ari"].iloc[0, 1] == expected["ari"] and matrices["nmi_sum"].iloc[0, 1] == expected["nmi_sum"]


@pytest.mark.parametrize("ahead", [True, False])
def test_blocks_of_pairs_counted_ahead_mix_dense_and_sparse_tables_in_the_order_of_the_pairs(ahead, monkeypatch):
    """More pairs than one block, counted in a second thread (or in turn): dense tables and sparse
    ones (two partitions of many clusters each) in one block, every entry that of compare() on its
    pair."""
    from cluval_core.core import many
    monkeypatch.setattr(many, "_AHEAD_FROM", 0 if ahead else 10**9)
    rng = np.random.default_rng(13)
    n = 9000
    parts = [rng.integers(0, 2500, n) if p % 5 == 0 else rng.integers(0, 3 + p, n) for p in range(13)]
    pairs = 13 * 14 // 2
    assert pairs > many._BLOCK_PAIRS
    ids = ["ari", "nmi_sum", "psi"]
    matrices = compare_many(parts, ids, budget=math.inf)  # code compiled on first use is no pace
    assert compare(parts[0], parts[5]).is_sparse and not compare(parts[0], parts[1]).is_sparse
    for a in range(13):
        for b in range(a, 13):
            expected = compare(parts[a], parts[b]).scores(ids)
            for i in ids:
                assert matrices[i].iloc[a, b] == matrices[i].iloc[b, a] == expected[i], (i, a, b)


def test_work_beyond_the_budget_stops_after_the_first_pairs_and_progress_is_reported_about_a_hundred_times(
        monkeypatch):
    from cluval_core.core import chance as chance_module

    class Clock:  # every read after the first is 0.1 s later
        def __init__(self):
            self.now, self.reads = 0.0, 0

        def __call__(self):
            self.reads += 1
            self.now += 0.1 if self.reads > 1 else 0.0
            return self.now

    parts = _partitions(0, p=40, n=50)  # 820 pairs
    monkeypatch.setattr(chance_module, "_clock", Clock())
    with pytest.raises(CluvalError, match=r"compare_many evaluates 820 pairs here, about 82 s \(measured on the first "
                                          r"4\), more than the budget of 60 s.*compare fewer partitions"):
        compare_many(parts)
    monkeypatch.setattr(chance_module, "_clock", Clock())
    seen = []
    matrix = compare_many(parts, budget=100, progress=lambda done, total: seen.append((done, total)))["ari"]
    assert matrix.shape == (40, 40) and 80 <= len(seen) <= 110 and seen[-1] == (820, 820)
    with pytest.raises(CluvalError, match="budget must be a positive number of seconds"):
        compare_many(parts, budget=0)

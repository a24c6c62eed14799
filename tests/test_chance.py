"""Chance, uncertainty and anatomy (docs/definitions.rst): exact expectations against Monte Carlo and by
hand, the jackknife against leaving out each object in turn, contributions against the values."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from cluval_core import INDICES, CluvalError, Comparison, compare
from cluval_core.core.chance import jackknife_values
from cluval_core.core.emi import expected_mutual_information
from cluval_core.core.registry import LEFT_OUT_UPDATES, LEFT_OUT_WITHIN

TABLE_IDS = [i for i, info in INDICES.items() if not info.needs_data]
ANATOMY_IDS = [i for i in TABLE_IDS if INDICES[i].anatomy]


def labels_with_agreement(n, k_a, k_b, agreement, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k_a, n)
    b = np.where(rng.random(n) < agreement, a % k_b, rng.integers(0, k_b, n))
    return a, b


# ---------------------------------------------------------------------- chance
def _null_values(c, n_samples, seed):
    """Pair sums and mutual information of random tables with c's margins, computed here
    independently of cluval (vectorised over the tables)."""
    tables = stats.random_table(c.row_sizes, c.col_sizes).rvs(n_samples, random_state=seed).astype(float)
    n = c.n
    a = (tables * (tables - 1) / 2).sum(axis=(1, 2))
    p = tables / n
    outer = np.outer(c.row_sizes, c.col_sizes) / n**2
    with np.errstate(divide="ignore", invalid="ignore"):
        mi = np.where(p > 0, p * np.log(p / outer), 0.0).sum(axis=(1, 2))
    return a, mi


@pytest.mark.parametrize("n, k_a, k_b, agreement", [(60, 3, 4, 0.5), (200, 5, 5, 0.8), (150, 2, 6, 0.2),
                                                    (90, 7, 3, 0.6)])
def test_exact_expectations_equal_monte_carlo_within_four_standard_errors(n, k_a, k_b, agreement):
    c = compare(*labels_with_agreement(n, k_a, k_b, agreement, seed=n))
    frame = c.chance(["ri", "fowlkes_mallows", "mi", "nmi_sum", "vi", "nvi"], n_samples=20, seed=0)
    assert set(frame["method"]) == {"exact"}
    a, mi = _null_values(c, 20_000, seed=1)
    m = n * (n - 1) / 2
    s_r = float(np.sum(c.row_sizes * (c.row_sizes - 1) / 2))
    s_c = float(np.sum(c.col_sizes * (c.col_sizes - 1) / 2))
    e = c.entropies
    samples = {"ri": (m - s_r - s_c + 2 * a) / m, "fowlkes_mallows": a / math.sqrt(s_r * s_c), "mi": mi,
               "nmi_sum": 2 * mi / (e.true + e.pred), "vi": e.true + e.pred - 2 * mi,
               "nvi": 1 - 2 * mi / (e.true + e.pred)}
    for index_id, sample in samples.items():
        error = sample.std(ddof=1) / math.sqrt(len(sample))
        assert abs(frame.loc[index_id, "expected"] - sample.mean()) <= 4 * error, index_id
    # the pair-counting indices' standard deviations are exact too (the sample SD's relative
    # standard error is about 1/sqrt(2 n) = 0.5%)
    for index_id in ("ri", "fowlkes_mallows"):
        assert frame.loc[index_id, "sd"] == pytest.approx(samples[index_id].std(ddof=1), rel=0.03), index_id


def test_chance_adjusted_indices_expect_exactly_zero():
    c = compare(*labels_with_agreement(120, 4, 5, 0.6, seed=3))
    frame = c.chance(["ari", "ami", "afm"], n_samples=50, seed=0)
    assert frame["expected"].tolist() == [0.0, 0.0, 0.0]
    assert set(frame["method"]) == {"exact"}
    assert (frame["mc_error"] == 0).all()
    # and the random tables agree: their mean ARI is within its Monte Carlo error of 0
    many = c.chance(["ari", "nmi_joint"], n_samples=400, seed=1)
    sd = many.loc["ari", "sd"]
    assert 0 < sd < 0.2
    assert many.loc["nmi_joint", "method"] == "Monte Carlo"
    assert many.loc["nmi_joint", "mc_error"] == pytest.approx(many.loc["nmi_joint", "sd"] / math.sqrt(400))


def test_expected_rand_index_equals_its_closed_form_by_hand():
    # r = (3, 2), c = (2, 2, 1), N = 5: sum C(r, 2) = 4, sum C(c, 2) = 2, C(5, 2) = 10,
    # E[a] = 4 * 2 / 10, E[RI] = (10 - 4 - 2 + 2 E[a]) / 10
    c = Comparison.from_table([[2, 1, 0], [0, 1, 1]])
    expected = (Fraction(10) - 4 - 2 + 2 * Fraction(8, 10)) / 10
    assert c.chance(["ri"], n_samples=10, seed=0).loc["ri", "expected"] == float(expected)
    mi = c.chance(["mi"], n_samples=10, seed=0).loc["mi", "expected"]
    assert mi == expected_mutual_information([3, 2], [2, 2, 1])


def test_chance_is_deterministic_for_a_seed_and_reports_progress():
    c = compare(*labels_with_agreement(100, 4, 4, 0.7, seed=2))
    seen = []
    first = c.chance(["psi", "ch_greedy", "purity"], n_samples=40, seed=7, progress=lambda d, t: seen.append((d, t)))
    again = c.chance(["psi", "ch_greedy", "purity"], n_samples=40, seed=7)
    assert first.equals(again)
    assert seen == [(d, 40) for d in range(1, 41)]  # every table, for so few
    # a strong agreement beats every random table: p = 1 / (1 + n), z large, in both directions
    assert (first["p"] == 1 / 41).all()
    assert first.loc["psi", "z"] > 3 and first.loc["ch_greedy", "z"] < -3  # ch_greedy is a distance


def test_chance_on_a_sparse_table_and_with_coordinates():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3000, 6000)  # 9e6 cells: kept sparse
    c = compare(a, np.where(rng.random(6000) < 0.5, a, rng.integers(0, 3000, 6000)))
    assert c.is_sparse
    frame = c.chance(["ari", "psi"], n_samples=5, seed=0)
    assert frame.loc["ari", "method"] == "exact" and frame.loc["psi", "method"] == "Monte Carlo"
    assert frame.loc["psi", "expected"] < frame.loc["psi", "value"] and frame.loc["psi", "z"] > 3
    X = rng.normal(size=(300, 2))
    a, b = labels_with_agreement(300, 3, 3, 0.9, seed=4)
    X[:, 0] += 4 * a
    frame = compare(a, b, X=X).chance(["ci_centroid", "csi_centroid"], n_samples=20, seed=0)
    assert frame.loc["ci_centroid", "value"] == 0 and frame.loc["csi_centroid", "expected"] < 0.7


def test_chance_and_uncertainty_of_soft_partitions_move_whole_objects():
    rng = np.random.default_rng(1)
    U = rng.dirichlet([0.3, 0.3, 0.3], 12)
    V = np.clip(U + rng.normal(0, 0.05, U.shape), 0, None)
    V /= V.sum(axis=1, keepdims=True)
    c = Comparison.from_memberships(U, V)
    frame = c.chance(["nmi_max", "psi"], n_samples=60, seed=0)
    assert set(frame["method"]) == {"Monte Carlo"}  # the closed forms are for counts
    assert (frame["z"] > 2).all()
    ids = ["nmi_max", "psi", "purity", "ri"]
    jack = c.uncertainty(ids)
    thetas = [Comparison.from_memberships(np.delete(U, k, axis=0), np.delete(V, k, axis=0)).scores(ids)
              for k in range(12)]
    for i in ids:
        theta = np.array([t[i] for t in thetas])
        se = math.sqrt(11 / 12 * float(((theta - theta.mean()) ** 2).sum()))
        assert jack.loc[i, "se"] == pytest.approx(se, rel=1e-9), i


def test_chance_refuses_what_it_cannot_do():
    soft = Comparison.from_table([[1.5, 0.5], [0.25, 1.75]])
    with pytest.raises(CluvalError, match="integer counts or the memberships"):
        soft.chance()
    with pytest.raises(CluvalError, match="integer counts or the memberships"):
        soft.uncertainty()
    c = compare([0, 0, 1, 1], [0, 1, 1, 1])
    with pytest.raises(CluvalError, match="unknown index id 'nope'"):
        c.chance(["nope"])
    with pytest.raises(CluvalError, match="n_samples must be a whole number"):
        c.chance(n_samples=0)
    with pytest.raises(CluvalError, match="needs the data X"):
        c.chance(["ci_centroid"])


# ---------------------------------------------------------------------- uncertainty
def _leave_one_out_se(a, b, ids):
    n = len(a)
    thetas = [compare(np.delete(a, k), np.delete(b, k)).scores(ids) for k in range(n)]
    out = {}
    for i in ids:
        theta = np.array([t[i] for t in thetas])
        out[i] = math.sqrt((n - 1) / n * float(((theta - theta.mean()) ** 2).sum()))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_jackknife_equals_leaving_out_each_object_for_every_index(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 18))
    a, b = rng.integers(0, 3, n), rng.integers(0, 4, n)
    frame = compare(a, b).uncertainty(TABLE_IDS)
    brute = _leave_one_out_se(a, b, TABLE_IDS)
    for i in TABLE_IDS:
        assert frame.loc[i, "se"] == pytest.approx(brute[i], abs=1e-12, nan_ok=True), i


def test_jackknife_values_are_each_table_recomputed_where_the_expected_sums_are_shared():
    """On a table of a few hundred objects with unequal clusters every left-out table takes its
    expected sums over the cells (mutual information, Tsallis powers) from the one grid at N - 1:
    each value is the recomputed table's to the last bits."""
    rng = np.random.default_rng(11)
    a = rng.choice(5, 240, p=[0.4, 0.25, 0.2, 0.1, 0.05])
    b = (a + rng.integers(0, 3, 240) * (rng.random(240) < 0.4)) % 4
    null, _, classes = jackknife_values(compare(a, b), TABLE_IDS)
    for k in range(0, 240, 7):
        want = compare(np.delete(a, k), np.delete(b, k)).scores(TABLE_IDS)
        got = dict(zip(TABLE_IDS, null[classes[k]]))
        for i in TABLE_IDS:
            assert got[i] == pytest.approx(want[i], rel=1e-11, abs=1e-13, nan_ok=True), (k, i)


@pytest.mark.parametrize("seed", range(3))
def test_random_tables_share_only_what_their_margins_fix(seed):
    """chance()'s random tables share with the observed one what depends on the cluster sizes alone
    (Comparison.margin_memo: the variance of the mutual information, the pair counts' moments, the
    Tsallis expectations, RMI's reference terms): every value is that of a fresh comparison of the
    same table, bit for bit, and the shared work is done once."""
    rng = np.random.default_rng(seed)
    a = rng.choice(6, 300, p=[0.3, 0.25, 0.2, 0.1, 0.1, 0.05])
    c = Comparison.from_table(compare(a, np.where(rng.random(300) < 0.5, a, rng.integers(0, 5, 300))).table)
    c.scores(TABLE_IDS)  # (a table's own order breaks ties, as it does for each random table's comparison)
    shared = dict(c._margin_memo)
    assert len(shared) >= 4
    for table in stats.random_table(c.row_sizes, c.col_sizes).rvs(5, random_state=rng):
        drawn = c.with_table(table, same_margins=True)
        got, want = drawn.scores(TABLE_IDS), Comparison.from_table(table).scores(TABLE_IDS)
        assert got == want or all(got[i] == want[i] or math.isnan(got[i]) and math.isnan(want[i]) for i in want)
        assert drawn._margin_memo is c._margin_memo and c._margin_memo == shared  # nothing computed anew


def test_jackknife_of_the_centroid_indices_leaves_out_each_object_with_its_coordinates():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3, 14), rng.integers(0, 3, 14)
    X = rng.normal(size=(14, 2))
    ids = ["ci_centroid", "csi_centroid", "cr", "ari"]
    frame = compare(a, b, X=X).uncertainty(ids)
    thetas = [compare(np.delete(a, k), np.delete(b, k), X=np.delete(X, k, axis=0)).scores(ids) for k in range(14)]
    for i in ids:
        theta = np.array([t[i] for t in thetas])
        se = math.sqrt(13 / 14 * float(((theta - theta.mean()) ** 2).sum()))
        assert frame.loc[i, "se"] == pytest.approx(se, abs=1e-12), i


def test_jackknife_interval_and_bootstrap():
    c = compare(*labels_with_agreement(200, 4, 4, 0.7, seed=8))
    jack = c.uncertainty(["ari", "psi"], level=0.9)
    z = stats.norm.ppf(0.95)
    assert jack.loc["ari", "low"] == pytest.approx(jack.loc["ari", "value"] - z * jack.loc["ari", "se"])
    boot = c.uncertainty(["ari", "psi"], method="bootstrap", n_samples=200, seed=3)
    assert boot.equals(c.uncertainty(["ari", "psi"], method="bootstrap", n_samples=200, seed=3))
    for i in ("ari", "psi"):
        assert boot.loc[i, "low"] < boot.loc[i, "value"] < boot.loc[i, "high"]
        assert boot.loc[i, "se"] == pytest.approx(jack.loc[i, "se"], rel=0.35)  # two estimates of one SE
    with pytest.raises(CluvalError, match="method must be"):
        c.uncertainty(method="delta")
    with pytest.raises(CluvalError, match="level must be"):
        c.uncertainty(level=95)


# ---------------------------------------------------------------------- anatomy
def _random_crisp(seed):
    rng = np.random.default_rng(seed)
    return compare(*labels_with_agreement(int(rng.integers(30, 200)), int(rng.integers(2, 7)),
                                          int(rng.integers(2, 7)), float(rng.random()), seed))


def _random_soft(seed):
    rng = np.random.default_rng(seed)
    n, k_a, k_b = 60, int(rng.integers(2, 5)), int(rng.integers(2, 5))
    U = rng.dirichlet(np.full(k_a, 0.3), n)
    V = rng.dirichlet(np.full(k_b, 0.3), n)
    return Comparison.from_memberships(U, V)


@pytest.mark.parametrize("make, seed", [(_random_crisp, s) for s in range(8)] + [(_random_soft, s) for s in range(4)])
def test_contributions_add_up_to_every_index(make, seed):
    c = make(seed)
    for i in ANATOMY_IDS:
        value = c.score(i)
        if math.isnan(value):
            continue  # undefined here (AMI on a soft table)
        parts = c.contributions(i)
        assert parts.cells.shape == c.table.shape
        assert "convention" not in parts.description, i  # the cells themselves carry the value
        assert parts.total == pytest.approx(value, rel=1e-12, abs=1e-12), i


def test_contributions_by_hand():
    # [[3, 1], [0, 2]]: N = 6; purity takes 3 and 2 (column maxima), so cells 3/6 and 2/6
    c = Comparison.from_table([[3, 1], [0, 2]])
    purity = c.contributions("purity")
    assert purity.cells.tolist() == [[0.5, 0.0], [0.0, 2 / 6]] and purity.constant == 0
    # Criterion H: 1 - (3 + 2)/6, the paired cells carry -n_ij/N
    h = c.contributions("ch_optimal")
    assert h.constant == 1 and h.cells.tolist() == [[-0.5, 0.0], [0.0, -2 / 6]]
    # PSI: S = 3/4 + 2/3, E = 2 * ... (its steps), cells BB / (2 - E), constant -E / (2 - E)
    e = c.steps("psi")["E"]
    psi = c.contributions("psi")
    assert psi.cells[0, 0] == pytest.approx(0.75 / (2 - e))
    assert psi.cells[1, 1] == pytest.approx((2 / 3) / (2 - e))
    assert psi.constant == pytest.approx(-e / (2 - e))
    # ARI: the two big cells carry it, the off-diagonal pair of objects pulls it down
    ari = c.contributions("ari")
    assert ari.cells[0, 0] > ari.cells[1, 1] > 0 > ari.cells[1, 0]


def test_centroid_index_contributions_are_its_orphans():
    # the candidate merges reference clusters 0 and 1 and splits 2: one orphan each way
    a = [0] * 5 + [1] * 5 + [2] * 10
    b = [0] * 10 + [1] * 5 + [2] * 5
    c = compare(a, b)
    parts = c.contributions("ci_partition")
    assert parts.cells is None
    assert parts.rows.sum() == 1 and parts.cols.sum() == 1
    assert max(parts.rows.sum(), parts.cols.sum()) == c.score("ci_partition")
    with pytest.raises(CluvalError, match="no anatomy"):
        compare(a, b, X=np.arange(20.0)).contributions("cr")


# ---------------------------------------------------------------------- edges
def test_one_cluster_on_a_side_leaves_one_possible_table():
    c = compare([0, 0, 1, 1, 1, 2, 2, 2, 2], [0] * 9)
    frame = c.chance(["ri", "f_measure", "psi", "ch_greedy"], n_samples=20, seed=0)
    assert (frame["expected"] == frame["value"]).all() and (frame["sd"] == 0).all()
    assert frame["z"].isna().all() and (frame["p"] == 1).all()


def test_the_tie_order_follows_each_random_arrangement():
    # every arrangement of b enumerated: the greedy pairing's ties depend on which cluster of
    # b occurs first, so a fixed tie order would give 0.463 instead of 0.442
    import itertools
    a, b = [0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 0, 1, 2, 0]
    exact = np.mean([compare(a, list(p)).score("ch_greedy") for p in set(itertools.permutations(b))])
    frame = compare(a, b).chance(["ch_greedy"], n_samples=800, seed=0)
    assert abs(frame.loc["ch_greedy", "expected"] - exact) <= 4 * frame.loc["ch_greedy", "mc_error"]


def test_seeded_results_do_not_depend_on_label_numbering():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 4, 60), rng.integers(0, 4, 60)
    ids = ["psi", "nmi_joint", "ch_greedy", "purity"]
    first = compare(a, b).chance(ids, n_samples=30, seed=3)
    relabelled = compare(a * 7 + 3, -b * 2 + 11).chance(ids, n_samples=30, seed=3)
    assert first.equals(relabelled)
    boot = compare(a, b).uncertainty(ids, method="bootstrap", n_samples=30, seed=3)
    assert boot.equals(compare(a * 7 + 3, -b * 2 + 11).uncertainty(ids, method="bootstrap", n_samples=30, seed=3))


class _Clock:
    """A clock for the budget's pace: each evaluation takes `step` seconds (the first `first`)."""

    def __init__(self, step: float, first: float | None = None):
        self.now, self.step, self.first, self.reads = 0.0, step, step if first is None else first, 0

    def __call__(self) -> float:
        self.reads += 1
        if self.reads > 1:  # the first read starts the work
            self.now += self.first if self.reads == 2 else self.step
        return self.now


def test_work_beyond_the_budget_is_stopped_after_its_first_evaluations(monkeypatch):
    from cluval_core.core import chance as chance_module

    c = compare([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2])
    clock = _Clock(0.1)
    monkeypatch.setattr(chance_module, "_clock", clock)
    with pytest.raises(CluvalError, match=r"chance\(\) evaluates 1,000 tables here, about 100 s \(measured on the "
                                          r"first 4\), more than the budget of 60 s, so it was stopped: use fewer "
                                          r"random tables .* or pass budget="):
        c.chance(["psi"], n_samples=1000)
    # the start and four evaluations: judged at 0.4 s, once the evaluations after the first took 0.25 s
    assert clock.reads == 5
    monkeypatch.setattr(chance_module, "_clock", _Clock(0.1))
    assert len(c.chance(["psi"], n_samples=500)) == 1  # 50 s: within the budget, so never refused
    monkeypatch.setattr(chance_module, "_clock", _Clock(0.1))
    with pytest.raises(CluvalError, match=r"about 50 s \(measured on the first 4\), more than the budget of 10 s"):
        c.chance(["psi"], n_samples=500, budget=10)
    monkeypatch.setattr(chance_module, "_clock", _Clock(2.0))  # one slow evaluation is judged at once
    with pytest.raises(CluvalError, match=r"the jackknife evaluates \d+ tables here, about .* \(measured on the first "
                                          r"1\), more than the budget of 1 s.* use the bootstrap with fewer samples"):
        c.uncertainty(["psi"], budget=1)
    monkeypatch.setattr(chance_module, "_clock", _Clock(1.0))
    with pytest.raises(CluvalError, match="the bootstrap evaluates 100 tables here, about 100 s"):
        c.uncertainty(["psi"], method="bootstrap", n_samples=100)
    # the first evaluation compiles code (5 s), the others take 10 ms: 10 s in all, not judged on the first alone
    monkeypatch.setattr(chance_module, "_clock", _Clock(0.01, first=5.0))
    assert len(c.chance(["psi"], n_samples=500)) == 1
    monkeypatch.setattr(chance_module, "_clock", _Clock(0.1, first=5.0))  # 5 s, then 100 ms: about 105 s for 1 000
    with pytest.raises(CluvalError, match=r"about 105 s \(measured on the first 2\)"):
        c.chance(["psi"], n_samples=1000)


def test_the_budget_changes_no_value_and_is_a_positive_number_of_seconds():
    c = compare([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2])
    assert c.chance(["psi", "ari"], n_samples=50, seed=1).equals(
        c.chance(["psi", "ari"], n_samples=50, seed=1, budget=math.inf))
    assert c.uncertainty(["psi"]).equals(c.uncertainty(["psi"], budget=1e9))
    for bad in (0, -1, True, "60", None, math.nan):
        with pytest.raises(CluvalError, match="budget must be a positive number of seconds"):
            c.chance(["psi"], n_samples=10, budget=bad)
        with pytest.raises(CluvalError, match="budget must be a positive number of seconds"):
            c.uncertainty(["psi"], budget=bad)


def test_work_beyond_the_sampler_is_refused_before_it_starts():
    h = 2_500_000_000
    huge = Comparison.from_table([[h, h], [h, h]])
    with pytest.raises(CluvalError, match="beyond the sampler"):
        huge.chance(["ri"], n_samples=2)
    from cluval_core.core.chance import _exact_expectations
    assert _exact_expectations(huge, ["ri"])["ri"][0] == 0.5  # exact in Python integers, past int64


def test_bad_arguments_are_named():
    c = compare([0, 0, 1, 1, 2], [0, 1, 1, 2, 2])
    for call, message in [(lambda: c.chance(seed=-1), "seed must be"), (lambda: c.chance(ids=5), "ids must be"),
                          (lambda: c.chance(ids=[["ari"]]), "ids must be index id strings"),
                          (lambda: c.chance(ids=[]), "ids is empty"),
                          (lambda: c.chance(progress=5), "progress must be a function"),
                          (lambda: c.contributions(["ari"]), "index_id must be one index id"),
                          (lambda: compare([0, 1], [0, 1]).uncertainty(), "needs at least 3")]:
        with pytest.raises(CluvalError, match=message):
            call()
    frame = c.chance(["ari", "psi", "ari"], n_samples=5, seed=0)
    assert list(frame.index) == ["ari", "psi"]
    assert list(c.chance({"psi", "ari"}, n_samples=5, seed=0).index) == ["ari", "psi"]  # a set: registry order
    jack = compare([0, 0, 1], [0, 1, 1]).uncertainty(["ri", "nvi"], level=np.float32(0.9))
    assert (jack["low"] >= 0).all() and (jack["high"] <= 1).all()  # intervals stay within the range


def test_contributions_with_one_cluster_fall_back_to_the_convention():
    for index_id in ("na", "aaa", "psi", "ami", "ari"):
        parts = compare([0, 0, 0], [0, 0, 0]).contributions(index_id)
        assert parts.total == parts.value == 1.0 and "convention" in parts.description


@pytest.mark.parametrize("n, k_a, k_b, agreement", [(60, 3, 4, 0.5), (200, 5, 5, 0.8), (90, 7, 3, 0.6)])
def test_exact_expectations_of_the_modern_family_equal_monte_carlo(n, k_a, k_b, agreement):
    ids = ["pair_correlation", "sokal_sneath", "homogeneity", "completeness", "bcubed_precision", "bcubed_recall",
           "ami_sqrt", "ami_max", "ami_min"]
    c = compare(*labels_with_agreement(n, k_a, k_b, agreement, seed=n))
    frame = c.chance(ids, n_samples=20, seed=0)
    assert set(frame["method"]) == {"exact"}
    assert frame.loc[["ami_sqrt", "ami_max", "ami_min"], "expected"].tolist() == [0.0, 0.0, 0.0]
    tables = stats.random_table(c.row_sizes, c.col_sizes).rvs(20_000, random_state=2).astype(float)
    a, mi = _null_values(c, 20_000, seed=2)
    m = n * (n - 1) / 2
    m_a = float(np.sum(c.row_sizes * (c.row_sizes - 1) / 2))
    m_b = float(np.sum(c.col_sizes * (c.col_sizes - 1) / 2))
    b, cc = m_a - a, m_b - a
    d = m - a - b - cc
    e = c.entropies
    squares = tables * tables
    samples = {
        "pair_correlation": (m * a - m_a * m_b) / math.sqrt(m_a * m_b * (m - m_a) * (m - m_b)),
        "sokal_sneath": (a / (a + b) + a / (a + cc) + d / (d + b) + d / (d + cc)) / 4,
        "homogeneity": mi / e.true, "completeness": mi / e.pred,
        "bcubed_precision": (squares / c.col_sizes[None, None, :]).sum(axis=(1, 2)) / n,
        "bcubed_recall": (squares / c.row_sizes[None, :, None]).sum(axis=(1, 2)) / n,
    }
    for index_id, sample in samples.items():
        error = sample.std(ddof=1) / math.sqrt(len(sample))
        assert abs(frame.loc[index_id, "expected"] - sample.mean()) <= 4 * error, index_id
    for index_id in ("pair_correlation", "sokal_sneath"):  # linear in a: exact standard deviations
        assert frame.loc[index_id, "sd"] == pytest.approx(samples[index_id].std(ddof=1), rel=0.03), index_id


@pytest.mark.parametrize("scale", [3, 40])
def test_a_left_out_wide_table_keeps_its_pairings_by_their_gaps(scale):
    """On a 25 x 25 table a left-out object changes the weights of a row and a column by more than
    the pairing's cells gain, yet the pairing stays optimal: each row's gap (what any pairing that
    moves it loses, Comparison._share_pairings) covers the change. Almost every left-out table
    keeps all three optimal pairings, each the pairs, total and tie flag it finds itself."""
    from cluval_core.core.chance import _positive_cells, _reduced

    rng = np.random.default_rng(scale)
    table = rng.integers(0, scale, (25, 25)) + np.diag(rng.integers(1, 4 * scale, 25))
    c = Comparison.from_table(table)
    r, col, v = _positive_cells(c)
    eligible = shared = 0
    for cell in rng.choice(len(v), 150, replace=False):
        child = c._left_out(int(cell))
        left = v.copy()
        left[cell] -= 1
        fresh = _reduced(c, r, col, left)
        for name in ("hungarian_pairing", "row_normalised_pairing", "accuracy_pairing"):
            pairing = getattr(c, name)
            if pairing.tie_broken or (r[cell], col[cell]) in zip(pairing.rows, pairing.cols):
                continue
            eligible += 1
            if name in child.__dict__:
                shared += 1
                mine, theirs = getattr(child, name), getattr(fresh, name)
                assert mine.rows.tolist() == theirs.rows.tolist() and mine.cols.tolist() == theirs.cols.tolist()
                assert mine.total == theirs.total and mine.tie_broken == theirs.tie_broken
    assert eligible > 200 and shared >= 0.95 * eligible, (shared, eligible)


@pytest.mark.parametrize("seed", range(40))
def test_a_left_out_table_shares_only_what_it_would_compute_itself(seed):
    """The jackknife's table with one object left out (Comparison._left_out) takes over the pair
    counts, the cells' tie order and the pairings of the whole table that provably stay its own
    (Comparison._share_pairings), and updates what the families derive (LEFT_OUT_UPDATES): the
    same pairs, totals, counts, derivations and scores, to the last bit, as
    reducing and solving that table afresh, on tables with ties, one-object cells and clusters
    of different counts (the expected mutual information aside: that one is summed anew). The
    entropies are updated too (N H and N MI lose a few terms): within 16 units in the last place
    of the larger marginal entropy of the table's own; an update registered with a tolerance
    (LEFT_OUT_WITHIN: the flat RMI's log count) within it."""
    from cluval_core.core.chance import _positive_cells, _reduced

    rng = np.random.default_rng(seed)
    k_a, k_b = rng.integers(2, 7, 2)
    table = rng.integers(0, [2, 4, 30][seed % 3], (k_a, k_b)) + (rng.random((k_a, k_b)) < 0.3) * 5
    table[np.arange(k_a), rng.integers(0, k_b, k_a)] += 1  # every row and column non-empty
    table[rng.integers(0, k_a, k_b), np.arange(k_b)] += 1
    c = Comparison.from_table(table)
    c.scores(TABLE_IDS)  # what the families derive, which a left-out table updates (LEFT_OUT_UPDATES)
    r, col, v = _positive_cells(c)
    shared = updated = entropies = 0
    for cell in range(len(v)):
        left = v.copy()
        left[cell] -= 1
        child, fresh = c._left_out(cell), _reduced(c, r, col, left)
        if child is None:  # a cluster empties: the jackknife reduces the table
            assert c.row_sizes[r[cell]] == 1 or c.col_sizes[col[cell]] == 1
            continue
        assert child.table.tolist() == fresh.table.tolist()
        assert child.pair_counts == fresh.pair_counts
        assert child._tie_priority.tolist() == fresh._tie_priority.tolist()
        for name in ("hungarian_pairing", "accuracy_pairing", "row_normalised_pairing", "greedy_pairing"):
            if name in child.__dict__:
                shared += 1
                mine, theirs = getattr(child, name), getattr(fresh, name)
                assert mine.rows.tolist() == theirs.rows.tolist() and mine.cols.tolist() == theirs.cols.tolist(), name
                assert mine.total == theirs.total and mine.tie_broken == theirs.tie_broken, name
        for derive in LEFT_OUT_UPDATES:
            if derive in child._memo:
                updated += 1
                mine, theirs = child._memo[derive], derive(fresh)
                if derive in LEFT_OUT_WITHIN:  # a float sum moved by a few terms: to the last bits it allows
                    within = LEFT_OUT_WITHIN[derive](fresh)
                    assert 0 < within < 1e-6 and np.all(np.abs(np.subtract(mine, theirs)) <= within), derive
                    child._memo[derive] = theirs  # every other value to the last bit
                    continue
                assert (mine.dtype == theirs.dtype and np.array_equal(mine, theirs) if isinstance(mine, np.ndarray)
                        else mine == theirs), derive.__qualname__
        if "cell_value_counts" in child.__dict__:
            updated += 1
            for mine, theirs in zip(child.cell_value_counts, fresh.cell_value_counts):
                assert mine.dtype == theirs.dtype and mine.tolist() == theirs.tolist()
        if "entropies" in child.__dict__:  # updated to the last bits its sums allow, not to the bit
            entropies += 1
            mine, theirs = child.entropies, fresh.entropies
            unit = np.spacing(max(theirs.true, theirs.pred))
            for name in ("true", "pred", "joint", "mutual_information"):
                assert abs(getattr(mine, name) - getattr(theirs, name)) <= 16 * unit, name
            child.__dict__["entropies"] = theirs  # every other value to the last bit
        assert child.scores(TABLE_IDS) == pytest.approx(fresh.scores(TABLE_IDS), abs=0, rel=0, nan_ok=True)
    assert shared > 0 and updated > 0 and entropies > 0


def test_left_out_tables_share_rmis_conditional_term_by_its_inputs_and_each_is_its_own():
    """Leaving out an object of a cell with the same count in a column of the same size gives the
    same column sizes and cell counts, so RMI's H(g | c) is kept by them (lru cache) and found
    again; each left-out value is still exactly that table's own, computed with nothing kept."""
    from cluval_core.indices.information import _conditional_entropy

    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 6, 300), rng.integers(0, 5, 300)
    _conditional_entropy.cache_clear()
    null, _, classes = jackknife_values(compare(a, b), ["rmi", "nrmi"])
    assert _conditional_entropy.cache_info().hits > 0
    for k in range(0, 300, 23):
        _conditional_entropy.cache_clear()
        fresh = compare(np.delete(a, k), np.delete(b, k))
        assert null[classes[k]].tolist() == [fresh.score("rmi"), fresh.score("nrmi")], k


def test_an_index_infinite_on_some_tables_has_no_spread_and_no_warning():
    """Southwood's index is infinite on identical partitions: the random tables that come out
    identical and every left-out table of an identical pair give infinity, whose mean and SD
    are not numbers. chance() and the jackknife say NaN for them (the suite turns warnings into
    errors: numpy's "invalid value" warning failed both), and the other indices keep theirs."""
    c = Comparison.from_table([[3, 0], [0, 4]])
    assert c.score("southwood") == math.inf
    frame = c.chance(["southwood", "ari"], n_samples=60, seed=0, budget=math.inf)
    assert math.isnan(frame.loc["southwood", "sd"]) and math.isnan(frame.loc["southwood", "z"])
    assert frame.loc["ari", "sd"] > 0 and math.isfinite(frame.loc["ari", "z"])
    spread = c.uncertainty(["southwood", "ari"], budget=math.inf)
    assert math.isnan(spread.loc["southwood", "se"]) and math.isfinite(spread.loc["ari", "se"])

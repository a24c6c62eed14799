"""What the app and notebooks show of a comparison: display order, partners, pairs shown as
unpaired, PSI's steps, CI's direction, honest formatting, figures and files with provenance."""

from __future__ import annotations

import base64
import colorsys
import io
import json

import numpy as np
import pandas as pd
import pytest
from plotly.colors import hex_to_rgb

from cluval_core import INDICES, CluvalError, Comparison, compare
from cluval_core.outputs.export import (
    contingency_frame,
    csv_with_provenance,
    format_value,
    html_report,
    json_with_provenance,
    provenance,
    report_figures,
)
from cluval_core.outputs.plots import (
    MAX_SHOWN,
    ORPHAN,
    PALETTE,
    UNPAIRED,
    cluster_colour_index,
    contingency_heatmap,
    mapping_diagram,
    partition_scatter,
)
from cluval_core.outputs.plots.raster import IMAGE_PIXELS, SCREEN_PIXELS, image_extent, points_image

# r = (6, 3), c = (8, 1); Braun-Banquet 5/8, 1/6 / 3/8, 0: the optimum pairs (0, 0) and (1, 1),
# and the second pair shares no object
ZERO_PAIR = [[5, 1], [3, 0]]


def test_a_pair_that_shares_nothing_is_shown_as_unpaired():
    pairing = Comparison.from_table(ZERO_PAIR, ["a", "b"], ["x", "y"]).hungarian_pairing
    assert pairing.rows.tolist() == [0, 1] and pairing.overlap.tolist() == [5, 0]  # the optimum pairs it
    assert pairing.shares_objects.tolist() == [True, False]
    assert pairing.display_order.tolist() == [0] and pairing.n_shown == 1
    assert pairing.row_partner.tolist() == [0, -1] and pairing.col_partner.tolist() == [0, -1]
    assert [a.tolist() for a in pairing.shown_unpaired] == [[1], [1]]
    frame = pairing.display_frame()
    assert frame[["pair", "reference", "candidate", "overlap"]].values.tolist() == [[1, "a", "x", 5]]


def test_display_order_is_by_overlap_then_the_rest_in_index_order():
    # pairs (0, 2) 2 shared, (1, 0) 4 shared, (2, 1) 3 shared; column 3 left over
    c = Comparison.from_table([[0, 0, 2, 0], [4, 0, 0, 1], [0, 3, 0, 0]])
    pairing = c.hungarian_pairing
    assert pairing.row_order.tolist() == [1, 2, 0]
    assert pairing.col_order.tolist() == [0, 1, 2, 3]
    assert [a.tolist() for a in pairing.shown_unpaired] == [[], [3]]
    assert pairing.display_frame()["overlap"].tolist() == [4, 3, 2]


def test_mappings_know_ci_and_its_direction():
    # reference 3 clusters, candidate merges two of them: one candidate orphan? No: one
    # reference cluster is orphaned in candidate -> reference
    c = compare([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1])
    forward, backward = c.jaccard_mapping  # still unpacks as a pair
    assert (forward.n_orphans, backward.n_orphans) == (0, 1)
    assert c.jaccard_mapping.ci == 1 == c.score("ci_partition")
    assert c.jaccard_mapping.direction == "candidate → reference"
    assert compare([0, 0, 1, 1], [0, 0, 1, 1]).jaccard_mapping.direction == "both directions"


def test_psi_steps_are_the_numbers_behind_psi():
    c = compare([0, 0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3])
    steps = c.steps("psi")
    # pairs (G0, P0 or P1) 2/4, (G1, P2) 1, (G2, P3) 1; E = (4*2/8)/4 + (2*2/8)/2 + (2*2/8)/2
    assert steps["S"] == 2.5 and steps["E"] == 0.75 and steps["k"] == 4
    assert steps.value == c.score("psi") == pytest.approx((2.5 - 0.75) / (4 - 0.75), rel=1e-15)
    assert c.steps("psi_simplified").value == c.score("psi_simplified") == pytest.approx((2.5 - 1) / 3, rel=1e-15)
    assert str(steps[-1]) == f"PSI = (S − E) / (k − E) = (2.5 − 0.75) / (4 − 0.75) = {format_value('psi', steps.value)}"
    below = compare([0, 0, 0, 1], [0, 1, 1, 1]).steps("psi")
    assert below.value == 0 and below[-1].note == "S = 0.6667 < E = 1: 0, no better than chance"
    assert str(compare([0, 0, 1], [0, 0, 0]).steps("psi")[-1]).endswith("(2 − 0.6667) = 0")  # S = E
    single = compare([0, 0], [1, 1]).steps("psi")
    assert single.value == 1 and single[-1].note == "one cluster each side: 1 by convention"


def test_psi_steps_of_before_still_work_with_a_warning():
    c = compare([0, 0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3])
    with pytest.warns(DeprecationWarning, match=r'use Comparison.steps\("psi"\)'):
        steps = c.psi_steps
    assert (steps.S, steps.E, steps.max_k, steps.psi) == (2.5, 0.75, 4, c.score("psi"))
    assert steps.psi_simplified == c.score("psi_simplified") and steps.formula == str(c.steps("psi")[-1])


@pytest.mark.parametrize("index_id, value, shown", [
    ("ari", 0.99998, "0.99998"), ("ari", 1.0, "1"), ("ari", 0.5, "0.5"), ("nvd", 2e-7, "0.0000002"),
    ("nvd", 0.0, "0"), ("ari", -1e-9, "-0.000000001"), ("ci_partition", 3.0, "3"), ("mi", float("inf"), "∞"),
    ("psi", float("nan"), "undefined"), ("ari", 0.123456, "0.1235"),
])
def test_values_are_formatted_honestly(index_id, value, shown):
    assert format_value(index_id, value) == shown


def test_format_never_rounds_onto_a_landmark():
    rng = np.random.default_rng(0)
    for index_id, info in INDICES.items():
        if info.integer_valued:
            continue
        for landmark in {info.best, *info.range, 0.0} - {float("inf"), float("-inf")}:
            for delta in 10.0 ** -rng.integers(5, 12, 3):
                for value in (landmark - delta, landmark + delta):
                    assert float(format_value(index_id, value)) != landmark, (index_id, value)


def _hls(colour):
    r, g, b = (v / 255 for v in hex_to_rgb(colour))
    return colorsys.rgb_to_hls(r, g, b)


def test_palette_has_no_near_black_no_grey_and_no_red():
    assert len(PALETTE) >= 20 and len(set(PALETTE)) == len(PALETTE)
    for colour in PALETTE:
        hue, lightness, saturation = _hls(colour)
        r, g, b = (v / 255 for v in hex_to_rgb(colour))
        assert 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2, colour  # not near-black
        assert saturation > 0.25, colour  # not grey: grey means unpaired
        assert not ((hue < 0.04 or hue > 0.95) and saturation > 0.35), colour  # not red: red means orphan
    assert UNPAIRED not in PALETTE and ORPHAN not in PALETTE


def test_candidates_take_their_partners_colour_and_unpaired_ones_none():
    c = Comparison.from_table(ZERO_PAIR)
    assert cluster_colour_index(c, "pred").tolist() == [cluster_colour_index(c, "true")[0], -1]
    X = np.r_[np.zeros((6, 2)), np.ones((3, 2))]
    c = compare([0] * 6 + [1] * 3, [0, 0, 0, 0, 0, 1, 0, 0, 0], X=X)
    fig = partition_scatter(c, "pred")
    colours = np.asarray(fig.data[0].marker.color)
    assert set(colours.tolist()) == {cluster_colour_index(c, "true")[0], len(PALETTE)}  # the partner's and grey


def test_many_points_are_one_picture_below_vector_overlays():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5000, 2))
    a, b = rng.integers(0, 3, 5000), rng.integers(0, 4, 5000)
    small = partition_scatter(compare(a[:500], b[:500], X=X[:500]), "pred")  # markers that name their cluster
    assert [t.name for t in small.data[:2]] == ["points", "centroids"] and len(small.data[0].x) == 500
    assert not small.layout.images and {t.type for t in small.data} == {"scatter"}
    c = compare(a, b, X=X)
    large = partition_scatter(c, "pred")
    assert {t.type for t in large.data} == {"scatter"}  # no WebGL: its graphics contexts are what is slow
    assert [t.name for t in large.data[:2]] == ["extent", "centroids"] and len(large.layout.images) == 1
    picture = large.layout.images[0]
    assert (picture.xref, picture.yref, picture.layer) == ("x", "y", "below")
    assert large.layout.xaxis.showgrid is False and large.layout.yaxis.zeroline is False  # the grid lies above it
    extent = large.data[0]  # invisible, over the picture, so that the axes' autorange takes it in
    assert extent.marker.opacity == 0 and extent.hoverinfo == "skip"
    assert min(extent.x) <= X[:, 0].min() and max(extent.x) >= X[:, 0].max()
    assert min(extent.y) <= X[:, 1].min() and max(extent.y) >= X[:, 1].max()
    drawn = _picture_colours(picture.source)
    expected = {hex_to_rgb(PALETTE[i]) if i >= 0 else hex_to_rgb(UNPAIRED) for i in cluster_colour_index(c, "pred")}
    assert drawn == expected  # every cluster's colour, and no other


def _picture(source: str) -> np.ndarray:
    """The RGBA pixels of a layout image's PNG data URI."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))).convert("RGBA"))


def _picture_colours(source: str) -> set:
    return {tuple(int(v) for v in p[:3]) for p in _picture(source).reshape(-1, 4) if p[3]}


def _pixel_of(picture: dict, x: float, y: float) -> tuple[int, int]:
    """The row and column of the data point (x, y) in `picture`."""
    height, width = _picture(picture["source"]).shape[:2]
    return (int((picture["y"] - y) / picture["sizey"] * height), int((x - picture["x"]) / picture["sizex"] * width))


def test_a_picture_of_points_puts_each_disc_in_place_and_later_points_on_top():
    red, green = (230, 20, 20), (20, 200, 20)  # and blue (20, 20, 230), covered
    x, y = np.array([0.0, 10.0, 10.0, 4.0]), np.array([0.0, 5.0, 5.0, np.nan])  # the third covers the second
    picture = points_image(x, y, [0, 1, 2, 0], ["#e61414", "#1414e6", "#14c814"], diameter=5, opacity=0.5)
    pixels = _picture(picture["source"])
    assert pixels.shape[1] == IMAGE_PIXELS + 2 * (int(np.ceil(5 * IMAGE_PIXELS / SCREEN_PIXELS / 2)) + 1)  # longer side
    for (px, py), colour in (((0.0, 0.0), red), ((10.0, 5.0), green)):
        row, col = _pixel_of(picture, px, py)
        assert tuple(pixels[row, col]) == (*colour, 128)
    assert _picture_colours(picture["source"]) == {red, green}  # blue is covered; the point at NaN is not drawn
    row, col = _pixel_of(picture, 5.0, 2.5)
    assert pixels[row, col, 3] == 0  # between the points: transparent
    xs, ys = image_extent(picture)
    assert xs[0] < 0 < 10 < xs[1] and ys[0] < 0 < 5 < ys[1]
    assert np.isclose(picture["sizex"] / pixels.shape[1], picture["sizey"] / pixels.shape[0])  # square pixels


def test_a_picture_of_points_that_coincide_or_of_none_is_still_a_picture():
    one = points_image(np.array([3.0, 3.0]), np.array([1.0, 1.0]), [0, 0], ["#0a141e"], diameter=7)
    row, col = _pixel_of(one, 3.0, 1.0)
    assert tuple(_picture(one["source"])[row, col, :3]) == (10, 20, 30)
    none = points_image(np.array([np.nan]), np.array([0.0]), [0], ["#000000"], diameter=3)
    assert not _picture(none["source"])[..., 3].any()
    with pytest.raises(CluvalError, match="at most 255 colours"):
        points_image(np.zeros(1), np.zeros(1), [0], ["#000000"] * 256, diameter=3)


@pytest.mark.parametrize("args, options, message", [
    ((np.zeros(2), np.ones(2), [-1, 0], ["#ff0000"]), {}, "codes must be whole numbers from 0 to 0"),
    ((np.zeros(2), np.ones(2), [0, 1], ["#ff0000"]), {}, "codes must be whole numbers from 0 to 0"),
    ((np.zeros(2), np.ones(2), [0.5, 0], ["#ff0000"]), {}, "codes must be whole numbers"),
    ((np.zeros(3), np.ones(2), [0, 0], ["#ff0000"]), {}, "of one length"),
    ((np.array(["a"]), np.zeros(1), [0], ["#ff0000"]), {}, "x and y must be numbers"),
    ((np.zeros(1), np.zeros(1), [0], ["red"]), {}, "written #rrggbb"),
    ((np.zeros(1), np.zeros(1), [0], []), {}, "at least 1"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"diameter": 0}, "diameter must be a number above 0"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"diameter": float("nan")}, "diameter must be"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"diameter": 1e6}, "at most 100"),  # not terabytes of discs
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"diameter": True}, "diameter must be"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"opacity": 1.5}, "opacity must be"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"pixels": 10**6}, "pixels must be"),
    ((np.zeros(1), np.zeros(1), [0], ["#000000"]), {"pixels": 100.5}, "pixels must be"),
])
def test_a_picture_of_points_refuses_what_it_cannot_draw_right(args, options, message):
    with pytest.raises(CluvalError, match=message):
        points_image(*args, **{"diameter": 5, **options})


def test_a_picture_of_points_far_apart_or_empty_is_still_a_picture():
    far = points_image(np.array([-1e300, 1e300]), np.array([0.0, 1.0]), [0, 0], ["#102030"], diameter=5)
    assert _picture_colours(far["source"]) == {(16, 32, 48)} and np.isfinite(far["sizex"])
    empty = points_image(np.array([]), np.array([]), np.array([], dtype=int), ["#000000"], diameter=5)
    assert not _picture(empty["source"])[..., 3].any()


def test_large_tables_are_condensed_and_say_so():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 200, 20_000)
    b = np.where(rng.random(20_000) < 0.8, a % 150, rng.integers(0, 150, 20_000))
    c = compare(a, b)
    fig = contingency_heatmap(c)
    z = np.asarray(fig.data[0].z)
    assert z.shape == (MAX_SHOWN, MAX_SHOWN) and z.sum() == c.n  # every object once, the rest grouped
    assert "the other 141 reference and 91 candidate<br>summed as 'other'" in fig.layout.annotations[0].text
    assert fig.data[0].zmax == z[:-1, :-1].max()
    assert c.k_true == 200 and c.k_pred == 150
    first = c.hungarian_pairing.display_order[0]
    assert z[0, 0] == c.hungarian_pairing.overlap[first]  # the largest pair comes first
    diagram = mapping_diagram(c)
    nodes = [t for t in diagram.data if t.mode and "lines" not in t.mode and t.showlegend is False]
    assert [len(t.y) for t in nodes] == [MAX_SHOWN] * 3
    assert len(fig.to_json()) + len(diagram.to_json()) < 3_000_000


def test_small_tables_are_drawn_whole_in_display_order():
    c = Comparison.from_table([[0, 0, 2, 0], [4, 0, 0, 1], [0, 3, 0, 0]], ["a", "b", "c"], [1, 2, 3, 4])
    fig = contingency_heatmap(c)
    assert np.asarray(fig.data[0].z).tolist() == [[4, 0, 0, 1], [0, 3, 0, 0], [0, 0, 2, 0]]
    assert list(fig.layout.yaxis.ticktext) == ["b (n=5)", "c (n=3)", "a (n=2)"]
    outline = [v for v in fig.data[1].x if v is not None]
    assert len(outline) == 3 * 5  # three pairs outlined, five corners each


def test_label_text_is_escaped_for_plotly():
    c = Comparison.from_table([[2, 0], [0, 2]], ["<b>x</b>", "y"], ["<img src=z>", "w"])
    texts = [*contingency_heatmap(c).layout.yaxis.ticktext, *contingency_heatmap(c).layout.xaxis.ticktext]
    assert "&lt;b&gt;x&lt;/b&gt; (n=2)" in texts and not any("<" in t for t in texts)


def test_files_carry_their_provenance():
    c = compare([0, 0, 1, 1, 2], [5, 5, 6, 6, 6])
    facts = provenance(data_set="toy", noise="ordinary cluster\nsecond line")
    assert facts["cluval"] and facts["date"].endswith("+00:00") and facts["data_set"] == "toy"
    text = csv_with_provenance(contingency_frame(c), facts)
    assert text.startswith("# cluval: ") and "# noise: ordinary cluster second line\n" in text
    back = pd.read_csv(io.StringIO(text), comment="#", index_col=0)
    assert back.loc["total", "total"] == 5 and back.drop(index="total", columns="total").to_numpy().sum() == 5
    data = json.loads(json_with_provenance(c.scores(), facts))
    assert data["provenance"]["data_set"] == "toy" and data["values"]["ari"] == c.score("ari")


def test_html_report_is_one_file_with_everything():
    X = np.array([[0, 0], [0, 1], [5, 5], [5, 6], [9, 9]], dtype=float)
    c = compare([0, 0, 1, 1, 2], [5, 5, 6, 6, 6], X=X)
    page = html_report(c, provenance(data_set="<toy>"))
    assert page.count("<script") >= 5 and "plotly" in page  # the library once, then one script per figure
    assert "&lt;toy&gt;" in page and "<toy>" not in page
    for part in ("Contingency table", "Hungarian pairing", "centroid-based", "Every index", str(c.steps("psi")[-1])):
        assert part in page


@pytest.mark.parametrize("index_id", ["ari", "psi", "nvd"])
def test_contributions_of_a_large_table_are_grouped_like_its_counts(index_id):
    rng = np.random.default_rng(3)
    truth = rng.integers(0, MAX_SHOWN + 15, 4000)
    c = compare(truth, np.where(rng.random(4000) < 0.8, truth, rng.integers(0, MAX_SHOWN + 10, 4000)))
    counts = np.asarray(contingency_heatmap(c).data[0].z)
    trace = contingency_heatmap(c, colour_by=index_id).data[0]
    z = np.asarray(trace.z)
    assert z.shape == counts.shape == (MAX_SHOWN, MAX_SHOWN)  # the same cells, the rest as 'other'
    parts = c.contributions(index_id)
    pairing = c.hungarian_pairing
    keep_rows, keep_cols = pairing.row_order[:MAX_SHOWN - 1], pairing.col_order[:MAX_SHOWN - 1]
    np.testing.assert_allclose(z[:-1, :-1], parts.cells[np.ix_(keep_rows, keep_cols)], rtol=1e-12, atol=1e-15)
    rest_rows = pairing.row_order[MAX_SHOWN - 1:]
    np.testing.assert_allclose(z[-1, :-1], parts.cells[np.ix_(rest_rows, keep_cols)].sum(axis=0), atol=1e-12)
    assert z.sum() + parts.constant == pytest.approx(c.score(index_id), abs=1e-9)  # grouping keeps the sum
    assert trace.zmid == 0 and trace.zmin == -trace.zmax


def test_colouring_by_an_index_without_cells_is_refused():
    from cluval_core import CluvalError

    with pytest.raises(CluvalError, match="colour_by must be 'counts' or an index with an anatomy"):
        contingency_heatmap(compare([0, 0, 1], [0, 1, 1]), colour_by="ci_partition")


# ---------------------------------------------------------------------- shapes, labels, first screen
def _split():
    """Reference 0 split into candidates 0, 1, 2; references 1 and 2 merged into candidate 3.
    Centroid mapping: reference 0's centroid (0.5, 0) is nearest candidate 1's, so candidates 0
    and 2 are orphans; candidate 3's centroid (10.5, 0.5) is as near reference 1's as 2's, the
    tie goes to the first, so reference 2 is an orphan."""
    X = np.array([[0, 0], [0.2, 0], [0.4, 0], [0.6, 0], [0.8, 0], [1.0, 0], [10, 0], [10, 1], [11, 0], [11, 1]],
                 dtype=float)
    a = [0, 0, 0, 0, 0, 0, 1, 1, 2, 2]
    b = [0, 0, 1, 1, 2, 2, 3, 3, 3, 3]
    return compare(a, b, X=X)


def test_orphans_differ_from_mapped_clusters_in_shape_as_well_as_colour():
    from cluval_core.outputs.plots.comparison import MAPPED_SYMBOL, ORPHAN_SYMBOL

    c = _split()
    forward, backward = c.centroid_mapping
    assert forward.orphans.tolist() == [0, 2] and backward.orphans.tolist() == [2]
    diagram = mapping_diagram(c, "centroid")
    nodes = [t for t in diagram.data if t.mode and "lines" not in t.mode and t.showlegend is False]
    candidates = nodes[1]  # the middle column
    symbols, colours = list(candidates.marker.symbol), list(candidates.marker.color)
    order = c.hungarian_pairing.col_order
    for slot, cluster in enumerate(order):
        orphan = forward.in_degree[cluster] == 0
        assert (symbols[slot], colours[slot]) == ((ORPHAN_SYMBOL, ORPHAN) if orphan else (MAPPED_SYMBOL, "#2ca02c"))
    assert ORPHAN_SYMBOL != MAPPED_SYMBOL and symbols.count(ORPHAN_SYMBOL) == forward.n_orphans > 0
    legend = {t.name: t.marker.symbol for t in diagram.data if t.showlegend is not False}
    assert legend == {"mapped to": MAPPED_SYMBOL, "orphan: nobody maps to it": ORPHAN_SYMBOL}

    scatter = partition_scatter(c, "pred")
    centroids = next(t for t in scatter.data if t.name == "centroids")
    kinds = {s for s, colour in zip(centroids.marker.symbol, centroids.marker.line.color) if colour == ORPHAN}
    assert kinds == {"x-thin-open"} and "diamond" in centroids.marker.symbol  # orphans: a cross, the others not
    assert max(centroids.marker.size) <= 10  # small: the points of a split cluster stay visible
    assert {t.name for t in scatter.data if t.x[0] is None} >= {"centroid", "orphan centroid (CI)"}


def test_centroid_labels_never_cover_each_other():
    from cluval_core.outputs.plots.comparison import LABEL_BOX, _label_places

    rng = np.random.default_rng(3)
    centroids = np.r_[rng.normal(0, 0.01, (6, 2)), [[5.0, 5.0]]]  # six stacked, one alone
    places = _label_places(centroids, centroids, plot=(400, 300))
    assert 6 in places and places[6] == (0, 12)  # alone: above its centroid
    assert 1 <= sum(i < 6 for i in places) <= 4  # four places around the stack: the rest are left out
    low, span = centroids.min(0), np.ptp(centroids, 0)
    at = {i: (centroids[i] - low) / span * (400, 300) + shift for i, shift in places.items()}
    for i in at:
        for j in at:
            if i < j:
                assert abs(at[i][0] - at[j][0]) >= LABEL_BOX[0] or abs(at[i][1] - at[j][1]) >= LABEL_BOX[1]
    scatter = partition_scatter(_split(), "pred")  # four centroids far enough apart: each labelled, once
    assert sorted(a.text for a in scatter.layout.annotations) == ["0", "1", "2", "3"]


def test_a_short_heatmap_thins_its_tick_labels_and_a_short_mapping_shows_the_disagreements_first():
    from cluval_core.outputs.plots.comparison import TICK_SPACING, _focused_order

    rng = np.random.default_rng(4)
    a = rng.integers(0, 50, 5000)
    c = compare(a, np.where(rng.random(5000) < 0.9, a, rng.integers(0, 50, 5000)))
    tall, short = contingency_heatmap(c), contingency_heatmap(c, height=390)
    assert short.layout.height == 390 and tall.layout.height == 760  # 760: the default's largest
    assert len(tall.layout.yaxis.tickvals) == 50  # (760 - 140) px hold 51 labels 12 px apart
    room = 390 - 40 - 10 - 90  # less the margins and the column titles
    assert len(short.layout.yaxis.tickvals) == 17 <= room // TICK_SPACING + 1  # every third, and the last
    assert short.layout.yaxis.tickvals[-1] == 49  # the last row keeps its label
    grouped = contingency_heatmap(c, max_shown=16, height=390)
    assert list(grouped.layout.yaxis.ticktext[-1:])[0].startswith("other 35 (n=")

    order = np.arange(10)
    focus = np.zeros(10, bool)
    focus[[7, 9]] = True
    keep, rest = _focused_order(order, focus, 5)
    assert keep.tolist() == [0, 1, 7, 9] and rest.tolist() == [2, 3, 4, 5, 6, 8]
    merged = compare(np.repeat(np.arange(30), 10), np.repeat(np.r_[np.arange(28), 0, 0], 10))  # 28, 29 merged into 0
    forward, backward = merged.jaccard_mapping
    diagram = mapping_diagram(merged, max_shown=8)
    reference = [t for t in diagram.data if t.mode and "lines" not in t.mode and t.showlegend is False][0]
    named = list(reference.text)
    assert len(named) == 8 and named[-1].startswith("other 23")
    assert {"28", "29", "0"} <= set(named)  # the merged clusters and their target are drawn, not grouped


def test_every_index_has_one_colour_on_every_figure():
    """Curves and bars draw each index in its INDEX_COLOURS colour; ARI and PSI are distinct; CI's
    panel (a count) has whole ticks."""
    from cluval_core.outputs.plots import INDEX_COLOURS, index_curves, score_bars

    assert set(INDEX_COLOURS) == set(INDICES) and INDEX_COLOURS["ari"] != INDEX_COLOURS["psi"]
    frame = pd.DataFrame({"x": [1, 2, 3], "ari": [0.9, 0.8, 0.7], "psi": [0.6, 0.5, 0.4], "nvd": [0.1, 0.2, 0.3]})
    curves = index_curves(frame, "x", ["ari", "psi", "nvd"])
    drawn = {trace.legendgroup: trace.line.color for trace in curves.data if trace.mode == "lines+markers"}
    assert drawn == {i: INDEX_COLOURS[i] for i in ("ari", "psi", "nvd")}
    bars_frame = pd.DataFrame({"algorithm": ["a", "b"], "ari": [0.8, 0.9], "psi": [0.2, 0.3], "ci_centroid": [4, 1]})
    bars = score_bars(bars_frame, "algorithm", ["ari", "psi", "ci_centroid"])
    assert [trace.marker.color for trace in bars.data] == [INDEX_COLOURS[i] for i in ("ari", "psi", "ci_centroid")]
    ci_axis = [axis for name, axis in bars.layout.to_plotly_json().items()
               if name.startswith("yaxis") and axis.get("tickformat") == "d"]
    assert len(ci_axis) == 1 and ci_axis[0]["dtick"] == 1


def test_the_reports_figures_make_room_for_their_tick_labels():
    """Outside the app nothing widens a figure's margins: every axis of the report's figures has
    automargin, so row labels and ticks are not clipped."""
    rng = np.random.default_rng(0)
    c = compare(rng.integers(0, 3, 60), rng.integers(0, 4, 60), X=rng.normal(size=(60, 2)))
    figures = report_figures(c)
    assert [name for name, _ in figures] == ["Contingency table", "Centroid Index mapping (partition-based)",
                                             "Centroid Index mapping (centroid-based)", "Reference", "Candidate"]
    for _, fig in figures:
        layout = fig.layout.to_plotly_json()
        axes = [key for key in layout if key.startswith(("xaxis", "yaxis"))]
        assert axes and all(layout[key].get("automargin") is True for key in axes)
# ---------------------------------------------------------------------- the user's names in the figures
def test_scatter_axes_carry_the_coordinates_names():
    X = np.array([[0, 0], [0, 1], [5, 5], [5, 6]], dtype=float)
    c = compare([0, 0, 1, 1], [0, 0, 1, 1], X=X)
    fig = partition_scatter(c, "true", coordinate_names=("sepal length", "<b>width</b>"))
    assert (fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == ("sepal length", "&lt;b&gt;width&lt;/b&gt;")
    assert partition_scatter(c, "true").layout.xaxis.title.text == "x1"  # no names: positions
    three = compare([0, 0, 1, 1], [0, 0, 1, 1], X=np.c_[X, [1.0, 2.0, 0.0, 4.0]])
    fig = partition_scatter(three, "true", coordinate_names=("a", "b", "c"))
    assert fig.layout.xaxis.title.text.startswith("PC1 (")  # more than two: principal components
    with pytest.raises(ValueError, match="names must name the 2 coordinates of X, got 1"):
        partition_scatter(c, "true", coordinate_names=("a",))


LONG = "a label much longer than any diagram has room for"


def _nodes(diagram):
    return [t for t in diagram.data if t.mode and "lines" not in t.mode and t.showlegend is False]


def test_mapping_diagram_shows_long_labels_whole_with_room_for_them():
    labels = ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    truth = np.repeat(labels, 4)
    c = compare(truth, np.repeat(["1", "2", "3"], 4))
    left, middle, right = _nodes(mapping_diagram(c))
    assert sorted(left.text) == labels  # whole: up to 18 characters are written
    # the right column repeats the left one's clusters at the same heights: long labels on the left only
    assert right.mode == "markers" and list(right.y) == list(left.y)
    assert sorted(right.customdata) == [f"{label}: 1 point(s) at it" for label in labels]  # named on hover
    assert all(t.cliponaxis is False for t in (left, middle, right))  # the margins hold the texts
    layout = mapping_diagram(c).layout
    assert layout.margin.l == 6 * len("Iris-versicolor") + 14
    assert layout.margin.r == 5
    short = mapping_diagram(compare([1, 1, 2, 2], [1, 1, 2, 2]))
    assert (short.layout.margin.l, short.layout.margin.r) == (6 * 1 + 14, 6 * 1 + 14)
    assert list(_nodes(short)[2].text) == ["1", "2"]  # short labels on both sides


def test_mapping_diagram_cuts_a_very_long_label_and_shows_it_whole_on_hover():
    c = compare([LONG, LONG, "<b>x</b>", "<b>x</b>"], [1, 1, 2, 2])
    left, middle, right = _nodes(mapping_diagram(c))
    assert sorted(left.text) == ["&lt;b&gt;x&lt;/b&gt;", "a label much long…"]
    assert sorted(left.customdata) == ["&lt;b&gt;x&lt;/b&gt;", LONG]
    assert right.mode == "markers"
    assert sorted(right.customdata) == ["&lt;b&gt;x&lt;/b&gt;: 1 point(s) at it", f"{LONG}: 1 point(s) at it"]
    assert "%{customdata}" in left.hovertemplate
    assert mapping_diagram(c).layout.margin.l == 6 * 18 + 14  # the cut label sets the room

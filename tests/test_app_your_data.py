"""The Your data page in AppTest: uploads, the columns it suggests, what it hands to the app."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from apptools import open_app as _app
from cluval_core import compare

pytestmark = pytest.mark.slow

GOOD = b"x,y,truth,found\n0,0,a,1\n0,1,a,1\n5,5,b,2\n6,5,b,2\n9,9,c,2\n"
ANIMALS = (b"x,y,animal,kmeans\n0.1,0.3,cat,1\n0.2,0.1,cat,1\n0.3,0.2,cat,1\n5.0,4.8,dog,2\n5.2,5.1,dog,2\n"
           b"4.9,5.3,dog,3\n9.1,0.2,bird,3\n9.3,0.1,bird,3\n")
LABELS_ONLY = b"truth,found\ncat,1\ncat,1\ndog,2\ndog,2\nbird,3\nbird,1\n"


@pytest.fixture
def page():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("your_data.py").run()  # straight to the page: no clustering on the Compare page first
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Your data"
    return at


def _upload(at, name: str, content: bytes):
    at.file_uploader(key="upload").set_value((name, content, "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _shown_text(at, kind: str) -> list[str]:
    """The text of the page's elements of one kind, without Markdown escapes."""
    return [re.sub(r"\\(.)", r"\1", element.value) for element in getattr(at, kind)]


def _use_points(at):
    at.button(key="use_upload").click().run()
    assert at.session_state["dataset"] == "your data"
    return at.session_state["user_points"]


# ---------------------------------------------------------------------- moved from tests/test_app.py
def test_your_data_page_without_a_file():
    at = _app()
    at.switch_page("your_data.py").run()
    assert not at.exception
    assert "No file yet" in at.info[0].value


def test_your_data_as_dataset_without_upload_explains():
    at = _app()
    at.selectbox(key="dataset").set_value("your data").run()
    assert not at.exception
    assert any("Your data" in i.value for i in at.info)


# ---------------------------------------------------------------------- points with labels as written
def test_points_file_opens_with_its_coordinates_and_keeps_the_label_names(page):
    _upload(page, "animals.csv", ANIMALS)
    assert page.radio(key="upload_mode").value == "points with label columns"
    assert page.multiselect(key="upload_coordinates").value == ["x", "y"]
    assert page.multiselect(key="upload_labels").value == ["animal", "kmeans"]
    assert not page.error and not page.warning
    assert page.success[0].value == "8 points in 2 dimension(s), partitions: animal, kmeans."
    points = _use_points(page)
    assert list(points.partitions) == ["animal", "kmeans"]  # the label columns' own names
    assert points.partitions["animal"].tolist() == ["cat"] * 3 + ["dog"] * 3 + ["bird"] * 2
    assert points.partitions["kmeans"].tolist() == ["1", "1", "1", "2", "2", "3", "3", "3"]
    assert points.noise is None and points.X[3].tolist() == [5.0, 4.8]
    assert points.description == ("8 points from animals.csv, coordinates 'x', 'y'; the reference 'animal' has 3 "
                                  "clusters")
    assert (points.file, points.coordinate_names, points.title) == ("animals.csv", ("x", "y"), "Your data: animals.csv")

    page.switch_page("compare.py").run()
    assert not page.exception, [e.message for e in page.exception]
    assert page.number_input(key="k").value == 3
    assert page.selectbox(key="reference").options[:2] == ["ground truth animal (k=3)", "ground truth kmeans (k=3)"]


def test_a_noise_label_is_kept_as_written_and_dropped_on_request(page):
    data = b"x,y,truth\n0.5,0,a\n0,1.5,a\n5.5,5,b\n6,5.5,b\n9.5,9,-1\n3,3.5,-1\n"
    _upload(page, "noisy.csv", data)
    assert page.selectbox(key="upload_noise").options == ["(none: every label is a cluster)", "-1", "a", "b"]
    assert page.selectbox(key="upload_noise").value == "(none: every label is a cluster)"
    page.selectbox(key="upload_noise").set_value("-1").run()
    assert not page.exception and not page.error
    points = _use_points(page)
    assert points.partitions["truth"].tolist() == ["a", "a", "b", "b", "-1", "-1"] and points.noise == "-1"
    assert points.description.endswith("the reference 'truth' has 2 clusters; label '-1' marks noise")
    page.switch_page("compare.py").run()
    page.selectbox(key="noise").set_value("drop reference noise").run()
    assert not page.exception and not page.error
    assert page.number_input(key="k").value == 2  # the reference has two clusters besides noise
    assert not any("does not occur" in w.value for w in page.warning)


def test_non_numeric_coordinates_show_a_message(page):
    _upload(page, "p.csv", b"x,y,t\n1,a,1\n2,b,2\n")
    assert page.radio(key="upload_mode").value == "two label columns"  # two rows of whole numbers: labels
    page.radio(key="upload_mode").set_value("points with label columns").run()
    page.multiselect(key="upload_coordinates").set_value(["x", "y"]).run()
    assert page.multiselect(key="upload_labels").value == ["t"]  # the columns left
    assert not page.exception
    assert page.error and "coordinate column 'y' is not numeric: data row 1 holds 'a'" in _shown_text(page, "error")[0]
    page.multiselect(key="upload_labels").set_value([]).run()
    assert page.warning[0].value == "Choose at least one coordinate column and one label column." and not page.error


@pytest.mark.parametrize("data, message", [
    (b"", "is empty"), (b"x,y\n1,2\n3,4,5,6\n", "could not be read"), (b"v\n1\n2\n", "single column")])
def test_bad_uploads_show_a_message(page, data, message):
    _upload(page, "bad.csv", data)
    assert page.error and message in page.error[0].value


# ---------------------------------------------------------------------- label-only files
def test_a_label_only_file_opens_in_the_two_label_mode(page):
    _upload(page, "labels.csv", LABELS_ONLY)
    assert page.radio(key="upload_mode").value == "two label columns"
    assert page.selectbox(key="upload_truth").value == "truth"
    assert page.selectbox(key="upload_pred").value == "found"
    assert page.selectbox(key="upload_noise").options == ["(none: every label is a cluster)", "1", "2", "3", "bird",
                                                          "cat", "dog"]
    assert not page.warning
    assert not any(w.key == "upload_coordinates" for w in page.get("multiselect"))


def test_two_label_columns_are_compared_with_their_labels_as_written(page):
    _upload(page, "labels.csv", b"truth,found\n01,a\n1.0,a\n1,b\nNA,b\nnull,c\n")
    assert page.radio(key="upload_mode").value == "two label columns"
    assert not page.exception and not page.error, _shown_text(page, "error")
    shown = _shown_scores(page)
    expected = compare(["01", "1.0", "1", "NA", "null"], ["a", "a", "b", "b", "c"]).scores()
    assert expected["ari"] == 0.0  # five singletons: ARI is zero, where merged labels gave more
    assert shown["ari"] == pytest.approx(expected["ari"], abs=1e-6)
    assert shown["nmi_sum"] == pytest.approx(expected["nmi_sum"], rel=1e-5)


def _shown_scores(at) -> dict:
    """{index id: value} from the page's index tables (values shown as numbers or as text)."""
    values = {}
    for frame in at.dataframe:
        df = frame.value
        if "id" in df.columns and "value" in df.columns:
            for index_id, value in zip(df["id"], df["value"]):
                try:
                    values[index_id] = float(value)
                except ValueError:
                    values[index_id] = float("nan")
    assert "ari" in values, "no index table on the page"
    return values


def test_a_continuous_column_as_labels_is_named_in_a_warning(page):
    _upload(page, "animals.csv", ANIMALS)
    page.multiselect(key="upload_coordinates").set_value(["y"]).run()
    page.multiselect(key="upload_labels").set_value(["x", "animal"]).run()
    assert not page.exception and not page.error
    assert _shown_text(page, "warning") == [
        "Column 'x' holds decimal numbers: 8 distinct values in 8 rows. As labels, every distinct value is a cluster "
        "of its own; it looks like a coordinate."]
    page.radio(key="upload_mode").set_value("two label columns").run()
    page.selectbox(key="upload_pred").set_value("y").run()
    assert any(w.startswith("Column 'y' holds decimal numbers: 6 distinct values in 8 rows.")
               for w in _shown_text(page, "warning"))


# ---------------------------------------------------------------------- a new file, new choices
def test_widgets_reset_for_each_new_file(page):
    _upload(page, "a.csv", ANIMALS)
    page.multiselect(key="upload_coordinates").set_value(["x"]).run()
    page.multiselect(key="upload_labels").set_value(["kmeans"]).run()
    assert page.success[0].value.startswith("8 points in 1 dimension(s)")

    other = b"lat,lon,region,zone\n" + b"".join(
        f"{i * 0.31:.2f},{i * 0.17:.2f},{'north' if i < 5 else 'south'},{i % 3}\n".encode() for i in range(10))
    _upload(page, "b.csv", other)
    assert page.radio(key="upload_mode").value == "points with label columns"
    assert page.multiselect(key="upload_coordinates").value == ["lat", "lon"]
    assert page.multiselect(key="upload_labels").value == ["region", "zone"]
    assert page.success[0].value == "10 points in 2 dimension(s), partitions: region, zone."
    points = _use_points(page)
    assert points.partitions["region"].tolist() == ["north"] * 5 + ["south"] * 5
    assert points.X[1].tolist() == [0.31, 0.17]

    _upload(page, "c.csv", LABELS_ONLY)  # a label-only file after a points file
    assert page.radio(key="upload_mode").value == "two label columns"
    assert (page.selectbox(key="upload_truth").value, page.selectbox(key="upload_pred").value) == ("truth", "found")


def test_choices_survive_a_switch_to_the_other_mode_and_back(page):
    _upload(page, "animals.csv", ANIMALS)
    page.multiselect(key="upload_coordinates").set_value(["y", "x"]).run()
    page.multiselect(key="upload_labels").set_value(["kmeans"]).run()
    page.radio(key="upload_mode").set_value("two label columns").run()
    page.radio(key="upload_mode").set_value("points with label columns").run()
    assert page.multiselect(key="upload_coordinates").value == ["y", "x"]
    assert page.multiselect(key="upload_labels").value == ["kmeans"]
    assert page.success[0].value == "8 points in 2 dimension(s), partitions: kmeans."


# ---------------------------------------------------------------------- files without header, decimal commas
def test_a_file_without_header(page):
    _upload(page, "plain.csv", b"0.1,0.3,cat\n0.2,0.1,cat\n5.0,4.8,dog\n5.2,5.1,dog\n9.1,0.2,bird\n")
    assert page.checkbox(key="upload_header").value is False
    assert _shown_text(page, "info")[0] == (
        "Read as CSV with fields separated by commas. The first row holds data, not column names, so the columns "
        "are named 'column 1' to 'column 3'.")
    assert page.dataframe[0].value.loc[1].tolist() == ["0.1", "0.3", "cat"]  # the first line is data row 1
    assert page.multiselect(key="upload_coordinates").value == ["column 1", "column 2"]
    assert page.success[0].value.startswith("5 points in 2 dimension(s)")
    assert _use_points(page).partitions["column 3"].tolist() == ["cat", "cat", "dog", "dog", "bird"]

    page.checkbox(key="upload_header").check().run()  # the user says the first row is a header
    assert not page.exception
    assert list(page.dataframe[0].value.columns) == ["0.1", "0.3", "cat"]
    assert page.multiselect(key="upload_coordinates").value == ["0.1", "0.3"]
    assert page.success[0].value.startswith("4 points in 2 dimension(s)")


def test_a_file_with_decimal_commas(page):
    _upload(page, "europe.csv", "x;y;espèce\n1,5;2,25;chat\n1,25;2,5;chat\n7,5;8,0;chien\n7,0;8,25;chien\n"
            .encode())
    assert _shown_text(page, "info")[0] == ("Read as CSV with fields separated by semicolons. Decimal commas read as "
                                            "decimal points in 'x', 'y' (1,5 is one and a half).")
    assert page.multiselect(key="upload_coordinates").value == ["x", "y"]
    points = _use_points(page)
    assert points.X.tolist() == [[1.5, 2.25], [1.25, 2.5], [7.5, 8.0], [7.0, 8.25]]
    assert points.partitions["espèce"].tolist() == ["chat", "chat", "chien", "chien"]


# ---------------------------------------------------------------------- row numbers
@pytest.mark.parametrize("header", [True, False])
def test_a_message_names_the_row_the_preview_shows_under_that_number(page, header):
    rows = [f"{i}.5,{i * 1.5},{'' if i == 7 else 'ab'[i % 2]}" for i in range(1, 13)]
    _upload(page, "gap.csv", ("x,y,t\n" * header + "\n".join(rows) + "\n").encode())
    label = "t" if header else "column 3"
    assert page.multiselect(key="upload_labels").value == [label]
    message = _shown_text(page, "error")[0]
    assert f"column '{label}' has 1 empty label(s), the first in data row 7:" in message
    preview = page.dataframe[0].value
    assert preview.loc[7].tolist() == ["7.5", "10.5", ""] and preview.index[0] == 1
    assert any("Rows are numbered from 1 as in the messages" in c.value for c in page.caption)


# ---------------------------------------------------------------------- hostile names
HOSTILE = {"image": "![x](http://evil.example/pixel.png)", "html": "<img src=x onerror=alert(1)>",
           "latex": "$\\LaTeX$", "bold": "**bold**"}


def test_hostile_names_in_notes_and_warnings_are_shown_escaped(page):
    header = ";".join([HOSTILE["latex"], HOSTILE["bold"], HOSTILE["image"], HOSTILE["html"]])
    rows = [f"{i},5;{i * 2},25;<b>{'ab'[i % 2]}</b>;{i % 3}" for i in range(8)]
    _upload(page, "![f](http://evil.example/f.png).csv", ("\n".join([header, *rows]) + "\n").encode())
    assert page.multiselect(key="upload_coordinates").value == [HOSTILE["latex"], HOSTILE["bold"]]
    page.multiselect(key="upload_coordinates").set_value([HOSTILE["latex"]]).run()
    page.multiselect(key="upload_labels").set_value([HOSTILE["image"], HOSTILE["bold"]]).run()
    assert not page.exception
    kinds = ("markdown", "caption", "info", "warning", "error", "success")
    texts = [element.value for kind in kinds for element in getattr(page, kind)]
    for raw in [*HOSTILE.values(), "<b>a</b>", "evil.example/f.png"]:
        assert not any(raw in text for text in texts), raw
    assert any(HOSTILE["bold"] in w and "distinct values in 8 rows" in w for w in _shown_text(page, "warning"))
    assert any(f"'{HOSTILE['latex']}', '{HOSTILE['bold']}'" in i for i in _shown_text(page, "info"))


# ---------------------------------------------------------------------- the file kept, and which file is in use
LONG_LABELS = (b"sepal length,petal width,species,found\n" + b"".join(
    f"{5 + i * 0.1:.1f},{0.2 + (i // 4) * 0.9:.1f},{['Iris-setosa', 'Iris-versicolor', 'Iris-virginica'][i // 4]},"
    f"{1 + (i // 4 + (i == 11)) % 3}\n".encode() for i in range(12)))


def _forget_page_widgets(at):
    """What a real browser does on a page switch: it forgets the widgets of the page left (AppTest keeps them)."""
    for key in ("upload", "upload_header", "upload_mode", "upload_coordinates", "upload_labels", "upload_truth",
                "upload_pred", "upload_noise", "use_upload"):
        if key in at.session_state:
            del at.session_state[key]


def _markdown(at) -> list[str]:
    return _shown_text(at, "markdown")


def test_the_file_and_its_choices_stay_after_a_page_switch(page):
    _upload(page, "animals.csv", ANIMALS)
    page.multiselect(key="upload_labels").set_value(["kmeans", "animal"]).run()
    page.switch_page("index_reference.py").run()
    _forget_page_widgets(page)
    page.switch_page("your_data.py").run()
    assert not page.exception, [e.message for e in page.exception]
    assert not any("No file yet" in i.value for i in page.info)
    assert (f"**File: animals.csv** ({len(ANIMALS)} bytes), uploaded before: it stays here while you visit other "
            "pages. Upload another file above to replace it.") in _markdown(page)
    assert page.dataframe[0].value.shape == (8, 4)  # the preview of the file
    assert page.radio(key="upload_mode").value == "points with label columns"
    assert page.multiselect(key="upload_coordinates").value == ["x", "y"]
    assert page.multiselect(key="upload_labels").value == ["kmeans", "animal"]  # as the user left them
    assert page.success[0].value == "8 points in 2 dimension(s), partitions: kmeans, animal."


def test_a_label_only_file_stays_in_its_mode_after_a_page_switch(page):
    _upload(page, "labels.csv", LABELS_ONLY)
    page.switch_page("index_reference.py").run()
    _forget_page_widgets(page)
    page.switch_page("your_data.py").run()
    assert page.radio(key="upload_mode").value == "two label columns"
    assert (page.selectbox(key="upload_truth").value, page.selectbox(key="upload_pred").value) == ("truth", "found")
    assert page.subheader[0].value == "truth vs found"


def test_removing_the_file_forgets_it(page):
    _upload(page, "animals.csv", ANIMALS)
    page.file_uploader(key="upload").set_value(None).run()
    assert "No file yet" in page.info[0].value


def test_a_new_upload_not_yet_used_is_said_everywhere(page):
    _upload(page, "animals.csv", ANIMALS)
    _use_points(page)
    assert _shown_text(page, "success")[-1] == ("The sidebar works on these points (animals.csv): open Compare to "
                                                "cluster them and see every index.")
    _upload(page, "iris.csv", LONG_LABELS)
    shown = _shown_text(page, "warning")
    assert shown == ["The sidebar works on its 'Your data', but it holds animals.csv, uploaded before, not iris.csv. "
                     "Press 'Use these points in the app' to use the file shown here."]

    page.switch_page("compare.py").run()
    assert not page.exception, [e.message for e in page.exception]
    assert page.session_state["selection"].dataset == "your data"
    # the file compared is named
    assert "**Your data: animals.csv**: 8 points from animals.csv" in _shown_text(page, "caption")[0]
    assert _shown_text(page.sidebar, "warning") == [
        "The Your data page shows iris.csv, which is not in use: the points here are still animals.csv's. Press "
        "'Use these points in the app' there to use the new file."]
    assert page.selectbox(key="dataset").format_func("your data") == "Your data: animals.csv (n=8)"

    page.switch_page("your_data.py").run()
    _use_points(page)
    assert _shown_text(page, "success")[-1].startswith("The sidebar works on these points (iris.csv)")
    page.switch_page("compare.py").run()
    assert "**Your data: iris.csv**: 12 points from iris.csv" in _shown_text(page, "caption")[0]
    assert not page.sidebar.warning
    assert page.selectbox(key="dataset").format_func("your data") == "Your data: iris.csv (n=12)"


def test_other_columns_of_the_same_file_are_not_in_use_until_used(page):
    _upload(page, "animals.csv", ANIMALS)
    _use_points(page)
    page.multiselect(key="upload_coordinates").set_value(["x"]).run()
    assert _shown_text(page, "warning") == [
        "The sidebar works on its 'Your data', but the columns chosen above are not in use (it holds animals.csv "
        "with coordinates 'x', 'y' and the reference 'animal'). Press 'Use these points in the app' to use the file "
        "shown here."]


def test_the_uploaded_names_reach_the_comparison(page):
    _upload(page, "iris.csv", LONG_LABELS)
    assert page.multiselect(key="upload_coordinates").value == ["sepal length", "petal width"]
    points = _use_points(page)
    assert list(points.partitions) == ["species", "found"]
    page.switch_page("compare.py").run()
    assert not page.exception, [e.message for e in page.exception]
    assert page.selectbox(key="reference").value == "species"
    assert page.selectbox(key="reference").format_func("species") == "ground truth species (k=3)"
    assert "Reference: ground truth (species)" in _shown_text(page, "caption")[0]
    charts = [json.loads(chart.proto.spec) for chart in page.get("plotly_chart")]
    scatters = [c["layout"] for c in charts if c["layout"].get("title", {}).get("text", "").startswith("Reference")]
    assert len(scatters) == 1
    assert (scatters[0]["xaxis"]["title"]["text"], scatters[0]["yaxis"]["title"]["text"]) == \
        ("sepal length", "petal width")
    pairing = next(frame.value for frame in page.dataframe if "braun_banquet" in frame.value.columns)
    assert set(pairing["reference"]) == {"Iris-setosa", "Iris-versicolor", "Iris-virginica"}


def test_the_pairing_widens_its_label_columns_for_long_labels():
    from pages._views import label_width

    assert label_width(["1", "12"]) == 60  # the narrowest column
    assert label_width(["Iris-setosa", "Iris-versicolor"]) == 7 * len("Iris-versicolor") + 16
    assert label_width(["x" * 80]) == 180  # within reason: the column can be dragged wider

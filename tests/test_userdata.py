"""Users' CSV files: every kind of bad file gives a clear message, in the library and in the app."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from cluval_core import CluvalError, compare
from cluval_core.userdata import MAX_BYTES, label_column, points_and_labels, read_csv_bytes

APP = str(Path(__file__).resolve().parents[1] / "app.py")
GOOD = b"x,y,truth,found\n0,0,a,1\n0,1,a,1\n5,5,b,2\n6,5,b,2\n9,9,c,2\n"


@pytest.mark.parametrize("data, message", [
    (b"", "is empty"),
    (b"   \n\n", "is empty"),
    (b"x|y\n", "data row"),
    (b"x;y;z\n1;2;3\n", r"1 data row\(s\)"),
    (b"a b c\x00\xff\xfe", "not UTF-8"),
    (b"x,y\n1,2\n3,4,5,6\n4,5\n", "could not be read as CSV"),
    (b"onlyone\n1\n2\n3\n", "single column"),
])
def test_bad_files(data, message):
    with pytest.raises(CluvalError, match=message):
        read_csv_bytes(data, "upload.csv")


def test_too_large_file_is_refused_before_parsing():
    with pytest.raises(CluvalError, match="more than the 200 MB"):
        read_csv_bytes(b"x" * (MAX_BYTES + 1))


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_delimiters_are_recognised(sep):
    frame = read_csv_bytes(GOOD.replace(b",", sep.encode()))
    assert list(frame.columns) == ["x", "y", "truth", "found"]


def test_points_and_labels():
    frame = read_csv_bytes(GOOD)
    X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
    assert X.tolist()[2] == [5.0, 5.0] and labels.tolist() == [1, 1, 2, 2, 3] and names == ["a", "b", "c"]
    found, _ = label_column(frame, "found")
    assert compare(labels, found).k_pred == 2


def test_missing_column_non_numeric_and_missing_labels():
    frame = read_csv_bytes(b"x,y,truth\n0,0,a\n0,oops,a\n5,5,\n")
    with pytest.raises(CluvalError, match="column 'z' is not in the file; its columns are: x, y, truth"):
        points_and_labels(frame, ["x", "z"], "truth")
    with pytest.raises(CluvalError, match=r"coordinate column 'y' is not numeric: data row 2 holds 'oops'"):
        points_and_labels(frame, ["x", "y"], "truth")
    with pytest.raises(CluvalError, match=r"column 'truth' has 1 empty label\(s\), the first in data row 3"):
        label_column(frame, "truth")
    with pytest.raises(CluvalError, match="at least one coordinate column"):
        points_and_labels(frame, [], "truth")


# ---------------------------------------------------------------------- in the app
@pytest.fixture
def page():
    st.cache_data.clear()
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/your_data.py").run()
    return at


@pytest.mark.slow
def test_upload_two_label_columns(page):
    page.file_uploader(key="upload").set_value(("labels.csv", GOOD, "text/csv"))
    page.run()
    page.radio(key="upload_mode").set_value("two label columns").run()
    page.selectbox(key="upload_truth").set_value("truth").run()
    page.selectbox(key="upload_pred").set_value("found").run()
    assert not page.exception and not page.error
    scores = next(f.value for f in page.dataframe if "id" in f.value.columns)
    expected = compare(["a", "a", "b", "b", "c"], [1, 1, 2, 2, 2]).scores()
    assert dict(zip(scores["id"], scores["value"])) == expected


@pytest.mark.slow
def test_upload_points_then_use_them(page):
    page.file_uploader(key="upload").set_value(("points.csv", GOOD, "text/csv"))
    page.run()
    page.multiselect(key="upload_coordinates").set_value(["x", "y"]).run()
    page.multiselect(key="upload_labels").set_value(["truth", "found"]).run()
    assert not page.exception and "5 points in 2 dimension(s)" in page.success[0].value
    page.button(key="use_upload").click().run()
    assert page.session_state["dataset"] == "your data"
    page.switch_page("pages/compare.py").run()
    assert not page.exception, [e.message for e in page.exception]
    assert page.number_input(key="k").value == 3


@pytest.mark.slow
@pytest.mark.parametrize("data, message", [
    (b"", "is empty"), (b"x,y\n1,2\n3,4,5,6\n", "could not be read"), (b"v\n1\n2\n", "single column")])
def test_bad_uploads_show_a_message(page, data, message):
    page.file_uploader(key="upload").set_value(("bad.csv", data, "text/csv"))
    page.run()
    assert not page.exception
    assert page.error and message in page.error[0].value


@pytest.mark.slow
def test_non_numeric_coordinates_show_a_message(page):
    page.file_uploader(key="upload").set_value(("p.csv", b"x,y,t\n1,a,1\n2,b,2\n", "text/csv"))
    page.run()
    page.multiselect(key="upload_coordinates").set_value(["x", "y"]).run()
    assert page.warning  # the label choice was reset: the page asks for one
    page.multiselect(key="upload_labels").set_value(["t"]).run()
    assert not page.exception
    assert page.error and "coordinate column 'y' is not numeric" in page.error[0].value

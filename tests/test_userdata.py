"""Users' files: every kind of bad file gives a clear message, in the library and in the app."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from cluval_core import CluvalError, compare, userdata
from cluval_core.userdata import (ACCEPTED, MAX_BYTES, label_column, numeric_columns, points_and_labels, read_csv_bytes,
                                  read_table, read_table_bytes)

APP = str(Path(__file__).resolve().parents[1] / "app.py")
GOOD = b"x,y,truth,found\n0,0,a,1\n0,1,a,1\n5,5,b,2\n6,5,b,2\n9,9,c,2\n"


@pytest.mark.parametrize("data, message", [
    (b"", "is empty"),
    (b"   \n\n", "is empty"),
    (b"x|y\n", "data row"),
    (b"x;y;z\n1;2;3\n", r"1 data row\(s\)"),
    (b"x,y\n1,2\n3,4,5,6\n4,5\n", "could not be read as CSV"),
    (b"onlyone\n1\n2\n3\n", "single column"),
    (b"a ,a,b\n1,2,3\n4,5,6\n", "more than one column named 'a'"),
])
def test_bad_files(data, message):
    with pytest.raises(CluvalError, match=message):
        read_table_bytes(data, "upload.csv")


def _file(tmp_path, content: bytes, name="data.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def test_binary_file(tmp_path):
    path = _file(tmp_path, b"x,y\n\x00\x01\x02\xff\n")
    with pytest.raises(CluvalError) as info:
        read_table(path)
    assert str(info.value) == f"{path} is a binary file (it contains NUL bytes), not text: give {ACCEPTED}"


def test_compressed_file_is_named(tmp_path):
    import gzip

    with pytest.raises(CluvalError, match=r"data.csv is gzip-compressed, not a table"):
        read_table(_file(tmp_path, gzip.compress(GOOD)))


def test_non_utf8_file(tmp_path):
    path = _file(tmp_path, "x,y,truth\n1,2,café\n3,4,thé\n".encode("latin-1"))
    with pytest.raises(CluvalError) as info:
        read_table(path)
    assert str(info.value) == (f"{path} is not UTF-8 text (byte 0xe9 at offset 17 cannot be decoded): save it as "
                               "UTF-8 (in a spreadsheet: 'CSV UTF-8')")


@pytest.mark.parametrize("step", [3, 4, 5, 7, 64])
def test_non_utf8_byte_is_located_across_decoding_steps(monkeypatch, step):
    data = b"x,y\n1,2\n" + "é".encode() + b",\xff\n"  # the steps cut the 2-byte character, or not
    monkeypatch.setattr(userdata, "_DECODE_STEP", step)
    with pytest.raises(CluvalError, match=f"byte 0xff at offset {len(data) - 2} cannot"):
        read_table_bytes(data)


def test_utf16_with_byte_order_mark_is_read():
    frame = read_table_bytes("x,truth\n1,é\n2,ü\n".encode("utf-16"))
    assert frame["truth"].tolist() == ["é", "ü"]


def test_utf8_byte_order_mark_is_not_part_of_the_first_column():
    assert list(read_table_bytes("\ufeffx,y\n1,2\n3,4\n".encode()).columns) == ["x", "y"]


def test_directory(tmp_path):
    with pytest.raises(CluvalError) as info:
        read_table(tmp_path)
    assert str(info.value) == f"{tmp_path} is a directory, not a file: give the path of {ACCEPTED}"


def test_missing_file(tmp_path):
    with pytest.raises(CluvalError, match="nope.csv does not exist: give the path of a CSV"):
        read_table(tmp_path / "nope.csv")


def test_empty_file(tmp_path):
    path = _file(tmp_path, b"")
    with pytest.raises(CluvalError) as info:
        read_table(path)
    assert str(info.value) == f"{path} is empty: give {ACCEPTED} and one row per object"


def test_device_is_refused_before_it_is_opened():
    with pytest.raises(CluvalError) as info:
        read_table("/dev/zero")
    assert str(info.value) == ("/dev/zero is not a regular file (it is a device, pipe or socket): give the path of "
                               f"{ACCEPTED}")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(pytest.raises(CluvalError, read_table, fifo)))
    reader.start()
    reader.join(timeout=60)
    if reader.is_alive():  # it blocked in open(): unblock it by writing, then fail
        with open(fifo, "wb") as fh:
            fh.write(GOOD)
        reader.join()
        pytest.fail("read_table opened the pipe and waited for a writer")
    assert "is not a regular file" in str(outcome[0].value)


def test_over_cap_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: no disk space used
    monkeypatch.setattr("builtins.open", lambda *a, **k: pytest.fail("opened a file over the cap"))
    with pytest.raises(CluvalError) as info:
        read_table(path)
    assert str(info.value) == f"{path} is 209,715,201 bytes, more than the 200 MB accepted: subsample it first"


def test_too_large_bytes_are_refused_before_parsing():
    with pytest.raises(CluvalError, match="more than the 200 MB"):
        read_table_bytes(b"x" * (MAX_BYTES + 1))


def test_too_many_cells_are_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(userdata, "MAX_CELLS", 20)
    monkeypatch.setattr(userdata.pd, "read_csv", lambda *a, **k: pytest.fail("parsed a file over the cap"))
    with pytest.raises(CluvalError, match=r"has 11 rows x 2 columns, more than the 20 cells accepted"):
        read_table_bytes(b"x,y\n" + b"1,2\n" * 10)


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_delimiters_are_recognised(sep):
    frame = read_table_bytes(GOOD.replace(b",", sep.encode()))
    assert list(frame.columns) == ["x", "y", "truth", "found"]


def test_read_csv_bytes_is_the_same_reader():
    assert read_csv_bytes(GOOD).equals(read_table_bytes(GOOD))


# ---------------------------------------------------------------------- labels as written
def test_labels_01_and_1_0_and_1_are_three_clusters(tmp_path):
    frame = read_table(_file(tmp_path, b"truth,found\n01,a\n1.0,a\n1,b\n1,b\n"))
    codes, names = label_column(frame, "truth")
    assert names == ["01", "1", "1.0"] and codes.tolist() == [1, 3, 2, 2]
    assert compare(codes, label_column(frame, "found")[0]).k_true == 3


def test_na_none_null_are_labels_not_missing(tmp_path):
    frame = read_table(_file(tmp_path, b"truth,found\nNA,1\nNone,1\nnull,2\nNaN,2\nNA,3\n"))
    codes, names = label_column(frame, "truth")
    assert names == ["NA", "NaN", "None", "null"] and codes.tolist() == [1, 3, 4, 2, 1]


def test_only_an_empty_field_is_a_missing_label():
    frame = read_table_bytes(b"truth,found\na,1\n ,1\nb,\n")
    with pytest.raises(CluvalError, match=r"column 'truth' has 1 empty label\(s\), the first in data row 2"):
        label_column(frame, "truth")
    with pytest.raises(CluvalError, match=r"column 'found' has 1 empty label\(s\), the first in data row 3"):
        label_column(frame, "found")


def test_coordinates_are_numeric_and_chosen_by_content():
    frame = read_table_bytes(b"x,y,truth\n1.5,1e3,01\n-2,0x1,1\n")
    assert numeric_columns(frame) == ["x", "truth"]
    X, labels, names = points_and_labels(frame, ["x", "truth"], "truth")
    assert X.tolist() == [[1.5, 1.0], [-2.0, 1.0]] and names == ["01", "1"]
    with pytest.raises(CluvalError, match="coordinate column 'y' is not numeric: data row 2 holds '0x1'"):
        points_and_labels(frame, ["y"], "truth")


@pytest.mark.parametrize("value", ["inf", "NA", "nan", ""])
def test_non_finite_or_missing_coordinates_are_refused(value):
    frame = read_table_bytes(f"x,t\n1,a\n{value},b\n".encode())
    with pytest.raises(CluvalError, match=f"coordinate column 'x' is not numeric: data row 2 holds '{value}'"):
        points_and_labels(frame, ["x"], "t")


def test_parquet_file(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"x": [0.0, 1.0, 5.0], "truth": ["a", "a", "b"], "found": [1, 2, 2]}), buffer)
    path = _file(tmp_path, buffer.getvalue(), "points.parquet")
    frame = read_table(path)
    X, labels, names = points_and_labels(frame, ["x"], "truth")
    assert X.ravel().tolist() == [0.0, 1.0, 5.0] and labels.tolist() == [1, 1, 2] and names == ["a", "b"]
    assert label_column(frame, "found")[1] == [1, 2]
    with pytest.raises(CluvalError, match="could not be read as Parquet"):
        read_table(_file(tmp_path, buffer.getvalue()[:40], "cut.parquet"))


def test_points_and_labels():
    frame = read_table_bytes(GOOD)
    X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
    assert X.tolist()[2] == [5.0, 5.0] and labels.tolist() == [1, 1, 2, 2, 3] and names == ["a", "b", "c"]
    found, _ = label_column(frame, "found")
    assert compare(labels, found).k_pred == 2


def test_missing_column_non_numeric_and_missing_labels():
    frame = read_table_bytes(b"x,y,truth\n0,0,a\n0,oops,a\n5,5,\n")
    with pytest.raises(CluvalError, match="column 'z' is not in the file; its columns are: x, y, truth"):
        points_and_labels(frame, ["x", "z"], "truth")
    with pytest.raises(CluvalError, match=r"coordinate column 'y' is not numeric: data row 2 holds 'oops'"):
        points_and_labels(frame, ["x", "y"], "truth")
    with pytest.raises(CluvalError, match=r"column 'truth' has 1 empty label\(s\), the first in data row 3"):
        label_column(frame, "truth")
    with pytest.raises(CluvalError, match="at least one coordinate column"):
        points_and_labels(frame, [], "truth")


def test_a_chosen_noise_label_becomes_code_zero():
    frame = read_table_bytes(b"truth,found\nb,-1\n-1,x\na,x\nb,-1\n-1,y\n")
    # sorted labels as written: "-1", "a", "b"; with noise "-1" the clusters are a = 1, b = 2
    assert label_column(frame, "truth", "-1")[0].tolist() == [2, 0, 1, 2, 0]
    assert label_column(frame, "truth", "-1")[1] == ["a", "b"]
    assert label_column(frame, "found", "-1")[0].tolist() == [0, 1, 1, 0, 2]
    # a column without that label has no noise; without a noise label every label is a cluster
    assert label_column(frame, "truth", "zz")[0].tolist() == [3, 1, 2, 3, 1]
    assert label_column(frame, "truth")[0].tolist() == [3, 1, 2, 3, 1]
    assert userdata.distinct_labels(frame, "truth") == ["-1", "a", "b"]


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
def test_upload_with_a_noise_label_then_drop_it(page):
    data = b"x,y,truth\n0,0,a\n0,1,a\n5,5,b\n6,5,b\n9,9,-1\n3,3,-1\n"
    page.file_uploader(key="upload").set_value(("noisy.csv", data, "text/csv"))
    page.run()
    page.multiselect(key="upload_coordinates").set_value(["x", "y"]).run()
    page.multiselect(key="upload_labels").set_value(["truth"]).run()
    assert page.selectbox(key="upload_noise").options == ["(none: every label is a cluster)", "-1", "a", "b"]
    page.selectbox(key="upload_noise").set_value("-1").run()
    assert not page.exception and not page.error
    page.button(key="use_upload").click().run()
    assert page.session_state["user_points"].partitions["labels0"].tolist() == [1, 1, 2, 2, 0, 0]
    page.switch_page("pages/compare.py").run()
    page.selectbox(key="noise").set_value("drop reference noise").run()
    assert not page.exception and not page.error
    assert page.number_input(key="k").value == 2  # the reference has two clusters besides noise
    assert not any("does not occur" in w.value for w in page.warning)


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


@pytest.mark.slow
def test_upload_keeps_labels_as_written(page):
    data = b"truth,found\n01,a\n1.0,a\n1,b\nNA,b\nnull,c\n"
    page.file_uploader(key="upload").set_value(("labels.csv", data, "text/csv"))
    page.run()
    page.radio(key="upload_mode").set_value("two label columns").run()
    assert not page.exception and not page.error
    scores = next(f.value for f in page.dataframe if "id" in f.value.columns)
    expected = compare(["01", "1.0", "1", "NA", "null"], ["a", "a", "b", "b", "c"]).scores()
    assert dict(zip(scores["id"], scores["value"])) == pytest.approx(expected, nan_ok=True)
    assert expected["ari"] == 0.0  # five singletons: ARI is zero, where merged labels gave more

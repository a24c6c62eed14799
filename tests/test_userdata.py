"""Users' files: every kind of bad file gives a clear message; good files are read as written.

The page that reads them is tested in tests/test_app_your_data.py."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from cluval_core import CluvalError, Noise, compare
from cluval_core.data import userdata
from cluval_core.data.userdata import (
    ACCEPTED,
    MAX_BYTES,
    column_summaries,
    continuous_label_warning,
    distinct_labels,
    label_column,
    numeric_columns,
    points_and_labels,
    preview,
    read_csv_bytes,
    read_table,
    read_table_bytes,
    read_user_table,
    suggest_columns,
)

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
    labels, names = label_column(frame, "truth")
    assert names == ["01", "1", "1.0"] and labels.tolist() == ["01", "1.0", "1", "1"]
    assert compare(labels, label_column(frame, "found")[0]).k_true == 3


def test_na_none_null_are_labels_not_missing(tmp_path):
    frame = read_table(_file(tmp_path, b"truth,found\nNA,1\nNone,1\nnull,2\nNaN,2\nNA,3\n"))
    labels, names = label_column(frame, "truth")
    assert names == ["NA", "NaN", "None", "null"] and labels.tolist() == ["NA", "None", "null", "NaN", "NA"]


def test_original_labels_are_kept_and_compared_as_written():
    frame = read_table_bytes(b"x,y,animal,found\n0,0,cat,1\n0,1,cat,1\n5,5,dog,2\n6,5,dog,2\n9,9,bird,3\n")
    X, labels, names = points_and_labels(frame, ["x", "y"], "animal")
    assert labels.tolist() == ["cat", "cat", "dog", "dog", "bird"] and names == ["bird", "cat", "dog"]
    assert labels.dtype.kind == "U"  # fixed-width text: hashed by content in the app's caches
    c = compare(labels, label_column(frame, "found")[0])
    assert c.row_labels.tolist() == ["bird", "cat", "dog"] and c.col_labels.tolist() == ["1", "2", "3"]
    assert c.scores()["ari"] == 1.0


def test_a_long_label_costs_what_it_holds():
    """One label of millions of characters among short ones: the labels are kept as they are,
    not padded to the longest one (which would take the length times the objects)."""
    long = b"b" * 3_000_000
    frame = read_table_bytes(b"t,p\n" + b"a,1\n" * 2000 + long + b",1\nc,2\n")
    labels, names = label_column(frame, "t")
    assert labels.nbytes < 100_000 and len(names) == 3 and labels[2000] == long.decode()
    assert label_column(frame, "p")[0].tolist() == ["1"] * 2001 + ["2"]


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
    assert X.ravel().tolist() == [0.0, 1.0, 5.0] and labels.tolist() == ["a", "a", "b"] and names == ["a", "b"]
    found, names = label_column(frame, "found", noise=1)
    assert found.dtype.kind == "i" and found.tolist() == [1, 2, 2] and names == [2]  # numbers stay numbers
    with pytest.raises(CluvalError, match="could not be read as Parquet"):
        read_table(_file(tmp_path, buffer.getvalue()[:40], "cut.parquet"))


def test_points_and_labels():
    frame = read_table_bytes(GOOD)
    X, labels, names = points_and_labels(frame, ["x", "y"], "truth")
    assert X.tolist()[2] == [5.0, 5.0] and labels.tolist() == ["a", "a", "b", "b", "c"] and names == ["a", "b", "c"]
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


def test_a_noise_label_is_kept_as_written_and_left_out_of_the_clusters():
    frame = read_table_bytes(b"truth,found\nb,-1\n-1,x\na,x\nb,-1\n-1,y\n")
    labels, names = label_column(frame, "truth", "-1")
    assert labels.tolist() == ["b", "-1", "a", "b", "-1"] and names == ["a", "b"]
    assert label_column(frame, "truth", "zz")[1] == ["-1", "a", "b"]  # a label not in the column: no noise
    assert label_column(frame, "truth")[1] == ["-1", "a", "b"]
    found = label_column(frame, "found")[0]
    dropped = compare(labels, found, noise=Noise("-1", "drop_reference_noise"))
    assert dropped.n == 3 and dropped.k_true == 2
    assert distinct_labels(frame, "truth") == ["-1", "a", "b"]
    assert distinct_labels(frame, ["truth", "found"]) == ["-1", "a", "b", "x", "y"]


def test_distinct_labels_put_numbers_in_numeric_order():
    frame = read_table_bytes(b"t,p\n10,a\n9,a\n-1,b\n2.5,b\nz,c\n")
    assert distinct_labels(frame, "t") == ["-1", "2.5", "9", "10", "z"]


# ---------------------------------------------------------------------- header, decimal commas, row numbers
def test_a_file_without_header_is_detected_and_its_columns_named():
    table = read_user_table(b"0.1,0.2,cat\n0.3,0.1,cat\n5.0,4.8,dog\n5.2,5.1,dog\n")
    assert not table.header and len(table.frame) == 4  # the first row is an object
    assert list(table.frame.columns) == ["column 1", "column 2", "column 3"]
    assert table.frame["column 3"].tolist() == ["cat", "cat", "dog", "dog"]
    assert table.notes[1] == ("The first row holds data, not column names, so the columns are named 'column 1' to "
                              "'column 3'.")
    X, labels, _ = points_and_labels(table.frame, ["column 1", "column 2"], "column 3")
    assert X[0].tolist() == [0.1, 0.2] and labels.tolist() == ["cat", "cat", "dog", "dog"]


@pytest.mark.parametrize("data, header", [
    (b"x,y,truth\n0.1,0.2,cat\n0.3,0.1,dog\n", True),     # names over numbers
    (b"truth,found\na,1\nb,2\nb,2\n", True),              # text over numbers
    (b"truth,found\na,b\nb,c\n", True),                    # text only: cannot tell, a header is assumed
    (b",x,y\n0,0.5,1.5\n1,2.5,3.5\n", True),               # an unnamed index column over numbers
    (b"1,2\n1,2\n2,1\n", False),                           # whole-number labels, no header
    (b"0.5 1.5 a\n2.5 3.5 b\n", False),                     # space separated, numbers and text as below
    (b"1,a\nb,c\nd,e\n", True),                                  # a number over text: the first row is different
])
def test_header_detection(data, header):
    assert read_user_table(data).header is header


def test_header_can_be_forced_either_way():
    data = b"1,2\n1,2\n2,1\n"
    assert list(read_table_bytes(data, header=True).columns) == ["1", "2"]
    assert len(read_table_bytes(data, header=False)) == 3
    assert list(read_table_bytes(b"x,y\n1,2\n3,4\n", header=False).columns) == ["column 1", "column 2"]


def test_unnamed_header_fields_are_named_by_position():
    assert list(read_table_bytes(b",x,\n0,0.5,a\n1,2.5,b\n").columns) == ["column 1", "x", "column 3"]


def test_decimal_commas_with_semicolons():
    table = read_user_table(b"x;y;label\n1,5;2,25;a\n-3,0;4;b\n0,5;1e3;a\n")
    assert table.delimiter == ";" and table.decimal_comma == ["x", "y"] and table.header
    X, labels, _ = points_and_labels(table.frame, ["x", "y"], "label")
    assert X.tolist() == [[1.5, 2.25], [-3.0, 4.0], [0.5, 1000.0]] and labels.tolist() == ["a", "b", "a"]
    assert table.notes == ["Read as CSV with fields separated by semicolons.",
                           "Decimal commas read as decimal points in 'x', 'y' (1,5 is one and a half)."]


def test_decimal_commas_without_header():
    table = read_user_table(b"1,5;2,25;a\n3,0;4,5;b\n")  # both , and ; split every line in three
    assert table.delimiter == ";" and not table.header
    assert table.frame.to_dict("list") == {"column 1": ["1.5", "3.0"], "column 2": ["2.25", "4.5"],
                                           "column 3": ["a", "b"]}


def test_text_with_commas_is_not_a_number():
    table = read_user_table(b"x;name\n1,5;Smith, J\n2;Doe, A\n")
    assert table.decimal_comma == ["x"] and table.frame["name"].tolist() == ["Smith, J", "Doe, A"]


def test_comma_separated_files_with_spaces_after_the_commas():
    table = read_user_table(b"x, y, t\n0.5, 1.5, New York\n2.5, 3.5, Paris\n")
    assert table.delimiter == "," and table.frame["t"].tolist() == ["New York", "Paris"]


def test_row_numbers_in_messages_match_the_preview():
    rows = [f"{i}.5,{i}.5,{'' if i == 7 else 'a'}" for i in range(1, 11)]
    for data in (("x,y,t\n" + "\n".join(rows)).encode(), "\n".join(rows).encode()):  # with and without header
        frame = read_table_bytes(data)
        column = frame.columns[2]
        with pytest.raises(CluvalError, match=r"the first in data row 7:"):
            label_column(frame, column)
        shown = preview(frame)
        assert shown.index[0] == 1 and shown.index.name == "row"
        assert shown.loc[7].tolist() == ["7.5", "7.5", ""]  # the row the message names
    frame = read_table_bytes(b"x,t\n1,a\n2,a\n3,b\n4,b\n5,b\noops,a\n")
    with pytest.raises(CluvalError, match="data row 6 holds 'oops'"):
        points_and_labels(frame, ["x"], "t")
    assert preview(frame).loc[6, "x"] == "oops"


# ---------------------------------------------------------------------- what the columns are for
def test_column_summaries_and_suggestions():
    data = b"id,x,y,animal,kmeans\n" + b"".join(
        f"{i},{i * 0.37:.2f},{i % 7},{['cat', 'dog', 'bird'][i % 3]},{i % 2}\n".encode() for i in range(30))
    frame = read_table_bytes(data)
    s = column_summaries(frame)
    assert [(c, s[c].distinct, s[c].continuous) for c in frame.columns] == [
        ("id", 30, True), ("x", 30, True), ("y", 7, False), ("animal", 3, False), ("kmeans", 2, False)]
    suggestion = suggest_columns(frame, s)
    assert suggestion.has_coordinates and suggestion.coordinates == ["id", "x"]
    assert suggestion.labels == ["y", "animal", "kmeans"] and suggestion.reference == "y"


def test_a_label_only_file_has_no_coordinates():
    suggestion = suggest_columns(read_table_bytes(b"truth,found\ncat,1\ncat,1\ndog,2\ndog,2\nbird,3\nbird,3\n"))
    assert not suggestion.has_coordinates and suggestion.coordinates == []
    assert (suggestion.reference, suggestion.candidate) == ("truth", "found")


def test_two_numeric_columns_are_the_coordinates():
    frame = read_table_bytes(b"a,b,c\n0.1,1.5,x\n0.2,2.5,x\n3.3,0.5,y\n")
    assert suggest_columns(frame).coordinates == ["a", "b"] and suggest_columns(frame).labels == ["c"]


def test_a_continuous_column_as_labels_is_named_with_its_distinct_values():
    frame = read_table_bytes(b"x,n,t\n0.5,10,a\n1.5,11,a\n2.5,12,b\n2.5,13,b\n")
    s = column_summaries(frame)
    assert continuous_label_warning(s["x"]) == (
        "column 'x' holds decimal numbers: 3 distinct values in 4 rows. As labels, every distinct value is a cluster "
        "of its own; it looks like a coordinate.")
    assert continuous_label_warning(s["n"]).startswith("column 'n' holds whole numbers, most of them different: 4 "
                                                       "distinct values in 4 rows.")
    assert continuous_label_warning(s["t"]) is None
    # every column continuous: the last one is left for the labels
    assert suggest_columns(frame[["x", "n"]]) .coordinates == ["x"]

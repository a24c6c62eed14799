"""Your data: upload a CSV or Parquet file, choose its columns, compare."""

import streamlit as st

from cluval_core import userdata
from cluval_core.userdata import MAX_BYTES
from pages import _cache as data
from pages import _shared as ui
from pages import _views as views

ui.require_frame("pages/your_data.py")


@st.cache_data(show_spinner="Reading the file…", max_entries=4)
def read_upload(data: bytes, name: str):
    return userdata.read_table_bytes(data, name)


def labels_model(frame, truth: str, pred: str):
    a, _ = userdata.label_column(frame, truth)
    b, _ = userdata.label_column(frame, pred)
    return data.comparison(a, b)


@st.cache_data(show_spinner=False, max_entries=4)
def user_points_from(frame, coordinates: tuple, labels: tuple, name: str, noise=None) :
    X, first, names = userdata.points_and_labels(frame, list(coordinates), labels[0], noise)
    partitions = {"labels0": first}
    for column in labels[1:]:
        partitions[f"{column}"] = userdata.label_column(frame, column, noise)[0]
    marked = "" if noise is None else f"; label '{noise}' marks noise"
    return data.Points(ui.USER_DATA, f"your data ({name})", X, partitions,
                  f"{len(X):,} points from {name}; labels0 is column '{labels[0]}' with {len(names)} clusters{marked}",
                  "your upload")



st.title("Your data")
st.markdown("Upload a CSV file (UTF-8, with a header row) or a Parquet file, one row per object: either **points "
            "with label columns** (coordinates plus one or more partitions) or just **two label columns**. "
            "Delimiters `,` `;` tab and space are recognised; labels are read as written (`01` and `1` are "
            f"different clusters; only an empty field is missing); at most {MAX_BYTES >> 20} MB.")

upload = st.file_uploader("CSV or Parquet file", type=["csv", "tsv", "txt", "parquet"], key="upload")
if upload is None:
    st.info("No file yet. Example:\n\n```\nx,y,truth,kmeans\n0.1,0.3,a,1\n0.2,0.1,a,1\n5.0,4.8,b,2\n```")
    st.stop()

with ui.guarded(f"Reading {upload.name}"):
    frame = read_upload(upload.getvalue(), upload.name)
st.dataframe(frame.head(20), key="upload_preview")
st.caption(f"{len(frame):,} rows, {frame.shape[1]} columns.")

columns = list(frame.columns)
mode = st.radio("The file holds", ["points with label columns", "two label columns"], horizontal=True,
                key="upload_mode")
if mode == "two label columns":
    left, right = st.columns(2)
    truth = left.selectbox("Reference labels", columns, index=0, key="upload_truth")
    pred = right.selectbox("Candidate labels", columns, index=min(1, len(columns) - 1), key="upload_pred")
    with ui.guarded("Comparing the two columns"):
        model = labels_model(frame, truth, pred)
    st.subheader(f"{ui.plain(truth)} vs {ui.plain(pred)}")
    views.headline(model.comparison)
    views.table_pairing_mapping(model, key="upload")
    scores = views.index_tables(model.comparison, key="upload")
    views.downloads(model, scores, {"data set": upload.name, "reference": f"column {truth}",
                                    "candidate": f"column {pred}"}, key="upload")
    st.stop()

coordinates = st.multiselect("Coordinate columns", columns, default=userdata.default_coordinates(frame),
                             key="upload_coordinates")
rest = [c for c in columns if c not in coordinates] or columns
labels = st.multiselect("Reference label column(s): the first is the default reference", rest,
                        default=rest[:1], key="upload_labels")
if not coordinates or not labels:
    st.warning("Choose at least one coordinate column and one label column.")
    st.stop()
NO_NOISE = "(none: every label is a cluster)"
with ui.guarded("Reading the labels"):
    noise_choices = [NO_NOISE] + userdata.distinct_labels(frame, labels[0])
noise = st.selectbox("Noise label", noise_choices, key="upload_noise", format_func=str,
                     help="The label that marks noise in your label columns (for example -1 from DBSCAN or 0 in "
                          "benchmark files). The sidebar's noise policy then applies to it.")
with ui.guarded("Preparing your data"):
    points = user_points_from(frame, tuple(coordinates), tuple(labels), upload.name,
                                 None if noise == NO_NOISE else noise)
st.success(f"{len(points.X):,} points in {points.X.shape[1]} dimension(s), partitions: "
           f"{', '.join(ui.plain(name) for name in points.partitions)}.")


def use_it():
    st.session_state["user_points"] = points
    st.session_state["dataset"] = ui.USER_DATA


st.button("Use these points in the app", on_click=use_it, type="primary", key="use_upload")
if ui.user_points() is not None and st.session_state.get("dataset") == ui.USER_DATA:
    st.info("The sidebar now works on your data: open **Compare** to cluster it and see every index.")

"""Your data: upload a CSV or Parquet file, choose its columns, compare."""

import streamlit as st

from cluval_core.data import userdata
from cluval_core.data.userdata import MAX_BYTES
from pages import _cache as data
from pages import _shared as ui
from pages import _views as views

POINTS, LABELS = "points with label columns", "two label columns"
NO_NOISE = "(none: every label is a cluster)"
# The column choices: set to the file's suggestions whenever a new file (or header choice) arrives.
CHOICES = ("upload_mode", "upload_coordinates", "upload_labels", "upload_truth", "upload_pred", "upload_noise")


@st.cache_data(show_spinner="Reading the file…", max_entries=4)
def read_upload(data: bytes, name: str, header: bool | None = None):
    return userdata.read_user_table(data, name, header=header)


# The functions below take the table unhashed (leading underscore) and the file's identity as the
# key: a new upload has a new file id, and a large table would otherwise be hashed on a sample.
@st.cache_data(show_spinner=False, max_entries=4)
def summaries_of(_frame, source: tuple):
    summaries = userdata.column_summaries(_frame)
    return summaries, userdata.suggest_columns(_frame, summaries)


@st.cache_data(show_spinner=False, max_entries=16)
def noise_options(_frame, source: tuple, columns: tuple) -> list:
    return [NO_NOISE] + userdata.distinct_labels(_frame, list(columns))


@st.cache_data(show_spinner=False, max_entries=16)
def two_label_arrays(_frame, source: tuple, truth: str, pred: str):
    """The two label columns as written (original labels, strings or numbers)."""
    return userdata.label_column(_frame, truth)[0], userdata.label_column(_frame, pred)[0]


@st.cache_data(show_spinner=False, max_entries=4)
def user_points_from(_frame, source: tuple, coordinates: tuple, labels: tuple, name: str, noise=None):
    """The points for the sidebar, named as in the file: its coordinate and label columns; `source`
    (file id, header, coordinates, labels, noise) says where they come from."""
    X, first, names = userdata.points_and_labels(_frame, list(coordinates), labels[0], noise)
    partitions = {labels[0]: first}
    for column in labels[1:]:
        partitions[column] = userdata.label_column(_frame, column)[0]
    marked = "" if noise is None else f"; label '{noise}' marks noise"
    return data.Points(ui.USER_DATA, f"Your data: {name}", X, partitions,
                       f"{len(X):,} points from {name}, coordinates {_listed(coordinates)}; the reference "
                       f"'{labels[0]}' has {len(names)} clusters{marked}", "your upload", noise=noise, file=name,
                       coordinate_names=tuple(coordinates), source=(*source, coordinates, labels, noise))


def _listed(names) -> str:
    return ", ".join(f"'{name}'" for name in names)


def size_text(size: int) -> str:
    """A file size in words: 532 bytes, 12.5 kB, 3.1 MB."""
    if size < 1000:
        return f"{size} bytes"
    return f"{size / 1000:.1f} kB" if size < 1_000_000 else f"{size / 1_000_000:.1f} MB"


def keep_file(upload) -> None:
    """Keep an uploaded file for this session: the uploader forgets it when another page is opened."""
    st.session_state[ui.UPLOADED] = {"name": upload.name, "data": upload.getvalue(), "file_id": upload.file_id}


def take_upload() -> None:
    """The uploader's callback: a new file is kept; removing it (its ×) forgets it."""
    upload = st.session_state.get("upload")
    if upload is None:
        st.session_state.pop(ui.UPLOADED, None)
    else:
        keep_file(upload)


def in_use(source: tuple | None) -> None:
    """Say which points the sidebar's "Your data" holds, and whether the sidebar uses them,
    beside what this page shows (`source`: the points these choices make, or None)."""
    points, dataset = ui.user_points(), ui.selection().dataset
    if points is None:
        return
    used = dataset == ui.USER_DATA
    if source is not None and points.source == source:
        if used:
            st.success(ui.plain(f"The sidebar works on these points ({points.file}): open Compare to cluster them "
                                "and see every index."))
        else:
            st.info(ui.plain(f"These points ({points.file}) are the sidebar's 'Your data', but the sidebar now works "
                             f"on {ui.dataset_options().get(dataset, dataset)}: choose 'Your data' there, or press "
                             "the button again."))
        return
    shown = ui.uploaded_file()
    what = (f"the columns chosen above are not in use (it holds {points.file} with coordinates "
            f"{_listed(points.coordinate_names)} and the reference '{next(iter(points.partitions))}')"
            if shown is not None and points.source[:1] == (shown["file_id"],)
            else f"it holds {points.file}, uploaded before" + (f", not {shown['name']}" if shown else ""))
    where = "The sidebar works on its 'Your data'" if used else "The sidebar's 'Your data' is kept"
    action = " Press 'Use these points in the app' to use the file shown here." if source is not None else ""
    st.warning(ui.plain(f"{where}, but {what}.{action}"))


def reset_choices(suggestion) -> None:
    """Show the new file's suggestions in every column widget (and forget the old file's choices)."""
    defaults = {"upload_mode": POINTS if suggestion.has_coordinates else LABELS,
                "upload_coordinates": suggestion.coordinates, "upload_labels": suggestion.labels,
                "upload_truth": suggestion.reference, "upload_pred": suggestion.candidate, "upload_noise": NO_NOISE}
    for key in CHOICES:
        st.session_state[key] = st.session_state[f"_kept_{key}"] = defaults[key]


def restore(key: str, options: list) -> None:
    """Before a column widget is drawn: bring back its value if Streamlit forgot it (a widget not
    drawn in the other mode loses its state), and keep only choices that are among `options`."""
    value = st.session_state[key] if key in st.session_state else st.session_state.get(f"_kept_{key}")
    if isinstance(value, list):
        value = [v for v in value if v in options]
    elif value not in options:
        value = options[0]
    st.session_state[key] = value


def keep(key: str, value):
    st.session_state[f"_kept_{key}"] = value
    return value


def noise_choice(frame, source: tuple, columns: list):
    """The label that marks noise in the chosen columns, as written (None: every label is a cluster)."""
    with ui.guarded("Reading the labels"):
        options = noise_options(frame, source, tuple(columns))
    restore("upload_noise", options)
    policy = ui.selection().noise
    noise = keep("upload_noise", st.selectbox(
        "Noise label", options, key="upload_noise", format_func=str,
        help="The label that marks noise in your label columns (for example -1 from DBSCAN or 0 in benchmark "
             f"files). The sidebar's noise policy then applies to it; it is now '{policy}'."))
    return None if noise == NO_NOISE else noise


def warn_continuous(summaries: dict, columns: list) -> None:
    """A continuous column is never taken as labels without a word."""
    for column in dict.fromkeys(columns):
        message = userdata.continuous_label_warning(summaries[column])
        if message:
            st.warning(ui.plain(message[:1].upper() + message[1:]))


st.title("Your data")
st.markdown("Upload a CSV file (UTF-8; a header row is recognised, and so are decimal commas) or a Parquet file, "
            "one row per object: either **points with label columns** (coordinates plus one or more partitions) or "
            "just **two label columns**. Delimiters `,` `;` tab `|` and space are recognised; labels are read as "
            "written (`01` and `1` are different clusters; only an empty field is missing); at most "
            f"{MAX_BYTES >> 20} MB.")

upload = st.file_uploader("CSV or Parquet file", type=["csv", "tsv", "txt", "parquet"], key="upload",
                          on_change=take_upload)
if upload is not None and (ui.uploaded_file() or {}).get("file_id") != upload.file_id:
    keep_file(upload)
file = ui.uploaded_file()
if file is None:
    in_use(None)
    st.info("No file yet. Example:\n\n```\nx,y,truth,kmeans\n0.1,0.3,cat,1\n0.2,0.1,cat,1\n5.0,4.8,dog,2\n```")
    st.stop()
name, file_id = file["name"], file["file_id"]
st.markdown(f"**File: {ui.plain(name)}** ({size_text(len(file['data']))})" +
            ("" if upload is not None else ", uploaded before: it stays here while you visit other pages. Upload "
                                           "another file above to replace it."))

with ui.guarded(f"Reading {name}"):
    table = read_upload(file["data"], name)
if st.session_state.get("_upload_file") != file_id:  # a new file: its own header choice
    st.session_state["_upload_file"] = file_id
    st.session_state["upload_header"] = st.session_state["_kept_upload_header"] = table.header
elif "upload_header" not in st.session_state:  # back from another page, which forgot the box
    st.session_state["upload_header"] = st.session_state.get("_kept_upload_header", table.header)
if table.delimiter is not None:
    header = keep("upload_header", st.checkbox(
        "The first row holds the column names", key="upload_header",
        help="Decided from the content: a first row of numbers over columns of numbers is data. Change it if the "
             "guess is wrong."))
    if header != table.header:
        with ui.guarded(f"Reading {name}"):
            table = read_upload(file["data"], name, header)
frame = table.frame
source = (file_id, table.header)
with ui.guarded("Examining the columns"):
    summaries, suggestion = summaries_of(frame, source)
if st.session_state.get("_upload_source") != source:  # a new file or header: its own column choices
    st.session_state["_upload_source"] = source
    reset_choices(suggestion)

notes = " ".join(table.notes)
if table.header and not table.decimal_comma:
    st.caption(ui.plain(notes))
else:
    st.info(ui.plain(notes))
st.dataframe(userdata.preview(frame), key="upload_preview")
label_like = [c for c in frame.columns if not summaries[c].continuous]
st.caption(f"{len(frame):,} rows, {frame.shape[1]} columns. Rows are numbered from 1 as in the messages (\"data row "
           "7\")" + (", the header row not counted." if table.header else ", from the file's first line.") + "  \n" +
           ui.plain("Numeric columns with many values (coordinates): " +
                    (", ".join(c for c in frame.columns if summaries[c].continuous) or "none") + ". Label columns: " +
                    (", ".join(f"{c} ({summaries[c].distinct:,} labels)" for c in label_like) or "none") + "."))

columns = list(frame.columns)
restore("upload_mode", [POINTS, LABELS])
mode = keep("upload_mode", st.radio("The file holds", [POINTS, LABELS], horizontal=True, key="upload_mode"))
if mode == "two label columns":
    left, right = st.columns(2)
    restore("upload_truth", columns)
    restore("upload_pred", columns)
    truth = keep("upload_truth", left.selectbox("Reference labels", columns, key="upload_truth"))
    pred = keep("upload_pred", right.selectbox("Candidate labels", columns, key="upload_pred"))
    noise = noise_choice(frame, source, [truth, pred])
    warn_continuous(summaries, [truth, pred])
    with ui.guarded("Comparing the two columns"):
        a, b = two_label_arrays(frame, source, truth, pred)
        model = data.comparison(a, b, None, ui.NOISE_OPTIONS[ui.selection().noise], noise)
    in_use(None)
    st.subheader(f"{ui.plain(truth)} vs {ui.plain(pred)}")
    views.headline(model.comparison)
    views.table_pairing_mapping(model, key="upload")
    scores = views.index_tables(model.comparison, key="upload")
    views.downloads(model, scores, {"data set": name, "reference": f"column {truth}",
                                    "candidate": f"column {pred}",
                                    "noise": "none" if noise is None else f"label {noise}: {ui.selection().noise}"},
                    key="upload")
    st.stop()

restore("upload_coordinates", columns)
coordinates = keep("upload_coordinates", st.multiselect("Coordinate columns", columns, key="upload_coordinates"))
rest = [c for c in columns if c not in coordinates] or columns
restore("upload_labels", rest)
labels = keep("upload_labels", st.multiselect("Reference label column(s): the first is the default reference", rest,
                                              key="upload_labels"))
if not coordinates or not labels:
    st.warning("Choose at least one coordinate column and one label column.")
    in_use(None)
    st.stop()
noise = noise_choice(frame, source, labels)
warn_continuous(summaries, labels)
with ui.guarded("Preparing your data"):
    points = user_points_from(frame, source, tuple(coordinates), tuple(labels), name, noise)
st.success(f"{len(points.X):,} points in {points.X.shape[1]} dimension(s), partitions: "
           f"{', '.join(ui.plain(name) for name in points.partitions)}.")


def use_it():
    st.session_state[data.USER_POINTS] = points
    st.session_state["dataset"] = ui.USER_DATA


st.button("Use these points in the app", on_click=use_it, type="primary", key="use_upload")
in_use(points.source)

"""A teaching page's own controls in the URL, with the browser's history, and the one way the
app changes the URL's query (:func:`change_query`: one change, one history entry).

A link or a reload shows the same view, and Back and Forward step through the changes one by
one. Streamlit's ``bind="query-params"`` would put a widget in the URL too, but it replaces the
browser's history entry on every change, so Back would leave the page instead of undoing the
change. Here the page writes its keys itself through ``st.query_params`` (one new history entry
per change) and, before drawing a control, takes the URL's value when the URL changed without
the page writing it: a link, a reload, Back or Forward.

Usage, for a control with key ``k`` drawn without a ``value=``/``index=``/``default=`` of its own::

    _page_url.take("k", options, default)        # before drawing it
    st.select_slider("…", options, key="k")
    _page_url.write({"k": value}, defaults, keys)  # after every control of the page is drawn
"""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

_SEEN = "_page_url_seen"  # URL key -> the text the page last read there or wrote (None: absent)


def text(value) -> str:
    """A value as the URL writes it."""
    return str(value)


def take(key: str, options, default, as_text=text) -> None:
    """Set control `key` from the URL when the URL is new to this page; a value not among `options` gives `default`.

    The control keeps its own value while the URL holds what the page last wrote or read, so a
    change the user makes is not undone by the URL before it is written there, unless it is no
    longer an option (a table with fewer claims). `as_text` is how the URL writes an option
    (default: :func:`text`).
    """
    seen = st.session_state.setdefault(_SEEN, {})
    written = st.query_params.get(key)
    current = st.session_state.get(key)
    if key in st.session_state and key in seen and seen[key] == written and (current is None or current in options):
        return
    by_text = {as_text(option): option for option in options}
    st.session_state[key] = by_text.get(written, default)
    seen[key] = written


def keep(key: str, value, default, as_text=text) -> None:
    """Write one control's value in the URL right after the control (absent when it is `default`):
    for controls drawn by shared views, whose page does not know them all. A change is one entry
    in the browser's history."""
    write({key: as_text(value)}, {key: as_text(default)}, (key,))


def write(values: dict, defaults: dict, keys) -> None:
    """Put the page's controls in the URL: each of `values` unless it is its default (then absent),
    every other key of `keys` removed (e.g. the slider of a scenario not shown). Other keys (the
    sidebar's) are left as they are. Written only when something changed: each write is a new
    entry in the browser's history."""
    wanted = {key: text(value) for key, value in values.items() if value != defaults[key]}
    seen = st.session_state.setdefault(_SEEN, {})
    seen.update({key: wanted.get(key) for key in keys})
    change_query(set(keys) - wanted.keys(), wanted)


def change_query(remove, values: dict) -> None:
    """Remove the keys `remove` from the URL's query and set `values`, the other keys left as they
    are, in one change (one entry in the browser's history), and only if something changes.

    In a run that Back or Forward started, Streamlit's browser side replaces the current entry
    instead of adding one: the URL is completed, the history kept.

    A key bound to a widget (``bind="query-params"``) may be neither set nor removed here: when
    the query holds one, the keys are changed one by one, the bound one left to its widget.
    """
    current = st.query_params.to_dict()
    wanted = {key: value for key, value in current.items() if key not in remove}
    wanted.update({key: str(value) for key, value in values.items()})
    if wanted == current:
        return
    try:
        st.query_params.from_dict(wanted)
    except StreamlitAPIException:  # a key bound to a widget is in the query
        for key in current.keys() - wanted.keys():
            try:
                del st.query_params[key]
            except StreamlitAPIException:  # bound: its widget's
                pass
        st.query_params.update({key: value for key, value in values.items() if current.get(key) != str(value)})

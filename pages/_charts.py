"""Every chart of the app is drawn here, so that each can be saved as PNG or SVG.

Plotly's camera button (top right of a chart, on hover) saves the chart in one format; the frame's
sidebar offers the choice (:func:`format_control`) and :func:`chart` draws every figure with it,
named after the chart (``cluval_<key>.png``).
"""

from __future__ import annotations

import streamlit as st

FORMATS = {"PNG": "png", "SVG": "svg"}
FORMAT_KEY = "chart_format"  # the sidebar's choice, kept across pages (declared in the frame)
DEFAULT_FORMAT = "PNG"
PNG_SCALE = 2  # a saved PNG has twice the on-screen resolution: sharp on slides and in print


def config(key: str) -> dict:
    """Plotly's configuration for the chart `key`: its camera button saves in the chosen format."""
    chosen = FORMATS[st.session_state.get(FORMAT_KEY) or DEFAULT_FORMAT]
    return {"displaylogo": False,
            "toImageButtonOptions": {"format": chosen, "filename": f"cluval_{key}",
                                     "scale": PNG_SCALE if chosen == "png" else 1}}


def chart(figure, *, key: str, into=None, **options):
    """Draw `figure` (st.plotly_chart's options pass through) with the save button's format, in
    the container `into` (a placeholder or a column; default: where the page is)."""
    return (into or st).plotly_chart(figure, key=key, config=config(key), **options)


def format_control() -> None:
    """The sidebar's choice of format for saved charts (drawn by the frame on every page)."""
    st.sidebar.segmented_control(
        "Save charts as", list(FORMATS), default=DEFAULT_FORMAT, key=FORMAT_KEY,
        help="Hover over a chart and click its camera icon (top right) to save it in this format: PNG for "
             "slides and documents, SVG to edit or scale without loss.")

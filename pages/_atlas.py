"""The property atlas's counterexamples, drawn where the atlas page and Build a table show them.

A counterexample opens in Build a table through its link: ``build_table?table=...&atlas=index:property:k``,
the k-th comparison of the case (counted from 0) in the editor and the atlas's note beside it.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from cluval_core import INDICES, CluvalError
from cluval_core.data.presets import table_to_text
from cluval_core.indices.properties import PROPERTIES, Counterexample, counterexample
from cluval_core.outputs.export import format_value
from pages import _shared as ui

URL_ATLAS = "atlas"


def link(example: Counterexample, k: int) -> str:
    """The address of Build a table showing the case's comparison k, with the atlas's note."""
    table = example.tables()[k][1]
    return "build_table?" + urlencode({"table": table_to_text(table),
                                       URL_ATLAS: f"{example.index}:{example.property}:{k}"})


def from_link(value: str) -> tuple[Counterexample, int]:
    """The counterexample and comparison a link's ``atlas`` value names; a CluvalError says what is wrong."""
    parts = str(value).split(":")
    if len(parts) != 3 or not re.fullmatch(r"[0-9]{1,3}", parts[2]):
        raise CluvalError(f"{str(value)[:60]!r} is not index:property:table")
    index, prop, k = parts[0], parts[1], int(parts[2])
    example = counterexample(index, prop)
    if example is None:
        raise CluvalError(f"the atlas keeps no counterexample of {index} to {prop}")
    if k >= len(example.captions):
        raise CluvalError(f"that counterexample has {len(example.captions)} tables, not {k + 1}")
    return example, k


def show(example: Counterexample, current: int | None = None, *, key: str) -> None:
    """The counterexample in two columns: what it shows and its partitions; each of its tables with the
    index's value there and a link that opens it in Build a table (`current`: the one shown there)."""
    info, prop = INDICES[example.index], PROPERTIES[example.property]
    what, tables = st.columns([3, 2], gap="medium")
    with what:
        st.markdown(f"**{ui.plain(info.name)} fails {ui.plain(prop.name.lower())}.** {ui.plain(example.sentence())}")
        parts = pd.DataFrame({"clusters of the objects": [" ".join(str(v + 1) for v in labels)
                                                          for labels in example.case]}, index=list(prop.parts))
        st.dataframe(parts, key=f"{key}_parts")
        st.caption(f"The case: {example.objects} objects; each partition lists every object's cluster (numbered "
                   "from 1), objects in the same order.")
        if info.needs_data:
            st.caption(f"{ui.plain(info.name)} reads the objects' coordinates, which a table does not hold: its "
                       "values here were computed with the case's points; Build a table leaves it out.")
    with tables:
        st.markdown(f"**Its tables**, {ui.plain(info.name)}'s value on each:")
        st.markdown("\n".join(
            f"{k + 1}. {ui.plain(caption)}: **{format_value(example.index, value)}**"
            + (" (the table shown)" if k == current else f" ([open in Build a table ↗]({link(example, k)}))")
            for k, (caption, _, value) in enumerate(example.tables())))

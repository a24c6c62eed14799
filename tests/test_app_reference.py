"""The Index reference page in AppTest: every index with every registry fact, and the search."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cluval_core import FAMILIES, INDICES
from pages import _shared as ui

APP = str(Path(__file__).resolve().parents[1] / "app.py")
pytestmark = pytest.mark.slow
LABEL = re.compile(r"^(?P<name>.+) \(`(?P<id>[a-z_]+)`\)$")


@pytest.fixture(scope="module")
def page():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("pages/index_reference.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Index reference"
    return at


def _search(at, query: str):
    at.text_input(key="reference_filter").set_value(query).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _listed(at) -> list[str]:
    """The index ids of the entries shown, in order, read from their labels."""
    ids = []
    for expander in at.expander:
        match = LABEL.match(expander.label)
        assert match, expander.label
        assert match["name"] == INDICES[match["id"]].name
        ids.append(match["id"])
    return ids


def test_every_index_is_listed_once_under_its_family(page):
    _search(page, "")
    assert _listed(page) == list(INDICES)
    assert [h.value for h in page.header] == list(FAMILIES.values())
    assert not page.info


def test_each_entry_shows_every_fact_of_its_registry_entry(page):
    _search(page, "")
    for expander, (index_id, info) in zip(page.expander, INDICES.items(), strict=True):
        assert [e.value for e in expander.get("latex")] == [f"$$\n{info.formula}\n$$"]  # st.latex's Markdown
        assert [e.value for e in expander.code] == [info.call], index_id
        text = " ".join(e.value for e in expander.markdown)
        (line,) = [e.value for e in expander.markdown if " · " in e.value]  # the facts, one line
        facts = {
            "corrected for chance": info.chance_adjusted, "needs the data X": info.needs_data,
            "not symmetric": not info.symmetric, "not defined on soft tables": not info.soft,
            "whole numbers": info.integer_valued, "depends on the tie order": info.tie_dependent,
            "lower is better": not info.higher_is_better, info.kind.capitalize(): True,
        }
        for phrase, present in facts.items():
            shown = re.search(rf"(?<!not ){re.escape(phrase)}", line) is not None
            assert shown == present, (index_id, phrase)
        assert ui.plain(info.caveat) in text
        assert (ui.plain(info.symbols) in text) if info.symbols else "Symbols." not in text
        assert [c.value for c in expander.caption] == [f"Reference: {ui.plain(info.reference)}"]


def test_psi_defines_e_where_it_is_used(page):
    _search(page, "psi")
    psi = page.expander[0]
    assert LABEL.match(psi.label)["id"] == "psi"
    formula = psi.get("latex")[0].value
    assert "E = " in formula and r"\max(K_a,K_b) - E" in formula
    text = " ".join(e.value for e in psi.markdown)
    assert "E is the S expected by chance" in text and "largest reference cluster paired with the largest" in text


@pytest.mark.parametrize("query, expected", [
    ("ari", ["ari"]), ("ARI", ["ari"]), ("Rand", ["ri", "ari"]), ("psi", ["psi", "psi_simplified"]),
    ("centroid", ["ci_partition", "csi_partition", "ci_centroid", "csi_centroid", "cr"]),
    ("chance", ["ari", "afm", "ami", "aaa", "psi"]), ("nmi_max", ["nmi_max"]),
])
def test_search_finds_what_a_user_expects(page, query, expected):
    _search(page, query)
    assert _listed(page) == expected
    assert all(e.proto.expanded for e in page.expander)  # results open
    assert not page.info


@pytest.mark.parametrize("query", ["no such index", "**bold** <b>x</b> [a](http://x.org)"])
def test_an_empty_result_says_so_and_shows_the_query_literally(page, query):
    _search(page, query)
    assert not page.expander and not page.header
    assert len(page.info) == 1
    message = page.info[0].value
    assert message.startswith(f"No index matches “{ui.plain(query)}”.")
    _search(page, "")
    assert len(page.expander) == len(INDICES)

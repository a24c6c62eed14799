"""The Index reference page in AppTest: every index with every registry fact, and the search."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from apptools import APP
from cluval_core import FAMILIES, INDICES, index_table
from cluval_core.indices import find_indices
from cluval_core.indices.peers import PEERS, RELATIONS, peer_names
from pages import _shared as ui

pytestmark = pytest.mark.slow
LABEL = re.compile(r"^(?P<name>.+) \(`(?P<id>[a-z0-9_]+)`\)$")


@pytest.fixture(scope="module")
def page():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("index_reference.py").run()
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
        assert (f"**Symbols.** {info.symbols}" in text) if info.symbols else "Symbols." not in text
        assert [c.value for c in expander.caption] == [f"Reference: {ui.plain(info.reference)}"]


def test_psi_defines_e_where_it_is_used(page):
    _search(page, "psi")
    psi = page.expander[0]
    assert LABEL.match(psi.label)["id"] == "psi"
    formula = psi.get("latex")[0].value
    assert "E = " in formula and r"\max(K_a,K_b) - E" in formula
    text = " ".join(e.value for e in psi.markdown)
    assert "$E$ is the $S$ expected by chance" in text and "largest reference cluster paired with the largest" in text


@pytest.mark.parametrize("query, expected", [
    ("ari", ["ari"]), ("ARI", ["ari"]), ("Rand", ["ri", "ari", "sri", "pmi2", "mari"]),
    ("psi", ["psi", "psi_simplified"]),
    ("centroid", ["ci_partition", "csi_partition", "ci_centroid", "csi_centroid", "cr"]),
    ("chance", ["ari", "sri", "pmi2", "afm", "mari", "pair_correlation", "ami", "ami_sqrt", "ami_max", "ami_min",
                "rmi", "rmi_flat", "nrmi", "smi", "atmi", "aaa", "psi"]),
    ("nmi_max", ["nmi_max"]),
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


# ---------------------------------------------------------------------- the index in the other tools

NO_BREAK = str.maketrans({"\u2011": "-", "\u00a0": " "})
INTRO = "**In other tools.**"


def _other_tools(expander):
    """The entry's "In other tools" sentence and its table (None when no tool has the index)."""
    (intro,) = [m.value for m in expander.markdown if m.value.startswith(INTRO)]
    tables = expander.get("table")
    assert len(tables) <= 1
    return intro, (tables[0].value if tables else None)


def test_each_entry_shows_the_index_in_every_other_tool(page):
    _search(page, "")
    for expander, index_id in zip(page.expander, INDICES, strict=True):
        rows = peer_names(index_id)
        said = rows[(rows["call"] != "") | (rows["note"] != "")]
        missing = rows.loc[(rows["call"] == "") & (rows["note"] == ""), "tool"].tolist()
        intro, table = _other_tools(expander)
        assert (f"Not in {', '.join(missing)}." in intro) == bool(missing), (index_id, intro)
        assert "at the end of the page" in intro
        if said.empty:
            assert table is None, index_id
            continue
        assert table.columns.tolist() == ["Tool", "Call", "Value", "Difference in convention"]
        assert [tool.translate(NO_BREAK) for tool in table["Tool"]] == said["tool"].tolist(), index_id
        assert table["Call"].tolist() == [f"`{call}`" if call else "—" for call in said["call"]]
        assert [value.translate(NO_BREAK) for value in table["Value"]] == said["value"].tolist()
        assert table["Difference in convention"].tolist() == said["note"].tolist()
        assert set(table["Value"].str.translate(NO_BREAK)) <= set(RELATIONS.values())


@pytest.mark.parametrize("query, tool, call, value, words", [
    ("ari", "scikit-learn", "`sklearn.metrics.adjusted_rand_score(labels_true, labels_pred)`", "same value", ""),
    ("nvi", "aricode", "`aricode::NVI(c1, c2)`", "differs", "1 − MI/H(joint)"),
    ("nvi", "UEF tools", "`cbevi -N2 reference.pa candidate.pa`", "same value", "VI/(H1 + H2)"),
    ("aaa", "genieclust", "`genieclust.compare_partitions.normalized_clustering_accuracy(x, y)`", "same value",
     "normalised clustering accuracy"),
    ("psi", "ELKI", "`t.getPairSetsIndex().psi()`", "differs", "smallest sizes with the smallest"),
    ("mi", "clusim", "`clusim.sim.mi(c_true, c_pred)`", "other units", "In bits"),
])
def test_a_searched_index_shows_what_the_other_tools_call_it(page, query, tool, call, value, words):
    _search(page, query)
    expander = page.expander[0]
    assert LABEL.match(expander.label)["id"] == query
    _, table = _other_tools(expander)
    rows = table.assign(Tool=table["Tool"].str.translate(NO_BREAK)).set_index("Tool")
    assert rows.loc[tool, "Call"] == call
    assert rows.loc[tool, "Value"].translate(NO_BREAK) == value
    assert words in rows.loc[tool, "Difference in convention"]


def test_an_index_no_other_tool_has_names_them_all_and_shows_no_table(page):
    _search(page, "fnmi")
    intro, table = _other_tools(page.expander[0])
    assert table is None
    assert intro.startswith(f"{INTRO} Not in {', '.join(peer.name for peer in PEERS.values())}.")


def test_the_end_of_the_page_has_each_tools_general_conventions(page):
    _search(page, "no such index")  # shown whatever the search finds
    assert [s.value for s in page.subheader] == ["The other tools"]
    assert [tab.label for tab in page.tabs] == [peer.name for peer in PEERS.values()]
    for tab, peer in zip(page.tabs, PEERS.values(), strict=True):
        first, notes = (m.value for m in tab.markdown)
        assert first.startswith(f"**{peer.name}**, {peer.language}: {peer.version}; {peer.checked}")
        assert notes == "\n".join(f"- {note}" for note in peer.conventions)
    _search(page, "")


def test_the_overview_table_is_the_registry_filtered_by_the_search():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("index_reference.py").run()
    overview = next(d for d in at.dataframe if "id" in d.value.columns).value
    assert overview["id"].tolist() == index_table()["id"].tolist() == list(INDICES)
    assert dict(zip(overview["id"], overview["symmetric"])) == {
        i: "yes" if info.symmetric else "no" for i, info in INDICES.items()}  # written out
    _search(at, "centroid")
    filtered = next(d for d in at.dataframe if "id" in d.value.columns).value
    assert filtered["id"].tolist() == [i.id for i in find_indices("centroid")]
    assert any("$n_{ij}$" in c.value for c in at.caption)  # the notation is mathematics, not raw text
@pytest.mark.parametrize("index_id", [i for i, info in INDICES.items() if info.symbols])
def test_symbols_write_their_mathematics_as_latex(index_id):
    """The registry's notes on symbols put every symbol between dollar signs, as LaTeX the page renders:
    no subscript written as plain text (n_ij), no Unicode stand-in for LaTeX (Σ, −, ₁, ², ′)."""
    symbols = INDICES[index_id].symbols
    assert symbols.count("$") % 2 == 0, symbols
    prose = "".join(symbols.split("$")[::2])  # the text outside the mathematics
    assert not re.search(r"\b[A-Za-z]{1,2}_[A-Za-z0-9]|[Σ−₁₂₃²′→≥Ωσ]|\\[a-z]+", prose), (index_id, prose)

"""What Compare and Build a table say in words: why the headline values differ (claims from
``cluval_core.outputs.explain``, each outlined on the table when chosen) and how any index is
computed with this table's numbers (``Comparison.steps``).

Both choices are in the URL (``claim`` and ``index`` on Compare, ``build_claim`` and ``build_index``
on Build a table: each page's own names, so that neither inherits the other's), and a link shows
the same view.
"""

from __future__ import annotations

import streamlit as st

from cluval_core import INDICES
from cluval_core.outputs.explain import outline as claim_outline
from cluval_core.outputs.export import format_value
from pages import _cache as data
from pages import _page_url
from pages import _shared as ui

DEFAULT_INDEX = "ari"


def _keys(page: str) -> tuple[str, str]:
    """The claim's and the index's widget keys on `page` ("compare" or "build"): the URL's names."""
    return ("claim", "index") if page == "compare" else (f"{page}_claim", f"{page}_index")


def chosen_outline(model, page: str) -> tuple:
    """The cells of the claim chosen below the table, for the table above it (drawn first).

    The claim's control is drawn after the table, so its value is taken here: from the URL when
    it is new to the page (a link, Back), else the control's own.
    """
    claims = data.explanation(model).claims
    claim = _keys(page)[0]
    _page_url.take(claim, _numbers(claims), "1")
    chosen = st.session_state.get(claim) or "1"
    return claim_outline(claims[int(chosen) - 1]) if claims else ()


def _numbers(claims) -> list[str]:
    return [str(number) for number in range(1, len(claims) + 1)]


# Side by side where both have room, one above the other on a narrower screen; a formula wider than
# its column scrolls instead of being cut.
SIDE_BY_SIDE = """<style>
.st-key-{key} [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
.st-key-{key} [data-testid="stColumn"] {{ min-width: 560px; }}
.st-key-{key} .katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 0.2em 0; }}
</style>"""


def why_and_how(model, page: str) -> None:
    """Why these values differ (left) and how an index is computed (right) on `page`."""
    claim, index = _keys(page)
    st.html(SIDE_BY_SIDE.format(key=f"{page}_why_and_how"))
    with st.container(key=f"{page}_why_and_how"):
        why, how = st.columns([1, 1], gap="large")
        with why:
            why_these_differ(model, claim)
        with how:
            computation(model.comparison, index)


def why_these_differ(model, key: str) -> None:
    """The explanation's claims, numbered; the chosen claim's cells are outlined on the table."""
    explanation = data.explanation(model)
    st.subheader("Why these values differ")
    numbers = _numbers(explanation.claims)
    _page_url.take(key, numbers, "1")  # as chosen_outline did, for a page that draws no table
    chosen = st.segmented_control(
        "Outline on the table", numbers, key=key,
        help="Each statement is computed from this table: the cluster sizes, the cells' shares of each index, the "
             "Hungarian pairing and the CI mapping. The chosen one's cells or clusters are outlined (dotted amber) "
             "on the contingency table.") or "1"
    _page_url.keep(key, chosen, "1")
    st.markdown("\n".join(f"{number}. " + (f"**{ui.plain(claim.text)}**" if number == chosen
                                             else ui.plain(claim.text))
                          for number, claim in zip(numbers, explanation.claims)))
    st.caption("ARI counts pairs of objects, NMI, AMI and NVD count objects, PSI and CI count clusters: the "
               "statements say which clusters and cells weigh for each. The outlined statement is in bold.")


def _name(index_id: str) -> str:
    return INDICES[index_id].name


def computation(c, key: str) -> None:
    """Any index's computation in steps, with this table's numbers, its formula and its reference."""
    st.subheader("How an index is computed")
    ids = [i for i, info in INDICES.items() if c.has_data or not info.needs_data]
    _page_url.take(key, ids, DEFAULT_INDEX, as_text=_name)  # the name is what the URL holds
    index_id = st.selectbox("Index", ids, key=key, format_func=_name)
    _page_url.keep(key, index_id, DEFAULT_INDEX, as_text=_name)
    info = INDICES[index_id]
    st.latex(info.formula)
    with ui.guarded(f"Computing {info.name} in steps", stop=False):
        steps = c.steps(index_id)
        st.markdown("  \n".join(ui.plain(str(step)) for step in steps))
        st.caption(ui.plain(f"The last step is the value on this page: {format_value(index_id, steps.value)}. "
                            f"{info.reference}. {info.caveat}"))

"""User strings for the app's Markdown and figures: every label, column name, file name or
message that quotes them goes through :func:`plain` (Markdown) or :func:`plot_text` (plotly)."""

from __future__ import annotations

import html
import re

# The ASCII punctuation that Markdown, LaTeX, HTML or Streamlit's directives give a meaning to:
# all of it but quotes, comma, semicolon, question mark, percent sign and slash.
_MARKDOWN_PUNCTUATION = re.compile(r"([!#$&()*+\-.:<=>@\[\\\]^_`{|}~])")
# GitHub's "autolink literals" (http://..., www...., a@b.c) are found in the text after escapes
# are resolved: an invisible word joiner after the scheme, "www" or "@" keeps them plain text.
_AUTOLINK_START = re.compile(r"(https?(?=:)|www(?=\.)|@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def plain(text) -> str:
    """`text` for Markdown that shows it literally: every user string goes through this.

    Column names, labels, file names and messages that quote them are rendered by st.markdown,
    st.caption, st.error, headers, ... as GitHub-flavoured Markdown with LaTeX and raw HTML. A
    backslash before every ASCII punctuation character that could start one (CommonMark shows an
    escaped punctuation character as itself) leaves no link, image, emphasis, code, math, HTML,
    table or directive syntax: ``**b**`` becomes ``\\*\\*b\\*\\*``. A word joiner (invisible)
    after ``http``, ``www`` and ``@`` stops bare addresses from becoming links. Line breaks become
    spaces, so that no block can start.
    """
    text = _AUTOLINK_START.sub(r"\1" + WORD_JOINER, " ".join(str(text).splitlines()))
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def plot_text(text) -> str:
    """`text` for a plotly title or label, which reads a few HTML tags (<a>, <b>, ...) and entities."""
    return html.escape(str(text), quote=False)

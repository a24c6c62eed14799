"""The index reference, written from cluval's registry when the site is built.

Every fact on a family page comes from :data:`cluval_core.INDICES` (an :class:`~cluval_core.IndexInfo`
per index) and from the family's module, so the pages cannot drift from the code:

``.. cluval-family:: pair_counting``
    One family's page: its title (:data:`cluval_core.FAMILIES`), its module's docstring (the
    family's mathematics in words), a table of its indices, then for every index, in registry
    order, its name and id, its formula as math, its symbols, its range, best value and
    direction, its properties, its public call, its reference and its caveat; and last the
    family's one-line functions (autodoc).
``.. cluval-index-table::``
    One table of every index: id (linked to its section), name, family, range and best value.
``.. cluval-index-list:: exact_expectation``
    The ids of the indices for which a property of :class:`~cluval_core.IndexInfo` is true
    (``:false:`` for those where it is false), each linked to its section.
``.. cluval-functions::``
    A summary table of every one-line function, linked to its family page.
``.. cluval-atlas::``
    The property atlas (:mod:`cluval_core.indices.properties`): for every property, its name,
    source and definition, and the indices in each state (proved, with the proof's source;
    holds on every case tried; fails), each linked to its section.
"""

from __future__ import annotations

import math

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

import cluval_core
from cluval_core import FAMILIES, INDICES
from cluval_core.indices import FAMILY_MODULES, FUNCTIONS

# The properties a page lists, in order: (IndexInfo attribute, what it says when true).
PROPERTIES = (
    ("chance_adjusted", "Chance adjusted", "corrected for chance"),
    ("symmetric", "Symmetric", "unchanged when the two partitions swap"),
    ("needs_data", "Needs X", "needs the objects' coordinates: compare(..., X=X)"),
    ("soft", "Soft tables", "meaningful on a real-valued table (soft memberships, real weights)"),
    ("tie_dependent", "Tie dependent", "reads a greedy pairing or a nearest-cluster mapping, so the tie rule "
                                       "can decide its value"),
    ("exact_expectation", "Exact expectation", "chance() gives its expected value in closed form"),
    ("anatomy", "Anatomy of cells", "contributions() splits it over the table's cells"),
)


def index_label(index_id: str) -> str:
    """The reference label of an index's section: ``:ref:`index-ari```."""
    return f"index-{index_id}"


def family_document(family: str) -> str:
    """The page of a family, relative to the source folder."""
    return f"families/{family}"


def number(value: float) -> str:
    """A range end or best value as a reader writes it: 1, 0.5, −∞."""
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    return f"{value:g}".replace("-", "−")


def written_range(low: float, high: float) -> str:
    """The interval, closed at finite ends and open at infinite ones."""
    return f"{'(' if math.isinf(low) else '['}{number(low)}, {number(high)}{')' if math.isinf(high) else ']'}"


def family_module(family: str):
    for module in FAMILY_MODULES:
        if module.FAMILY == family:
            return module
    raise KeyError(family)


def paragraph(*children) -> nodes.paragraph:
    return nodes.paragraph("", "", *[nodes.Text(c) if isinstance(c, str) else c for c in children])


def with_math(text: str) -> list:
    """Registry text with its mathematics between dollar signs, as text and inline math nodes."""
    parts = text.split("$")
    return [nodes.math(part, part) if odd else nodes.Text(part)
            for odd, part in ((i % 2 == 1, part) for i, part in enumerate(parts)) if part]


def field(name: str, *body) -> nodes.field:
    return nodes.field("", nodes.field_name(name, name), nodes.field_body("", *body))


class RegistryDirective(SphinxDirective):
    """What the directives share: reading the registry, parsing generated reST, linking an index."""

    def note_sources(self) -> None:
        """Rebuild the page when the registry or a family module changes."""
        from cluval_core.core import registry

        for module in (registry, *FAMILY_MODULES):
            self.env.note_dependency(module.__file__)

    def parse(self, lines, parent: nodes.Element) -> None:
        """Parse generated reST lines into `parent` (autodoc, math, cross-references)."""
        content = StringList()
        source = f"<registry: {self.env.docname}>"
        for k, line in enumerate(lines):
            content.append(line, source, k)
        self.state.nested_parse(content, self.content_offset, parent)

    def index_reference(self, index_id: str) -> nodes.Node:
        """A link to the index's section on its family page, showing its id as code."""
        from sphinx import addnodes

        reference = addnodes.pending_xref("", refdomain="std", reftype="ref", reftarget=index_label(index_id),
                                          refexplicit=True, refwarn=True)
        reference += nodes.literal(index_id, index_id)
        return reference


class FamilyDirective(RegistryDirective):
    """``.. cluval-family:: <family key>``: one family's page, from the registry."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        family = self.arguments[0]
        if family not in FAMILIES:
            raise self.error(f"unknown family {family!r}; the families are {', '.join(FAMILIES)}")
        self.note_sources()
        module = family_module(family)
        entries = [info for info in INDICES.values() if info.family == family]

        page = self.section(FAMILIES[family], f"family-{family}")
        page += paragraph(f"The {len(entries)} indices of this family, in the registry's order. This page is "
                          "written from ", nodes.literal("cluval_core.INDICES", "cluval_core.INDICES"),
                          " and from the family's module when the site is built.")
        page += self.summary(entries)

        words = self.section("The family's mathematics", f"family-{family}-notes")
        self.parse([f".. automodule:: {module.__name__}", "   :no-members:"], words)
        page += words

        for info in entries:
            page += self.index_section(info)

        functions = self.section("One-line functions", f"family-{family}-functions")
        functions += paragraph("Each takes the two partitions' labels and returns a float; the calls above "
                               "select an index with their keyword options.")
        self.parse([line for name in module.__all__ for line in (f".. autofunction:: cluval_core.{name}", "")],
                   functions)
        page += functions
        return [page]

    def section(self, title: str, label: str, *title_nodes) -> nodes.section:
        """A section with a title and a label that :ref: can name."""
        section = nodes.section()
        section["names"].append(label)
        section += nodes.title(title, "", *(title_nodes or [nodes.Text(title)]))
        self.state.document.note_explicit_target(section, section)
        return section

    def summary(self, entries) -> nodes.table:
        header = ("Id", "Name", "Range", "Best")
        rows = [(self.index_reference(info.id), nodes.Text(info.name),
                 nodes.Text(written_range(*info.range)), nodes.Text(f"{number(info.best)} ({info.kind})"))
                for info in entries]
        return table(header, rows, widths=(3, 6, 3, 3))

    def index_section(self, info) -> nodes.section:
        section = self.section(info.name, index_label(info.id), nodes.Text(f"{info.name} ("),
                               nodes.literal(info.id, info.id), nodes.Text(")"))
        self.parse([".. math::", "", *("   " + line for line in info.formula.splitlines())], section)
        if info.symbols:
            section += paragraph(*with_math(info.symbols))
        fields = nodes.field_list()
        data = ", X=X" if info.needs_data else ""
        score = f'compare(labels_true, labels_pred{data}).score("{info.id}")'
        fields += field("Id", paragraph(nodes.literal(info.id, info.id), ", as in ", nodes.literal(score, score)))
        fields += field("Family", paragraph(FAMILIES[info.family]))
        direction = "higher is better" if info.higher_is_better else "lower is better"
        values = "whole numbers in " if info.integer_valued else ""
        fields += field("Range", paragraph(f"{values}{written_range(*info.range)}"))
        fields += field("Best value", paragraph(f"{number(info.best)}: a {info.kind}, {direction}"))
        for attribute, name, meaning in PROPERTIES:
            value = bool(getattr(info, attribute))
            fields += field(name, paragraph(f"yes: {meaning}" if value else "no"))
        call = nodes.paragraph()
        self.parse([f"``{info.call}`` (:func:`cluval_core.{info.function.__name__}`)"], call)
        fields += field("Call", *call.children)
        fields += field("Reference", paragraph(info.reference))
        fields += field("Caveat", paragraph(info.caveat))
        section += fields
        return section


def table(header, rows, widths) -> nodes.table:
    """A docutils table of text or inline nodes."""
    group = nodes.tgroup(cols=len(header))
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *[nodes.entry("", paragraph(name)) for name in header])
    group += head
    body = nodes.tbody()
    for cells in rows:
        body += nodes.row("", *[nodes.entry("", paragraph(cell)) for cell in cells])
    group += body
    result = nodes.table()
    result += group
    return result


class IndexTableDirective(RegistryDirective):
    """``.. cluval-index-table::``: every index with its family, range and best value."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_sources()
        header = ("Id", "Name", "Family", "Range", "Best")
        rows = [(self.index_reference(info.id), nodes.Text(info.name), self.family_reference(info.family),
                 nodes.Text(written_range(*info.range)), nodes.Text(f"{number(info.best)} ({info.kind})"))
                for info in INDICES.values()]
        return [table(header, rows, widths=(3, 6, 5, 3, 3))]

    def family_reference(self, family: str) -> nodes.Node:
        from sphinx import addnodes

        reference = addnodes.pending_xref("", refdomain="std", reftype="doc",
                                          reftarget="/" + family_document(family), refexplicit=True, refwarn=True)
        reference += nodes.inline(FAMILIES[family], FAMILIES[family])
        return reference


class IndexListDirective(RegistryDirective):
    """``.. cluval-index-list:: <IndexInfo property>``: the ids for which it holds (``:false:``, does not)."""

    required_arguments = 1
    has_content = False
    option_spec = {"false": directives.flag}

    def run(self) -> list[nodes.Node]:
        attribute = self.arguments[0]
        known = {name for name, _, _ in PROPERTIES} | {"higher_is_better", "integer_valued"}
        if attribute not in known:
            raise self.error(f"unknown property {attribute!r}; the properties are {', '.join(sorted(known))}")
        self.note_sources()
        wanted = "false" not in self.options
        ids = [info.id for info in INDICES.values() if bool(getattr(info, attribute)) == wanted]
        result = nodes.paragraph()
        for k, index_id in enumerate(ids):
            if k:
                result += nodes.Text(", ")
            result += self.index_reference(index_id)
        result += nodes.Text(f" ({len(ids)} of {len(INDICES)}).")
        return [result]


class FunctionsDirective(RegistryDirective):
    """``.. cluval-functions::``: a summary table of every one-line function."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_sources()
        container = nodes.container()
        self.parse([".. autosummary::", "   :nosignatures:", "", *(f"   cluval_core.{name}" for name in FUNCTIONS)],
                   container)
        return container.children


class AtlasDirective(RegistryDirective):
    """``.. cluval-atlas::``: every property, its definition and the indices in each state."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from cluval_core.indices import properties

        self.note_sources()
        self.env.note_dependency(properties.__file__)
        self.env.note_dependency(str(properties.ATLAS_FILE))
        frame = properties.atlas()
        result = []
        for prop in properties.PROPERTIES.values():
            section = nodes.section()
            section["names"].append(f"property-{prop.id}")
            section += nodes.title(prop.name, f"{prop.name} ({properties.SHORT[prop.id]})")
            self.state.document.note_explicit_target(section, section)
            section += paragraph(prop.definition)
            section += paragraph(nodes.emphasis("", "Source: "), nodes.Text(prop.source))
            rows = frame[frame["property"] == prop.id]
            fields = nodes.field_list()
            for state, name in (("proved", "Proved"), ("holds", "Holds on every case tried"), ("fails", "Fails")):
                ids = rows.loc[rows["state"] == state, "index"].tolist()
                body = nodes.paragraph()
                for k, index_id in enumerate(ids):
                    if k:
                        body += nodes.Text(", ")
                    body += self.index_reference(index_id)
                body += nodes.Text(f" ({len(ids)} of {len(rows)})" if ids else "none")
                fields += field(name, body)
            section += fields
            result.append(section)
        return result


def setup(app):
    app.add_directive("cluval-family", FamilyDirective)
    app.add_directive("cluval-index-table", IndexTableDirective)
    app.add_directive("cluval-index-list", IndexListDirective)
    app.add_directive("cluval-functions", FunctionsDirective)
    app.add_directive("cluval-atlas", AtlasDirective)
    return {"version": cluval_core.__version__, "parallel_read_safe": True, "parallel_write_safe": True}


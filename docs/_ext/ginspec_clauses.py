"""Sphinx extension: the ``gs`` domain, so that clause IDs are links, index entries and search results.

- ``{gs:clause} ID`` (directive) marks where a clause is defined: an anchor named by the ID, an entry
  in the general index, and an object in the search index. The generated rules pages use it.
- ``{gs:clause}`ID``` (role) links to a clause; ``{gs:case}`ID``` to a conformance case.
- Every clause ID of the spec (and every case ID of the committed suite) written as plain text
  anywhere on the site — rules, casebook, guides, peer pages, reports — becomes such a link by a
  transform, so no page has to be written with the role. Code blocks are left as they are.
tests/test_clause_links.py checks the built site.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, ClassVar

from docutils import nodes
from docutils.nodes import Element, Node
from sphinx import addnodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

CASES_DOC = "gen/cases"
CLAUSE_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_.-])[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+")
CASE_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_./-])[a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+")
SKIP_INSIDE = (nodes.reference, pending_xref, nodes.literal_block, nodes.raw, nodes.title, nodes.target,
               addnodes.toctree, nodes.comment, addnodes.index)


@cache
def clause_ids() -> frozenset[str]:
    from ginspec.spec.clauses import registry

    return frozenset(c.id for c in registry())


@cache
def case_ids() -> frozenset[str]:
    try:
        from ginspec.conformance.docs_index import case_rows
    except ImportError:
        return frozenset()
    return frozenset(row[0] for row in case_rows())


class ClauseDirective(SphinxDirective):
    """``{gs:clause} ID``: the anchor, index entry and search-index object of one clause."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[Node]:
        clause_id = self.arguments[0].strip()
        if clause_id not in clause_ids():
            raise self.error(f"{clause_id}: no such clause in the spec")
        target = nodes.target("", "", ids=[clause_id])
        index = addnodes.index(entries=[
            ("single", f"{clause_id} (clause)", clause_id, "", None),
            ("single", f"clause; {clause_id}", clause_id, "", None),
        ])
        domain: GinspecDomain = self.env.get_domain("gs")  # type: ignore[assignment]
        domain.note_clause(clause_id, self.env.docname)
        return [index, target]


class GinspecDomain(Domain):
    """Clauses of the spec and cases of the suite as cross-reference targets."""

    name = "gs"
    label = "ginspec"
    object_types: ClassVar[dict[str, ObjType]] = {
        "clause": ObjType("clause", "clause"),
        "case": ObjType("case", "case"),
    }
    directives: ClassVar[dict[str, Any]] = {"clause": ClauseDirective}
    roles: ClassVar[dict[str, Any]] = {
        "clause": XRefRole(warn_dangling=True),
        "case": XRefRole(warn_dangling=True),
    }
    initial_data: ClassVar[dict[str, Any]] = {"clauses": {}}

    @property
    def clauses(self) -> dict[str, str]:
        """Clause ID -> the document that defines it."""
        return self.data.setdefault("clauses", {})  # type: ignore[no-any-return]

    def note_clause(self, clause_id: str, docname: str) -> None:
        self.clauses[clause_id] = docname

    def clear_doc(self, docname: str) -> None:
        for cid, doc in list(self.clauses.items()):
            if doc == docname:
                del self.clauses[cid]

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        wanted = set(docnames)
        for cid, doc in otherdata.get("clauses", {}).items():
            if doc in wanted:
                self.clauses[cid] = doc

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for cid, doc in sorted(self.clauses.items()):
            yield cid, cid, "clause", doc, cid, 1

    def _target(self, typ: str, target: str) -> str | None:
        if typ == "clause":
            return self.clauses.get(target)
        if typ == "case" and target in case_ids():
            return CASES_DOC
        return None

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str, target: str,
                     node: pending_xref, contnode: Element) -> Element | None:
        doc = self._target(typ, target)
        if doc is None:
            return None
        ref = make_refnode(builder, fromdocname, doc, target, contnode, f"{typ} {target}")
        ref["classes"].append(f"gs-{typ}-ref")
        return ref

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
                         node: pending_xref, contnode: Element) -> list[tuple[str, Element]]:
        found = []
        for typ in ("clause", "case"):
            ref = self.resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            if ref is not None:
                found.append((f"gs:{typ}", ref))
        return found


def _xref(typ: str, target: str, content: Node) -> pending_xref:
    ref = pending_xref("", refdomain="gs", reftype=typ, reftarget=target, refexplicit=True, refwarn=True)
    ref += content
    return ref  # type: ignore[no-any-return]


def _split(text: str) -> list[tuple[str, str | None]]:
    """Pieces of ``text``: (piece, None) for plain text, (ID, "clause"/"case") for an ID to link."""
    found: list[tuple[int, int, str]] = []
    clauses, cases = clause_ids(), case_ids()
    for m in CLAUSE_TOKEN_RE.finditer(text):
        if m.group(0) in clauses:
            found.append((m.start(), m.end(), "clause"))
    for m in CASE_TOKEN_RE.finditer(text):
        if m.group(0) in cases:
            found.append((m.start(), m.end(), "case"))
    pieces: list[tuple[str, str | None]] = []
    pos = 0
    for start, end, typ in sorted(found):
        if start < pos:
            continue
        if start > pos:
            pieces.append((text[pos:start], None))
        pieces.append((text[start:end], typ))
        pos = end
    if pos < len(text):
        pieces.append((text[pos:], None))
    return pieces


class LinkClauseIds(SphinxTransform):
    """Clause and case IDs written as plain text become cross-references (the ``gs`` roles)."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or any(isinstance(a, SKIP_INSIDE) for a in _ancestors(text)):
                continue
            pieces = _split(text.astext())
            if not any(typ for _, typ in pieces):
                continue
            if isinstance(parent, nodes.literal) and len(pieces) == 1 and len(parent.children) == 1:
                typ = pieces[0][1]
                assert typ is not None
                parent.replace_self(_xref(typ, pieces[0][0], parent.deepcopy()))
                continue
            new: list[Node] = []
            for piece, typ in pieces:
                new.append(nodes.Text(piece) if typ is None else _xref(typ, piece, nodes.inline(piece, piece)))
            parent.replace(text, new)


def _ancestors(node: Node) -> Iterator[Node]:
    up = node.parent
    while up is not None:
        yield up
        up = up.parent


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_domain(GinspecDomain)
    app.add_transform(LinkClauseIds)
    return {"version": "1", "parallel_read_safe": True, "env_version": 1}

"""Clause IDs in the built site are links to the clause's anchor — on every page (rules, casebook,
guides, peer pages, reports) — and every clause is in the general index and the search index
(docs/_ext/ginspec_clauses.py). Code listings (``<pre>``) are the one place an ID stays text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ginspec.spec.clauses import registry

CLAUSE_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_.-])[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+")
NOT_SHOWN = {"pre", "script", "style", "title", "head", "textarea"}


class _ClauseText(HTMLParser):
    """Clause IDs in the page's text, each with the link (href) it sits in, or None."""

    def __init__(self, ids: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.ids = ids
        self.stack: list[tuple[str, str | None]] = []
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"br", "img", "meta", "link", "input", "hr", "wbr"}:
            return
        self.stack.append((tag, dict(attrs).get("href") if tag == "a" else None))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if any(tag in NOT_SHOWN for tag, _ in self.stack):
            return
        href = next((h for tag, h in reversed(self.stack) if tag == "a"), None)
        for m in CLAUSE_TOKEN_RE.finditer(data):
            if m.group(0) in self.ids:
                self.found.append((m.group(0), href))


def unlinked_clause_ids(html: str, ids: frozenset[str]) -> list[str]:
    """Clause IDs shown as text outside a link to that clause (a link elsewhere counts as none)."""
    parser = _ClauseText(ids)
    parser.feed(html)
    bad = []
    for cid, href in parser.found:
        if href is None or unquote(urlsplit(href).fragment) != cid:
            bad.append(cid if href is None else f"{cid} (links to {href})")
    return bad


def test_every_clause_id_in_the_site_is_a_link(site: Path) -> None:
    ids = frozenset(c.id for c in registry())
    bad = []
    for page in sorted(site.rglob("*.html")):
        if page.name in {"genindex.html", "search.html"}:
            continue
        text = page.read_text(encoding="utf-8")
        bad += [f"{page.relative_to(site)}: {cid}" for cid in unlinked_clause_ids(text, ids)]
    assert not bad, f"{len(bad)} clause IDs are text, not links:\n" + "\n".join(bad[:40])


def test_clauses_are_in_the_general_and_the_search_index(site: Path) -> None:
    genindex = (site / "genindex.html").read_text(encoding="utf-8")
    search = (site / "searchindex.js").read_text(encoding="utf-8")
    for clause in registry():
        assert f"{clause.id} (clause)" in genindex, f"{clause.id} not in the general index"
        assert f'"{clause.id}"' in search, f"{clause.id} not in the search index"


def test_the_check_itself() -> None:
    ids = frozenset({"KNOCK.ELIGIBLE", "LAYOFF.CHAIN"})
    assert unlinked_clause_ids("<p>see KNOCK.ELIGIBLE.</p>", ids) == ["KNOCK.ELIGIBLE"]
    assert unlinked_clause_ids('<p>see <a href="x.html#KNOCK.ELIGIBLE">KNOCK.ELIGIBLE</a></p>', ids) == []
    assert unlinked_clause_ids('<p><a href="x.html#LAYOFF.CHAIN">KNOCK.ELIGIBLE</a></p>', ids) != []
    made_up = "<pre>clauses = ['LAYOFF.CHAIN']</pre><p>KNOCK.ELIGIBLE-X, A.B</p>"  # clause-links: ignore
    assert unlinked_clause_ids(made_up, ids) == []

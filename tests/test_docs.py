"""The documentation site: builds with warnings as errors, every clause has its anchor, and the
links clause -> code -> cases -> clause resolve."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from ginspec.reference import implemented_modules
from ginspec.spec.clauses import IMPLEMENTATIONS, registry

ROOT = Path(__file__).resolve().parents[1]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name == "href" and value and tag == "a":
                self.hrefs.append(value)


@pytest.fixture(scope="session")
def pages(site: Path) -> dict[Path, _Links]:
    parsed: dict[Path, _Links] = {}
    for path in site.rglob("*.html"):
        p = _Links()
        p.feed(path.read_text(encoding="utf-8"))
        parsed[path] = p
    return parsed


def test_every_clause_has_an_anchor(site: Path, pages: dict[Path, _Links]) -> None:
    for clause in registry():
        page = site / "gen" / "rules" / f"{clause.chapter}.html"
        assert clause.id in pages[page].ids, f"no anchor for {clause.id} in {page.name}"


def test_internal_links_resolve(site: Path, pages: dict[Path, _Links]) -> None:
    broken = []
    for path, parsed in pages.items():
        for href in parsed.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site)} -> {href}")
                continue
            if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(site)} -> {href} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken[:40])


def test_clause_code_cases_round_trip(site: Path, pages: dict[Path, _Links]) -> None:
    """clause -> code -> clause, and clause -> case -> clause, one hop each."""
    implemented_modules()
    cases_page = pages[site / "gen" / "cases.html"]
    for clause in registry():
        rule_page = pages[site / "gen" / "rules" / f"{clause.chapter}.html"]
        for name in IMPLEMENTATIONS.get(clause.id, []):
            code_links = [h for h in rule_page.hrefs if h.endswith("#" + name)]
            assert code_links, f"{clause.id}: no link to {name}"
            code_page = (site / "gen" / "rules" / urlsplit(code_links[0]).path).resolve()
            back = [h for h in pages[code_page].hrefs if h.endswith("#" + clause.id)]
            assert back, f"{name}: no link back to {clause.id}"
        case_links = [h for h in rule_page.hrefs if "cases.html#" in h]
        for href in case_links:
            assert urlsplit(href).fragment in cases_page.ids
    assert any("#" in h and "/rules/" in h for h in cases_page.hrefs), "cases page links no clause"


def test_card_pictures_css_ships(site: Path) -> None:
    css = (site / "_static" / "cards.css").read_text(encoding="utf-8")
    assert re.search(r"\.gs-card\s*\{", css)

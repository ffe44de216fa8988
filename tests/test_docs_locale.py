"""The translated booklets (docs/locale/LANG/LC_MESSAGES/gen.po, Sphinx's own gettext i18n): each seed
system's booklet in the seed's language — Romanian (pagat, seed 000), Serbian (serbian-online at 2
and at 3-4 players, seed 001), French (wikipedia, seed 002), Albanian (hoyle, seed 004).

Checked: every string of those booklets, as the spec and the profiles make them today, has a
translation (a profile value or a rule text that changes leaves an untranslated string, and this
fails); every translation keeps its clause IDs, so every clause link resolves; and in the Serbian
build the booklets are in Serbian, with every clause ID a link to an anchor that exists."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from ginspec.spec.clauses import registry

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "docs" / "locale"
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import ginspec_booklets as booklets  # noqa: E402

LANGUAGES: dict[str, tuple[str, ...]] = {
    "ro": ("pagat",),
    "sr": ("serbian-online-2", "serbian-online-table"),
    "fr": ("wikipedia",),
    "sq": ("hoyle",),
}
CLAUSE_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_.-])[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+")
NORMATIVE = "The English text of the spec is normative"


def catalogue(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "gen.po").open("rb") as f:
        return read_po(f)


def english_strings(slug: str) -> list[str]:
    """The booklet's title and rule paragraphs as the generator writes them now (the msgids)."""
    b = next(b for b in booklets.BOOKLETS if b.slug == slug)
    return [b.title, *(f"{text} ({cid})" for _, cid, text in booklets.paragraphs(b))]


def clause_ids(text: str) -> list[str]:
    ids = {c.id for c in registry()}
    return sorted(m.group(0) for m in CLAUSE_TOKEN_RE.finditer(text) if m.group(0) in ids)


def catalogue_problems(cat: Catalog, wanted: list[str]) -> list[str]:
    problems = []
    translated = {m.id: m for m in cat if m.id}
    for text in wanted:
        m = translated.get(text)
        if m is None or not m.string:
            problems.append(f"untranslated: {text[:80]!r}")
        elif m.fuzzy:
            problems.append(f"fuzzy: {text[:80]!r}")
    for m in translated.values():
        string = str(m.string or "")
        if not string:
            problems.append(f"empty translation: {str(m.id)[:80]!r}")
        elif string == m.id and re.search(r"[a-z]{4,} [a-z]{4,}", string.replace("`", "")):
            problems.append(f"left in English: {string[:80]!r}")
        if clause_ids(str(m.id)) != clause_ids(string):
            problems.append(f"clause IDs changed: {str(m.id)[:60]!r} -> {string[:60]!r}")
    return problems


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_booklet_fully_translated_and_current(lang: str) -> None:
    wanted = [s for slug in LANGUAGES[lang] for s in english_strings(slug)]
    cat = catalogue(lang)
    problems = catalogue_problems(cat, wanted)
    assert any(str(m.id).startswith(NORMATIVE) and m.string for m in cat), "does not say the English spec is normative"
    assert not problems, f"{lang}: {len(problems)} problems:\n" + "\n".join(problems[:30])


def _article(page: Path) -> str:
    m = re.search(r'<article[^>]*role="main"[^>]*>(.*?)</article>', page.read_text(encoding="utf-8"), re.S)
    assert m
    return m.group(1)


@pytest.mark.parametrize("slug", LANGUAGES["sr"])
def test_serbian_build_is_serbian_and_its_clause_links_resolve(site_sr: Path, slug: str) -> None:
    page = site_sr / "gen" / "booklets" / f"{slug}.html"
    article = _article(page)
    text = re.sub(r"<[^>]+>", "", article)
    english = [s for s in english_strings(slug) if s.split(" (")[0] in text]
    assert not english, f"English left in the Serbian booklet: {english[:3]}"
    assert "Engleski tekst specifikacije je normativan" in text
    links = re.findall(r'href="([^"#]*)#([A-Z][A-Z0-9.-]+)"', article)
    assert len(links) >= 20
    for target, anchor in links:
        html = (page.parent / target).resolve().read_text(encoding="utf-8")
        assert f'id="{anchor}"' in html, f"{slug}: link to {target}#{anchor} does not resolve"
    shown = {a for _, a in links}
    for para in english_strings(slug)[1:]:
        for cid in clause_ids(para):
            assert cid in shown, f"{slug}: {cid} is not a link in Serbian"


def test_the_check_itself() -> None:
    cat = Catalog(locale="sr")
    cat.add("A rule. (KNOCK.GIN)", "Pravilo. (KNOCK.GIN)")
    cat.add("Another rule. (SCORE.GIN)", "Drugo pravilo.")
    cat.add("Left alone here. (CARD.DECK)", "Left alone here. (CARD.DECK)")
    wanted: list[Any] = ["A rule. (KNOCK.GIN)", "Another rule. (SCORE.GIN)", "Missing. (MELD.SET)"]
    problems = catalogue_problems(cat, wanted)
    assert any("untranslated: 'Missing." in p for p in problems)
    assert any("clause IDs changed" in p and "Another" in p for p in problems)
    assert any("left in English" in p for p in problems)
    clean = Catalog(locale="sr")
    clean.add("A rule. (KNOCK.GIN)", "Pravilo. (KNOCK.GIN)")
    assert catalogue_problems(clean, wanted[:1]) == []

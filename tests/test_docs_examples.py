"""Every spec example is shown on its clause's page (docs/_ext/ginspec_examples.py): inside that
clause's section, its cards drawn when it has cards, its expected answer in words, and a link to the
conformance case made from it when there is one."""

from __future__ import annotations

import re
from pathlib import Path

from ginspec.spec.cards import card_str, parse_card
from ginspec.spec.clauses import Clause, registry

CASE_FILES = Path(__file__).resolve().parents[1] / "conformance" / "suite" / "cases"


def is_cards(value: object) -> bool:
    """A field that holds cards: a string of card tokens (as in a hand), or a list of such strings."""
    if isinstance(value, list):
        return bool(value) and all(is_cards(v) for v in value)
    if not isinstance(value, str) or not value.split():
        return False
    try:
        return all(card_str(parse_card(t)) == t for t in value.split())
    except ValueError:
        return False


def clause_section(page: str, clause: Clause, following: Clause | None) -> str:
    """The HTML of one clause: from its anchor to the next clause's anchor."""
    start = page.find(f'id="{clause.id}"')
    assert start >= 0, f"{clause.id}: no anchor"
    end = page.find(f'id="{following.id}"', start) if following is not None else -1
    return page[start : end if end > 0 else len(page)]


def example_problems(page: str, clause: Clause, following: Clause | None, cases: set[str]) -> list[str]:
    section = clause_section(page, clause, following)
    problems = []
    for ex in clause.examples:
        m = re.search(rf'<div class="gs-example" id="example-{re.escape(ex.id)}">(.*?)(?=<div class="gs-example" |$)',
                      section, re.S)
        if m is None:
            problems.append(f"{clause.id}: example {ex.id} is not on its clause's page")
            continue
        block = m.group(1)
        if "Expected:" not in block:
            problems.append(f"{ex.id}: no expected answer in words")
        if any(is_cards(v) for v in ex.data.values()) and 'class="gs-card' not in block:
            problems.append(f"{ex.id}: its cards are not drawn")
        if f"spec.{ex.id}" in cases and f"cases.html#spec.{ex.id}" not in block:
            problems.append(f"{ex.id}: no link to its conformance case spec.{ex.id}")
    return problems


def test_every_spec_example_is_on_its_clause_page(site: Path) -> None:
    cases = {p.stem for p in CASE_FILES.rglob("*.json")}
    reg = registry()
    problems = []
    for chapter in reg.chapters:
        page = (site / "gen" / "rules" / f"{chapter.path.rsplit('/', 1)[1].removesuffix('.md')}.html").read_text(
            encoding="utf-8")
        clauses = list(chapter.clauses)
        for i, clause in enumerate(clauses):
            following = clauses[i + 1] if i + 1 < len(clauses) else None
            problems += example_problems(page, clause, following, cases)
    assert sum(1 for _ in reg.examples()) > 300
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_the_check_itself() -> None:
    """A page without the example, or with it under the wrong clause, fails."""
    clause = next(c for c in registry() if c.examples)
    drawn = "".join(f'<div class="gs-example" id="example-{ex.id}"><span class="gs-card">x</span> Expected: y</div>'
                    for ex in clause.examples)
    assert example_problems(f'<a id="{clause.id}"></a>{drawn}', clause, None, set()) == []
    assert example_problems(f'<a id="{clause.id}"></a><p>text</p>', clause, None, set())
    assert example_problems(f'<a id="{clause.id}"></a>{drawn}', clause, None, {f"spec.{clause.examples[0].id}"})
    other = next(c for c in registry() if c.id != clause.id)
    misplaced = f'<a id="{clause.id}"></a><a id="{other.id}"></a>{drawn}'
    assert example_problems(misplaced, clause, other, set())

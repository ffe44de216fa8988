"""Every casebook ruling is answered in words on its page: the short answer written in its TOML file,
the computed answer under each of its profiles, and why (its clause trail as sentences, each clause a
link)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from ginspec.reference.rulings import casebook, findings

CURLY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
"""Sphinx prints straight quotes curly."""


def words_section(page: str) -> str:
    m = re.search(r'id="the-answer-in-words">(.*?)(?:<section id=|$)', page, re.S)
    return m.group(1) if m else ""


def test_every_ruling_has_a_short_answer_in_its_file() -> None:
    missing = [c.id for c in casebook() if not c.answer.strip()]
    assert not missing, f"rulings without an answer in words (add answer = ... to the TOML): {missing}"


def test_every_ruling_page_answers_in_words(site: Path) -> None:
    problems = []
    for case in casebook():
        page = site / "gen" / "casebook" / f"{Path(case.path).stem}.html"
        section = words_section(page.read_text(encoding="utf-8"))
        text = html.unescape(re.sub(r"<[^>]+>", "", section)).translate(CURLY)
        if not section:
            problems.append(f"{case.id}: no 'The answer in words' section")
            continue
        if case.answer and " ".join(case.answer.split()) not in " ".join(text.split()):
            problems.append(f"{case.id}: the short answer is not shown")
        for f in findings(case):
            if f.label not in text:
                problems.append(f"{case.id}: no answer under {f.label}")
            for clause_id, _ in f.trail:
                if f"#{clause_id}\"" not in section:
                    problems.append(f"{case.id}: why-trail clause {clause_id} is not linked")
    assert not problems, "\n".join(sorted(set(problems))[:40])

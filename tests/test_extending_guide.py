"""docs/guides/extending.md's worked example runs: a parameter is four files, the snippets the
guide shows are in the files it names, its Python session prints what it shows, and the engine
that does not play the parameter refuses it with the line the guide shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Final

import pytest
from ginspec.conformance.cli import main

ROOT: Final = Path(__file__).resolve().parent.parent
GUIDE: Final = (ROOT / "docs" / "guides" / "extending.md").read_text(encoding="utf-8")
SECTION: Final = GUIDE[GUIDE.index("## A parameter"):GUIDE.index("## A profile")]
BLOCK_RE: Final = re.compile(r"```(\w+)\n(.*?)```", re.S)


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in BLOCK_RE.findall(SECTION) if kind == lang]


def test_a_parameter_is_four_files() -> None:
    steps = re.findall(r"^(\d)\. (.*)$", SECTION, re.M)
    assert [n for n, _ in steps] == ["1", "2", "3", "4"]
    first = [text.split("`")[1] for _, text in steps[:2]]
    assert first == ["spec/parameters.toml", "reference/typed_rules.py"]
    assert "engine module" in steps[2][1] and "`spec/chapters/`" in steps[3][1]


def test_the_snippets_are_in_the_files_named() -> None:
    toml, = _blocks("toml")
    assert toml in (ROOT / "spec" / "parameters.toml").read_text(encoding="utf-8")
    field, engine, _session = _blocks("python")
    assert field in (ROOT / "reference" / "typed_rules.py").read_text(encoding="utf-8")
    assert engine in (ROOT / "reference" / "game" / "state.py").read_text(encoding="utf-8")
    chapter = (ROOT / "spec" / "chapters" / "08-knocking.md").read_text(encoding="utf-8")
    assert 'params = ["knock_card_face_up"]' in chapter


def test_the_session_prints_what_the_guide_shows() -> None:
    session = _blocks("python")[-1]
    test = doctest.DocTestParser().get_doctest(session, {}, "extending.md", "extending.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


def test_the_command_fails_with_the_line_shown(capsys: pytest.CaptureFixture[str]) -> None:
    console, = _blocks("console")
    command, expected = console.strip().splitlines()
    argv = command.removeprefix("$ ginspec ").split()
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == expected

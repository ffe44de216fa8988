"""Ruling files and the casebook (spec/casebook/, digest §4 C01-C30): every shipped ruling's declared
expectations hold, the template is itself a passing ruling, and malformed files are rejected naming
the file and the field.

The casebook's expected values are the digest's "Expected" lines re-derived by hand from the clauses
(the arithmetic is in each file's comments); where a source's arithmetic is wrong the ruling follows
the rules and says so. Procedure-only cases (C11-C14, C26, C27) are tested through the engine, match
scoring (C19, C20) through the match tests, and the multi-player ones (C28-C30) by the multi-player
tests."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from ginspec.conformance.cli import main
from ginspec.conformance.cli.ruling import TEMPLATE
from ginspec.reference.rulings import casebook, check_ruling, load_ruling
from ginspec.spec.clauses import SPEC_DIR, registry
from ginspec.spec.errors import RulingFileError

CASES = casebook()


def test_casebook_is_not_empty() -> None:
    assert CASES, "spec/casebook/ holds no ruling"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_casebook_ruling_holds(case: object) -> None:
    verdicts = check_ruling(case)  # type: ignore[arg-type]
    problems = [f"{v.expectation.label}: {m}" for v in verdicts for m in v.mismatches]
    assert not problems, "\n".join(problems)


def test_casebook_ids_unique_clauses_and_sources_exist() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    reg = registry()
    keys = set(tomllib.loads((SPEC_DIR / "sources.toml").read_text(encoding="utf-8")))
    for case in CASES:
        for clause_id in case.clauses:
            assert clause_id in reg, f"{case.id} cites unknown clause {clause_id}"
        for side in case.sides:
            for cite in side.cite:
                assert cite.split(":", 1)[0].strip() in keys, f"{case.id} cites unknown source {cite!r}"


def test_template_is_a_passing_ruling(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    assert main(["ruling", "new", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == TEMPLATE
    assert all(v.ok for v in check_ruling(load_ruling(path)))
    assert main(["ruling", "check", str(path)]) == 0
    assert main(["ruling", "new", str(path)]) == 2  # never overwrites


def test_failed_expectation_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(
        TEMPLATE.replace("points = { knocker = 4, defender = 0 }", "points = { knocker = 5, defender = 0 }"),
        encoding="utf-8",
    )
    assert main(["ruling", "check", str(path)]) == 1


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (('profile = "pagat"', 'profile = "nosuch"'), "expect[0]: field 'profile'"),
        (('outcome = "knock"', 'outcome = "win"'), "expect[0]: field 'outcome'"),
        (('knocker = "2C 3C', 'knocker = "ZZ 3C'), "field 'position.knocker'"),
        (("format = 1", "format = 9"), "field 'format'"),
        (('title = "Knocking with exactly ten"\n', ""), "missing field 'title'"),
        (('outcome = "knock"', 'outcome = "knock"\nset = { knock_limit = 99 }'), "field 'set.knock_limit'"),
        (("[[expect]]\nprofile", "[[expect]]\nbogus = 1\nprofile"), "unknown field 'bogus'"),
    ],
)
def test_malformed_ruling_names_file_and_field(
    tmp_path: Path, edit: tuple[str, str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    old, new = edit
    assert old in TEMPLATE
    path.write_text(TEMPLATE.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulingFileError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_ruling(path)
    assert main(["ruling", "check", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and field in err[0]


def test_list_has_one_line_per_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", "list"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == len(CASES)


def test_unknown_casebook_id_exits_2() -> None:
    assert main(["ruling", "check", "C99"]) == 2

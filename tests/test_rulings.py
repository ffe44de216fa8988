"""Ruling files and the casebook (spec/casebook/, digest §4 C01-C30): every shipped ruling's declared
expectations hold, the template is itself a passing ruling, and malformed files are rejected naming
the file and the field.

The casebook's expected values are the digest's "Expected" lines re-derived by hand from the clauses
(the arithmetic is in each file's comments); where a source's arithmetic is wrong the ruling follows
the rules and says so. Showdown rulings run through the adjudicator; the procedural ones (C11-C14,
C27, C31) are game scripts played by the engine; C19, C20 and C26 are match score sheets; C28-C30
are Hollywood, partnership and three-player sheets."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from ginspec.conformance.cli import main
from ginspec.reference.cli.ruling_command import TEMPLATE, TEMPLATES
from ginspec.reference.rulings import KINDS, casebook, findings, load_ruling
from ginspec.spec.clauses import SPEC_DIR, registry
from ginspec.spec.errors import RulingFileError

CASES = casebook()


def test_casebook_has_thirty_rulings_of_every_kind() -> None:
    assert len(CASES) >= 30, f"the casebook holds {len(CASES)} rulings; it should hold at least 30"
    assert {c.kind for c in CASES} == set(KINDS)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_casebook_ruling_holds(case: object) -> None:
    found = findings(case)  # type: ignore[arg-type]
    problems = [f"{f.label}: {m}" for f in found for m in f.mismatches]
    assert not problems, "\n".join(problems)
    assert all(f.answer for f in found), "every expectation asks something"


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
    assert all(f.ok for f in findings(load_ruling(path)))
    assert main(["ruling", "check", str(path)]) == 0
    assert main(["ruling", "new", str(path)]) == 2  # never overwrites


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_a_passing_template(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.toml"
    assert main(["ruling", "new", "--kind", kind, str(path)]) == 0
    assert path.read_text(encoding="utf-8") == TEMPLATES[kind]
    case = load_ruling(path)
    assert case.kind == kind
    found = findings(case)
    assert found and all(f.ok for f in found), [f.mismatches for f in found]
    assert main(["ruling", "check", str(path)]) == 0
    assert main(["ruling", "check", "--json", str(path)]) == 0


@pytest.mark.parametrize(
    ("kind", "old", "new"),
    [
        ("game", "allowed = true", "allowed = false"),  # OpenSpiel allows it
        ("game", 'code = "DISCARD_OF_TAKEN_CARD"', 'code = "WRONG_PHASE"'),
        ("game", 'illegal = ["knock 5D"]', 'illegal = ["knock QD"]'),
        ("match", "totals = [365, 0]", "totals = [265, 0]"),
        ("match", "shutout = true", "shutout = false"),
        ("hollywood", "games = [[79, 12]", "games = [[80, 12]"),
        ("partnership", "netted = [[0, 1]]", "netted = [[1, 1]]"),
        ("three-player", "[2, 2, 0, 1]]", "[2, 2, 1, 0]]"),
        ("table", "penalties = [0, 20, 24]", "penalties = [0, 20, 19]"),  # chained: not in Seed-SR
        ("table", 'layoffs = [[], ["6H"], []]', 'layoffs = [[], ["6H"], ["5H"]]'),
    ],
)
def test_wrong_expectation_of_any_kind_exits_1(tmp_path: Path, kind: str, old: str, new: str) -> None:
    assert old in TEMPLATES[kind]
    path = tmp_path / "wrong.toml"
    path.write_text(TEMPLATES[kind].replace(old, new, 1), encoding="utf-8")
    assert not all(f.ok for f in findings(load_ruling(path)))
    assert main(["ruling", "check", str(path)]) == 1


@pytest.mark.parametrize(
    ("kind", "old", "new", "field"),
    [
        ("game", 'kind = "game"', 'kind = "gmae"', "field 'kind'"),
        ("game", 'script = ["take-upcard"]', 'script = ["draw-stock"]', "action 1 'draw-stock'"),
        ("game", 'script = ["take-upcard"]', 'script = ["take-upcard"]\nbogus = 1', "unknown field 'position.bogus'"),
        ("game", 'upcard = "5D"', 'upcard = "5X"', "field 'position.upcard'"),
        ("game", "allowed = false\n", "", "field 'try' needs 'allowed'"),
        ("game", 'profile = "pagat"', 'profile = "pagat"\nphase = "lunch"', "field 'phase'"),
        ("match", '[0, "knock", 5, 40]', '[0, "kn0ck", 5, 40]', "field 'position.hands[1]'"),
        ("match", "dealer = 0", "dealer = 2", "field 'position.dealer'"),
        ("match", "winner = 0", "winner = 0\nwinnner = 0", "unknown field 'winnner'"),
        ("hollywood", "[1, 12]", "[1, -12]", "field 'position.hands[1]'"),
        ("partnership", "[3, 2, 29]", "[2, 0, 29]", "partners never play each other"),
        ("three-player", "[0, 2, 25]", "[1, 2, 25]", "did not play this hand"),
        ("table", "knocker = 0", "knocker = 5", "field 'position.knocker'"),
        ("table", 'outcome = "knock"', 'outcome = "no_score"', "field 'outcome'"),
        ("table", '"5H 3S 3D 3H QS QH AC"', '"5H 3S 3D 3H QS QH 7H"', "7H"),
    ],
)
def test_malformed_ruling_of_any_kind_names_file_and_field(
    tmp_path: Path, kind: str, old: str, new: str, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert old in TEMPLATES[kind]
    path = tmp_path / "bad.toml"
    path.write_text(TEMPLATES[kind].replace(old, new, 1), encoding="utf-8")
    code = main(["ruling", "check", str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert str(path) in err[0] and field in err[0], err[0]


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
    """A table: two header lines, then one row per ruling, each starting with its ID."""
    assert main(["ruling", "list"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()[2:]
    assert [row.split()[0] for row in rows] == [c.id for c in CASES]


def test_unknown_casebook_id_exits_2() -> None:
    assert main(["ruling", "check", "C99"]) == 2


def test_every_casebook_expectation_is_a_conformance_case() -> None:
    from ginspec.conformance.generate.casebook import casebook_cases

    cases, notes = casebook_cases()
    assert not notes, notes
    made = {c.id for c in cases}
    for case in CASES:
        for n in range(1, len(case.expectations) + 1):
            stem = f"casebook.{case.id.lower()}.{n}"
            assert stem in made or any(m.startswith(f"{stem}.") for m in made), f"{case.id} #{n} is not a case"

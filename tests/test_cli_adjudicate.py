"""``ginspec adjudicate`` (SHOWDOWN.BEST-PLAY): output forms and bad input (one line, exit 2)."""

from __future__ import annotations

import json

import pytest
from ginspec.conformance.cli import main

KNOCKER = "KS KC KD 5S 6S 7S 9C TC JC JD"  # digest C02
DEFENDER = "2S 2C 2D 2H 8S 8C 8D 9S 7C AC"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["adjudicate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--profile", "openspiel", "--set", "undercut_bonus=20",
                       "--knocker", KNOCKER, "--defender", DEFENDER, "--json")
    assert code == 0
    data = json.loads(out)
    # digest C02 / OpenSpiel GameplayTest1: 10 vs 9 after four layoffs, undercut 1 + 20
    assert data["outcome"] == "undercut"
    assert data["deadwood"] == {"knocker": 10, "defender": 9}
    assert data["points"] == {"knocker": 0, "defender": 21}
    assert sorted(x["card"] for x in data["defender"]["layoffs"]) == ["7C", "8C", "8S", "9S"]
    assert data["overrides"] == {"undercut_bonus": 20}
    assert {"clause": "SHOWDOWN.COMPARE", "text": "after layoffs: knocker 10, defender 9"} in \
        data["trail"]


def test_text_form_and_declared_melds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--profile", "serbian-online", "--knocker", KNOCKER,
                       "--defender", DEFENDER, "--knocker-melds", "KS KC KD / 5S 6S 7S / 9C TC JC")
    assert code == 0
    assert "outcome:     knock" in out
    assert "deadwood:    knocker 10, defender 17" in out
    assert "points:      knocker 7, defender 0" in out
    trail = out.split("trail:")[1]
    assert "lays off" not in trail  # no chained layoffs under original_melds_only ...
    assert "with chained layoffs (8C 7C 8S 9S) the defender would keep 9, not 17" in trail  # ... why


def test_an_illegal_knock_is_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--profile", "pagat", "--knocker", KNOCKER, "--defender", DEFENDER,
                       "--knocker-melds", "KS KC KD / 5S 6S 7S", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "illegal_knock"
    assert data["points"] == {"knocker": None, "defender": None}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--profile", "nope"], "unknown profile 'nope'"),
        (["--profile", "pagat", "--set", "colour=red"], "unknown parameter 'colour'"),
        (["--profile", "pagat", "--set", "gin_bonus=lots"], "gin_bonus"),
        (["--profile", "pagat", "--knocker-melds", "KS KC KD / / 5S 6S 7S"], "empty meld"),
        (["--profile", "pagat", "--knocker-melds", "KS KC KH"], "KH, not in the hand"),
        (["--profile", "oklahoma"], "upcard"),
        (["--profile", "pagat", "--upcard", "1X"], "1X"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, out, err = run(capsys, *argv, "--knocker", KNOCKER, "--defender", DEFENDER)
    assert code == 2
    assert out == ""
    assert err.startswith("ginspec: error: ") and err.count("\n") == 1
    assert needle in err


@pytest.mark.parametrize(
    ("knocker", "defender", "needle"),
    [
        (KNOCKER, DEFENDER.replace("AC", "KS"), "KS given to both"),
        (KNOCKER, DEFENDER + " 3H", "defender holds 10 cards"),
        ("KS KC KD", DEFENDER, "the knocker has 3 cards"),
        (KNOCKER.replace("JD", "ZZ"), DEFENDER, "ZZ"),
        (KNOCKER.replace("JD", "KS"), DEFENDER, "duplicate card"),
    ],
)
def test_impossible_cards_exit_2(
    capsys: pytest.CaptureFixture[str], knocker: str, defender: str, needle: str
) -> None:
    code, _, err = run(capsys, "--profile", "pagat", "--knocker", knocker, "--defender", defender)
    assert code == 2
    assert needle in err


def test_help_lists_every_json_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--profile", "pagat", "--knocker", KNOCKER, "--defender", DEFENDER,
                       "--json")
    assert code == 0
    fields = set(json.loads(out))
    with pytest.raises(SystemExit):
        main(["adjudicate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    missing = {f for f in fields if f not in help_text}
    assert not missing, f"--help does not document {sorted(missing)}"

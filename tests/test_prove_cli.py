"""``ginspec prove``: exit codes, text and JSON (FORMAL.CERTIFICATE)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ginspec.conformance.cli import main

HAND = ["7H", "7D", "7S", "8C", "9C", "TC", "2S", "3D", "4H", "KD"]


def test_reference_claim_is_proved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *HAND]) == 0
    out = capsys.readouterr().out
    assert "PROVED" in out and "19" in out and "18 or less" in out


def test_claim_too_high_shows_a_lower_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *HAND, "--claim", "22"]) == 1
    out = capsys.readouterr().out
    assert "too high" in out and "= 19" in out


def test_claim_too_low_says_none_reaches_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *HAND, "--claim", "10"]) == 1
    out = capsys.readouterr().out
    assert "too low" in out and "no arrangement" in out


def test_eleven_cards_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["prove", "AC", "2C", "3C", "4D", "4H", "4S", "5S", "6S", "7S", "8S", "KD", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimum"] == 0 and data["gin"] is True and data["witness"]["discard"] == "KD"
    assert data["outcome"] == "proved" and data["question"] == "deadwood-after-discard"
    assert data["big_gin"] is False  # KD is deadwood among all 11


def test_big_gin(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["AC", "2C", "3C", "4D", "4H", "4S", "5S", "6S", "7S", "8S", "9S"]  # all 11 meld
    assert main(["prove", *hand, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["big_gin"] is True
    assert main(["prove", *hand]) == 0
    assert "big gin" in capsys.readouterr().out


def test_knock_limit(capsys: pytest.CaptureFixture[str]) -> None:
    hand = [*HAND, "5H"]  # best discard KD leaves 3D 4H 5H 2S = 14
    assert main(["prove", *hand, "--knock-limit", "10"]) == 0
    assert "may not knock" in capsys.readouterr().out
    assert main(["prove", *hand, "--claim", "14", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["can_knock"] is False


def test_variant_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "KS", "AS", "2S", "--wraparound", "--claim", "0"]) == 0
    assert main(["prove", "KS", "AS", "2S", "--claim", "0"]) == 1
    capsys.readouterr()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["prove"], "no cards"),
        (["prove", "7H", "ZZ"], "ZZ"),
        (["prove", "7H", "7H"], "duplicate"),
        (["prove", "7H", "--claim", "-3"], "never negative"),
        (["prove", "7H", "--knock-limit", "5"], "11-card"),
        (["prove", "7H", "--claim", "x"], "--claim"),
        (["prove", *HAND, "5H", "--knock-limit", "99"], "99"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ginspec: error:") and needle in err


def test_bench_runs_and_reports_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--bench", "--hands", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    kinds = [row["kind"] for row in report["rows"]]
    assert len(kinds) == 4 and all(row["hands"] == 3 for row in report["rows"])
    assert main(["prove", "--bench", "--hands", "0"]) == 2
    assert main(["prove", "--bench", "7H"]) == 2
    capsys.readouterr()


def test_verify_a_saved_certificate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *HAND, "5H", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    assert main(["prove", "--verify", str(good)]) == 0
    assert "stands" in capsys.readouterr().out
    forged = dict(data, optimum=13, claim=13)  # a lower optimum than the truth
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged), encoding="utf-8")
    assert main(["prove", "--verify", str(bad)]) == 1
    assert "optimum: 13, but the witness reaches 14" in capsys.readouterr().out
    broken_witness = dict(data, witness=dict(data["witness"], melds=[["7D", "7H", "8C"]]))
    bad.write_text(json.dumps(broken_witness), encoding="utf-8")
    assert main(["prove", "--verify", str(bad)]) == 1
    assert "witness.melds: not a meld" in capsys.readouterr().out
    bad.write_text("[1, 2", encoding="utf-8")
    assert main(["prove", "--verify", str(bad)]) == 2
    bad.write_text("{}", encoding="utf-8")
    assert main(["prove", "--verify", str(bad)]) == 2
    assert main(["prove", "--verify", str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()


def test_profile_set_and_upcard(capsys: pytest.CaptureFixture[str]) -> None:
    hand = [*HAND, "5H"]  # deadwood 14 after discarding KD
    assert main(["prove", *hand, "--profile", "oklahoma", "--upcard", "KD", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["knock_limit"] == 10 and data["can_knock"] is False
    assert main(["prove", "KS", "AS", "2S", "--set", "ace_high_runs=true", "--set",
                 "wraparound_runs=true", "--claim", "0"]) == 0
    assert main(["prove", *hand, "--profile", "oklahoma", "--json"]) == 2  # no upcard
    assert main(["prove", *hand, "--profile", "pagat", "--ace-high"]) == 2
    assert main(["prove", *hand, "--upcard", "7D"]) == 2
    assert main(["prove", *hand, "--profile", "nosuch"]) == 2
    capsys.readouterr()

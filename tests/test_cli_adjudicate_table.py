"""``ginspec adjudicate --hand ...`` (the table game, TABLE.BEST-PLAY): output forms and bad
input (one line, exit 2). Expected values: seed 001's 6H/5H example, worked by hand in chapter 14."""

from __future__ import annotations

import json

import pytest
from ginspec.conformance.cli import main

SEATS = ["7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC"]


def run(capsys: pytest.CaptureFixture[str], *argv: str, seats: list[str] = SEATS
        ) -> tuple[int, str, str]:
    hands = [x for h in seats for x in ("--hand", h)]
    code = main(["adjudicate", "--profile", "serbian-online", *hands, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--knocker-seat", "0", "--discard", "3C")
    assert code == 0
    assert "seat 1:      spreads 4C 4D 4S; lays off 6H onto 7H 8H 9H; keeps 2D JD TS = 22" in out
    assert "penalties:   seat 0 0, seat 1 20, seat 2 24" in out
    assert "5H would fit 7H 8H 9H only next to 6H, laid off by seat 1" in out


def test_json_fields_and_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--knocker-seat", "0", "--discard", "3C", "--set",
                       "layoff_chain=unlimited", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["system"] == "table" and data["players"] == 3 and data["knocker"] == 0
    assert data["deadwood"] == [2, 22, 21] and data["penalties"] == [0, 20, 19]
    assert [d["seat"] for d in data["defenders"]] == [1, 2]
    assert data["defenders"][1]["layoffs"][0]["card"] == "5H"
    assert data["overrides"] == {"layoff_chain": "unlimited", "players": 3}
    with pytest.raises(SystemExit):
        main(["adjudicate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert not {f for f in data if f not in help_text}


def test_four_seats_and_a_chosen_discard(capsys: pytest.CaptureFixture[str]) -> None:
    seats = ["7H 8H 9H KC KD KS 4C 5D", "2S 3S 4S AD AH AS 5C", "6D 7D 8D QC QH QS 3H",
             "TC JC QD 9S TS JS 2H"]
    code, out, _ = run(capsys, "--knocker-seat", "0", "--json", seats=seats)
    data = json.loads(out)
    assert code == 0 and data["discard"] == "5D"
    assert data["outcome"] == "undercut" and data["undercutter"] == 2
    assert data["penalties"] == [26, 2, 0, 29]


@pytest.mark.parametrize(
    ("argv", "seats", "needle"),
    [
        (["--knocker-seat", "3"], SEATS, "seat 3 is not a seat of a table of 3"),
        (["--knocker-seat", "0", "--discard", "5H"], SEATS, "discard: 5H"),
        (["--knocker-seat", "0", "--discard", "1X"], SEATS, "--discard: unknown card '1X'"),
        (["--knocker-seat", "0"], [SEATS[0], SEATS[1].replace("2D", "2C"), SEATS[2]],
         "2C given to both seat 0 and seat 1"),
        (["--knocker-seat", "0"], [SEATS[0], SEATS[1] + " 9C", SEATS[2]], "seat 1 holds 8 cards"),
        (["--knocker-seat", "0"], [SEATS[0], "6H 4C", SEATS[2]], "seat 1 holds 2 cards"),
        (["--knocker-seat", "0"], [*SEATS, "2H"], "seat 3 holds 1 card;"),
        (["--knocker-seat", "0"], [SEATS[0], "6H 4C ZZ", SEATS[2]], "--hand (seat 1)"),
        (["--knocker-seat", "0"], SEATS[:2], "--hand: 2 seat(s) given"),
        (["--knocker-seat", "0"], [*SEATS, "2H", "3H"], "--hand: 5 seat(s) given"),
        (["--knocker-seat", "0", "--set", "players=4"], SEATS, "--set players=4"),
        (["--knocker-seat", "0", "--knocker", "2C"], SEATS, "do not mix"),
        (["--discard", "3C"], SEATS, "--knocker-seat: required"),
        (["--knocker-seat", "0", "--upcard", "2H"], SEATS, "--upcard"),
        (["--knocker-seat", "0", "--knocker-melds", "5H 6H 7H"], SEATS,
         "5H is not among the knocker's kept cards"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          seats: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv, seats=seats)
    assert code == 2 and out == ""
    assert err.startswith("ginspec: error: ") and err.count("\n") == 1
    assert needle in err


def test_a_profile_that_is_not_the_table_game(capsys: pytest.CaptureFixture[str]) -> None:
    hands = [x for h in SEATS for x in ("--hand", h)]
    assert main(["adjudicate", "--profile", "pagat", *hands, "--knocker-seat", "0"]) == 2
    assert "not the table game" in capsys.readouterr().err


def test_two_players_still_need_both_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", "--profile", "pagat", "--knocker", SEATS[0]]) == 2
    assert "--knocker and --defender" in capsys.readouterr().err

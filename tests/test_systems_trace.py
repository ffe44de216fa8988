"""check-log for the multi-game systems (chapter 14, SYSTEM.TRACE): traces written by ``ginspec
play`` replay clean; each kind of tampering is the first finding, with its code and clause."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cli import main
from ginspec.reference.game.match_trace import TraceError
from ginspec.reference.game.strategies import strategy
from ginspec.reference.systems.play import play_system
from ginspec.reference.systems.system_trace import check_system_trace
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.profiles import ruleset

PROFILES = ["three-player", "cutthroat", "partnership", "hollywood"]


def trace(profile: str, seed: int = 1) -> dict[str, Any]:
    players = {"partnership": 4, "hollywood": 2}.get(profile, 3)
    return play_system(ruleset(profile), profile, seed, [strategy("greedy")] * players)


def check(data: dict[str, Any], profile: str) -> Any:
    return check_system_trace(data, rules_for_profile(profile))


@pytest.mark.parametrize("profile", PROFILES)
def test_played_games_replay_clean(profile: str) -> None:
    data = trace(profile)
    report = check(data, profile)
    assert report.ok, report.finding
    assert report.finished and report.hands == len(data["hands"])
    assert report.steps == sum(len(h["actions"]) for h in data["hands"])


@pytest.mark.parametrize("profile", PROFILES)
def test_a_wrong_recorded_points_is_found(profile: str) -> None:
    data = trace(profile)
    hand = next(i for i, h in enumerate(data["hands"]) if h["winner"] is not None)
    data["hands"][hand]["points"] += 1
    report = check(data, profile)
    assert report.finding is not None and report.finding.code == "RESULT_MISMATCH"
    assert report.finding.hand == hand + 1


def test_the_wrong_two_players_at_a_hand() -> None:
    data = trace("three-player")
    h = data["hands"][1]
    h["first"], h["second"] = h["second"], h["first"]
    report = check(data, "three-player")
    assert report.finding is not None
    assert (report.finding.hand, report.finding.code, report.finding.clause) == \
        (2, "WRONG_DEALER", "SYSTEM.TRACE")


def test_the_wrong_dealer_under_cutthroat() -> None:
    # the same game checked under the other rotation: the dealer of hand 1 differs
    data = trace("three-player")
    report = check(data, "cutthroat")
    assert report.finding is not None
    assert (report.finding.hand, report.finding.code, report.finding.clause) == \
        (1, "WRONG_DEALER", "THREE.ROTATION")


def test_an_illegal_action_and_a_seat_not_at_the_table() -> None:
    data = trace("partnership")
    step = data["hands"][0]["actions"][0]
    step["action"] = "knock 2C"
    report = check(data, "partnership")
    assert report.finding is not None and report.finding.step == 0
    assert report.finding.code in ("WRONG_PHASE", "CARD_NOT_IN_HAND")
    data = trace("partnership")
    first = data["hands"][0]["first"]
    outsider = next(s for s in range(4) if s not in (first, data["hands"][0]["second"]))
    data["hands"][0]["actions"][0]["player"] = outsider
    report = check(data, "partnership")
    assert report.finding is not None and report.finding.code == "NOT_YOUR_TURN"


def test_unfinished_hand_extra_hand_and_wrong_settlement() -> None:
    data = trace("hollywood")
    cut = copy.deepcopy(data)
    cut["hands"][-1]["actions"] = cut["hands"][-1]["actions"][:3]
    report = check(cut, "hollywood")
    assert report.finding is not None and report.finding.code == "HAND_NOT_OVER"
    extra = copy.deepcopy(data)
    extra["hands"].append(extra["hands"][-1])
    report = check(extra, "hollywood")
    assert report.finding is not None and report.finding.code == "MATCH_OVER"
    data = trace("cutthroat")
    data["result"]["net"][0] += 5
    report = check(data, "cutthroat")
    assert report.finding is not None
    assert (report.finding.code, report.finding.clause) == ("RESULT_MISMATCH", "SETTLE.PAIRWISE")


def test_a_malformed_trace_is_an_error() -> None:
    data = trace("three-player")
    del data["hands"][0]["deck"]
    with pytest.raises(TraceError, match=r"hands\[0\]\.deck"):
        check(data, "three-player")


def test_check_log_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "three.json"
    assert main(["play", "--profile", "cutthroat", "--seed", "4", "--json"]) == 0
    path.write_text(capsys.readouterr().out)
    assert main(["check-log", str(path)]) == 0
    assert "OK:" in capsys.readouterr().out
    data = json.loads(path.read_text())
    data["hands"][0]["winner"] = 5
    path.write_text(json.dumps(data))
    assert main(["check-log", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["finding"]["code"] == "RESULT_MISMATCH"


@pytest.mark.parametrize(("profile", "seats"), [("three-player", 3), ("partnership", 4),
                                                ("hollywood", 2)])
def test_play_without_players_seats_greedy_in_every_seat(
        capsys: pytest.CaptureFixture[str], profile: str, seats: int) -> None:
    assert main(["play", "--profile", profile, "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategies"] == ["greedy"] * seats
    assert main(["play", "--profile", profile, "--seed", "3", "--players", "greedy,random,x,y,z"]) \
        == 2
    assert f"this game has {seats} players" in capsys.readouterr().err


def test_a_table_record_with_a_wrong_prize_split_or_winner() -> None:
    """SYSTEM.TRACE: the end of a table game is checked too (TABLE.GAME-END, TABLE.PRIZE)."""
    from ginspec.reference.table import table_rules
    from ginspec.reference.table.game import play_table_game
    from ginspec.reference.table.table_strategies import table_strategy
    from ginspec.reference.table.table_trace import check_table_trace

    rules = table_rules(ruleset("serbian-online", {"players": 3}), "serbian-online")
    data = play_table_game(rules, 5, [table_strategy("greedy")] * 3)
    assert check_table_trace(data, rules).ok
    res = data["result"]
    assert sum(res["shares"]) == res["pool"]
    bad = copy.deepcopy(data)
    bad["result"]["shares"] = [s + (1 if i == 0 else -1 if i == 1 else 0)
                               for i, s in enumerate(res["shares"])]
    found = check_table_trace(bad, rules).finding
    assert found is not None and (found.code, found.clause) == ("RESULT_MISMATCH", "TABLE.PRIZE")
    bad = copy.deepcopy(data)
    bad["result"]["winner"] = (res["winner"] + 1) % 3
    found = check_table_trace(bad, rules).finding
    assert found is not None and found.clause == "TABLE.GAME-END"

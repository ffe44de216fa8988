"""``ginspec play`` and ``ginspec check-log``: exit codes, the JSON trace, and tampered traces."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cli import main
from ginspec.reference.game.match_trace import TRACE_FORMAT, check_trace, play_match
from ginspec.reference.game.strategies import strategy
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.errors import ParameterError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _trace(profile: str = "pagat", seed: int = 4) -> dict[str, Any]:
    return play_match(rules_for_profile(profile), seed, [strategy("greedy"), strategy("random")])


def _write(tmp_path: Path, data: object, name: str = "t.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("profile", ["pagat", "oklahoma", "wikipedia", "openspiel", "rlcard"])
def test_played_trace_checks_ok(profile: str) -> None:
    trace = _trace(profile)
    assert trace["format"] == TRACE_FORMAT and trace["result"] is not None
    report = check_trace(trace, rules_for_profile(profile))
    assert report.ok and report.finished
    assert report.steps == sum(len(h["actions"]) for h in trace["hands"])


def test_the_two_player_match_refuses_the_table_game() -> None:
    # serbian-online is seed 001's table game at every size (SYSTEM.KIND): the two-player match
    # engine refuses it with one line naming the parameter, instead of playing other rules
    with pytest.raises(ParameterError, match=r"^parameter game_system=table: the two-player "):
        _trace("serbian-online")


def test_play_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "hoyle", "--seed", "9", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["play", "--profile", "hoyle", "--seed", "9", "--json"]) == 0
    assert capsys.readouterr().out == first
    assert main(["play", "--profile", "hoyle", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert "== hand 1" in text and "wins: final" in text


def test_check_log_ok_and_first_illegal_step(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    trace = _trace()
    assert main(["check-log", _write(tmp_path, trace), "--profile", "pagat"]) == 0
    assert capsys.readouterr().out.startswith("OK:")
    # Tamper: the first discard of hand 1 becomes a card its player does not hold.
    steps = trace["hands"][0]["actions"]
    index = next(i for i, s in enumerate(steps) if s["action"].startswith("discard"))
    player = steps[index]["player"]
    held = set(trace["hands"][0]["deck"][0:20])
    stranger = next(c for c in trace["hands"][0]["deck"][30:] if c not in held)
    steps[index]["action"] = f"discard {stranger}"
    assert main(["check-log", _write(tmp_path, trace), "--profile", "pagat", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["finding"]["step"] == index and out["finding"]["code"] == "CARD_NOT_IN_HAND"
    assert out["finding"]["clause"] == "TURN.DISCARD"
    assert player in (0, 1)


def test_check_log_wrong_recorded_points(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    trace = _trace()
    hand = next(h for h in trace["hands"] if h["result"]["outcome"] != "void")
    hand["result"]["points"] = [p + 1 for p in hand["result"]["points"]]
    assert main(["check-log", _write(tmp_path, trace)]) == 1
    assert "RESULT_MISMATCH (SCORE." in capsys.readouterr().out


def test_check_log_action_after_the_hand_ended(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    trace = _trace()
    trace["hands"][0]["actions"].append({"player": 0, "action": "draw-stock"})
    assert main(["check-log", _write(tmp_path, trace)]) == 1
    assert "HAND_OVER" in capsys.readouterr().out


@pytest.mark.parametrize(("content", "field"), [
    ("not json", "not JSON"),
    ([], "trace"),
    ({"hands": [{"dealer": 0}]}, "hands[0].deck"),
    ({"hands": [{"dealer": 0, "deck": ["AC"] * 52, "actions": []}]}, "hands[0].deck"),
    ({"hands": "x"}, "trace.hands"),
    ({"format": "other", "hands": []}, "format"),
])
def test_check_log_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object,
                             field: str) -> None:
    code = main(["check-log", _write(tmp_path, content), "--profile", "pagat"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("ginspec: error:")
    assert field in err


def test_check_log_bad_step_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = _trace()
    trace["hands"][0]["actions"][0]["player"] = 3
    assert main(["check-log", _write(tmp_path, trace)]) == 2
    assert "hands[0].actions[0].player" in capsys.readouterr().err


def test_play_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "nope", "--seed", "1"]) == 2
    assert main(["play", "--profile", "pagat", "--seed", "1", "--players", "greedy,smart"]) == 2
    assert main(["play", "--profile", "pagat", "--seed", "1", "--set", "gin_bonus=x"]) == 2
    err = capsys.readouterr().err
    assert err.count("ginspec: error:") == 3


def test_bench_engine_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--hands", "3", "--profile", "pagat", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ours = out["measures"][0]
    assert ours["name"] == "ginspec engine (pagat)" and ours["hands"] == 3
    assert ours["steps_per_hand"] > 2
    assert main(["bench", "engine", "--hands", "0"]) == 2


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)
_BASE = _trace("pagat", 2)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            out += _paths(v, (*prefix, i))
    return out


_PATHS = [p for p in _paths(_BASE) if p]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(_PATHS), value=_JSON)
def test_check_log_never_crashes_on_a_tampered_trace(tmp_path_factory: pytest.TempPathFactory,
                                                     path: tuple[Any, ...], value: Any) -> None:
    """Any one field replaced by any JSON value: exit 0, 1 or 2 — never a traceback."""
    data = copy.deepcopy(_BASE)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    file = tmp_path_factory.mktemp("fuzz") / "t.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check-log", str(file), "--profile", "pagat"]) in (0, 1, 2)

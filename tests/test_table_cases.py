"""Conformance cases for the table game (chapter 14): the case kind ``table-hand``, the
protocol's ``new_table_hand``, the generators' hand-written expectations, and the peers (which
play two players only) never being sent a table case."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Adapter, Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, CaseFormatError, load_cases, parse_case
from ginspec.conformance.generate import table
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner
from ginspec.conformance.serve import handle


@pytest.fixture(scope="module")
def table_suite() -> list[Case]:
    return [c for c in load_cases([SUITE_DIR]) if c.kind == "table-hand"]


def test_three_and_four_players_and_every_table_code_are_in_the_suite(
        table_suite: list[Case]) -> None:
    players = {c.deals[0]["players"] for c in table_suite}
    assert players == {3, 4}
    codes = {s["expect"]["rejected"] for c in table_suite for s in c.steps
             if s["expect"] != "accepted"}
    assert codes == set(table.CODE_CLAUSE)
    outcomes = {c.result["outcome"] for c in table_suite if c.result}
    assert outcomes == {"knock", "gin", "undercut", "void"}


def test_reference_passes_the_table_cases(table_suite: list[Case]) -> None:
    adapter = ReferenceAdapter()
    summary = Runner(adapter, adapter.hello()).run(table_suite)
    assert summary.counts()["pass"] == len(table_suite)


def test_a_script_that_contradicts_the_reference_stops_the_build() -> None:
    s = table.Script.of_hands(table.THREE, "QD", "3C")
    with pytest.raises(table.TableCaseError):
        s.refuse("draw-stock", "WRONG_PHASE")  # it is NOT_YOUR_TURN ... for seat 1 only
    s.act("draw-stock", "knock 3C", "declare 7H 8H 9H / KC KD KS", "meld 4C 4D 4S", "done",
          "meld 3S 3D 3H", "done")
    with pytest.raises(table.TableCaseError):
        s.case("table.x", "endgame", "x", {}, {"outcome": "knock", "penalties": [0, 26, 25]})


class TwoPlayerOnly(Adapter):
    """A two-player engine: it must be sent no table case (it declares no table-game.N)."""

    def hello(self) -> Hello:
        return Hello("two", "1", profiles=("serbian-online",), capabilities=(
            "hand", "legal-actions", "rejection-codes", "melding.explicit", "layoff.explicit"))

    def apply(self, player: int | str, action: str) -> Verdict:
        raise AssertionError("never called")

    def observe(self) -> JSONObject:
        raise AssertionError("never called")

    def result(self) -> JSONObject | None:
        raise AssertionError("never called")


def test_table_cases_are_skipped_without_the_capability(table_suite: list[Case]) -> None:
    adapter = TwoPlayerOnly()
    summary = Runner(adapter, adapter.hello()).run(table_suite)
    assert summary.counts()["skip"] == len(table_suite)
    assert all("table-game." in o.message for o in summary.outcomes)


def test_a_declared_capability_without_new_table_hand_is_an_adapter_error(
        table_suite: list[Case]) -> None:
    class Claims(TwoPlayerOnly):
        def hello(self) -> Hello:
            h = super().hello()
            return Hello(h.name, h.version, profiles=h.profiles,
                         capabilities=(*h.capabilities, "table-game.3", "table-game.4"))

    adapter = Claims()
    plain = [c for c in table_suite if not c.overrides][:3]
    summary = Runner(adapter, adapter.hello()).run(plain)
    assert summary.counts()["error"] == 3
    assert "new_table_hand" in summary.outcomes[0].message


def test_peers_declare_no_table_capability() -> None:
    from ginspec.conformance.adapters import openspiel, rlcard

    for module in (openspiel, rlcard):
        assert "table-game" not in Path(module.__file__ or "").read_text(encoding="utf-8")


def _case_data(case: Case, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(case.to_json())
    data.update(changes)
    from ginspec.conformance.cases import fingerprint_of

    data["fingerprint"] = fingerprint_of(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    ({"requires": ["table-game.4"]}, "requires: a 3-player hand requires table-game.3"),
    ({"checkpoints": [{"after": 0, "hand_sizes": [7, 7]}]}, "checkpoints/0"),
    ({"result": {"penalties": [0, 1, 2, 3]}}, "result/penalties: one value per seat"),
])
def test_malformed_table_cases_name_the_field(table_suite: list[Case],
                                              change: Mapping[str, Any], message: str) -> None:
    case = next(c for c in table_suite if c.id == "table.deal.three-players")
    with pytest.raises(CaseFormatError, match=message.replace("[", r"\[")):
        parse_case(_case_data(case, **change), "t.json")


def test_new_table_hand_over_the_protocol() -> None:
    adapter = ReferenceAdapter()
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    reply, _ = handle(adapter, {"seq": 1, "cmd": "new_table_hand", "profile": "serbian-online",
                                "overrides": {}, "deal": {"players": 4, "dealer": 3,
                                                          "deck": deck}})
    assert reply == {"seq": 1, "ok": True}
    reply, _ = handle(adapter, {"seq": 2, "cmd": "observe"})
    # 28 cards dealt (AC..2H), 3H turned up, 23 left; seat 0 (left of the dealer) plays first
    assert reply["observation"] == {"phase": "draw", "to_act": 0, "hand_sizes": [7, 7, 7, 7],
                                    "discard_top": "3H", "stock_size": 23}
    reply, _ = handle(adapter, {"seq": 3, "cmd": "apply", "player": 2, "action": "draw-stock"})
    assert reply == {"seq": 3, "accepted": False, "code": "NOT_YOUR_TURN"}


def test_reports_draw_a_failing_table_hand(table_suite: list[Case], tmp_path: Path) -> None:
    from ginspec.conformance.mutants import TableLayoffOntoLaidOffCards
    from ginspec.conformance.reports.html import write_html

    adapter = TableLayoffOntoLaidOffCards()
    summary = Runner(adapter, adapter.hello()).run(table_suite)
    assert summary.count("fail") >= 1
    write_html(tmp_path / "r.html", [("mutant", summary)])
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert ("<th>player 2</th>" in text or "<th>player 2 (dealer)</th>" in text) and \
        "TABLE.LAYOFF-ORIGINAL" in text

"""The system queries of chapter 14 (``system``, ``table-penalty``, ``prize``, ``table-game``,
``table-adjudicate``, ``three-rotation``, ``partnership``, ``hollywood``): every multi-player
clause has a case that obeys it and one that violates it or is decided by it; the reference
answers them in process and over the protocol; a wrong engine is caught."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.compare_systems import check_system_query
from ginspec.conformance.generate import systems
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutants import PartnerNettingSummed
from ginspec.conformance.runner import Runner

MULTIPLAYER = (
    "SYSTEM.KIND", "TABLE.PLAYERS", "TABLE.DEAL", "TABLE.TURN-ORDER", "TABLE.TURN", "TABLE.KNOCK",
    "TABLE.SHOWDOWN", "TABLE.LAYOFF-ORIGINAL", "TABLE.WALL", "TABLE.UNDERCUT", "TABLE.PENALTY",
    "TABLE.BEST-PLAY", "TABLE.GAME-END", "TABLE.PRIZE", "TABLE.REJECTION", "THREE.ROTATION",
    "THREE.GAME", "PARTNER.TABLES", "PARTNER.NETTING", "PARTNER.DRAW", "PARTNER.GAME",
    "HOLLYWOOD.ENTRY", "HOLLYWOOD.GAME-END", "HOLLYWOOD.SETTLEMENT", "SETTLE.PROPORTIONAL",
    "SETTLE.PAIRWISE",
)


@pytest.fixture(scope="module")
def system_suite() -> list[Case]:
    return [c for c in load_cases([SUITE_DIR])
            if c.kind == "query" and QUERY_KINDS[str(c.query["what"])].family == "system"]


def test_every_multiplayer_clause_is_obeyed_and_violated_or_decided() -> None:
    from ginspec.conformance.cli.suite_command import coverage_rows

    rows = {r["clause"]: r for r in coverage_rows()}
    gaps = [c for c in MULTIPLAYER if not (rows[c]["obeys"] and rows[c]["violates"])]
    assert not gaps


def test_reference_answers_every_system_query(system_suite: list[Case]) -> None:
    systems = {k.name for k in QUERY_KINDS.values() if k.family == "system"}
    assert {str(c.query["what"]) for c in system_suite} == systems
    adapter = ReferenceAdapter()
    summary = Runner(adapter, adapter.hello()).run(system_suite)
    assert summary.counts()["pass"] == len(system_suite)


def test_system_queries_through_serve(system_suite: list[Case]) -> None:
    argv = [sys.executable, "-m", "ginspec.conformance.cli", "serve"]
    adapter = CommandAdapter(argv, timeout=30)
    try:
        summary = Runner(adapter, adapter.hello()).run(system_suite)
    finally:
        adapter.close()
    assert summary.counts()["pass"] == len(system_suite)


def test_wrong_netting_is_caught_and_blamed_on_partner_netting(
        system_suite: list[Case]) -> None:
    adapter = PartnerNettingSummed()
    summary = Runner(adapter, adapter.hello()).run(system_suite)
    fails = [o for o in summary.outcomes if o.status == "fail"]
    assert fails and all(o.case.query["what"] == "partnership" for o in fails)
    assert all(o.culprit == "PARTNER.NETTING" for o in fails)


def test_expected_error_needs_an_error_answer() -> None:
    assert check_system_query("three-rotation", {"error": True}, {"error": True}) is None
    bad = check_system_query("three-rotation", {"error": True}, {"seatings": []})
    assert bad is not None and bad.field == "error"
    bad = check_system_query("hollywood", {"games": [[1, 0]]}, {"error": True, "message": "x"})
    assert bad is not None and bad.field == "games"


def test_table_ruling_compares_melds_and_layoffs_in_any_order() -> None:
    expect = {"outcome": "knock", "declaration": [["7H", "8H", "9H"], ["KC", "KD", "KS"]],
              "layoffs": [[], ["6H", "TH"], []]}
    answer = {"outcome": "knock", "declaration": [["KS", "KD", "KC"], ["9H", "8H", "7H"]],
              "layoffs": [[], ["TH", "6H"], []]}
    assert check_system_query("table-adjudicate", expect, answer) is None
    answer["layoffs"] = [["6H", "TH"], [], []]
    assert check_system_query("table-adjudicate", expect, answer) is not None


def test_a_scenario_the_reference_answers_otherwise_stops_the_build() -> None:
    with pytest.raises(systems.SystemCaseError):
        systems.system_case("sys.x", "prize", {"pool": 100, "totals": [0, 10, 10, 10]},
                            {"shares": [76, 8, 8, 8]}, description="wrong on purpose")


def test_smoke_asks_each_declared_system_query() -> None:
    import io

    from ginspec.conformance.smoke import smoke

    class Garbled(ReferenceAdapter):
        def query(self, what: str, args: Any, profile: str | None, overrides: Any) -> Any:
            answer = super().query(what, args, profile, overrides)
            return {"games": "three"} if what == "hollywood" else answer

    out = io.StringIO()
    adapter = Garbled()
    assert smoke(adapter, adapter.hello(), out) == 2
    assert "BROKEN: query hollywood" in out.getvalue()
    assert "BROKEN: query partnership" not in out.getvalue()

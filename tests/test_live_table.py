"""The live machine at the table (conformance/stateful_table.py): the reference agrees with
itself at three and four seats and its hands reach real endings; table mutants are found and
shrunk to cases that blame the clause they break and pass for the reference; expect-fail lists
are played past; an adapter or a ruleset the table cannot play is refused in one line."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Hello, Verdict
from ginspec.conformance.adapters.reference import AutomaticReference, ReferenceAdapter
from ginspec.conformance.cases import load_case
from ginspec.conformance.cli import main
from ginspec.conformance.mutants import (
    TABLE_LIVE_MUTANTS,
    TableKnockPenaltyNotReduced,
    TablePrizeWindowHalved,
)
from ginspec.conformance.runner import Runner
from ginspec.conformance.stateful import LiveRun, case_of, play_live, run_live
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import Ruleset, ruleset

PROFILE = "serbian-online"


def _run(adapter: Any, players: int, hands: int, **kw: Any) -> tuple[LiveRun, list[Any]]:
    run = LiveRun(adapter, adapter.hello(), ruleset(PROFILE), hands=hands, players=players, **kw)
    return run, play_live(run, seed=1, shrink_seconds=3, max_new=1)


@pytest.mark.parametrize("players", [3, 4])
def test_the_reference_agrees_with_itself_at_the_table(players: int) -> None:
    """20 hands from seed 1 (measured: 24 hands and 3 whole games at three seats, 22 and 1 at
    four): no divergence, most hands end with someone going out, a game reaches the limit."""
    run, new = _run(ReferenceAdapter(), players, 20)
    s = run.stats
    assert new == [], [d.message for d, _ in new]
    assert 20 <= s.hands <= 40
    went_out = s.outcomes["knock"] + s.outcomes["gin"] + s.outcomes["undercut"]
    assert went_out == s.showdowns and went_out >= s.hands // 2, s.outcomes
    assert s.matches >= 1, s  # a whole game: its totals and prize split compared as queries
    assert s.steps >= 20 * s.hands


class IgnoresTurnOrder(ReferenceAdapter):
    """Plays any seat's action as the move of the seat to act (TABLE.TURN-ORDER broken)."""

    def apply(self, player: int | str, action: str) -> Verdict:
        return super().apply(self.observe()["to_act"], action)


def test_a_move_out_of_turn_is_caught_by_the_illegal_rule() -> None:
    _, new = _run(IgnoresTurnOrder(), 3, 10)
    assert len(new) == 1
    divergence, trace = new[0]
    # a move out of turn is accepted, or refused with another code (shrinking finds either)
    assert divergence.ident.startswith("live.verdict.") and divergence.clause == "TABLE.TURN-ORDER"
    last = trace.steps[-1]
    assert last["expect"] == {"rejected": "NOT_YOUR_TURN"}


def _replays(case_path: Path, mutant: Any, clause: str) -> None:
    """The written case fails for the mutant blaming ``clause`` and passes for the reference,
    also through ``ginspec conform --suite FILE``."""
    case = load_case(case_path)
    bad = Runner(mutant, mutant.hello()).run_case(case)
    assert bad.status == "fail" and bad.culprit == clause, (bad.status, bad.culprit)
    good = Runner(ReferenceAdapter(), ReferenceAdapter().hello()).run_case(case)
    assert good.status == "pass", good
    assert main(["conform", "--adapter", "reference", "--suite", str(case_path),
                 "--no-progress"]) == 0


def test_a_wrong_penalty_is_found_shrunk_and_written_as_a_table_case(tmp_path: Path) -> None:
    mutant = TableKnockPenaltyNotReduced()
    out = io.StringIO()
    code = run_live(mutant, mutant.hello(), ruleset(PROFILE), seed=1, hands=20, out=tmp_path,
                    stdout=out, players=3, max_new=1)
    assert code == 1, out.getvalue()
    assert "live.result.penalties.knock (TABLE.PENALTY)" in out.getvalue()
    [path] = tmp_path.glob("live.serbian-online.p3.*.json")
    case = load_case(path)
    assert case.kind == "table-hand" and "table-game.3" in case.data["requires"]
    assert len(case.data["steps"]) < 60
    _replays(path, mutant, TABLE_LIVE_MUTANTS[TableKnockPenaltyNotReduced])


def test_a_wrong_prize_split_is_found_at_the_end_of_a_game(tmp_path: Path) -> None:
    mutant = TablePrizeWindowHalved()
    run, new = _run(mutant, 3, 20)
    [(divergence, trace)] = new
    assert divergence.ident == "live.prize.shares" and divergence.clause == "TABLE.PRIZE"
    case = case_of(run, divergence, trace)
    assert case.kind == "query" and case.data["requires"] == ["query.prize"]
    path = tmp_path / f"{case.id}.json"
    path.write_text(case.to_json(), encoding="utf-8")
    _replays(path, mutant, TABLE_LIVE_MUTANTS[TablePrizeWindowHalved])


def test_an_expected_divergence_is_counted_and_played_past() -> None:
    run, new = _run(TableKnockPenaltyNotReduced(), 4, 10,
                    expect_fail={"live.result.penalties.knock": "planted"})
    assert new == [] and run.stats.hands >= 10
    assert run.stats.known["live.result.penalties.knock"] >= 1


class TwoPlayerOnly(ReferenceAdapter):
    def hello(self) -> Hello:
        h = super().hello()
        return Hello(h.name, h.version, profiles=h.profiles, overrides=h.overrides,
                     capabilities=tuple(c for c in h.capabilities if not c.startswith("table")))


@pytest.mark.parametrize(("adapter", "rules", "players", "named"), [
    (TwoPlayerOnly(), Ruleset(PROFILE, {}), 3, "'table-game.3'"),
    (AutomaticReference(), Ruleset(PROFILE, {}), 4, "'melding.explicit'"),
    (ReferenceAdapter(), Ruleset(PROFILE, {"first_turn": "upcard_offer"}), 3, "first_turn"),
    (ReferenceAdapter(), Ruleset("pagat", {}), 3, "not a table game"),
    (ReferenceAdapter(), Ruleset(PROFILE, {}), 2, "3 or 4"),
])
def test_what_the_table_cannot_play_is_refused(adapter: Any, rules: Ruleset, players: int,
                                               named: str) -> None:
    with pytest.raises(GinspecError, match=named):
        LiveRun(adapter, adapter.hello(), rules, hands=5, players=players)


def test_the_command_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "python:test_live_table:TwoPlayerOnly"
    assert main(["conform", "--live", "--adapter", spec, "--profile", PROFILE,
                 "--players", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["ginspec: error: --live --players 3: the adapter does not declare "
                   "'table-game.3'"]
    assert main(["conform", "--adapter", "reference", "--players", "3"]) == 2


def test_the_pytest_plugin_plays_the_table_live(tmp_path: Path) -> None:
    """``pytest --ginspec-live --ginspec-live-players 3``: ginspec::live under the user's
    Hypothesis profile (here: two examples, no shrinking) fails naming the clause and writes
    the case."""
    import subprocess
    import sys

    (tmp_path / "conftest.py").write_text(
        "from hypothesis import Phase, settings\n"
        "settings.register_profile('tiny', max_examples=2, phases=[Phase.generate])\n"
        "settings.load_profile('tiny')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "live",
         "--ginspec-adapter=python:ginspec.conformance.mutants:TableKnockPenaltyNotReduced",
         "--ginspec-cases=spec.prize-odd-pool", "--ginspec-live", f"--ginspec-profile={PROFILE}",
         "--ginspec-live-players=3", f"--ginspec-live-out={tmp_path / 'out'}"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=600)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "[TABLE.PENALTY] live.result.penalties.knock" in proc.stdout, proc.stdout[-3000:]
    [written] = (tmp_path / "out").glob("live.serbian-online.p3.result.penalties.knock.*.json")
    assert load_case(written).kind == "table-hand"

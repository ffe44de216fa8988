"""One cause, one divergence (conformance/stateful_core.py, ``cause_of``): the live mode groups
its divergences by cause, the clause blamed and the kind of field that differs, and plays past
the follow-ons of a cause it has already reported."""

from __future__ import annotations

from conformance_fakes.no_layoffs import NoLayoffs
from ginspec.conformance.compare import causal_order
from ginspec.conformance.stateful import LiveRun, cause_lines, play_live
from ginspec.conformance.stateful_core import cause_of
from ginspec.spec.profiles import ruleset


def test_a_cause_is_its_clause_and_the_kind_of_field() -> None:
    blame = "SHOWDOWN.DEFENDER-SPREAD"
    assert cause_of("live.result.deadwood.knock", blame) == \
        cause_of("live.result.deadwood.undercut", blame) == (blame, "result.deadwood")
    assert cause_of("live.result.points.knock", "SCORE.KNOCK") != \
        cause_of("live.result.deadwood.knock", "SCORE.KNOCK")
    assert cause_of("live.verdict.discard.knock.refused", "KNOCK.ELIGIBLE") == \
        ("KNOCK.ELIGIBLE", "verdict.refused")
    assert cause_of("live.legal-actions.defender-layoff.missing-layoff", "LAYOFF.RUN") == \
        ("LAYOFF.RUN", "legal-actions")


def test_the_fields_of_a_result_are_judged_in_the_order_they_follow_from_each_other() -> None:
    """The deadwood decides the outcome, the outcome its winner, points and boxes (chapter 9):
    a deadwood that differs is the cause of the rest."""
    assert causal_order(["outcome", "winner", "deadwood", "points", "boxes"]) == \
        ["deadwood", "outcome", "winner", "points", "boxes"]
    assert causal_order(["match_totals", "winner"]) == ["winner", "match_totals"]


def test_an_engine_that_never_lays_off_yields_one_divergence() -> None:
    """The missing layoffs change the defender's deadwood in every hand where he could lay off,
    and with it the outcome, winner, points and boxes: one cause, so exactly one divergence,
    blamed on the deadwood; the later games it shows in are counted, not reported again, and
    the run prints one summary line for the cause."""
    engine = NoLayoffs()
    run = LiveRun(engine, engine.hello(), ruleset("pagat"), hands=40)
    new = play_live(run, seed=3, shrink_seconds=5)
    assert [d.cause[1] for d, _ in new] == ["result.deadwood"], [d.ident for d, _ in new]
    [(divergence, _)] = new
    assert divergence.ident.startswith("live.result.deadwood.")
    assert divergence.clause.startswith(("SHOWDOWN.", "LAYOFF."))
    assert run.stats.again[divergence.cause] >= 1, run.stats
    [line] = cause_lines(run, [divergence])
    assert line.startswith(f"cause {divergence.clause} (result.deadwood): reported as "
                           f"{divergence.ident}; showed again in "), line


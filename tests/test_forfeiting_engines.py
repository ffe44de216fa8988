"""Engines that forfeit instead of refusing (capability ``illegal.forfeit``, PROTOCOL.md): they
are sent no illegal action, every refused step of the committed suite that the position can show
is still judged (the turn, the hand's end, the legal actions), and the live machine never tries
one on them."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cases.expectations import Plan
from ginspec.conformance.cases.unsent_refusals import SENT_ONLY, refused_code
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner, RunSummary, resolve
from ginspec.conformance.stateful import run_live
from ginspec.spec.profiles import ruleset

from tests.conformance_fakes.forfeiting import (
    ForfeitingReference,
    ForfeitListingOverLimitKnocks,
    UndeclaredForfeit,
)


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


def run(adapter: ForfeitingReference) -> RunSummary:
    return Runner(adapter, adapter.hello()).run(list(suite()))


def refused(case: Case) -> list[str]:
    return [c for c in (refused_code(s) for s in case.steps) if c is not None]


def test_a_declared_forfeit_passes_and_is_sent_no_illegal_action() -> None:
    engine = ForfeitingReference()
    summary = run(engine)
    assert engine.illegal_sent == 0
    assert summary.count("fail") == 0 and summary.count("error") == 0, [
        (o.case.id, o.message, str(o.mismatch)) for o in summary.outcomes if o.status in ("fail", "error")][:5]
    judged = [o for o in summary.outcomes if o.status == "pass" and refused(o.case)]
    assert len(judged) > 250  # cases whose refusals were asked from the position
    for o in summary.outcomes:
        if o.status == "skip" and o.message.startswith("illegal.forfeit"):
            assert any(code in o.message for code in SENT_ONLY), o.message


def test_the_same_engine_undeclared_fails_exactly_where_it_was_sent_an_illegal_action() -> None:
    engine = UndeclaredForfeit()
    summary = run(engine)
    assert engine.illegal_sent > 0
    failed = [o for o in summary.outcomes if o.status == "fail"]
    assert failed
    assert all(refused(o.case) for o in failed)


def test_a_forfeiting_engine_listing_illegal_knocks_is_caught_at_the_refused_knock() -> None:
    engine = ForfeitListingOverLimitKnocks()
    summary = run(engine)
    assert engine.illegal_sent == 0
    at_knock = [o for o in summary.outcomes if o.status == "fail" and o.where == "step"]
    assert at_knock
    for o in at_knock:  # the refused knock's own clause is blamed
        assert o.mismatch is not None and o.mismatch.field == "verdict"
        assert o.mismatch.expected == {"rejected": "KNOCK_OVER_LIMIT"}, o.mismatch
        plan = resolve(o.case, engine.hello())
        assert isinstance(plan, Plan) and o.step is not None
        assert o.culprit == plan.steps[o.step]["clause"], (o.case.id, o.culprit)
    assert {o.culprit for o in at_knock} >= {"KNOCK.ELIGIBLE", "OKLAHOMA.KNOCK-LIMIT"}


def test_the_live_machine_sends_a_forfeiting_engine_no_illegal_action(tmp_path: Path) -> None:
    engine = ForfeitingReference()
    out = io.StringIO()
    code = run_live(engine, engine.hello(), ruleset("pagat"), seed=3, hands=30, out=tmp_path,
                    stdout=out)
    assert code == 0, out.getvalue()
    assert engine.illegal_sent == 0
    assert "no divergence" in out.getvalue()
    undeclared = UndeclaredForfeit()
    code = run_live(undeclared, undeclared.hello(), ruleset("pagat"), seed=3, hands=30,
                    out=tmp_path / "undeclared", stdout=io.StringIO())
    assert undeclared.illegal_sent > 0 and code == 1

"""The three parts of the showdown declared apart (PROTOCOL.md, ``spread.explicit``): an engine
whose players declare and spread their melds but whose game lays off by itself plays every
scenario an engine settling the whole showdown itself plays, is judged on the best layoffs after
the spread its player chose, and fails on LAYOFF.* when its layoffs are greedy."""

from __future__ import annotations

from collections import Counter
from functools import cache

from ginspec.conformance.adapters.reference import AutomaticReference, MixedShowdownReference
from ginspec.conformance.adapters.reference_game import best_layoff_steps
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutants import MixedGreedyLayoffs, Mutant
from ginspec.conformance.runner import CaseResult, Runner
from ginspec.reference.game import Deal, HandState, rules_for_profile
from ginspec.reference.game.state import Phase
from ginspec.spec.cards import card_str, cards_of


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


@cache
def outcomes(engine: type[Mutant] | type[AutomaticReference] | type[MixedShowdownReference]
             ) -> tuple[CaseResult, ...]:
    adapter = engine()
    return tuple(Runner(adapter, adapter.hello()).run(list(suite())).outcomes)


def run_ids(engine: type[Mutant] | type[AutomaticReference] | type[MixedShowdownReference]) -> set[str]:
    return {o.case.id for o in outcomes(engine) if o.status not in ("skip", "declined")}


def test_the_mixed_engine_plays_what_the_automatic_engine_plays_and_passes() -> None:
    """At least 95 % of the cases the fully automatic declaration runs, every one passing."""
    mixed, auto = run_ids(MixedShowdownReference), run_ids(AutomaticReference)
    assert len(mixed & auto) >= 0.95 * len(auto), (len(mixed & auto), len(auto))
    bad = [(o.case.id, o.culprit, str(o.mismatch)) for o in outcomes(MixedShowdownReference)
           if o.status in ("fail", "error")]
    assert not bad, bad[:5]
    layoffs = [o for o in outcomes(MixedShowdownReference) if o.status == "pass" and o.automatic]
    assert len(layoffs) > 100  # hands judged on the layoffs after an explicit spread


def test_greedy_layoffs_after_an_explicit_spread_fail_on_the_layoff_rules() -> None:
    fails = [o for o in outcomes(MixedGreedyLayoffs) if o.status == "fail"]
    assert fails, "greedy layoffs survived the committed suite"
    assert all(o.automatic for o in fails), [o.case.id for o in fails if not o.automatic]
    culprits = Counter(str(o.culprit) for o in fails)
    assert all(c.startswith("LAYOFF.") for c in culprits), culprits
    assert not [o for o in outcomes(MixedGreedyLayoffs) if o.status == "error"]


def test_a_case_with_a_spelled_out_showdown_is_not_sent_as_explicit_to_an_automatic_layer() -> None:
    """proc.action.spellings.pagat spells its spread and layoff verbs in capitals ('MELD',
    'Done'): its explicit entry needs layoff.explicit all the same, so an engine that lays off by
    itself plays the entry of its shape and passes (it once was sent the explicit steps)."""
    case = next(c for c in suite() if c.id == "proc.action.spellings.pagat")
    assert "layoff.explicit" in case.requires
    for engine in (MixedShowdownReference, AutomaticReference):
        outcome = next(o for o in outcomes(engine) if o.case.id == case.id)
        assert outcome.status == "pass" and outcome.automatic, (engine.__name__, outcome.status)


def test_best_layoffs_after_a_spread_leave_the_least_deadwood() -> None:
    """A hand of the kind greedy layoffs get wrong, worked by hand: the knocker shows 4H 5H 6H,
    7C 7D 7S and 2C 3C 4C (KS deadwood, 10); the defender spreads JC JD JS and QC QD QS and keeps
    7H 8H 2D 3D. Laid onto the sevens the 7H leaves the 8H (13 points); laid onto the run it
    carries the 8H after it (LAYOFF.RUN, LAYOFF.CHAIN): 2D 3D are left, 5 points, an undercut."""
    deal = Deal.from_hands("7H 8H JC JD JS QC QD QS 2D 3D", "4H 5H 6H 7C 7D 7S 2C 3C 4C KS",
                           upcard="9S", stock_top="TD 9C", dealer=1)
    state = HandState.new(deal, rules_for_profile("pagat"))
    for action, who in (("pass", 0), ("pass", 1), ("draw-stock", 0), ("discard TD", 0),
                        ("draw-stock", 1), ("knock 9C", 1),
                        ("declare 4H 5H 6H / 7C 7D 7S / 2C 3C 4C", 1),
                        ("meld JC JD JS / QC QD QS", 0)):
        state = state.apply(action, who)
    assert state.phase is Phase.DEFENDER_LAYOFF
    for who, action in best_layoff_steps(state):
        state = state.apply(action, who)
    assert state.is_over and state.result is not None
    assert sorted(card_str(c) for c in cards_of(state.dead[0])) == ["2D", "3D"]
    assert state.result.to_json()["outcome"] == "undercut"

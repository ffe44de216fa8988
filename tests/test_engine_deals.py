"""An engine that deals itself (``deal.engine``) is judged on every deal it makes: the first
hand of a match as well as a single hand, by the committed suite's deal checks
(conformance/generate/engine_deals.py) and by the live mode, which checks every later hand of a
match too. The example engine ``FiftyCardMatchStart`` deals the first hand of every match after a
cut from 50 cards (a real engine's defect, on a path single hands never reach): it fails with
DEAL.* blame in the suite and in the live mode, and the case the live mode writes fails again."""

from __future__ import annotations

import io
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conformance_fakes.own_deal import FiftyCardMatchStart, OwnDealMatch, TakenCardKept
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import CaseResult, Runner
from ginspec.conformance.stateful import run_live
from ginspec.spec.profiles import ruleset

FIRST_TURNS = ("upcard-offer", "plain", "eleven-card-start")

SUITE = SUITE_DIR
"""The committed suite (the deal checks are in it once it is rebuilt)."""


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE]))


def deal_checks() -> list[Case]:
    return [c for c in suite() if c.id.startswith("deal-engine.")]


@cache
def outcomes(engine: type[OwnDealMatch]) -> tuple[CaseResult, ...]:
    adapter = engine()
    return tuple(Runner(adapter, adapter.hello()).run(list(suite())).outcomes)


def test_the_suite_checks_an_engine_deal_for_each_first_turn() -> None:
    """A single hand and the first hand of a match under each first-turn procedure, each dealer;
    each is a deal with a seed and no deck, so only an engine that deals itself plays it."""
    found = {(c.kind, c.id.split(".")[2], c.deals[0]["dealer"]) for c in deal_checks()}
    assert found == {(k, f, d) for k in ("hand", "match") for f in FIRST_TURNS for d in (0, 1)}
    for case in deal_checks():
        assert "deal.engine" in case.requires and case.kind in case.requires
        assert [set(d) for d in case.deals] == [{"dealer", "seed"}]


def test_an_engine_that_takes_a_deck_skips_them_naming_deal_engine() -> None:
    reference = ReferenceAdapter()
    runner = Runner(reference, reference.hello())
    for case in deal_checks():
        outcome = runner.run_case(case)
        assert outcome.status == "skip" and "deal.engine" in outcome.message, outcome


def test_an_engine_that_deals_right_passes_the_whole_suite() -> None:
    """The reference dealing every hand itself passes every case it plays, the deal checks
    among them (hands and matches under each first turn)."""
    done = outcomes(OwnDealMatch)
    counts = Counter(o.status for o in done)
    assert counts["fail"] == counts["error"] == 0, [o.to_json() for o in done
                                                    if o.status in ("fail", "error")][:3]
    played = {o.case.id for o in done if o.status == "pass"}
    assert {c.id for c in deal_checks()} <= played


def test_fifty_cards_at_the_start_of_a_match_fail_the_suite_on_deal_shuffle() -> None:
    """Every failure is a deal check of a match, blamed on DEAL.SHUFFLE (the deal is the 52
    cards of the pack), under each first turn; the single hands it deals right pass."""
    done = outcomes(FiftyCardMatchStart)
    fails = [o for o in done if o.status in ("fail", "error")]
    assert fails and all(o.status == "fail" and o.where == "setup" for o in fails), fails[:3]
    assert {o.case.id for o in fails} == {c.id for c in deal_checks() if c.kind == "match"}
    assert {str(o.culprit) for o in fails} == {"DEAL.SHUFFLE"}
    passed = {o.case.id for o in done if o.status == "pass"}
    assert {c.id for c in deal_checks() if c.kind == "hand"} <= passed


def _live(engine: Any, tmp_path: Path, hands: int, profile: str) -> tuple[int, str, list[Path]]:
    out = io.StringIO()
    code = run_live(engine, engine.hello(), ruleset(profile), seed=5, hands=hands,
                    out=tmp_path, stdout=out, max_new=1)
    return code, out.getvalue(), sorted(tmp_path.glob("live.*.json"))


@pytest.mark.parametrize("profile", ["pagat", "wikipedia", "rlcard"])
def test_the_live_mode_writes_the_bad_match_deal_as_a_match_that_fails_again(
        tmp_path: Path, profile: str) -> None:
    """The live mode catches the bad first deal of a match (DEAL.SHUFFLE) and writes it as a
    match case with the dealer and the seed alone: the engine, sent ``new_match`` with them,
    deals the same 50 cards and fails it again; an engine that deals right passes it, and one
    that takes a deck skips it."""
    engine = FiftyCardMatchStart()
    code, text, written = _live(engine, tmp_path, 10, profile)
    assert code == 1 and "DEAL.SHUFFLE" in text, text
    [case] = load_cases(written)
    assert case.kind == "match" and {"deal.engine", "match"} <= set(case.requires)
    assert [set(d) for d in case.deals] == [{"dealer", "seed"}]
    again = Runner(engine, engine.hello()).run_case(case)
    assert (again.status, again.culprit) == ("fail", "DEAL.SHUFFLE"), again
    good = OwnDealMatch()
    assert Runner(good, good.hello()).run_case(case).status == "pass"
    reference = ReferenceAdapter()
    skipped = Runner(reference, reference.hello()).run_case(case)
    assert skipped.status == "skip" and "deal.engine" in skipped.message


class CountingDeals(OwnDealMatch):
    """Counts the deals it reports after the first of each match."""

    later = 0

    def dealt(self) -> Any:
        game = self._game
        if self.in_match and len(getattr(game, "hands_dealt", ())) > 1:
            self.later += 1
        return super().dealt()


class SecondHandShort(OwnDealMatch):
    """Deals the second hand of every match from 50 cards."""

    short_hand = 1


def test_the_live_mode_checks_every_later_deal_of_a_match(tmp_path: Path) -> None:
    """An engine that deals every hand right: the live mode asks and checks the deal of the
    later hands of its matches and finds nothing. One that deals the second hand of a match
    from 50 cards is caught there, on DEAL.SHUFFLE, and the case written fails again: the
    engine deals the first hand again from the seed, plays it, and is asked for the second
    deal after the same step. The first hand's deck is the engine's; the second, none."""
    engine = CountingDeals()
    code, text, written = _live(engine, tmp_path / "good", 30, "pagat")
    assert code == 0 and not written, text
    assert engine.later > 0
    bad = SecondHandShort()
    code, text, written = _live(bad, tmp_path / "bad", 30, "pagat")
    assert code == 1 and "DEAL.SHUFFLE" in text, text
    [case] = load_cases(written)
    assert case.kind == "match" and case.steps and "deal.engine" in case.requires
    first, second = case.deals
    assert set(first) == {"dealer", "deck", "seed"} and set(second) == {"dealer", "seed", "after"}
    assert second["after"] == len(case.steps)
    again = Runner(bad, bad.hello()).run_case(case)
    assert (again.status, again.culprit, again.where, again.step) == \
        ("fail", "DEAL.SHUFFLE", "deal", len(case.steps)), again
    good = OwnDealMatch()
    assert Runner(good, good.hello()).run_case(case).status == "pass"


class NoDiscardOfTakenCardInMatches(TakenCardKept, OwnDealMatch):
    """Deals every hand right but may not discard the card it has just taken (as under
    discard_taken_card = never)."""


def test_a_divergence_later_in_an_engine_dealt_match_replays_its_deals(tmp_path: Path) -> None:
    """A difference in play after the engine dealt hands of a match: the case gives the first
    deal's seed and every deck the engine dealt, each later one with the step after which it was
    dealt. The engine, dealing again, is checked at each and fails the case again; the reference,
    sent the decks, passes it."""
    engine = NoDiscardOfTakenCardInMatches()
    code, text, written = _live(engine, tmp_path, 60, "openspiel")
    assert code == 1, text
    [case] = load_cases(written)
    assert case.kind == "match" and "seed" in case.deals[0] and "deal.engine" not in case.requires
    assert all("after" in d and "deck" in d for d in case.deals[1:])
    assert Runner(engine, engine.hello()).run_case(case).status == "fail"
    good = OwnDealMatch()
    assert Runner(good, good.hello()).run_case(case).status == "pass"
    reference = ReferenceAdapter()
    assert Runner(reference, reference.hello()).run_case(case).status == "pass"

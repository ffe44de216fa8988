"""Scenarios under every ruleset (case format 2): the committed suite's game cases carry the
expectations of every profile that plays them, requirements computed from their steps, the
clause deciding every expectation, and the best-play result for automatic showdowns."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Hello, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cases.expectations import plans
from ginspec.conformance.generate.rulesets import best_play, replay, requirements
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner
from ginspec.spec.profiles import profiles, ruleset


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


def two_player_profiles() -> list[str]:
    return [p for p in profiles() if ruleset(p).get("players", 2) == 2]


def restricted(profile: str) -> Hello:
    return dataclasses.replace(ReferenceAdapter().hello(), profiles=(profile,))


@pytest.mark.parametrize("profile", two_player_profiles())
def test_reference_restricted_to_one_profile_passes_every_scenario_it_plays(profile: str) -> None:
    """Every expectation recorded for ``profile`` is the reference's, and the profile plays
    scenarios written under other profiles too."""
    summary = Runner(ReferenceAdapter(), restricted(profile)).run(suite())
    bad = [(o.case.id, o.culprit, str(o.mismatch)) for o in summary.outcomes
           if o.status in ("fail", "error")]
    assert not bad, bad[:5]
    foreign = {o.case.id for o in summary.outcomes if o.status == "pass"
               and o.case.kind in ("hand", "match") and o.case.profile != profile}
    assert foreign


class AutomaticReference(ReferenceAdapter):
    """The reference as an engine that settles the showdown itself: the knock is followed at once
    by the spec's best play (``melding.automatic``, ``layoff.automatic``)."""

    def hello(self) -> Hello:
        hello = super().hello()
        caps = [c for c in hello.capabilities if c not in ("melding.explicit", "layoff.explicit")]
        return dataclasses.replace(hello, capabilities=(*caps, "melding.automatic",
                                                        "layoff.automatic"))

    def apply(self, player: int | str, action: str) -> Verdict:
        verdict = super().apply(player, action)
        game = self._driver()
        hand = getattr(game, "hand", None)
        if verdict.accepted and hand is not None and hand.phase.value == "declare":
            game.hand = best_play(hand)[0]
        return verdict


def test_automatic_showdown_entries_are_best_play_and_judged() -> None:
    adapter = AutomaticReference()
    summary = Runner(adapter, adapter.hello()).run(suite())
    bad = [(o.case.id, o.culprit, str(o.mismatch)) for o in summary.outcomes
           if o.status in ("fail", "error")]
    assert not bad, bad[:5]
    auto = [o for o in summary.outcomes if o.automatic and o.status == "pass"]
    assert len(auto) >= 100
    scored = Counter(c for o in auto for c in o.case.decides if c.startswith("SCORE."))
    assert {"SCORE.KNOCK", "SCORE.GIN", "SCORE.UNDERCUT"} <= set(scored)


class GreedyLayoffs(AutomaticReference):
    """Lays off nothing after the knock (a defender that never lays off): must fail the
    automatic cases where layoffs matter, blamed on a LAYOFF clause or the best-play clause."""

    def apply(self, player: int | str, action: str) -> Verdict:
        verdict = ReferenceAdapter.apply(self, player, action)
        game = self._driver()
        hand = getattr(game, "hand", None)
        if verdict.accepted and hand is not None and hand.phase.value == "declare":
            state, ruling = best_play(hand)
            if ruling["defender"] and ruling["defender"]["layoffs"]:
                game.hand = _without_layoffs(hand, ruling)
            else:
                game.hand = state
        return verdict


def _without_layoffs(hand: Any, ruling: Mapping[str, Any]) -> Any:
    k, d = hand.knocker, 1 - hand.knocker
    state = hand.apply("declare " + " / ".join(" ".join(m) for m in
                                               ruling["declaration"]["melds"]), k)
    if state.phase.value == "defender-meld":
        state = state.apply(" ".join(["meld", " / ".join(
            " ".join(m) for m in ruling["defender"]["melds"])]).strip(), d)
    while not state.is_over:
        state = state.apply("done", state.to_move)
    return state


def test_a_defender_that_never_lays_off_fails_on_the_layoff_clause() -> None:
    adapter = GreedyLayoffs()
    summary = Runner(adapter, adapter.hello()).run(suite())
    fails = [o for o in summary.outcomes if o.status == "fail"]
    assert fails
    assert all(o.automatic for o in fails)
    culprits = Counter(o.culprit for o in fails)
    assert any(str(c).startswith("LAYOFF.") for c in culprits), culprits


@pytest.mark.parametrize("case_id", [
    "spec.knock-then-declare", "spec.knock-ends-the-turns",
    "spec.play-same-knock-legal-under-pagat", "proc.reject.wall.must-knock.colony",
    "proc.reject.eleven.first-turn.rlcard"])
def test_a_declare_phase_requires_explicit_melding(case_id: str) -> None:
    case = next(c for c in suite() if c.id == case_id)
    assert "melding.explicit" in case.requires


def test_done_requires_explicit_layoffs() -> None:
    case = next(c for c in suite() if c.id == "spec.play-c01-tie-is-an-undercut-under-pagat")
    assert "layoff.explicit" in case.requires


def test_requirements_follow_the_steps() -> None:
    case = next(c for c in suite() if c.id == "casebook.c01.1")
    plain = [{"player": 1, "action": "draw-stock", "expect": "accepted"}]
    assert "melding.explicit" not in requirements(case, plain, [])
    assert "layoff.explicit" in requirements(
        case, [{"player": 0, "action": "layoff 9S to 8S", "expect": "accepted"}], [])
    assert "legal-actions" in requirements(case, plain, [{"after": 0, "legal_count": 3}])


def test_no_game_case_requires_rejection_codes() -> None:
    assert not [c.id for c in suite() if c.kind != "query" and "rejection-codes" in c.requires]


def test_an_engine_without_codes_runs_refusals_and_is_spared_the_code() -> None:
    """A refusal with another code passes without ``rejection-codes``; an acceptance fails."""
    case = next(c for c in suite() if c.id.startswith("reject.knock-over-limit."))

    class OtherCode(ReferenceAdapter):
        def apply(self, player: int | str, action: str) -> Verdict:
            verdict = super().apply(player, action)
            return verdict if verdict.accepted else Verdict.rejected("SOMETHING_ELSE")

    hello = ReferenceAdapter().hello()
    no_codes = dataclasses.replace(hello, capabilities=tuple(
        c for c in hello.capabilities if c != "rejection-codes"))
    assert Runner(OtherCode(), no_codes).run_case(case).status == "pass"
    assert Runner(OtherCode(), hello).run_case(case).status == "fail"


def test_a_refused_legal_knock_is_blamed_on_the_knock_clause() -> None:
    """The clause blamed is the one recorded for the step, not the case's first clause."""
    case = next(c for c in suite() if c.id == "casebook.c01.1")

    class RefusesKnocks(ReferenceAdapter):
        def apply(self, player: int | str, action: str) -> Verdict:
            if action.startswith("knock"):
                return Verdict.rejected("KNOCK_OVER_LIMIT")
            return super().apply(player, action)

    outcome = Runner(RefusesKnocks(), ReferenceAdapter().hello()).run_case(case)
    assert outcome.status == "fail" and outcome.culprit == "KNOCK.ELIGIBLE"


def test_every_game_case_plays_its_own_profile_first() -> None:
    for case in suite():
        if case.kind == "query" or case.profile is None:
            continue
        found = plans(case, case.profile)
        assert found and not found[0].automatic, case.id
        assert found[0].steps == tuple(case.steps)


def test_replay_under_the_home_profile_gives_the_cases_verdicts() -> None:
    case = next(c for c in suite() if c.id == "casebook.c01.1")
    played = replay(case, "pagat")
    assert played is not None and played.stop is None
    assert [s["expect"] for s in case.steps] == list(played.verdicts)


def test_unplayable_profiles_name_the_rule_value() -> None:
    case = next(c for c in suite() if c.id == "casebook.c01.1")
    reasons = {p: g["reason"] for g in case.unplayable for p in g["profiles"]}
    assert "first_turn=eleven_card_start" in reasons["rlcard"]


def test_rules_declared_by_value_get_derived_cases_the_engine_passes(tmp_path: Path) -> None:
    """A rules file matching no profile (wikipedia with undercut_bonus 20): ``suite derive``
    writes ordinary case files for exactly that ruleset, and an engine declaring those rules
    by value runs them all with no failure caused by its rule choices."""
    from ginspec.conformance.adapters.rules_file import load_rules
    from ginspec.conformance.cli import main

    rules = tmp_path / "mine.toml"
    rules.write_text('profile = "wikipedia"\n\n[set]\nundercut_bonus = 20\n', encoding="utf-8")
    scenarios = tmp_path / "scenarios"
    (scenarios / "hand").mkdir(parents=True)
    for case in suite():
        if case.id.startswith("casebook.c0"):
            (scenarios / "hand" / f"{case.id}.json").write_text(case.to_json(), encoding="utf-8")
    out = tmp_path / "derived"
    assert main(["suite", "derive", "--rules", str(rules), "--out", str(out),
                 "--suite", str(scenarios)]) == 0
    derived = load_cases([out])
    assert derived and all(c.profile == "wikipedia" and c.overrides == {"undercut_bonus": 20}
                           for c in derived)
    hello = dataclasses.replace(ReferenceAdapter().hello(), profiles=(),
                                rules=load_rules(rules))
    summary = Runner(ReferenceAdapter(), hello).run(derived)
    assert summary.count("pass") == len(derived), summary.counts()
    undercuts = [c.result for c in derived if c.result and c.result.get("outcome") == "undercut"
                 and {"points", "deadwood", "knocker"} <= set(c.result)]
    assert undercuts
    for r in undercuts:  # SCORE.UNDERCUT with the declared bonus: 20 plus the difference
        k = r["knocker"]
        assert max(r["points"]) == 20 + r["deadwood"][k] - r["deadwood"][1 - k], r


def test_an_engine_of_no_profile_is_never_failed_for_its_declared_rules() -> None:
    """The example house-rules engine (wikipedia, undercut_bonus 20, declared by value) against
    the committed suite: a case or question of other rule values is skipped naming the parameter
    (a deadwood question under ace_high_runs=true included), so nothing fails."""
    from ginspec.conformance.examples.house_rules_adapter import HouseRulesAdapter

    adapter = HouseRulesAdapter()
    summary = Runner(adapter, adapter.hello()).run(suite())
    assert summary.count("fail") == 0 and summary.count("error") == 0, summary.counts()
    assert summary.count("pass") > 0
    skipped = [o for o in summary.outcomes if o.status == "skip"]
    assert all(o.message for o in skipped)
    assert any("the question asks under" in o.message and "ace_high_runs" in o.message
               for o in skipped)


def test_a_query_case_carries_the_answer_under_every_other_profile() -> None:
    """A tied knock (6 against 6) scored under every profile: where a tie is an undercut the
    defender scores the undercut bonus, elsewhere the knocker wins nothing (SCORE.TIE); the
    case's box bonus of 25 gives the winner a box. Checked from each profile's parameters."""
    case = next(c for c in suite() if c.id == "spec.hand-winner-none-no-box")
    answered = {p: e.get("expect", case.expect) for e in case.rulesets for p in e["profiles"]}
    assert answered[str(case.profile)] == case.expect
    for profile, expect in answered.items():
        if profile == case.profile:
            continue
        rules = ruleset(profile, case.overrides)
        if rules["undercut_on_tie"] == "undercut":
            want = {"points": [0, rules["undercut_bonus"]], "winner": "defender", "boxes": [0, 1]}
        else:
            want = {"points": [0, 0], "winner": "knocker", "boxes": [1, 0]}
        assert expect == want, profile
    assert len(answered) == len(profiles())


def test_an_engine_of_one_profile_is_asked_the_queries_of_others() -> None:
    profile = "wikipedia"
    summary = Runner(ReferenceAdapter(), restricted(profile)).run(
        [c for c in suite() if c.kind == "query"])
    assert not [o.case.id for o in summary.outcomes if o.status in ("fail", "error")]
    foreign = [o for o in summary.outcomes if o.status == "pass" and o.case.profile
               not in (None, profile)]
    assert len(foreign) >= 50 and all(o.profile == profile for o in foreign)
    skipped = [o for o in summary.outcomes if o.status == "skip"]
    assert all(o.message.startswith(("no answer under wikipedia", "override"))
               for o in skipped), {o.message for o in skipped}

"""An engine that declares its own rules by value gets a whole verdict (conformance/CASES.md,
"What a case depends on"; PROTOCOL.md, "Rules declared by value").

The reference is declared by value under three rulesets that are no profile, each differing from
every profile in at least eight parameters (scoring, the wall, the discard and the first turn
among them). It plays the committed cases whose recorded ``depends`` its rules agree on, and the
cases ``ginspec conform`` derives for the other scenarios, and must pass every one of them. The
recorded ``depends`` are confirmed by replaying sampled cases with a parameter they do not list
changed: the expectations must not move.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Hello
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cases.expectations import Plan, translated_checkpoints, translated_steps
from ginspec.conformance.cases.model import DERIVED_PREFIX
from ginspec.conformance.generate.derive import CACHE_ENV, derived_for
from ginspec.conformance.generate.rulesets import opening_for, replay, rulesets_of, scenario_key
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner, resolve, skip_reason
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import check_combination, parameters
from ginspec.spec.profiles import Ruleset, profiles, ruleset

RULESETS: dict[str, tuple[str, dict[str, Any]]] = {
    # pagat's scoring and first turn replaced by a house's: plain first turn, the taken card may be
    # discarded, the wall's last discard taken to knock, a face-up knock card, big gin 31
    "house-pagat": ("pagat", {
        "first_turn": "plain", "discard_taken_card": "always",
        "wall_action": "take_and_knock_other_discard", "gin_bonus": 25, "undercut_bonus": 25,
        "undercut_on_tie": "no_score", "big_gin_bonus": 31, "knock_card_face_up": True,
        "game_target": 125, "next_dealer": "winner", "box_bonus": 25}),
    # Oklahoma as a TypeScript engine of the issue plays it (no spade doubling, both-pass draw)
    "house-oklahoma": ("oklahoma", {
        "knock_card_face_up": True, "wall_action": "take_and_knock_any_discard",
        "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 50,
        "discard_taken_card": "always", "both_pass_free_draw": True, "game_target": 125,
        "next_dealer": "winner", "spade_double": "off"}),
    # an eleven-card start with a knock limit of 7, layoffs onto the original melds only
    "house-eleven": ("wikipedia", {
        "first_turn": "eleven_card_start", "knock_limit": 7, "gin_bonus": 20,
        "undercut_bonus": 20, "undercut_on_tie": "knocker_scores_zero",
        "wall_action": "take_and_play_on", "layoff_chain": "original_melds_only",
        "knocker_may_lay_off": True, "game_bonus": 100, "box_bonus": 20,
        "redeal_dealer": "passes", "discard_taken_card": "always"}),
}
"""Three rulesets of no profile, by value (a profile plus the values that differ)."""

GAME_KINDS = ("hand", "match")


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


def declared(rules: Ruleset) -> Hello:
    """The reference, declaring ``rules`` by value (the runner then sends it those rules)."""
    return dataclasses.replace(ReferenceAdapter().hello(), rules=rules, profiles=())


def rules_of(name: str) -> Ruleset:
    base, values = RULESETS[name]
    return Ruleset(base, values)


@pytest.mark.parametrize("name", RULESETS)
def test_each_ruleset_is_no_profile_and_differs_from_every_one_in_eight_parameters(name: str) -> None:
    rules = rules_of(name)
    for profile in profiles():
        other = ruleset(profile)
        differ = [k for k in rules if rules[k] != other[k]]
        assert len(differ) >= 8, (profile, differ)
    changed = set(RULESETS[name][1])
    families = {"scoring": {"gin_bonus", "undercut_bonus", "undercut_on_tie", "big_gin_bonus"},
                "wall": {"wall_action"}, "discard": {"discard_taken_card", "knock_card_face_up"},
                "first turn": {"first_turn", "both_pass_free_draw"}}
    for family, names in families.items():
        assert changed & names, family


@pytest.mark.parametrize("name", RULESETS)
def test_the_reference_declared_by_value_plays_its_scenarios_and_passes(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At least 90 % of the hand and match scenarios the reference can play under the rules are
    played (by a committed case whose ``depends`` the rules agree on, or by a derived case),
    and every case passes."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    rules = rules_of(name)
    hello = declared(rules)
    cases = list(suite())
    derived = derived_for(cases, rules,
                          lambda c: not str(skip_reason(c, hello) or "").startswith("rules:"))
    summary = Runner(ReferenceAdapter(), hello).run([*cases, *derived])
    bad = [(o.case.id, o.culprit, str(o.mismatch)) for o in summary.outcomes
           if o.status in ("fail", "error")]
    assert not bad, bad[:5]
    by_id = {c.id: c for c in cases}

    def scenario(case: Case) -> str:  # a derived case stands for the scenario it came from
        source = case.data.get("source") or {}
        origin = source.get("derived_from") if isinstance(source, dict) else None
        return scenario_key(by_id[str(origin)] if origin else case)

    played = {scenario(o.case) for o in summary.outcomes
              if o.status == "pass" and o.case.kind in GAME_KINDS}
    committed = [o for o in summary.outcomes if o.status == "pass" and o.case.kind in GAME_KINDS
                 and not o.case.id.startswith(DERIVED_PREFIX)]
    assert committed or name == "house-eleven", \
        "no committed hand or match case agrees with the rules on its depends"
    # what the reference restricted to the rules can play: every scenario of a case with no
    # overrides of its own whose opening (rewritten for the rules' first turn where the
    # procedures differ, generate/openings.py) the rules play
    playable = set()
    for case in cases:
        if case.kind not in GAME_KINDS or case.overrides or case.profile is None:
            continue
        key = scenario_key(case)
        if key in playable:
            continue
        try:
            opening = opening_for(case, rules.name, dict(rules.overrides))
        except GinspecError:
            continue
        data = {k: v for k, v in case.data.items()
                if k not in ("format", "fingerprint", "rulesets", "unplayable")}
        if opening is not None:
            data.update(steps=translated_steps(case.steps, opening),
                        checkpoints=translated_checkpoints(case.checkpoints, opening))
        mine = Case.make(**{**data, "profile": rules.name, "overrides": dict(rules.overrides)})
        if replay(mine, rules.name) is not None:
            playable.add(key)
    assert playable
    reach = len(played & playable) / len(playable)
    assert reach >= 0.9, (len(played & playable), len(playable))


def _changed(profile: str, overrides: dict[str, Any], name: str) -> dict[str, Any] | None:
    """``overrides`` with ``name`` set to another value the catalogue allows together with the
    rest of ``profile`` (None when no other value makes a valid ruleset)."""
    param = parameters()[name]
    base = ruleset(profile, overrides)
    if param.type == "bool":
        options: list[Any] = [not base[name]]
    elif param.type == "int":
        options = [v for v in (param.min, param.max, *(a.value for a in param.values))
                   if v is not None and v != base[name]]
    else:
        options = [v for v in param.choices if v != base[name]]
    for value in options:
        trial = {**overrides, name: value}
        try:
            check_combination(dict(ruleset(profile, trial)))
        except GinspecError:
            continue
        return trial
    return None


def _sample() -> list[Case]:
    """Every 45th hand and match scenario the reference can replay (a deal an engine makes
    itself, deal.engine, has no cards to replay)."""
    games = sorted((c for c in suite() if c.kind in GAME_KINDS and not c.overrides
                    and all("deck" in d for d in c.deals)), key=lambda c: c.id)
    return games[::45]


@pytest.mark.parametrize("case", _sample(), ids=lambda c: c.id)
def test_a_parameter_a_case_does_not_depend_on_does_not_move_its_expectations(case: Case) -> None:
    """For the case's own entry, each parameter its ``depends`` leaves out is set to another
    value allowed with the rest of the case's profile: replayed, the entry is the same
    (profiles and depends aside)."""
    profile = str(case.profile)
    entry = next(e for e in case.rulesets if profile in e["profiles"] and "showdown" not in e)
    depends = set(entry.get("depends", ()))
    assert depends, case.id
    plain = Case.make(**{k: v for k, v in case.data.items()
                         if k not in ("format", "fingerprint", "rulesets", "unplayable")})

    def strip(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k not in ("profiles", "depends")} for e in entries]

    want = strip(rulesets_of(plain, [profile]))
    for name in sorted(set(parameters()) - depends):
        trial = _changed(profile, {}, name)
        if trial is None:
            continue
        moved = Case.make(**{**{k: v for k, v in plain.data.items()
                                if k not in ("format", "fingerprint")}, "overrides": trial})
        assert strip(rulesets_of(moved, [profile])) == want, (case.id, name, trial[name])


def test_a_committed_case_is_played_under_rules_that_differ_only_where_it_does_not_depend() -> None:
    """A by-value declaration that changes only parameters a hand case does not read plays that
    case itself (not a derived copy), by its recorded plan."""
    case = next(c for c in suite() if c.id == "casebook.c01.1")
    entry = case.rulesets[0]
    profile = str(entry["profiles"][0])
    free = [k for k in ("game_target", "next_dealer", "shutout_effect") if k not in entry["depends"]]
    assert len(free) == 3
    rules = Ruleset(profile, {"game_target": 125, "next_dealer": "winner",
                              "shutout_effect": "total_doubled"})
    plan = resolve(case, declared(rules))
    assert isinstance(plan, Plan), plan
    assert plan.depends == tuple(entry["depends"])
    outcome = Runner(ReferenceAdapter(), declared(rules)).run_case(case)
    assert outcome.status == "pass", outcome.mismatch

"""What a game case expects under one ruleset: its case's own expectations with the ``rulesets``
entry of that profile laid over them (case format 2; see conformance/CASES.md).

The runner judges from this data alone. A case of format 1 (no ``rulesets``) expects its own
profile only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ginspec.conformance.cases.model import Case
from ginspec.conformance.cases.unsent_refusals import unsent_needs
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import value_text
from ginspec.spec.profiles import ruleset

AUTOMATIC: Final = ("layoff.automatic", "melding.automatic")
SHOWDOWN_ORDER: Final = (None, "layoffs", "automatic")
"""A scenario's entries under one profile, in the order an engine is offered them: the explicit
showdown, then the layoffs after an explicit spread (``spread.explicit``), then the automatic
showdown; the first whose ``requires`` the engine declares is played."""
SAME_SCENARIO: Final = "the same scenario is case "
"""An ``unplayable`` reason: another case plays these deals and actions under the profiles
(the suite builder's :func:`~ginspec.conformance.generate.rulesets.owners`), so this one is
covered by it there."""


@dataclass(frozen=True)
class Plan:
    """The steps to play, the checkpoints and the result to expect under ``profile``."""

    profile: str
    steps: tuple[dict[str, Any], ...]
    checkpoints: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None
    blame: dict[str, str]
    requires: tuple[str, ...]
    automatic: bool = False
    """The engine settles the showdown, or its layoffs, itself (an entry with ``showdown``)."""
    depends: tuple[str, ...] | None = None
    """The parameters these expectations depend on (the entry's ``depends``; None: every one):
    an engine declaring its rules by value plays the plan where it gives each of them the
    profile's value (CASES.md, "What a case depends on")."""


MATCH_SCORES: Final = ("match_scores", "last_points", "box_points", "game_bonus", "hand_winners",
                       "hand_points", "running_scores", "hand_winner")
"""The fields of a match (its observation and result) and of the ``match``, ``hollywood`` and
``next-dealer`` queries' answers that only an engine declaring ``match.scores`` reports
(protocol 4): the hands' winners and points and the scores toward the target as it goes, the box
points and the game bonus of the final totals."""


SCORED_QUERIES: Final = ("match", "hollywood", "next-dealer")
"""The query kinds whose answers have :data:`MATCH_SCORES` fields."""


def unscored(plan: Plan) -> Plan:
    """``plan`` without the :data:`MATCH_SCORES` expectations, for an engine that does not
    declare ``match.scores``: it is judged on the match's other fields (a checkpoint left with
    nothing to compare is dropped)."""
    points = []
    for point in plan.checkpoints:
        kept = {k: v for k, v in point.items() if k not in MATCH_SCORES}
        if set(kept) - {"after", "clause", "blame"}:
            points.append(kept)
    result = None if plan.result is None else \
        {k: v for k, v in plan.result.items() if k not in MATCH_SCORES}
    return replace(plan, checkpoints=tuple(points), result=result)


def _listed(case: Case) -> list[str]:
    """Every profile the case has expectations for, in the order of its entries."""
    if not case.ruleset_profiles:
        return [] if case.profile is None else [case.profile]
    return [p for names in case.ruleset_profiles for p in names]


def translated_steps(steps: Sequence[Mapping[str, Any]],
                     opening: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The scenario's steps with its opening (the first ``replaces``) played as the entry's
    ``opening`` steps (FIRST.UPCARD-OFFER, FIRST.PLAIN, ELEVEN.FIRST-TURN)."""
    return [*(dict(s) for s in opening["steps"]),
            *(dict(s) for s in steps[int(opening["replaces"]):])]


def translated_checkpoints(points: Sequence[Mapping[str, Any]],
                           opening: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The checkpoints after the old opening, counted in the translated steps (those inside
    the old opening have no counterpart)."""
    replaces, added = int(opening["replaces"]), len(opening["steps"])
    return [{**p, "after": int(p["after"]) - replaces + added} for p in points
            if int(p["after"]) >= replaces]


def plan(case: Case, entry: Mapping[str, Any], profile: str) -> Plan:
    """``case``'s expectations overlaid with ``entry`` (one of its ``rulesets``); an entry
    with an ``opening`` counts its step indices in the translated steps."""
    stop = entry.get("stop")
    base, base_points = case.steps, case.checkpoints
    if "opening" in entry:
        base = translated_steps(base, entry["opening"])
        base_points = translated_checkpoints(base_points, entry["opening"])
    steps = base if stop is None else base[: int(stop)]
    verdicts = entry.get("verdicts", {})
    out = []
    for i, step in enumerate(steps):
        changed = verdicts.get(str(i))
        if changed is None:
            out.append(step)
            continue
        new = {k: v for k, v in step.items() if k not in ("expect", "clause", "against")}
        if isinstance(changed, dict) and "expect" in changed:
            new["expect"] = changed["expect"]
            for key in ("clause", "against"):
                if key in changed:
                    new[key] = changed[key]
        else:
            new["expect"] = changed
        out.append(new)
    if "checkpoints" in entry:
        points = list(entry["checkpoints"])
    else:
        points = [p for p in base_points if stop is None or int(p["after"]) <= int(stop)]
    if stop is None:
        result = entry.get("result", case.result)
        blame = entry.get("blame", case.blame)
    else:
        result = entry.get("result")
        blame = entry.get("blame", {})
    return Plan(profile, tuple(out), tuple(points), None if result is None else dict(result),
                dict(blame), tuple(entry.get("requires", case.requires)),
                "showdown" in entry,
                None if "depends" not in entry else tuple(entry["depends"]))


def plans(case: Case, profile: str) -> list[Plan]:
    """The case's plans under ``profile``: the explicit one first, then the automatic one."""
    return list(_plans(case, profile))


def _plans(case: Case, profile: str) -> Iterator[Plan]:
    """:func:`plans`, each made when it is asked for (the first one usually suffices)."""
    entries = case.rulesets_of(profile) if case.ruleset_profiles else \
        [{"profiles": [profile]}] if profile == case.profile else []
    for entry in sorted(entries, key=lambda e: SHOWDOWN_ORDER.index(e.get("showdown"))):
        yield plan(case, entry, profile)


Allowed = Callable[[str, "Sequence[str] | None"], "str | None"]
"""Why an engine may not play a case's overrides under a profile (None: it may): a profile it
declared, or one whose values equal the rules it declared by value, on every parameter or, given
a plan's ``depends``, on those."""


def choose(case: Case, declared: Sequence[str], capabilities: Sequence[str],
           allowed: Allowed) -> Plan | str:
    """The plan an engine plays ``case`` by, or why it plays none.

    ``allowed(profile, depends)`` says why the engine may not play the case's overrides under a
    profile (see :data:`Allowed`). The case's own profile is tried first, then the declared
    profiles in their order, then the case's other rulesets; an explicit plan is preferred to an
    automatic one. A profile whose values differ from the engine's declared rules still gives
    the plans whose ``depends`` they agree on."""
    listed = _listed(case)
    order = dict.fromkeys(p for p in (case.profile, *declared, *listed) if p is not None)
    allowed = _once(allowed)
    missing: list[str] = []
    seen = False
    first_reason = None
    lacks: list[str] = []  # capabilities missing under a profile whose overrides it lacks
    unsent: str | None = None  # why an engine that forfeits cannot be asked a refused step
    for profile in order:
        reason = allowed(profile, None)
        candidates: Iterable[Plan] = _plans(case, profile)
        if reason is not None:
            candidates = [p for p in _plans(case, profile)
                          if p.depends is not None and allowed(profile, p.depends) is None]
            if not candidates:
                first_reason = first_reason or reason
                if reason.startswith("override") and not lacks:
                    lacks = [c for p in itertools.islice(_plans(case, profile), 1)
                             for c in p.requires if c not in capabilities]
                continue
        for candidate in candidates:
            seen = True
            lacking = [c for c in candidate.requires if c not in capabilities]
            needs, why = unsent_needs(candidate.steps, capabilities)
            if why is not None:
                unsent = unsent or why
                continue
            lacking += [c for c in needs if c not in lacking]
            if not lacking:
                return candidate
            if not missing or len(lacking) < len(missing):
                missing = lacking
    if seen:
        return f"capability {', '.join(missing)} not declared" if missing or unsent is None \
            else unsent
    if lacks:  # a capability the engine lacks excludes the case before any rule value does
        return f"capability {', '.join(lacks)} not declared"
    named = {p for g in case.unplayable for p in g["profiles"]}
    mine = [p for p in declared if p in named and not str(allowed(p)).endswith(" not selected")]
    under = _unplayable_under(case, mine, "not playable under ", allowed)
    if under:
        return under
    own = _own_reason(declared, listed, allowed)
    if own:
        return own
    ok = [p for p in order if allowed(p) is None]
    if ok and not str(first_reason).startswith("override"):
        return _not_playable(case, ok)
    if not case.ruleset_profiles and allowed(str(case.profile)) == f"profile {case.profile} not declared":
        return profile_only(case, [p for p in declared if p != case.profile])
    return first_reason or f"profile {case.profile} not declared"


def _once(allowed: Allowed) -> Callable[..., str | None]:
    """``allowed`` asked once per profile and ``depends`` (a case's selection asks about a
    profile often); ``depends`` defaults to None, every parameter."""
    known: dict[tuple[str, tuple[str, ...] | None], str | None] = {}

    def ask_once(profile: str, depends: Sequence[str] | None = None) -> str | None:
        key = (profile, None if depends is None else tuple(depends))
        if key not in known:
            known[key] = allowed(profile, depends)
        return known[key]

    return ask_once


def _own_reason(declared: Sequence[str], listed: Sequence[str],
                allowed: Callable[[str], str | None]) -> str | None:
    """Why the engine's own profile that has expectations is not allowed (an override it does
    not declare): a better reason than another profile not being declared."""
    for profile in declared:
        if profile in listed:
            reason = allowed(profile)
            if reason is not None and not reason.endswith(" not selected"):
                return reason
    return None


def _unplayable_under(case: Case, profiles: Sequence[str], prefix: str,
                      allowed: Callable[[str], str | None] | None = None) -> str | None:
    """``prefix`` + ``P: reason; ...`` for those of ``profiles`` the case lists in
    ``unplayable`` (None if it lists none of them); or, when
    another case plays the same scenario under one of them, ``covered by case X ...`` (unless
    ``allowed`` refuses that profile, say an override it lacks: then that reason, the other
    case being skipped for it too)."""
    reasons = []
    for group in case.unplayable:
        names = [p for p in group["profiles"] if p in profiles]
        reason = str(group["reason"])
        if names and reason.startswith(SAME_SCENARIO):
            refused = [r for r in map(allowed or (lambda p: None), names) if r is not None]
            return refused[0] if refused else covered(reason.removeprefix(SAME_SCENARIO), names)
        if names:
            reasons.append(f"{', '.join(names)}: {reason}")
    return prefix + "; ".join(reasons) if reasons else None


def covered(other: str, profiles: Sequence[str]) -> str:
    """Why a case is not played under ``profiles``: case ``other`` plays its deals and actions
    there, and carries the expectations of those rulesets (a duplicate, not a gap)."""
    return (f"covered by case {other}: the same deals and actions, played under "
            f"{', '.join(profiles)} as {other} with the same expectations")


def profile_only(case: Case, profiles: Sequence[str]) -> str:
    """Why a case with no ``rulesets`` (format 1, or a peer's regression case) is not played:
    its expectations are its own profile's alone, and the rule values the first of the
    ``profiles`` the engine may play give otherwise (at most three named)."""

    head = f"profile {case.profile} not declared (the case has expectations under it alone)"
    if case.profile is None or not profiles:
        return head
    try:
        mine, theirs = ruleset(case.profile, dict(case.overrides)), \
            ruleset(profiles[0], dict(case.overrides))
    except GinspecError:
        return head
    differ = [f"{k}={value_text(theirs[k])}, not {value_text(mine[k])}" for k in sorted(mine)
              if k in theirs and theirs[k] != mine[k]]
    if not differ:
        return head
    more = f" and {len(differ) - 3} more" if len(differ) > 3 else ""
    return f"{head}: {profiles[0]} plays {'; '.join(differ[:3])}{more}"


def _not_playable(case: Case, profiles: Sequence[str]) -> str:
    if not case.ruleset_profiles:
        return profile_only(case, profiles)
    if not profiles:
        return f"profile {case.profile} not declared"
    under = _unplayable_under(case, profiles, "not playable under ")
    if under:
        return under
    return "no declared profile (" + ", ".join(profiles) + ") plays it"


@dataclass(frozen=True)
class QueryPlan:
    """A query case asked under ``profile``: the answer to expect there."""

    profile: str
    expect: dict[str, Any]
    blame: dict[str, str] = field(default_factory=dict)
    """Answer field -> the clause deciding it under ``profile`` (recorded by the builder)."""


def ask(case: Case, declared: Sequence[str], capabilities: Sequence[str],
        allowed: Allowed) -> QueryPlan | str:
    """The profile a query case with ``rulesets`` is asked under, and its answer there; or why
    it is not asked. The case's own profile is tried first, then the declared ones."""
    missing = [c for c in case.requires if c not in capabilities]
    if missing:
        return f"capability {', '.join(missing)} not declared"
    listed = _listed(case) if case.ruleset_profiles else []
    order = dict.fromkeys(p for p in (case.profile, *declared, *listed) if p is not None)
    allowed = _once(allowed)
    first_reason = None
    for profile in order:
        reason = allowed(profile)
        if reason is not None:
            first_reason = first_reason or reason
            continue
        entry = next(iter(case.rulesets_of(profile)), None)
        if entry is not None:
            return QueryPlan(profile, dict(entry.get("expect", case.expect)),
                            dict(entry.get("blame", case.blame)))
    mine = [p for p in (*declared, *order) if not str(allowed(p)).endswith(" not selected")
            and (p in declared or allowed(p) is None)]
    under = _unplayable_under(case, list(dict.fromkeys(mine)), "no answer under ")
    if under:
        return under
    return _own_reason(declared, listed, allowed) or first_reason or \
        f"profile {case.profile} not declared"

"""Cases for a ruleset declared by value (``ginspec suite derive``): the committed scenarios,
replayed by the reference under exactly that ruleset, written as ordinary case files.

An engine whose rules are a profile with other values (``profile = "wikipedia"`` and
``[set] undercut_bonus = 20``) matches none of the committed rulesets. Every committed hand and
match scenario (each once) is replayed under the declared ruleset; where it plays, the derived
case expects what the reference answered (verdicts with their clauses, observations, result with
its clauses, and the automatic-showdown entry), with ``profile`` and ``overrides`` naming the
declared ruleset; a scenario of another first turn plays its opening rewritten for the declared
one where an equivalent exists (:mod:`.openings`). The committed suite itself stays judged from its own data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from ginspec.conformance.cases import Case
from ginspec.conformance.cases.expectations import translated_checkpoints, translated_steps
from ginspec.conformance.generate.rulesets import opening_for, replay, scenario_key, with_rulesets
from ginspec.spec.errors import GinspecError

DERIVED_KINDS: Final = ("hand", "match")
SKIPPED_FIELDS: Final = ("format", "fingerprint", "rulesets", "unplayable", "blame")


def derive(cases: Iterable[Case], profile: str, values: Mapping[str, Any]) -> list[Case]:
    """The cases of ``profile`` with ``values`` set, one per committed scenario that plays.

    A scenario with overrides of its own is left out unless they agree with ``values``: the
    derived case must be a game of exactly the declared ruleset."""
    out: list[Case] = []
    seen: set[str] = set()
    for case in sorted(cases, key=lambda c: c.id):
        if case.kind not in DERIVED_KINDS or case.profile is None:
            continue
        if any(values.get(k, v) != v for k, v in case.overrides.items()) or \
                set(case.overrides) - set(values):
            continue
        key = scenario_key(case)
        if key in seen:
            continue
        seen.add(key)
        derived = _derived(case, profile, dict(values))
        if derived is not None:
            out.append(derived)
    return out


def _derived(case: Case, profile: str, values: dict[str, Any]) -> Case | None:
    data = {k: v for k, v in case.data.items() if k not in SKIPPED_FIELDS}
    data.update(id=f"derived.{case.id}", profile=profile, overrides=values)
    try:
        opening = opening_for(case, profile, values)  # another first turn (openings.py)
    except GinspecError:
        return None
    if opening is not None:
        data.update(steps=translated_steps(case.steps, opening),
                    checkpoints=translated_checkpoints(case.checkpoints, opening))
    base = Case.make(**data)
    played = replay(base, profile)
    if played is None:
        return None
    n = len(played.verdicts)
    steps = []
    for step, verdict, clause in zip(base.steps[:n], played.verdicts, played.clauses,
                                     strict=True):
        new = {k: v for k, v in step.items() if k not in ("expect", "clause")}
        new["expect"] = verdict
        if clause:
            new["clause"] = clause
        steps.append(new)
    settings = ", ".join(f"{k}={v}" for k, v in sorted(values.items()))
    data.update(steps=steps, checkpoints=list(played.checkpoints),
                description=f"{case.description} (derived for {profile}"
                + (f" with {settings})" if settings else ")"),
                source={**case.data.get("source", {}), "derived_from": case.id})
    data.pop("result", None)
    if played.result is not None:
        data["result"] = played.result
    derived = Case.make(**data)
    return with_rulesets(derived, {profile: derived.id})

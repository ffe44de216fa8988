"""Generated cases: Hypothesis explores the reference under every profile and keeps the shrunk
traces that add coverage (explore offline, commit the traces as ordinary cases).

A trace is (deal seed, list of choices): at move ``i`` the player takes legal action number
``choices[i] mod n``; once the choices run out the engine's greedy strategy finishes the hand.
For each profile and each *feature* not yet covered by the other case families — an outcome
(``gin``, ``undercut``, ``tie``, ``void``, ...) or a phase (``wall``, ``reshuffle``,
``knocker-layoff``, ...) — :func:`hypothesis.find` searches for a trace with that feature and
shrinks it to the smallest one (fewest forced choices, lowest seed). Searches are derandomized
and use no example database, so a rebuild finds the same traces.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Final

from ginspec.conformance.adapters.reference_game import hand_result
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.games import (
    DEAL_CLAUSES,
    _checkpoints,
    deal_json,
    known,
    step_json,
)
from ginspec.conformance.generate.playouts import Move, actor, engine_player
from ginspec.reference.game import HandState, deal_from_seed, format_action, rules_for_profile
from ginspec.reference.game.state import CHANCE
from ginspec.reference.game.strategies import GreedyStrategy
from ginspec.spec.profiles import profiles
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

OUTCOMES: Final = ("gin", "undercut", "tie", "void")
PHASES: Final = ("first-draw", "wall", "knocker-layoff")
SEARCH_EXAMPLES: Final = 12
"""Hypothesis examples per (profile, feature) search: a feature the rules make impossible (big gin
where it is not played) costs this many hands and is then given up."""

ChoiceTrace = tuple[int, list[int]]
TRACES: Final = st.tuples(st.integers(0, 1 << 16), st.lists(st.integers(0, 63), max_size=80))


def play_trace(profile: str, trace: ChoiceTrace) -> tuple[HandState, list[Move], HandState]:
    seed, choices = trace
    rules = rules_for_profile(profile)
    start = HandState.new(deal_from_seed(seed, seed % 2), rules)
    state = start
    greedy = GreedyStrategy()
    rng = random.Random(seed)
    moves: list[Move] = []
    while not state.is_over and len(moves) < 400:
        if state.to_move == CHANCE:
            act = state.chance_action()
        elif len(moves) < len(choices):
            legal = list(state.legal_actions())
            act = legal[choices[len(moves)] % len(legal)]
        elif rng.random() < 0.5 and state.phase.value in ("draw", "discard"):
            # a patient player: no knock unless gin, so that walls and long hands happen
            legal = [a for a in state.legal_actions() if a.kind.value != "knock"]
            act = rng.choice(legal) if legal else greedy.choose(state, rng)
        else:
            act = greedy.choose(state, rng)
        text = format_action(act, rules.meld_rules)
        moves.append(Move(actor(state), text, state))
        state = state.apply(act, state.to_move)
    return start, moves, state


def features(profile: str, trace: ChoiceTrace) -> set[tuple[str, str]]:
    _, moves, final = play_trace(profile, trace)
    out = {("phase", m.before.phase.value) for m in moves}
    if final.result is not None:
        out.add(("outcome", final.result.outcome.value))
    return out


def covered_features(cases: Iterable[Case]) -> set[tuple[str, str, str]]:
    """(profile, 'outcome'|'phase', value) already shown by the given cases."""
    out: set[tuple[str, str, str]] = set()
    for case in cases:
        if case.kind != "hand" or case.profile is None:
            continue
        result = case.result or {}
        if "outcome" in result:
            out.add((case.profile, "outcome", str(result["outcome"])))
        for point in case.checkpoints:
            if "phase" in point:
                out.add((case.profile, "phase", str(point["phase"])))
    return out


def _search(profile: str, feature: tuple[str, str]) -> ChoiceTrace | None:
    try:
        return find(
            TRACES, lambda t: feature in features(profile, t),
            settings=settings(max_examples=SEARCH_EXAMPLES, derandomize=True, database=None,
                              deadline=None, phases=[Phase.generate, Phase.shrink],
                              suppress_health_check=list(HealthCheck)),
        )
    except NoSuchExample:
        return None


def trace_case(profile: str, trace: ChoiceTrace, feature: tuple[str, str]) -> Case:
    start, moves, final = play_trace(profile, trace)

    result = hand_result(final)
    decides = list(final.result.score.clauses) if final.result else []
    source: dict[str, Any] = {"generator": "hypothesis.find (derandomized)", "seed": trace[0],
                              "choices": " ".join(map(str, trace[1])) or "-",
                              "feature": f"{feature[0]}={feature[1]}"}
    if decides:
        source["blame"] = decides[0]
    fields: dict[str, Any] = {"result": result} if result else {}
    return Case.make(
        id=f"gen.{profile}.{feature[0]}-{feature[1].replace('_', '-')}", kind="hand",
        origin="generated",
        description=f"a shortest-found hand under {profile} that reaches {feature[0]} "
        f"{feature[1]} (Hypothesis-shrunk)",
        clauses=known([*DEAL_CLAUSES, *(m.clause for m in moves)]), decides=known(decides),
        profile=profile, requires=["hand", "legal-actions", "melding.explicit", "layoff.explicit"],
        source=source, deals=[deal_json(start)], steps=[step_json(m) for m in moves],
        checkpoints=_checkpoints(moves, final), **fields,
    )


def explored_cases(existing: Iterable[Case] = ()) -> list[Case]:
    """A shrunk trace for every (profile, feature) the existing cases do not show yet."""
    covered = covered_features(existing)
    out: list[Case] = []
    for profile in profiles():
        wanted = [("outcome", o) for o in OUTCOMES] + [("phase", p) for p in PHASES]
        for feature in wanted:
            if (profile, *feature) in covered:
                continue
            trace = _search(profile, feature)
            if trace is None:
                continue
            case = trace_case(profile, trace, feature)
            out.append(case)
            covered |= covered_features([case])
    return out


__all__ = ["engine_player", "explored_cases"]

"""Cases that play the game: full hands, whole matches, and one negative case per rejection code
and profile (the first position where a probe draws that code), all from seeded playouts of the
reference engine (see :mod:`.playouts`). Hypothesis-generated traces are in :mod:`.explore`;
hand-written procedure scripts (and the rejection codes no probe reaches) in :mod:`.scripted`.

Expected values here are the reference engine's: this is the oracle the suite exists to carry to
other implementations. The engine's own tests check it against the spec's examples and the
casebook; the meld-level answers it relies on are double-checked by the independent oracle.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any, Final

from ginspec.conformance.adapters.reference_game import hand_result, match_result, observation
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.playouts import Move, actor, engine_player, play, probes, rejection_of
from ginspec.reference.game import HandState, deal_from_seed, format_action, rules_for_profile
from ginspec.reference.game.match import MatchState
from ginspec.reference.game.state import Phase
from ginspec.spec.cards import card_str
from ginspec.spec.clauses import registry
from ginspec.spec.profiles import profiles

HAND_SEEDS: Final = (1, 2, 3)
NEGATIVE_SEEDS: Final = tuple(range(100, 140))
NEGATIVE_PATIENCE: Final = 6
"""Stop probing a profile after this many seeds in a row drew no new rejection code."""
MATCH_PROFILES: Final = ("pagat", "hoyle", "oklahoma", "openspiel")
LEGAL_LIST_MAX: Final = 40
"""Checkpoints list the legal actions when there are at most this many, else count them."""
DEAL_CLAUSES: Final = ("DEAL.DECK-ORDER", "DEAL.HANDS", "DEAL.UPCARD", "DEAL.STOCK")


def known(clauses: Iterable[str]) -> list[str]:
    """The clause IDs that exist in the spec (a chapter under way is left out, not dangling)."""
    reg = registry()
    return sorted({c for c in clauses if c in reg})


def deal_json(state: HandState) -> dict[str, Any]:
    return {"dealer": state.deal.dealer, "deck": [card_str(c) for c in state.deal.deck]}


def checkpoint(state: HandState, after: int, *, legal: bool) -> dict[str, Any]:
    point: dict[str, Any] = {"after": after}
    obs = observation(state)
    point.update(obs)
    if legal and not state.is_over:
        actions = sorted(format_action(a, state.rules.meld_rules) for a in state.legal_actions())
        if len(actions) <= LEGAL_LIST_MAX:
            point["legal_actions"] = actions
        else:
            point["legal_count"] = len(actions)
    return point


def step_json(move: Move) -> dict[str, Any]:
    step: dict[str, Any] = {"player": move.player, "action": move.action, "expect": "accepted"}
    clause = move.clause
    if clause in registry():
        step["clause"] = clause
    return step


def _checkpoints(moves: list[Move], final: HandState, offset: int = 0) -> list[dict[str, Any]]:
    """At the start, after every phase change, and every fourth move: the observation; the legal
    actions wherever the phase offers a choice."""
    points = [checkpoint(moves[0].before if moves else final, offset, legal=True)]
    for i, move in enumerate(moves):
        after = moves[i + 1].before if i + 1 < len(moves) else final
        if after.phase is not move.before.phase or i % 4 == 3 or after.is_over:
            choice = after.phase not in (Phase.DISCARD, Phase.RESHUFFLE)
            points.append(checkpoint(after, offset + i + 1, legal=choice))
    return points


def hand_case(profile: str, seed: int, *, origin: str = "full-hand",
              randomness: float = 0.15, family: str = "hand") -> tuple[Case, HandState]:
    """A seeded hand played out under ``profile``; ``family`` other than ``hand`` names the
    case ``<family>.<profile>.s<seed>`` and checks the observation at the start and the end
    only (its verdicts and result carry the scenario)."""
    rules = rules_for_profile(profile)
    state = HandState.new(deal_from_seed(seed, seed % 2), rules)
    rng = random.Random(f"{'' if family == 'hand' else family + ':'}hand:{profile}:{seed}")
    moves = play(state, rng, randomness)
    final = moves[-1].before.apply(moves[-1].action, _player(moves[-1])) if moves else state
    result = hand_result(final)
    assert result is not None
    decides = list(final.result.score.clauses) if final.result else []
    source: dict[str, Any] = {"generator": "seeded playout", "seed": seed}
    if decides:
        source["blame"] = decides[0]
    points = _checkpoints(moves, final) if family == "hand" else \
        [checkpoint(state, 0, legal=False), checkpoint(final, len(moves), legal=False)]
    case = Case.make(
        id=f"{family}.{profile}.s{seed}", kind="hand", origin=origin,
        description=f"a whole hand under {profile} (seeded deal {seed}): {result['outcome']}",
        clauses=known([*DEAL_CLAUSES, *(m.clause for m in moves)]),
        decides=known(decides), profile=profile,
        requires=["hand", "legal-actions", "melding.explicit", "layoff.explicit"],
        source=source,
        deals=[deal_json(state)], steps=[step_json(m) for m in moves],
        checkpoints=points, result=result,
    )
    return case, final


def _player(move: Move) -> int:

    return engine_player(move.player)


def full_hands() -> Iterator[Case]:
    for profile in profiles():
        for seed in HAND_SEEDS:
            yield hand_case(profile, seed)[0]


CROSS_HANDS: Final = {"rlcard": range(1001, 1561)}
"""Seeded hands played under a peer's own rules, to be replayed under every ruleset: RLCard's
eleven-card start opens with a discard, which every first turn can play (take-21 of
:mod:`.openings`), so each such hand is a scenario for nearly every profile."""


def cross_hands() -> Iterator[Case]:
    """The hands of :data:`CROSS_HANDS` (``play.<profile>.s<seed>``), the players' share of
    random moves 10, 20 or 30 % by seed (more walls, undercuts and layoffs)."""
    for profile, seeds in CROSS_HANDS.items():
        for seed in seeds:
            yield hand_case(profile, seed, origin="generated", family="play",
                            randomness=(0.1, 0.2, 0.3)[seed % 3])[0]


def negative_cases() -> Iterator[Case]:
    """Per profile, per rejection code: the first probe that draws it, after a minimal prefix."""
    for profile in profiles():
        rules = rules_for_profile(profile)
        found: set[str] = set()
        idle = 0
        for seed in NEGATIVE_SEEDS:
            if idle >= NEGATIVE_PATIENCE:
                break
            before = len(found)
            state = HandState.new(deal_from_seed(seed, seed % 2), rules)
            moves = play(state, random.Random(f"negative:{profile}:{seed}"), 0.3)
            final = moves[-1].before.apply(moves[-1].action, _player(moves[-1]))
            positions = [m.before for m in moves] + [final]
            for index, position in enumerate(positions):
                for player, action in probes(position):
                    rejection = rejection_of(position, player, action)
                    if rejection is None or rejection.code.value in found:
                        continue
                    found.add(rejection.code.value)
                    yield _negative(profile, seed, moves[:index], position, player, action,
                                    rejection)
            idle = 0 if len(found) > before else idle + 1
        # codes never drawn under this profile are simply absent (e.g. BIG_GIN_NOT_PLAYED where
        # big gin is played); the manifest's counts show which codes each profile covers.


def _negative(profile: str, seed: int, prefix: list[Move], position: HandState,
              player: int | str, action: str, rejection: Any) -> Case:
    code = rejection.code.value
    steps = [step_json(m) for m in prefix]
    steps.append({"player": player, "action": action, "expect": {"rejected": code},
                  "clause": rejection.clause} if rejection.clause in registry()
                 else {"player": player, "action": action, "expect": {"rejected": code}})
    n = len(prefix)
    points = [checkpoint(position, n, legal=position.phase is not Phase.DISCARD),
              checkpoint(position, n + 1, legal=False)]
    return Case.make(
        id=f"reject.{code.lower().replace('_', '-')}.{profile}", kind="hand", origin="negative",
        description=f"{action!r} by player {player} is refused with {code} under {profile}; "
        "the position is unchanged",
        clauses=known([*DEAL_CLAUSES, *(m.clause for m in prefix), "ACTION.REJECTION"]),
        violates=known([rejection.clause]), profile=profile,
        requires=["hand", "rejection-codes", "legal-actions", "melding.explicit",
                  "layoff.explicit"],
        source={"generator": "seeded playout + probe", "seed": seed},
        deals=[deal_json(prefix[0].before if prefix else position)], steps=steps,
        checkpoints=points,
    )


def _scores(match: MatchState) -> dict[str, Any]:
    """What an engine declaring ``match.scores`` reports once a hand of ``match`` is over: that
    hand's points and the scores toward the target (MATCH.CUMULATIVE, MATCH.BOX-TARGET)."""
    return {"last_points": list(match.results[-1].points), "match_scores": list(match.scores)}


def match_cases() -> Iterator[Case]:
    for profile in MATCH_PROFILES:
        if profile not in profiles():
            continue
        rules = rules_for_profile(profile)
        seed = 7
        match = MatchState.new(rules, seed)
        rng = random.Random(f"match:{profile}:{seed}")
        deals: list[dict[str, Any]] = [deal_json(match.hand)]
        steps: list[dict[str, Any]] = []
        clauses: set[str] = set(DEAL_CLAUSES)
        decides: set[str] = set()
        opened: list[dict[str, Any]] = []
        while not match.is_over and len(deals) < 60:
            moves = play(match.hand, rng, 0.1)
            for m in moves:
                steps.append(step_json(m))
                clauses.add(m.clause)
                match = match.apply(m.action, _player(m))
            res = match.hand.result
            if res is not None:
                decides.update(res.score.clauses)
            if not match.is_over:
                match = match.next_hand()
                deals.append(deal_json(match.hand))
                # each later hand opens in its first phase, the rules' dealer's opponent to act:
                # an engine whose last hand went on (or whose match ended) differs here first;
                # then the last hand's points and the scores toward the target (match.scores)
                opened.append({"after": len(steps), "phase": match.hand.phase.value,
                               "to_act": actor(match.hand), **_scores(match)})
        result = match_result(match)
        if result is None:
            continue
        final_clauses = list(match.final.clauses) if match.final else []
        decides.update(final_clauses)
        clauses.update({"MATCH.CUMULATIVE", "MATCH.TARGET", "MATCH.NEXT-DEALER"})
        yield Case.make(
            id=f"match.{profile}.s{seed}", kind="match", origin="full-match",
            description=f"a whole match under {profile} (seeded {seed}): {len(deals)} hands",
            clauses=known(clauses), decides=known(decides), profile=profile,
            requires=["match", "melding.explicit", "layoff.explicit"],
            source={"generator": "seeded match playout", "seed": seed,
                    **({"blame.final_totals": final_clauses[0]} if final_clauses else {}),
                    **({"blame.settlement": final_clauses[-1]} if final_clauses else {})},
            deals=deals, steps=steps,
            checkpoints=[{"after": 0, "to_act": actor(MatchState.new(rules, seed).hand)}, *opened,
                         {"after": len(steps), "phase": "over", "to_act": None,
                          **_scores(match)}],
            result=result,
        )

"""Match traces: playing a match into a JSON trace (TRACE.FORMAT) and checking one (TRACE.CHECK).

The format is documented in spec/chapters/15-actions-and-observations.md (clause TRACE.FORMAT).
:func:`check_trace` replays a trace under a ruleset and returns the first illegal step (with its
code and clause) or None; a trace that is not well-formed raises :class:`TraceError` naming the
field.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ginspec.reference.game.deal import Deal, DealError
from ginspec.reference.game.match import MatchState, first_dealer
from ginspec.reference.game.rejections import Rejection
from ginspec.reference.game.state import CHANCE, HandResult
from ginspec.reference.game.strategies import Strategy
from ginspec.reference.typed_rules import Rules
from ginspec.spec.cards import card_str
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value

TRACE_FORMAT: Final = "ginspec-trace"
TRACE_VERSION: Final = 1
MAX_HANDS: Final = 500
"""A played match stops after this many hands even if nobody reached the target (a guard for
strategies that never knock); the trace then has no final result."""


class TraceError(GinspecError):
    """A trace file that is not well-formed; the message names the field."""


def _hand_json(result: HandResult) -> dict[str, Any]:
    out = result.to_json()
    out["clauses"] = list(result.score.clauses)
    return out


@implements("TRACE.FORMAT")
def play_match(rules: Rules, seed: int, players: Sequence[Strategy],
               overrides: Mapping[str, Value] | None = None) -> dict[str, Any]:
    """Play a seeded match between two strategies; return its trace (JSON-ready)."""
    rng = random.Random(f"ginspec-players:{seed}")
    dealer, cut = first_dealer(rules, seed)
    match = MatchState.new(rules, seed, dealer=dealer)
    hands: list[dict[str, Any]] = []
    while True:
        hand = match.hand
        steps: list[dict[str, Any]] = []
        record = {"number": len(hands) + 1, "dealer": hand.dealer, "deck": hand.deal.tokens(),
                  "actions": steps}
        hands.append(record)
        while not match.hand_over:
            state = match.hand
            if state.to_move == CHANCE:
                action = state.chance_action()
            else:
                assert state.to_move is not None
                action = players[state.to_move].choose(state, rng)
            steps.append({"player": "chance" if state.to_move == CHANCE else state.to_move,
                          "action": str(action)})
            match = match.apply(action, state.to_move)
        result = match.results[-1]
        record["result"] = _hand_json(result)
        record["scores"] = list(match.scores)
        if match.is_over or len(hands) >= MAX_HANDS:
            break
        match = match.next_hand()
    trace: dict[str, Any] = {
        "format": TRACE_FORMAT,
        "version": TRACE_VERSION,
        "profile": rules.name,
        "overrides": dict(overrides or {}),
        "seed": seed,
        "players": [p.name for p in players],
        "first_dealer": dealer,
        "cut": None if cut is None else [card_str(c) for c in cut],
        "hands": hands,
        "result": None,
    }
    if match.final is not None:
        f = match.final
        trace["result"] = {"winner": f.winner, "totals": list(f.totals),
                           "hand_points": list(f.hand_points), "box_points": list(f.box_points),
                           "game_bonus": f.game_bonus, "shutout": f.shutout,
                           "settlement": f.settlement, "clauses": list(f.clauses)}
    return trace


# --- checking --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TraceFinding:
    """The first problem found in a trace: where, what, and the clause."""

    hand: int
    step: int | None
    action: str
    code: str
    clause: str
    message: str

    def __str__(self) -> str:
        where = f"hand {self.hand}" + (f", step {self.step}" if self.step is not None else "")
        act = f" {self.action!r}" if self.action else ""
        return f"{where}:{act} {self.code} ({self.clause}): {self.message}"


@dataclass(frozen=True)
class CheckReport:
    """The outcome of checking a trace: the first finding (None = OK) and what was checked."""

    finding: TraceFinding | None
    hands: int
    steps: int
    finished: bool

    @property
    def ok(self) -> bool:
        return self.finding is None


def _field(obj: Any, name: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict):
        raise TraceError(f"{where}: expected an object")
    if name not in obj:
        raise TraceError(f"{where}.{name}: missing")
    value = obj[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and int in kinds):
        wanted = " or ".join(_JSON_NAMES.get(k, k.__name__) for k in kinds)
        got = "boolean" if isinstance(value, bool) else _JSON_NAMES.get(type(value),
                                                                          type(value).__name__)
        raise TraceError(f"{where}.{name}: expected {wanted}, got {got}")
    return value


_JSON_NAMES: Final[dict[type, str]] = {int: "an integer", str: "a string", list: "an array",
                                       dict: "an object", type(None): "null",
                                       float: "a number"}


def parse_trace(data: Any) -> list[tuple[Deal, list[tuple[int, str]], dict[str, Any]]]:
    """Validate the structure of a trace; return (deal, steps, hand record) per hand."""
    if not isinstance(data, dict):
        raise TraceError("trace: expected a JSON object")
    fmt = data.get("format", TRACE_FORMAT)
    if fmt != TRACE_FORMAT:
        raise TraceError(f"format: expected {TRACE_FORMAT!r}, got {fmt!r}")
    hands = _field(data, "hands", list, "trace")
    out = []
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        dealer = _field(hand, "dealer", int, where)
        deck = _field(hand, "deck", (list, str), where)
        try:
            deal = Deal.parse(deck, dealer)
        except (DealError, GinspecError) as exc:
            raise TraceError(f"{where}.deck/dealer: {exc}") from None
        steps = []
        for j, step in enumerate(_field(hand, "actions", list, where)):
            swhere = f"{where}.actions[{j}]"
            player = _field(step, "player", (int, str), swhere)
            if player == "chance":
                player = CHANCE
            elif player not in (0, 1) or isinstance(player, bool):
                raise TraceError(f"{swhere}.player: expected 0, 1 or \"chance\", got {player!r}")
            steps.append((int(player), _field(step, "action", str, swhere)))
        out.append((deal, steps, hand))
    return out


@implements("TRACE.CHECK")
def check_trace(data: Any, rules: Rules) -> CheckReport:
    """Replay a trace under ``rules``; report the first illegal step or recorded-result mismatch."""
    hands = parse_trace(data)
    if not hands:
        raise TraceError("hands: the trace has no hands")
    match: MatchState | None = None
    steps_done = 0
    for h, (deal, steps, record) in enumerate(hands, 1):
        try:
            match = MatchState.new(rules, deal=deal) if match is None else match.next_hand(deal)
        except Rejection as exc:
            return CheckReport(TraceFinding(h, None, "deal", exc.code.value, exc.clause, exc.detail),
                               h - 1, steps_done, False)
        for j, (player, text) in enumerate(steps):
            if match.hand_over:
                return CheckReport(TraceFinding(h, j, text, "HAND_OVER", "ACTION.PHASE",
                                           "the hand is already over"), h, steps_done, False)
            try:
                match = match.apply(text, player)
            except Rejection as exc:
                return CheckReport(TraceFinding(h, j, text, exc.code.value, exc.clause, exc.detail),
                                   h, steps_done, False)
            steps_done += 1
        if not match.hand_over:
            return CheckReport(TraceFinding(h, None, "", "HAND_NOT_OVER", "TRACE.CHECK",
                                       f"the actions stop while the hand waits for "
                                       f"{match.hand.phase.value}"), h, steps_done, False)
        finding = _compare_result(h, match, record)
        if finding is not None:
            return CheckReport(finding, h, steps_done, False)
        if match.is_over and h < len(hands):
            return CheckReport(TraceFinding(h + 1, None, "deal", "MATCH_OVER", "MATCH.TARGET",
                                       "the match was over after the previous hand"),
                               h, steps_done, True)
    assert match is not None
    final = data.get("result") if isinstance(data, dict) else None
    if isinstance(final, dict) and "totals" in final:
        _int_pair(final["totals"], "result.totals")
    if (isinstance(final, dict) and match.final is not None and "totals" in final
            and list(final["totals"]) != list(match.final.totals)):
        return CheckReport(TraceFinding(len(hands), None, "", "RESULT_MISMATCH",
                                   "MATCH.TARGET", f"recorded totals {final['totals']}, "
                                   f"the rules give {list(match.final.totals)}"),
                           len(hands), steps_done, True)
    return CheckReport(None, len(hands), steps_done, match.is_over)


def _int_pair(value: Any, where: str) -> None:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise TraceError(f"{where}: expected two integers [player 0, player 1]")


def _compare_result(h: int, match: MatchState, record: dict[str, Any]) -> TraceFinding | None:
    """Compare a hand's recorded result (optional fields) with the rules' result."""
    result = match.results[-1]
    where = f"hands[{h - 1}]"
    if "scores" in record:
        _int_pair(record["scores"], f"{where}.scores")
    recorded = record.get("result")
    if recorded is None:
        return None
    if not isinstance(recorded, dict):
        raise TraceError(f"{where}.result: expected an object")
    for name in ("points", "deadwood"):
        if name in recorded:
            _int_pair(recorded[name], f"{where}.result.{name}")
    trail = result.score.clauses
    clause = next((c for c in trail if c != "SCORE.HAND-WINNER"), "SCORE.VOID")
    for name, ours in (("outcome", result.outcome.value), ("points", list(result.points)),
                       ("deadwood", list(result.deadwood)), ("winner", result.winner)):
        if name in recorded and recorded[name] != ours:
            return TraceFinding(h, None, "", "RESULT_MISMATCH", clause,
                           f"recorded {name} {recorded[name]!r}, the rules give {ours!r}")
    if "scores" in record and list(record["scores"]) != list(match.scores):
        return TraceFinding(h, None, "", "RESULT_MISMATCH", "MATCH.CUMULATIVE",
                       f"recorded scores {record['scores']!r}, the rules give "
                       f"{list(match.scores)!r}")
    return None

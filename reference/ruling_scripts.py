"""Game-script rulings (``kind = "game"``): a deal, a script of actions, and what each profile
says about the position the script reaches.

The position is a deal — a full deck order, or the two hands, the upcard and the top of the
stock (chapter 5) — and ``script``, actions in turn order (chapter 15's grammar), each made by the
player to move. One shorthand is allowed in a script: ``play-to-wall``, which stands for turns
in which each player in turn draws the top card of the stock and discards that same card, up to
the draw that leaves only the wall (WALL.END); that last draw is made and its discard is not.
An expectation may add actions of its own (``then``) and asks any of: is an action allowed
(``try``, with the rejection ``code`` and ``clause`` when it is not), which actions are legal or
illegal, the phase and who is to move, and the hand's result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ginspec.reference.game import Deal, HandState, Kind, Outcome, Phase, Rejection, parse_action, rules_for_profile
from ginspec.reference.game.actions import Action
from ginspec.reference.game.state import CHANCE
from ginspec.reference.ruling_header import (
    Finding,
    RulingHeader,
    expect_items,
    label_of,
    parse_header,
    position_of,
    profile_of,
)
from ginspec.spec.cards import Card, card_str, parse_cards
from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.parameters import Value

PLAY_TO_WALL: Final = "play-to-wall"
"""The script shorthand for drawing and throwing the drawn card until the wall."""
_POSITION_KEYS: Final = {"deck", "non_dealer", "dealer_cards", "upcard", "stock", "dealer", "script"}
_EXPECT_KEYS: Final = {
    "profile", "set", "note", "then", "try", "allowed", "code", "clause", "legal", "illegal",
    "phase", "to_move", "outcome", "points",
}
_PHASES: Final = {p.value for p in Phase}
_OUTCOMES: Final = tuple(o.value for o in Outcome)


@dataclass(frozen=True)
class GameExpectation:
    """What one profile says about the scripted position (every field but the profile optional)."""

    profile: str
    overrides: Mapping[str, Value]
    note: str = ""
    then: tuple[str, ...] = ()
    """Actions played after the position's script, under this expectation only."""
    attempt: str | None = None
    """The action the dispute is about (the file's ``try``)."""
    allowed: bool | None = None
    code: str | None = None
    clause: str | None = None
    legal: tuple[str, ...] = ()
    illegal: tuple[str, ...] = ()
    phase: str | None = None
    to_move: int | None = None
    outcome: str | None = None
    points: tuple[int, int] | None = None

    @property
    def label(self) -> str:
        extra = (f"then {', '.join(self.then)}",) if self.then else ()
        return label_of(self.profile, self.overrides, extra)


@dataclass(frozen=True, kw_only=True, repr=False)
class GameRuling(RulingHeader):
    """A parsed game-script ruling."""

    deck: tuple[Card, ...]
    dealer: int
    script: tuple[str, ...]
    expectations: tuple[GameExpectation, ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...], Card | None, tuple[Card, ...]] | None = None
    """As the file wrote them: non-dealer, dealer, upcard, top of the stock (None for a deck)."""

    def deal(self) -> Deal:
        return Deal(self.deck, self.dealer)

    def check(self) -> list[Finding]:
        return [check_expectation(self, e) for e in self.expectations]


@dataclass(frozen=True)
class ScriptRun:
    """A script played out: every step as ``(player, action)``, the state reached, and the
    verdict on the expectation's ``try`` (None: not asked; a Rejection, or ``"allowed"``)."""

    steps: tuple[tuple[int, str], ...]
    start: HandState
    state: HandState
    attempt: Rejection | str | None
    attempt_by: int | None


def _strings(item: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    raw = item.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise RulingFileError(f"{where}: field '{key}' must be a list of action strings")
    return tuple(raw)


def _int(item: Mapping[str, Any], key: str, where: str, allowed: tuple[int, ...]) -> int | None:
    if key not in item:
        return None
    value = item[key]
    if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
        raise RulingFileError(f"{where}: field '{key}' must be one of {', '.join(map(str, allowed))}")
    return value


def _str(item: Mapping[str, Any], key: str, where: str) -> str | None:
    if key not in item:
        return None
    if not isinstance(item[key], str):
        raise RulingFileError(f"{where}: field '{key}' must be a string")
    return str(item[key])


def _cards(text: Any, where: str) -> list[Card]:
    if not isinstance(text, str):
        raise RulingFileError(f"{where}: must be a string of cards")
    try:
        return parse_cards(text)
    except GinspecError as exc:
        raise RulingFileError(f"{where}: {exc}") from None


def _deal(pos: Mapping[str, Any], source: str) -> tuple[Deal, Any]:
    dealer = _int(pos, "dealer", f"{source}: position", (0, 1))
    dealer = 0 if dealer is None else dealer
    try:
        if "deck" in pos:
            if set(pos) & {"non_dealer", "dealer_cards", "upcard", "stock"}:
                raise RulingFileError(f"{source}: position: give 'deck' or the hands, not both")
            return Deal(tuple(_cards(pos["deck"], f"{source}: field 'position.deck'")), dealer), None
        nd = _cards(pos.get("non_dealer"), f"{source}: field 'position.non_dealer'")
        d = _cards(pos.get("dealer_cards"), f"{source}: field 'position.dealer_cards'")
        up = _cards(pos["upcard"], f"{source}: field 'position.upcard'") if "upcard" in pos else []
        if len(up) > 1:
            raise RulingFileError(f"{source}: field 'position.upcard': one card")
        top = _cards(pos.get("stock", ""), f"{source}: field 'position.stock'")
        deal = Deal.from_hands(nd, d, up[0] if up else None, top, dealer)
        return deal, (tuple(nd), tuple(d), up[0] if up else None, tuple(top))
    except RulingFileError:
        raise
    except GinspecError as exc:
        raise RulingFileError(f"{source}: position: {exc}") from None


def parse_game_ruling(data: Mapping[str, Any], source: str = "<ruling>") -> GameRuling:
    """Validate a ``kind = "game"`` ruling document (naming the file and the field on error)."""
    head = parse_header(data, source)
    pos = position_of(data, source, _POSITION_KEYS)
    deal, hands = _deal(pos, source)
    script = _strings(pos, "script", f"{source}: position")
    expectations = []
    for where, item in expect_items(data, source, _EXPECT_KEYS):
        profile, overrides = profile_of(item, where)
        allowed = item.get("allowed")
        if allowed is not None and not isinstance(allowed, bool):
            raise RulingFileError(f"{where}: field 'allowed' must be true or false")
        attempt = _str(item, "try", where)
        if attempt is not None and allowed is None:
            raise RulingFileError(f"{where}: field 'try' needs 'allowed' (true or false)")
        if attempt is None and {"allowed", "code", "clause"} & set(item):
            raise RulingFileError(f"{where}: fields 'allowed', 'code' and 'clause' need 'try'")
        if allowed and {"code", "clause"} & set(item):
            raise RulingFileError(f"{where}: an allowed action has no 'code' or 'clause'")
        phase = _str(item, "phase", where)
        if phase is not None and phase not in _PHASES:
            raise RulingFileError(f"{where}: field 'phase': {phase!r} is not one of {', '.join(sorted(_PHASES))}")
        outcome = _str(item, "outcome", where)
        if outcome is not None and outcome not in _OUTCOMES:
            raise RulingFileError(f"{where}: field 'outcome': {outcome!r} is not one of {', '.join(_OUTCOMES)}")
        if allowed and (outcome is not None or "points" in item):
            raise RulingFileError(f"{where}: 'outcome' and 'points' describe the hand before 'try'; "
                                  "an allowed 'try' would change it (put the action in 'then')")
        points = item.get("points")
        if points is not None and not (
            isinstance(points, list) and len(points) == 2 and all(isinstance(x, int) for x in points)
        ):
            raise RulingFileError(f"{where}: field 'points' must be [player 0, player 1]")
        expectations.append(
            GameExpectation(
                profile,
                overrides,
                str(item.get("note", "")),
                _strings(item, "then", where),
                attempt,
                allowed,
                _str(item, "code", where),
                _str(item, "clause", where),
                _strings(item, "legal", where),
                _strings(item, "illegal", where),
                phase,
                _int(item, "to_move", where, (0, 1)),
                outcome,
                None if points is None else (points[0], points[1]),
            )
        )
    return GameRuling(
        **head, deck=deal.deck, dealer=deal.dealer, script=script, expectations=tuple(expectations), hands=hands
    )


def _canonical(text: str) -> str:
    """An action as the conformance protocol spells it (melds kept as written)."""
    return text if text.startswith(("declare", "meld")) else str(parse_action(text))


def _play_to_wall(state: HandState, steps: list[tuple[int, str]], where: str) -> HandState:
    """Each player in turn draws the top stock card and discards it, until the draw that leaves
    only the wall; that draw is made, its discard is not (or the hand ends there)."""
    if state.phase not in (Phase.DRAW, Phase.FIRST_DRAW):
        raise RulingFileError(f"{where}: {PLAY_TO_WALL} needs a player about to draw, not phase {state.phase.value}")
    while True:
        card = state.stock[0]
        player = state.to_move
        if player is None or player == CHANCE:
            raise RulingFileError(f"{where}: nobody is to draw (phase {state.phase.value})")
        state = state.apply("draw-stock", player)
        steps.append((player, "draw-stock"))
        if state.wall_draw or state.is_over:
            return state
        discard = Action(Kind.DISCARD, card=card)
        state = state.apply(discard, player)
        steps.append((player, str(discard)))


def play_script(case: GameRuling, exp: GameExpectation) -> ScriptRun:
    """Play the position's script and the expectation's ``then`` under its ruleset, then try its
    ``try`` action. A script action that is refused is an error in the file."""
    rules = rules_for_profile(exp.profile, dict(exp.overrides))
    start = state = HandState.new(case.deal(), rules)
    steps: list[tuple[int, str]] = []
    for n, text in enumerate((*case.script, *exp.then)):
        where = f"{case.path}: {exp.label}: action {n + 1} {text!r}"
        if text == PLAY_TO_WALL:
            state = _play_to_wall(state, steps, where)
            continue
        if state.to_move is None or state.to_move == CHANCE:
            raise RulingFileError(f"{where}: nobody is to move (phase {state.phase.value})")
        player = state.to_move
        try:
            state = state.apply(text, player)
        except GinspecError as exc:
            raise RulingFileError(f"{where}: the script's actions must be legal: {exc}") from None
        steps.append((player, _canonical(text)))
    attempt: Rejection | str | None = None
    by: int | None = None
    if exp.attempt is not None:
        by = state.to_move if state.to_move not in (None, CHANCE) else (steps[-1][0] if steps else 0)
        try:
            state.apply(exp.attempt, by)
            attempt = "allowed"
        except Rejection as exc:
            attempt = exc
    return ScriptRun(tuple(steps), start, state, attempt, by)


def check_expectation(case: GameRuling, exp: GameExpectation) -> Finding:
    """Compute one expectation: the answer to each thing it asks, and what differs."""
    run = play_script(case, exp)
    state = run.state
    answer: list[tuple[str, str]] = []
    bad: list[str] = []
    trail: list[tuple[str, str]] = []
    if exp.attempt is not None:
        att = run.attempt
        if isinstance(att, Rejection):
            answer.append((f"try {exp.attempt}", f"refused: {att.code.value} ({att.clause})"))
            trail.append((att.clause, f"{exp.attempt}: refused, {att.code.value}"))
            if exp.allowed:
                bad.append(f"try {exp.attempt}: expected allowed, computed refused {att.code.value} ({att.clause})")
            if exp.code is not None and att.code.value != exp.code:
                bad.append(f"try {exp.attempt}: expected code {exp.code}, computed {att.code.value}")
            if exp.clause is not None and att.clause != exp.clause:
                bad.append(f"try {exp.attempt}: expected clause {exp.clause}, computed {att.clause}")
        else:
            answer.append((f"try {exp.attempt}", "allowed"))
            if exp.allowed is False:
                bad.append(f"try {exp.attempt}: expected refused, computed allowed")
    if exp.phase is not None or exp.to_move is not None:
        answer.append(("phase", state.phase.value))
        mover = "nobody" if state.to_move is None else "the referee" if state.to_move == CHANCE else str(state.to_move)
        answer.append(("to move", mover))
        if exp.phase is not None and state.phase.value != exp.phase:
            bad.append(f"phase: expected {exp.phase}, computed {state.phase.value}")
        if exp.to_move is not None and state.to_move != exp.to_move:
            bad.append(f"to move: expected player {exp.to_move}, computed {state.to_move}")
    for text, want in [*((t, True) for t in exp.legal), *((t, False) for t in exp.illegal)]:
        got = text in state.legal_actions()
        answer.append((f"legal: {text}", "yes" if got else "no"))
        if got != want:
            bad.append(f"{text}: expected {'legal' if want else 'illegal'}, computed {'legal' if got else 'illegal'}")
    if exp.outcome is not None or exp.points is not None or state.is_over:
        result = state.result
        if result is None:
            answer.append(("result", "the hand is not over"))
            bad.append("result: expected a finished hand; the hand is not over")
        else:
            answer.append(("outcome", result.outcome.value))
            answer.append(("points", f"player 0 {result.points[0]}, player 1 {result.points[1]}"))
            trail.extend((c, f"the result: {result.outcome.value}") for c in result.score.clauses)
            if exp.outcome is not None and result.outcome.value != exp.outcome:
                bad.append(f"outcome: expected {exp.outcome}, computed {result.outcome.value}")
            if exp.points is not None and result.points != exp.points:
                bad.append(f"points: expected {list(exp.points)}, computed {list(result.points)}")
    return Finding(exp.label, exp.profile, exp.overrides, tuple(answer), tuple(bad), tuple(trail), exp.note)


def describe_script(script: tuple[str, ...]) -> list[str]:
    """The script in words, one line per action (the shorthand spelled out)."""
    return [
        "each player in turn draws from the stock and throws the card drawn, until the draw that "
        "leaves the wall (that card is kept)"
        if a == PLAY_TO_WALL
        else a
        for a in script
    ]


def card_list(cards: tuple[Card, ...]) -> str:
    return " ".join(card_str(c) for c in cards)

"""What each player may see (OBSERVATION.PLAYER) and the referee's full view (OBSERVATION.REFEREE).

A player sees its own hand; the opponent's hand size; the stock size (not its cards); the whole
discard pile (every card in it was seen face up); the first upcard; the knock limit; the cards the
opponent took from the discard pile and still holds; every move with the card it showed — a
stock draw shows its card to the drawer only, the knock discard is face down (hidden from the
defender; with ``knock_card_face_up`` seen by both, KNOCK.PROCEDURE), a reshuffle hides the new
order; once a player spreads its cards at the showdown they are visible to both. The referee
sees everything, including the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ginspec.reference.game.actions import Kind, format_action
from ginspec.reference.game.state import CHANCE, HandState, Phase
from ginspec.spec.cards import Card, card_str, cards_of
from ginspec.spec.clauses import implements


@dataclass(frozen=True)
class PublicStep:
    """One move as an observer saw it: who, the action text, and the card it showed (if any).

    ``action`` is canonical except that a card the observer may not see is left out: an
    opponent's knock reads ``knock`` and a reshuffle reads ``reshuffle``.
    """

    player: int
    action: str
    card: Card | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": "chance" if self.player == CHANCE else self.player,
                               "action": self.action}
        if self.card is not None:
            out["card"] = card_str(self.card)
        return out


@dataclass(frozen=True)
class Observation:
    """Player ``player``'s view of a hand."""

    player: int
    phase: str
    to_move: int | None
    dealer: int
    hand: tuple[Card, ...]
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    upcard: Card | None
    knock_limit: int
    taken: Card | None
    knock_card: Card | None
    table: tuple[tuple[str, tuple[Card, ...], tuple[Card, ...]], ...]
    history: tuple[PublicStep, ...]
    legal_actions: tuple[str, ...]
    result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        def cards(cs: tuple[Card, ...]) -> list[str]:
            return [card_str(c) for c in cs]

        return {
            "player": self.player,
            "phase": self.phase,
            "to_move": "chance" if self.to_move == CHANCE else self.to_move,
            "dealer": self.dealer,
            "hand": cards(self.hand),
            "opponent_hand_size": self.opponent_hand_size,
            "opponent_known": cards(self.opponent_known),
            "stock_size": self.stock_size,
            "discard_pile": cards(self.discard_pile),
            "upcard": None if self.upcard is None else card_str(self.upcard),
            "knock_limit": self.knock_limit,
            "taken": None if self.taken is None else card_str(self.taken),
            "knock_card": None if self.knock_card is None else card_str(self.knock_card),
            "table": [{"owner": o, "meld": cards(m), "added": cards(a)} for o, m, a in self.table],
            "history": [s.to_json() for s in self.history],
            "legal_actions": list(self.legal_actions),
            "result": self.result,
        }


def _replay(state: HandState) -> list[HandState]:
    """The states before each move of the hand (replayed from the deal)."""
    states = [HandState.new(state.deal, state.rules)]
    for player, action in state.history[:-1]:
        states.append(states[-1].apply(action, player))
    return states


def public_history(state: HandState, observer: int | None) -> tuple[PublicStep, ...]:
    """The moves of the hand as ``observer`` saw them (None: the referee sees every card)."""
    steps: list[PublicStep] = []
    if not state.history:
        return ()
    for before, (player, action) in zip(_replay(state), state.history, strict=True):
        text = format_action(action, state.rules.meld_rules)
        card: Card | None = None
        kind = action.kind
        if kind in (Kind.TAKE_UPCARD, Kind.TAKE_DISCARD):
            card = before.pile[-1]
        elif kind is Kind.DRAW_STOCK and (observer is None or observer == player):
            card = before.stock[0]
        elif kind is Kind.KNOCK and observer is not None and observer != player \
                and not state.knock_card_public:
            text = "knock"  # KNOCK.PROCEDURE: face down
        elif kind is Kind.RESHUFFLE and observer is not None:
            text = "reshuffle"
        steps.append(PublicStep(player, text, card))
    return tuple(steps)


def _spread(state: HandState, player: int) -> bool:
    """Whether ``player``'s cards are face up on the table (SHOWDOWN.ORDER)."""
    if state.knocker is None or state.declaration is None:
        return False
    if player == state.knocker:
        return True
    return state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF) or (
        state.phase is Phase.OVER)


@implements("OBSERVATION.PLAYER")
def observe(state: HandState, player: int) -> Observation:
    """Player ``player``'s observation of ``state``."""
    if player not in (0, 1):
        raise ValueError(f"player is 0 or 1, not {player!r}")
    opponent = 1 - player
    known = state.known[opponent]
    if _spread(state, opponent):
        known = state.hands[opponent]
    knock_card = state.knock_card if state.knocker == player or state.knock_card_public else None
    legal = tuple(format_action(a, state.rules.meld_rules) for a in state.legal_actions()) \
        if state.to_move == player else ()
    return Observation(
        player=player,
        phase=state.phase.value,
        to_move=state.to_move,
        dealer=state.dealer,
        hand=tuple(cards_of(state.hands[player])),
        opponent_hand_size=state.hands[opponent].bit_count(),
        opponent_known=tuple(cards_of(known)),
        stock_size=len(state.stock),
        discard_pile=state.pile,
        upcard=state.upcard,
        knock_limit=state.knock_limit,
        taken=state.taken if state.to_move == player else None,
        knock_card=knock_card,
        table=tuple((t.owner, t.original.cards, t.added) for t in state.table),
        history=public_history(state, player),
        legal_actions=legal,
        result=None if state.result is None else state.result.to_json(),
    )


@implements("OBSERVATION.REFEREE")
def referee_view(state: HandState) -> dict[str, Any]:
    """Everything about the hand, as JSON-ready data."""
    def cards(mask_or_seq: int | tuple[Card, ...]) -> list[str]:
        seq = cards_of(mask_or_seq) if isinstance(mask_or_seq, int) else mask_or_seq
        return [card_str(c) for c in seq]

    return {
        "phase": state.phase.value,
        "to_move": "chance" if state.to_move == CHANCE else state.to_move,
        "dealer": state.dealer,
        "deck": state.deal.tokens(),
        "hands": [cards(state.hands[0]), cards(state.hands[1])],
        "stock": cards(state.stock),
        "discard_pile": cards(state.pile),
        "upcard": None if state.upcard is None else card_str(state.upcard),
        "knock_limit": state.knock_limit,
        "taken": None if state.taken is None else card_str(state.taken),
        "knocker": state.knocker,
        "knock_card": None if state.knock_card is None else card_str(state.knock_card),
        "table": [{"owner": t.owner, "meld": cards(t.original.cards), "added": cards(t.added)}
                  for t in state.table],
        "deadwood_cards": [cards(state.dead[0]), cards(state.dead[1])],
        "history": [s.to_json() for s in public_history(state, None)],
        "legal_actions": [format_action(a, state.rules.meld_rules)
                          for a in state.legal_actions()],
        "result": None if state.result is None else state.result.to_json(),
    }

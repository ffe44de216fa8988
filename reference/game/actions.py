"""Actions and their canonical text (ACTION.GRAMMAR).

Grammar (tokens separated by spaces; cards in CARD.NOTATION, any accepted spelling)::

    take-upcard | pass | draw-stock | take-discard | big-gin | done
    discard CARD | knock CARD
    declare [MELD {/ MELD}]          the knocker's melds (knock CARD or big-gin came first)
    meld [MELD {/ MELD}]             the defender's melds; "meld" alone = no melds
    layoff CARD to CARD              lay the first card onto the meld holding the second
    reshuffle CARD {CARD}            chance: the discard pile below its top card, in its new
                                     order (first = next to the old stock), WALL.RESHUFFLE
    MELD = CARD CARD CARD {CARD}

:meth:`Action.parse` raises :class:`MalformedAction`; ``str(action)`` is the canonical text
(upper-case cards, melds in display order and sorted, single spaces). ``Action.parse(str(a)) == a``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ginspec.reference.game.rejections import MalformedAction
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import check_meld, make_meld
from ginspec.spec.cards import Card, card_str, parse_card
from ginspec.spec.clauses import implements
from ginspec.spec.errors import CardError


class Kind(Enum):
    """The verb of an action."""

    __hash__ = object.__hash__
    """Members are equal only to themselves: hashed by identity (no Python call per lookup)."""

    TAKE_UPCARD = "take-upcard"
    PASS = "pass"
    DRAW_STOCK = "draw-stock"
    TAKE_DISCARD = "take-discard"
    DISCARD = "discard"
    KNOCK = "knock"
    BIG_GIN = "big-gin"
    DECLARE = "declare"
    MELD = "meld"
    LAYOFF = "layoff"
    DONE = "done"
    RESHUFFLE = "reshuffle"


_BARE: Final = frozenset({Kind.TAKE_UPCARD, Kind.PASS, Kind.DRAW_STOCK, Kind.TAKE_DISCARD,
                          Kind.BIG_GIN, Kind.DONE})
_ONE_CARD: Final = frozenset({Kind.DISCARD, Kind.KNOCK})
_MELDS: Final = frozenset({Kind.DECLARE, Kind.MELD})
_BY_TEXT: Final = {k.value: k for k in Kind}

MeldCards = tuple[Card, ...]


def canonical_melds(melds: Iterable[Sequence[Card]]) -> tuple[MeldCards, ...]:
    """Melds as sorted card tuples, sorted: the order-free form used for equality."""
    return tuple(sorted(tuple(sorted(m)) for m in melds))


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``card``: the card discarded, knocked with or laid off; ``target``: the
    layoff anchor (a card of the target meld); ``melds``: declared melds (order-free);
    ``cards``: the reshuffled discards, in the order they go beneath the stock."""

    kind: Kind
    card: Card | None = None
    target: Card | None = None
    melds: tuple[MeldCards, ...] = ()
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"Action.parse({format_action(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)


def _card(token: str, text: str) -> Card:
    try:
        return parse_card(token)
    except CardError as exc:
        raise MalformedAction(str(exc), action=text) from None


def _parse_melds(tokens: list[str], text: str) -> tuple[MeldCards, ...]:
    melds: list[list[Card]] = [[]]
    for token in tokens:
        if token == "/":
            melds.append([])
            continue
        # allow "7H/8H" style separators glued to cards
        parts = token.split("/")
        for i, part in enumerate(parts):
            if i:
                melds.append([])
            if part:
                melds[-1].append(_card(part, text))
    if melds == [[]]:
        return ()
    for meld in melds:
        if not meld:
            raise MalformedAction("empty meld between '/' separators", action=text)
        if len(set(meld)) != len(meld):
            raise MalformedAction("a card appears twice in one meld", action=text)
    return canonical_melds(melds)


_PARSED: dict[str, Action] = {}
"""Actions already parsed, by their text (an :class:`Action` is immutable); cleared when full."""


@implements("ACTION.GRAMMAR")
def parse_action(text: str) -> Action:
    """Parse an action; raise :class:`MalformedAction` (code MALFORMED_ACTION) if malformed."""
    if type(text) is str and text in _PARSED:
        return _PARSED[text]
    action = _parse_action(text)
    if len(_PARSED) >= 1 << 16:
        _PARSED.clear()
    _PARSED[text] = action
    return action


def _parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise MalformedAction(f"an action is text, not {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise MalformedAction("empty action", action=text)
    kind = _BY_TEXT.get(tokens[0].lower())
    if kind is None:
        raise MalformedAction(
            f"unknown verb {tokens[0]!r}; expected one of {', '.join(_BY_TEXT)}", action=text
        )
    args = tokens[1:]
    if kind in _BARE:
        if args:
            raise MalformedAction(f"{kind.value} takes no arguments", action=text)
        return Action(kind)
    if kind in _ONE_CARD:
        if len(args) != 1:
            raise MalformedAction(f"{kind.value} takes exactly one card", action=text)
        return Action(kind, card=_card(args[0], text))
    if kind in _MELDS:
        return Action(kind, melds=_parse_melds(args, text))
    if kind is Kind.LAYOFF:
        if len(args) != 3 or args[1].lower() != "to":
            raise MalformedAction("expected 'layoff CARD to CARD'", action=text)
        return Action(kind, card=_card(args[0], text), target=_card(args[2], text))
    # reshuffle
    if not args:
        raise MalformedAction("reshuffle lists the new stock, top card first", action=text)
    cards = tuple(_card(t, text) for t in args)
    if len(set(cards)) != len(cards):
        raise MalformedAction("a card appears twice in the reshuffled stock", action=text)
    return Action(kind, cards=cards)


def _meld_text(cards: MeldCards, rules: MeldRules | None) -> str:
    ordered: Sequence[Card] = cards
    if rules is not None and check_meld(cards, rules).valid:
        ordered = make_meld(cards, rules).cards
    elif check_meld(cards).valid:
        ordered = make_meld(cards).cards
    return " ".join(card_str(c) for c in ordered)


def format_action(action: Action, rules: MeldRules | None = None) -> str:
    """The canonical text of ``action`` (runs in playing order under ``rules`` when given)."""
    kind = action.kind
    if kind in _BARE:
        return kind.value
    if kind in _ONE_CARD:
        assert action.card is not None
        return f"{kind.value} {card_str(action.card)}"
    if kind in _MELDS:
        body = " / ".join(_meld_text(m, rules) for m in action.melds)
        return f"{kind.value} {body}" if body else kind.value
    if kind is Kind.LAYOFF:
        assert action.card is not None and action.target is not None
        return f"layoff {card_str(action.card)} to {card_str(action.target)}"
    return "reshuffle " + " ".join(card_str(c) for c in action.cards)


# Interned simple actions (the engine's hot path builds no new objects for these).
TAKE_UPCARD: Final = Action(Kind.TAKE_UPCARD)
PASS: Final = Action(Kind.PASS)
DRAW_STOCK: Final = Action(Kind.DRAW_STOCK)
TAKE_DISCARD: Final = Action(Kind.TAKE_DISCARD)
BIG_GIN: Final = Action(Kind.BIG_GIN)
DONE: Final = Action(Kind.DONE)
DISCARDS: Final = tuple(Action(Kind.DISCARD, card=c) for c in range(52))
KNOCKS: Final = tuple(Action(Kind.KNOCK, card=c) for c in range(52))

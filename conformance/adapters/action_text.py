"""Our action strings: parsing into a canonical form, formatting, and comparing.

The grammar is ACTION.GRAMMAR (PROTOCOL.md): ``take-upcard``, ``pass``, ``draw-stock``,
``take-discard``, ``discard XX``, ``knock XX``, ``big-gin``, ``declare A B C / D E F``,
``meld A B C / ...`` (``meld`` alone: no melds), ``layoff XX to YY``, ``done``.

Two spellings of the same choice compare equal after :func:`canonical`: card tokens are
normalised, the melds of a declaration form an unordered set, and runs of one suit that touch
(``3S 4S 5S / 6S 7S 8S``) merge into one run — a peer that can only lay runs of up to five cards
(OpenSpiel) lays a six-card run as two, and both spellings leave the same cards to lay off on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeAlias

from ginspec.reference.melds import check_meld
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards, rank_of, suit_of
from ginspec.spec.errors import CardError, GinspecError


class ActionTextError(GinspecError):
    """An action string is not in the grammar (ACTION.GRAMMAR)."""

MeldCards: TypeAlias = frozenset[Card]
Canonical: TypeAlias = tuple[object, ...]
"""A hashable canonical action: ``(verb,)``, ``(verb, card)``, ``(verb, frozenset of melds)``
or ``("layoff", card, anchor)``."""

SIMPLE_VERBS = frozenset({"take-upcard", "pass", "draw-stock", "take-discard", "done", "big-gin"})
CARD_VERBS = frozenset({"discard", "knock"})
MELD_VERBS = frozenset({"declare", "meld"})


def _is_run(cards: Iterable[Card]) -> bool:
    cs = list(cards)
    return len({suit_of(c) for c in cs}) == 1 and check_meld(cs).valid and len(
        {rank_of(c) for c in cs}) == len(cs)


def merge_runs(melds: Iterable[Iterable[Card]]) -> frozenset[MeldCards]:
    """The melds with touching same-suit runs merged (see the module docstring)."""
    runs: list[set[Card]] = []
    others: list[MeldCards] = []
    for meld in melds:
        cards = frozenset(meld)
        if len(cards) >= 3 and len({suit_of(c) for c in cards}) == 1:
            runs.append(set(cards))
        else:
            others.append(cards)
    merged = True
    while merged:
        merged = False
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                a, b = runs[i], runs[j]
                if suit_of(next(iter(a))) == suit_of(next(iter(b))) and (
                        max(a) + 1 == min(b) or max(b) + 1 == min(a)):
                    runs[i] = a | b
                    del runs[j]
                    merged = True
                    break
            if merged:
                break
    return frozenset(others) | frozenset(frozenset(r) for r in runs)


def parse_melds(text: str) -> list[list[Card]]:
    """``'7D 7H 7S / 8C 9C TC'`` -> card lists (no validation of the melds themselves)."""
    text = text.strip()
    if not text:
        return []
    return [parse_cards(part) for part in text.split("/")]


@lru_cache(maxsize=1 << 16)
def canonical(action: str) -> Canonical:
    """The canonical form of one action string; raises :class:`ActionTextError` when malformed.
    (Cached: the same strings recur in every hand of a live run.)"""
    words = action.strip().split(None, 1)
    if not words:
        raise ActionTextError("empty action")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    try:
        if verb in SIMPLE_VERBS and not rest:
            return (verb,)
        if verb in CARD_VERBS:
            return (verb, parse_card(rest))
        if verb in MELD_VERBS:
            melds = parse_melds(rest)
            named = [c for m in melds for c in m]
            if len(set(named)) != len(named):
                # Merging into a set would make 'meld 7C 7D 7H / 7C 7D 7H' the legal
                # 'meld 7C 7D 7H': no engine can lay one card twice (MELD.DISJOINT).
                raise ActionTextError(f"{action!r} names a card twice (MELD.DISJOINT)")
            return (verb, merge_runs(melds))
        if verb == "layoff":
            parts = rest.split()
            if len(parts) == 3 and parts[1].lower() == "to":
                return (verb, parse_card(parts[0]), parse_card(parts[2]))
    except CardError as exc:
        raise ActionTextError(f"malformed action {action!r}: {exc}") from exc
    raise ActionTextError(f"malformed action {action!r}")


def meld_text(cards: Iterable[Card]) -> str:
    """One meld as text: runs in rank order, sets by suit (both ascending card number)."""
    cs = sorted(cards)
    if not _is_run(cs):
        cs = sorted(cs, key=lambda c: (rank_of(c), suit_of(c)))
    return " ".join(card_str(c) for c in cs)


def melds_text(melds: Iterable[Iterable[Card]]) -> str:
    """Melds as ``' / '``-separated text, ordered by their lowest card number."""
    return " / ".join(meld_text(m) for m in sorted((sorted(m) for m in melds), key=min))


def format_action(verb: str, *args: Card | Sequence[Iterable[Card]]) -> str:
    """Our action string for a verb and its arguments (cards or a list of melds)."""
    if verb in SIMPLE_VERBS:
        return verb
    if verb in CARD_VERBS:
        card = args[0]
        assert isinstance(card, int)
        return f"{verb} {card_str(card)}"
    if verb in MELD_VERBS:
        melds = args[0]
        assert not isinstance(melds, int)
        body = melds_text(melds)
        return f"{verb} {body}" if body else verb
    if verb == "layoff":
        card, anchor = args
        assert isinstance(card, int) and isinstance(anchor, int)
        return f"layoff {card_str(card)} to {card_str(anchor)}"
    raise ActionTextError(f"unknown verb {verb!r}")


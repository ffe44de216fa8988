"""The showdown calls the engine makes, from ``ginspec.reference.layoffs`` (chapter 13), plus the
two small helpers the engine needs on top of it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ginspec.reference.layoffs import (
    Declaration,
    Layoff,
    ShowdownError,
    ShowdownRules,
    Table,
    TableMeld,
    apply_layoff,
    best_layoffs,
    check_declaration,
    legal_declarations,
    legal_layoffs,
    table_of,
)
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import Arrangement, Cards, Meld, all_melds, check_arrangement
from ginspec.reference.vocabulary import Side
from ginspec.spec.cards import Card, CardMask
from ginspec.spec.errors import MeldError

__all__ = [
    "Declaration", "Layoff", "ShowdownError", "ShowdownRules", "Side", "Table", "TableMeld",
    "apply_layoff", "best_layoffs", "check_declaration", "check_defender_melds",
    "disjoint_meld_sets", "find_meld", "legal_declarations", "legal_layoffs", "table_of",
]


def disjoint_meld_sets(mask: CardMask, rules: MeldRules) -> list[tuple[Meld, ...]]:
    """Every collection of pairwise disjoint melds within ``mask`` (including none): the
    defender's possible spreads (SHOWDOWN.DEFENDER-SPREAD)."""
    melds = all_melds(mask, rules)
    masks = [m.mask for m in melds]
    out: list[tuple[Meld, ...]] = []

    def walk(i: int, used: CardMask, chosen: tuple[Meld, ...]) -> None:
        out.append(chosen)
        for j in range(i, len(melds)):
            if not masks[j] & used:
                walk(j + 1, used | masks[j], (*chosen, melds[j]))

    walk(0, 0, ())
    return out


def find_meld(table: Table, anchor: Card, owner: Side) -> int | None:
    """The index of ``owner``'s table meld holding ``anchor`` (any of its cards now), if any."""
    for i, t in enumerate(table):
        if t.owner == owner and t.mask >> anchor & 1:
            return i
    return None


def check_defender_melds(cards: Cards, melds: Iterable[Sequence[Card]],
                         rules: MeldRules) -> Arrangement:
    """The defender's spread as an arrangement of its cards, or ShowdownError
    DEFENDER_MELD_INVALID (SHOWDOWN.DEFENDER-SPREAD)."""
    try:
        return check_arrangement(cards, melds, rules)
    except MeldError as exc:
        raise ShowdownError(str(exc), "DEFENDER_MELD_INVALID") from None

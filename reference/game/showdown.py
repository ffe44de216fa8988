"""The showdown calls the engine makes (declaration, defender melds, layoffs).

TEMPORARY private copy of the interface agreed in /work/notes/showdown-interface.md: once
``ginspec.reference.layoffs`` (owned by the "showdown" engineer) lands, this module re-exports it
and this copy is deleted. Same names, same signatures, same error codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ginspec.reference import melds as M
from ginspec.reference.game import clause_ids as C
from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.cards import Card, CardMask, card_str, card_value, cards_of, format_cards, mask_of
from ginspec.spec.errors import GinspecError, MeldError
from ginspec.spec.parameters import Value

Side: TypeAlias = Literal["knocker", "defender"]


class ShowdownError(GinspecError):
    """A refused declaration, defender spread or layoff, with ``code`` and ``clause``."""

    def __init__(self, code: str, clause: str, message: str):
        self.code = code
        self.clause = clause
        super().__init__(f"{code} ({clause}): {message}")


@dataclass(frozen=True)
class ShowdownRules:
    knock_limit: int
    layoff_chain: str
    layoff_after_gin: str
    knocker_may_lay_off: bool
    knocker_must_meld_maximally: bool
    meld_rules: MeldRules

    @classmethod
    def from_params(cls, params: Mapping[str, Value]) -> ShowdownRules:
        from ginspec.reference.game.rules import param

        return cls(
            knock_limit=int(param(params, "knock_limit")),
            layoff_chain=str(param(params, "layoff_chain")),
            layoff_after_gin=str(param(params, "layoff_after_gin")),
            knocker_may_lay_off=bool(param(params, "knocker_may_lay_off")),
            knocker_must_meld_maximally=bool(param(params, "knocker_must_meld_maximally")),
            meld_rules=MeldRules.from_params(
                {k: param(params, k) for k in ("ace_high_runs", "wraparound_runs", "ace_value")}
            ),
        )


@dataclass(frozen=True)
class TableMeld:
    owner: Side
    original: M.Meld
    added: tuple[Card, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.original.cards + self.added

    @property
    def mask(self) -> CardMask:
        return mask_of(self.cards)

    @property
    def anchor(self) -> Card:
        return min(self.original.cards)


Table: TypeAlias = tuple[TableMeld, ...]


@dataclass(frozen=True)
class Layoff:
    card: Card
    target: int

    def text(self, table: Table) -> str:
        return f"layoff {card_str(self.card)} to {card_str(table[self.target].anchor)}"


@dataclass(frozen=True)
class Declaration:
    melds: tuple[M.Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    gin: bool
    big_gin: bool


def check_declaration(
    hand: M.Cards, melds: Iterable[Sequence[Card]], rules: ShowdownRules
) -> Declaration:
    mask = M.to_mask(hand)
    used = 0
    built: list[M.Meld] = []
    for group in melds:
        check = M.check_meld(list(group), rules.meld_rules)
        text = " ".join(card_str(c) for c in group)
        if not check.valid:
            raise ShowdownError("DECLARATION_NOT_A_MELD", C.SHOWDOWN_DECLARATION,
                                f"{text} is not a meld: {check.reason}")
        g = mask_of(group)
        if g & ~mask:
            raise ShowdownError("DECLARATION_CARD_NOT_HELD", C.SHOWDOWN_DECLARATION,
                                f"{format_cards(g & ~mask)} not in the knocker's hand")
        if g & used:
            raise ShowdownError("DECLARATION_CARD_TWICE", C.SHOWDOWN_DECLARATION,
                                f"{format_cards(g & used)} declared in two melds")
        used |= g
        built.append(M.make_meld(list(group), rules.meld_rules))
    arrangement = M.arrangement_of(built, cards_of(mask & ~used), rules.meld_rules)
    if arrangement.deadwood > rules.knock_limit:
        raise ShowdownError("DECLARATION_OVER_LIMIT", C.KNOCK_LIMIT,
                            f"declared deadwood {arrangement.deadwood} is above the limit "
                            f"{rules.knock_limit}")
    if rules.knocker_must_meld_maximally:
        best = M.min_deadwood(mask, rules.meld_rules)
        if arrangement.deadwood > best:
            raise ShowdownError("DECLARATION_NOT_MAXIMAL", C.SHOWDOWN_DECLARATION_MAXIMAL,
                                f"declared deadwood {arrangement.deadwood}, but the hand can "
                                f"reach {best}")
    return Declaration(arrangement.melds, arrangement.deadwood_cards, arrangement.deadwood,
                       gin=arrangement.deadwood == 0,
                       big_gin=arrangement.deadwood == 0 and mask.bit_count() == 11)


def disjoint_meld_sets(mask: CardMask, rules: MeldRules) -> list[tuple[M.Meld, ...]]:
    """Every set of pairwise disjoint melds within ``mask`` (including the empty set)."""
    melds = M.all_melds(mask, rules)
    out: list[tuple[M.Meld, ...]] = []

    def walk(i: int, used: CardMask, chosen: tuple[M.Meld, ...]) -> None:
        out.append(chosen)
        for j in range(i, len(melds)):
            m = melds[j].mask
            if not m & used:
                walk(j + 1, used | m, (*chosen, melds[j]))

    walk(0, 0, ())
    return out


def legal_declarations(hand: M.Cards, rules: ShowdownRules) -> list[Declaration]:
    mask = M.to_mask(hand)
    best = M.min_deadwood(mask, rules.meld_rules)
    if best > rules.knock_limit:
        return []
    out = []
    ace = rules.meld_rules.ace_value
    for chosen in disjoint_meld_sets(mask, rules.meld_rules):
        used = 0
        for m in chosen:
            used |= m.mask
        dead = sum(card_value(c, ace) for c in cards_of(mask & ~used))
        if dead > rules.knock_limit or (rules.knocker_must_meld_maximally and dead > best):
            continue
        arrangement = M.arrangement_of(chosen, cards_of(mask & ~used), rules.meld_rules)
        out.append(Declaration(arrangement.melds, arrangement.deadwood_cards, dead, dead == 0,
                               dead == 0 and mask.bit_count() == 11))
    out.sort(key=lambda d: tuple(m.key for m in d.melds))
    return out


def table_of(declaration: Declaration | Sequence[M.Meld],
             defender_melds: Sequence[M.Meld] = ()) -> Table:
    melds = declaration.melds if isinstance(declaration, Declaration) else declaration
    return tuple(TableMeld("knocker", m) for m in melds) + tuple(
        TableMeld("defender", m) for m in defender_melds)


def _fits(card: Card, target: TableMeld, rules: ShowdownRules) -> str | None:
    """None if ``card`` may be laid off onto ``target``, else the clause it breaks."""
    mr = rules.meld_rules
    current_ok = M.check_meld([*target.cards, card], mr).valid
    if rules.layoff_chain == "original_melds_only":
        if current_ok and M.check_meld([*target.original.cards, card], mr).valid:
            return None
        if current_ok:
            return C.LAYOFF_CHAIN
    elif current_ok:
        return None
    return C.LAYOFF_SET if target.original.kind is M.MeldKind.SET else C.LAYOFF_RUN


def _check_side(rules: ShowdownRules, side: Side, gin: bool) -> None:
    if side == "knocker" and not rules.knocker_may_lay_off:
        raise ShowdownError("LAYOFF_BY_KNOCKER", C.LAYOFF_KNOCKER,
                            "the knocker may not lay off under this ruleset")
    if gin and rules.layoff_after_gin == "forbidden":
        raise ShowdownError("LAYOFF_AFTER_GIN", C.LAYOFF_AFTER_GIN,
                            "nothing may be laid off onto a gin hand")


def legal_layoffs(table: Table, cards: M.Cards, rules: ShowdownRules,
                  side: Side = "defender", gin: bool = False) -> list[Layoff]:
    try:
        _check_side(rules, side, gin)
    except ShowdownError:
        return []
    mask = M.to_mask(cards)
    out = []
    for i, target in enumerate(table):
        if target.owner == side:
            continue
        for card in cards_of(mask):
            if _fits(card, target, rules) is None:
                out.append(Layoff(card, i))
    return out


def apply_layoff(table: Table, layoff: Layoff, cards: M.Cards, rules: ShowdownRules,
                 side: Side = "defender", gin: bool = False) -> Table:
    _check_side(rules, side, gin)
    mask = M.to_mask(cards)
    if not mask >> layoff.card & 1:
        raise ShowdownError("LAYOFF_CARD_NOT_HELD", C.LAYOFF_TARGET,
                            f"{card_str(layoff.card)} is not among the unmelded cards")
    if not 0 <= layoff.target < len(table) or table[layoff.target].owner == side:
        raise ShowdownError("LAYOFF_NO_SUCH_MELD", C.LAYOFF_TARGET,
                            "no meld of the other player there")
    target = table[layoff.target]
    broken = _fits(layoff.card, target, rules)
    if broken is not None:
        raise ShowdownError("LAYOFF_DOES_NOT_FIT", broken,
                            f"{card_str(layoff.card)} does not extend "
                            f"{' '.join(card_str(c) for c in target.cards)}")
    new = TableMeld(target.owner, target.original, (*target.added, layoff.card))
    return (*table[: layoff.target], new, *table[layoff.target + 1 :])


def find_meld(table: Table, anchor: Card, owner: Side) -> int | None:
    """The index of ``owner``'s table meld holding ``anchor``, if any."""
    for i, t in enumerate(table):
        if t.owner == owner and anchor in t.cards:
            return i
    return None


def check_defender_melds(cards: M.Cards, melds: Iterable[Sequence[Card]],
                         rules: MeldRules) -> M.Arrangement:
    try:
        return M.check_arrangement(cards, melds, rules)
    except MeldError as exc:
        raise ShowdownError("DEFENDER_MELD_INVALID", C.SHOWDOWN_DEFENDER_SPREAD, str(exc)) from None

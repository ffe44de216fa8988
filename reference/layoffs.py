"""The showdown after a knock: the knocker's declaration, the defender's spread and layoffs
(chapter 13 of the spec: SHOWDOWN.*, LAYOFF.*).

Everything here is a pure function of its arguments; a table is an immutable tuple of
:class:`TableMeld`, and :func:`apply_layoff` returns a new one. Illegal steps raise
:class:`ShowdownError`, which carries a ``code`` from :data:`SHOWDOWN_CODES` and the ID of the
clause that forbids the step.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal, TypeAlias

from ginspec.reference.meld_rules import STANDARD, MeldRules
from ginspec.reference.melds import (
    Cards,
    Meld,
    MeldKind,
    all_melds,
    check_meld,
    make_meld,
    min_deadwood,
    optimal_arrangements,
    to_mask,
)
from ginspec.reference.vocabulary import DEFENDER, KNOCKER, Side
from ginspec.spec.cards import (
    Card,
    CardMask,
    card_str,
    card_value,
    cards_of,
    parse_card,
    parse_cards,
)
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError, HandSizeError, ParameterError
from ginspec.spec.parameters import Value, parameter

LayoffChain: TypeAlias = Literal["unlimited", "original_melds_only"]
LayoffAfterGin: TypeAlias = Literal["forbidden", "allowed", "allowed_zero_cancels"]

SHOWDOWN_CODES: Final[dict[str, str]] = {
    "DECLARATION_NOT_A_MELD": "MELD.SET",
    "DECLARATION_CARD_NOT_HELD": "SHOWDOWN.DECLARATION",
    "DECLARATION_CARD_TWICE": "SHOWDOWN.DECLARATION",
    "DECLARATION_OVER_LIMIT": "SHOWDOWN.DECLARATION",
    "DECLARATION_NOT_MAXIMAL": "SHOWDOWN.DECLARATION.MAXIMAL",
    "DECLARATION_ELEVEN_CARDS": "SHOWDOWN.DECLARATION",
    "DEFENDER_MELD_INVALID": "SHOWDOWN.DEFENDER-SPREAD",
    "LAYOFF_CARD_NOT_HELD": "LAYOFF.TARGET",
    "LAYOFF_NO_SUCH_MELD": "LAYOFF.TARGET",
    "LAYOFF_DOES_NOT_FIT": "LAYOFF.FIT",
    "LAYOFF_CHAINED": "LAYOFF.CHAIN",
    "LAYOFF_AFTER_GIN": "LAYOFF.AFTER-GIN",
    "LAYOFF_BY_KNOCKER": "LAYOFF.KNOCKER",
}
"""Every rejection code of the showdown and the clause that is its default reason.

A :class:`ShowdownError` may name a more specific clause than the default (for example
``MELD.RUN.ACE-LOW`` for a declared Q-K-A)."""


class ShowdownError(GinspecError):
    """An illegal declaration, spread or layoff; ``code`` is a key of SHOWDOWN_CODES."""

    def __init__(self, message: str, code: str, clause: str | None = None) -> None:
        if code not in SHOWDOWN_CODES:
            raise ValueError(f"unknown showdown code {code!r}")
        super().__init__(message)
        self.code = code
        self.clause = clause or SHOWDOWN_CODES[code]


# --- the parameters ---------------------------------------------------------------------------

_SHOWDOWN_PARAMS: Final = (
    "knock_limit",
    "layoff_chain",
    "layoff_after_gin",
    "knocker_may_lay_off",
    "knocker_must_meld_maximally",
    "big_gin_bonus",
)


def _param(params: Mapping[str, Value], name: str) -> Value:
    """A parameter's value from ``params``, else the catalogue default (checked either way)."""
    spec = parameter(name)
    return spec.check(params.get(name, spec.default))


@dataclass(frozen=True)
class ShowdownRules:
    """The ruleset parameters the showdown depends on.

    ``knock_limit`` is the limit in force for this hand (for Oklahoma, the one set by the upcard).
    ``big_gin`` says whether an eleven-card declaration is played at all (big_gin_bonus > 0).
    """

    knock_limit: int = 10
    layoff_chain: LayoffChain = "unlimited"
    layoff_after_gin: LayoffAfterGin = "forbidden"
    knocker_may_lay_off: bool = False
    knocker_must_meld_maximally: bool = False
    big_gin: bool = False
    meld_rules: MeldRules = STANDARD

    def __post_init__(self) -> None:
        if self.layoff_chain not in ("unlimited", "original_melds_only"):
            raise ParameterError(f"parameter layoff_chain: {self.layoff_chain!r} is not allowed")
        if self.layoff_after_gin not in ("forbidden", "allowed", "allowed_zero_cancels"):
            raise ParameterError(
                f"parameter layoff_after_gin: {self.layoff_after_gin!r} is not allowed"
            )
        if not 0 <= self.knock_limit <= 10:
            raise ParameterError(f"parameter knock_limit: {self.knock_limit} is outside 0..10")

    @classmethod
    def from_params(cls, params: Mapping[str, Value]) -> ShowdownRules:
        """Read the showdown parameters from a ruleset mapping (missing ones take the default)."""
        chain = str(_param(params, "layoff_chain"))
        after_gin = str(_param(params, "layoff_after_gin"))
        return cls(
            knock_limit=int(_param(params, "knock_limit")),
            layoff_chain="original_melds_only" if chain == "original_melds_only" else "unlimited",
            layoff_after_gin=(
                "allowed" if after_gin == "allowed"
                else "allowed_zero_cancels" if after_gin == "allowed_zero_cancels"
                else "forbidden"
            ),
            knocker_may_lay_off=bool(_param(params, "knocker_may_lay_off")),
            knocker_must_meld_maximally=bool(_param(params, "knocker_must_meld_maximally")),
            big_gin=int(_param(params, "big_gin_bonus")) > 0,
            meld_rules=MeldRules.from_params(params),
        )

    def with_limit(self, knock_limit: int) -> ShowdownRules:
        """The same rules with another knock limit (e.g. the Oklahoma upcard's)."""
        return replace(self, knock_limit=knock_limit)


RulesLike: TypeAlias = "ShowdownRules | Mapping[str, Value]"
"""The rules of a showdown: a :class:`ShowdownRules`, or a ruleset mapping (e.g. a profile's)."""


def as_rules(rules: RulesLike, *, limit_matters: bool = False) -> ShowdownRules:
    """The :class:`ShowdownRules` of ``rules``; a mapping is read with ShowdownRules.from_params.

    Under Oklahoma the knock limit comes from the upcard, which a ruleset alone does not know: where
    the limit matters, pass ``ShowdownRules.from_params(ruleset).with_limit(limit)`` instead.
    """
    if isinstance(rules, ShowdownRules):
        return rules
    if limit_matters and rules.get("oklahoma"):
        raise ParameterError(
            "under Oklahoma the knock limit comes from the upcard: pass "
            "ShowdownRules.from_params(ruleset).with_limit(knock_limit_for(ruleset, upcard))"
        )
    return ShowdownRules.from_params(rules)


# --- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableMeld:
    """A meld spread on the table: who spread it, as spread, and the cards laid off onto it."""

    owner: Side
    original: Meld
    added: tuple[Card, ...] = ()

    @property
    def mask(self) -> CardMask:
        return self.original.mask | to_mask(self.added)

    @property
    def kind(self) -> MeldKind:
        return self.original.kind

    def cards(self, rules: MeldRules = STANDARD) -> tuple[Card, ...]:
        """The meld's cards now, in display order."""
        if not self.added:
            return self.original.cards
        return make_meld([*self.original.cards, *self.added], rules).cards

    def __str__(self) -> str:
        extra = f" + {' '.join(card_str(c) for c in self.added)}" if self.added else ""
        return f"{self.original}{extra}"


Table: TypeAlias = tuple[TableMeld, ...]
"""The melds on the table: the knocker's declared melds first, then the defender's."""


def table_of(knocker_melds: Iterable[Meld], defender_melds: Iterable[Meld] = ()) -> Table:
    """A fresh table: the knocker's melds (in the given order), then the defender's."""
    knocker = [TableMeld(KNOCKER, m) for m in knocker_melds]
    return (*knocker, *(TableMeld(DEFENDER, m) for m in defender_melds))


@dataclass(frozen=True)
class Layoff:
    """One card laid off onto the meld ``table[target]``; ``anchor`` is the lowest card (by card
    number) of that meld as originally spread.

    Written ``layoff 9S to 8S``: the card, then any card of the target meld (LAYOFF.TARGET).
    """

    card: Card
    target: int
    anchor: Card

    def __str__(self) -> str:
        return f"layoff {card_str(self.card)} to {card_str(self.anchor)}"

    def __repr__(self) -> str:
        return f"Layoff(card={self.card}, target={self.target}, anchor={self.anchor})"


def parse_layoff(text: str, table: Table) -> Layoff:
    """Parse ``'layoff 9S to 8S'`` (or ``'9S to 8S'``) against ``table``.

    The anchor may be any card now in the target meld, including one laid off earlier.
    """
    words = text.split()
    if words and words[0].lower() == "layoff":
        words = words[1:]
    if len(words) != 3 or words[1].lower() != "to":
        raise ShowdownError(f"expected 'layoff CARD to CARD', got {text!r}", "LAYOFF_NO_SUCH_MELD")
    card, anchor = parse_card(words[0]), parse_card(words[2])
    for index, meld in enumerate(table):
        if meld.mask >> anchor & 1:
            return Layoff(card, index, min(meld.original.cards))
    raise ShowdownError(f"no meld on the table holds {card_str(anchor)}", "LAYOFF_NO_SUCH_MELD")


# --- which cards fit ----------------------------------------------------------------------------


@implements("LAYOFF.FIT", "LAYOFF.SET", "LAYOFF.RUN", "LAYOFF.CHAIN")
def fit_failure(meld: TableMeld, card: Card, rules: ShowdownRules) -> str | None:
    """Why ``card`` may not be laid off onto ``meld`` (a clause ID), or None when it fits.

    A card fits when the meld with the card added is still a meld (LAYOFF.FIT): the fourth card
    of a three-card set (LAYOFF.SET), the next card at either end of a run (LAYOFF.RUN). With
    ``layoff_chain = original_melds_only`` it must also fit the meld as originally spread
    (LAYOFF.CHAIN).
    """
    grown = [*meld.original.cards, *meld.added, card]
    if not check_meld(grown, rules.meld_rules).valid:
        return "LAYOFF.SET" if meld.kind is MeldKind.SET else "LAYOFF.RUN"
    if (
        rules.layoff_chain == "original_melds_only"
        and meld.added
        and not check_meld([*meld.original.cards, card], rules.meld_rules).valid
    ):
        return "LAYOFF.CHAIN"
    return None


@implements("LAYOFF.AFTER-GIN", "LAYOFF.KNOCKER")
def layoffs_allowed(rules: ShowdownRules, side: Side, gin: bool) -> str | None:
    """Why ``side`` may not lay off at all (a clause ID), or None when it may."""
    if side == KNOCKER and not rules.knocker_may_lay_off:
        return "LAYOFF.KNOCKER"
    if gin and rules.layoff_after_gin == "forbidden":
        return "LAYOFF.AFTER-GIN"
    return None


def _targets(table: Table, side: Side) -> list[int]:
    """The melds ``side`` may lay off onto: the other player's (LAYOFF.TARGET)."""
    return [i for i, m in enumerate(table) if m.owner != side]


@implements("LAYOFF.TARGET")
def legal_layoffs(
    table: Table, cards: Cards, rules: RulesLike, side: Side = DEFENDER, gin: bool = False
) -> list[Layoff]:
    """Every single layoff ``side`` may make now with one of ``cards`` (by card, then meld)."""
    rules = as_rules(rules)
    if layoffs_allowed(rules, side, gin) is not None:
        return []
    targets = _targets(table, side)
    out: list[Layoff] = []
    for card in cards_of(to_mask(cards)):
        for index in targets:
            if fit_failure(table[index], card, rules) is None:
                out.append(Layoff(card, index, min(table[index].original.cards)))
    return out


@implements("LAYOFF.TARGET", "LAYOFF.FIT", "LAYOFF.CHAIN", "LAYOFF.AFTER-GIN", "LAYOFF.KNOCKER")
def apply_layoff(
    table: Table,
    layoff: Layoff,
    rules: RulesLike,
    side: Side = DEFENDER,
    gin: bool = False,
    hand: Cards | None = None,
) -> Table:
    """The table after ``layoff``; an illegal layoff raises ShowdownError (the table is immutable).

    ``hand``, when given, is the layer's unmelded cards: the card must be one of them.
    """
    rules = as_rules(rules)
    why = layoffs_allowed(rules, side, gin)
    if why == "LAYOFF.KNOCKER":
        raise ShowdownError("the knocker may not lay off under this ruleset", "LAYOFF_BY_KNOCKER")
    if why == "LAYOFF.AFTER-GIN":
        raise ShowdownError("no layoffs against gin under this ruleset", "LAYOFF_AFTER_GIN")
    name = card_str(layoff.card)
    if hand is not None and not to_mask(hand) >> layoff.card & 1:
        raise ShowdownError(
            f"{name} is not among the layer's unmelded cards", "LAYOFF_CARD_NOT_HELD"
        )
    if not 0 <= layoff.target < len(table):
        raise ShowdownError(f"no meld number {layoff.target} on the table", "LAYOFF_NO_SUCH_MELD")
    meld = table[layoff.target]
    if meld.owner == side:
        raise ShowdownError(
            f"{name}: a {side} lays off onto the other player's melds, not onto its own",
            "LAYOFF_NO_SUCH_MELD",
        )
    if any(m.mask >> layoff.card & 1 for m in table):
        raise ShowdownError(f"{name} is already on the table", "LAYOFF_CARD_NOT_HELD")
    failure = fit_failure(meld, layoff.card, rules)
    if failure == "LAYOFF.CHAIN":
        raise ShowdownError(
            f"{name} fits {meld} only through a card laid off earlier (layoff_chain="
            f"{rules.layoff_chain})",
            "LAYOFF_CHAINED",
        )
    if failure is not None:
        raise ShowdownError(f"{name} does not extend {meld}", "LAYOFF_DOES_NOT_FIT", failure)
    grown = replace(meld, added=(*meld.added, layoff.card))
    return (*table[: layoff.target], grown, *table[layoff.target + 1 :])


# --- the knocker's declaration ---------------------------------------------------------------


@dataclass(frozen=True)
class Declaration:
    """A legal knocker's declaration: its melds (as declared) and its deadwood."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    @property
    def cards(self) -> int:
        return sum(len(m.cards) for m in self.melds) + len(self.deadwood_cards)

    @property
    def gin(self) -> bool:
        """No deadwood (KNOCK.GIN); with eleven cards this is big gin."""
        return self.deadwood == 0

    @property
    def big_gin(self) -> bool:
        return self.deadwood == 0 and self.cards == 11

    def __str__(self) -> str:
        melds = " / ".join(str(m) for m in self.melds)
        dead = " ".join(card_str(c) for c in self.deadwood_cards)
        return melds + (f" | {dead}" if dead else "")

    def __repr__(self) -> str:
        return f"Declaration.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, rules: MeldRules = STANDARD) -> Declaration:
        """``'7H 7D 7S / 8C 9C TC | 2S 3D'``: the melds split by ``/``, the deadwood after ``|``.

        Only the melds are checked here (MELD.*), not the knock limit: see check_declaration.
        """
        meld_part, _, dead_part = text.partition("|")
        melds = tuple(make_meld(parse_cards(m), rules) for m in meld_part.split("/") if m.strip())
        dead = tuple(parse_cards(dead_part))
        return cls(melds, dead, sum(card_value(c, rules.ace_value) for c in dead))


def _hand_mask(hand: Cards) -> CardMask:
    mask = to_mask(hand)
    if mask.bit_count() not in (10, 11):
        raise HandSizeError(
            f"the knocker holds 10 cards after the knock discard (11 for big gin), "
            f"not {mask.bit_count()}"
        )
    return mask


@implements("SHOWDOWN.DECLARATION", "SHOWDOWN.DECLARATION.MAXIMAL")
def check_declaration(
    hand: Cards, melds: Iterable[Sequence[Card]], rules: RulesLike
) -> Declaration:
    """Validate the knocker's declared melds of ``hand``; raise ShowdownError naming the fault.

    Each group must be a meld of cards the knocker holds, no card in two melds; the deadwood
    (the cards in no meld) must not exceed the knock limit; with knocker_must_meld_maximally it
    must be the least the hand allows; eleven cards must all be melded (big gin, if played).
    """
    rules = as_rules(rules, limit_matters=True)
    mask = _hand_mask(hand)
    used = 0
    built: list[Meld] = []
    for group in melds:
        group = list(group)
        text = " ".join(card_str(c) for c in group)
        check = check_meld(group, rules.meld_rules)
        if check.kind is None:
            clause = _meld_clause(group, check.reason)
            raise ShowdownError(
                f"not a meld: {text}: {check.reason}", "DECLARATION_NOT_A_MELD", clause
            )
        meld = make_meld(group, rules.meld_rules)
        if meld.mask & ~mask:
            missing = " ".join(card_str(c) for c in cards_of(meld.mask & ~mask))
            raise ShowdownError(
                f"meld {meld} uses {missing}, not in the hand", "DECLARATION_CARD_NOT_HELD"
            )
        if meld.mask & used:
            shared = " ".join(card_str(c) for c in cards_of(meld.mask & used))
            raise ShowdownError(
                f"meld {meld} shares {shared} with another meld", "DECLARATION_CARD_TWICE"
            )
        used |= meld.mask
        built.append(meld)
    dead = tuple(cards_of(mask & ~used))
    deadwood = sum(card_value(c, rules.meld_rules.ace_value) for c in dead)
    declaration = Declaration(tuple(built), dead, deadwood)
    if mask.bit_count() == 11:
        if not rules.big_gin:
            raise ShowdownError(
                "eleven cards: big gin is not played under this ruleset (big_gin_bonus = 0); "
                "the knocker discards and declares ten",
                "DECLARATION_ELEVEN_CARDS",
            )
        if deadwood:
            raise ShowdownError(
                "eleven cards may only be declared as big gin, with every card melded",
                "DECLARATION_ELEVEN_CARDS",
            )
    if deadwood > rules.knock_limit:
        raise ShowdownError(
            f"declared deadwood {deadwood} exceeds the knock limit {rules.knock_limit}",
            "DECLARATION_OVER_LIMIT",
        )
    if rules.knocker_must_meld_maximally:
        least = min_deadwood(mask, rules.meld_rules)
        if deadwood > least:
            raise ShowdownError(
                f"declared deadwood {deadwood}, but the hand can be melded down to {least} "
                "(knocker_must_meld_maximally)",
                "DECLARATION_NOT_MAXIMAL",
            )
    return declaration


def _meld_clause(group: Sequence[Card], reason: str) -> str:
    """The meld clause a rejected group breaks (for the rejection's clause ID)."""
    if "corner" in reason:
        return "MELD.RUN.NO-WRAP"
    if "ace is low" in reason:
        return "MELD.RUN.ACE-LOW"
    if len({c % 13 for c in group}) == 1:
        return "MELD.SET"
    return "MELD.RUN"


def disjoint_collections(melds: Sequence[Meld]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of pairwise disjoint melds (including none), each once."""
    masks = [m.mask for m in melds]

    def walk(start: int, used: CardMask, chosen: tuple[Meld, ...]) -> Iterator[tuple[Meld, ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if not masks[i] & used:
                yield from walk(i + 1, used | masks[i], (*chosen, melds[i]))

    return walk(0, 0, ())


@implements("SHOWDOWN.DECLARATION", "SHOWDOWN.DECLARATION.MAXIMAL")
def legal_declarations(hand: Cards, rules: RulesLike) -> list[Declaration]:
    """Every legal declaration of ``hand`` (10 cards, or 11 for big gin), in canonical order:
    by deadwood, then by the melds' cards."""
    rules = as_rules(rules, limit_matters=True)
    mask = _hand_mask(hand)
    least = min_deadwood(mask, rules.meld_rules)
    limit = least if rules.knocker_must_meld_maximally else rules.knock_limit
    if mask.bit_count() == 11:
        if not rules.big_gin:
            return []
        limit = 0
    found: list[Declaration] = []
    for chosen in disjoint_collections(all_melds(mask, rules.meld_rules)):
        used = 0
        for m in chosen:
            used |= m.mask
        dead = tuple(cards_of(mask & ~used))
        deadwood = sum(card_value(c, rules.meld_rules.ace_value) for c in dead)
        if deadwood <= min(limit, rules.knock_limit):
            ordered = tuple(sorted(chosen, key=lambda m: m.key))
            found.append(Declaration(ordered, dead, deadwood))
    found.sort(key=lambda d: (d.deadwood, [m.key for m in d.melds]))
    return found


# --- the defender's spread and layoffs --------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    """The defender's melds, its layoffs (in order) and what is left as deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    table: Table

    def __str__(self) -> str:
        melds = " / ".join(str(m) for m in self.melds) or "(no melds)"
        lays = ", ".join(str(x) for x in self.layoffs) or "no layoffs"
        dead = " ".join(card_str(c) for c in self.deadwood_cards) or "none"
        return f"{melds}; {lays}; deadwood {dead} = {self.deadwood}"


def layoff_plans(
    table: Table, cards: Cards, rules: ShowdownRules, side: Side = DEFENDER, gin: bool = False
) -> dict[CardMask, tuple[tuple[Layoff, ...], Table]]:
    """Every set of ``cards`` that ``side`` can lay off, each with one sequence reaching it.

    The keys are the masks of the laid-off cards (0 = no layoff). Sequences are found by a
    depth-first search over layoffs in card-then-meld order, so the result is deterministic.
    """
    mask = to_mask(cards)
    plans: dict[CardMask, tuple[tuple[Layoff, ...], Table]] = {0: ((), table)}
    if layoffs_allowed(rules, side, gin) is not None:
        return plans
    seen: set[tuple[CardMask, ...]] = set()

    def walk(current: Table, left: CardMask, laid: CardMask, seq: tuple[Layoff, ...]) -> None:
        state = tuple(m.mask for m in current)
        if state in seen:
            return
        seen.add(state)
        if laid not in plans:
            plans[laid] = (seq, current)
        for layoff in legal_layoffs(current, left, rules, side, gin):
            grown = apply_layoff(current, layoff, rules, side, gin)
            bit = 1 << layoff.card
            walk(grown, left & ~bit, laid | bit, (*seq, layoff))

    walk(table, mask, 0, ())
    return plans


def _value(mask: CardMask, rules: ShowdownRules) -> int:
    return sum(card_value(c, rules.meld_rules.ace_value) for c in cards_of(mask))


@implements("SHOWDOWN.DEFENDER-SPREAD", "SHOWDOWN.BEST-PLAY")
def best_defence(
    knocker_melds: Sequence[Meld], defender_cards: Cards, rules: RulesLike, *, gin: bool = False
) -> Defence:
    """The defender's best spread: melds and layoffs leaving the least deadwood.

    The defender may leave its own melds unspread so as to lay their cards off (digest C02).
    Ties: fewest cards laid off, then the laid-off cards in card order, then the canonical
    optimal arrangement of the rest (SHOWDOWN.BEST-PLAY).
    """
    rules = as_rules(rules)
    mask = to_mask(defender_cards)
    table = table_of(knocker_melds)
    plans = layoff_plans(table, mask, rules, DEFENDER, gin)
    best_key: tuple[int, int, list[Card]] | None = None
    best_laid = 0
    for laid in plans:
        key = (min_deadwood(mask & ~laid, rules.meld_rules), laid.bit_count(), cards_of(laid))
        if best_key is None or key < best_key:
            best_key, best_laid = key, laid
    seq, final = plans[best_laid]
    arrangement = optimal_arrangements(mask & ~best_laid, rules.meld_rules)[0]
    final = (*final, *(TableMeld(DEFENDER, m) for m in arrangement.melds))
    return Defence(arrangement.melds, seq, arrangement.deadwood_cards, arrangement.deadwood, final)


def defences(
    knocker_melds: Sequence[Meld], defender_cards: Cards, rules: ShowdownRules, *, gin: bool = False
) -> Iterator[Defence]:
    """Every defender spread worth distinguishing: each layable set of cards with each collection
    of disjoint melds of the rest (used when the knocker may lay off in reply)."""
    mask = to_mask(defender_cards)
    table = table_of(knocker_melds)
    for laid, (seq, final) in sorted(layoff_plans(table, mask, rules, DEFENDER, gin).items()):
        rest = mask & ~laid
        for chosen in disjoint_collections(all_melds(rest, rules.meld_rules)):
            used = 0
            for m in chosen:
                used |= m.mask
            dead = tuple(cards_of(rest & ~used))
            ordered = tuple(sorted(chosen, key=lambda m: m.key))
            yield Defence(
                ordered,
                seq,
                dead,
                _value(rest & ~used, rules),
                (*final, *(TableMeld(DEFENDER, m) for m in ordered)),
            )


def best_layoffs(
    table: Table, cards: Cards, rules: ShowdownRules, side: Side, gin: bool = False
) -> tuple[tuple[Layoff, ...], int, Table]:
    """``side``'s layoffs of ``cards`` (its unmelded cards) leaving it the least deadwood: the
    layoffs, the deadwood left, the final table. Ties: fewest cards laid off, then the laid-off
    cards in card order."""
    mask = to_mask(cards)
    plans = layoff_plans(table, mask, rules, side, gin)
    laid = min(plans, key=lambda m: (_value(mask & ~m, rules), m.bit_count(), cards_of(m)))
    seq, final = plans[laid]
    return seq, _value(mask & ~laid, rules), final


@implements("LAYOFF.KNOCKER")
def best_knocker_layoffs(
    table: Table, knocker_deadwood: Cards, rules: ShowdownRules
) -> tuple[tuple[Layoff, ...], int, Table]:
    """The knocker's layoffs onto the defender's melds leaving it the least deadwood
    (only when knocker_may_lay_off): the layoffs, the deadwood left, the final table."""
    return best_layoffs(table, knocker_deadwood, rules, KNOCKER)

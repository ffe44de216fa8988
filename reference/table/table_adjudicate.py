"""The adjudicator of the table game: the ruling on a knock at a table of three or four
(chapter 14: TABLE.BEST-PLAY, TABLE.KNOCK, TABLE.SHOWDOWN, TABLE.LAYOFF-ORIGINAL,
TABLE.UNDERCUT, TABLE.PENALTY).

Given every player's cards at the knock, the knocker's seat and a ruleset, :func:`adjudicate_table`
finds the knocker's best declaration, each defender's best spread and layoffs in turn order, the
deadwood and penalty points of every seat, and the trail of clauses that decided each step.

>>> from ginspec.spec.cards import parse_card, parse_cards
>>> from ginspec.spec.profiles import ruleset
>>> hands = [parse_cards(h) for h in ("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D",
...                                   "5H 3S 3D 3H QS QH AC")]
>>> r = adjudicate_table(hands, 0, ruleset("serbian-online", {"players": 3}),
...                      discard=parse_card("3C"))
>>> r.outcome, r.deadwood, r.penalties
('knock', (2, 22, 26), (0, 20, 24))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ginspec.reference import layoffs as S
from ginspec.reference.adjudicate import Step, check_ruleset, meld_lists
from ginspec.reference.layoffs import Declaration, Layoff, Table, TableMeld
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
from ginspec.reference.table.penalties import TablePenalties, table_penalties
from ginspec.reference.table.table_state import table_rules
from ginspec.reference.typed_rules import Rules
from ginspec.reference.vocabulary import DEFENDER
from ginspec.spec.cards import Card, CardMask, card_str, card_value, cards_of, check_card
from ginspec.spec.clauses import implements
from ginspec.spec.errors import DuplicateCardError, GinspecError, HandSizeError, ParameterError
from ginspec.spec.parameters import Value

TABLE_OUTCOMES: Final = ("knock", "gin", "undercut", "illegal_knock")


class TableSeatError(GinspecError):
    """A seat number that is not a seat of the table (e.g. the knocker's)."""


@dataclass(frozen=True)
class DefenderPlay:
    """What one defender does at the showdown: the melds he spreads, the cards he lays off
    onto the knocker's melds (in order) and the deadwood he keeps."""

    seat: int
    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def actions(self) -> tuple[str, ...]:
        """The engine's actions for this play: ``meld ...``, each ``layoff ...``, ``done``."""
        meld = "meld " + " / ".join(" ".join(card_str(c) for c in m.cards) for m in self.melds)
        return (meld.rstrip(), *(str(x) for x in self.layoffs), "done")


@dataclass(frozen=True)
class TableRuling:
    """The adjudicated result of a knock at the table.

    ``defenders`` are in turn order from the knocker's left; ``table`` is the knocker's melds
    after every layoff; ``deadwood`` and ``penalties`` are per seat (None after an illegal
    knock); ``winner`` is the knocker or the undercutter.
    """

    outcome: str
    players: int
    knocker: int
    knock_limit: int
    declaration: Declaration | None
    defenders: tuple[DefenderPlay, ...]
    table: Table
    deadwood: tuple[int, ...] | None
    winner: int | None
    penalties: tuple[int, ...] | None
    discard: Card | None = None
    declarations_considered: int = 0
    trail: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def undercutter(self) -> int | None:
        return self.winner if self.outcome == "undercut" else None

    def actions(self) -> tuple[str, ...]:
        """The showdown as engine actions (``knock``, ``declare``, then each defender's), for
        replaying the ruling through :class:`~ginspec.reference.table.TableState`."""
        if self.declaration is None:
            return ()
        out: list[str] = []
        if self.discard is not None:
            out.append(f"knock {card_str(self.discard)}")
        melds = " / ".join(" ".join(card_str(c) for c in m.cards)
                           for m in self.declaration.melds)
        out.append(f"declare {melds}".rstrip())
        for play in self.defenders:
            out.extend(play.actions())
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The JSON form of ``ginspec adjudicate --hand ... --json`` (fields in its help)."""
        decl = self.declaration
        originals = [m.original for m in self.table]

        def layoff_json(x: Layoff) -> dict[str, Any]:
            onto = originals[x.target] if x.target < len(originals) else None
            return {"card": card_str(x.card),
                    "onto": [card_str(c) for c in onto.cards] if onto else [],
                    "action": str(x)}

        return {
            "system": "table",
            "players": self.players,
            "knocker": self.knocker,
            "outcome": self.outcome,
            "knock_limit": self.knock_limit,
            "discard": card_str(self.discard) if self.discard is not None else None,
            "declaration": None if decl is None else {
                "melds": [[card_str(c) for c in m.cards] for m in decl.melds],
                "deadwood_cards": [card_str(c) for c in decl.deadwood_cards],
                "deadwood": decl.deadwood,
            },
            "defenders": [{
                "seat": d.seat,
                "melds": [[card_str(c) for c in m.cards] for m in d.melds],
                "layoffs": [layoff_json(x) for x in d.layoffs],
                "deadwood_cards": [card_str(c) for c in d.deadwood_cards],
                "deadwood": d.deadwood,
            } for d in self.defenders],
            "table": [[card_str(c) for c in m.cards()] for m in self.table],
            "deadwood": None if self.deadwood is None else list(self.deadwood),
            "winner": self.winner,
            "undercutter": self.undercutter,
            "penalties": None if self.penalties is None else list(self.penalties),
            "declarations_considered": self.declarations_considered,
            "trail": [{"clause": c, "text": t} for c, t in self.trail],
        }


# --- input ------------------------------------------------------------------------------------


def _rules(ruleset: Mapping[str, Value] | Rules, players: int) -> Rules:
    if isinstance(ruleset, Rules):
        rules = ruleset
    else:
        system = ruleset.get("game_system", "table")
        if system != "table":
            raise ParameterError(
                f"parameter game_system: {system!r}: the table adjudicator rules on seed 001's "
                "table game (profile serbian-online, or --set game_system=table)"
            )
        values = dict(ruleset)
        values["players"] = players
        rules = table_rules(values, getattr(ruleset, "name", None))
    if rules.players != players:
        raise ParameterError(f"parameter players: the rules seat {rules.players} players, "
                             f"but {players} hands were given")
    return rules


def _check_hands(hands: Sequence[CardMask], knocker: int, discard: Card | None,
                 hand_size: int) -> None:
    n = len(hands)
    if not 0 <= knocker < n:
        raise TableSeatError(f"knocker: seat {knocker} is not a seat of a table of {n} "
                             f"(seats 0 to {n - 1})")
    seen: dict[Card, int] = {}
    for seat, mask in enumerate(hands):
        for c in cards_of(mask):
            if c in seen:
                raise DuplicateCardError(f"{card_str(c)} given to both seat {seen[c]} and "
                                         f"seat {seat}")
            seen[c] = seat
    if discard is not None and discard in seen:
        raise DuplicateCardError(f"discard: {card_str(discard)} is also in the hand of seat "
                                 f"{seen[discard]}")
    for seat, mask in enumerate(hands):
        count = mask.bit_count()
        if seat == knocker:
            want = (hand_size,) if discard is not None else (hand_size, hand_size + 1)
            if count not in want:
                raise HandSizeError(
                    f"seat {seat} (the knocker) has {count} cards; give the {hand_size} kept "
                    f"after the knock discard" + ("" if discard is not None else
                                                  f" (or {hand_size + 1}: the adjudicator "
                                                  "picks the discard)"))
        elif count != hand_size:
            raise HandSizeError(f"seat {seat} holds {count} card{'s' if count != 1 else ''}; "
                                f"at a table of {n} every defender holds {hand_size}")


# --- the knocker's declarations ---------------------------------------------------------------


def _value(mask: CardMask, rules: Rules) -> int:
    ace = rules.meld_rules.ace_value
    return sum(card_value(c, ace) for c in cards_of(mask))


@implements("TABLE.KNOCK")
def table_declarations(kept: CardMask, rules: Rules) -> list[Declaration]:
    """Every legal declaration of the knocker's kept cards (TABLE.KNOCK), in canonical order:
    by deadwood, then by the melds' cards. Empty when the least deadwood is over the limit."""
    mr = rules.meld_rules
    limit = rules.knock_limit
    if rules.showdown.knocker_must_meld_maximally:
        limit = min(limit, min_deadwood(kept, mr))
    found: list[Declaration] = []
    for chosen in S.disjoint_collections(all_melds(kept, mr)):
        used = 0
        for m in chosen:
            used |= m.mask
        dead = kept & ~used
        deadwood = _value(dead, rules)
        if deadwood <= limit:
            ordered = tuple(sorted(chosen, key=lambda m: m.key))
            found.append(Declaration(ordered, tuple(cards_of(dead)), deadwood))
    found.sort(key=lambda d: (d.deadwood, [m.key for m in d.melds]))
    return found


def _fixed_declaration(kept: CardMask, groups: Sequence[Sequence[Card]],
                       rules: Rules) -> Declaration | Step:
    """The declaration of ``groups`` or, when the rules refuse it, the trail line saying why.
    Cards not held, or used twice, are bad input (raised)."""
    mr = rules.meld_rules
    used = 0
    melds: list[Meld] = []
    for group in groups:
        text = " ".join(card_str(c) for c in group)
        outside = [c for c in group if not kept >> c & 1]
        if outside:
            raise S.ShowdownError(f"knocker melds: {card_str(outside[0])} is not among the "
                                  "knocker's kept cards", "DECLARATION_CARD_NOT_HELD")
        if len(set(group)) != len(group) or to_mask(group) & used:
            raise S.ShowdownError(f"knocker melds: {text} uses a card twice",
                                  "DECLARATION_CARD_TWICE")
        check = check_meld(group, mr)
        if not check.valid:
            return "TABLE.KNOCK", f"declaration refused: {text} is not a meld ({check.reason})"
        meld = make_meld(group, mr)
        used |= meld.mask
        melds.append(meld)
    dead = kept & ~used
    deadwood = _value(dead, rules)
    if deadwood > rules.knock_limit:
        return "TABLE.KNOCK", (f"declaration refused: deadwood {deadwood} is above the knock "
                               f"limit {rules.knock_limit}")
    least = min_deadwood(kept, mr)
    if rules.showdown.knocker_must_meld_maximally and deadwood > least:
        return "SHOWDOWN.DECLARATION.MAXIMAL", (f"declaration refused: deadwood {deadwood}, but "
                                                f"the cards can be melded down to {least}")
    ordered = tuple(sorted(melds, key=lambda m: m.key))
    return Declaration(ordered, tuple(cards_of(dead)), deadwood)


# --- the defenders ----------------------------------------------------------------------------


@implements("TABLE.SHOWDOWN", "TABLE.LAYOFF-ORIGINAL", "TABLE.BEST-PLAY")
def best_table_defence(table: Table, cards: Cards, rules: Rules, seat: int,
                       gin: bool) -> tuple[DefenderPlay, Table]:
    """One defender's best play onto ``table`` (the knocker's melds with the layoffs made so
    far): the spread and layoffs leaving him the least deadwood; ties go to fewer cards laid
    off, then the laid-off cards lowest in card number, then the canonical arrangement of the
    rest (TABLE.BEST-PLAY). Returns the play and the table after it."""
    srules = rules.showdown
    mr = rules.meld_rules
    mask = to_mask(cards)
    plans = S.layoff_plans(table, mask, srules, DEFENDER, gin)
    laid = min(plans, key=lambda m: (min_deadwood(mask & ~m, mr), m.bit_count(), cards_of(m)))
    seq, final = plans[laid]
    arrangement = optimal_arrangements(mask & ~laid, mr)[0]
    play = DefenderPlay(seat, arrangement.melds, seq, arrangement.deadwood_cards,
                        arrangement.deadwood)
    return play, final


def turn_order(knocker: int, players: int) -> tuple[int, ...]:
    """The defenders in the order they spread: from the knocker's left (TABLE.SHOWDOWN)."""
    return tuple((knocker + k) % players for k in range(1, players))


@dataclass(frozen=True)
class _Showdown:
    plays: tuple[DefenderPlay, ...]
    table: Table
    deadwood: tuple[int, ...]
    penalties: TablePenalties

    @property
    def net(self) -> int:
        """The knocker's net: over every other seat, his penalty minus the knocker's."""
        pens = self.penalties.penalties
        k = self.penalties.knocker
        assert k is not None
        return sum(p - pens[k] for s, p in enumerate(pens) if s != k)


def _showdown(decl: Declaration, hands: Sequence[CardMask], knocker: int,
              rules: Rules) -> _Showdown:
    n = len(hands)
    table: Table = S.table_of(decl.melds)
    plays: list[DefenderPlay] = []
    deadwood = [0] * n
    deadwood[knocker] = decl.deadwood
    for seat in turn_order(knocker, n):
        play, table = best_table_defence(table, hands[seat], rules, seat, decl.gin)
        plays.append(play)
        deadwood[seat] = play.deadwood
    pens = table_penalties(knocker, deadwood, rules.gin_bonus, rules.undercut_bonus,
                           rules.undercut_on_tie == "undercut")
    return _Showdown(tuple(plays), table, tuple(deadwood), pens)


# --- the ruling -------------------------------------------------------------------------------


@implements("TABLE.BEST-PLAY")
def adjudicate_table(
    hands: Sequence[Cards],
    knocker: int,
    ruleset: Mapping[str, Value] | Rules,
    *,
    discard: Card | None = None,
    knocker_melds: Sequence[Sequence[Card]] | None = None,
) -> TableRuling:
    """The ruling on a knock at a table of 3 or 4 (TABLE.BEST-PLAY).

    ``hands[seat]`` in seat order (play passes to the next higher seat); the knocker's are the
    7 cards kept after the knock discard (``discard``, if known), or 8, and the adjudicator
    picks the discard. ``ruleset``: a table-game ruleset (e.g. ``ruleset("serbian-online")``;
    ``players`` is set from the number of hands). With ``knocker_melds`` the declaration is
    fixed; else the knocker declares best. Defenders then play best in turn order.
    """
    if isinstance(hands, (str, bytes, int)) or not isinstance(hands, Iterable):
        raise TableSeatError(f"hands: expected one list of cards per seat, got {hands!r}")
    masks = [to_mask(h) for h in hands]
    n = len(masks)
    if type(knocker) is not int:
        raise TableSeatError(f"knocker: a seat number, not {type(knocker).__name__} {knocker!r}")
    if not isinstance(ruleset, Rules):
        check_ruleset(ruleset)
    if discard is not None:
        check_card(discard)
    if knocker_melds is not None:
        knocker_melds = meld_lists(knocker_melds)
    if n not in (3, 4):
        raise TableSeatError(f"hands: the table adjudicator seats 3 or 4 players, not {n} "
                             "(two players: ginspec.reference.adjudicate)")
    rules = _rules(ruleset, n)
    _check_hands(masks, knocker, discard, rules.hand_size)
    kmask = masks[knocker]
    limit = rules.knock_limit

    def verdict(trail: list[Step], considered: int = 0) -> TableRuling:
        return TableRuling("illegal_knock", n, knocker, limit, None, (), (), None, None, None,
                           discard, considered, tuple(trail))

    if knocker_melds is not None:
        if kmask.bit_count() != rules.hand_size:
            raise HandSizeError(f"knocker melds: give the {rules.hand_size} cards the knocker "
                                "kept (and --discard), not the hand before the discard")
        fixed = _fixed_declaration(kmask, knocker_melds, rules)
        if not isinstance(fixed, Declaration):
            return verdict([fixed, ("DEADWOOD.MINIMUM", "the best arrangement of these cards "
                                    f"has deadwood {min_deadwood(kmask, rules.meld_rules)}")])
        shown = _showdown(fixed, masks, knocker, rules)
        return _ruling(rules, knocker, fixed, shown, masks, discard, 1, chosen=False)

    candidates: list[tuple[Card | None, Declaration]] = []
    if kmask.bit_count() == rules.hand_size:
        candidates = [(discard, d) for d in table_declarations(kmask, rules)]
    else:
        for card in cards_of(kmask):
            kept = kmask & ~(1 << card)
            candidates.extend((card, d) for d in table_declarations(kept, rules))
    if not candidates:
        return verdict([("TABLE.KNOCK", _no_knock_text(kmask, rules))])
    best: tuple[tuple[int, int, int], Card | None, Declaration, _Showdown] | None = None
    for index, (choice, decl) in enumerate(candidates):
        shown = _showdown(decl, masks, knocker, rules)  # the defenders' cards only
        key = (-shown.net, decl.deadwood, index)
        if best is None or key < best[0]:
            best = (key, choice, decl, shown)
    assert best is not None
    _, chosen_discard, decl, shown = best
    return _ruling(rules, knocker, decl, shown, masks, chosen_discard, len(candidates),
                   chosen=True)


def _no_knock_text(kmask: CardMask, rules: Rules) -> str:
    mr = rules.meld_rules
    if kmask.bit_count() == rules.hand_size + 1:
        least = min(min_deadwood(kmask & ~(1 << c), mr) for c in cards_of(kmask))
        text = f"after the best discard the least deadwood is {least}"
    else:
        least = min_deadwood(kmask, mr)
        text = f"the least deadwood of the cards kept is {least}"
    return f"no legal knock: {text}, above the knock limit {rules.knock_limit}"


def _layoff_step(meld: TableMeld, layoff: Layoff, seat: int, rules: Rules) -> Step:
    mr = rules.meld_rules
    if meld.kind is MeldKind.SET:
        clause = "LAYOFF.SET"
    elif check_meld([*meld.original.cards, layoff.card], mr).valid:
        clause = "LAYOFF.RUN"
    else:
        clause = "LAYOFF.CHAIN"
    return clause, f"seat {seat} lays off {card_str(layoff.card)} onto {meld.original}"


def _blocked(table: Table, play: DefenderPlay, laid_by: Mapping[Card, int],
             rules: Rules, gin: bool) -> Iterator[Step]:
    """Trail lines for the cards a defender kept that a rule kept off the knocker's melds."""
    srules = rules.showdown
    for card in play.deadwood_cards:
        for meld in table:
            why = S.fit_failure(meld, card, srules)
            if gin and srules.layoff_after_gin == "forbidden" and why is None:
                yield ("LAYOFF.AFTER-GIN", f"seat {play.seat}: {card_str(card)} would extend "
                       f"{meld.original}, but there are no layoffs against gin")
            elif why == "LAYOFF.CHAIN":
                below = [c for c in meld.added if abs(c - card) == 1 and c // 13 == card // 13]
                via = f" laid off by seat {laid_by[below[0]]}" if below else " laid off earlier"
                next_to = f" next to {card_str(below[0])}" if below else ""
                yield ("TABLE.LAYOFF-ORIGINAL",
                       f"seat {play.seat}: {card_str(card)} would fit {meld.original} only"
                       f"{next_to},{via}; only the knocker's melds as declared take layoffs")


def _ruling(rules: Rules, knocker: int, decl: Declaration, shown: _Showdown,
            masks: Sequence[CardMask], discard: Card | None, considered: int, *,
            chosen: bool) -> TableRuling:
    n = len(masks)
    limit = rules.knock_limit
    trail: list[Step] = []
    if discard is not None:
        trail.append(("TABLE.KNOCK", f"seat {knocker} knocks, discarding {card_str(discard)} "
                                     "face down"))
    if chosen:
        trail.append(("TABLE.BEST-PLAY", f"of {considered} legal declaration(s) this one gives "
                      "the knocker the best net result against the defenders' best replies"))
    trail.append(("TABLE.KNOCK", f"seat {knocker} declares {decl}: deadwood {decl.deadwood} "
                                 f"(limit {limit})"))
    if rules.showdown.knocker_must_meld_maximally:
        trail.append(("SHOWDOWN.DECLARATION.MAXIMAL",
                      "the knocker must meld as far as possible: this is his least deadwood"))
    if decl.gin:
        trail.append(("KNOCK.GIN", "no deadwood: gin"))
    table: Table = S.table_of(decl.melds)
    laid_by: dict[Card, int] = {}
    srules = rules.showdown
    for play in shown.plays:
        melds = " / ".join(str(m) for m in play.melds) or "no melds"
        trail.append(("TABLE.SHOWDOWN", f"seat {play.seat} spreads {melds}"))
        for layoff in play.layoffs:
            trail.append(_layoff_step(table[layoff.target], layoff, play.seat, rules))
            table = S.apply_layoff(table, layoff, srules, DEFENDER, decl.gin)
            laid_by[layoff.card] = play.seat
        trail.extend(_blocked(table, play, laid_by, rules, decl.gin))
        dead = " ".join(card_str(c) for c in play.deadwood_cards) or "nothing"
        trail.append(("TABLE.SHOWDOWN", f"seat {play.seat} keeps {dead}: deadwood "
                                        f"{play.deadwood}"))
    pens = shown.penalties
    dk = decl.deadwood
    if pens.kind == "gin":
        trail.append(("TABLE.UNDERCUT", "gin: the knocker wins the hand"))
    elif pens.kind == "undercut":
        trail.append(("TABLE.UNDERCUT", f"seat {pens.winner} has deadwood "
                      f"{shown.deadwood[pens.winner or 0]}, less than the knocker's {dk}: "
                      "undercut"))
    else:
        trail.append(("TABLE.UNDERCUT", f"no defender has less deadwood than the knocker's "
                                        f"{dk}: the knocker wins the hand"))
    charged = ", ".join(f"seat {s} {p}" for s, p in enumerate(pens.penalties))
    trail.append(("TABLE.PENALTY", f"{pens.kind}: penalty points {charged}"))
    return TableRuling(
        outcome=pens.kind,
        players=n,
        knocker=knocker,
        knock_limit=limit,
        declaration=decl,
        defenders=shown.plays,
        table=shown.table,
        deadwood=shown.deadwood,
        winner=pens.winner,
        penalties=pens.penalties,
        discard=discard,
        declarations_considered=considered,
        trail=tuple(trail),
    )


__all__ = [
    "TABLE_OUTCOMES",
    "DefenderPlay",
    "TableRuling",
    "TableSeatError",
    "adjudicate_table",
    "best_table_defence",
    "table_declarations",
    "turn_order",
]

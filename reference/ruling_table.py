"""Table-game rulings (``kind = "table"``): a knock at a table of three or four (chapter 14).

The position is every seat's cards — the knocker's seven kept cards (or eight, and the ruling
picks the discard) and each other seat's seven — the knocker's seat, and optionally the knock
discard and the knocker's declared melds. Each expectation is checked with the table
adjudicator (TABLE.BEST-PLAY): the outcome, the winner, each seat's deadwood and penalty, and
the cards each seat lays off.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ginspec.reference.ruling_header import (
    Finding,
    RulingHeader,
    expect_items,
    label_of,
    parse_header,
    position_of,
    profile_of,
)
from ginspec.reference.table import adjudicate_table
from ginspec.reference.table.table_adjudicate import TABLE_OUTCOMES, TableRuling
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards
from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset

_POSITION_KEYS: Final = {"hands", "knocker", "discard", "knocker_melds"}
_EXPECT_KEYS: Final = {"profile", "set", "note", "outcome", "winner", "deadwood", "penalties", "layoffs"}


@dataclass(frozen=True)
class TableExpectation:
    """What one profile says about the knock at the table."""

    profile: str
    overrides: Mapping[str, Value]
    outcome: str
    note: str = ""
    winner: int | None = None
    deadwood: tuple[int, ...] | None = None
    penalties: tuple[int, ...] | None = None
    layoffs: tuple[tuple[Card, ...], ...] | None = None
    """Per seat, the cards it lays off (any order)."""

    @property
    def label(self) -> str:
        return label_of(self.profile, self.overrides)


@dataclass(frozen=True, kw_only=True, repr=False)
class TableRulingCase(RulingHeader):
    """A parsed table-game ruling."""

    hands: tuple[tuple[Card, ...], ...]
    knocker: int
    discard: Card | None
    knocker_melds: tuple[tuple[Card, ...], ...] | None
    expectations: tuple[TableExpectation, ...]

    def rule(self, exp: TableExpectation) -> TableRuling:
        """The table adjudicator's ruling under ``exp``'s ruleset."""
        return adjudicate_table(
            self.hands,
            self.knocker,
            ruleset(exp.profile, exp.overrides),
            discard=self.discard,
            knocker_melds=self.knocker_melds,
        )

    def check(self) -> list[Finding]:
        return [check_expectation(self, e) for e in self.expectations]


def _cards(text: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise RulingFileError(f"{where}: must be a string of cards")
    try:
        return tuple(parse_cards(text))
    except GinspecError as exc:
        raise RulingFileError(f"{where}: {exc}") from None


def _ints(item: Mapping[str, Any], key: str, where: str, seats: int) -> tuple[int, ...] | None:
    if key not in item:
        return None
    raw = item[key]
    if not (isinstance(raw, list) and len(raw) == seats and all(type(x) is int for x in raw)):
        raise RulingFileError(f"{where}: field '{key}' must list {seats} integers, one per seat")
    return tuple(raw)


def parse_table_ruling(data: Mapping[str, Any], source: str = "<ruling>") -> TableRulingCase:
    """Validate a ``kind = "table"`` ruling document (naming the file and the field on error)."""
    head = parse_header(data, source)
    pos = position_of(data, source, _POSITION_KEYS)
    raw = pos.get("hands")
    if not isinstance(raw, list) or len(raw) not in (3, 4):
        raise RulingFileError(f"{source}: field 'position.hands' must list 3 or 4 hands, in seat order")
    hands = tuple(_cards(h, f"{source}: field 'position.hands[{i}]'") for i, h in enumerate(raw))
    knocker = pos.get("knocker")
    if type(knocker) is not int or not 0 <= knocker < len(hands):
        raise RulingFileError(f"{source}: field 'position.knocker' must be a seat, 0 to {len(hands) - 1}")
    discard = None
    if "discard" in pos:
        try:
            discard = parse_card(str(pos["discard"]))
        except GinspecError as exc:
            raise RulingFileError(f"{source}: field 'position.discard': {exc}") from None
    melds = None
    if "knocker_melds" in pos:
        text = pos["knocker_melds"]
        where = f"{source}: field 'position.knocker_melds'"
        if not isinstance(text, str):
            raise RulingFileError(f"{where}: must be melds separated by '/'")
        melds = tuple(_cards(m, where) for m in text.split("/") if m.strip())
    seats = len(hands)
    expectations = []
    for where, item in expect_items(data, source, _EXPECT_KEYS):
        profile, overrides = profile_of(item, where)
        outcome = item.get("outcome")
        if outcome not in TABLE_OUTCOMES:
            raise RulingFileError(f"{where}: field 'outcome' must be one of {', '.join(TABLE_OUTCOMES)}")
        winner = item.get("winner")
        if winner is not None and (type(winner) is not int or not 0 <= winner < seats):
            raise RulingFileError(f"{where}: field 'winner' must be a seat")
        layoffs = None
        if "layoffs" in item:
            lay = item["layoffs"]
            if not (isinstance(lay, list) and len(lay) == seats):
                raise RulingFileError(f"{where}: field 'layoffs' must list {seats} card lists, one per seat")
            layoffs = tuple(_cards(" ".join(x) if isinstance(x, list) else x, f"{where}: field 'layoffs'")
                            for x in lay)
        expectations.append(
            TableExpectation(
                profile,
                overrides,
                str(outcome),
                str(item.get("note", "")),
                winner,
                _ints(item, "deadwood", where, seats),
                _ints(item, "penalties", where, seats),
                layoffs,
            )
        )
    case = TableRulingCase(
        **head, hands=hands, knocker=knocker, discard=discard, knocker_melds=melds, expectations=tuple(expectations)
    )
    for exp in case.expectations:  # a position the adjudicator refuses is an error in the file
        try:
            case.rule(exp)
        except GinspecError as exc:
            raise RulingFileError(f"{source}: {exp.label}: {exc}") from None
    return case


def _seats(values: tuple[int, ...] | None) -> str:
    return "-" if values is None else " / ".join(map(str, values))


def laid_off(ruling: TableRuling, seats: int) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat laid off, sorted (the knocker's own entry is empty)."""
    out: list[tuple[Card, ...]] = [() for _ in range(seats)]
    for play in ruling.defenders:
        out[play.seat] = tuple(sorted(x.card for x in play.layoffs))
    return tuple(out)


def check_expectation(case: TableRulingCase, exp: TableExpectation) -> Finding:
    """Adjudicate the knock under ``exp``'s ruleset and compare every expected field."""
    r = case.rule(exp)
    seats = len(case.hands)
    lays = laid_off(r, seats)
    answer = [("outcome", r.outcome), ("winner", "-" if r.winner is None else f"seat {r.winner}")]
    if r.discard is not None:
        answer.append(("knock discard", card_str(r.discard)))
    answer.append(("deadwood", _seats(r.deadwood)))
    answer.append(("penalties", _seats(r.penalties)))
    answer.append(("layoffs", "; ".join(
        f"seat {s}: {' '.join(card_str(c) for c in cards)}" for s, cards in enumerate(lays) if cards) or "none"))
    bad = []
    if r.outcome != exp.outcome:
        bad.append(f"outcome: expected {exp.outcome}, computed {r.outcome}")
    if exp.winner is not None and r.winner != exp.winner:
        bad.append(f"winner: expected seat {exp.winner}, computed {r.winner}")
    if exp.deadwood is not None and r.deadwood != exp.deadwood:
        bad.append(f"deadwood: expected {_seats(exp.deadwood)}, computed {_seats(r.deadwood)}")
    if exp.penalties is not None and r.penalties != exp.penalties:
        bad.append(f"penalties: expected {_seats(exp.penalties)}, computed {_seats(r.penalties)}")
    if exp.layoffs is not None:
        want = tuple(tuple(sorted(x)) for x in exp.layoffs)
        if want != lays:
            bad.append("layoffs: expected " + " / ".join(" ".join(card_str(c) for c in x) or "-" for x in want)
                       + ", computed " + " / ".join(" ".join(card_str(c) for c in x) or "-" for x in lays))
    return Finding(exp.label, exp.profile, exp.overrides, tuple(answer), tuple(bad), tuple(r.trail), exp.note)

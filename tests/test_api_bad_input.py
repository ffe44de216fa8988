"""Bad input to the main Python entry points raises a typed error — a subclass of
:class:`GinspecError` (itself a ``ValueError``) naming the bad value — never a raw ``KeyError``,
``TypeError``, ``AttributeError`` or ``AssertionError``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cases import load_case
from ginspec.conformance.cases.model import CaseFormatError
from ginspec.reference.adjudicate import adjudicate
from ginspec.reference.game import Deal, HandState, rules_for_profile
from ginspec.reference.game.deal import DealError
from ginspec.reference.melds import analyse_discards, check_meld, min_deadwood, min_deadwood_after_discard
from ginspec.reference.rulings import load_ruling
from ginspec.reference.table import adjudicate_table
from ginspec.reference.table.table_adjudicate import TableSeatError
from ginspec.spec.cards import check_card, parse_card, parse_cards
from ginspec.spec.errors import (
    CardError,
    DuplicateCardError,
    GinspecError,
    HandSizeError,
    MeldError,
    ParameterError,
    RulingFileError,
)
from ginspec.spec.profiles import ruleset
from hypothesis import given
from hypothesis import strategies as st

KNOCKER = parse_cards("2C 3C 4C 7H 7D 7S JS QS KS 5D")
DEFENDER = parse_cards("8C 8D 8H 9S 9H 9D AS 2S 3S 5H")
SEATS = [parse_cards(h) for h in ("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D",
                                  "5H 3S 3D 3H QS QH AC")]
PAGAT = ruleset("pagat")
SERBIAN = ruleset("serbian-online")
DEAL = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS QD", "8C 8D 8H 9D 9H 9S AS 2S 3S 5H", "5D")


def _table(**kw: Any) -> Callable[[], object]:
    args = {"hands": SEATS, "knocker": 0, "ruleset": SERBIAN, **kw}
    return lambda: adjudicate_table(args.pop("hands"), args.pop("knocker"), args.pop("ruleset"),
                                    **args)


CASES: list[tuple[str, Callable[[], object], type[GinspecError], str]] = [
    # (what, call, the error type, a text the message must contain)
    ("parse_card None", lambda: parse_card(None), CardError, "None"),  # type: ignore[arg-type]
    ("parse_card int", lambda: parse_card(7), CardError, "7"),  # type: ignore[arg-type]
    ("parse_card junk", lambda: parse_card("7X"), CardError, "7X"),
    ("parse_cards None", lambda: parse_cards(None), CardError, "None"),  # type: ignore[arg-type]
    ("parse_cards int", lambda: parse_cards(5), CardError, "5"),  # type: ignore[arg-type]
    ("parse_cards bytes", lambda: parse_cards(b"7H 8H"), CardError, "bytes"),
    ("parse_cards int item", lambda: parse_cards(["7H", 7]), CardError, "7"),  # type: ignore[list-item]
    ("parse_cards None item", lambda: parse_cards([None]), CardError, "None"),  # type: ignore[list-item]
    ("parse_cards duplicate", lambda: parse_cards("7H 8H 7h"), DuplicateCardError, "7h"),
    ("check_card bool", lambda: check_card(True), CardError, "True"),
    ("check_card float", lambda: check_card(1.0), CardError, "1.0"),
    ("check_card 52", lambda: check_card(52), CardError, "52"),
    ("min_deadwood None", lambda: min_deadwood(None), CardError, "None"),  # type: ignore[arg-type]
    ("min_deadwood 52", lambda: min_deadwood([3, 52]), CardError, "52"),
    ("min_deadwood -1", lambda: min_deadwood([-1, 3]), CardError, "-1"),
    ("min_deadwood text", lambda: min_deadwood(["7H"]), CardError, "7H"),  # type: ignore[list-item]
    ("min_deadwood 1.5", lambda: min_deadwood([1.5]), CardError, "1.5"),  # type: ignore[list-item]
    ("min_deadwood 10 with -1", lambda: min_deadwood([*range(9), -1]), CardError, "-1"),
    ("min_deadwood 10 with 60", lambda: min_deadwood([*range(9), 60]), CardError, "60"),
    ("min_deadwood repeat", lambda: min_deadwood([4, 9, 4]), DuplicateCardError, "5C"),
    ("min_deadwood 10 with junk", lambda: min_deadwood([*range(9), "x"]), CardError, "'x'"),  # type: ignore[list-item]
    ("min_deadwood 10 repeat", lambda: min_deadwood([*range(9), 0]), DuplicateCardError, "AC"),
    ("min_deadwood mask too wide", lambda: min_deadwood(1 << 52), CardError, "0x"),
    ("after discard, empty", lambda: min_deadwood_after_discard([]), MeldError, "discard"),
    ("after discard 11 with junk", lambda: min_deadwood_after_discard([*range(10), 99]), CardError,
     "99"),
    ("analyse_discards junk", lambda: analyse_discards([None, *range(10)]), CardError, "None"),  # type: ignore[list-item]
    ("analyse_discards empty", lambda: analyse_discards([]), MeldError, "discard"),
    ("ruleset unknown", lambda: ruleset("no-such-profile"), ParameterError, "no-such-profile"),
    ("ruleset None", lambda: ruleset(None), ParameterError, "None"),  # type: ignore[arg-type]
    ("ruleset unknown parameter", lambda: ruleset("pagat", {"no_such": 1}), ParameterError,
     "no_such"),
    ("ruleset wrong type", lambda: ruleset("pagat", {"gin_bonus": "lots"}), ParameterError,
     "gin_bonus"),
    ("ruleset bool for int", lambda: ruleset("pagat", {"gin_bonus": True}), ParameterError,
     "gin_bonus"),
    ("ruleset int for bool", lambda: ruleset("pagat", {"oklahoma": 1}), ParameterError, "oklahoma"),
    ("ruleset out of range", lambda: ruleset("pagat", {"knock_limit": 11}), ParameterError, "11"),
    ("ruleset bad choice", lambda: ruleset("pagat", {"spade_double": "x"}), ParameterError,
     "spade_double"),
    ("ruleset overrides list", lambda: ruleset("pagat", [("gin_bonus", 1)]), ParameterError,  # type: ignore[arg-type]
     "overrides"),
    ("ruleset overrides text", lambda: ruleset("pagat", "gin_bonus=1"), ParameterError,  # type: ignore[arg-type]
     "gin_bonus=1"),
    ("adjudicate profile name", lambda: adjudicate(KNOCKER, DEFENDER, "pagat"), ParameterError,  # type: ignore[arg-type]
     "pagat"),
    ("adjudicate None ruleset", lambda: adjudicate(KNOCKER, DEFENDER, None), ParameterError,  # type: ignore[arg-type]
     "None"),
    ("adjudicate None hand", lambda: adjudicate(None, DEFENDER, PAGAT), CardError, "None"),  # type: ignore[arg-type]
    ("adjudicate shared card", lambda: adjudicate(KNOCKER, [*DEFENDER[:-1], KNOCKER[0]], PAGAT),
     DuplicateCardError, "2C"),
    ("adjudicate short hand", lambda: adjudicate(KNOCKER[:4], DEFENDER, PAGAT), HandSizeError, "4"),
    ("adjudicate upcard 99", lambda: adjudicate(KNOCKER, DEFENDER, PAGAT, upcard=99), CardError,
     "99"),
    ("adjudicate upcard text", lambda: adjudicate(KNOCKER, DEFENDER, PAGAT, upcard="7H"),  # type: ignore[arg-type]
     CardError, "7H"),
    ("adjudicate melds text", lambda: adjudicate(KNOCKER, DEFENDER, PAGAT, knocker_melds="2C 3C 4C"),  # type: ignore[arg-type]
     MeldError, "2C 3C 4C"),
    ("adjudicate meld None", lambda: adjudicate(KNOCKER, DEFENDER, PAGAT, knocker_melds=[None]),  # type: ignore[list-item]
     MeldError, "None"),
    ("adjudicate meld card 99", lambda: adjudicate(KNOCKER, DEFENDER, PAGAT, knocker_melds=[[1, 2, 99]]),
     CardError, "99"),
    ("table None hands", _table(hands=None), TableSeatError, "None"),
    ("table two seats", _table(hands=SEATS[:2]), TableSeatError, "2"),
    ("table seat None", _table(hands=[SEATS[0], None, SEATS[2]]), CardError, "None"),
    ("table knocker text", _table(knocker="0"), TableSeatError, "'0'"),
    ("table knocker None", _table(knocker=None), TableSeatError, "None"),
    ("table knocker 3", _table(knocker=3), TableSeatError, "3"),
    ("table ruleset None", _table(ruleset=None), ParameterError, "None"),
    ("table two-player ruleset", _table(ruleset=PAGAT), ParameterError, "game_system"),
    ("table discard text", _table(discard="3C"), CardError, "3C"),
    ("table discard held", _table(discard=SEATS[1][0]), DuplicateCardError, "6H"),
    ("table melds text", _table(discard=parse_card("3C"), knocker_melds="7H 8H 9H"), MeldError, "7H"),
    ("table short seat", _table(hands=[SEATS[0], SEATS[1][:5], SEATS[2]]), HandSizeError, "5"),
    ("HandState.new None deal", lambda: HandState.new(None, rules_for_profile("pagat")),  # type: ignore[arg-type]
     DealError, "None"),
    ("HandState.new profile name", lambda: HandState.new(DEAL, "pagat"), ParameterError, "pagat"),  # type: ignore[arg-type]
    ("HandState.new Ruleset", lambda: HandState.new(DEAL, PAGAT), ParameterError, "Rules"),  # type: ignore[arg-type]
    ("Deal.from_hands None", lambda: Deal.from_hands(None, None, None), DealError, "None"),  # type: ignore[arg-type]
    ("Deal.from_hands junk", lambda: Deal.from_hands("ZZ", "8C", "5D"), CardError, "ZZ"),
    ("Deal.from_hands short", lambda: Deal.from_hands("2C 3C", "8C 8D", "5D"), DealError, "2"),
    ("Deal bad dealer", lambda: Deal(tuple(range(52)), 2), DealError, "2"),
    ("rules_for_profile unknown", lambda: rules_for_profile("no-such"), ParameterError, "no-such"),
    ("check_meld None", lambda: check_meld([None, 1, 2]), CardError, "None"),  # type: ignore[list-item]
    ("check_meld 52", lambda: check_meld([50, 51, 52]), CardError, "52"),
    ("check_meld unhashable", lambda: check_meld([[0], 1, 2]), CardError, "[0]"),  # type: ignore[list-item]
]


@pytest.mark.parametrize(("call", "error", "named"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_typed_error(call: Callable[[], object], error: type[GinspecError], named: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert named in str(info.value), str(info.value)


@pytest.mark.parametrize("action", ["", "junk", "discard ZZ", "discard", "knock 5D 6D", "layoff 9S",
                                    "declare / /", "take-upcard now", None, 5, b"pass", []])
def test_apply_junk_is_refused_and_state_unchanged(action: Any) -> None:
    state = HandState.new(DEAL, rules_for_profile("pagat"))
    before = (state.hands, state.stock, state.pile, state.phase, state.to_move)
    with pytest.raises(GinspecError):
        state.apply(action)
    assert (state.hands, state.stock, state.pile, state.phase, state.to_move) == before


@given(st.one_of(st.none(), st.floats(), st.text(max_size=3), st.integers(-100, -1),
                 st.integers(52, 10**6), st.booleans(), st.lists(st.integers(0, 51), max_size=2)))
def test_check_card_refuses_anything_but_a_card_number(value: object) -> None:
    with pytest.raises(CardError):
        check_card(value)


@given(st.lists(st.one_of(st.none(), st.text(min_size=1, max_size=3), st.integers(52, 200),
                          st.integers(-60, -1), st.floats().filter(lambda x: not x.is_integer())),  # 1.0 passes
                min_size=1, max_size=3),
       st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True), st.data())
def test_meld_functions_name_the_non_card(junk: list[object], cards: list[int], data: st.DataObject) -> None:
    hand = list(cards)
    for item in junk:
        hand.insert(data.draw(st.integers(0, len(hand))), item)  # type: ignore[arg-type]
    for func in (min_deadwood, min_deadwood_after_discard):
        with pytest.raises(CardError):
            func(hand)  # type: ignore[arg-type]


FILES = {
    "broken.toml": ("id = [", "TOML"),
    "binary.toml": (b"\xff\xfe\x00", "UTF-8"),
    "empty.toml": ("", "id"),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_load_ruling_bad_files(tmp_path: Path, name: str) -> None:
    content, named = FILES[name]
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(RulingFileError, match=named):
        load_ruling(path)


@pytest.mark.parametrize(("content", "named"), [
    ("{\"id\": ", "JSON"), (b"\xff\xfe", "UTF-8"), ("[1]", "object"), ("{}", "query"),
    ("{\"id\": 5}", "id"),
])
def test_load_case_bad_files(tmp_path: Path, content: str | bytes, named: str) -> None:
    path = tmp_path / "case.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(CaseFormatError, match=named):
        load_case(path)


@pytest.mark.parametrize("loader", [load_ruling, load_case])
def test_loaders_missing_and_folder(tmp_path: Path, loader: Callable[[Path], object]) -> None:
    for path in (tmp_path / "missing.toml", tmp_path):
        with pytest.raises(GinspecError, match="cannot read"):
            loader(path)


@pytest.mark.parametrize("rules", [5, None, "pagat", [], {}, True])
def test_meld_rules_that_are_no_meld_rules(rules: object) -> None:
    """A ``rules`` argument that is no MeldRules is a ParameterError naming it, on every path."""
    for call in (min_deadwood, min_deadwood_after_discard):
        with pytest.raises(ParameterError, match="rules: expected MeldRules"):
            call([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][: 10 if call is min_deadwood else 11], rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("loader", [load_ruling, load_case])
@pytest.mark.parametrize("path", [None, 5, True, [], b"x.toml"])
def test_loaders_want_a_path(loader: Callable[[Any], object], path: object) -> None:
    with pytest.raises(GinspecError, match="is named by a path"):
        loader(path)

"""Telling a surviving mutant from the reference by random play (a *witness*).

A mutant the suite does not kill is either equivalent (no input tells it from the reference) or
a gap in the suite. :func:`find_witness` plays seeded random hands of one profile twice in step —
the reference and the mutant — and asks both the same random meld, deadwood and knock questions;
the first difference (a legal-action list, a refused action, the phase, the player to act, the
hand's result or an answer) is a witness: the mutant is not equivalent, and the seed reproduces
the hand that shows it. No witness within the budget proves nothing; such survivors are argued
by hand in docs/conformance/mutation.md.

Coverage (:func:`executed_lines`) tells which mutation sites the reference executes at all while
playing a profile's cases and random hands: a mutant at a line never executed there is
*unreached* under that profile.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from types import CodeType, FrameType
from typing import Any

from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.mutation.targets import Switch, iter_functions
from ginspec.reference.game.deal import deal_from_seed
from ginspec.reference.game.state import CHANCE, HandState
from ginspec.reference.table.table_state import TableDeal, TableState, table_rules_for_profile
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.cards import NUM_CARDS, card_str

KNOCK_PREFERENCE = 0.8
"""How often a random player takes a knock or gin when one is legal (uniform play would rarely
reach the showdown)."""


@dataclass(frozen=True)
class Witness:
    """The first difference found: where (``hand`` or ``query``), the seed, and what differed."""

    where: str
    seed: int
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "seed": self.seed, "detail": self.detail[:300]}


def _pick(rng: random.Random, legal: Sequence[str]) -> str:
    knocks = [a for a in legal if a.startswith(("knock", "gin", "big-gin"))]
    if knocks and rng.random() < KNOCK_PREFERENCE:
        return rng.choice(knocks)
    return rng.choice(list(legal))


def _guarded(switch: Switch, on: bool, call: Callable[[], Any]) -> Any:
    """``call()`` with the mutant on or off; an exception becomes its repr (a difference)."""
    if on:
        switch.on()
    try:
        return call()
    except Exception as exc:  # the mutant may raise where the reference does not
        return f"raised {type(exc).__name__}: {exc}"
    finally:
        switch.off()


def _is_over(state: Any) -> bool:
    over = state.is_over
    return bool(over() if callable(over) else over)


def _state_view(state: Any) -> tuple[Any, ...]:
    """What an engine shows of ``state``: the phase, the player to act, the legal actions and
    the result (its ``boxes`` only where the rules have a box bonus: PROTOCOL.md compares them
    nowhere else)."""
    legal = [] if _is_over(state) else sorted(str(a) for a in state.legal_actions())
    result = state.result.to_json() if state.result is not None else None
    if result is not None and not getattr(state.rules, "box_bonus", 1):
        result.pop("boxes", None)
    return state.phase.value, state.to_move, legal, result


def _new_state(profile: str, seed: int) -> Callable[[], Any]:
    """A function making the start of random hand ``seed`` of ``profile`` (a two-player hand,
    or a two-player table-game hand where the profile is the table game)."""

    rng = random.Random(seed)
    bits = rng.getrandbits(32)
    if rules_for_profile(profile).game_system == "table":
        table = TableDeal.from_seed(bits, 2, seed % 2)
        return lambda: TableState.new(table, table_rules_for_profile(profile))
    deal = deal_from_seed(bits, seed % 2)
    return lambda: HandState.new(deal, rules_for_profile(profile))


def hand_difference(switch: Switch | None, profile: str, seed: int) -> str | None:
    """Plays one random hand of ``profile`` with the reference and the mutant side by side;
    returns the first difference (None: none). With ``switch`` None, plays the reference
    alone (for coverage)."""

    rng = random.Random(seed)
    start = _new_state(profile, seed)
    mine: Any = start()
    theirs: Any = None
    if switch is not None:
        theirs = _guarded(switch, True, start)
        if isinstance(theirs, str):
            return f"the deal: the mutant {theirs}"
    for step in range(400):
        view = _state_view(mine)
        if switch is not None:
            other = _guarded(switch, True, partial(_state_view, theirs))
            if other != view:
                return f"step {step}: reference {view!r}, mutant {other!r}"
        if _is_over(mine):
            return None
        action = mine.chance_action() if mine.to_move == CHANCE else _pick(rng, view[2])
        mine = mine.apply(action)
        if switch is not None:
            theirs = _guarded(switch, True, partial(theirs.apply, action))
            if isinstance(theirs, str):
                return f"step {step}: {action!r}: the mutant {theirs}"
    return None


def random_query(profile: str, seed: int) -> tuple[str, dict[str, Any]]:
    """Random question ``seed``: a meld (3 or 4 cards), deadwood (10) or knock (11 cards)."""

    rng = random.Random(seed)
    deck = [card_str(c) for c in range(NUM_CARDS)]
    size = rng.choice((3, 4, 10, 11))
    what = {3: "meld", 4: "meld", 10: "deadwood", 11: "knock"}[size]
    args: dict[str, Any] = {"cards": rng.sample(deck, size)}
    if what == "knock":
        args["upcard"] = rng.choice(deck)
    return what, args


def ask(profile: str, seed: int) -> Any:
    """The reference adapter's answer to random question ``seed`` (its repr if it raises)."""

    what, args = random_query(profile, seed)
    try:
        return ReferenceAdapter().query(what, args, profile, {})
    except Exception as exc:  # the mutant may raise where the reference does not
        return f"raised {type(exc).__name__}: {exc}"


def query_difference(switch: Switch, profile: str, seed: int) -> str | None:
    """Random question ``seed`` (profile ``profile``) to both."""
    want = _guarded(switch, False, lambda: ask(profile, seed))
    got = _guarded(switch, True, lambda: ask(profile, seed))
    if want != got:
        return f"{random_query(profile, seed)}: reference {want!r}, mutant {got!r}"
    return None


def find_witness(switch: Switch, profile: str, hands: int, queries: int,
                 seed: int = 0) -> Witness | None:
    """The first difference over ``hands`` random hands and ``queries`` random questions."""
    for k in range(queries):
        found = query_difference(switch, profile, seed + k)
        if found:
            return Witness("query", seed + k, found)
    for k in range(hands):
        found = hand_difference(switch, profile, seed + k)
        if found:
            return Witness("hand", seed + k, found)
    return None


def executed_lines(run: Callable[[], None],
                   functions: Iterable[Any] | None = None) -> set[tuple[str, int]]:
    """(file, line) of every line of the target functions that ``run()`` executes."""
    codes: set[CodeType] = set()

    def collect(code: CodeType) -> None:
        codes.add(code)
        for const in code.co_consts:
            if isinstance(const, CodeType):
                collect(const)

    for func in functions if functions is not None else iter_functions():
        collect(func.__code__)
    seen: set[tuple[str, int]] = set()

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code in codes:
            seen.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))
            return local
        return None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(old)
    return seen

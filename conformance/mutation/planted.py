"""Mutants written by hand: changes the operators of :mod:`.operators` do not make (a statement
deleted, a ``raise`` where a refusal was, a rule value read in place of another), which an
independent mutation run of the reference found the suite missing (the table is in
docs/conformance/mutation.md).

A planted mutant replaces one piece of text, which must occur exactly once in the source of one
function of the reference, and is switched on and off like a generated one (:class:`Switch`
swaps the function's code object). Its ID is ``module:function:planted:name``;
``ginspec bench mutants --mutant ID`` runs it, and ``tests/test_mutation.py`` checks that the case
written for it kills it.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass
from typing import Any, Final

from ginspec.conformance.mutation.operators import Site
from ginspec.conformance.mutation.targets import MutantSpec, _module, targets


@dataclass(frozen=True)
class PlantedSpec(MutantSpec):
    """A hand-written mutant: ``old`` replaced by ``new`` in the target function's source."""

    name: str = ""
    old: str = ""
    new: str = ""

    @property
    def id(self) -> str:
        return f"{self.target.module}:{self.target.qualname}:planted:{self.name}"

    def function_node(self) -> ast.FunctionDef:
        """The mutated function's syntax tree (without decorators, at its lines in the file)."""
        node = self.target.node
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        assert node.end_lineno is not None
        lines = inspect.getsource(_module(self.target.module)).splitlines(keepends=True)
        text = textwrap.dedent("".join(lines[first - 1:node.end_lineno]))
        if text.count(self.old) != 1:
            raise ValueError(f"{self.id}: {self.old!r} occurs {text.count(self.old)} times")
        tree = ast.parse(text.replace(self.old, self.new))
        func = tree.body[0]
        assert isinstance(func, ast.FunctionDef)
        func.decorator_list = []
        ast.increment_lineno(func, first - 1)
        return func

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "id": self.id}


def planted(module: str, function: str, name: str, old: str, new: str) -> PlantedSpec:
    """The planted mutant ``name`` of ``module``'s ``function``: ``old`` becomes ``new``."""
    target = targets({module: (function,)})[0]
    start = target.node.lineno
    source = inspect.getsource(_module(module)).splitlines()
    line = next((start + i for i, text in enumerate(source[start - 1:target.node.end_lineno])
                 if old.splitlines()[0].strip() in text), start)
    site = Site(-1, "planted", 0, line, f"{old.strip()} -> {new.strip()}")
    spec = PlantedSpec(target, site, name, old, new)
    spec.function_node()  # the text is there exactly once and the result parses
    return spec


PLANTED: Final = (
    ("game.state", "HandState._check", "gin-compulsory-knock-raises",
     'self._reject(Code.GIN_COMPULSORY, "gin is possible and compulsory: knock with a "',
     'raise AssertionError("planted", '),
    ("game.actions", "_parse_melds", "card-twice-in-a-meld-parsed",
     'raise MalformedAction("a card appears twice in one meld", action=text)', "pass"),
    ("game.actions", "_parse_action", "bare-verb-argument-ignored",
     'raise MalformedAction(f"{kind.value} takes no arguments", action=text)', "pass"),
    ("game.state", "HandState._wall_take_ok", "colony-wall-reads-discard-taken-card",
     'any_discard = self.rules.wall_action == "take_and_knock_any_discard"',
     'any_discard = self.rules.discard_taken_card == "always"'),
    ("adjudicate", "adjudicate_position", "no-big-gin-candidate",
     "(None, x) for x in legal_declarations(k, rules)",
     "(None, x) for x in legal_declarations(k, rules) if k.bit_count() == 10"),
    ("table.table_state", "TableState._candidates", "over-falls-through",
     "if ph is TablePhase.OVER or p is None:", "if ph is TablePhase.OVER and p is not None:"),
)
"""(module, function, name, old, new) of each planted mutant: the misses of the independent run
that no operator makes — a non-gin knock under compulsory gin raising instead of refusing; a
card twice in one declared meld, and an argument to a bare verb, no longer malformed (the
statement that refuses them deleted); colony's wall take judged by ``discard_taken_card`` instead
of ``wall_action``; big gin left out of an adjudication's candidates; a finished table hand's
legal actions no longer stopped at the ``over`` phase (so they raise)."""


def planted_mutants() -> list[PlantedSpec]:
    return [planted(*entry) for entry in PLANTED]

"""Run real Python code on Z3 terms, one path at a time (docs/proven.md, "Proofs of the code").

A proof about a function should be about the function's own lines, not a copy of them. Code
written for ints mostly works on Z3 terms as it is (``+``, ``-``, ``<``, ``min``, ``max``, ``abs``):
what fails is a branch, because ``bool()`` of a Z3 condition has no value. :func:`explore` runs a
function again and again, answering each such ``bool()`` from a list of decisions, and goes through
every list (depth first): each run yields the conjunction of the conditions taken (the *path
condition*) and the function's result on that path. Every path is run, so a claim checked on each
(result, path condition) holds for every input.

Loops and branches on concrete values run as usual; only conditions Z3 cannot decide by
simplification become decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

import z3

T = TypeVar("T")


class PathLimitError(RuntimeError):
    """More paths than the caller allowed: the code branches more than the proof expects."""


class Decisions:
    """The answers to the ``bool()`` calls of one run, and the conditions they took.

    With ``assume``, a branch that cannot be taken under the assumptions and the path so far is
    not explored (the other is taken without a decision)."""

    def __init__(self, prefix: list[bool], assume: list[z3.BoolRef]) -> None:
        self.prefix = list(prefix)
        self.used = 0
        self.path: list[z3.BoolRef] = []
        self.solver: z3.Solver | None = None
        if assume:
            self.solver = z3.Solver()
            self.solver.set("timeout", 5000)  # undecided in time: both branches are explored
            self.solver.add(*assume)

    def _possible(self, cond: z3.BoolRef) -> bool:
        assert self.solver is not None
        return bool(self.solver.check(*self.path, cond) != z3.unsat)

    def decide(self, cond: z3.BoolRef) -> bool:
        simple = z3.simplify(cond)
        if z3.is_true(simple):
            return True
        if z3.is_false(simple):
            return False
        if self.solver is not None:  # the same test at the same point on every run
            for choice, taken in ((True, simple), (False, z3.Not(simple))):
                if not self._possible(z3.Not(taken)):  # the other branch is impossible
                    self.path.append(taken)
                    return choice
        if self.used == len(self.prefix):
            self.prefix.append(False)
        choice = self.prefix[self.used]
        self.used += 1
        self.path.append(simple if choice else z3.Not(simple))
        return choice


@dataclass(frozen=True)
class Path(Generic[T]):
    """One path through the code: the condition that leads there, and the result."""

    condition: z3.BoolRef
    result: T


_ACTIVE: list[Decisions] = []
_ORIGINAL_BOOL = z3.BoolRef.__bool__


def _symbolic_bool(self: z3.BoolRef) -> bool:
    if not _ACTIVE:
        return bool(_ORIGINAL_BOOL(self))
    return _ACTIVE[-1].decide(self)


@contextmanager
def _branching(decisions: Decisions) -> Iterator[None]:
    _ACTIVE.append(decisions)
    z3.BoolRef.__bool__ = _symbolic_bool
    try:
        yield
    finally:
        _ACTIVE.pop()
        if not _ACTIVE:
            z3.BoolRef.__bool__ = _ORIGINAL_BOOL


def current() -> Decisions:
    """The decisions of the run in progress (for symbolic values that branch themselves)."""
    return _ACTIVE[-1]


def explore(run: Callable[[], T], *, assume: list[z3.BoolRef] | None = None,
            limit: int = 4096) -> list[Path[T]]:
    """Every path of ``run()`` possible under ``assume``: its condition and result (raises
    PathLimitError past ``limit`` paths)."""
    out: list[Path[T]] = []
    prefix: list[bool] = []
    while True:
        decisions = Decisions(prefix, assume or [])
        with _branching(decisions):
            result = run()
        out.append(Path(z3.And(*decisions.path) if decisions.path else z3.BoolVal(True), result))
        if len(out) > limit:
            raise PathLimitError(f"more than {limit} paths")
        taken = decisions.prefix[:decisions.used]
        while taken and taken[-1]:
            taken.pop()
        if not taken:
            return out
        taken[-1] = True
        prefix = taken

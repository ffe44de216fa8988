"""Which parts of the reference are mutated, and how one mutant is switched on and off.

The generator mutates the rules modules of the reference (meld finding, deadwood, layoffs, the
showdown, scoring, the typed rules, the two-player hand and the table game): :data:`MODULES`. A mutant replaces
the code object of ONE function (``function.__code__``), so every caller — however it imported
the function — runs the mutated code, and putting the original code back undoes it. The
reference's memoised look-ups (:data:`CACHES`) are emptied on every switch, so no answer computed
by the other version survives it.
"""

from __future__ import annotations
import __future__

import ast
import importlib
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType, FunctionType, ModuleType
from typing import Any, Final

from ginspec.conformance.mutation.operators import Site, mutate, sites

PREFIX: Final = "ginspec.reference."

MODULES: Final[dict[str, tuple[str, ...]]] = {
    "melds": ("check_meld", "_run_order", "all_melds", "check_arrangement", "analyse_discards"),
    "suit_tables": ("run_patterns", "rank_value"),
    "meld_rules": ("MeldRules.from_params",),
    "layoffs": ("ShowdownRules.from_params", "fit_failure", "layoffs_allowed", "_targets",
                "legal_layoffs", "apply_layoff", "check_declaration", "legal_declarations",
                "layoff_plans", "best_defence", "best_knocker_layoffs", "_value"),
    "scoring": ("hand_score_terms", "knock_limit_for", "spade_doubles", "boxes_for", "score_hand",
                "hand_points",
                "MatchTally.score", "MatchTally.after_hand", "MatchTally.winner", "final_scores",
                "next_dealer"),
    "adjudicate": ("best_reply", "_reply_key", "outcome_of", "_blocked_layoffs", "_ruling",
                   "_no_knock", "adjudicate_position"),
    "game.state": ("HandState._may_discard_taken", "HandState._discardable",
                   "HandState.after_discard", "HandState._big_gin_shape",
                   "HandState.gin_available", "HandState._check", "HandState._take_capped",
                   "HandState._wall_take_ok", "HandState._take_top", "HandState._draw_stock",
                   "HandState._discard", "HandState._knock", "HandState._defender_meld",
                   "HandState._finish", "HandState._generate"),
    "game.showdown": ("find_meld", "check_defender_melds"),
    "game.points": ("outcome_of",),
    "game.match": ("MatchState.winner", "MatchState.expected_dealer", "MatchState._score",
                   "MatchState.next_hand"),
    "game.deal": ("split_deck",),
    "typed_rules": ("Rules.knock_limit_from_upcard", "Rules.spade_upcard_doubles",
                    "Rules.eleven_card_start", "Rules.upcard_offer", "Rules.plain_first_turn",
                    "Rules.hand_size"),
    "table.table_state": ("TableDeal.split", "TableState.new", "TableState.next_seat",
                    "TableState._check", "TableState._check_melds", "TableState._candidates",
                    "TableState.apply", "TableState._after_discard", "TableState._finish"),
    "table.table_adjudicate": ("table_declarations", "best_table_defence", "turn_order", "_showdown",
                         "adjudicate_table", "_blocked", "_ruling"),
    "table.penalties": ("table_penalties", "table_winner", "prize_split"),
}
"""Module (under ``ginspec.reference``) -> the functions mutated: those that state a rule (a
meld, the minimum deadwood, a knock, a layoff, the showdown, a score, a legal action, the deal).
Left out: the search machinery behind the minimum deadwood (``min_deadwood``,
``min_deadwood_after_discard`` and their bit-mask helpers: hand-coded fast paths whose
mutants mostly fall back to the slow path and so are equivalent, and otherwise answer a
deadwood question wrongly, which the first deadwood cases show), the Z3 proofs' symbolic
arithmetic, reports and ``__repr__``."""

FEEDERS: Final = ("suit_tables.", "meld_rules.", "typed_rules.", "game.actions.",
                   "layoffs:ShowdownRules.")
"""Targets that run while a memoised value is computed (``module.`` prefixes, then
``module:qualname`` ones): their mutants clear the caches on every switch (others need not: a
cached value never runs their code)."""

CACHES: Final = (("suit_tables", "_build_suit_tables"), ("typed_rules", "_profile_rules"),
                  ("typed_rules", "_ruleset_rules"), ("game.actions", "_PARSED"))
"""The reference's memoised values (module, name): functions with ``cache_clear`` and dicts
(``game.actions._PARSED``, the parsed action texts), cleared on every switch."""


@dataclass(frozen=True)
class Target:
    """A function of the reference that can be mutated."""

    module: str
    qualname: str
    node: ast.FunctionDef
    owner: str | None
    """The class the function is defined in (None for a module-level function)."""

    @property
    def filename(self) -> str:
        return inspect.getsourcefile(_module(self.module)) or self.module


@dataclass(frozen=True)
class MutantSpec:
    """One mutant: a target function and one site in it."""

    target: Target
    site: Site

    @property
    def id(self) -> str:
        """Stable name: ``module:function:family:node.variant`` (the node's number in the
        function's walk, so edits elsewhere in the module keep it)."""
        s = self.site
        return f"{self.target.module}:{self.target.qualname}:{s.family}:{s.index}.{s.variant}"

    def function_node(self) -> ast.FunctionDef:
        """The mutated function's syntax tree."""
        return mutate(self.target.node, self.site)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "module": self.target.module, "function": self.target.qualname,
                "line": self.site.line, "family": self.site.family,
                "change": self.site.description}


def _module(name: str) -> ModuleType:
    return importlib.import_module(PREFIX + name)


def targets(modules: dict[str, tuple[str, ...]] | None = None) -> list[Target]:
    """The functions of the selected modules, in source order."""
    out: list[Target] = []
    for name, wanted in (modules or MODULES).items():
        tree = ast.parse(inspect.getsource(_module(name)))
        found: dict[str, Target] = {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found[node.name] = Target(name, node.name, node, None)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        qual = f"{node.name}.{item.name}"
                        found[qual] = Target(name, qual, item, node.name)
        missing = [w for w in wanted if w not in found]
        if missing:
            raise LookupError(f"{PREFIX}{name} has no {', '.join(missing)}")
        out.extend(found[w] for w in wanted)
    return out


def mutants(modules: dict[str, tuple[str, ...]] | None = None) -> list[MutantSpec]:
    """Every mutant of the selected modules, in a fixed order."""
    return [MutantSpec(t, s) for t in targets(modules) for s in sites(t.node)]


def function_of(target: Target) -> FunctionType:
    """The live function object whose code a mutant of ``target`` replaces."""
    module = _module(target.module)
    if target.owner is None:
        obj: Any = module.__dict__[target.qualname]
    else:
        obj = getattr(module, target.owner).__dict__[target.qualname.rpartition(".")[2]]
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    obj = inspect.unwrap(obj)
    if not isinstance(obj, FunctionType):
        raise TypeError(f"{target.module}:{target.qualname} is not a function")
    return obj


def _code_in(code: CodeType, name: str) -> CodeType:
    return next(c for c in code.co_consts if isinstance(c, CodeType) and c.co_name == name)


def compile_mutant(spec: MutantSpec) -> CodeType:
    """The code object of the mutated function (same free variables as the original)."""
    target = spec.target
    func = spec.function_node()
    body: ast.stmt = func
    if target.owner is not None:
        body = ast.ClassDef(name=target.owner, bases=[], keywords=[], body=[func],
                            decorator_list=[])
    tree = ast.fix_missing_locations(ast.Module(body=[body], type_ignores=[]))
    code = compile(tree, target.filename, "exec", flags=__future__.annotations.compiler_flag,
                   dont_inherit=True)
    if target.owner is not None:
        code = _code_in(code, target.owner)
    return _code_in(code, func.name)


def clear_caches() -> None:
    for module, name in CACHES:
        memo = getattr(_module(module), name)
        if isinstance(memo, dict):
            memo.clear()
        else:
            memo.cache_clear()


class Switch:
    """Turns one mutant on (``on()``) and off (``off()``); ``off`` restores the original."""

    def __init__(self, spec: MutantSpec):
        where = f"{spec.target.module}.{spec.target.qualname}"
        self.feeds_cache = where.startswith(tuple(f for f in FEEDERS if ":" not in f)) or \
            f"{spec.target.module}:{spec.target.qualname}".startswith(
                tuple(f for f in FEEDERS if ":" in f))
        self.function = function_of(spec.target)
        self.original = self.function.__code__
        self.mutated = compile_mutant(spec)
        if self.mutated.co_freevars != self.original.co_freevars:
            raise TypeError(f"{spec.id}: free variables differ")
        self.active = False

    def on(self) -> None:
        if not self.active:
            self.function.__code__ = self.mutated
            self.active = True
            if self.feeds_cache:
                clear_caches()

    def off(self) -> None:
        if self.active:
            self.function.__code__ = self.original
            self.active = False
            if self.feeds_cache:
                clear_caches()

    def wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        """``method`` run with the mutant on (and off again afterwards)."""
        def run(*args: Any, **kwargs: Any) -> Any:
            self.on()
            try:
                return method(*args, **kwargs)
            finally:
                self.off()
        return run


def iter_functions(modules: dict[str, tuple[str, ...]] | None = None) -> Iterator[FunctionType]:
    """Every live function object of the selected targets (for coverage)."""
    for target in targets(modules):
        yield function_of(target)

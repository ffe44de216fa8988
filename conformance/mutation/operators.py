"""Mutation operators on a function's syntax tree.

A *site* is one node of a function definition where one operator applies; a mutant is the
function with exactly one site changed. Sites are numbered in the order of a depth-first walk, so
enumerating (:func:`sites`) and applying (:func:`mutate`) agree on a node without any reference
to the original objects. Annotations, docstrings, ``assert`` statements and the messages of
``raise`` statements are never mutated (they do not decide a rule).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

OPERATORS: Final = ("compare", "arith", "constant", "boolean", "condition", "swap", "minmax")
"""The operator families: comparison boundaries and negations, arithmetic operators, integer
constants off by one, flipped booleans (``True``/``False``, ``and``/``or``, a dropped ``not``),
dropped conditions (one operand of ``and``/``or`` removed; an ``if`` test negated), swapped
adjacent call arguments, and ``min``/``max``, ``any``/``all`` exchanged."""

_COMPARE: Final[dict[type[ast.cmpop], type[ast.cmpop]]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_ARITH: Final[dict[type[ast.operator], type[ast.operator]]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitOr, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
}
_NAMES: Final = {"min": "max", "max": "min", "any": "all", "all": "any"}

_SYMBOL: Final[dict[type[ast.AST], str]] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.And: "and", ast.Or: "or",
}


@dataclass(frozen=True)
class Site:
    """One applicable mutation: node ``index`` of the walk, operator ``family``, variant
    ``variant`` (e.g. which operand is dropped), at ``line`` of the source file."""

    index: int
    family: str
    variant: int
    line: int
    description: str


Rewrite = Callable[[ast.AST], ast.AST]


def _skipped_children(node: ast.AST) -> set[int]:
    """ids of child subtrees never mutated: annotations, docstrings, assert and raise bodies."""
    skip: list[ast.AST | None] = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        skip.append(node.returns)
        skip.extend(node.decorator_list)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.append(body[0])
    if isinstance(node, ast.arg):
        skip.append(node.annotation)
    if isinstance(node, ast.AnnAssign):
        skip.append(node.annotation)
    if isinstance(node, (ast.Assert, ast.Raise)):
        skip.extend(ast.iter_child_nodes(node))
    return {id(s) for s in skip if s is not None}


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Depth-first, children in field order, skipping the unmutated subtrees."""
    yield node
    skip = _skipped_children(node)
    for child in ast.iter_child_nodes(node):
        if id(child) not in skip:
            yield from _walk(child)


def _options(node: ast.AST) -> list[tuple[str, str, Rewrite]]:
    """Every (family, description, rewrite) applicable at ``node``; a rewrite returns the
    replacement node (it may change ``node`` in place and return it)."""
    out: list[tuple[str, str, Rewrite]] = []
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            new = _COMPARE.get(type(op))
            if new is not None:
                out.append(("compare", f"{_SYMBOL[type(op)]} -> {_SYMBOL[new]}",
                            _replace_cmp(k, new)))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        arith = _ARITH.get(type(node.op))
        if arith is not None:
            out.append(("arith", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[arith]}",
                        _replace_op(arith)))
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            out.append(("boolean", f"{node.value} -> {not node.value}",
                        _const(not node.value)))
        elif isinstance(node.value, int):
            out.append(("constant", f"{node.value} -> {node.value + 1}",
                        _const(node.value + 1)))
    elif isinstance(node, ast.BoolOp):
        flip: type[ast.boolop] = ast.Or if isinstance(node.op, ast.And) else ast.And
        out.append(("boolean", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[flip]}", _boolop(flip)))
        for k in range(len(node.values)):
            out.append(("condition", f"operand {k + 1} of {_SYMBOL[type(node.op)]} dropped",
                        _drop_operand(k)))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("boolean", "not dropped", lambda n: n.operand))  # type: ignore[attr-defined]
    elif isinstance(node, (ast.If, ast.IfExp)):
        out.append(("condition", "if test negated", _negate_test))
    elif isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in _NAMES:
            out.append(("minmax", f"{node.func.id} -> {_NAMES[node.func.id]}",
                        _rename(_NAMES[node.func.id])))
        args = node.args
        for k in range(len(args) - 1):
            if not any(isinstance(a, ast.Starred) for a in args[k:k + 2]) \
                    and ast.dump(args[k]) != ast.dump(args[k + 1]):
                out.append(("swap", f"arguments {k + 1} and {k + 2} swapped", _swap(k)))
    return out


def _replace_cmp(k: int, new: type[ast.cmpop]) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[k] = new()
        return node
    return rewrite


def _replace_op(new: type[ast.operator]) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, (ast.BinOp, ast.AugAssign))
        node.op = new()
        return node
    return rewrite


def _const(value: int) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Constant)
        node.value = value
        return node
    return rewrite


def _boolop(new: type[ast.boolop]) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BoolOp)
        node.op = new()
        return node
    return rewrite


def _drop_operand(k: int) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BoolOp)
        rest = node.values[:k] + node.values[k + 1:]
        if len(rest) == 1:
            return rest[0]
        node.values = rest
        return node
    return rewrite


def _negate_test(node: ast.AST) -> ast.AST:
    assert isinstance(node, (ast.If, ast.IfExp))
    node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    return node


def _rename(name: str) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        node.func = ast.Name(id=name, ctx=ast.Load())
        return node
    return rewrite


def _swap(k: int) -> Rewrite:
    def rewrite(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call)
        node.args[k], node.args[k + 1] = node.args[k + 1], node.args[k]
        return node
    return rewrite


def sites(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Site]:
    """Every mutation site of ``func``, in walk order."""
    out = []
    for index, node in enumerate(_walk(func)):
        for variant, (family, text, _) in enumerate(_options(node)):
            out.append(Site(index, family, variant, getattr(node, "lineno", func.lineno), text))
    return out


def mutate(func: ast.FunctionDef | ast.AsyncFunctionDef, site: Site) -> ast.FunctionDef:
    """A copy of ``func`` with ``site`` applied (decorators removed: the caller swaps the code
    of the existing, decorated function object)."""
    tree = copy.deepcopy(func)
    tree.decorator_list = []
    parents: dict[int, tuple[ast.AST, str, int | None]] = {}
    for node in _walk(tree):
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        parents[id(item)] = (node, name, i)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (node, name, None)
    target = next(n for i, n in enumerate(_walk(tree)) if i == site.index)
    family, _, rewrite = _options(target)[site.variant]
    if family != site.family:
        raise ValueError(f"site {site} does not match the tree")
    new = rewrite(target)
    if new is not target:
        parent, field, slot = parents[id(target)]
        if slot is None:
            setattr(parent, field, new)
        else:
            getattr(parent, field)[slot] = new
    ast.fix_missing_locations(tree)
    assert isinstance(tree, ast.FunctionDef)
    return tree

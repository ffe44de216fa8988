"""Typed rules everywhere: no string-keyed parameter read outside the loaders.

A read is a subscript ``x["gin_bonus"]`` or a call ``x.get("gin_bonus", ...)`` whose key is a
string literal naming a parameter of spec/parameters.toml, anywhere in reference/ or
conformance/. Code that has rules reads ``rules.gin_bonus`` from :class:`Rules` (typed, and
logged by ``recording_reads`` where its rule applies); a mapping is turned into ``Rules`` once,
at the boundary (``typed_rules.to_rules``, ``game_rules``). Only the places in ``ALLOWED`` read
by name, each for the reason given.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("reference", "conformance")

ALLOWED: dict[str, str] = {
    # loaders: a mapping of parameter values turned into something typed
    "reference/layoffs.py::as_rules":
        "a ruleset mapping into ShowdownRules (typed_rules imports layoffs: no Rules here)",
    "reference/table/table_adjudicate.py::_rules":
        "checks a raw mapping's game_system before typing it as table rules",
    "reference/cli/adjudicate_table.py::run_table":
        "the --set overrides as given, checked against the seats given with --hand",
    "conformance/generate/common.py::oracle_rules":
        "a mapping of values into the oracle's own meld rules (the oracle never sees Rules)",
    "conformance/adapters/openspiel.py":
        "the protocol's declared rules (raw) translated into OpenSpiel's settings",
    "conformance/adapters/rlcard.py":
        "the protocol's declared rules (raw) translated into RLCard's settings",
    # not a ruleset: a field or a variable that has a parameter's name
    "reference/cli/play_command.py::print_trace": "a trace's players, first_dealer, game_bonus",
    "reference/cli/play_command.py::_check": "a trace's players field",
    "reference/cli/deadwood_command.py::_text": "an answer's knock_limit field",
    "reference/proofs/match_proofs.py::match_spec": "SymbolicRules: a parameter's Z3 variable",
    "reference/proofs/scoring_proofs.py::score_spec": "SymbolicRules: a parameter's Z3 variable",
    "reference/proofs/suite_certificates.py::binding_problem": "a certificate's knock_limit",
    "reference/proofs/suite_certificates.py::showdown_key": "a certificate's meld rules",
    "conformance/adapters/reference_table.py::table_deal": "a protocol deal's players field",
    "conformance/cases/store.py::_check_table_hand": "a case deal's players field",
    "conformance/reports/explain.py::deal_hands": "a case deal's players field",
}
"""``path`` (the whole module) or ``path::function`` (the innermost def) -> why it reads
parameters by name."""


def parameter_names() -> frozenset[str]:
    catalogue = tomllib.loads((ROOT / "spec" / "parameters.toml").read_text(encoding="utf-8"))
    return frozenset(k for k, v in catalogue.items() if isinstance(v, dict))


def _key(node: ast.AST) -> str | None:
    """The string literal a subscript or a ``.get`` call reads, if any (the catalogue itself,
    ``parameters()["x"]``, is no read of a value)."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                and value.func.id == "parameters":
            return None
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("get", "pop", "setdefault") and node.args \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def string_reads(path: Path, names: frozenset[str]) -> Iterator[tuple[str, int, str]]:
    """``(innermost def or "", line, parameter)`` of each read by name in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    def walk(node: ast.AST, where: str) -> Iterator[tuple[str, int, str]]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) \
                else where
            key = _key(child)
            if key in names:
                yield where, child.lineno, key  # type: ignore[misc]
            yield from walk(child, inner)

    yield from walk(tree, "")


def unallowed_reads() -> list[str]:
    names = parameter_names()
    found = []
    for part in SCANNED:
        for path in sorted((ROOT / part).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for where, line, key in string_reads(path, names):
                if rel in ALLOWED or f"{rel}::{where}" in ALLOWED:
                    continue
                found.append(f"{rel}:{line} ({where or 'module'}): [{key!r}]")
    return found


def test_no_string_keyed_parameter_read_outside_the_loaders() -> None:
    found = unallowed_reads()
    assert not found, ("read the typed field (rules.NAME) of Rules, or convert the mapping once "
                       "with typed_rules.to_rules:\n" + "\n".join(found))


def test_the_allow_list_names_only_places_that_read() -> None:
    """An allow-list entry with no read left is dropped (the list stays short and true)."""
    names = parameter_names()
    used: set[str] = set()
    for part in SCANNED:
        for path in sorted((ROOT / part).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for where, _, _ in string_reads(path, names):
                used.update({rel, f"{rel}::{where}"})
    assert sorted(set(ALLOWED) - used) == []


def test_the_scan_finds_a_new_read(tmp_path: Path) -> None:
    """A planted ``values["gin_bonus"]`` and ``params.get("undercut_on_tie")`` are found."""
    planted = tmp_path / "planted.py"
    planted.write_text("def f(values, params):\n    return values['gin_bonus'], "
                       "params.get('undercut_on_tie'), values['cards']\n", encoding="utf-8")
    assert [(w, k) for w, _, k in string_reads(planted, parameter_names())] == [
        ("f", "gin_bonus"), ("f", "undercut_on_tie")]

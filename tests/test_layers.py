"""The import graph of the three packages: dependencies point one way (conformance -> reference ->
spec) and no module imports itself back through others. Every import counts, the ones inside
functions included, so a cycle cannot hide behind a lazy import."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"spec": "ginspec.spec", "reference": "ginspec.reference", "conformance": "ginspec.conformance"}
LAYER = {"ginspec.spec": 0, "ginspec.reference": 1, "ginspec.conformance": 2}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every ginspec module ``name`` imports (at any depth of the file), with its line."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            named = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            yield from ((module, node.lineno) for module in named)  # ``from pkg import module``
            if len(named) < len(node.names):
                yield target, node.lineno


def _resolve(target: str) -> str | None:
    """The module of ours that an import of ``target`` loads (its longest known prefix)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


def _layer(module: str) -> int:
    return LAYER[".".join(module.split(".")[:2])]


GRAPH: dict[str, set[str]] = {
    name: {t for target, _ in _imports(name, path) if (t := _resolve(target)) and t != name}
    for name, path in MODULES.items()
}


def test_the_walk_sees_every_package() -> None:
    assert {_layer(m) for m in MODULES} == {0, 1, 2}
    assert sum(len(edges) for edges in GRAPH.values()) > 200


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name: str) -> None:
    """spec imports only spec; reference imports spec and reference; conformance imports any."""
    upward = [
        f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}"
        for target, line in _imports(name, MODULES[name])
        if (t := _resolve(target)) and _layer(t) > _layer(name)
    ]
    assert not upward, upward


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return components


REMAINING_CYCLES: list[list[str]] = []
"""Cycles still to be taken apart. The list must match exactly: a new cycle fails the test, and so
does a listed one that is gone (delete its entry)."""


def test_no_import_cycles() -> None:
    assert sorted(_cycles()) == sorted(REMAINING_CYCLES)


@pytest.mark.parametrize(
    "argv",
    [
        ["adjudicate", "--profile", "pagat", "--knocker", "2C 3C 4C 7H 7D 7S JS QS KS 5D",
         "--defender", "8C 8D 8H 9S 9H 9D AS 2S 3S 5H"],
        ["deadwood", "7H", "7D", "7S", "8C", "9C", "TC", "2S", "3D", "4H", "KD"],
        ["rules", "pagat"],
    ],
)
def test_a_rules_command_loads_neither_the_suite_nor_z3(argv: list[str]) -> None:
    """The dispatcher imports only the module of the command that runs."""
    code = (
        "import sys, contextlib, io\n"
        "from ginspec.conformance.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()): assert main({argv!r}) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'jsonschema', 'hypothesis')"
        " or m.startswith('ginspec.conformance.')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "['ginspec.conformance.cli', 'ginspec.conformance.versions']"

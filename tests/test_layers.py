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


def _modules(root: Path = ROOT) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path, modules: dict[str, Path] = MODULES) -> Iterator[tuple[str, int]]:
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
            named = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            yield from ((module, node.lineno) for module in named)  # ``from pkg import module``
            if len(named) < len(node.names):
                yield target, node.lineno


def _resolve(target: str, modules: dict[str, Path] = MODULES) -> str | None:
    """The module of ours that an import of ``target`` loads (its longest known prefix)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def _layer(module: str) -> int:
    return LAYER[".".join(module.split(".")[:2])]


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, at any depth of its file."""
    return {
        name: {t for target, _ in _imports(name, path, modules) if (t := _resolve(target, modules)) and t != name}
        for name, path in modules.items()
    }


GRAPH = _graph(MODULES)


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


def _cycles(graph: dict[str, set[str]] = GRAPH) -> list[list[str]]:
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
        for w in sorted(graph[v]):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


REMAINING_CYCLES: list[list[str]] = []
"""Cycles still to be taken apart. The list must match exactly: a new cycle fails the test, and so
does a listed one that is gone (delete its entry)."""


def test_no_import_cycles() -> None:
    assert sorted(_cycles()) == sorted(REMAINING_CYCLES)


def _deferred(path: Path) -> list[tuple[str, int]]:
    """The imports of our modules made inside a function of ``path``, with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("ginspec")):
                    found.append((node.module or ".", node.lineno))
                elif isinstance(node, ast.Import):
                    found += [(a.name, node.lineno) for a in node.names if a.name.startswith("ginspec")]
    return found


DEFERRED_IMPORTS: dict[str, str] = {
    "ginspec.conformance.cli": "the dispatcher: a command's module is imported when it runs",
    "ginspec.conformance.cli.": "a command's handler loads what only that command needs (the help "
                                "imports every command module)",
    "ginspec.reference.cli.prove_command": "the suite's certificates are read only by --verify-suite",
    "ginspec.conformance.adapters.loader": "the adapter named by --adapter, the peers needing their optional "
                                           "libraries",
    "ginspec.conformance.generate.suite": "the builders (Z3 certificates, Hypothesis exploration) load when the "
                                          "suite is built, not when a run reads SUITE_DIR",
    "ginspec.conformance.selection": "ruling files and the builders load only when a run asks for them",
    "ginspec.conformance.pytest_plugin": "a pytest11 entry point: loaded into every pytest session where "
                                         "ginspec is installed, it imports the suite only with --ginspec-adapter",
}
"""Modules (a trailing dot: every module of a package) whose functions may import our modules,
and why: loading on demand for start-up. Everywhere else an import of ours is at the top."""

REMAINING_DEFERRED: set[str] = set()
"""Modules that still import ours inside functions with no such reason (to move to the top). The
set must match exactly: a new module fails the test, and so does a listed one that is clean."""


def _deferral_allowed(name: str) -> bool:
    return any(name == key or (key.endswith(".") and name.startswith(key)) for key in DEFERRED_IMPORTS)


def test_imports_inside_functions_only_where_start_up_needs_them() -> None:
    deferring = {name for name, path in MODULES.items() if _deferred(path)}
    unexplained = sorted(
        f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}"
        for name in deferring - REMAINING_DEFERRED if not _deferral_allowed(name)
        for target, line in _deferred(MODULES[name])
    )
    assert not unexplained, unexplained
    assert deferring >= REMAINING_DEFERRED, sorted(REMAINING_DEFERRED - deferring)


def test_the_walk_finds_a_cycle_behind_a_lazy_import_and_an_upward_import(tmp_path: Path) -> None:
    """The checks above can fail: a small tree where two reference modules import each other, one
    of them only inside a function (``from . import`` form), and a spec module imports reference
    inside a function."""
    files = {
        "spec/__init__.py": "",
        "spec/cards.py": "def f() -> None:\n    from ginspec.reference import melds\n",
        "reference/__init__.py": "",
        "reference/melds.py": "from ginspec.reference.game import state\n",
        "reference/game/__init__.py": "",
        "reference/game/state.py": "def g() -> None:\n    from .. import melds\n",
        "conformance/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = _modules(tmp_path)
    graph = _graph(modules)
    assert _cycles(graph) == [["ginspec.reference.game.state", "ginspec.reference.melds"]]
    cards = "ginspec.spec.cards"
    assert [_resolve(t, modules) for t, _ in _imports(cards, modules[cards], modules)] == ["ginspec.reference.melds"]
    assert _layer("ginspec.reference.melds") > _layer(cards)
    assert _deferred(modules[cards]) == [("ginspec.reference", 2)]
    assert _deferred(modules["ginspec.reference.game.state"]) == [(".", 2)]


@pytest.mark.parametrize(
    "argv",
    [
        ["adjudicate", "--profile", "pagat", "--knocker", "2C 3C 4C 7H 7D 7S JS QS KS 5D",
         "--defender", "8C 8D 8H 9S 9H 9D AS 2S 3S 5H"],
        ["deadwood", "7H", "7D", "7S", "8C", "9C", "TC", "2S", "3D", "4H", "KD"],
        ["rules", "pagat"],
        ["play", "--profile", "serbian-online", "--players", "3", "--seed", "1"],
        ["ruling", "check", "spec/casebook/C01-tie-on-the-knock.toml"],
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
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert proc.stdout.strip() == "['ginspec.conformance.cli', 'ginspec.conformance.versions']"


@pytest.mark.parametrize(
    "argv",
    [
        ["conform", "--adapter", "reference", "--no-progress", "--cases", "q.knock.9c*"],
        ["suite", "list"],
        ["report", "--help"],
    ],
)
def test_a_suite_command_that_needs_no_proof_loads_no_z3(argv: list[str]) -> None:
    """Z3 and Hypothesis load only for the commands that use them (prove, suite build, live runs)."""
    code = (
        "import sys, contextlib, io\n"
        "from ginspec.conformance.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        assert main({argv!r}) == 0\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code == 0\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'z3', 'hypothesis'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert proc.stdout.strip() == "[]"

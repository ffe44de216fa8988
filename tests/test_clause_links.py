"""Clause IDs cited anywhere in the project must exist, and the spec's own links must resolve.

The citation forms that are checked are listed in spec/README.md ("Citing clauses"):

* ``@implements("ID", ...)`` in Python (also checked through ``IMPLEMENTATIONS`` after importing
  every reference module);
* a ``clauses`` list or a ``clause`` string in code, TOML, JSON or YAML: ``clauses = ["ID"]``,
  ``"clauses": ["ID"]``, ``clause = "ID"``, ``"clause": "ID"``; every string there must be an ID;
* ``[ID]`` in prose (Markdown, docstrings, comments);
* a bare ID in Markdown or Python text whose first word is the chapter word of an existing clause
  (``CARD``, ``MELD``, ...), e.g. "(MELD.SET, MELD.RUN)" in a docstring;
* ``see_also`` in a clause block.

A line containing ``clause-links: ignore`` is not scanned (for tests that need a bogus ID).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import pytest
from ginspec.reference import implemented_modules
from ginspec.spec.clauses import (
    CLAUSE_ID_RE,
    IMPLEMENTATIONS,
    Registry,
    load_registry,
    parse_chapter,
    registry,
)
from ginspec.spec.errors import ClauseError
from ginspec.spec.parameters import parameters

ROOT: Final = Path(__file__).resolve().parents[1]
SPEC: Final = ROOT / "spec"
CHAPTERS: Final = SPEC / "chapters"

OWNED_CHAPTERS: Final = ("01-cards", "02-melds", "03-deadwood", "04-knock-eligibility")
"""The spec-writer's chapters: each testable clause needs an example or implementing code."""

PENDING_CHAPTER_WORDS: Final[dict[str, str]] = {}
"""Chapter words of chapters not yet written. Code may cite ``WORD.ANYTHING`` only while no clause
with that chapter word exists: as soon as the chapter lands, every citation must resolve."""

PENDING_IDS: Final[dict[str, str]] = {}
"""Single IDs cited before their clause is written, in a chapter word that already exists."""

SKIP_DIRS: Final = {
    ".git", ".venv", "venv", "build", "dist", "__pycache__", ".hypothesis", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", "node_modules", "_build", ".typecheck",
}
TEXT_SUFFIXES: Final = {".py", ".md", ".rst", ".txt"}
DATA_SUFFIXES: Final = {".toml", ".json", ".jsonl", ".yaml", ".yml"}
SKIP_FILES: Final = {SPEC / "retired.toml", Path(__file__).resolve()}
"""retired.toml lists retired IDs on purpose; this file's own scanner tests use bogus IDs."""
IGNORE_MARK: Final = "clause-links: ignore"

_ID: Final = r"[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+"
BARE_ID_RE: Final = re.compile(rf"(?<![\w.\-/])({_ID})(?![\w\-]|\.[A-Za-z0-9])")
BRACKET_RE: Final = re.compile(rf"\[({_ID})\]")
IMPLEMENTS_RE: Final = re.compile(r"@implements\(([^)]*)\)")
CLAUSES_LIST_RE: Final = re.compile(r"""["']?\bclauses["']?\s*[:=]\s*\[([^\]]*)\]""")
CLAUSE_STR_RE: Final = re.compile(r"""["']?\bclause["']?\s*[:=]\s*["']([^"'\n]*)["']""")
STRING_RE: Final = re.compile(r"""["']([^"'\n]*)["']""")


@dataclass(frozen=True)
class Citation:
    path: Path
    line: int
    form: str
    text: str

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} ({self.form}) {self.text!r}"


def _git_files() -> list[Path] | None:
    """Tracked and untracked-but-not-ignored files, or None outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [ROOT / name for name in out.decode("utf-8").split("\0") if name]


def project_files() -> Iterator[Path]:
    """Every text or data file of the project: the git checkout's files minus what .gitignore
    excludes (generated docs, build output), or, outside git, a walk without caches and venvs."""
    listed = _git_files()
    if listed is not None:
        for path in sorted(listed):
            if (
                path.suffix in TEXT_SUFFIXES | DATA_SUFFIXES
                and path not in SKIP_FILES
                and path.is_file()
                and not path.is_symlink()
                and not SKIP_DIRS & set(path.relative_to(ROOT).parts)
            ):
                yield path
        return
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for entry in sorted(folder.iterdir()):
            if entry.is_symlink():
                continue
            if entry.is_dir():
                if entry.name not in SKIP_DIRS and not entry.name.endswith(".egg-info"):
                    stack.append(entry)
            elif entry.suffix in TEXT_SUFFIXES | DATA_SUFFIXES and entry not in SKIP_FILES:
                yield entry


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _strip_ignored(text: str) -> str:
    """Blank out ignored lines, keeping the line numbering."""
    return "\n".join("" if IGNORE_MARK in line else line for line in text.split("\n"))


def citations_in(path: Path, text: str, chapter_words: frozenset[str]) -> Iterator[Citation]:
    """The clause citations in one file's text."""
    text = _strip_ignored(text)
    structured_spans: list[tuple[int, int]] = []

    def strings(form: str, match: re.Match[str]) -> Iterator[Citation]:
        structured_spans.append(match.span())
        for s in STRING_RE.finditer(match.group(1)):
            offset = match.start(1) + s.start()
            yield Citation(path, _line_of(text, offset), form, s.group(1))

    if path.suffix == ".py":
        for m in IMPLEMENTS_RE.finditer(text):
            yield from strings("@implements", m)
    for m in CLAUSES_LIST_RE.finditer(text):
        yield from strings("clauses list", m)
    for m in CLAUSE_STR_RE.finditer(text):
        structured_spans.append(m.span())
        yield Citation(path, _line_of(text, m.start(1)), "clause string", m.group(1))
    if path.suffix in TEXT_SUFFIXES:
        for m in BRACKET_RE.finditer(text):
            yield Citation(path, _line_of(text, m.start(1)), "[ID]", m.group(1))
        for m in BARE_ID_RE.finditer(text):
            inside = any(a <= m.start() < b for a, b in structured_spans)
            if not inside and m.group(1).split(".")[0] in chapter_words:
                yield Citation(path, _line_of(text, m.start(1)), "bare ID", m.group(1))


def _chapter_words(reg: Registry) -> frozenset[str]:
    return frozenset(clause_id.split(".")[0] for clause_id in reg.clauses)


@cache
def all_citations() -> tuple[Citation, ...]:
    words = _chapter_words(registry())
    found: list[Citation] = []
    for path in project_files():
        found.extend(citations_in(path, path.read_text(encoding="utf-8"), words))
    return tuple(found)


def _problem(reg: Registry, clause_id: str) -> str | None:
    if not CLAUSE_ID_RE.match(clause_id):
        return "is not a clause ID"
    if clause_id in reg.retired:
        return f"is retired ({reg.retired[clause_id]})"
    if clause_id not in reg:
        word = clause_id.split(".")[0]
        if clause_id in PENDING_IDS:
            return None
        if word in PENDING_CHAPTER_WORDS and word not in _chapter_words(reg):
            return None
        return "does not exist"
    return None


# --- the registry itself ---------------------------------------------------------------------


def test_registry_loads_without_duplicates() -> None:
    """The loader refuses duplicated or retired IDs; this also lists every heading to be sure."""
    reg = load_registry()
    seen: dict[str, str] = {}
    for chapter in reg.chapters:
        for clause in chapter.clauses:
            assert clause.id not in seen, f"{clause.id} in {clause.path} and {seen[clause.id]}"
            seen[clause.id] = clause.path
    assert set(seen) == set(reg.clauses)
    assert not set(seen) & set(reg.retired)


def test_loader_rejects_a_duplicated_id(tmp_path: Path) -> None:
    text = "# T\n\n## MELD.SET — A\n\n```clause\nsources = []\n```\n\ntext\n"
    (tmp_path / "01-a.md").write_text(text, encoding="utf-8")
    (tmp_path / "02-b.md").write_text(text, encoding="utf-8")
    with pytest.raises(ClauseError, match="duplicate clause ID"):
        load_registry(tmp_path)


def test_example_ids_are_unique_and_well_formed() -> None:
    ids = [e.id for e in registry().examples()]
    assert len(ids) == len(set(ids))


def test_clause_sources_use_known_keys() -> None:
    import tomllib

    keys = set(tomllib.loads((SPEC / "sources.toml").read_text(encoding="utf-8")))
    bad = []
    for clause in registry():
        for source in clause.sources:
            key, sep, locator = source.partition(":")
            if not sep or key.strip() not in keys or not locator.strip():
                bad.append(f"{clause.id}: {source!r}")
    assert not bad, "sources must be 'KEY: locator', KEY from spec/sources.toml:\n" + "\n".join(bad)


def test_clause_params_exist() -> None:
    known = set(parameters())
    bad = [f"{c.id}: {p}" for c in registry() for p in c.params if p not in known]
    assert not bad, "parameters not in spec/parameters.toml:\n" + "\n".join(bad)


def test_example_params_exist() -> None:
    known = set(parameters())
    bad = [
        f"{e.id}: {p}"
        for e in registry().examples()
        for p in (e.data.get("params") or {})
        if p not in known
    ]
    assert not bad, "example params not in spec/parameters.toml:\n" + "\n".join(bad)


def test_see_also_links_resolve() -> None:
    reg = registry()
    bad = [
        f"{c.id} -> {target}: {problem}"
        for c in reg
        for target in c.extra.get("see_also", ())
        if (problem := _problem(reg, str(target)))
    ]
    assert not bad, "\n".join(bad)


# --- citations in code, tests, docs and cases -----------------------------------------------


def test_implemented_clauses_exist() -> None:
    modules = implemented_modules()
    assert modules, "the reference has no modules"
    reg = registry()
    bad = [
        f"{clause_id} ({', '.join(IMPLEMENTATIONS[clause_id])}): {problem}"
        for clause_id in sorted(IMPLEMENTATIONS)
        if (problem := _problem(reg, clause_id))
    ]
    assert not bad, (
        "@implements cites a bad clause (see PENDING_CHAPTER_WORDS for chapters under way):\n"
        + "\n".join(bad)
    )


def _module_source(qualified: str) -> str:
    """The source of the module defining ``qualified`` (``package.module.Class.function``)."""
    parts = qualified.split(".")
    for end in range(len(parts), 1, -1):
        name = ".".join(parts[:end])
        folder = {"ginspec.spec": "spec", "ginspec.reference": "reference", "ginspec.conformance": "conformance"}
        for package, path in folder.items():
            if name == package or name.startswith(package + "."):
                base = ROOT / path / Path(*name[len(package) + 1:].split(".")) if name != package else ROOT / path
                for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                    if candidate.is_file():
                        return candidate.read_text("utf-8")
    raise AssertionError(f"no module for {qualified}")


def test_every_clause_id_is_written_at_its_code() -> None:
    """A search for a clause ID finds the code that implements it: each ID ``@implements`` names is
    written as a literal in that function's module (not hidden behind a constant), and every
    clause of the registry is named so in some module of spec/ or reference/."""
    implemented_modules()
    bad = [
        f"{clause_id}: not written as a literal in the module of {function}"
        for clause_id, functions in sorted(IMPLEMENTATIONS.items())
        for function in functions
        if f'"{clause_id}"' not in _module_source(function)
    ]
    sources = "\n".join(path.read_text("utf-8") for folder in ("spec", "reference")
                        for path in sorted((ROOT / folder).rglob("*.py")))
    bad += [f"{c.id}: in no module of spec/ or reference/" for c in registry()
            if f'"{c.id}"' not in sources]
    assert not bad, "\n".join(bad)
    assert len(IMPLEMENTATIONS) > 100


def test_cited_clauses_exist() -> None:
    reg = registry()
    bad = [
        f"{c.where()}: {problem}"
        for c in all_citations()
        if (problem := _problem(reg, c.text))
    ]
    assert not bad, (
        "bad clause citations (write the clause, fix the ID, or - for a chapter that is under way -"
        " add its word to PENDING_CHAPTER_WORDS or the ID to PENDING_IDS):\n" + "\n".join(bad)
    )


def test_the_scan_finds_the_known_citations() -> None:
    """A guard against a scanner that silently finds nothing."""
    forms = {c.form for c in all_citations()}
    assert {"@implements", "clause string", "bare ID"} <= forms
    cited = {c.text for c in all_citations() if c.form == "@implements"}
    assert "MELD.SET" in cited


# --- the scanner on synthetic text (so that a broken regex fails here) ----------------------


_SCANNER_CASES: list[tuple[str, list[tuple[str, str]]]] = [
    (
        '@implements("MELD.SET", "MELD.RUN")\n',
        [("@implements", "MELD.SET"), ("@implements", "MELD.RUN")],
    ),
    (
        'clauses = ["KNOCK.GIN",\n  "CARD.DECK"]\n',
        [("clauses list", "KNOCK.GIN"), ("clauses list", "CARD.DECK")],
    ),
    ('{"clauses": ["meld set"]}', [("clauses list", "meld set")]),
    ('{"clause": "MELD.SET"}', [("clause string", "MELD.SET")]),
    ('clause = "KNOCK.GIN"\n', [("clause string", "KNOCK.GIN")]),
    (
        '"""See [KNOCK.LIMIT] and (MELD.RUN.NO-WRAP)."""',
        [("[ID]", "KNOCK.LIMIT"), ("bare ID", "KNOCK.LIMIT"), ("bare ID", "MELD.RUN.NO-WRAP")],
    ),
    ("It is in the U.S. and README.md and ginspec.spec and MeldKind.SET.", []),
    ("A sentence ends with MELD.SET. Next.", [("bare ID", "MELD.SET")]),
    ("Not our chapter: FOO.BAR and MELD_X.Y, nor RC.NOT_YOUR_TURN", []),
    ('clause = "NO.SUCH"  # clause-links: ignore\n', []),
]


@pytest.mark.parametrize(("text", "expected"), _SCANNER_CASES)
def test_scanner(text: str, expected: list[tuple[str, str]]) -> None:
    found = citations_in(ROOT / "x.py", text, frozenset({"MELD", "KNOCK", "CARD"}))
    assert sorted((c.form, c.text) for c in found) == sorted(expected)


def test_a_bad_citation_is_reported() -> None:
    reg = registry()
    assert _problem(reg, "MELD.SET") is None
    assert _problem(reg, "MELD.NO-SUCH-CLAUSE") == "does not exist"
    assert _problem(reg, "meld.set") == "is not a clause ID"


def test_pending_citations_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pending chapter word stops excusing citations once a clause with that word exists."""
    reg = registry()
    word = "ZZPENDING"
    assert _problem(reg, f"{word}.NOT-YET-WRITTEN") == "does not exist"
    monkeypatch.setitem(PENDING_CHAPTER_WORDS, word, "a chapter under way")
    assert _problem(reg, f"{word}.NOT-YET-WRITTEN") is None
    written = Registry(reg.chapters, {**reg.clauses, f"{word}.X": reg["MELD.SET"]}, reg.retired)
    assert _problem(written, f"{word}.NOT-YET-WRITTEN") == "does not exist"
    assert _problem(written, f"{word}.X") is None


# --- coverage of the chapters this test owns -------------------------------------------------


def test_owned_chapters_exist() -> None:
    present = {p.stem for p in CHAPTERS.glob("*.md")}
    missing = [name for name in OWNED_CHAPTERS if name not in present]
    assert not missing, f"missing chapters: {missing}"


@pytest.mark.parametrize("stem", OWNED_CHAPTERS)
def test_testable_clauses_are_covered(stem: str) -> None:
    path = CHAPTERS / f"{stem}.md"
    if not path.exists():
        pytest.fail(f"{path.name} is missing")
    implemented_modules()
    chapter = parse_chapter(path)
    assert chapter.clauses, f"{path.name} has no clauses"
    bare = [
        c.id
        for c in chapter.clauses
        if c.testable and not c.examples and not IMPLEMENTATIONS.get(c.id)
    ]
    assert not bare, f"testable clauses with no example and no implementing code: {bare}"
    thin = [c.id for c in chapter.clauses if c.testable and len(c.examples) < 2]
    assert not thin, f"testable clauses with fewer than two examples (a case and a counter-case): {thin}"


# --- the table of contents -------------------------------------------------------------------


def test_contents_lists_every_chapter() -> None:
    """00-contents.md has a numbered entry for every chapter file, and names only real files."""
    contents = (CHAPTERS / "00-contents.md").read_text(encoding="utf-8")
    entries = {int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\.\s+\*\*", contents, re.M)}
    numbers = {int(p.stem.split("-")[0]) for p in CHAPTERS.glob("[0-9]*-*.md")} - {0}
    missing = sorted(numbers - entries)
    assert not missing, f"chapters without an entry in 00-contents.md: {missing}"
    named = set(re.findall(r"`(\d\d-[a-z0-9-]+\.md)`", contents))
    absent = sorted(name for name in named if not (CHAPTERS / name).exists())
    assert not absent, f"00-contents.md names chapter files that do not exist: {absent}"
    assert {f"{stem}.md" for stem in OWNED_CHAPTERS} <= named

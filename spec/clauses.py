"""The clause registry: clauses loaded from the Markdown chapters in ``spec/chapters``.

The format is described in ``spec/README.md``. Each clause has a stable ID (CLAUSE ID rules:
upper-case dotted words, never reused; retired IDs are listed in ``spec/retired.toml``), a
title, normative text, annotations, sources, parameters and executable examples.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, TypeAlias, TypeVar

from ginspec.spec.errors import ClauseError

ClauseId: TypeAlias = str

SPEC_DIR: Final = Path(__file__).resolve().parent
CHAPTER_DIR: Final = SPEC_DIR / "chapters"
CLAUSE_ID_RE: Final = re.compile(r"^[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+$")
EXAMPLE_ID_RE: Final = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_HEADING_RE: Final = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_CLAUSE_HEADING_RE: Final = re.compile(r"^([A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+)\s+[—-]\s+(.+)$")
_FENCE_RE: Final = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Example:
    """An executable example inside a clause (CommonMark style: the spec's examples are tests)."""

    id: str
    clause: ClauseId
    kind: str
    data: dict[str, Any]
    line: int

    def __repr__(self) -> str:
        return f"Example(id={self.id!r}, clause={self.clause!r}, kind={self.kind!r})"


@dataclass(frozen=True)
class Clause:
    """One clause of the spec."""

    id: ClauseId
    title: str
    chapter: str
    number: str
    text: str
    annotations: tuple[str, ...]
    sources: tuple[str, ...]
    params: tuple[str, ...]
    testable: bool
    untestable_reason: str
    examples: tuple[Example, ...]
    path: str
    line: int
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        return f"clause({self.id!r})"


@dataclass(frozen=True)
class Chapter:
    """A chapter file: its number, title and clauses in order."""

    number: str
    slug: str
    title: str
    intro: str
    clauses: tuple[Clause, ...]
    path: str


_META_KEYS: Final = {"sources", "params", "testable", "untestable_reason", "see_also"}


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClauseError(f"{where}: malformed TOML block: {exc}") from None


def parse_chapter(path: Path) -> Chapter:
    """Parse one chapter file into a :class:`Chapter`; malformed input raises ClauseError."""
    lines = path.read_text(encoding="utf-8").splitlines()
    stem = path.stem
    number, _, slug = stem.partition("-")
    title = ""
    intro: list[str] = []
    clauses: list[Clause] = []
    current: dict[str, Any] | None = None
    clause_index = 0
    i = 0

    def finish() -> None:
        nonlocal current
        if current is None:
            return
        meta = current["meta"]
        if meta is None:
            raise ClauseError(f"{path.name}:{current['line']}: clause {current['id']} has no ```clause block")
        unknown = set(meta) - _META_KEYS
        if unknown:
            raise ClauseError(
                f"{path.name}:{current['line']}: clause {current['id']}: unknown field(s) {sorted(unknown)}"
            )
        testable = bool(meta.get("testable", True))
        reason = str(meta.get("untestable_reason", ""))
        if not testable and not reason:
            raise ClauseError(f"{path.name}: clause {current['id']} is untestable without a reason")
        clauses.append(
            Clause(
                id=current["id"],
                title=current["title"],
                chapter=stem,
                number=current["number"],
                text="\n".join(current["text"]).strip(),
                annotations=_join_annotations(tuple(current["annotations"])),
                sources=tuple(str(s) for s in meta.get("sources", [])),
                params=tuple(str(p) for p in meta.get("params", [])),
                testable=testable,
                untestable_reason=reason,
                examples=tuple(current["examples"]),
                path=f"spec/chapters/{path.name}",
                line=current["line"],
                extra={"see_also": tuple(meta.get("see_also", []))},
            )
        )
        current = None

    while i < len(lines):
        line = lines[i]
        fence = _FENCE_RE.match(line)
        if fence:
            lang = fence.group(1)
            start = i
            i += 1
            body: list[str] = []
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise ClauseError(f"{path.name}:{start + 1}: unclosed code fence")
            block = "\n".join(body)
            where = f"{path.name}:{start + 1}"
            if lang == "clause":
                if current is None or current["meta"] is not None:
                    raise ClauseError(f"{where}: a ```clause block must follow a clause heading, once")
                current["meta"] = _parse_toml(block, where)
            elif lang == "example":
                if current is None:
                    raise ClauseError(f"{where}: an example outside any clause")
                data = _parse_toml(block, where)
                ex_id = data.pop("id", None)
                kind = data.pop("kind", None)
                if not isinstance(ex_id, str) or not EXAMPLE_ID_RE.match(ex_id):
                    raise ClauseError(f"{where}: example needs an id of lower-case words and dashes")
                if not isinstance(kind, str):
                    raise ClauseError(f"{where}: example {ex_id} needs a kind")
                current["examples"].append(Example(ex_id, current["id"], kind, data, start + 1))
            elif current is not None:
                current["text"].extend(["```" + lang, *body, "```"])
            else:
                intro.extend(["```" + lang, *body, "```"])
            i += 1
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            level, text = len(heading.group(1)), heading.group(2)
            if level == 1:
                finish()
                title = text
            else:
                clause_head = _CLAUSE_HEADING_RE.match(text)
                if clause_head:
                    finish()
                    clause_index += 1
                    current = {
                        "id": clause_head.group(1),
                        "title": clause_head.group(2).strip(),
                        "number": f"{int(number) if number.isdigit() else number}.{clause_index}",
                        "line": i + 1,
                        "meta": None,
                        "text": [],
                        "annotations": [],
                        "examples": [],
                    }
                else:
                    finish()
                    intro.append(line)
            i += 1
            continue
        if current is not None:
            if line.startswith(">"):
                current["annotations"].append(line.lstrip(">").strip())
            else:
                current["text"].append(line)
        else:
            intro.append(line)
        i += 1
    finish()
    if not title:
        raise ClauseError(f"{path.name}: a chapter needs a '# Title' line")
    return Chapter(number, slug, title, "\n".join(intro).strip(), tuple(clauses), f"spec/chapters/{path.name}")


def _join_annotations(raw: tuple[str, ...]) -> tuple[str, ...]:
    """Blockquote lines separated by empty quote lines become paragraphs."""
    paragraphs: list[str] = []
    buf: list[str] = []
    for line in raw:
        if line:
            buf.append(line)
        elif buf:
            paragraphs.append(" ".join(buf))
            buf = []
    if buf:
        paragraphs.append(" ".join(buf))
    return tuple(paragraphs)


@dataclass(frozen=True)
class Registry:
    """All chapters and clauses, with lookups by ID."""

    chapters: tuple[Chapter, ...]
    clauses: dict[ClauseId, Clause]
    retired: dict[ClauseId, str]

    def __getitem__(self, clause_id: ClauseId) -> Clause:
        try:
            return self.clauses[clause_id]
        except KeyError:
            if clause_id in self.retired:
                raise ClauseError(f"clause {clause_id} is retired: {self.retired[clause_id]}") from None
            raise ClauseError(f"unknown clause {clause_id!r}") from None

    def __contains__(self, clause_id: object) -> bool:
        return clause_id in self.clauses

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses.values())

    def __len__(self) -> int:
        return len(self.clauses)

    def examples(self) -> Iterator[Example]:
        for clause in self.clauses.values():
            yield from clause.examples


def load_retired(path: Path = SPEC_DIR / "retired.toml") -> dict[ClauseId, str]:
    """The retired clause IDs with the reason each was retired."""
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return {str(item["id"]): str(item["reason"]) for item in data.get("retired", [])}


def load_registry(chapter_dir: Path = CHAPTER_DIR) -> Registry:
    """Load every chapter; duplicate, malformed or retired IDs raise ClauseError."""
    chapters = tuple(parse_chapter(p) for p in sorted(chapter_dir.glob("*.md")))
    retired = load_retired()
    clauses: dict[ClauseId, Clause] = {}
    example_ids: dict[str, ClauseId] = {}
    for chapter in chapters:
        for clause in chapter.clauses:
            if not CLAUSE_ID_RE.match(clause.id):
                raise ClauseError(f"{clause.path}:{clause.line}: malformed clause ID {clause.id!r}")
            if clause.id in clauses:
                raise ClauseError(f"{clause.path}:{clause.line}: duplicate clause ID {clause.id}")
            if clause.id in retired:
                raise ClauseError(f"{clause.path}:{clause.line}: clause ID {clause.id} is retired")
            for ex in clause.examples:
                if ex.id in example_ids:
                    raise ClauseError(f"{clause.path}:{ex.line}: duplicate example id {ex.id}")
                example_ids[ex.id] = clause.id
            clauses[clause.id] = clause
    return Registry(chapters, clauses, retired)


@cache
def registry() -> Registry:
    """The registry of the installed spec (loaded once)."""
    return load_registry()


# --- links from code to clauses -------------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])
IMPLEMENTATIONS: dict[ClauseId, list[str]] = {}
"""Clause ID -> dotted names of the functions that implement it (filled by :func:`implements`)."""


def implements(*clause_ids: ClauseId) -> Callable[[_F], _F]:
    """Mark a function as the implementation of clauses; it is returned unchanged.

    The IDs are checked against the registry by the test suite (tests/test_clause_links.py),
    not at import time, so importing the reference never parses the chapters.
    """

    def mark(func: _F) -> _F:
        name = f"{func.__module__}.{func.__qualname__}"
        for clause_id in clause_ids:
            IMPLEMENTATIONS.setdefault(clause_id, []).append(name)
        return func

    return mark

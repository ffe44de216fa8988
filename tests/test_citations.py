"""Every citation a reader meets resolves: each `KEY: locator` in the spec (clause sources, the
parameters' attested values, the profiles' sources and bases, the casebook's citations) names a
key of spec/sources.toml, and each key says where to find the source without this project's
help — a public address, a path in this repository, or (the four seeds) the document's own title,
language and site. Nothing cites a file outside the repository, the research digest, or an
internal issue or lesson number."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from ginspec.spec.clauses import registry
from ginspec.spec.parameters import parameters
from ginspec.spec.profiles import profile, profiles

ROOT: Final = Path(__file__).resolve().parent.parent
SOURCES: Final[dict[str, Any]] = tomllib.loads((ROOT / "spec" / "sources.toml").read_text("utf-8"))
CITATION_RE: Final = re.compile(r"(?:^|;\s*)([A-Z][A-Z0-9-]+): ")
SEED_FIELDS: Final = ("title", "language", "site", "date")
INTERNAL: Final = re.compile(r"\bDIGEST:|\bISSUE: "
                             r"|(?i:\blessons? L?\d+|\b(?:issue|session)s? #?\d+\b|\bthis session\b)"
                             r"|\(#\d+\b")
"""A reference a reader of the repository cannot follow: the research digest, this project's
issue, lesson or session numbers."""


def _citations() -> Iterator[tuple[str, str]]:
    """(where, citation) for every citation in the spec."""
    for clause in registry():
        for source in clause.sources:
            yield f"clause {clause.id}", source
    for param in parameters().values():
        for attested in param.values:
            for source in attested.sources:
                yield f"parameter {param.name}={attested.value}", source
    for name in profiles():
        prof = profile(name)
        yield f"profile {name} basis", prof.basis
        for pname, entry in prof.entries.items():
            if entry.stated:
                yield f"profile {name}.{pname}", entry.source
    for path in sorted((ROOT / "spec" / "casebook").glob("*.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        for item in data.get("sources", ()):
            for source in item.get("cite", ()):
                yield f"casebook {path.name}", source


def test_every_source_key_says_where_to_find_it() -> None:
    bad = []
    for key, entry in SOURCES.items():
        if not str(entry.get("title", "")).strip():
            bad.append(f"{key}: no title")
        if "url" in entry:
            urls = str(entry["url"]).split()
            if not urls or not all(u.startswith(("https://", "http://")) for u in urls):
                bad.append(f"{key}: url must be addresses, got {entry['url']!r}")
        elif "path" in entry:
            if not (ROOT / str(entry["path"])).exists():
                bad.append(f"{key}: {entry['path']} is not in the repository")
        elif not all(str(entry.get(f, "")).strip() for f in SEED_FIELDS):
            bad.append(f"{key}: give a url, a path, or the seed's {', '.join(SEED_FIELDS)}")
        text = " ".join(str(v) for v in entry.values())
        if re.search(r"shared/|\.\./|digest|§", text, re.IGNORECASE):
            bad.append(f"{key}: points at a file or document outside the repository")
    assert not bad, "\n".join(bad)


def test_every_citation_names_a_known_source() -> None:
    bad = []
    count = 0
    for where, text in _citations():
        keys = CITATION_RE.findall(text)
        if not keys:
            bad.append(f"{where}: {text!r} is not 'KEY: locator'")
        for key in keys:
            count += 1
            if key not in SOURCES:
                bad.append(f"{where}: {key!r} is not in spec/sources.toml")
    assert not bad, "\n".join(bad)
    assert count > 500  # the walk reached the citations (clauses, parameters, profiles, casebook)


@pytest.mark.parametrize("folder", ["spec", "reference", "docs", "conformance", "tests"])
def test_nothing_cites_the_digest_or_internal_numbers(folder: str) -> None:
    """No citation of the research digest or of this project's issues and lessons: a reader of
    the repository cannot open either."""
    bad = []
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix not in (".py", ".md", ".toml") or "suite" in path.parts or \
                path.name == "test_citations.py" or "_build" in path.parts:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if INTERNAL.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("line", ["Issue 15: the run took 9.6 s", "as issue #8 asks", "see lesson L14",
                                  "the defect class (#12's) of",
                                  "under this session's load", "DIGEST: section 3", "per lesson 7"])
def test_the_pattern_catches_internal_references(line: str) -> None:
    assert INTERNAL.search(line), line


@pytest.mark.parametrize("line", ["a session of its own", "the issue is the tie", "ISSUES.md"])
def test_the_pattern_leaves_ordinary_words(line: str) -> None:
    assert not INTERNAL.search(line), line

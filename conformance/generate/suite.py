"""Gather, check and write the committed suite (``ginspec suite build``).

The output is a pure function of the spec, the reference and the seeds: cases are written in a
fixed order with a fixed text layout, the manifest has no time stamps, so a rebuild is
byte-identical (``ginspec suite build --check`` verifies it, and so does CI).

Case IDs are never reused: an ID that disappears from a build is appended to ``retired.json``,
and a build that would bring back a retired ID fails.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.cases import Case, CaseFormatError, parse_case
from ginspec.conformance.cases.store import CONTENT_FIELD, content_digest
from ginspec.conformance.versions import (
    CASE_FORMAT,
    PROTOCOL_VERSION,
    RULES_VERSION,
    SUITE_VERSION,
)

SUITE_DIR: Final = Path(__file__).resolve().parent.parent / "suite"
MANIFEST: Final = "manifest.json"
RETIRED: Final = "retired.json"
SUITE_FORMAT: Final = "ginspec-suite/1"


class SuiteError(CaseFormatError):
    """The suite cannot be built or read (duplicate or retired IDs, a stale tree)."""


@dataclass(frozen=True)
class BuiltSuite:
    """The cases of a build, the manifest, and the files (relative path → text) to write."""

    cases: tuple[Case, ...]
    manifest: dict[str, Any]
    files: dict[str, str]


Progress = Callable[[str, int], None]
"""Told each step of a build as it ends: what was done, and how many cases it made (or checked)."""


def _quiet(step: str, n: int) -> None:
    return None


def gather(progress: Progress = _quiet) -> tuple[list[Case], list[dict[str, str]]]:
    """Every case family, in a fixed order; plus the spec examples that were not converted."""
    from ginspec.conformance.generate.casebook import casebook_cases
    from ginspec.conformance.generate.corners import corner_cases
    from ginspec.conformance.generate.engine_deals import engine_deal_cases
    from ginspec.conformance.generate.examples import example_cases
    from ginspec.conformance.generate.explored_cases import explored_cases
    from ginspec.conformance.generate.games import (
        cross_hands,
        full_hands,
        match_cases,
        negative_cases,
    )
    from ginspec.conformance.generate.queries import query_cases
    from ginspec.conformance.generate.scripted import scripted_cases
    from ginspec.conformance.generate.systems import system_cases, system_examples
    from ginspec.conformance.generate.table import table_cases

    spec_cases, unconverted = example_cases()
    progress("spec examples", len(spec_cases))
    queries = list(query_cases())
    progress("queries", len(queries))
    base = [*full_hands(), *negative_cases(), *match_cases()]
    games = [*base, *explored_cases(base), *scripted_cases(), *cross_hands()]
    progress("games", len(games))
    dealt = list(engine_deal_cases())
    progress("engine deal checks", len(dealt))
    ruled, unruled = casebook_cases()
    progress("casebook", len(ruled))
    tables = list(table_cases())
    progress("table games", len(tables))
    systems = [*system_examples(), *system_cases()]
    progress("game systems", len(systems))
    corners = corner_cases()
    progress("mutation corners", len(corners))
    cases = [*spec_cases, *queries, *games, *dealt, *ruled, *tables, *systems, *corners]
    # an example another family converted (e.g. chapter 14's by generate/systems.py) is no
    # longer unconverted
    converted = {str(c.data.get("source", {}).get("example")) for c in cases}
    notes = [{"example": u.example, "kind": u.kind, "reason": u.reason} for u in unconverted
             if u.example not in converted]
    return cases, [*notes, *unruled]


def dedupe(cases: Iterable[Case]) -> list[Case]:
    """Drop exact repeats (same ID and fingerprint); the same ID with other content is an error."""
    seen: dict[str, Case] = {}
    for case in cases:
        old = seen.get(case.id)
        if old is None:
            seen[case.id] = case
        elif old.fingerprint != case.fingerprint:
            raise SuiteError(f"case id {case.id} built twice with different content")
    return sorted(seen.values(), key=lambda c: (c.kind, c.id))


def case_path(case: Case) -> str:
    return f"cases/{case.kind}/{case.id}.json"


def coverage_counts(cases: Iterable[Case]) -> dict[str, dict[str, int]]:
    """Clause → how many cases obey it, and how many violate it or are decided by it (a clause
    that decides a case's result is also obeyed by it: the engine applied it)."""
    out: dict[str, dict[str, int]] = {}
    for case in cases:
        for clause in case.obeys:
            out.setdefault(clause, {"obeys": 0, "violates": 0})["obeys"] += 1
        for clause in case.decides:
            out.setdefault(clause, {"obeys": 0, "violates": 0})["obeys"] += 1
        for clause in (*case.violates, *case.decides):
            out.setdefault(clause, {"obeys": 0, "violates": 0})["violates"] += 1
    return dict(sorted(out.items()))


def make_manifest(cases: list[Case], notes: list[dict[str, str]], content: str = "") -> dict[str, Any]:
    """The manifest; ``content`` is the digest of the checked case files (:func:`content_digest`):
    a run that finds the same files trusts this build's checks instead of repeating them."""
    return {
        "format": SUITE_FORMAT,
        "versions": {
            "rules": RULES_VERSION,
            "suite": SUITE_VERSION,
            "protocol": PROTOCOL_VERSION,
            "case_format": CASE_FORMAT,
        },
        "counts": {
            "total": len(cases),
            "kind": dict(sorted(Counter(c.kind for c in cases).items())),
            "origin": dict(sorted(Counter(c.origin for c in cases).items())),
            "profile": dict(sorted(Counter(c.profile or "(any)" for c in cases).items())),
            "clause": coverage_counts(cases),
        },
        "unconverted_examples": notes,
        **({CONTENT_FIELD: content} if content else {}),
        "cases": {c.id: {"path": case_path(c), "fingerprint": c.fingerprint} for c in cases},
    }


def _json_text(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def read_retired(folder: Path) -> dict[str, str]:
    path = folder / RETIRED
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def read_manifest(folder: Path = SUITE_DIR) -> dict[str, Any]:
    path = folder / MANIFEST
    if not path.exists():
        raise SuiteError(f"{path}: no manifest: run 'ginspec suite build' first")
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SuiteError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    return data


def build(folder: Path = SUITE_DIR, progress: Progress = _quiet) -> BuiltSuite:
    """Build the suite in memory: check every case against the schema and the retired IDs."""
    from ginspec.conformance.generate.query_rulesets import with_query_rulesets
    from ginspec.conformance.generate.rulesets import inherit_reasons, owners, with_rulesets
    from ginspec.conformance.generate.showdown_answers import with_recorded_answers
    from ginspec.reference.proofs.suite_certificates import CERTIFICATES, certificates_text
    from ginspec.spec.profiles import profiles

    raw, notes = gather(progress)
    cases = [with_recorded_answers(c) for c in dedupe(raw)]
    owned = owners(cases, tuple(profiles()))
    cases = inherit_reasons([with_rulesets(c, owned[c.id]) if c.id in owned
                             else with_query_rulesets(c, profiles()) for c in cases])
    progress("replayed under every ruleset", len(owned))
    for case in cases:
        parse_case(json.loads(case.to_json()), case_path(case))
    progress("checked against the schema", len(cases))
    retired = read_retired(folder)
    back = sorted(c.id for c in cases if c.id in retired)
    if back:
        raise SuiteError(f"retired case IDs may not be reused: {', '.join(back[:5])}")
    old_ids: set[str] = set()
    if (folder / MANIFEST).exists():
        old_ids = set(read_manifest(folder).get("cases", {}))
    gone = sorted(old_ids - {c.id for c in cases})
    for case_id in gone:
        retired[case_id] = f"removed in suite {SUITE_VERSION}"
    files = {case_path(c): c.to_json() for c in cases}
    manifest = make_manifest(cases, notes, content_digest(files.items()))
    files[MANIFEST] = _json_text(manifest)
    files[CERTIFICATES] = certificates_text(json.loads(c.to_json()) for c in cases)  # FORMAL.CERTIFICATE
    if retired:
        files[RETIRED] = _json_text(dict(sorted(retired.items())))
    return BuiltSuite(tuple(cases), manifest, files)


def stale_files(built: BuiltSuite, folder: Path) -> list[str]:
    """Relative paths whose committed text differs from the build, or that should not exist."""
    diff = []
    for rel, text in built.files.items():
        path = folder / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            diff.append(rel)
    if (folder / "cases").exists():
        for path in (folder / "cases").rglob("*.json"):
            rel = path.relative_to(folder).as_posix()
            if rel not in built.files:
                diff.append(rel)
    return sorted(diff)


def write(built: BuiltSuite, folder: Path) -> int:
    """Write the build into ``folder``; files changed. A case file the build no longer has is
    removed only if an earlier build wrote it (its ID is in the folder's manifest): any other
    file under ``folder`` is never deleted."""
    owned: set[str] = set()
    if (folder / MANIFEST).exists():
        owned = set(read_manifest(folder).get("cases", {}))
    changed = stale_files(built, folder)
    for rel in changed:
        path = folder / rel
        if rel in built.files:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(built.files[rel], encoding="utf-8")
        elif path.stem in owned:
            path.unlink()
    return len(changed)


"""The committed conformance suite as the documentation site sees it: which cases exercise which
clause (used by docs/_ext/ginspec_docs.py for the clause -> cases -> clause links)."""

from __future__ import annotations

from ginspec.conformance.cases.store import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR


def case_rows() -> list[tuple[str, list[str], str]]:
    """(case ID, clause IDs, one-line summary) for every committed case, in ID order."""
    rows = []
    for case in sorted(load_cases([SUITE_DIR]), key=lambda c: c.id):  # the manifest digest: no re-check
        cited = case.data.get("clauses") or []
        ids = [str(c) for c in cited] if isinstance(cited, list) else []
        profile = case.data.get("profile") or "-"
        rows.append((case.id, ids, f"{case.kind}, profile {profile}"))
    return rows


def case_clauses() -> list[tuple[str, list[str]]]:
    """(case ID, clause IDs) for every committed case."""
    return [(case_id, clauses) for case_id, clauses, _ in case_rows()]

"""The committed conformance suite as the documentation site sees it: which cases exercise which
clause (used by docs/_ext/ginspec_docs.py for the clause -> cases -> clause links)."""

from __future__ import annotations

from ginspec.conformance.cases.store import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR


def case_rows() -> list[tuple[str, list[str], str]]:
    """(case ID, clause IDs, one-line summary) for every committed case, in ID order."""
    rows = []
    for case in sorted(load_cases([SUITE_DIR]), key=lambda c: c.id):  # the manifest digest: no re-check
        # the typed fields: ``case.data`` would parse every rulesets entry of every case
        rows.append((case.id, [str(c) for c in case.clauses],
                     f"{case.kind}, profile {case.profile or '-'}"))
    return rows


def case_clauses() -> list[tuple[str, list[str]]]:
    """(case ID, clause IDs) for every committed case."""
    return [(case_id, clauses) for case_id, clauses, _ in case_rows()]

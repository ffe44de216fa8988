"""The header every report carries: the three versions, the adapter, the selection."""

from __future__ import annotations

from typing import Any

from ginspec.conformance.runner import RunSummary
from ginspec.conformance.versions import (
    CASE_FORMAT,
    PROTOCOL_VERSION,
    RULES_VERSION,
    SUITE_VERSION,
)


def header(summary: RunSummary, adapter_spec: str, selection: dict[str, Any]) -> dict[str, Any]:
    from ginspec.conformance.versions import package_version

    return {
        "type": "header",
        "versions": {
            "rules": RULES_VERSION,
            "suite": SUITE_VERSION,
            "protocol": PROTOCOL_VERSION,
            "case_format": CASE_FORMAT,
            "ginspec": package_version(),
        },
        "adapter": {"spec": adapter_spec, **summary.hello.to_json()},
        "selection": selection,
    }


def per_clause(summary: RunSummary) -> dict[str, dict[str, int]]:
    """Clause → status → number of cases citing it."""
    out: dict[str, dict[str, int]] = {}
    for o in summary.outcomes:
        for clause in o.case.clauses:
            row = out.setdefault(clause, {})
            row[o.status] = row.get(o.status, 0) + 1
    return dict(sorted(out.items()))

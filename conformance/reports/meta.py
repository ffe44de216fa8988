"""The header every report carries: the three versions, the adapter, the selection."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from ginspec.conformance.runner import RunSummary
from ginspec.conformance.versions import (
    CASE_FORMAT,
    PROTOCOL_VERSION,
    RULES_VERSION,
    SUITE_VERSION,
    package_version,
)


def header(summary: RunSummary, adapter_spec: str, selection: dict[str, Any]) -> dict[str, Any]:

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


BLAMED: Final = frozenset({"fail", "xfail"})
"""Statuses counted under the one clause the runner blamed (the case's ``culprit``)."""


def clause_counts(rows: Iterable[tuple[str, Sequence[str], str | None]]
                  ) -> dict[str, dict[str, int]]:
    """Clause → status → number of cases, from (status, clauses cited, culprit) per case. A
    failure counts only under the clause blamed for it, so the table of a run lights up the rule
    that was broken, not every rule its cases also touch; any other status (and a failure with
    no culprit) counts under every clause the case cites."""
    out: dict[str, dict[str, int]] = {}
    for status, clauses, culprit in rows:
        for clause in (culprit,) if status in BLAMED and culprit else clauses:
            row = out.setdefault(clause, {})
            row[status] = row.get(status, 0) + 1
    return dict(sorted(out.items()))


def per_clause(summary: RunSummary) -> dict[str, dict[str, int]]:
    """Clause → status → number of cases (:func:`clause_counts`)."""
    return clause_counts((o.status, o.case.clauses, o.culprit) for o in summary.outcomes)

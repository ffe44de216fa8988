"""JSON-lines report: for each run a header (versions, adapter, selection), one line per case and a
footer with counts. A run of several engines writes one such block per engine, in order; saved
runs are read back by :mod:`ginspec.conformance.reports.saved` (``ginspec report``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ginspec.conformance.escape import json_line
from ginspec.conformance.reports.meta import header, per_clause
from ginspec.conformance.reports.output import emit
from ginspec.conformance.runner import RunSummary


def run_lines(summary: RunSummary, adapter_spec: str, selection: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON objects of one run: header, cases, footer."""
    lines = [header(summary, adapter_spec, selection)]
    lines.extend({"type": "case", **o.to_json()} for o in summary.outcomes)
    lines.append(
        {
            "type": "footer",
            "counts": summary.counts(),
            "exit_code": summary.exit_code,
            "seconds": round(summary.seconds, 3),
            "clauses": per_clause(summary),
        }
    )
    return lines


def write_jsonl(
    path: Path | str, summary: RunSummary, adapter_spec: str, selection: dict[str, Any]
) -> None:
    write_runs(path, [(adapter_spec, summary, selection)])


def write_runs(path: Path | str, runs: Sequence[tuple[str, RunSummary, dict[str, Any]]]) -> None:
    """Every run's block to ``path`` (``-``: standard output)."""
    text = "".join(json_line(line) + "\n"
                   for spec, summary, selection in runs
                   for line in run_lines(summary, spec, selection))
    emit(path, text)

"""JSON-lines report: for each run a header (versions, adapter, selection), one line per case and a
footer with counts. A run of several engines writes one such block per engine, in order; saved
runs are read back by :mod:`ginspec.conformance.reports.saved` (``ginspec report``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ginspec.conformance.adapters.base import Hello
from ginspec.conformance.reports.meta import header, per_clause
from ginspec.conformance.reports.output import emit
from ginspec.conformance.runner import CaseResult, RunSummary
from ginspec.reference.cli.escape import json_line


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
            **({"gave_up": summary.gave_up} if summary.gave_up else {}),
            **({"interrupted": summary.interrupted, "not_run": summary.not_run}
               if summary.interrupted else {}),
            **({"refused": summary.refused} if summary.refused else {}),
        }
    )
    return lines


class JsonlStream:
    """One run's JSON-lines block written as the run goes: the header at once, each case's line
    as soon as it finishes (flushed), so an interrupted or killed run keeps every case it
    finished. (The complete report, footer included, is written over it at the end.)"""

    def __init__(self, path: Path, hello: Hello, adapter_spec: str, selection: dict[str, Any]):
        self._out: IO[str] = path.open("w", encoding="utf-8")
        self._line(header(RunSummary(hello), adapter_spec, selection))

    def _line(self, value: dict[str, Any]) -> None:
        self._out.write(json_line(value) + "\n")
        self._out.flush()

    def add(self, outcome: CaseResult) -> None:
        self._line({"type": "case", **outcome.to_json()})

    def close(self) -> None:
        self._out.close()


def write_runs(path: Path | str, runs: Sequence[tuple[str, RunSummary, dict[str, Any]]]) -> None:
    """Every run's block to ``path`` (``-``: standard output)."""
    text = "".join(json_line(line) + "\n"
                   for spec, summary, selection in runs
                   for line in run_lines(summary, spec, selection))
    emit(path, text)

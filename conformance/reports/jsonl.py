"""JSON-lines report: a header (versions, adapter), one line per case, a footer with counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ginspec.conformance.escape import json_line
from ginspec.conformance.reports.meta import header, per_clause
from ginspec.conformance.runner import RunSummary


def write_jsonl(
    path: Path, summary: RunSummary, adapter_spec: str, selection: dict[str, Any]
) -> None:
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
    with path.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json_line(line) + "\n")

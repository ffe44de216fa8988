"""``ginspec clauses`` and ``ginspec clause ID``: the clause registry from the command line."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ginspec.spec.clauses import IMPLEMENTATIONS, Clause, registry


def register(sub: Any) -> None:
    p = sub.add_parser("clauses", help="list every clause of the spec")
    p.add_argument("--json", action="store_true", help="JSON lines, one clause a line")
    p.set_defaults(handler=run_list)
    q = sub.add_parser("clause", help="print one clause with its sources, parameters and examples")
    q.add_argument("id", help="a clause ID such as MELD.RUN.NO-WRAP")
    q.add_argument("--json", action="store_true", help="one JSON object")
    q.set_defaults(handler=run_show)


def clause_json(clause: Clause) -> dict[str, Any]:
    _load_implementations()
    return {
        "id": clause.id,
        "number": clause.number,
        "title": clause.title,
        "chapter": clause.chapter,
        "text": clause.text,
        "annotations": list(clause.annotations),
        "sources": list(clause.sources),
        "params": list(clause.params),
        "testable": clause.testable,
        "untestable_reason": clause.untestable_reason,
        "examples": [{"id": e.id, "kind": e.kind, **e.data} for e in clause.examples],
        "implemented_by": IMPLEMENTATIONS.get(clause.id, []),
        "cases": _cases_of(clause.id),
        "location": f"{clause.path}:{clause.line}",
    }


def _cases_of(clause_id: str) -> list[str]:
    """The IDs of the committed conformance cases that exercise ``clause_id``."""
    from ginspec.conformance.docs_index import case_clauses

    return [case_id for case_id, clauses in case_clauses() if clause_id in clauses]


def _load_implementations() -> None:
    """Import the reference so that every ``@implements`` has registered itself."""
    from ginspec.reference import implemented_modules

    implemented_modules()


def run_list(args: argparse.Namespace) -> int:
    reg = registry()
    if not args.json:
        from ginspec.reference.cli.console import print_table

        print_table(("clause", "§", "title"), ((c.id, c.number, c.title) for c in reg))
        return 0
    for clause in reg:
        print(json.dumps(clause_json(clause)))
    return 0


def run_show(args: argparse.Namespace) -> int:
    clause = registry()[args.id]
    if args.json:
        print(json.dumps(clause_json(clause)))
        return 0
    data = clause_json(clause)
    print(f"{clause.id} — §{clause.number} {clause.title}   ({data['location']})")
    print()
    print(clause.text)
    for note in clause.annotations:
        print()
        print(f"  Note: {note}")
    print()
    print("Sources:")
    for source in clause.sources:
        print(f"  - {source}")
    print(f"Parameters: {', '.join(clause.params) or '(none)'}")
    print(f"Implemented by: {', '.join(data['implemented_by']) or '(no code: see the text)'}")
    if not clause.testable:
        print(f"Not testable: {clause.untestable_reason}")
    if clause.examples:
        print(f"Examples: {', '.join(e.id for e in clause.examples)}")
    cases = data["cases"]
    more = f" ... and {len(cases) - 8} more (ginspec suite list)" if len(cases) > 8 else ""
    print(f"Conformance cases ({len(cases)}): {', '.join(cases[:8]) or '(none)'}{more}")
    return 0

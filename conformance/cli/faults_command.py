"""``ginspec faults``: the suite through every fauxmplementation, one table row per fault
(``ginspec.conformance.faults``; the table is in docs/reliability.md)."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path
from typing import Any

from ginspec.conformance.cases import load_cases
from ginspec.conformance.cases.model import CaseFormatError
from ginspec.conformance.cli.conform_command import count_arg, seconds_arg
from ginspec.conformance.faults import FAULT_NAMES, FAULTS, Row, run_harness, table
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.spec.inputs import check_writable


def register(sub: Any) -> None:
    p = sub.add_parser(
        "faults",
        help="run the suite through fault-injecting adapters and print the reliability table",
        description="Run 'ginspec conform' against each fauxmplementation (a fault-injecting "
        "wrapper of the reference) and print one row per fault. Exit 0 when every row is right.",
    )
    p.add_argument("--fault", action="append", default=[], choices=FAULT_NAMES, metavar="NAME",
                   help=f"only this fault (repeatable): {', '.join(FAULT_NAMES)}")
    p.add_argument("--cases", metavar="GLOB", help="only case IDs matching GLOB")
    p.add_argument("--timeout", type=seconds_arg, default=2.0, metavar="S",
                   help="--timeout of each run (default 2 s)")
    p.add_argument("--startup-timeout", type=seconds_arg, default=10.0, metavar="S",
                   help="--startup-timeout of each run (default 10 s)")
    p.add_argument("--max-restarts", type=count_arg, default=3, metavar="N",
                   help="--max-restarts of each run (default 3)")
    p.add_argument("--limit", type=seconds_arg, default=900.0, metavar="S",
                   help="a run still going after S seconds is killed and counts as a hang")
    p.add_argument("--markdown", type=Path, metavar="FILE", help="also write the table here")
    p.set_defaults(handler=run_faults)


def run_faults(args: argparse.Namespace) -> int:
    if args.markdown is not None and not args.markdown.parent.is_dir():
        raise CaseFormatError(f"--markdown: {args.markdown.parent}: no such folder")
    if args.markdown is not None:  # checked before the runs, not after them: name length too
        check_writable(args.markdown, CaseFormatError, "--markdown")
    cases = load_cases([SUITE_DIR])
    if args.cases:
        cases = [c for c in cases if fnmatch.fnmatchcase(c.id, args.cases)]
        if not cases:
            raise CaseFormatError(f"--cases {args.cases!r}: no case ID matches")
    faults = [f for f in FAULTS if not args.fault or f.name in args.fault]
    suite_args = ["--cases", args.cases] if args.cases else []

    def show(row: Row) -> None:
        print(table([row]).splitlines()[-1], flush=True)

    print(table([]), end="", flush=True)
    rows = list(run_harness(faults, cases, suite_args, args.timeout, args.max_restarts,
                            args.limit, args.startup_timeout, show))
    if args.markdown is not None:
        args.markdown.write_text(table(rows), encoding="utf-8")
    bad = [r for r in rows if not (r.finished and r.statuses_right and r.orphans == 0)]
    for r in bad:
        print(f"WRONG {r.fault}: {r.note}", file=sys.stderr)
    return 1 if bad else 0

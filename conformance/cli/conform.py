"""``ginspec conform`` (run the suite against an adapter) and ``ginspec serve`` (the reference
over the JSON-lines protocol)."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path
from typing import Any

from ginspec.conformance.adapters.base import Adapter, AdapterError, AdapterFault, Hello
from ginspec.conformance.adapters.loader import open_adapter
from ginspec.conformance.cases import load_cases
from ginspec.conformance.cases.model import CaseFormatError
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import (
    Outcome,
    Runner,
    parse_shard,
    read_expect_fail,
    select,
)
from ginspec.reference.cli.args import seed_arg


def register(sub: Any) -> None:
    p = sub.add_parser(
        "conform",
        help="run the conformance suite against an implementation",
        description="Run the conformance suite against an adapter. Exit 0: every "
        "case run passed; 1: failures or unexpected passes; 2: usage or adapter errors.",
    )
    p.add_argument(
        "--adapter",
        required=True,
        metavar="SPEC",
        help="reference | openspiel | rlcard | python:MODULE:CLASS | cmd:'COMMAND ARGS'",
    )
    p.add_argument(
        "--suite",
        type=Path,
        action="append",
        metavar="PATH",
        help="case folder or file (repeatable; default: the committed suite)",
    )
    p.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="P",
        help="only cases of this profile (repeatable); profile-free cases always run",
    )
    p.add_argument("--cases", metavar="GLOB", help="only case IDs matching GLOB")
    p.add_argument(
        "--expect-fail",
        type=Path,
        metavar="FILE",
        help="cases expected to fail (JSON {id: reason} or 'ID # reason' lines)",
    )
    p.add_argument("--shard", metavar="I/N", help="run the I-th of N deterministic shards")
    p.add_argument("--json", type=Path, metavar="FILE", help="JSON-lines report")
    p.add_argument("--junit", type=Path, metavar="FILE", help="JUnit XML report")
    p.add_argument("--html", type=Path, metavar="FILE", help="self-contained HTML report")
    p.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="per-request timeout for cmd: adapters (default 10 s)",
    )
    p.add_argument(
        "--smoke",
        action="store_true",
        help="only check that the adapter speaks the protocol (tells a broken adapter "
        "from a non-conforming engine)",
    )
    p.add_argument(
        "--live",
        action="store_true",
        help="live differential mode: play seeded random hands against the reference",
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="--live: first seed")
    p.add_argument("--hands", type=int, default=20, help="--live: number of hands")
    p.add_argument("--out", type=Path, default=Path("."), help="--live: folder for the shrunk case")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("-v", "--verbose", action="store_true", help="list every clause")
    p.set_defaults(handler=run_conform)
    s = sub.add_parser(
        "serve",
        help="serve an adapter (default: the reference) over the "
        "JSON-lines protocol on stdin/stdout",
    )
    s.add_argument(
        "--adapter",
        default="reference",
        metavar="SPEC",
        help="reference (default) or python:MODULE:CLASS",
    )
    s.set_defaults(handler=run_serve)


def _hello(adapter: Adapter) -> Hello:
    try:
        return adapter.hello()
    except AdapterFault as fault:
        adapter.close()
        raise AdapterError(f"--adapter: hello failed: {fault.kind}: {fault}") from None


def run_conform(args: argparse.Namespace) -> int:
    shard = parse_shard(args.shard) if args.shard else None
    if args.timeout <= 0:
        raise CaseFormatError("--timeout: must be positive")
    from ginspec.spec.profiles import profiles

    # (--live checks its one profile itself)
    unknown_profiles = [] if args.live else [p for p in args.profile if p not in profiles()]
    if unknown_profiles:
        raise CaseFormatError(f"--profile: unknown profile {unknown_profiles[0]!r} (known: "
                              f"{', '.join(profiles())})")
    expect_fail = read_expect_fail(args.expect_fail) if args.expect_fail else {}
    adapter = open_adapter(args.adapter, timeout=args.timeout)
    hello = _hello(adapter)
    try:
        if args.smoke:
            from ginspec.conformance.smoke import smoke

            return smoke(adapter, hello, sys.stdout)
        if args.live:
            from ginspec.conformance.live import run_live

            if len(args.profile) != 1:
                raise CaseFormatError("--live: give exactly one --profile")
            return run_live(
                adapter, hello, args.profile[0], args.seed, args.hands, args.out, sys.stdout
            )
        cases = load_cases(args.suite or [SUITE_DIR])
        unknown = sorted(set(expect_fail) - {c.id for c in cases})
        if unknown:
            raise CaseFormatError(f"{args.expect_fail}: {unknown[0]}: no such case in the suite")
        if args.cases and not any(fnmatch.fnmatchcase(c.id, args.cases) for c in cases):
            raise CaseFormatError(f"--cases {args.cases!r}: no case ID matches "
                                  "(see 'ginspec suite list')")
        chosen = select(cases, profiles=args.profile, pattern=args.cases, shard=shard)
        runner = Runner(adapter, hello, expect_fail)
        summary = _run_with_progress(runner, chosen, args.no_progress)
    finally:
        adapter.close()
    selection = {
        "profiles": args.profile,
        "cases": args.cases,
        "shard": args.shard,
        "expect_fail": str(args.expect_fail) if args.expect_fail else None,
        "selected": len(chosen),
    }
    if args.json:
        from ginspec.conformance.reports.jsonl import write_jsonl

        write_jsonl(args.json, summary, args.adapter, selection)
    if args.junit:
        from ginspec.conformance.reports.junit import write_junit

        write_junit(args.junit, summary)
    if args.html:
        from ginspec.conformance.reports.html import write_html

        write_html(args.html, [(args.adapter, summary)])
    from ginspec.conformance.reports.terminal import print_summary

    print_summary(summary, sys.stdout, verbose=args.verbose)
    code: int = summary.exit_code
    return code


def _run_with_progress(runner: Runner, cases: list[Any], quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return runner.run(cases)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("conformance", total=len(cases))

        def tick(_: Outcome) -> None:
            progress.advance(task)

        return runner.run(cases, tick)


def run_serve(args: argparse.Namespace) -> int:
    from ginspec.conformance.serve import serve

    if args.adapter.startswith("cmd:"):
        raise AdapterError("serve: --adapter must be reference or python:MODULE:CLASS")
    adapter = open_adapter(args.adapter)
    return serve(adapter, sys.stdin, sys.stdout)

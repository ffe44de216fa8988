"""``ginspec suite build|list|show|coverage|derive``: the committed conformance suite."""

from __future__ import annotations

import argparse
import fnmatch
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ginspec.conformance.cases import Case, load_case, load_cases
from ginspec.conformance.cases.model import CaseFormatError
from ginspec.conformance.generate.suite import SUITE_DIR, build, read_manifest, stale_files, write
from ginspec.reference.cli.args import help_then_error


def register(sub: Any) -> None:
    p = sub.add_parser("suite", help="build, list and show the conformance suite")
    ss = p.add_subparsers(dest="suite_command", metavar="ACTION")
    b = ss.add_parser("build", help="regenerate the committed suite (byte-identical on rerun)")
    b.add_argument(
        "--out", type=Path, default=SUITE_DIR, help="suite folder (default: the package's)"
    )
    b.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the committed suite differs from a fresh build",
    )
    b.set_defaults(handler=run_build)
    li = ss.add_parser("list", help="list case IDs (with kind, origin and clauses)")
    li.add_argument("--suite", type=Path, default=SUITE_DIR, help="suite folder or case file")
    li.add_argument("--cases", metavar="GLOB", help="only IDs matching this glob")
    li.add_argument("--clause", metavar="ID", help="only cases citing this clause")
    li.add_argument("--json", action="store_true", help="JSON lines")
    li.set_defaults(handler=run_list)
    sh = ss.add_parser("show", help="print one case")
    sh.add_argument("id", help="a case ID")
    sh.add_argument("--suite", type=Path, default=SUITE_DIR)
    sh.set_defaults(handler=run_show)
    cv = ss.add_parser("coverage", help="per clause: cases that obey it and that violate it")
    cv.add_argument("--json", action="store_true")
    cv.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when a testable clause lacks an obeying or a violating case",
    )
    cv.set_defaults(handler=run_coverage)
    de = ss.add_parser(
        "derive", help="write the cases of a ruleset declared by value (a profile plus values)",
        description="Replay the committed scenarios with the reference under exactly the ruleset "
        "of --rules FILE (TOML: profile = \"...\" and a [set] table) and write them as ordinary "
        "case files (run them with 'ginspec conform --suite DIR').")
    de.add_argument("--rules", type=Path, required=True, metavar="FILE", help="the rules file")
    de.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write")
    de.add_argument("--suite", type=Path, default=SUITE_DIR, help="the scenarios (default: "
                    "the committed suite)")
    de.set_defaults(handler=run_derive)
    p.set_defaults(handler=lambda args: help_then_error(p, "an action is needed (listed above)"))


def run_build(args: argparse.Namespace) -> int:
    if not args.check:  # refuse an unwritable --out before the (long) build
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CaseFormatError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    built = build(args.out, _progress_line())
    if args.check:
        diff = stale_files(built, args.out)
        for rel in diff[:20]:
            print(f"differs: {rel}")
        if diff:
            print(f"{len(diff)} file(s) differ from a fresh build: run 'ginspec suite build'")
            return 1
        print(f"suite up to date: {len(built.cases)} cases")
        return 0
    try:
        changed = write(built, args.out)
    except OSError as exc:
        raise CaseFormatError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    print(f"{len(built.cases)} cases, {changed} file(s) written to {args.out}")
    return 0


def _progress_line() -> Callable[[str, int], None]:
    """Each build step on stderr as it ends ("suite build: games: 51 cases, 4.2 s"), so a long
    build (and --check) is never silent."""
    import sys
    import time

    start = time.perf_counter()

    def tell(step: str, n: int) -> None:
        print(f"suite build: {step}: {n} cases, {time.perf_counter() - start:.1f} s", file=sys.stderr,
              flush=True)

    return tell


def _selected(args: argparse.Namespace) -> list[Case]:
    if args.clause:
        from ginspec.spec.clauses import registry

        registry()[args.clause]  # an unknown clause ID is an error, not an empty list
    cases = load_cases([args.suite])
    if args.cases:
        cases = [c for c in cases if fnmatch.fnmatchcase(c.id, args.cases)]
    if args.clause:
        cases = [c for c in cases if args.clause in c.clauses]
    return cases


def run_list(args: argparse.Namespace) -> int:
    cases = _selected(args)
    if not args.json:
        from ginspec.reference.cli.console import print_table

        print_table(("case", "kind", "profile", "clauses"),
                    ((c.id, c.kind, c.profile or "-", " ".join(c.clauses)) for c in cases))
        return 0
    for case in cases:
        if args.json:
            print(
                json.dumps(
                    {
                        "id": case.id,
                        "kind": case.kind,
                        "origin": case.origin,
                        "profile": case.profile,
                        "clauses": list(case.clauses),
                        "fingerprint": case.fingerprint,
                    }
                )
            )
    return 0


def run_show(args: argparse.Namespace) -> int:
    folder: Path = args.suite
    manifest = read_manifest(folder)
    entry = manifest.get("cases", {}).get(args.id)
    if entry is None:
        raise CaseFormatError(f"no case with id {args.id!r} in {folder}")
    case = load_case(folder / entry["path"])
    print(case.to_json(), end="")
    return 0


def coverage_rows() -> list[dict[str, Any]]:
    """Every clause of the spec with its obeying / violating case counts and testability."""
    from ginspec.spec.clauses import registry

    counts = read_manifest(SUITE_DIR)["counts"]["clause"]
    rows = []
    for clause in registry():
        c = counts.get(clause.id, {"obeys": 0, "violates": 0})
        rows.append(
            {
                "clause": clause.id,
                "testable": clause.testable,
                "untestable_reason": clause.untestable_reason,
                "obeys": c["obeys"],
                "violates": c["violates"],
            }
        )
    return rows


def run_coverage(args: argparse.Namespace) -> int:
    rows = coverage_rows()
    gaps = [r for r in rows if r["testable"] and (r["obeys"] == 0 or r["violates"] == 0)]
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 1 if args.strict and gaps else 0
    from ginspec.reference.cli.console import print_table

    print_table(("clause", "obeys", "violates", "status"),
                ((r["clause"], r["obeys"], r["violates"], _coverage_status(r)) for r in rows),
                right=("obeys", "violates"))
    print(f"{len(rows)} clauses, {len(gaps)} testable clause(s) without both kinds of case")
    return 1 if args.strict and gaps else 0


def _coverage_status(r: dict[str, Any]) -> str:
    if not r["testable"]:
        return f"untestable: {r['untestable_reason']}"
    if r["obeys"] and r["violates"]:
        return "covered"
    return "MISSING " + " and ".join(k for k in ("obeys", "violates") if r[k] == 0)


def run_derive(args: argparse.Namespace) -> int:
    from ginspec.conformance.adapters.rules_file import load_rules
    from ginspec.conformance.generate.derive import derive

    rules = load_rules(args.rules)
    try:  # refuse an unwritable --out before the replay
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CaseFormatError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    cases = derive(load_cases([args.suite]), rules.name, dict(rules.overrides))
    try:
        for case in cases:
            path = args.out / case.kind / f"{case.id}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(case.to_json(), encoding="utf-8")
    except OSError as exc:
        raise CaseFormatError(f"--out {args.out}: cannot write: {exc.strerror}") from None
    print(f"{len(cases)} cases derived for {rules.name}"
          + "".join(f" {k}={v}" for k, v in sorted(rules.overrides.items()))
          + f", written to {args.out}")
    return 0

"""``ginspec report``: saved runs (``ginspec conform --json FILE``) read back — summary, diff, merge,
markdown, badge and expect-fail."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ginspec.conformance.reports.output import check_outputs, emit
from ginspec.conformance.reports.saved import (
    BAD,
    CATEGORIES,
    SavedRun,
    SavedRunError,
    badge_svg,
    clause_changes,
    detail,
    diff_runs,
    jsonl_text,
    markdown,
    merge_runs,
    read_all,
    read_runs,
    updated_expect_fail,
)
from ginspec.conformance.runner import STATUSES
from ginspec.reference.cli.args import help_then_error
from ginspec.reference.cli.console import make_console, styled, table
from ginspec.spec.inputs import read_text, shown_path


def register(sub: Any) -> None:
    p = sub.add_parser("report", help="read saved runs (conform --json): summary, diff, merge, "
                       "markdown, badge, expect-fail")
    ss = p.add_subparsers(dest="report_command", metavar="ACTION", parser_class=type(p))
    sm = ss.add_parser("summary", help="counts, clauses with failures and failing cases of runs")
    sm.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="saved JSON-lines run")
    sm.add_argument("--json", action="store_true", help="one JSON object per run")
    sm.set_defaults(handler=run_summary)
    df = ss.add_parser("diff", help="what changed between two runs: new failures, fixed cases, "
                       "changed skips, per clause (exit 1 when a case newly fails)")
    df.add_argument("old", type=Path, help="the earlier saved run")
    df.add_argument("new", type=Path, help="the later saved run")
    df.add_argument("--json", action="store_true", help="one JSON object")
    df.set_defaults(handler=run_diff)
    mg = ss.add_parser("merge", help="combine shard runs (--shard I/N) into one run per engine")
    mg.add_argument("runs", nargs="+", type=Path, metavar="RUN")
    mg.add_argument("-o", "--out", type=Path, required=True, metavar="FILE", help="merged run (- : stdout)")
    mg.set_defaults(handler=run_merge)
    md = ss.add_parser("markdown", help="a Markdown summary for CI pages (GitHub job summaries)")
    md.add_argument("runs", nargs="+", type=Path, metavar="RUN")
    md.add_argument("--title", default="ginspec conformance")
    md.add_argument("-o", "--out", type=Path, default=Path("-"), metavar="FILE",
                    help="where to write it (default: stdout)")
    md.set_defaults(handler=run_markdown)
    bd = ss.add_parser("badge", help="an SVG badge of a run (passes of cases played)")
    bd.add_argument("run", type=Path, metavar="RUN")
    bd.add_argument("--label", default="ginspec")
    bd.add_argument("-o", "--out", type=Path, default=Path("-"), metavar="FILE",
                    help="where to write it (default: stdout)")
    bd.set_defaults(handler=run_badge)
    xf = ss.add_parser("expect-fail", help="write or update an expected-failure list from runs "
                       "(existing reasons kept, passing entries dropped)")
    xf.add_argument("runs", nargs="+", type=Path, metavar="RUN")
    xf.add_argument("--update", type=Path, required=True, metavar="FILE",
                    help="the list to write (updated in place when it exists; .json: {id: reason})")
    xf.set_defaults(handler=run_expect_fail)
    p.set_defaults(handler=lambda args: help_then_error(p, "an action is needed (listed above)"))


def _counts_row(run: SavedRun) -> list[Any]:
    c = run.counts()
    return [run.engine, run.spec, *(styled(str(c[s]), s) if c[s] else "0" for s in STATUSES),
            str(run.exit_code)]


def run_summary(args: argparse.Namespace) -> int:
    runs = read_all(args.runs)
    if args.json:
        for run in runs:
            stops = {**({"interrupted": run.interrupted, "not_run": run.not_run} if run.interrupted
                        else {}), **({"refused": run.refused} if run.refused else {})}
            print(json.dumps({"source": run.source, "engine": run.engine, "adapter": run.spec,
                              "counts": run.counts(), "exit_code": run.exit_code, **stops,
                              "failing": [i for i, c in run.cases.items() if c["status"] in BAD]}))
        return max(r.verdict for r in runs)
    console = make_console()
    console.print(table(("engine", "adapter", *STATUSES, "exit"), map(_counts_row, runs),
                        right=(*STATUSES, "exit")))
    for run in runs:
        if run.warning:
            console.print(styled(f"{run.engine}: {run.warning}", "error"))
    for run in runs:
        bad = [c for c in run.cases.values() if c["status"] in BAD]
        if bad:
            console.print(table(("case", "status", "clause", "what differed"),
                                ((c["id"], styled(c["status"], c["status"]), c.get("culprit", "-"),
                                  detail(c)) for c in bad),
                                title=f"{run.engine}: {len(bad)} failing"))
    return max(r.verdict for r in runs)


def _pairs(old: list[SavedRun], new: list[SavedRun]) -> list[tuple[SavedRun, SavedRun]]:
    if len(old) == 1 and len(new) == 1:
        return [(old[0], new[0])]
    by_spec = {r.spec: r for r in new}
    pairs = [(r, by_spec[r.spec]) for r in old if r.spec in by_spec]
    if not pairs:
        raise SavedRunError("diff: the two files share no adapter (runs are paired by --adapter)")
    return pairs


def run_diff(args: argparse.Namespace) -> int:
    pairs = _pairs(read_runs(args.old), read_runs(args.new))
    worse = False
    report = []
    for old, new in pairs:
        changes = diff_runs(old, new)
        worse = worse or any(c.category == "new failure" for c in changes)
        report.append((old, new, changes))
    if args.json:
        print(json.dumps({"runs": [
            {"old": {"source": o.source, "engine": o.engine}, "new": {"source": n.source, "engine": n.engine},
             "changes": [{"id": c.id, "category": c.category, "old": c.old, "new": c.new,
                          "clauses": list(c.clauses), "detail": c.detail} for c in changes],
             "clauses": clause_changes(changes)} for o, n, changes in report]}))
        return 1 if worse else 0
    console = make_console()
    for old, new, changes in report:
        console.print(f"{old.source} ({old.engine}) -> {new.source} ({new.engine}): "
                      f"{len(changes)} case(s) changed")
        if not changes:
            continue
        order = {c: i for i, c in enumerate(CATEGORIES)}
        rows = sorted(changes, key=lambda c: (order[c.category], c.id))
        console.print(table(("change", "case", "old", "new", "what differed"),
                            ((styled(c.category, "fail" if c.category == "new failure" else
                                     "pass" if c.category == "fixed" else ""),
                              c.id, c.old or "-", c.new or "-", c.detail) for c in rows)))
        per = clause_changes(changes)
        seen = [k for k in CATEGORIES if any(k in row for row in per.values())]
        console.print(table(("clause", *seen),
                            ((cl, *(str(row.get(k, "")) for k in seen)) for cl, row in per.items()),
                            title="per clause", right=seen))
        counts = {k: sum(c.category == k for c in changes) for k in CATEGORIES}
        console.print(", ".join(f"{n} {k}" for k, n in counts.items() if n))
    return 1 if worse else 0


def run_merge(args: argparse.Namespace) -> int:
    check_outputs([("--out", args.out)])
    merged = merge_runs(read_all(args.runs))
    emit(args.out, jsonl_text(merged))
    if str(args.out) != "-":
        for run in merged:
            c = run.counts()
            print(f"{run.engine}: {len(run.cases)} cases from {len(run.header['selection']['merged'])} "
                  f"file(s) -> {args.out}: " + ", ".join(f"{n} {k}" for k, n in c.items() if n))
    return max(r.verdict for r in merged)


def run_markdown(args: argparse.Namespace) -> int:
    check_outputs([("--out", args.out)])
    emit(args.out, markdown(read_all(args.runs), title=args.title))
    return 0


def run_badge(args: argparse.Namespace) -> int:
    check_outputs([("--out", args.out)])
    runs = read_runs(args.run)
    if len(runs) != 1:
        raise SavedRunError(f"{args.run}: {len(runs)} runs in it; a badge shows one")
    emit(args.out, badge_svg(runs[0], args.label))
    return 0


def run_expect_fail(args: argparse.Namespace) -> int:
    check_outputs([("--update", args.update)])
    runs = read_all(args.runs)
    source = f"--update {shown_path(args.update)}"
    old = read_text(args.update, SavedRunError) if args.update.exists() else None
    text, stats = updated_expect_fail(runs, old, as_json=args.update.suffix == ".json", source=source)
    emit(args.update, text)
    print(f"{args.update}: {stats['kept']} kept, {stats['added']} added, "
          f"{stats['dropped']} dropped (passed)", file=sys.stderr)
    return 0

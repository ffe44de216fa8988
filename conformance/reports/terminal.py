"""The terminal summary: counts, a per-clause table, and each failure with its clause."""

from __future__ import annotations

from typing import TextIO

from ginspec.conformance.escape import markup
from ginspec.conformance.reports.meta import per_clause
from ginspec.conformance.runner import RunSummary


def print_summary(
    summary: RunSummary, out: TextIO, *, verbose: bool = False, max_failures: int = 20
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, highlight=False, soft_wrap=True)
    hello = summary.hello
    console.print(
        f"adapter: {markup(hello.name)} {markup(hello.version)} (protocol {hello.protocol}, "
        f"{markup(hello.language)})"
    )
    rows = per_clause(summary)
    table = Table(title="per clause", show_edge=False)
    for col in ("clause", "pass", "fail", "error", "skip", "declined", "xfail", "xpass"):
        table.add_column(col, justify="left" if col == "clause" else "right")
    for clause, row in rows.items():
        if verbose or any(row.get(s) for s in ("fail", "error", "xpass")):
            table.add_row(
                markup(clause),
                *(
                    str(row.get(s, 0) or "")
                    for s in ("pass", "fail", "error", "skip", "declined", "xfail", "xpass")
                ),
            )
    if table.row_count:
        console.print(table)
    bad = [o for o in summary.outcomes if o.status in ("fail", "error", "xpass")]
    for o in bad[:max_failures]:
        detail = str(o.mismatch) if o.mismatch else o.message.splitlines()[0] if o.message else ""
        where = f" at {o.where}" + (f" {o.step}" if o.step is not None else "") if o.where else ""
        console.print(f"{o.status.upper():5} {markup(o.case.id)}{where} "
                      f"\\[{markup(o.culprit or '-')}]: {markup(detail)}")
    if len(bad) > max_failures:
        console.print(f"... and {len(bad) - max_failures} more (see --json/--html)")
    skips: dict[str, int] = {}
    for o in summary.outcomes:
        if o.status == "skip":
            skips[o.message] = skips.get(o.message, 0) + 1
    for reason, n in sorted(skips.items()):
        console.print(f"skipped {n}: {markup(reason)}")
    declined = [o for o in summary.outcomes if o.status == "declined"]
    for o in declined[:max_failures]:
        console.print(f"DECLINED {markup(o.case.id)}: {markup(o.message)}")
    if len(declined) > max_failures:
        console.print(f"... and {len(declined) - max_failures} more declined (see --json)")
    c = summary.counts()
    console.print(
        f"{len(summary.outcomes)} cases in {summary.seconds:.2f} s: {c['pass']} passed, "
        f"{c['fail']} failed, {c['error']} adapter errors, {c['skip']} skipped (not passes), "
        f"{c['declined']} declined by the adapter (not passes), "
        f"{c['xfail']} expected failures, {c['xpass']} unexpected passes"
    )

"""The terminal report: counts, a per-clause table (one column per engine when several ran), and
each failure explained (:mod:`ginspec.conformance.reports.explain`): the cards, expected beside
actual, the clause text and the command that reruns the case. Tables are ``rich`` tables that are
never cut (see :mod:`ginspec.reference.cli.console`); colour only on a terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ginspec.conformance.cases.model import DERIVED_PREFIX
from ginspec.conformance.reports.explain import BAD, Failure, Rerun, explain, markdown_text, melds_text
from ginspec.conformance.reports.meta import per_clause
from ginspec.conformance.runner import STATUSES, RunSummary
from ginspec.reference.cli.console import make_console, styled, table
from ginspec.reference.cli.escape import printable

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
DETAILED = 10
"""Failures explained in full; the next ones get their headline and rerun command."""


def card_text(token: str) -> Any:
    """One card as rank and suit symbol (``10♥``); hearts and diamonds red on a colour terminal."""
    from rich.text import Text

    if len(token) != 2 or token[1] not in SUITS:
        return Text(printable(token))
    rank = "10" if token[0] == "T" else token[0]
    return Text(rank + SUITS[token[1]], style="red" if token[1] in "DH" else "")


def cards_text(tokens: Sequence[str]) -> Any:
    from rich.text import Text

    return Text(" ").join(card_text(t) for t in tokens)


def _melds_text(melds: list[list[str]] | None) -> Any:
    from rich.text import Text

    if melds is None:
        return Text("(none given)")
    return Text(" / ").join(cards_text(m) for m in melds) if melds else Text("(no melds)")


def print_failure(console: Any, f: Failure, *, full: bool = True) -> None:
    """One failure: everything of :class:`Failure` on a terminal."""
    from rich.markdown import Markdown
    from rich.padding import Padding
    from rich.text import Text

    console.print(styled(f.headline, f.outcome.status))
    if not full:
        console.print(f"  rerun: {f.rerun}")
        return
    console.print(f"  {f.outcome.case.description}")
    for label, tokens in f.cards:
        console.print(Text(printable(f"  {label}: ")).append_text(cards_text(tokens)))
    def indented(renderable: Any, by: int = 2) -> None:
        console.print(Padding(renderable, (0, 0, 0, by), expand=False))

    if f.steps:
        indented(table(("#", "player", "action", "expected"),
                       ((styled(str(s.index), "fail" if s.diverged else ""), s.player, s.action,
                         s.expected) for s in f.steps), right=("#",)))
    if f.field:
        note = f" ({f.note})" if f.note else ""
        indented(table(("field", "expected", "actual"),
                       [(f.field, repr(f.expected), repr(f.actual) + note)]))
    if f.arrangements:
        indented(table([label for label, _ in f.arrangements],
                       [[_melds_text(m) for _, m in f.arrangements]]))
    if f.message and not f.field:
        for line in f.message.splitlines():
            console.print(Text(printable(f"  {line}")))
    if f.clause:
        console.print(f"  {f.clause.id} — §{f.clause.number} {f.clause.title}")
        if console.is_terminal:
            indented(Markdown(f.clause.text), 4)
        else:
            for line in markdown_text(f.clause.text).splitlines():
                console.print(Text(f"    {line}".rstrip()))
    if f.also_suspect:
        console.print(f"  also suspect: {', '.join(f.also_suspect)}")
    console.print(f"  rerun: {f.rerun}")


def _counts_line(summary: RunSummary) -> str:
    c = summary.counts()
    return (f"{len(summary.outcomes)} cases in {summary.seconds:.2f} s: {c['pass']} passed, "
            f"{c['fail']} failed, {c['error']} adapter errors, {c['skip']} skipped (not passes), "
            f"{c['declined']} declined by the adapter (not passes), "
            f"{c['xfail']} expected failures, {c['xpass']} unexpected passes"
            + _derived_note(summary))


def _derived_note(summary: RunSummary) -> str:
    """How many of the cases were derived for rules declared by value (CASES.md)."""
    derived = [o for o in summary.outcomes if o.case.id.startswith(DERIVED_PREFIX)]
    if not derived:
        return ""
    passed = sum(o.status == "pass" for o in derived)
    return (f"; {len(derived)} of the cases derived for the declared rules "
            f"({DERIVED_PREFIX}*, {passed} passed)")


def print_summary(
    summary: RunSummary, out: TextIO, *, verbose: bool = False, max_failures: int = 50,
    rerun: Rerun | None = None, reasons: Mapping[str, str] | None = None,
    not_run: int = 0, max_fail: int | None = None,
) -> None:
    """The report of one run. ``reasons``: the expect-fail list (``-v`` lists the expected
    failures with them); ``not_run``: cases left when ``--max-fail`` stopped the run."""
    plain = _plain_summary(summary, verbose=verbose, not_run=not_run)
    if plain is not None:  # nothing to lay out or colour: the lines as rich would print them
        out.write("".join(f"{line}\n" for line in plain))
        out.flush()
        return
    console = make_console(out)
    console.print(_adapter_line(summary))
    rows = per_clause(summary)
    shown = [(clause, row) for clause, row in rows.items()
             if verbose or any(row.get(s) for s in BAD)]
    if shown:
        console.print(table(("clause", *STATUSES),
                            ((clause, *(_count(row, s) for s in STATUSES)) for clause, row in shown),
                            title="per clause", right=STATUSES))
    _print_failures(console, summary, rerun or Rerun("..."), max_failures)
    skips: dict[str, int] = {}
    for o in summary.outcomes:
        if o.status == "skip":
            skips[o.message] = skips.get(o.message, 0) + 1
    for reason, n in sorted(skips.items()):
        console.print(f"skipped {n}: {reason}")
    declined = [o for o in summary.outcomes if o.status == "declined"]
    for o in declined if verbose else declined[:20]:
        console.print(styled(f"DECLINED {o.case.id}: {o.message}", "declined"))
    if not verbose and len(declined) > 20:
        console.print(f"... and {len(declined) - 20} more declined (-v lists them)")
    xfails = [o for o in summary.outcomes if o.status == "xfail"]
    if verbose and xfails:
        console.print(table(("expected failure", "reason (--expect-fail)", "what differed"),
                            ((o.case.id, (reasons or {}).get(o.case.id, ""), _detail(o))
                             for o in xfails), title=f"expected failures ({len(xfails)})"))
    elif xfails:
        console.print(f"{len(xfails)} expected failures (-v lists them with their reasons)")
    if not_run:
        console.print(styled(f"stopped after {max_fail} failure(s) (--max-fail): {not_run} "
                             "case(s) not run", "fail"))
    if summary.gave_up:
        console.print(styled(f"STOPPED: {summary.gave_up}", "error"))
    if summary.interrupted:
        console.print(styled(f"{summary.warning} (the reports hold them)", "error"))
    console.print(_counts_line(summary))


def _adapter_line(summary: RunSummary) -> str:
    hello = summary.hello
    return f"adapter: {hello.name} {hello.version} (protocol {hello.protocol}, {hello.language})"


def _plain_summary(summary: RunSummary, *, verbose: bool, not_run: int) -> list[str] | None:
    """The report's lines when it has no table, no failure, no coloured line and only plain
    printable ASCII text (what rich prints unchanged, without trailing blanks); else None, and
    rich prints it (a passing run need not load rich)."""
    statuses = {o.status for o in summary.outcomes}
    if verbose or not_run or summary.gave_up or summary.interrupted or \
            statuses & {*BAD, "declined"}:
        return None
    skips: dict[str, int] = {}
    for o in summary.outcomes:
        if o.status == "skip":
            skips[o.message] = skips.get(o.message, 0) + 1
    lines = [_adapter_line(summary), *(f"skipped {n}: {reason}" for reason, n in sorted(skips.items()))]
    xfails = sum(1 for o in summary.outcomes if o.status == "xfail")
    if xfails:
        lines.append(f"{xfails} expected failures (-v lists them with their reasons)")
    lines.append(_counts_line(summary))
    shown = [printable(line) for line in lines]
    if not all(line.isascii() and line.isprintable() and not line.endswith(" ") for line in shown):
        return None
    return shown


def _count(row: Mapping[str, int], status: str) -> Any:
    n = row.get(status, 0)
    return styled(str(n), status) if n else ""


def _detail(o: Any) -> str:
    if o.mismatch is not None:
        return str(o.mismatch)
    return o.message.splitlines()[0] if o.message else ""


def _print_failures(console: Any, summary: RunSummary, rerun: Rerun, limit: int) -> None:
    bad = [o for o in summary.outcomes if o.status in BAD]
    first_error = next((o for o in bad if o.status == "error"), None)
    for n, o in enumerate(bad[:limit]):
        f = explain(o, rerun)
        if o.status == "error" and o is not first_error:
            f = Failure(**{**f.__dict__, "message": o.message.splitlines()[0] if o.message else ""})
        print_failure(console, f, full=n < DETAILED or o is first_error)
    if len(bad) > limit:
        console.print(f"... and {len(bad) - limit} more (see --json/--html)")


def print_side_by_side(runs: Sequence[tuple[str, RunSummary]], out: TextIO, *,
                       verbose: bool = False) -> None:
    """Several engines' runs as one per-clause table, one column per engine, and one totals row
    each (the failures of each run are printed by :func:`print_summary` before this)."""
    console = make_console(out)
    tables = [per_clause(s) for _, s in runs]
    clauses = sorted({c for t in tables for c in t})
    heads = engine_names(runs)
    rows = []
    for clause in clauses:
        cells = [_cell(t.get(clause, {})) for t in tables]
        if verbose or any(t.get(clause, {}).get(s) for t in tables for s in BAD) or \
                len({str(c) for c in cells}) > 1:
            rows.append((clause, *cells))
    if rows:
        console.print(table(("clause", *heads), rows, title="per clause, side by side"))
    console.print(table(("engine", "adapter", *STATUSES, "seconds", "exit"),
                        ((h, spec, *(_count(s.counts(), st) or "0" for st in STATUSES),
                          f"{s.seconds:.2f}", str(s.exit_code))
                         for h, (spec, s) in zip(heads, runs, strict=True)),
                        title="totals", right=(*STATUSES, "seconds", "exit")))


def engine_names(runs: Sequence[tuple[str, RunSummary]]) -> list[str]:
    """Each run's engine as "name version", with the adapter spec added where two are alike."""
    names = [f"{s.hello.name} {s.hello.version}" for _, s in runs]
    return [f"{n} ({spec})" if names.count(n) > 1 else n
            for n, (spec, _) in zip(names, runs, strict=True)]


def _cell(row: Mapping[str, int]) -> Any:
    from rich.text import Text

    parts = [styled(f"{row[s]} {s}", s) for s in STATUSES if row.get(s)]
    return Text(" ").join(parts) if parts else Text("-")


__all__ = ["card_text", "cards_text", "melds_text", "print_failure", "print_side_by_side",
           "print_summary"]

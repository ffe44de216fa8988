"""A self-contained HTML report: each failure first, drawn as a card (the position as playing cards,
the steps around the divergence, expected beside actual, the optimal arrangement beside the
engine's, the clause text rendered, the command that reruns the case), then the expected failures
with their reasons, then the implementation-by-clause matrix (one column per engine).

No scripts, fonts or images are fetched: the page is one file (inline CSS, cards drawn with CSS).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ginspec.conformance.reports.explain import BAD, Failure, Rerun, explain, markdown_html
from ginspec.conformance.reports.meta import per_clause
from ginspec.conformance.reports.output import emit
from ginspec.conformance.runner import STATUSES, RunSummary
from ginspec.conformance.versions import PROTOCOL_VERSION, RULES_VERSION, SUITE_VERSION
from ginspec.reference.cli.escape import html_text, json_line

SUITS = {"C": ("♣", "black"), "D": ("♦", "red"), "H": ("♥", "red"), "S": ("♠", "black")}
RANKS = "A23456789TJQK"
DIVERGED = ' class="diverge"'

CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;
font-size:13px;vertical-align:top}th{background:#f3f3f3;text-align:left}
.pass{background:#d9f2d9}.fail{background:#f7c6c6}.error{background:#f9e0a8}
.skip{background:#eee;color:#777}.declined{background:#eee;color:#555}.xfail{background:#e0e0f5}
.xpass{background:#f29999}
.card{display:inline-block;box-sizing:border-box;min-width:34px;height:44px;padding:0 4px;
border:1px solid #999;border-radius:5px;margin:1px;text-align:center;line-height:42px;
font-size:16px;font-weight:bold;background:#fff;white-space:nowrap;vertical-align:middle}
.red{color:#c00}.black{color:#111}.meld{display:inline-block;margin-right:10px;padding:1px;
border-radius:6px;background:#eef3fb}
.failure{border:2px solid #e4a0a0;border-radius:8px;padding:.5em 1em;margin:1em 0}
.failure h3{margin:.3em 0}.diverge{background:#fde2e2;font-weight:bold}
.banner{border:2px solid #c60;background:#fde9d0;font-weight:bold;padding:.5em 1em;
border-radius:6px;margin:1em 0}
.clause{background:#f8f8f8;padding:.2em .8em;font-size:14px;border-left:3px solid #bbb}
.mono,code,pre{font-family:ui-monospace,monospace}.rerun{background:#222;color:#eee;padding:.4em .6em;
border-radius:4px;white-space:pre-wrap;word-break:break-all}
.side td{min-width:280px}
"""


def card_html(token: str) -> str:
    """One card picture (rank and suit symbol; hearts and diamonds in red). The box grows with
    its text, so a 10 never spills over the next card's suit."""
    t = html_text(token)
    if len(token) != 2 or token[1] not in SUITS or token[0] not in RANKS:
        return f'<span class="mono">{t}</span>'
    symbol, colour = SUITS[token[1]]
    rank = "10" if token[0] == "T" else token[0]
    return f'<span class="card {colour}" title="{t}">{rank}{symbol}</span>'


def cards_html(tokens: Sequence[str]) -> str:
    return "".join(card_html(t) for t in tokens)


def melds_html(melds: list[list[str]] | None) -> str:
    if melds is None:
        return "<i>(none given)</i>"
    if not melds:
        return "<i>(no melds)</i>"
    return "".join(f'<span class="meld">{cards_html(m)}</span>' for m in melds)


def action_html(action: str) -> str:
    """An action with its card tokens drawn."""
    parts = []
    for word in action.split():
        parts.append(card_html(word) if len(word) == 2 and word[1] in SUITS and
                     word[0] in RANKS else html_text(word))
    return " ".join(parts)


def _value_html(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(t, str) and len(t) == 2 and
                                                 t[1:] in SUITS for t in value):
        return cards_html(value)
    return f'<span class="mono">{html_text(json_line(value))}</span>'


def failure_html(f: Failure, engine: str = "") -> str:
    o = f.outcome
    case = o.case
    e = html_text
    out = [f'<div class="failure" id="{e(case.id)}">',
           f'<h3><span class="{e(o.status)}">{e(o.status.upper())}</span> {e(case.id)}'
           f"{' — ' + e(engine) if engine else ''}</h3>",
           f"<p>{e(case.description)} — profile <b>{e(case.profile or 'any')}</b>"
           f"{' with ' + e(json_line(case.overrides)) if case.overrides else ''}</p>"]
    if o.culprit:
        out.append(f"<p>Clause that caught it: <b>{e(o.culprit)}</b>"
                   + (f"; also suspect: {e(', '.join(f.also_suspect))}" if f.also_suspect else "")
                   + (f" ({e(f.where)})" if f.where else "") + "</p>")
    if f.cards:
        out.append("<table>" + "".join(f"<tr><th>{e(label)}</th><td>{cards_html(tokens)}</td></tr>"
                                       for label, tokens in f.cards) + "</table>")
    if f.query:
        out.append(f"<p>question: <span class=mono>{e(json_line(f.query))}</span></p>")
    if f.steps:
        rows = "".join(
            f"<tr{DIVERGED if s.diverged else ''}><td>{s.index}</td><td>{e(s.player)}</td>"
            f"<td>{action_html(s.action)}</td><td>{e(s.expected)}</td></tr>" for s in f.steps)
        out.append("<table><tr><th>#</th><th>player</th><th>action</th><th>expected</th></tr>"
                   f"{rows}</table>")
    if f.field:
        out.append("<table class=side><tr><th>field</th><th>expected</th><th>actual</th></tr>"
                   f"<tr><td class=mono>{e(f.field)}</td><td>{_value_html(f.expected)}</td>"
                   f"<td>{_value_html(f.actual)}{' (' + e(f.note) + ')' if f.note else ''}</td>"
                   "</tr></table>")
    if f.arrangements:
        out.append("<table class=side><tr>" + "".join(f"<th>{e(label)}</th>" for label, _ in
                                                       f.arrangements) + "</tr><tr>"
                   + "".join(f"<td>{melds_html(m)}</td>" for _, m in f.arrangements)
                   + "</tr></table>")
    if f.message and not f.field:
        out.append(f'<pre class="clause">{e(f.message[:3000])}</pre>')
    if f.clause:
        out.append(f'<div class="clause"><p><b>{e(f.clause.id)} — §{e(f.clause.number)} '
                   f"{e(f.clause.title)}</b></p>{markdown_html(f.clause.text)}</div>")
    out.append(f'<p>Rerun just this case:</p><pre class="rerun">{e(f.rerun)}</pre>')
    out.append("</div>")
    return "\n".join(out)


def _cell(row: Mapping[str, int]) -> tuple[str, str]:
    for status in ("xpass", "fail", "error", "xfail", "pass", "declined", "skip"):
        if row.get(status):
            text = " ".join(f"{row[s]} {s}" for s in STATUSES if row.get(s))
            return status, text
    return "skip", "-"


def render(runs: Sequence[tuple[str, RunSummary]], *, reruns: Sequence[Rerun] = (),
           reasons: Sequence[Mapping[str, str]] = ()) -> str:
    """The page for one or more runs (one matrix column per implementation). ``reruns`` and
    ``reasons`` (the expect-fail lists) go with ``runs``, in order."""
    e = html_text
    several = len(runs) > 1
    clauses = sorted({c for _, s in runs for c in per_clause(s)})
    tables = [per_clause(s) for _, s in runs]
    head = "".join(f"<th>{e(s.hello.name)} {e(s.hello.version)}<br>"
                   f"<small>{e(spec)}</small></th>" for spec, s in runs)
    rows = []
    for clause in clauses:
        cells = []
        for t in tables:
            status, text = _cell(t.get(clause, {}))
            cells.append(f'<td class="{status}">{e(text)}</td>')
        rows.append(f"<tr><td class=mono>{e(clause)}</td>{''.join(cells)}</tr>")
    totals = []
    for spec, s in runs:
        c = s.counts()
        totals.append(f"<li><b>{e(s.hello.name)}</b> ({e(spec)}): "
                      + ", ".join(f"{n} {k}" for k, n in c.items() if n)
                      + f" — {s.seconds:.2f} s, exit {s.exit_code}</li>")
    banners = "".join(f'<div class="banner" role="alert">{e(s.hello.name)}: {e(s.warning)}</div>'
                      for _, s in runs if s.warning)
    failures, xfails, declined = [], [], []
    for i, (spec, s) in enumerate(runs):
        rerun = reruns[i] if i < len(reruns) else Rerun(spec)
        why = reasons[i] if i < len(reasons) else {}
        engine = f"{s.hello.name} {s.hello.version}" if several else ""
        for o in s.outcomes:
            if o.status in BAD:
                failures.append(failure_html(explain(o, rerun), engine))
            elif o.status == "xfail":
                detail = str(o.mismatch) if o.mismatch else o.message.splitlines()[0] if o.message else ""
                xfails.append(f"<tr><td class=mono>{e(o.case.id)}</td>"
                              + (f"<td>{e(s.hello.name)}</td>" if several else "")
                              + f"<td>{e(why.get(o.case.id, ''))}</td><td class=mono>{e(detail)}</td></tr>")
            elif o.status == "declined":
                declined.append(f"<li><span class=mono>{e(o.case.id)}</span> "
                                f"({e(s.hello.name)}): {e(o.message)}</li>")
    xhead = "<tr><th>case</th>" + ("<th>engine</th>" if several else "") + \
        "<th>reason (expect-fail list)</th><th>what differed</th></tr>"
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ginspec conformance report"
        f"</title><style>{CSS}</style></head><body><h1>ginspec conformance report</h1>"
        f"<p>rules {RULES_VERSION} · suite {SUITE_VERSION} · protocol {PROTOCOL_VERSION}</p>"
        f"{banners}"
        f"<ul>{''.join(totals)}</ul>"
        f"<h2>Failures ({len(failures)})</h2>{''.join(failures) or '<p>None.</p>'}"
        + (f"<h2>Expected failures ({len(xfails)})</h2><table>{xhead}{''.join(xfails)}</table>"
           if xfails else "")
        + f"<h2>Clauses by implementation</h2><table><tr><th>clause</th>{head}</tr>{''.join(rows)}</table>"
        + (f"<h2>Declined by the adapter ({len(declined)}; not passes)</h2>"
           f"<ul>{''.join(declined)}</ul>" if declined else "")
        + "</body></html>\n"
    )


def write_html(path: Path | str, runs: Sequence[tuple[str, RunSummary]], *,
               reruns: Sequence[Rerun] = (), reasons: Sequence[Mapping[str, str]] = ()) -> None:
    emit(path, render(runs, reruns=reruns, reasons=reasons))

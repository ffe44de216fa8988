"""A self-contained HTML report: the implementation-by-clause matrix, then every failure drawn with
card pictures, the step where the run diverged, expected and actual values, and the clause text.

No scripts, fonts or images are fetched: the page is one file (inline CSS, cards drawn with CSS).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ginspec.conformance.escape import html_text
from ginspec.conformance.reports.meta import per_clause
from ginspec.conformance.runner import Outcome, RunSummary
from ginspec.conformance.versions import PROTOCOL_VERSION, RULES_VERSION, SUITE_VERSION

SUITS = {"C": ("♣", "black"), "D": ("♦", "red"), "H": ("♥", "red"), "S": ("♠", "black")}

CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}
th{background:#f3f3f3;text-align:left}.pass{background:#d9f2d9}.fail{background:#f7c6c6}
.error{background:#f9e0a8}.skip{background:#eee;color:#777}.declined{background:#eee;color:#555}.xfail{background:#e0e0f5}
.xpass{background:#f29999}.card{display:inline-block;width:26px;height:36px;border:1px solid #999;
border-radius:4px;margin:1px;text-align:center;line-height:36px;font-weight:bold;background:#fff}
.red{color:#c00}.black{color:#111}.failure{border:1px solid #ddd;border-radius:6px;padding:1em;
margin:1em 0}.diverge{background:#fde2e2;font-weight:bold}.clause{background:#f8f8f8;padding:.5em;
white-space:pre-wrap;font-size:13px}.mono{font-family:monospace}
"""


def card_html(token: str) -> str:
    """One card picture (rank and suit symbol; hearts and diamonds in red)."""
    t = html_text(token)
    if len(token) != 2 or token[1] not in SUITS:
        return f'<span class="mono">{t}</span>'
    symbol, colour = SUITS[token[1]]
    rank = "10" if token[0] == "T" else token[0]
    return f'<span class="card {colour}" title="{t}">{rank}{symbol}</span>'


def cards_html(tokens: Sequence[str]) -> str:
    return "".join(card_html(t) for t in tokens)


def action_html(action: str) -> str:
    """An action with its card tokens drawn."""
    parts = []
    for word in action.split():
        parts.append(card_html(word) if len(word) == 2 and word[1] in SUITS and
                     word[0] in "A23456789TJQK" else html_text(word))
    return " ".join(parts)


def _clause_text(clause_id: str | None) -> str:
    if not clause_id:
        return ""
    from ginspec.spec.clauses import registry

    reg = registry()
    if clause_id not in reg:
        return html_text(clause_id)
    c = reg[clause_id]
    return f"<b>{html_text(c.id)} — §{html_text(c.number)} {html_text(c.title)}</b>\n" \
           f"{html_text(c.text)}"


def _deal_hands(deal: dict[str, Any]) -> tuple[list[list[str]], str]:
    """Each player's cards and the upcard: ten each to two players (DEAL.HANDS), or seven each
    from the dealer's left at a table of three or four (TABLE.DEAL)."""
    deck = list(deal["deck"])
    dealer = int(deal["dealer"])
    players = int(deal.get("players", 2))
    size = 10 if players == 2 else 7
    hands: list[list[str]] = [[] for _ in range(players)]
    for k in range(size * players):
        hands[(dealer + 1 + k) % players].append(deck[k])
    return hands, deck[size * players]


def failure_html(o: Outcome) -> str:
    case = o.case
    out = [f'<div class="failure" id="{html_text(case.id)}">',
           f"<h3>{html_text(o.status.upper())} {html_text(case.id)}</h3>",
           f"<p>{html_text(case.description)} — profile <b>{html_text(case.profile or 'any')}"
           f"</b>{' with ' + html_text(json.dumps(case.overrides)) if case.overrides else ''}</p>"]
    others = [s for s in dict.fromkeys(o.suspects) if s != o.culprit]
    if o.culprit:
        out.append(f"<p>Clause that caught it: <b>{html_text(o.culprit)}</b>"
                   + (f"; also suspect: {html_text(', '.join(others))}" if others else "")
                   + "</p>")
    if case.kind == "query":
        q = case.query
        if "cards" in q:
            out.append(f"<p>{html_text(str(q['what']))}: {cards_html(q['cards'])}</p>")
        else:
            out.append(f"<p>{html_text(json.dumps(q))}</p>")
    elif case.deals:
        hands, up = _deal_hands(case.deals[0])
        seats = "".join(f"player {p}: {cards_html(h)}<br>" for p, h in enumerate(hands))
        out.append(f"<p>{seats}upcard: {card_html(up)} (dealer {case.deals[0]['dealer']})</p>")
        steps = case.steps
        if o.step is not None and steps:
            lo = max(0, o.step - 6)
            rows = []
            for i in range(lo, min(len(steps), o.step + 2)):
                s = steps[i]
                cls = ' class="diverge"' if i == o.step and o.where == "step" else ""
                expect = s["expect"] if s["expect"] == "accepted" else \
                    f"rejected {s['expect']['rejected']}"
                rows.append(f"<tr{cls}><td>{i}</td><td>{html_text(str(s['player']))}</td>"
                            f"<td>{action_html(str(s['action']))}</td>"
                            f"<td>{html_text(expect)}</td></tr>")
            where = "step" if o.where == "step" else f"{o.where} after step"
            out.append(f"<p>Diverged at {html_text(where)} {o.step}:</p>"
                       "<table><tr><th>#</th><th>player</th><th>action</th><th>expected</th></tr>"
                       + "".join(rows) + "</table>")
    if o.mismatch is not None:
        out.append("<table><tr><th>field</th><th>expected</th><th>actual</th></tr>"
                   f"<tr><td>{html_text(o.mismatch.field)}</td>"
                   f"<td class=mono>{html_text(json.dumps(o.mismatch.expected, default=str))}</td>"
                   f"<td class=mono>{html_text(json.dumps(o.mismatch.actual, default=str))}</td>"
                   "</tr></table>")
        if o.mismatch.note:
            out.append(f"<p>{html_text(o.mismatch.note)}</p>")
    elif o.message:
        out.append(f'<pre class="clause">{html_text(o.message[:3000])}</pre>')
    text = _clause_text(o.culprit)
    if text:
        out.append(f'<div class="clause">{text}</div>')
    out.append("</div>")
    return "\n".join(out)


def _cell(row: dict[str, int]) -> tuple[str, str]:
    for status in ("xpass", "fail", "error", "xfail", "pass", "declined", "skip"):
        if row.get(status):
            text = " ".join(f"{row[s]} {s}" for s in ("pass", "fail", "error", "skip", "declined",
                                                      "xfail", "xpass") if row.get(s))
            return status, text
    return "skip", "-"


def render(runs: Sequence[tuple[str, RunSummary]]) -> str:
    """The page for one or more runs (one column per implementation)."""
    clauses = sorted({c for _, s in runs for c in per_clause(s)})
    tables = [per_clause(s) for _, s in runs]
    head = "".join(f"<th>{html_text(s.hello.name)} {html_text(s.hello.version)}<br>"
                   f"<small>{html_text(spec)}</small></th>" for spec, s in runs)
    rows = []
    for clause in clauses:
        cells = []
        for table in tables:
            status, text = _cell(table.get(clause, {}))
            cells.append(f'<td class="{status}">{html_text(text)}</td>')
        rows.append(f"<tr><td class=mono>{html_text(clause)}</td>{''.join(cells)}</tr>")
    totals = []
    for spec, s in runs:
        c = s.counts()
        totals.append(f"<li><b>{html_text(s.hello.name)}</b> ({html_text(spec)}): "
                      + ", ".join(f"{n} {k}" for k, n in c.items() if n)
                      + f" — {s.seconds:.2f} s, exit {s.exit_code}</li>")
    failures = [failure_html(o) for _, s in runs for o in s.outcomes
                if o.status in ("fail", "error", "xpass")]
    declined = [f"<li><span class=mono>{html_text(o.case.id)}</span> "
                f"({html_text(s.hello.name)}): {html_text(o.message)}</li>"
                for _, s in runs for o in s.outcomes if o.status == "declined"]
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ginspec conformance report"
        f"</title><style>{CSS}</style></head><body><h1>ginspec conformance report</h1>"
        f"<p>rules {RULES_VERSION} · suite {SUITE_VERSION} · protocol {PROTOCOL_VERSION}</p>"
        f"<ul>{''.join(totals)}</ul><h2>Clauses by implementation</h2>"
        f"<table><tr><th>clause</th>{head}</tr>{''.join(rows)}</table>"
        f"<h2>Failures ({len(failures)})</h2>{''.join(failures) or '<p>None.</p>'}"
        + (f"<h2>Declined by the adapter ({len(declined)}; not passes)</h2>"
           f"<ul>{''.join(declined)}</ul>" if declined else "")
        + "</body></html>\n"
    )


def write_html(path: Path, runs: Sequence[tuple[str, RunSummary]]) -> None:
    path.write_text(render(runs), encoding="utf-8")

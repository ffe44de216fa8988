"""Sphinx extension: generate the rules, code, CLI, profile and casebook pages from the package.

Everything under docs/gen/ is written here at ``builder-inited`` from the installed ginspec —
the spec registry, the ``@implements`` marks, the argparse parser, the profiles and the
casebook — so the site cannot drift from the spec, the reference and the suite.
Cross-links are plain HTML anchors (``id`` = clause ID, function name or case ID) that
tests/test_docs.py checks in the built site.
"""

from __future__ import annotations

import html
import importlib
import inspect
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

GEN = "gen"
CASES_SHOWN = 12
"""A clause page links at most this many of its cases; the cases page lists them all."""
GENERATORS: list[Callable[[Path], None]] = []


def generator(func: Callable[[Path], None]) -> Callable[[Path], None]:
    GENERATORS.append(func)
    return func


def esc(text: str) -> str:
    return html.escape(text, quote=True)


# --- cards as pictures -------------------------------------------------------------------


def card_html(token: str) -> str:
    """One card as a styled box: rank over suit symbol, red for hearts and diamonds."""
    from ginspec.spec.cards import SUIT_SYMBOLS, card_str, parse_card, rank_of, suit_of

    card = parse_card(token)
    rank = card_str(card)[0].replace("T", "10")
    suit = suit_of(card)
    colour = "gs-red" if suit in (1, 2) else "gs-black"
    _ = rank_of
    return (
        f'<span class="gs-card {colour}" title="{card_str(card)}"><span>{rank}</span>'
        f'<span class="gs-suit">{SUIT_SYMBOLS[suit]}</span></span>'
    )


def hand_html(label: str, groups: list[list[str]], loose: list[str] | None = None) -> str:
    """A labelled row of cards: melds boxed together, loose cards after them."""
    parts = [f'<span class="gs-label">{esc(label)}</span>']
    for group in groups:
        parts.append('<span class="gs-meld">' + "".join(card_html(t) for t in group) + "</span>")
    parts.extend(card_html(t) for t in loose or [])
    return '<div class="gs-hand">' + "".join(parts) + "</div>"


# --- shared look-ups ---------------------------------------------------------------------


def implementations() -> dict[str, list[str]]:
    from ginspec.reference import implemented_modules
    from ginspec.spec.clauses import IMPLEMENTATIONS

    implemented_modules()
    return {k: sorted(set(v)) for k, v in IMPLEMENTATIONS.items()}


def clause_pages() -> dict[str, str]:
    """Clause ID -> the generated page (relative to docs/) that holds it."""
    from ginspec.spec.clauses import registry

    return {c.id: f"{GEN}/rules/{c.chapter}.html" for c in registry()}


def cases_by_clause() -> dict[str, list[str]]:
    """Clause ID -> IDs of the conformance cases (or spec examples) that exercise it."""
    from ginspec.spec.clauses import registry

    out: dict[str, list[str]] = {}
    try:
        suite = importlib.import_module("ginspec.conformance.docs_index")
        pairs: list[tuple[str, list[str]]] = suite.case_clauses()
    except ImportError:
        pairs = [(ex.id, [ex.clause]) for ex in registry().examples()]
    for case_id, clauses in pairs:
        for clause_id in clauses:
            out.setdefault(clause_id, []).append(case_id)
    return out


def code_anchor(name: str) -> str:
    """Where a reference function is shown: its module's code page, anchored by its name."""
    return f"{GEN}/code/{module_of(name)}.html#{name}"


def module_of(dotted: str) -> str:
    """The importable module part of a dotted function name."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        candidate = ".".join(parts[:cut])
        try:
            importlib.import_module(candidate)
        except ImportError:
            continue
        return candidate
    return parts[0]


def rel(from_page: str, target: str) -> str:
    """Relative URL from one generated page (path under docs/, .html) to another."""
    depth = from_page.count("/")
    return "../" * depth + target


# --- pages ---------------------------------------------------------------------------------


@generator
def rules_pages(out: Path) -> None:
    from ginspec.spec.clauses import registry
    from ginspec.spec.parameters import parameters
    from ginspec_examples import example_block

    try:
        profiles_mod: Any = importlib.import_module("ginspec.spec.profiles")
    except ImportError:
        profiles_mod = None
    reg = registry()
    impl = implementations()
    cases = cases_by_clause()
    params = parameters()
    sources = source_titles()
    known_cases = {c for ids in cases.values() for c in ids}
    (out / "rules").mkdir(parents=True)
    toc = [
        "# The rules\n",
        "Generated from `spec/chapters/`. Each clause keeps its ID as its anchor.\n",
        "```{toctree}\n:maxdepth: 1\n",
    ]
    for chapter in reg.chapters:
        toc.append(chapter.path.rsplit("/", 1)[1].removesuffix(".md"))
        page = f"{GEN}/rules/{chapter.path.rsplit('/', 1)[1].removesuffix('.md')}.html"
        lines = [f"# {chapter.title}\n", f"*Source: `{chapter.path}`*\n", chapter.intro, ""]
        for clause in chapter.clauses:
            lines.append(f"```{{gs:clause}} {clause.id}\n```\n")
            lines.append(f"## §{clause.number} {clause.title}\n")
            lines.append(f'<p class="gs-clause-id"><a href="#{esc(clause.id)}">{esc(clause.id)}</a> · '
                         f"<code>{clause.path}:{clause.line}</code></p>\n")
            lines.append(clause.text + "\n")
            for note in clause.annotations:
                lines.append(":::{note}\n" + note + "\n:::\n")
            for ex in clause.examples:
                case = f"spec.{ex.id}"
                href = rel(page, f"{GEN}/cases.html#{case}") if case in known_cases else None
                lines.extend(example_block(ex, href, hand_html))
            if clause.sources:
                lines.append("**Sources**\n")
                for src in clause.sources:
                    key, _, where = src.partition(":")
                    title = sources.get(key.strip(), key.strip())
                    lines.append(f"- **{key.strip()}** ({title}): {where.strip()}")
                lines.append("")
            if clause.params:
                lines.append("**Parameters that decide this clause**\n")
                for name in clause.params:
                    p = params.get(name)
                    if p is None:
                        continue
                    lines.append(f"- `{name}` ({p.type}, default `{fmt(p.default)}`): {p.description}")
                    for att in p.values:
                        lines.append(f"  - `{fmt(att.value)}` — {'; '.join(att.sources)}")
                    if profiles_mod is not None:
                        vals = []
                        for prof in profiles_mod.profiles():
                            try:
                                vals.append(f"{prof} `{fmt(profiles_mod.ruleset(prof).get(name))}`")
                            except Exception:
                                continue
                        if vals:
                            lines.append(f"  - profiles: {', '.join(vals)}")
                lines.append("")
            links = [
                f'<a href="{rel(page, code_anchor(n))}"><code>{esc(n)}</code></a>' for n in impl.get(clause.id, [])
            ]
            lines.append("<p><b>Reference code:</b> " + (", ".join(links) or "none (descriptive clause)") + "</p>\n")
            case_links = [
                f'<a href="{rel(page, f"{GEN}/cases.html#{c}")}">{esc(c)}</a>' for c in cases.get(clause.id, [])
            ]
            shown = ", ".join(case_links[:CASES_SHOWN]) or "none yet"
            if len(case_links) > CASES_SHOWN:
                shown += f" and {len(case_links) - CASES_SHOWN} more on the cases page"
            lines.append(f"<p><b>Cases ({len(case_links)}):</b> {shown}</p>\n")
            if not clause.testable:
                lines.append(f"*Not testable:* {clause.untestable_reason}\n")
        (out / "rules" / (chapter.path.rsplit("/", 1)[1])).write_text("\n".join(lines), encoding="utf-8")
    toc.append("```\n")
    (out / "rules" / "index.md").write_text("\n".join(toc), encoding="utf-8")


def fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def source_titles() -> dict[str, str]:
    import tomllib

    from ginspec.spec.clauses import SPEC_DIR

    data = tomllib.loads((SPEC_DIR / "sources.toml").read_text(encoding="utf-8"))
    return {k: str(v.get("title", k)) for k, v in data.items()}


@generator
def booklets(out: Path) -> None:
    from ginspec_booklets import booklet_pages
    from ginspec_examples import example_block

    known = {c for ids in cases_by_clause().values() for c in ids}

    def case_href(page: str, example_id: str) -> str | None:
        return rel(page, f"{GEN}/cases.html#spec.{example_id}") if f"spec.{example_id}" in known else None

    booklet_pages(out, example_block, hand_html, case_href)


@generator
def code_pages(out: Path) -> None:
    from ginspec.spec.clauses import registry

    impl = implementations()
    pages = clause_pages()
    reg = registry()
    by_function: dict[str, list[str]] = {}
    for clause_id, names in impl.items():
        for name in names:
            by_function.setdefault(name, []).append(clause_id)
    by_module: dict[str, list[str]] = {}
    for name in by_function:
        by_module.setdefault(module_of(name), []).append(name)
    (out / "code").mkdir(parents=True)
    index = [
        "# Reference code\n",
        "Every function of the reference that implements a clause, with its source.\n",
        "```{toctree}\n:maxdepth: 1\n",
        *sorted(by_module),
        "```\n",
    ]
    (out / "code" / "index.md").write_text("\n".join(index), encoding="utf-8")
    for module_name, names in sorted(by_module.items()):
        page = f"{GEN}/code/{module_name}.html"
        module = importlib.import_module(module_name)
        lines = [f"# `{module_name}`\n", (inspect.getdoc(module) or "").split("\n\n")[0] + "\n"]
        for name in sorted(names, key=lambda n: _line_of(module, n)):
            obj = _resolve(module, name[len(module_name) + 1 :])
            lines.append(f'<a id="{esc(name)}"></a>\n')
            lines.append(f"## `{name[len(module_name) + 1 :]}`\n")
            links = []
            for cid in sorted(by_function[name]):
                if cid in reg:
                    links.append(f'<a href="{rel(page, pages[cid] + "#" + cid)}">{esc(cid)}</a>')
            lines.append("<p><b>Implements:</b> " + ", ".join(links) + "</p>\n")
            try:
                source = inspect.getsource(obj)
            except (OSError, TypeError):
                source = ""
            if source:
                lines.append("```python\n" + inspect.cleandoc(source) + "\n```\n")
        (out / "code" / f"{module_name}.md").write_text("\n".join(lines), encoding="utf-8")


def _resolve(module: Any, qualname: str) -> Any:
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return getattr(obj, "__func__", obj)


def _line_of(module: Any, name: str) -> int:
    try:
        return inspect.getsourcelines(_resolve(module, name.split(module.__name__ + ".", 1)[1]))[1]
    except (OSError, TypeError, AttributeError):
        return 0


@generator
def cli_page(out: Path) -> None:
    import argparse

    from ginspec.conformance.cli import build_parser

    parser = build_parser()
    lines = [
        "# Command-line reference\n",
        "Generated from the `ginspec` argument parser.\n",
        "```text\n" + parser.format_help() + "```\n",
    ]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                lines.append(f"## `ginspec {name}`\n")
                lines.append("```text\n" + sub.format_help() + "```\n")
    (out / "cli.md").write_text("\n".join(lines), encoding="utf-8")


@generator
def cases_page(out: Path) -> None:
    from ginspec.spec.clauses import registry

    try:
        suite = importlib.import_module("ginspec.conformance.docs_index")
        rows: list[tuple[str, list[str], str]] = suite.case_rows()
    except ImportError:
        rows = [(ex.id, [ex.clause], f"spec example ({ex.kind})") for ex in registry().examples()]
    pages = clause_pages()
    page = f"{GEN}/cases.html"
    lines = ["# Conformance cases\n", "Each case with the clauses it exercises.\n"]
    for case_id, clauses, summary in rows:
        links = ", ".join(f'<a href="{rel(page, pages[c] + "#" + c)}">{esc(c)}</a>' for c in clauses if c in pages)
        lines.append(f'<p id="{esc(case_id)}"><code>{esc(case_id)}</code> — {esc(summary)} — {links}</p>\n')
    (out / "cases.md").write_text("\n".join(lines), encoding="utf-8")


def generate(app: Sphinx) -> None:
    out = Path(app.srcdir) / GEN
    if out.exists():
        shutil.rmtree(out)
    out.mkdir()
    for gen in GENERATORS:
        gen(out)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True}


@generator
def casebook_pages(out: Path) -> None:
    """One page per ruling: the position (cards, or a score sheet), the question, who says what,
    and the answer under each profile computed by the reference now (never typed by hand)."""
    from ginspec.reference.rulings import RulingCase, casebook

    (out / "casebook").mkdir(parents=True)
    cases = casebook()
    kinds = {
        "showdown": "a knock's result",
        "game": "a deal and a script of actions",
        "match": "a score sheet",
        "hollywood": "a Hollywood score sheet",
        "partnership": "a partnership score sheet",
        "three-player": "a three-player score sheet",
        "table": "a knock at a table of three or four",
    }
    index = [
        "# Casebook of disputed rulings\n",
        "Each ruling is a file in `spec/casebook/` (format: see the rulings guide). The answers below are",
        "computed by the reference when this site is built; `ginspec ruling check ID` reproduces each one.\n",
        "| ruling | question | kind | profiles |",
        "|---|---|---|---|",
    ]
    for c in cases:
        profiles = ", ".join(sorted({e.profile for e in c.expectations}))
        link = f"[{c.id}: {c.title}]({Path(c.path).stem}.md)"
        index.append(f"| {link} | {c.question.replace('|', '/')} | {kinds[c.kind]} | {profiles} |")
    index += ["", "```{toctree}\n:hidden:\n", *[Path(c.path).stem for c in cases], "```\n"]
    (out / "casebook" / "index.md").write_text("\n".join(index), encoding="utf-8")
    for case in cases:
        page = f"{GEN}/casebook/{Path(case.path).stem}.html"
        if isinstance(case, RulingCase):
            lines = _showdown_page(case, page)
        elif case.kind == "game":
            lines = _game_page(case, page)
        elif case.kind == "table":
            lines = _table_page(case, page)
        else:
            lines = _sheet_page(case, page)
        (out / "casebook" / f"{Path(case.path).stem}.md").write_text("\n".join(lines), encoding="utf-8")


OUTCOME_WORDS = {
    "knock": "the knock stands and the knocker wins the hand",
    "undercut": "an undercut: the defender wins the hand",
    "gin": "gin",
    "big_gin": "big gin",
    "tie": "a tie",
    "illegal_knock": "the knock is refused: the declaration is not legal",
    "gin_cancelled": "the gin is cancelled and nobody scores",
    "void": "the hand is void",
}


def md_text(text: str) -> str:
    """Plain text made safe inside a Markdown paragraph."""
    return "".join("\\" + ch if ch in "*_[]<>|`#" else ch for ch in str(text))


def _say(key: str, value: str) -> str:
    """One computed answer field in words."""
    if key == "outcome":
        return OUTCOME_WORDS.get(value, value.replace("_", " "))
    if key == "deadwood":
        return f"deadwood after layoffs {value}"
    if key == "points":
        return f"points {value}"
    if key.startswith("try "):
        return f"{key.removeprefix('try ')}: {value}"
    if key.startswith("legal: "):
        return f"{key.removeprefix('legal: ')} is {'legal' if value == 'yes' else 'not legal'}"
    return f"{key.replace('_', ' ')} {value}"


def answer_in_words(case: Any) -> list[str]:
    """The ruling told in words (the question heads the page): the short answer, the answer under each profile
    (profiles that agree are named together) and why, the clause trail as sentences."""
    from ginspec.reference.rulings import findings
    from ginspec.spec.clauses import registry

    reg = registry()
    found = findings(case)
    lines = ["## The answer in words\n"]
    if case.answer:
        lines.append(f"**Short answer.** {md_text(case.answer)}\n")
    lines.append("**Under each profile** (computed by the reference when this page was built):\n")
    groups: dict[str, list[str]] = {}
    for f in found:
        words = "; ".join(_say(k, v) for k, v in f.answer) or "no answer"
        groups.setdefault(words, []).append(f.label)
    for words, labels in groups.items():
        lines.append(f"- *{md_text(', '.join(labels))}*: {md_text(words)}.")
    lines.append("")
    trails: dict[tuple[Any, ...], list[str]] = {}
    for f in found:
        if f.trail:
            trails.setdefault(tuple(f.trail), []).append(f.label)
    if trails:
        lines.append("**Why.**\n")
    for trail, labels in trails.items():
        sentences = []
        for clause_id, text in trail:
            if text == "applies" and clause_id in reg:
                text = f"{reg[clause_id].title} applies"
            sentences.append(f"{md_text(text[:1].upper() + text[1:])} ({clause_id}).")
        lines.append(f"- Under *{md_text(', '.join(labels))}*: " + " ".join(sentences))
    lines.append("")
    return lines


def _sides_and_reproduce(case: Any) -> list[str]:
    lines = []
    if case.sides:
        lines.append("## Who says what\n")
        for side in case.sides:
            lines.append(f"- {side.says} — {'; '.join(side.cite)}")
        lines.append("")
    lines.append("## Reproduce\n")
    lines.append(f"```sh\nginspec ruling check {case.id}\n```\n")
    return lines


def _findings_table(found: Any) -> list[str]:
    """The computed answers, one row per expectation."""
    lines = ["## Rulings by profile (computed)\n", "| profile | computed answer | declared |", "|---|---|---|"]
    for f in found:
        answer = "<br>".join(f"{esc(k.replace('_', ' '))}: <b>{esc(v)}</b>" for k, v in f.answer)
        note = f" — {esc(f.note)}" if f.note else ""
        mark = "matches" if f.ok else "**differs: " + esc("; ".join(f.mismatches)) + "**"
        lines.append(f"| {esc(f.label)}{note} | {answer} | {mark} |")
    lines.append("")
    return lines


def _game_page(case: Any, page: str) -> list[str]:
    """A game-script ruling: the deal as cards, the script, the position it reaches, the answers."""
    from ginspec.reference.game.deal import split_deck
    from ginspec.reference.ruling_scripts import describe_script, play_script
    from ginspec.reference.rulings import findings
    from ginspec.spec.cards import card_str

    nd_seat, d_seat = 1 - case.dealer, case.dealer
    if case.hands is not None:
        nd, d, up, top = case.hands
    else:
        nd, d, up, stock = split_deck(case.deal(), False)
        top = stock[:5]
    lines = [f"# {case.id}: {case.title}\n", f"**Question.** {case.question}\n", "## The deal\n"]
    lines.append(hand_html(f"Non-dealer (player {nd_seat})", [], [card_str(c) for c in nd]))
    lines.append(hand_html(f"Dealer (player {d_seat})", [], [card_str(c) for c in d]))
    if up is not None:
        lines.append(hand_html("Upcard", [], [card_str(up)]))
    if top:
        lines.append(hand_html("Stock, top first", [], [card_str(c) for c in top]))
    lines.append("")
    if case.script:
        lines.append("## The play\n")
        for i, (action, words) in enumerate(zip(case.script, describe_script(case.script), strict=True), 1):
            lines.append(f"{i}. `{action}`" if action == words else f"{i}. `{action}`: {words}")
        lines.append("")
    first = case.expectations[0]
    run = play_script(case, first)
    st = run.state
    if run.steps:  # with no action played, the position is the deal above
        lines.append(f"## The position reached (under {esc(first.label)})\n")
        lines.append(hand_html(f"Player {nd_seat}", [], [card_str(c) for c in st.hand(nd_seat)]))
        lines.append(hand_html(f"Player {d_seat}", [], [card_str(c) for c in st.hand(d_seat)]))
        if st.discard_top is not None:
            lines.append(hand_html("Top discard", [], [card_str(st.discard_top)]))
        lines.append(f"\n*{len(run.steps)} actions played; {len(st.stock)} cards in the stock; phase "
                     f"`{st.phase.value}`.*\n")
    lines += answer_in_words(case)
    found = findings(case)
    lines += _findings_table(found)
    return lines + _sides_and_reproduce(case)


def _table_page(case: Any, page: str) -> list[str]:
    """A table-game ruling: every seat's cards, grouped as the first expectation's ruling plays them."""
    from ginspec.reference.rulings import findings
    from ginspec.spec.cards import card_str

    first = case.expectations[0]
    r = case.rule(first)
    lines = [f"# {case.id}: {case.title}\n", f"**Question.** {case.question}\n"]
    lines.append(f"## The table (as ruled under {esc(first.label)})\n")
    plays = {p.seat: p for p in r.defenders}
    for seat, hand in enumerate(case.hands):
        if seat == case.knocker and r.declaration is not None:
            groups = [[card_str(c) for c in m.cards] for m in r.declaration.melds]
            loose = [card_str(c) for c in r.declaration.deadwood_cards]
            lines.append(hand_html(f"Seat {seat} (knocks)", groups, loose))
        elif seat in plays:
            play = plays[seat]
            groups = [[card_str(c) for c in m.cards] for m in play.melds]
            laid = [card_str(x.card) for x in play.layoffs]
            lines.append(hand_html(f"Seat {seat}", groups, [card_str(c) for c in play.deadwood_cards]))
            if laid:
                lines.append(hand_html(f"Seat {seat} lays off", [], laid))
        else:
            lines.append(hand_html(f"Seat {seat}", [], [card_str(c) for c in hand]))
    if r.discard is not None:
        lines.append(hand_html("Knock discard", [], [card_str(r.discard)]))
    lines.append("")
    lines += answer_in_words(case)
    found = findings(case)
    lines += _findings_table(found)
    lines += _sides_and_reproduce(case)
    sets = "".join(f" --set {k}={fmt(v)}" for k, v in first.overrides.items())
    hands = "".join(f' --hand "{" ".join(card_str(c) for c in h)}"' for h in case.hands)
    discard = f" --discard {card_str(case.discard)}" if case.discard is not None else ""
    lines.append(f"```sh\nginspec adjudicate --profile {first.profile}{sets}{hands} --knocker-seat {case.knocker}"
                 f"{discard}\n```\n")
    return lines


def _sheet_page(case: Any, page: str) -> list[str]:
    """A match or systems ruling: the score sheet under each profile and the answers."""
    from ginspec.reference.rulings import findings

    lines = [f"# {case.id}: {case.title}\n", f"**Question.** {case.question}\n"]
    lines += answer_in_words(case)
    found = findings(case)
    lines += _findings_table(found)
    shown: list[Any] = []
    for e, f in zip(case.expectations, found, strict=True):
        heads, rows = case.sheet(e)
        if (heads, rows) in shown:
            continue
        shown.append((heads, rows))
        lines.append(f"### Score sheet under {esc(f.label)}\n")
        lines.append("| " + " | ".join(heads) + " |")
        lines.append("|" + "---|" * len(heads))
        lines.extend("| " + " | ".join(esc(c) for c in row) + " |" for row in rows)
        lines.append("")
    return lines + _sides_and_reproduce(case)


def _showdown_page(case: Any, page: str) -> list[str]:
    """A showdown ruling: both hands as cards (melds grouped as the adjudicator declared them)."""
    from ginspec.reference.rulings import check_ruling
    from ginspec.spec.cards import card_str

    verdicts = check_ruling(case)
    first = verdicts[0].ruling
    lines = [f"# {case.id}: {case.title}\n", f"**Question.** {case.question}\n"]
    decl = first.declaration
    if decl is not None:
        groups = [[card_str(c) for c in m.cards] for m in decl.melds]
        loose = [card_str(c) for c in decl.deadwood_cards]
        lines.append(hand_html("Knocker", groups, loose))
    else:
        lines.append(hand_html("Knocker", [], [card_str(c) for c in case.knocker]))
    defence = first.defence
    if defence is not None:
        d_groups = [[card_str(c) for c in m.cards] for m in defence.melds]
        in_melds = {c for m in defence.melds for c in m.cards}
        d_loose = [card_str(c) for c in case.defender if c not in in_melds]
        lines.append(hand_html("Defender", d_groups, d_loose))
    else:
        lines.append(hand_html("Defender", [], [card_str(c) for c in case.defender]))
    if case.upcard is not None:
        lines.append(hand_html("Upcard", [], [card_str(case.upcard)]))
    lines.append("")
    lines += answer_in_words(case)
    lines.append("## Rulings by profile (computed)\n")
    lines.append("| profile | outcome | deadwood (knocker / defender) | points (knocker / defender) | declared |")
    lines.append("|---|---|---|---|---|")
    for v in verdicts:
        r = v.ruling
        pts = "—" if r.points is None else f"{r.points[0]} / {r.points[1]}"
        dw = "—" if r.knocker_deadwood is None else f"{r.knocker_deadwood} / {r.defender_deadwood}"
        mark = "matches" if v.ok else "**differs: " + "; ".join(v.mismatches) + "**"
        lines.append(f"| {v.expectation.label} | {r.outcome} | {dw} | {pts} | {mark} |")
    lines.append("")
    lines += _sides_and_reproduce(case)
    e = case.expectations[0]
    sets = "".join(f" --set {k}={fmt(val)}" for k, val in e.overrides.items())
    melds = ""
    if case.knocker_melds:
        melds = ' --knocker-melds "' + " / ".join(" ".join(card_str(c) for c in m) for m in case.knocker_melds) + '"'
    up = f" --upcard {card_str(case.upcard)}" if case.upcard is not None else ""
    lines.append(
        f"```sh\nginspec adjudicate --profile {e.profile}{sets} "
        f'--knocker "{" ".join(card_str(c) for c in case.knocker)}" '
        f'--defender "{" ".join(card_str(c) for c in case.defender)}"{melds}{up}\n```\n'
    )
    return lines


@generator
def profiles_page(out: Path) -> None:
    """The profile x parameter matrix, and each profile's values with the source of each."""
    from ginspec.spec.parameters import parameters
    from ginspec.spec.profiles import profile, profiles

    names = list(profiles())
    params = parameters()
    pages = clause_pages()
    page = f"{GEN}/profiles.html"
    lines = [
        "# Profiles and parameters\n",
        "A profile is a named ruleset: one value for every parameter, each backed by a source or marked",
        "as our choice where the source is silent. Hover a cell for its source; each profile's own table",
        "follows the matrix. `ginspec rules PROFILE` prints the same table.\n",
        "## Matrix\n",
        '<div style="overflow-x:auto"><table class="docutils"><thead><tr><th>parameter</th>'
        + "".join(f'<th><a href="#profile-{esc(n)}">{esc(n)}</a></th>' for n in names)
        + "</tr></thead><tbody>",
    ]
    for pname, p in params.items():
        target = pages.get(p.clause)
        head = f'<a href="{rel(page, target + "#" + p.clause)}">{esc(pname)}</a>' if target else esc(pname)
        cells = []
        for n in names:
            entry = profile(n).entries[pname]
            style = "" if entry.stated else ' style="opacity:0.6"'
            cells.append(f'<td title="{esc(entry.source)}"{style}>{esc(fmt(entry.value))}</td>')
        lines.append(f"<tr><td>{head}</td>{''.join(cells)}</tr>")
    lines.append("</tbody></table></div>\n")
    lines.append("Faded values are not stated by the profile's source; the table below says why each was chosen.\n")
    for n in names:
        prof = profile(n)
        lines.append(f'<a id="profile-{esc(n)}"></a>\n')
        lines.append(f"## `{n}` — {prof.title}\n")
        lines.append(f"{prof.description}\n")
        lines.append(f"*Basis:* {prof.basis}\n")
        lines.append("| parameter | value | source |")
        lines.append("|---|---|---|")
        for pname, entry in prof.entries.items():
            source = entry.source.replace("|", "\\|")
            lines.append(f"| `{pname}` | `{fmt(entry.value)}` | {source} |")
        lines.append("")
    (out / "profiles.md").write_text("\n".join(lines), encoding="utf-8")

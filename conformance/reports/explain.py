"""What a failure report says about one failing case, whatever the medium (terminal, HTML, JUnit).

A :class:`Failure` holds the position as cards (the query's hand, or each player's dealt cards and
the upcard), the steps around the divergence, the answer expected beside the engine's, for a
deadwood, knock, declaration or showdown question the optimal arrangement beside the engine's, the
text of the clause that caught it, and a command that reruns exactly that case.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import CaseResult
from ginspec.reference.game import rules_for_profile
from ginspec.reference.melds import min_deadwood, optimal_arrangements
from ginspec.spec.cards import card_str, parse_card
from ginspec.spec.clauses import registry
from ginspec.spec.errors import GinspecError

BAD: Final = ("fail", "error", "xpass")
"""The statuses that fail a run (each gets a failure report)."""

Melds = list[list[str]]
"""An arrangement: its melds, each a list of card tokens."""


@dataclass(frozen=True)
class Rerun:
    """How the run was started, to print a command that reruns one case the same way."""

    adapter: str
    suites: tuple[str, ...] = ()
    """``--suite`` values as given (empty: the committed suite)."""
    extra: tuple[str, ...] = ()
    """Other options that change what a case does (``--timeout 5``, ``--rules FILE``)."""

    def command(self, outcome: CaseResult) -> str:
        """``ginspec conform ...`` running only ``outcome``'s case, with its own suite file."""
        args = ["ginspec", "conform", "--adapter", self.adapter]
        where = outcome.case.path
        if where and not _in_committed_suite(where):
            args += ["--suite", where]
        args += [*self.extra, "--cases", outcome.case.id]
        return " ".join(shlex.quote(a) for a in args)


def _in_committed_suite(path: str) -> bool:
    from pathlib import Path

    try:
        Path(path).resolve().relative_to(SUITE_DIR)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Step:
    """One step of a hand case near the divergence."""

    index: int
    player: str
    action: str
    expected: str
    diverged: bool


@dataclass(frozen=True)
class ClauseText:
    id: str
    number: str
    title: str
    text: str
    """The clause's Markdown source."""


@dataclass(frozen=True)
class Failure:
    """Everything a report shows about one failing case."""

    outcome: CaseResult
    headline: str
    cards: tuple[tuple[str, tuple[str, ...]], ...]
    """The position: (label, card tokens), e.g. ("player 0", ...), ("upcard", ("5D",))."""
    steps: tuple[Step, ...]
    where: str
    """Where the run diverged, in words ("at step 4", "in the result")."""
    field: str
    expected: Any
    actual: Any
    note: str
    arrangements: tuple[tuple[str, Melds | None], ...]
    """(label, melds) pairs to draw side by side: the expected optimal one and the engine's."""
    clause: ClauseText | None
    also_suspect: tuple[str, ...]
    rerun: str
    message: str = ""
    """The adapter's error (with its stderr) for an ``error``; the stale entry for an ``xpass``."""
    query: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def explain(outcome: CaseResult, rerun: Rerun) -> Failure:
    """The :class:`Failure` of one failing outcome."""
    case = outcome.case
    m = outcome.mismatch
    where = _where(outcome)
    headline = f"{outcome.status.upper()} {case.id}" + (f" {where}" if where else "") + \
        f" [{outcome.culprit or '-'}]"
    return Failure(
        outcome=outcome,
        headline=headline,
        cards=_cards(outcome),
        steps=_steps(outcome),
        where=where,
        field=m.field if m else "",
        expected=m.expected if m else None,
        actual=m.actual if m else None,
        note=m.note if m else "",
        arrangements=_arrangements(outcome),
        clause=clause_text(outcome.culprit),
        also_suspect=tuple(s for s in dict.fromkeys(outcome.suspects) if s != outcome.culprit),
        rerun=rerun.command(outcome),
        message=outcome.message,
        query={k: v for k, v in case.query.items() if k != "cards"}
        if set(case.query) - {"what", "cards"} else {},
    )


def _where(o: CaseResult) -> str:
    if o.where == "step" and o.step is not None:
        return f"at step {o.step}"
    if o.where == "checkpoint" and o.step is not None:
        return f"at the checkpoint after step {o.step}"
    if o.where == "result":
        return "in the result"
    if o.where == "query":
        return "in the answer"
    if o.where == "deal" and o.step is not None:
        return f"in the deal after step {o.step}"
    if o.where:
        return f"({o.where})"
    return ""


def clause_text(clause_id: str | None) -> ClauseText | None:
    if not clause_id:
        return None

    reg = registry()
    if clause_id not in reg:
        return None
    c = reg[clause_id]
    return ClauseText(c.id, c.number, c.title, c.text)


def deal_hands(deal: Mapping[str, Any]) -> tuple[list[list[str]], str]:
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


def _cards(o: CaseResult) -> tuple[tuple[str, tuple[str, ...]], ...]:
    case = o.case
    if case.kind == "query":
        q = case.query
        out = [(str(name), tuple(str(t) for t in q[name])) for name in
               ("cards", "knocker", "defender") if _is_tokens(q.get(name))]
        for name in ("melds", "knocker_melds", "table"):
            melds = q.get(name)
            if isinstance(melds, list) and all(_is_tokens(m) for m in melds):
                out.extend((f"{name} {i + 1}", tuple(m)) for i, m in enumerate(melds))
        return tuple(out)
    if not case.deals or "deck" not in case.deals[0]:
        return ()  # no deal, or one an engine makes itself from a seed (deal.engine)
    hands, upcard = deal_hands(case.deals[0])
    dealer = case.deals[0]["dealer"]
    return (*((f"player {p}" + (" (dealer)" if p == dealer else ""), tuple(h))
              for p, h in enumerate(hands)), ("upcard", (upcard,)))


def _is_tokens(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(t, str) and len(t) == 2
                                                           for t in value)


def _steps(o: CaseResult, before: int = 6, after: int = 1) -> tuple[Step, ...]:
    steps = o.case.steps
    if o.step is None or not steps:
        return ()
    lo = max(0, o.step - before)
    out = []
    for i in range(lo, min(len(steps), o.step + after + 1)):
        s = steps[i]
        expect = s["expect"] if s["expect"] == "accepted" else f"rejected {s['expect']['rejected']}"
        out.append(Step(i, str(s["player"]), str(s["action"]), str(expect),
                        i == o.step and o.where == "step"))
    return tuple(out)


def _arrangements(o: CaseResult) -> tuple[tuple[str, Melds | None], ...]:
    """The expected optimal arrangement beside the engine's, for the questions that have one."""
    case = o.case
    if case.kind != "query" or o.status == "error":
        return ()
    q, want = case.query, case.expect
    answer = o.actual if isinstance(o.actual, Mapping) else {}
    what = q.get("what")
    if what == "deadwood":
        optimal = want.get("optimal")
        expected = list(optimal[0]) if isinstance(optimal, list) and optimal else \
            _reference_arrangement(q["cards"], case.profile, case.overrides)
        return (("expected (an optimal arrangement)", expected),
                ("engine", _melds(answer.get("melds"))))
    if what == "knock":
        return (("expected (an optimal arrangement after the best discard)",
                 _reference_after_discard(q["cards"], case.profile, case.overrides)),
                ("engine", _melds(answer.get("melds"))))
    if what == "declaration":
        return (("declared (the case's)", _melds(q.get("melds"))),
                ("an optimal arrangement of the hand",
                 _reference_arrangement(q["cards"], case.profile, case.overrides)))
    if what == "adjudicate":
        expected = _melds(want.get("declaration")) or _melds(q.get("knocker_melds")) or \
            _reference_arrangement(q["knocker"], case.profile, case.overrides)
        return (("expected declaration", expected),
                ("engine", _melds(answer.get("declaration"))))
    return ()


def _melds(value: Any) -> Melds | None:
    if isinstance(value, list) and all(isinstance(m, list) and all(isinstance(t, str) for t in m)
                                       for m in value):
        return [list(m) for m in value]
    return None


def _meld_rules(profile: str | None, overrides: Mapping[str, Any]) -> Any:

    return rules_for_profile(profile or "pagat", dict(overrides)).meld_rules


def _reference_arrangement(tokens: Sequence[str], profile: str | None,
                           overrides: Mapping[str, Any]) -> Melds | None:
    """The reference's first optimal arrangement (None when the position is not a hand)."""

    try:
        found = optimal_arrangements([parse_card(t) for t in tokens],
                                     _meld_rules(profile, overrides), limit=1)
    except (GinspecError, KeyError):
        return None
    return [[card_str(c) for c in m.cards] for m in found[0].melds] if found else None


def _reference_after_discard(tokens: Sequence[str], profile: str | None,
                             overrides: Mapping[str, Any]) -> Melds | None:

    try:
        cards = [parse_card(t) for t in tokens]
        rules = _meld_rules(profile, overrides)
        best = min(range(len(cards)), key=lambda i: min_deadwood(cards[:i] + cards[i + 1:], rules))
    except (GinspecError, KeyError, ValueError):
        return None
    return _reference_arrangement([t for i, t in enumerate(tokens) if i != best], profile,
                                  overrides)


def markdown_text(source: str) -> str:
    """Clause Markdown as plain text (for JUnit and piped terminals): emphasis, code and link
    marks removed, paragraphs kept."""
    import re

    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", source)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text, flags=re.S)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    return text


def markdown_html(source: str) -> str:
    """Clause Markdown as HTML (CommonMark; raw HTML in the source is escaped, not passed)."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": False}).render(source))


def plain(f: Failure) -> str:
    """The whole report of one failure as plain text (JUnit's failure body, ``report`` output)."""
    lines = [f.headline, f"  {f.outcome.case.description}"]
    for label, tokens in f.cards:
        lines.append(f"  {label}: {' '.join(tokens)}")
    for s in f.steps:
        mark = ">" if s.diverged else " "
        lines.append(f"  {mark} {s.index:>3}  player {s.player}: {s.action}  (expected {s.expected})")
    if f.field:
        lines.append(f"  {f.field}: expected {f.expected!r}")
        lines.append(f"  {' ' * len(f.field)}  actual   {f.actual!r}" + (f" ({f.note})" if f.note else ""))
    for label, melds in f.arrangements:
        lines.append(f"  {label}: {melds_text(melds)}")
    if f.message and not f.field:
        lines.extend(f"  {line}" for line in f.message.splitlines()[:40])
    if f.clause:
        lines.append(f"  {f.clause.id} — §{f.clause.number} {f.clause.title}")
        lines.extend(f"    {line}" for line in markdown_text(f.clause.text).splitlines())
    if f.also_suspect:
        lines.append(f"  also suspect: {', '.join(f.also_suspect)}")
    lines.append(f"  rerun: {f.rerun}")
    return "\n".join(lines)


def melds_text(melds: Melds | None) -> str:
    return "(none given)" if melds is None else " / ".join(" ".join(m) for m in melds) or "(no melds)"

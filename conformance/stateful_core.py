"""What the live machines share (conformance/stateful.py, two players; conformance/
stateful_table.py, the table game): the run and its settings (:class:`LiveRun`), the record of
one game (:class:`Trace`), a difference (:class:`Divergence`), the decisions both games have and
the comparison of a position (:class:`Lockstep`)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from ginspec.conformance.adapters.base import Adapter, Hello, Verdict
from ginspec.conformance.adapters.reference_table import TABLE_PROFILES
from ginspec.conformance.cases.unsent_refusals import FORFEIT
from ginspec.conformance.compare import check_checkpoint, check_verdict
from ginspec.conformance.mismatch import Mismatch
from ginspec.reference.game import rules_for_profile
from ginspec.reference.game.state import Phase
from ginspec.reference.table import table_rules_for_profile
from ginspec.reference.typed_rules import Rules
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import Ruleset
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    RuleStrategy,
    precondition,
    rule,
)

COMPARED: Final = ("phase", "to_act", "hand_sizes", "discard_top", "stock_size")
"""The observation fields every adapter reports (PROTOCOL.md, ``observe``)."""
MATCH_DEALS: Final = 40
"""Decks sent with ``new_match``; a match of more hands ends the example there."""
HAND_STEPS: Final = 400
MATCH_STEPS: Final = 1500
"""``stateful_step_count`` of one example: a few hands, or about one match."""
SHRINK_SECONDS: Final = 35
"""``ginspec conform --live`` stops shrinking after this long (the issue's bound is 60 s)."""
MAX_NEW: Final = 10
"""A live run stops after this many distinct new divergences."""
ROUND_EXAMPLES: Final = 20
"""Examples per Hypothesis run ("round"); a live run plays rounds until it has its hands."""
MIN_EXAMPLES: Final = 4
"""A round's examples are at least this many (Hypothesis's first example is its simplest, all
greedy moves); a short run plays short examples."""
MAX_ROUNDS: Final = 10_000
STEPS_PER_HAND: Final = 45
"""About the steps of one hand (probes included), to size the examples of a short run."""
SEEDS = st.integers(0, 2**32 - 1)
PICK = st.integers(0, 255)
SENSIBLE_OF: Final = 4
"""``pick % 4`` 0-2 plays the sensible option, 3 the drawn option ``pick // 4``: three draws in
four are sensible play, and the simplest draw (0, where Hypothesis starts and shrinks) is."""
STYLE = st.integers(0, 4)
GIN_STYLE: Final = 3
WALL_STYLE: Final = 4
"""Of five single hands, one waits for gin (it knocks only to go gin) and one is played to the
wall (no knock by choice). A match's first hand takes the style drawn, its later hands the
other styles in turn (a match reaches its target sooner without voids played on purpose)."""
MATCH_OF: Final = 8
"""``match % 8`` 0-6 (seven games in eight) is a whole match when the adapter declares
``match``, 7 a single hand: a match takes ten or more hands, and one whole match per 20 hands
is the aim."""
GAME_SEED: Final = 0x9E3779B1
"""Game ``g`` of an example is dealt from ``drawn seed + g * GAME_SEED`` (mod 2**32), so an
example whose draws repeat (Hypothesis's simplest example, all zeros) still plays new deals."""
BEFORE_SHOWDOWN: Final = frozenset({Phase.OFFER_NON_DEALER, Phase.OFFER_DEALER, Phase.FIRST_DRAW,
                                     Phase.DRAW, Phase.DISCARD, Phase.WALL, Phase.WALL_KNOCK})
NEXT_HAND: Final = frozenset({Phase.OFFER_NON_DEALER.value, Phase.OFFER_DEALER.value})
"""The phases a match's next hand opens in (under an upcard offer, FIRST.UPCARD-OFFER)."""
PROBE_EVERY: Final = 3
"""The illegal-action rule is enabled on every third step (probes take no game forward)."""
SCORE_CLAUSES: Final = {"knock": "SCORE.KNOCK", "gin": "SCORE.GIN", "big_gin": "SCORE.BIG-GIN",
                        "undercut": "SCORE.UNDERCUT", "tie": "SCORE.TIE",
                        "gin_cancelled": "SCORE.ZERO-CANCELS", "void": "SCORE.VOID"}
"""The clause that scores each outcome (chapter 9)."""
MATCH_CLAUSES: Final = {"winner": "MATCH.TARGET", "hands": "MATCH.TARGET",
                        "match_totals": "MATCH.CUMULATIVE", "final_totals": "MATCH.GAME-BONUS",
                        "settlement": "MATCH.GAME-BONUS"}
"""The clause blamed for each field of a match result."""


def cause_of(ident: str, clause: str) -> tuple[str, str]:
    """The cause of a divergence: the clause it blames and the kind of field that differs, which
    is its ID without the phase, verb or outcome it was seen in (``live.result.deadwood.knock``
    and ``live.result.deadwood.undercut`` both differ in ``result.deadwood``;
    ``live.verdict.discard.knock.refused`` is a ``verdict.refused``; every difference in the
    legal actions a ``legal-actions``; a deal that fails its checks a ``deal``)."""
    parts = ident.removeprefix("live.").split(".")
    head = parts[0]
    if head in ("result", "observation", "match") and len(parts) > 1:
        kind = f"{head}.{parts[1]}"
    elif head == "verdict":
        kind = f"verdict.{parts[-1]}"
    elif head in ("legal-actions", "deal"):
        kind = head
    else:
        kind = ".".join(parts)
    return clause, kind


def cause_text(cause: tuple[str, str]) -> str:
    """A cause as the live mode prints it: ``SHOWDOWN.DEFENDER-SPREAD (result.deadwood)``."""
    return f"{cause[0] or '(no clause)'} ({cause[1]})"


class Divergence(AssertionError):
    """The adapter and the reference disagree; ``ident`` is stable across runs and seeds."""

    def __init__(self, ident: str, message: str, clause: str):
        super().__init__(f"{ident}: {message}")
        self.ident = ident
        self.message = message
        self.clause = clause
        self.cause = cause_of(ident, clause)


@dataclass
class LiveStats:
    """What a live run played (hands compared to the end; shrinking is not counted)."""

    hands: int = 0
    showdowns: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    matches: int = 0
    steps: int = 0
    declined: int = 0
    known: Counter[str] = field(default_factory=Counter)
    """Games in which each divergence of the expect-fail list was seen."""
    again: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Games in which a cause this run has already reported showed again (played past, not
    reported again: its follow-ons and its other IDs are not new divergences)."""
    seconds_adapter: float = 0.0
    seconds_total: float = 0.0


@dataclass
class Trace:
    """One game as a case: its deals, the steps sent, the last comparison and the result."""

    kind: str
    seed: int
    deals: list[dict[str, Any]]
    steps: list[dict[str, Any]] = field(default_factory=list)
    checkpoint: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    blame: dict[str, str] = field(default_factory=dict)
    query: dict[str, Any] | None = None
    """A difference in a game's accounting asked as a query (the table game's totals and prize
    split): the question; ``result`` is then the reference's answer."""
    dealt: str | None = None
    """A first deal an engine made (deal.engine) that failed the deal checks: what it reported
    (JSON text; no deck of 52 cards can hold it)."""


@dataclass
class LiveRun:
    """One live run's settings and what it has found (shared by every example of the run)."""

    adapter: Adapter
    hello: Hello
    rules: Ruleset
    hands: int | None = None
    """Stop generating after this many hands (None: Hypothesis's own max_examples decide)."""
    expect_fail: Mapping[str, str] = field(default_factory=dict)
    stats: LiveStats = field(default_factory=LiveStats)
    found: dict[str, str] = field(default_factory=dict)
    """New divergences found by earlier rounds of this run: played past like expected ones."""
    causes: dict[tuple[str, str], str] = field(default_factory=dict)
    """The cause of each new divergence (:func:`cause_of`) and the ID it was reported as: a
    later difference of the same cause, under whatever ID, is played past and not reported."""
    found_as: dict[str, tuple[str, str]] = field(default_factory=dict)
    """The cause each found ID was reported with."""
    also: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """The other IDs each reported cause showed under."""
    failure: tuple[Divergence, Trace] | None = None
    failing: bool = False
    found_at: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Each new divergence: the hand it was first seen in and when (``perf_counter``)."""
    players: int | None = None
    """3 or 4: the table game (chapter 14) is played, by :mod:`.stateful_table`."""

    def __post_init__(self) -> None:
        caps = set(self.hello.capabilities)
        self.legal = "legal-actions" in caps
        self.codes = "rejection-codes" in caps
        self.refuses = FORFEIT not in caps
        """Whether the engine may be sent an illegal action (it does not declare illegal.forfeit)."""
        if self.players is not None:
            self.table_rules, self.game_queries = check_table_run(self)
            self.matches = True  # whole games to the penalty limit
            self.melding = self.layoffs = self.spread = False  # the table's is explicit
            return
        for part in ("melding", "layoff"):
            if {f"{part}.explicit", f"{part}.automatic"} <= caps:
                raise GinspecError(f"--live: the adapter declares both {part}.explicit and "
                                   f"{part}.automatic (PROTOCOL.md: they exclude each other)")
        reason = self.hello.rules_reason(self.rules.name, self.rules.overrides)
        if reason is not None:
            raise GinspecError(f"--live: the adapter cannot play these rules: {reason}")
        if "hand" not in caps:
            raise GinspecError("--live: the adapter does not declare 'hand'")
        self.matches = "match" in caps
        self.melding = "melding.automatic" in caps
        self.layoffs = "layoff.automatic" in caps
        self.spread = self.layoffs and "spread.explicit" in caps
        """The defender spreads as an action, the engine lays off by itself after it."""
        self.showdown = self.melding or "melding.explicit" in caps
        self.deal_engine = "deal.engine" in caps
        self.game_rules = rules_for_profile(self.rules.name, self.rules.overrides)

    def expected(self, ident: str) -> bool:
        return ident in self.expect_fail or ident in self.found

    def reported(self, ident: str, clause: str) -> bool:
        """Whether a difference is not new: its ID is expected or already found, or its cause
        (:func:`cause_of`) has been reported under another ID."""
        return self.expected(ident) or cause_of(ident, clause) in self.causes

    def record(self, divergence: Divergence) -> None:
        """A new divergence found (and shrunk): its ID and its cause are reported."""
        self.found[divergence.ident] = divergence.message
        self.found_as[divergence.ident] = divergence.cause
        self.causes.setdefault(divergence.cause, divergence.ident)

    @property
    def counting(self) -> bool:
        return not self.failing


def _sensible_pick(pick: int) -> bool:
    return pick % SENSIBLE_OF != SENSIBLE_OF - 1


def _verb(action: str) -> str:
    return action.split()[0]


def _can(*verbs: str) -> Callable[[Any], bool]:
    """The precondition of a decision: the game is on and a legal action of a verb is left."""
    def enabled(self: Any) -> bool:
        return self.playing and any(self.options(v) for v in verbs)
    enabled.__name__ = f"can_{'_'.join(verbs)}"
    return enabled


class _EnabledRule(RuleStrategy):
    """The next step's rule, drawn among the rules whose preconditions hold, and its arguments.

    Hypothesis's own rule strategy draws from every rule and retries until one is enabled (and
    switches rules off per example, swarm testing): about ten choices a step, so an example hit
    Hypothesis's size bound after some 500 steps, short of a whole match. One choice picks the
    rule here, so an example holds ``stateful_step_count`` steps; the greedy player's move
    comes first, so the simplest draw (where Hypothesis starts and shrinks) plays it."""

    def __init__(self, machine: RuleBasedStateMachine):
        super().__init__(machine)
        self.rules = sorted(self.rules, key=lambda r: r.function.__name__ != "strategy")

    def do_draw(self, data: Any) -> tuple[Any, dict[str, Any]]:
        machine = self.machine
        enabled = [r for r in self.rules if all(p(machine) for p in r.preconditions)]
        if not enabled:
            raise AssertionError(f"the live machine has no enabled rule in {machine!r}")
        rule = enabled[data.draw_integer(0, len(enabled) - 1)] if len(enabled) > 1 \
            else enabled[0]
        return rule, {k: data.draw(s) for k, s in rule.arguments_strategies.items()}


class Lockstep(RuleBasedStateMachine):
    """What the live machines share: the run, the timed calls into the adapter, the decisions
    both games have (draw from the stock, discard, knock, declare, meld, lay off or say done:
    ``_play`` and ``_choose`` are each game's), and how a difference is met (counted and
    played past when expected, else raised as a :class:`Divergence` of its own type, so that
    Hypothesis shrinks it as itself)."""

    run: ClassVar[LiveRun]

    def __init__(self) -> None:
        super().__init__()
        self._rules_strategy = _EnabledRule(self)
        self.playing = False
        self.trace = Trace("hand", 0, [])
        self.seen: set[str] = set()
        self.causes_seen: set[tuple[str, str]] = set()
        """The reported causes this game has shown again (each counted once a game)."""
        self.ignored: set[str] = set()
        """Observation fields that differed in this game (compared no more)."""
        self.shared: tuple[Any, frozenset[str]] | None = None
        """After a known difference in legal actions: the position and the actions both allow
        there (the only ones this position plays)."""
        self._legal: Any = None

    def options(self, verb: str) -> list[str]:
        """The legal actions of one verb this game may play now."""
        raise NotImplementedError

    def _play(self, action: str, player: Any = None) -> None:
        raise NotImplementedError

    def _choose(self, verb: str, pick: int, also: tuple[str, ...] = ()) -> None:
        """Sensible play unless ``pick % 4 == 3``, else the option ``pick // 4``."""
        raise NotImplementedError

    @precondition(_can("draw-stock"))
    @rule()
    def draw_stock(self) -> None:
        self._play("draw-stock")

    @precondition(_can("discard"))
    @rule(pick=PICK)
    def discard(self, pick: int) -> None:
        self._choose("discard", pick)

    @precondition(_can("knock"))
    @rule(pick=PICK)
    def knock(self, pick: int) -> None:
        self._choose("knock", pick)

    @precondition(_can("declare"))
    @rule(pick=PICK)
    def declare(self, pick: int) -> None:
        self._choose("declare", pick)

    @precondition(_can("meld"))
    @rule(pick=PICK)
    def meld(self, pick: int) -> None:
        self._choose("meld", pick)

    @precondition(_can("layoff", "done"))
    @rule(pick=PICK)
    def lay_off(self, pick: int) -> None:
        """Lay off a card (LAYOFF.*, TABLE.SHOWDOWN), or say done; sensible play lays off what
        the greedy defender would."""
        self._choose("layoff", pick, also=("done",))

    # --- comparing a position ----------------------------------------------------------------

    @property
    def state(self) -> Any:
        raise NotImplementedError

    def _action_clause(self, action: str) -> str:
        """The clause that permits ``action`` (a legal action one side lacks blames it)."""
        raise NotImplementedError

    def _checkpoint(self, observed: Mapping[str, Any], legal: list[str] | None,
                    more: Callable[[Mapping[str, Any], dict[str, Any]], None] | None = None
                    ) -> tuple[Mismatch | None, Mapping[str, Any]]:
        """Compare the position after the last step: the reference's ``observed`` fields of
        COMPARED, and its ``legal`` actions as a set when given (``more`` may add fields once
        the adapter's observation is seen). The checkpoint is kept in the trace; a difference in
        the legal actions is met here, any other returned with the adapter's observation."""
        point: dict[str, Any] = {"after": len(self.trace.steps)}
        point.update({k: v for k, v in observed.items()
                      if k in COMPARED and k not in self.ignored})
        got = None
        if legal is not None:
            got = self._call("legal_actions")
            point["legal_actions"] = sorted(legal)
        actual = self._call("observe")
        if more is not None:
            more(actual, point)
        bad = check_checkpoint(point, actual, got)
        self.trace.checkpoint = point
        if bad is not None and bad.field == "legal_actions":
            self._legal_differ(point["legal_actions"], got or [])
            return None, actual
        return bad, actual

    def _legal_differ(self, want: list[str], got: list[str]) -> None:
        """The legal actions differ: a divergence per kind of difference (its ID names the
        verbs missing and extra); the position then plays only the actions both allow."""
        state = self.state
        missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
        tags = sorted({f"missing-{_verb(a)}" for a in missing} | {f"extra-{_verb(a)}" for a in extra})
        clause = self._action_clause((missing or extra)[0])
        self.trace.checkpoint["clause"] = clause
        ident = f"live.legal-actions.{state.phase.value}.{'.'.join(tags)}"
        self._diverge(ident, f"after step {len(self.trace.steps)}: legal actions: missing "
                      f"{missing}, extra {extra}", clause, fatal=False)
        shared = frozenset(want) & frozenset(got)
        if not shared:
            self.playing = False
        self.shared, self._legal = (state, shared), None

    def _send(self, who: int | str, action: str, expect: Any, clause: str
              ) -> tuple[Verdict, Mismatch | None]:
        """One step to the adapter, recorded in the trace: its verdict, and how it differs
        from ``expect`` (the reference's: ``"accepted"`` or ``{"rejected": CODE}``)."""
        self.trace.steps.append({"player": who, "action": action, "expect": expect,
                                 "clause": clause})
        if self.run.counting:
            self.run.stats.steps += 1
        verdict: Verdict = self._call("apply", who, action)
        return verdict, check_verdict(expect, verdict.accepted, verdict.code, self.run.codes)

    def _call(self, name: str, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return getattr(self.run.adapter, name)(*args)
        finally:
            self.run.stats.seconds_adapter += time.perf_counter() - start

    def _diverge(self, ident: str, message: str, clause: str, *, fatal: bool) -> None:
        """Meet a difference: a new one (its cause not yet reported) is raised; one the
        expect-fail list names, or whose cause this run has reported, is counted once a game
        and played past (``fatal``: the game ends here)."""
        run = self.run
        if run.reported(ident, clause):
            # an ID found earlier counts under the cause it was reported with
            cause = run.found_as.get(ident) or cause_of(ident, clause)
            if run.counting:
                if ident in run.expect_fail:
                    if ident not in self.seen:
                        run.stats.known[ident] += 1
                elif cause not in self.causes_seen:
                    run.stats.again[cause] += 1
                    self.causes_seen.add(cause)
                if ident not in run.expect_fail and ident != run.causes.get(cause):
                    run.also.setdefault(cause, set()).add(ident)
            self.seen.add(ident)
            if fatal:
                self.playing = False
            return
        divergence = _kind_of(ident)(ident, message, clause)
        if not run.failing:
            run.found_at[ident] = (run.stats.hands + 1, time.perf_counter())
        run.failing = True
        run.failure = (divergence, _copy(self.trace))
        raise divergence

    def teardown(self) -> None:
        self.playing = False


_KINDS: dict[str, type[Divergence]] = {}


def _kind_of(ident: str) -> type[Divergence]:
    """One exception class per divergence ID: Hypothesis tells failures apart by their type,
    so it shrinks each divergence as itself and never trades it for another."""
    if ident not in _KINDS:
        _KINDS[ident] = type(f"Divergence[{ident}]", (Divergence,), {})
    return _KINDS[ident]


def _copy(trace: Trace) -> Trace:
    return Trace(trace.kind, trace.seed, list(trace.deals), [dict(s) for s in trace.steps],
                 dict(trace.checkpoint), None if trace.result is None else dict(trace.result),
                 dict(trace.blame), None if trace.query is None else dict(trace.query),
                 trace.dealt)


GAME_QUERIES: Final[dict[str, str]] = {"table-game": "TABLE.GAME-END", "prize": "TABLE.PRIZE"}
"""The queries a finished game's accounting is asked as, and the clause each decides."""


def check_table_run(run: LiveRun) -> tuple[Rules, tuple[str, ...]]:
    """Fail closed: the adapter must declare ``table-game.N``, the explicit showdown the table
    plays (TABLE.SHOWDOWN) and the ruleset, and the table engine must honour the ruleset (one
    line naming what is missing, GinspecError). The table rules, and the game queries the
    adapter answers."""
    n = run.players
    caps = set(run.hello.capabilities)
    if n not in (3, 4):
        raise GinspecError(f"--players {n}: the table game's live mode seats 3 or 4 players "
                           "(two players: leave --players out)")
    if run.rules.name not in TABLE_PROFILES:
        raise GinspecError(f"--players {n}: profile {run.rules.name} is not a table game "
                           f"(table profiles: {', '.join(TABLE_PROFILES)})")
    for needed in (f"table-game.{n}", "melding.explicit", "layoff.explicit"):
        if needed not in caps:
            raise GinspecError(f"--live --players {n}: the adapter does not declare '{needed}'")
    reason = run.hello.rules_reason(run.rules.name, run.rules.overrides)
    if reason is not None:
        raise GinspecError(f"--live: the adapter cannot play these rules: {reason}")
    overrides = {k: v for k, v in run.rules.overrides.items() if k != "players"}
    rules = table_rules_for_profile(run.rules.name, overrides, players=n)
    return rules, tuple(q for q in GAME_QUERIES if f"query.{q}" in caps)

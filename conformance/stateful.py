"""The live differential machine: an adapter and the reference played in lockstep.

:class:`LiveMachine` is a Hypothesis ``RuleBasedStateMachine``. Its rules are the decisions of
the game — draw from the stock, take the discard or the upcard, pass, discard, knock, big gin,
declare, meld, lay off, done, the referee's reshuffle — each enabled when the reference's legal
actions hold one, plus :meth:`LiveMachine.illegal` (an action the reference refuses: the adapter
must refuse it with the same code, ACTION.REJECTION, and change nothing) and
:meth:`LiveMachine.strategy` (the built-in greedy player's move). Choices among several legal
actions are drawn, and most draws take the sensible one, so hands reach knocks, gins, undercuts
and layoffs as real games do; one single hand in five is played to the wall, and seven games in
eight are whole matches when the adapter declares ``match``. After every step the invariants
compare the adapter's observation and legal actions with the reference's; when a hand ends, its
result; when a match ends, the match result.

The machine honours what the adapter declares (PROTOCOL.md): its ruleset (a profile, or rules
by value), ``legal-actions`` and ``rejection-codes`` (compared only when declared),
``melding.automatic`` / ``layoff.automatic`` (the reference plays those showdown steps with best
play, SHOWDOWN.BEST-PLAY, and the steps are not sent) and ``deal.engine`` (the adapter's deal is
read, checked against DEAL.* and then played).

A difference has a stable ID (``live.result.points.gin``, ``live.verdict.discard.knock.refused``,
…). IDs listed in an expect-fail file are counted and played past (a refused step ends that
game); any other is a failure, shrunk by Hypothesis and written as an ordinary case file naming
its clause. ``ginspec conform --live`` runs the machine (:func:`run_live`); ``pytest
--ginspec-adapter`` runs it as a stateful test. With ``--players 3`` or ``4`` the table game's
machine (:mod:`.stateful_table`) runs instead, sharing :class:`Lockstep` and everything here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import random
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Final, TextIO

from ginspec.conformance.adapters.base import Adapter, AdapterFault, Hello, Unsupported
from ginspec.conformance.adapters.reference_game import (
    best_showdown_steps,
    hand_result,
    legal_texts,
    match_result,
    observation,
)
from ginspec.conformance.cases import Case
from ginspec.conformance.compare import causal_order, check_result, check_verdict
from ginspec.conformance.engine_deal import read_engine_deal
from ginspec.conformance.generate.games import DEAL_CLAUSES, known
from ginspec.conformance.generate.playouts import (
    action_clause,
    actor,
    engine_player,
    probes,
    rejection_of,
)
from ginspec.conformance.generate.table import BASE_CLAUSES as TABLE_BASE
from ginspec.conformance.mismatch import Mismatch
from ginspec.conformance.runner import phase_clauses
from ginspec.conformance.stateful_core import (
    BEFORE_SHOWDOWN,
    COMPARED,
    GAME_SEED,
    GIN_STYLE,
    HAND_STEPS,
    MATCH_CLAUSES,
    MATCH_DEALS,
    MATCH_OF,
    MATCH_STEPS,
    MAX_NEW,
    MAX_ROUNDS,
    MIN_EXAMPLES,
    NEXT_HAND,
    PICK,
    PROBE_EVERY,
    ROUND_EXAMPLES,
    SCORE_CLAUSES,
    SEEDS,
    SENSIBLE_OF,
    SHRINK_SECONDS,
    STEPS_PER_HAND,
    STYLE,
    WALL_STYLE,
    Divergence,
    LiveRun,
    LiveStats,
    Lockstep,
    Trace,
    _can,
    _sensible_pick,
    _verb,
    cause_text,
)
from ginspec.conformance.stateful_table import TableMachine
from ginspec.reference.game import Deal, HandState, format_action
from ginspec.reference.game.match import MatchState, hand_seed
from ginspec.reference.game.state import CHANCE
from ginspec.reference.game.strategies import GreedyStrategy
from ginspec.reference.melds import min_deadwood
from ginspec.spec.cards import NUM_CARDS, card_str, card_value, cards_of, parse_cards
from ginspec.spec.clauses import registry
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import Ruleset
from hypothesis import HealthCheck, Verbosity, reject, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

__all__ = [
    "Divergence", "LiveMachine", "LiveRun", "LiveStats", "Lockstep", "TableMachine", "Trace",
    "case_id", "case_of", "cause_lines", "live_settings", "machine_for", "play_live", "read_engine_deal", "run_live",
    "write_case",
]
"""The live mode's public names (the shared ones are defined in :mod:`.stateful_core`)."""


def _playing(self: LiveMachine) -> bool:
    return self.playing and self.state.to_move not in (None, CHANCE)


class LiveMachine(Lockstep):
    """Plays ``run.adapter`` against the reference (build one with :func:`machine_for`)."""

    greedy: ClassVar[GreedyStrategy] = GreedyStrategy()

    def __init__(self) -> None:
        super().__init__()
        self.hand: HandState | None = None
        self.match: MatchState | None = None
        self.deals: list[Deal] = []
        self.sent: list[tuple[int | str, str]] = []
        self.compared: int = -1
        self.hand_starts: list[int] = [0]
        """Where each hand of a match begins in the trace's steps."""
        self.ended: HandState | None = None
        """The hand the last step ended (compared and counted by the invariant)."""
        self._legal: tuple[HandState, list[str], dict[str, list[str]]] | None = None
        self._greedy: tuple[HandState, str] | None = None
        self.to_the_wall = False
        self.games = 0
        """Games started in this example."""
        self.deal_seed = 0
        """The seed this game's deal was sent with (an engine that deals itself shuffles by it)."""
        self.style = 0
        """This hand never knocks by choice: the stock runs down to the wall (WALL.*)."""

    # --- the reference side ------------------------------------------------------------------

    @property
    def state(self) -> HandState:
        if self.match is not None:
            return self.match.hand
        assert self.hand is not None
        return self.hand

    def _index(self) -> tuple[HandState, list[str], dict[str, list[str]]]:
        state = self.state
        if self._legal is None or self._legal[0] is not state:
            legal = [] if state.is_over else legal_texts(state)
            by_verb: dict[str, list[str]] = {}
            for text in legal:
                if self.shared is None or self.shared[0] is not state or text in self.shared[1]:
                    by_verb.setdefault(_verb(text), []).append(text)
            if self.to_the_wall and "discard" in by_verb:
                by_verb.pop("knock", None)
            elif self.style == GIN_STYLE and "discard" in by_verb and "knock" in by_verb:
                gins = [a for a in by_verb["knock"] if self._gin_after(state, a)]
                if gins:
                    by_verb["knock"] = gins
                else:
                    by_verb.pop("knock")
            self._legal = (state, legal, by_verb)
        return self._legal

    @staticmethod
    def _gin_after(state: HandState, action: str) -> bool:
        assert state.to_move is not None
        card = parse_cards(action.split()[1])[0]
        return min_deadwood(state.hands[state.to_move] & ~(1 << card),
                            state.rules.meld_rules) == 0

    def legal(self) -> list[str]:
        """The reference's legal actions now (canonical strings)."""
        return self._index()[1]

    def options(self, verb: str) -> list[str]:
        """The legal actions of one verb this game may play (the actions both sides allow,
        after a known difference in legal actions; no voluntary knock in a game to the wall)."""
        return self._index()[2].get(verb, []) if self.playing else []

    # --- starting a game ---------------------------------------------------------------------

    @initialize(seed=SEEDS, dealer=st.integers(0, 1), style=STYLE, match=st.integers(0, 255))
    def first_game(self, seed: int, dealer: int, style: int, match: int) -> None:
        self._start(seed, dealer, style, match)

    @precondition(lambda self: not self.playing)
    @rule(seed=SEEDS, dealer=st.integers(0, 1), style=STYLE, match=st.integers(0, 255))
    def next_game(self, seed: int, dealer: int, style: int, match: int) -> None:
        """Start a hand, or (when the adapter declares ``match``) a whole match to its
        target; the first hand of a match is dealt as the hand of the same seed."""
        self._start(seed, dealer, style, match)

    def _start(self, seed: int, dealer: int, style: int, match: int) -> None:
        run = self.run
        matches = match % MATCH_OF != MATCH_OF - 1 and run.matches
        seed, self.games = (seed + self.games * GAME_SEED) % 2**32, self.games + 1
        rules, profile, overrides = run.game_rules, run.rules.name, run.rules.overrides
        self.seen, self.ignored, self.shared, self.sent = set(), set(), None, []
        self.causes_seen = set()
        self.hand_starts = [0]
        self.style, self._legal = style, None
        self.to_the_wall = style == WALL_STYLE
        self.ended = None
        self.trace = Trace("match" if matches else "hand", seed, [])
        self.deal_seed = seed
        count = MATCH_DEALS if matches else 1
        self.deals = [replace(_seeded(seed, k), dealer=dealer) for k in range(count)]
        try:
            if run.deal_engine:
                opening = "new_match" if matches else "new_hand"
                # the seed lets an engine deal the same again when Hypothesis replays a game
                given: Any = {"dealer": dealer, "seed": seed}
                given = [given] if matches else given
                self._call(opening, profile, overrides, given)
                self.deals = [self._engine_deal(dealer)]
            elif matches:
                self._call("new_match", profile, overrides, [_deal_json(d) for d in self.deals])
            else:
                self._call("new_hand", profile, overrides, _deal_json(self.deals[0]))
        except Unsupported:
            if run.counting:
                run.stats.declined += 1
            reject()
        self.trace.deals = [_deal_json(self.deals[0])]
        if run.deal_engine:
            # the engine's deck, and the seed it dealt it (and a match's later hands) from: the
            # case deals it again
            self.trace.deals[0]["seed"] = seed
        if matches:
            self.match, self.hand = MatchState.new(rules, deal=self.deals[0]), None
        else:
            self.match, self.hand = None, HandState.new(self.deals[0], rules)
        self.playing = True
        self.compared = -1

    def _engine_deal(self, dealer: int) -> Deal:
        """The deal the adapter made (deal.engine), checked against the deal clauses."""
        data = self._call("dealt")
        first = not self.trace.steps
        deal, clause, message = read_engine_deal(data, dealer, self.run.game_rules.eleven_card_start,
                                                 first=first)
        if deal is None:
            if first:
                # the first deal of a hand or of a match: the case is a hand or a match dealt by
                # the engine from the same seed (the engine deals the first hand of a match on
                # its own path), which the runner checks again; it records the deal reported
                self.trace = Trace(self.trace.kind, self.deal_seed,
                                   [{"dealer": dealer, "seed": self.deal_seed}],
                                   dealt=json.dumps(data, separators=(",", ":")))
            else:
                # a later hand of a match: the case plays the hands before it, the engine
                # dealing them again from the seed, and asks for this deal after the same step
                self.trace.deals = [*self._engine_trace_deals(),
                                    {"dealer": dealer, "seed": self.deal_seed,
                                     "after": len(self.trace.steps)}]
                self.trace.dealt = json.dumps(data, separators=(",", ":"))
            self.trace.checkpoint = {"after": len(self.trace.steps), "clause": clause}
            self._diverge(f"live.deal.{clause}", message, clause, fatal=True)
            reject()  # an expected bad deal: nothing to play
        assert deal is not None
        return deal

    def _engine_trace_deals(self) -> list[dict[str, Any]]:
        """The decks an engine that deals itself has dealt in this match so far, as a case gives
        them: the first with the seed it was sent, each later one with the number of steps
        played before it was dealt (the runner asks that engine for it there)."""
        out = [_deal_json(d) for d in self.deals]
        out[0]["seed"] = self.deal_seed
        for k, deal in enumerate(out[1:], 1):
            deal["after"] = self.hand_starts[k]
        return out

    # --- the decisions -----------------------------------------------------------------------

    @precondition(_can("take-discard"))
    @rule(pick=PICK)
    def take_discard(self, pick: int) -> None:
        """Take the discard (TURN.DRAW, WALL.LAST-CHANCE); sensible play takes it only when
        the greedy player would, and draws from the stock (or passes) otherwise."""
        self._take("take-discard", _sensible_pick(pick))

    @precondition(_can("take-upcard"))
    @rule(pick=PICK)
    def take_upcard(self, pick: int) -> None:
        """Take the upcard (FIRST.UPCARD-OFFER); sensible play as for the discard."""
        self._take("take-upcard", _sensible_pick(pick))

    def _take(self, verb: str, sensible: bool) -> None:
        if sensible:
            choice = self._greedy_choice()
            if choice in self.options(_verb(choice)):
                verb = choice
        self._play(verb)

    @precondition(_can("pass"))
    @rule()
    def pass_(self) -> None:
        self._play("pass")

    @precondition(_can("big-gin"))
    @rule()
    def big_gin(self) -> None:
        self._play("big-gin")


    @precondition(lambda self: self.playing and self.state.to_move == CHANCE)
    @rule()
    def reshuffle(self) -> None:
        state = self.state
        self._play(format_action(state.chance_action(), state.rules.meld_rules))

    @precondition(_playing)
    @rule()
    def strategy(self) -> None:
        """The built-in greedy player's move (reference/game/strategies.py)."""
        action = self._greedy_choice()
        options = self.options(_verb(action))
        if action not in options:
            allowed = self._index()[2]
            options = allowed.get("discard") or [a for v in allowed.values() for a in v]
            if not options:
                return
            action = self._sensible("discard", options) if "discard" in allowed else options[0]
        self._play(action)

    @precondition(lambda self: self.playing and self.run.refuses
                  and len(self.trace.steps) % PROBE_EVERY == 0)
    @rule(pick=PICK)
    def illegal(self, pick: int) -> None:
        """An action the reference refuses: the adapter must refuse it the same way and
        change nothing (ACTION.REJECTION)."""
        state = self.state
        tries = list(probes(state))
        for k in range(len(tries)):
            player, action = tries[(pick + k) % len(tries)]
            if rejection_of(state, player, action) is not None:
                self._play(action, player)
                return

    # --- playing one step --------------------------------------------------------------------

    def _choose(self, verb: str, pick: int, also: tuple[str, ...] = ()) -> None:
        """``pick`` is one draw for two choices: sensible play unless ``pick % 4 == 3``, else
        the option ``pick // 4`` (one draw a step keeps whole matches inside an example)."""
        options = self.options(verb) + [a for v in also for a in self.options(v)]
        if not options:
            return
        self._play(self._sensible(verb, options) if _sensible_pick(pick)
                   else options[(pick // SENSIBLE_OF) % len(options)])

    def _sensible(self, verb: str, options: list[str]) -> str:
        state = self.state
        if verb in ("discard", "knock") and state.to_move is not None:
            hand = state.hands[state.to_move]
            meld_rules = state.rules.meld_rules

            def after(action: str) -> tuple[int, int, str]:
                card = parse_cards(action.split()[1])[0]
                return (min_deadwood(hand & ~(1 << card), meld_rules), -card_value(card), action)
            return min(options, key=after)
        choice = self._greedy_choice()
        return choice if choice in options else options[0]

    def _greedy_choice(self) -> str:
        """The built-in greedy player's move in this position (computed once per position)."""
        state = self.state
        if self._greedy is None or self._greedy[0] is not state:
            action = self.greedy.choose(state, random.Random(0))
            self._greedy = (state, format_action(action, state.rules.meld_rules))
        return self._greedy[1]

    def _play(self, action: str, player: int | str | None = None) -> None:
        run = self.run
        state = self.state
        who = actor(state) if player is None else player
        rejection = rejection_of(state, who, action)
        expect: Any = "accepted" if rejection is None else {"rejected": rejection.code.value}
        clause = rejection.clause if rejection is not None else action_clause(state, action)
        ends = False
        if rejection is None:
            ends = self._advance(who, action)
            self.ended = self.state if ends else None
            if ends and self._match_goes_on() and not run.deal_engine:
                self._fix_next_dealer()
            if ends and self.match is not None and not run.deal_engine:
                # the case carries the next deal too: the engine deals it when the hand ends
                # (a wrong dealer refuses the step, a match played past its target goes on)
                self.trace.deals = [_deal_json(d) for d in
                                    self.deals[:len(self.match.results) + 1]]
        verdict, bad = self._send(who, action, expect, clause)
        if bad is not None:
            if ends and self._match_goes_on():
                # the engine named another dealer: if a hand scored differently, that is the
                # difference (replayed hand by hand); else the dealer rule itself
                if self._localize():
                    self.playing = False
                    return
                clause = "MATCH.NEXT-DEALER" if self.match and self.match.results[-1].winner \
                    is not None else "WALL.REDEAL"
                self.trace.steps[-1]["clause"] = clause
            elif rejection is None and verdict.code == "WRONG_DEALER" and state.knocker is None \
                    and _verb(action) not in ("knock", "big-gin"):
                # the engine judged the next deal, so it ended the hand here where the reference
                # plays on: without a knock, that is the wall (WALL.END)
                clause = "WALL.END"
                self.trace.steps[-1]["clause"] = clause
                point = {k: v for k, v in observation(self.state).items() if k in COMPARED}
                self.trace.checkpoint = {"after": len(self.trace.steps), **point,
                                         "clause": clause}
            outcome = "refused" if rejection is None else \
                ("accepted" if verdict.accepted else "code")
            self._diverge(f"live.verdict.{state.phase.value}.{_verb(action)}.{outcome}",
                          f"step {len(self.trace.steps) - 1} {action!r} by {who}: {bad}", clause,
                          fatal=True)
            return
        if rejection is None:
            self.sent.append((who, action))
        if ends and self._match_goes_on():
            assert self.match is not None
            k = len(self.match.results)
            if run.deal_engine:
                self.deals.append(self._engine_deal(self.match.expected_dealer()))
            self.match = self.match.next_hand(self.deals[k])
            self.hand_starts.append(len(self.trace.steps))
            self.style, self.to_the_wall = (self.style + k) % WALL_STYLE, False
            if run.deal_engine:
                self.trace.deals = self._engine_trace_deals()

    def _advance(self, player: int | str, action: str) -> bool:
        """Apply an accepted action to the reference, then the showdown steps the adapter plays
        itself; True when the action ended a hand."""
        run = self.run
        steps = [(player, action)]
        while steps:
            who, text = steps.pop(0)
            if self.match is not None:
                self.match = self.match.apply(text, engine_player(who))
            else:
                assert self.hand is not None
                self.hand = self.hand.apply(text, engine_player(who))
            if not steps and (run.melding or run.layoffs):
                steps = list(best_showdown_steps(self.state, melding=run.melding,
                                                 layoffs=run.layoffs, spread=run.spread))
        return self.state.is_over

    def _match_goes_on(self) -> bool:
        return self.match is not None and self.match.hand_over and not self.match.is_over

    def _fix_next_dealer(self) -> None:
        """The next deck goes to the dealer the rules name; if ``new_match`` named another,
        start the adapter's match again with the right one and replay what it accepted."""
        assert self.match is not None
        k = len(self.match.results)
        if k >= len(self.deals):
            self.playing = False  # more hands than decks sent: end the example here
            reject()
        dealer = self.match.expected_dealer()
        if self.deals[k].dealer == dealer:
            return
        self.deals[k] = replace(self.deals[k], dealer=dealer)
        run = self.run
        self._call("new_match", run.rules.name, run.rules.overrides,
                   [_deal_json(d) for d in self.deals])
        for who, text in self.sent:
            if not self._call("apply", who, text).accepted:
                self._diverge("live.replay", f"{text!r} by {who} refused when replayed",
                              "ACTION.PHASE", fatal=True)
                return

    # --- comparing ---------------------------------------------------------------------------

    @invariant()
    def observation_and_legal_actions_agree(self) -> None:
        """After every step: the observation's fields and the set of legal actions."""
        if not self.playing or self.compared == len(self.trace.steps):
            return
        self.compared = len(self.trace.steps)
        state = self.state

        def hands(actual: Mapping[str, Any], point: dict[str, Any]) -> None:
            if "hands" in actual and "hands" not in self.ignored and \
                    state.phase in BEFORE_SHOWDOWN:
                # an adapter that shows the hands (the peers) is compared on them before the
                # showdown, where both sides' hands are plain sets of cards
                point["hands"] = [[card_str(c) for c in cards_of(h)] for h in state.hands]
        bad, actual = self._checkpoint(observation(state), None if state.is_over or
                                       not self.run.legal else self.legal(), hands)
        if bad is not None:
            self._observation_differs(bad, actual)
        ended, self.ended = self.ended, None
        if ended is not None and self.playing:
            self._finish(ended)

    def _action_clause(self, action: str) -> str:
        return action_clause(self.state, action)

    def _observation_differs(self, bad: Mismatch, actual: Mapping[str, Any]) -> None:

        state = self.state
        name = bad.field
        if name == "phase" and self.match is not None and "over" in (bad.expected, bad.actual) \
                and self._localize():
            self.playing = False  # a hand scored differently, so the match ended elsewhere
            return
        if name == "phase":
            clause = self._phase_clause(state, bad.expected, bad.actual)
        elif self.trace.steps:
            clause = str(self.trace.steps[-1]["clause"])
        else:
            clause = "DEAL.HANDS"
        self.trace.checkpoint["clause"] = clause
        ident = f"live.observation.{name}.{state.phase.value}"
        self._diverge(ident, f"after step {len(self.trace.steps)}: {bad}", clause,
                      fatal=name in ("phase", "to_act"))
        self.ignored.add(name)

    def _phase_clause(self, state: HandState, expected: Any, actual: Any) -> str:
        """The clause that decides which phase is right: the end of a match (MATCH.TARGET), the
        end of a hand at the wall (WALL.END), else the clause of the phase that is not an
        ordinary turn (a wall, a showdown: runner.PHASE_CLAUSES)."""

        if "over" in (expected, actual):
            if self.match is not None and (self.match.is_over or actual == "over"):
                return "MATCH.TARGET"
            result = state.result
            if state.knocker is None and (result is None or result.knocker is None):
                return "WALL.END"
        if self.match is not None and (expected in NEXT_HAND) != (actual in NEXT_HAND):
            # inside a match one side has gone on to the next hand and the other has not: the
            # hand ended on one side only; at the wall (no knock) WALL.END decides
            ended = self.match.results[-1] if expected in NEXT_HAND and self.match.results \
                else None
            if (ended.knocker is None) if ended is not None else state.knocker is None:
                return "WALL.END"
        ordinary = phase_clauses("draw", "discard")
        found = phase_clauses(expected, actual)
        return next((c for c in found if c not in ordinary), found[0] if found
                    else "ACTION.PHASE")

    def _finish(self, state: HandState) -> None:
        """A hand ended (``state``): compare its result (or, when the match ended, the match
        result), then count it."""
        run = self.run
        if self.match is None:
            expected = hand_result(state)
            assert expected is not None
            self._compare_result(expected, SCORE_CLAUSES.get(str(expected["outcome"]),
                                                              "ACTION.PHASE"), "result")
        if run.counting:
            run.stats.hands += 1
            outcome = state.result.outcome.value if state.result is not None else "?"
            run.stats.outcomes[outcome] += 1
            run.stats.showdowns += outcome != "void"
        if self.match is not None and self.match.is_over:
            expected = match_result(self.match)
            assert expected is not None
            self._compare_result(expected, "MATCH.TARGET", "match")
            if run.counting:
                run.stats.matches += 1
        if self.match is None or self.match.is_over:
            self.playing = False

    def _compare_result(self, expected: dict[str, Any], clause: str, what: str) -> None:
        """Each field of the result. The first field that differs, in the order the fields
        follow from one another (RESULT_ORDER: deadwood before the outcome it decides, the
        outcome before its points), is the divergence and its cause; the fields after it are
        its follow-ons, named in its message and not divergences of their own."""
        actual = self._call("result")
        self.trace.result = expected
        outcome = str(expected.get("outcome"))
        found = {name: bad for name, want in expected.items()
                 if (bad := check_result({name: want}, actual)) is not None}
        if found and what == "match" and self._localize():
            return  # a hand of the match scored differently: that difference explains it
        differ = causal_order(list(found))
        if not differ:
            return
        name = differ[0]
        where = f"live.result.{name}.{outcome}" if what == "result" else f"live.match.{name}"
        blame = self._result_clause(name, clause)
        if not self.run.reported(where, blame):
            self.trace.blame = {f"blame.{name}": blame}
            self.trace.result = {name: expected[name]}
        self._diverge(where, f"{what}: " + "; ".join(str(found[n]) for n in differ), blame,
                      fatal=False)

    def _localize(self) -> bool:
        """A match result differs: replay each of its hands as a single hand and compare the
        hand results, so the difference is blamed on the hand and the scoring clause that
        caused it. True when a hand differs in a way already expected (the match's own
        difference is then explained); a new hand difference is raised."""
        assert self.match is not None
        run, match = self.run, self.match
        bounds = [*self.hand_starts, len(self.trace.steps)]
        for k, result in enumerate(match.results):
            steps = self.trace.steps[bounds[k]:bounds[k + 1]]
            deal = _deal_json(self.deals[k])
            try:
                self._call("new_hand", run.rules.name, run.rules.overrides, deal)
            except Unsupported:
                return False
            for step in steps:
                verdict = self._call("apply", step["player"], step["action"])
                if check_verdict(step["expect"], verdict.accepted, verdict.code,
                                 run.codes) is not None:
                    return False
            expected = result.to_json()
            actual = self._call("result")
            differ = causal_order([name for name, want in expected.items()
                                   if check_result({name: want}, actual) is not None])
            if not differ:
                continue
            name = differ[0]
            ident = f"live.result.{name}.{expected['outcome']}"
            self.match, self.hand = None, None
            hand = HandState.new(self.deals[k], run.game_rules)
            for step in steps:
                if step["expect"] == "accepted":
                    hand = self._hand_after(hand, step)
            self.hand = hand
            blame = self._result_clause(name, SCORE_CLAUSES.get(str(expected["outcome"]),
                                                                 "ACTION.PHASE"))
            if run.reported(ident, blame):
                self.match, self.hand = match, None
                self._diverge(ident, "", blame, fatal=False)
                return True
            self.trace = Trace("hand", self.trace.seed, [deal], [dict(x) for x in steps],
                               {"after": len(steps)}, {name: expected[name]},
                               {f"blame.{name}": blame})
            self._diverge(ident, f"hand {k + 1} of the match: result: "
                          + "; ".join(f"{n}: expected {expected[n]!r}, got "
                                      f"{(actual or {}).get(n)!r}" for n in differ), blame,
                          fatal=False)
        return False

    def _hand_after(self, hand: HandState, step: Mapping[str, Any]) -> HandState:
        """``hand`` after one accepted step and the showdown steps the adapter plays itself."""
        run = self.run
        hand = hand.apply(str(step["action"]), engine_player(step["player"]))
        for who, text in best_showdown_steps(hand, melding=run.melding, layoffs=run.layoffs,
                                             spread=run.spread) \
                if run.melding or run.layoffs else ():
            hand = hand.apply(text, who)
        return hand

    def _result_clause(self, name: str, scored: str) -> str:
        if self.match is not None:
            return MATCH_CLAUSES.get(name, "MATCH.TARGET")
        result = self.state.result
        if name == "deadwood":
            if self.run.spread:  # the spread was the engine's to take, the layoffs its own
                return "LAYOFF.TARGET"
            return "SHOWDOWN.DEFENDER-SPREAD" if self.run.layoffs else "DEADWOOD.MINIMUM"
        if name == "boxes":
            return "MATCH.BOX"
        if name == "knocker":
            return "KNOCK.ELIGIBLE"
        if result is None or result.knocker is None:
            return scored
        k = result.knocker
        if result.outcome.value in ("knock", "undercut", "tie") and \
                result.deadwood[k] == result.deadwood[1 - k]:
            return "SCORE.TIE"
        trail = [c for c in result.score.clauses if c.startswith(("SCORE.", "OKLAHOMA."))]
        return trail[0] if trail else scored

def _seeded(seed: int, k: int) -> Deal:
    deck = list(range(NUM_CARDS))
    random.Random(seed if k == 0 else hand_seed(seed, k)).shuffle(deck)
    return Deal(tuple(deck), 0)


def _deal_json(deal: Deal) -> dict[str, Any]:
    return {"dealer": deal.dealer, "deck": deal.tokens()}


def machine_for(run: LiveRun) -> type[Lockstep]:
    """A :class:`LiveMachine` subclass bound to ``run`` (one class per run); the table game's
    machine when ``run.players`` is set."""
    base: type[Lockstep] = TableMachine if run.players is not None else LiveMachine
    return type(f"{base.__name__}_{run.hello.name.replace('-', '_')}", (base,), {"run": run})


def live_settings(run: LiveRun, *, max_examples: int, steps: int | None = None,
                  parent: settings | None = None) -> settings:
    """Settings for one round of a live run (no database: a CLI run is reproduced by its
    seed). With ``parent`` (the user's Hypothesis profile, under pytest) only the step count,
    the deadline and the health checks are set: examples, database and phases stay the user's."""
    most = MATCH_STEPS if run.matches else HAND_STEPS
    if parent is not None:
        return settings(parent, deadline=None, suppress_health_check=list(HealthCheck),
                        stateful_step_count=max(parent.stateful_step_count, most))
    return settings(max_examples=max_examples, deadline=None, database=None,
                    stateful_step_count=min(most, steps or most),
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                    phases=[HPhase.generate, HPhase.shrink], derandomize=False,
                    verbosity=Verbosity.quiet)


@contextlib.contextmanager
def _shrink_budget(seconds: float) -> Iterator[None]:
    """Bound Hypothesis's shrinking time (its own bound is five minutes)."""
    from hypothesis.internal.conjecture import engine

    saved = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = int(seconds)
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = saved


# --- the case a divergence becomes -------------------------------------------------------------

ID_LENGTH: Final = 120
"""The longest case ID the case format allows (case.schema.json, ``case_id``)."""


def case_id(name: str) -> str:
    """``name`` as a case ID the loader accepts (case.schema.json: lower-case letters, digits,
    dots and hyphens, at most 120 characters): lower-cased, every other run of characters a
    hyphen (``DEAL.SHUFFLE`` becomes ``deal.shuffle``, ``big_gin`` ``big-gin``); a longer name is
    cut and ends in eight hex digits of its hash, so two long names stay apart."""
    ident = re.sub(r"[^a-z0-9.-]+", "-", name.lower()).lstrip(".-") or "live"
    if len(ident) > ID_LENGTH:
        digest = hashlib.sha256(ident.encode()).hexdigest()[:8]
        ident = f"{ident[:ID_LENGTH - 9].rstrip('.-')}.{digest}"
    return ident


def case_of(run: LiveRun, divergence: Divergence, trace: Trace) -> Case:
    """The shrunk game as an ordinary case file (origin ``generated``), blaming its clause: a
    hand, a match or a table hand, or (a table game's accounting) the query it was asked as."""
    table = run.players is not None
    tail = divergence.ident.removeprefix("live.")
    name = f"live.{run.rules.name}.{f'p{run.players}.' if table else ''}{tail}.s{trace.seed}"
    clause = divergence.clause if divergence.clause in registry() else None
    source: dict[str, Any] = {"generator": "ginspec conform --live", "seed": trace.seed,
                              "divergence": divergence.ident, **trace.blame}
    if trace.dealt is not None:
        source["dealt"] = trace.dealt  # the deal the engine reported, as JSON text
    about = f"live divergence against {run.hello.name} {run.hello.version}: {divergence.message}"
    if trace.query is not None:
        assert trace.result is not None
        return Case.make(id=case_id(name), kind="query", origin="generated", description=about,
                         clauses=known([divergence.clause]), decides=[clause] if clause else [],
                         profile=run.rules.name, overrides=run.rules.overrides,
                         requires=[f"query.{trace.query['what']}"], source=source,
                         query=trace.query, expect=trace.result)
    steps = [{k: v for k, v in s.items() if k != "clause" or v in registry()}
             for s in trace.steps]
    point = {k: v for k, v in trace.checkpoint.items() if k != "clause" or v in registry()}
    point["after"] = min(int(point.get("after", len(steps))), len(steps))
    verbs = {_verb(str(s["action"])) for s in steps if s["expect"] == "accepted"}
    requires = [f"table-game.{run.players}" if table else trace.kind]
    if any("deck" not in d for d in trace.deals):
        requires.append("deal.engine")  # a deal the engine made and no deck holds
    if "legal_actions" in point:
        requires.append("legal-actions")
    if divergence.ident.endswith(".code"):
        requires.append("rejection-codes")
    if verbs & {"declare", "meld"}:
        requires.append("melding.explicit")
    if verbs & {"layoff", "done"}:
        requires.append("layoff.explicit")
    went_out = bool(verbs & {"knock", "big-gin"})
    if run.melding and went_out:
        requires.append("melding.automatic")
    if run.layoffs and went_out:
        requires.append("layoff.automatic")
        if run.spread and "meld" in verbs:
            requires.append("spread.explicit")
    fields: dict[str, Any] = {}
    if divergence.ident.startswith(("live.result.", "live.match.")) and trace.result is not None:
        fields["result"] = trace.result
    return Case.make(
        id=case_id(f"{name}.n{len(steps)}"), kind=trace.kind, origin="generated", description=about,
        clauses=known([*(TABLE_BASE if table else DEAL_CLAUSES),
                       *(str(s.get("clause", "")) for s in steps),
                       divergence.clause]) or ["ACTION.PHASE"],
        violates=known(str(s.get("clause", "")) for s in steps if s["expect"] != "accepted"),
        decides=[clause] if clause else [],
        profile=run.rules.name, overrides=run.rules.overrides, requires=requires,
        source=source, deals=trace.deals, steps=steps,
        checkpoints=[point] if len(point) > 1 else [], **fields,
    )


def write_case(case: Case, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{case.id}.json"
    path.write_text(case.to_json(), encoding="utf-8")
    json.loads(path.read_text(encoding="utf-8"))
    return path


# --- ginspec conform --live --------------------------------------------------------------------

def play_live(run: LiveRun, *, seed: int, examples: int = ROUND_EXAMPLES,
              shrink_seconds: float = SHRINK_SECONDS, max_new: int = MAX_NEW
              ) -> list[tuple[Divergence, Trace]]:
    """Play rounds of ``examples`` Hypothesis examples (round ``r`` seeded ``seed + r``) until
    ``run.hands`` hands are played; each new divergence is shrunk, recorded in ``run.found``
    and played past in the rounds after."""
    new: list[tuple[Divergence, Trace]] = []
    start = time.perf_counter()
    wanted = run.hands if run.hands is not None else examples
    for round_number in range(MAX_ROUNDS):
        if run.stats.hands >= wanted or len(new) >= max_new:
            break
        machine = machine_for(run)
        machine._hypothesis_internal_use_seed = seed + round_number
        run.failing, run.failure = False, None
        played = run.stats.hands
        left = wanted - played
        # a round holds about the hands still wanted, so that --hands N plays about N hands
        # (a whole example more at most: the machine cannot stop an example early)
        most = MATCH_STEPS if run.matches else HAND_STEPS
        count = min(examples, max(min(MIN_EXAMPLES, -(-left // 2)),
                                  -(-left * STEPS_PER_HAND // most)))
        steps = min(most, max(2 * STEPS_PER_HAND, -(-STEPS_PER_HAND * (left + 1) // count)))
        try:
            with _shrink_budget(shrink_seconds):
                run_state_machine_as_test(machine, settings=live_settings(
                    run, max_examples=count, steps=steps))
        except Unsatisfiable:
            break  # no game could be played (each deal declined, or dealt wrong as expected)
        except Divergence as divergence:
            trace = run.failure[1] if run.failure is not None else Trace("hand", 0, [])
            new.append((divergence, trace))
            run.record(divergence)
        if run.stats.hands == played and not new:
            break  # nothing was played (every deal declined): stop rather than spin
    run.failing = False
    run.stats.seconds_total += time.perf_counter() - start
    return new


def cause_lines(run: LiveRun, new: list[Divergence]) -> list[str]:
    """One summary line per cause of the new divergences (its clause and kind of field, the ID
    it was reported as, the games after that in which it showed again, played past, and the
    other IDs it showed under there)."""
    lines = []
    for divergence in new:
        cause = divergence.cause
        again = run.stats.again.get(cause, 0)
        also = sorted(run.also.get(cause, set()) - {divergence.ident})
        lines.append(f"cause {cause_text(cause)}: reported as {divergence.ident}"
                     + (f"; showed again in {again} later game(s), played past" if again else "")
                     + (f" (also as {', '.join(also)})" if also else ""))
    return lines


def run_live(adapter: Adapter, hello: Hello, rules: Ruleset, *, seed: int, hands: int,
             out: Path, stdout: TextIO, expect_fail: Mapping[str, str] | None = None,
             max_examples: int | None = None, max_new: int | None = None,
             players: int | None = None) -> int:
    """``ginspec conform --live``: 0 no new divergence, 1 new divergences (cases written, at
    most ``max_new``), 2 adapter faults. ``players`` 3 or 4: the table game."""
    if hands < 1:
        raise GinspecError("--hands: must be at least 1")
    run = LiveRun(adapter, hello, rules, hands=hands, expect_fail=dict(expect_fail or {}),
                  players=players)
    try:
        new = play_live(run, seed=seed, examples=max_examples or ROUND_EXAMPLES,
                        max_new=max_new or MAX_NEW)
    except AdapterFault as fault:
        print(f"adapter error: {fault.kind}: {fault}", file=stdout)
        return 2
    except Unsupported as exc:
        print(f"adapter error: protocol: declined after the opening request: {exc}", file=stdout)
        return 2
    s = run.stats
    name = rules.name + (f" with {rules.overrides}" if rules.overrides else "") + \
        (f" at {players} seats" if players else "")
    whole = "game(s) to the penalty limit" if players else "match(es) to the target"
    rate = f"{100 * s.showdowns / s.hands:.0f} %" if s.hands else "-"
    verdict = f"{len(new)} new divergence(s)" if new else "no divergence"
    print(f"{verdict} in {s.hands} hand(s) of {name} from seed {seed}: {s.showdowns} "
          f"showdown(s) ({rate}), {s.matches} {whole}, {s.steps} step(s)"
          + (f" ({s.declined} deal(s) declined by the adapter and replaced)" if s.declined
             else ""), file=stdout)
    if s.outcomes:
        print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(s.outcomes.items())),
              file=stdout)
    for ident, count in sorted(s.known.items()):
        reason = run.expect_fail.get(ident, "")
        print(f"  expected divergence {ident}: {count} game(s)" + (f" # {reason}" if reason
                                                                     else ""), file=stdout)
    for line in cause_lines(run, [d for d, _ in new]):
        print(line, file=stdout)
    for divergence, trace in new:
        path = write_case(case_of(run, divergence, trace), out)
        print(f"divergence {divergence.ident} ({divergence.clause}): {divergence.message}",
              file=stdout)
        print(f"  minimal case ({len(trace.steps)} steps) written to {path}", file=stdout)
        print(f"  reproduce: ginspec conform --adapter ... --suite {path}", file=stdout)
    share = 1 - s.seconds_adapter / s.seconds_total if s.seconds_total else math.nan
    print(f"  time {s.seconds_total:.1f} s: adapter {s.seconds_adapter:.1f} s, ginspec "
          f"{s.seconds_total - s.seconds_adapter:.1f} s ({share:.0%})", file=stdout)
    return 1 if new else 0

"""The live differential machine for seed 001's table game of three or four players (chapter 14).

:class:`TableMachine` is the table's :class:`~ginspec.conformance.stateful.LiveMachine`: a
Hypothesis ``RuleBasedStateMachine`` that plays an adapter declaring ``table-game.N`` and the
reference's table engine (:mod:`ginspec.reference.table`) in lockstep. Its rules are the table's
decisions — draw from the stock, take the discard, discard, knock, declare, meld, lay off, done
(TABLE.TURN, TABLE.KNOCK, TABLE.SHOWDOWN) — each enabled when the reference's legal actions hold
one, plus an action the reference refuses (the adapter must refuse it with the same code,
TABLE.REJECTION, and change nothing) and the built-in greedy table player's move
(reference/table/table_strategies.py), so hands reach knocks, gins and undercuts. After every step the
observation and the legal actions are compared; when a hand ends, its result (outcome, winner,
deadwood and penalties per seat, TABLE.PENALTY); seven games in eight are whole games, hand after
hand with the deal passing left (TABLE.DEALER) until the penalty limit (TABLE.GAME-END), and the
game's totals and the prize split (TABLE.PRIZE) are then asked of the adapter as the queries
``table-game`` and ``prize`` when it declares them (the protocol has no table game session: a
table hand is the unit the adapter plays).

At the wall the adapter reshuffles the pile itself (PROTOCOL.md, "Table hands"): its stock's
order is its own, so a hand is compared up to the reshuffle and not played on (counted as
``reshuffled``); under ``wall_action = void`` the first wall ends the hand and is compared.

Differences, expect-fail lists, shrinking and the case files are the two-player machine's
(:class:`~ginspec.conformance.stateful_core.Lockstep`, :func:`~ginspec.conformance.stateful.case_of`):
a table hand's difference becomes a ``table-hand`` case, a game's accounting a ``query`` case.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Final

from ginspec.conformance.adapters.base import Unsupported
from ginspec.conformance.adapters.reference_table import table_observation
from ginspec.conformance.compare import causal_order, check_query
from ginspec.conformance.generate.table import RESULT_BLAME
from ginspec.conformance.stateful_core import (
    GAME_QUERIES,
    GAME_SEED,
    MATCH_OF,
    PICK,
    PROBE_EVERY,
    SEEDS,
    Lockstep,
    Trace,
    _can,
    _sensible_pick,
    _verb,
)
from ginspec.reference.game import Rejection, parse_action
from ginspec.reference.table import TableDeal, TableState
from ginspec.reference.table.game import TableGame
from ginspec.reference.table.table_strategies import GreedyTableStrategy
from ginspec.spec.cards import card_str
from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule

POOL: Final = 10_000
"""The prize pool a finished game is split of (whole units, as ``ginspec play`` splits it)."""
MAX_HANDS: Final = 40
"""A game of more hands ends the example there (a game to 100 takes some five to ten)."""
VERB_CLAUSE: Final[dict[str, str]] = {
    "draw-stock": "TABLE.TURN", "take-discard": "TABLE.TURN", "discard": "TABLE.TURN",
    "knock": "TABLE.KNOCK", "declare": "TABLE.KNOCK", "meld": "TABLE.SHOWDOWN",
    "layoff": "TABLE.SHOWDOWN", "done": "TABLE.SHOWDOWN",
}
"""The clause that permits each accepted table action (a discard at the wall: TABLE.WALL)."""
def table_probes(state: TableState) -> Iterator[tuple[int, str]]:
    """Candidate actions to try in ``state``, most of them refused, each in its own way: the
    wrong seat, the wrong phase, a card not held, a knock over the limit, a bad spread or
    layoff, any action once the hand is over."""
    n = state.players
    mover = state.to_move if state.to_move is not None else int(state.history[-1][0])
    for who in (mover, (mover + 1) % n):
        yield who, "draw-stock"
        yield who, "take-discard"
        yield who, "done"
        hand = state.hand(who)
        other = state.hand((who + 1) % n)
        for c in hand:
            yield who, f"discard {card_str(c)}"
            yield who, f"knock {card_str(c)}"
        if other:
            yield who, f"discard {card_str(other[0])}"
        if len(hand) >= 3:
            yield who, f"declare {' '.join(card_str(c) for c in hand[:3])}"
            yield who, f"meld {' '.join(card_str(c) for c in hand[:3])}"
        for m in state.table[:1]:
            target = card_str(min(m.original.cards))
            for c in hand[:3] + other[:1]:
                yield who, f"layoff {card_str(c)} to {target}"


def refusal(state: TableState, seat: int, action: str) -> Rejection | None:
    """The reference's refusal of ``action`` by ``seat`` now (None: accepted)."""
    return state.rejection(parse_action(action), seat)


class TableMachine(Lockstep):
    """Plays ``run.adapter``'s table hands against the reference's table engine."""

    greedy: ClassVar[GreedyTableStrategy] = GreedyTableStrategy()

    def __init__(self) -> None:
        super().__init__()
        self.game: TableGame | None = None
        self.whole = False
        self.penalties: list[list[int]] = []
        """The penalties of each hand of this game, as the reference charged them."""
        self.compared = -1
        self.ended: TableState | None = None
        self.reshuffled = False
        self.games = 0

    @property
    def state(self) -> TableState:
        assert self.game is not None
        return self.game.hand

    def options(self, verb: str) -> list[str]:
        """The legal actions of one verb (after a known difference in legal actions: those
        both sides allow)."""
        if not self.playing:
            return []
        state = self.state
        if self._legal is None or self._legal[0] is not state:
            by_verb: dict[str, list[str]] = {}
            for action in state.legal_actions():
                text = str(action)
                if self.shared is None or self.shared[0] is not state or text in self.shared[1]:
                    by_verb.setdefault(_verb(text), []).append(text)
            self._legal = (state, by_verb)
        found: list[str] = self._legal[1].get(verb, [])
        return found

    # --- starting a game or a hand -----------------------------------------------------------

    @initialize(seed=SEEDS, dealer=st.integers(0, 3), match=st.integers(0, 255))
    def first_game(self, seed: int, dealer: int, match: int) -> None:
        self._start(seed, dealer, match)

    @precondition(lambda self: not self.playing)
    @rule(seed=SEEDS, dealer=st.integers(0, 3), match=st.integers(0, 255))
    def next_game(self, seed: int, dealer: int, match: int) -> None:
        """A single hand (its dealer drawn), or a whole game: seat 0 deals first and the deal
        passes left after every hand (TABLE.DEALER) until the penalty limit."""
        self._start(seed, dealer, match)

    def _start(self, seed: int, dealer: int, match: int) -> None:
        run = self.run
        seed, self.games = (seed + self.games * GAME_SEED) % 2**32, self.games + 1
        self.whole = match % MATCH_OF != MATCH_OF - 1
        rules = run.table_rules
        if self.whole:
            self.game = TableGame.new(rules, seed)
        else:
            deal = TableDeal.from_seed(seed, rules.players, dealer % rules.players)
            self.game = TableGame(rules, seed, (0,) * rules.players, 0,
                                  TableState.new(deal, rules))
        self.penalties = []
        self._open_hand()

    def _open_hand(self) -> None:
        run, deal = self.run, self.state.deal
        data = {"players": deal.players, "dealer": deal.dealer,
                "deck": [card_str(c) for c in deal.deck]}
        self.trace = Trace("table-hand", self.game.seed if self.game else 0, [data])
        self.seen, self.ignored, self.shared, self._legal = set(), set(), None, None
        self.causes_seen = set()
        self.compared, self.ended, self.reshuffled = -1, None, False
        try:
            self._call("new_table_hand", run.rules.name, run.rules.overrides, data)
        except Unsupported:
            if run.counting:
                run.stats.declined += 1
            self.playing = False
            reject()
        self.playing = True

    # --- the decisions -----------------------------------------------------------------------

    @precondition(_can("take-discard"))
    @rule(pick=PICK)
    def take_discard(self, pick: int) -> None:
        """Take the discard (TABLE.TURN); sensible play takes it only when the greedy player
        would, and draws from the stock otherwise."""
        choice = self._greedy_choice() if _sensible_pick(pick) else "take-discard"
        self._play(choice if choice in ("take-discard", "draw-stock") else "take-discard")

    @precondition(lambda self: self.playing and not self.state.is_over())
    @rule()
    def strategy(self) -> None:
        """The built-in greedy table player's move (reference/table/table_strategies.py)."""
        action = self._greedy_choice()
        if action in self.options(_verb(action)):
            self._play(action)
            return
        rest = [a for v in ("discard", "draw-stock", "done", "meld", "declare", "layoff")
                for a in self.options(v)]
        if rest:
            self._play(rest[0])

    @precondition(lambda self: self.playing and self.run.refuses
                  and len(self.trace.steps) % PROBE_EVERY == 0)
    @rule(pick=PICK)
    def illegal(self, pick: int) -> None:
        """An action the reference refuses: the adapter must refuse it with the same code and
        change nothing (TABLE.REJECTION)."""
        tries = list(table_probes(self.state))
        for k in range(len(tries)):
            seat, action = tries[(pick + k) % len(tries)]
            if refusal(self.state, seat, action) is not None:
                self._play(action, seat)
                return

    def _choose(self, verb: str, pick: int, also: tuple[str, ...] = ()) -> None:
        """Sensible play (the greedy player's choice) unless ``pick % 4 == 3``, else the
        option ``pick // 4``."""
        options = self.options(verb) + [a for v in also for a in self.options(v)]
        if not options:
            return
        greedy = self._greedy_choice()
        sensible = greedy if greedy in options else options[0]
        self._play(sensible if _sensible_pick(pick) else options[(pick // 4) % len(options)])

    def _greedy_choice(self) -> str:
        return str(self.greedy.choose(self.state, random.Random(0)))

    # --- playing one step --------------------------------------------------------------------

    def _play(self, action: str, player: Any = None) -> None:
        state = self.state
        who = state.to_move if player is None else int(player)
        assert who is not None
        why = refusal(state, who, action)
        expect: Any = "accepted" if why is None else {"rejected": why.code.value}
        clause = why.clause if why is not None else VERB_CLAUSE[_verb(action)]
        after = state
        if why is None:
            assert self.game is not None
            self.game = self.game.apply(action, who)
            after = self.game.hand
            if after.reshuffles > state.reshuffles or (after.is_over() and after.knocker is None):
                clause = "TABLE.WALL"
        verdict, bad = self._send(who, action, expect, clause)
        if bad is not None:
            outcome = "refused" if why is None else ("accepted" if verdict.accepted else "code")
            self._diverge(f"live.verdict.{state.phase.value}.{_verb(action)}.{outcome}",
                          f"step {len(self.trace.steps) - 1} {action!r} by seat {who}: {bad}",
                          clause, fatal=True)
            return
        self.reshuffled = after.reshuffles > state.reshuffles
        self.ended = after if after.is_over() else None

    # --- comparing ---------------------------------------------------------------------------

    @invariant()
    def observation_and_legal_actions_agree(self) -> None:
        """After every step: the observation's fields and the set of legal actions; at the end
        of a hand its result, at the end of a game its totals and prize split."""
        if not self.playing or self.compared == len(self.trace.steps):
            return
        self.compared = len(self.trace.steps)
        state = self.state
        compare_legal = self.run.legal and not state.is_over() and not self.reshuffled
        bad, _ = self._checkpoint(table_observation(state), [str(a) for a in
                                  state.legal_actions()] if compare_legal else None)
        if bad is not None:
            clause = str(self.trace.steps[-1]["clause"]) if self.trace.steps else "TABLE.DEAL"
            self.trace.checkpoint["clause"] = clause
            self._diverge(f"live.observation.{bad.field}.{state.phase.value}",
                          f"after step {len(self.trace.steps)}: {bad}", clause,
                          fatal=bad.field in ("phase", "to_act"))
            self.ignored.add(bad.field)
        if not self.playing:
            return
        if self.reshuffled:
            self._count("reshuffled")  # the adapter's stock order is its own from here
            self.playing = False
            return
        ended, self.ended = self.ended, None
        if ended is not None:
            self._hand_over(ended)

    def _action_clause(self, action: str) -> str:
        return VERB_CLAUSE.get(_verb(action), "TABLE.TURN")

    def _count(self, outcome: str) -> None:
        stats = self.run.stats
        if self.run.counting:
            stats.hands += 1
            stats.outcomes[outcome] += 1
            stats.showdowns += outcome not in ("void", "reshuffled")

    def _hand_over(self, state: TableState) -> None:
        """Compare the hand's result; then deal the game's next hand, or compare the game."""
        assert state.result is not None and self.game is not None
        expected = state.result.to_json()
        outcome = str(expected["outcome"])
        actual = self._call("result")
        differ = causal_order([name for name, want in expected.items()
                               if not isinstance(actual, Mapping) or actual.get(name) != want])
        if differ:
            # the first field in causal order is the cause; the others follow from it
            name = differ[0]
            ident = f"live.result.{name}.{outcome}"
            blame = RESULT_BLAME.get(outcome, {}).get(f"blame.{name}", "TABLE.WALL")
            if not self.run.reported(ident, blame):
                self.trace.result = {name: expected[name]}
                self.trace.blame = {f"blame.{name}": blame}
            got = "no result" if not isinstance(actual, Mapping) else \
                "; ".join(f"{n}: expected {expected[n]!r}, got {actual.get(n)!r}" for n in differ)
            self._diverge(ident, f"result: {got}", blame, fatal=False)
        self._count(outcome)
        self.penalties.append(list(state.result.penalties.penalties))
        if not self.whole:
            self.playing = False
        elif self.game.is_over():
            self.playing = False
            self._game_over(self.game)
        elif len(self.penalties) >= MAX_HANDS:
            self.playing = False
        else:
            self.game = self.game.next_hand()
            self._open_hand()
            self.observation_and_legal_actions_agree()  # the new deal, before its first step

    def _game_over(self, game: TableGame) -> None:
        """A whole game ended: its totals and winner (TABLE.GAME-END) and the prize split
        (TABLE.PRIZE), asked as the queries the adapter declares."""
        run = self.run
        if run.counting:
            run.stats.matches += 1
        split = game.prize(POOL)
        asked: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "table-game": ({"hands": self.penalties},
                           {"totals": list(game.totals), "over": True, "winner": game.winner}),
            "prize": ({"pool": POOL, "totals": list(game.totals)},
                      {"winner": split.winner, "shares": list(split.shares)}),
        }
        for what in run.game_queries:
            args, expect = asked[what]
            answer = self._call("query", what, args, run.rules.name, run.rules.overrides)
            bad = check_query(what, {"what": what, **args}, expect, run.rules.overrides, answer,
                              profile=run.rules.name, codes=run.codes)
            if bad is None:
                continue
            clause = GAME_QUERIES[what]
            self.trace = Trace("query", game.seed, [], query={"what": what, **args},
                               result=expect, blame={f"blame.{bad.field}": clause})
            self._diverge(f"live.{what}.{bad.field}", f"after {len(self.penalties)} hands: "
                          f"{what}: {bad}", clause, fatal=False)

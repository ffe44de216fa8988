"""The multi-player systems of chapter 14 (three players, partnerships, Hollywood) as Hypothesis
state machines over random hand results, each checked against a separate statement of the rule,
plus whole games played through ``ginspec play``."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from ginspec.reference.scoring import score_hand
from ginspec.reference.systems.hollywood import HollywoodGame
from ginspec.reference.systems.partnership import PartnershipGame, tables, team_of
from ginspec.reference.systems.results import Result, SystemsError, Won
from ginspec.reference.systems.three import ThreeGame
from ginspec.reference.table import table_penalties
from ginspec.spec.profiles import ruleset
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

POINTS = st.integers(0, 70)


class ThreeMachine(RuleBasedStateMachine):
    """THREE.ROTATION and THREE.GAME: the winner stays on and plays first, the loser sits out,
    the player who sat out comes back; scores only grow; the settlement nets to zero."""

    @initialize(profile=st.sampled_from(["three-player", "cutthroat"]),
                mode=st.sampled_from(["dealer_sits_out", "cutthroat"]),
                goal=st.sampled_from([50, 100]))
    def start(self, profile: str, mode: str, goal: int) -> None:
        self.rules = ruleset(profile, {"three_player_mode": mode, "game_target": goal})
        self.game = ThreeGame.new(self.rules)
        self.scores = [0, 0, 0]

    @precondition(lambda self: hasattr(self, "game") and not self.game.is_over(self.rules))
    @rule(first_wins=st.booleans(), points=POINTS, void=st.booleans())
    def hand(self, first_wins: bool, points: int, void: bool) -> None:
        s = self.game.seating
        result: Result = None
        if not void:
            w, loser = (s.first, s.second) if first_wins else (s.second, s.first)
            result = Won(w, loser, points)
        before = self.game
        self.game = self.game.after(self.rules, result)
        n = self.game.seating
        if result is None:
            assert n == s
        else:
            self.scores[result.winner] += points
            assert (n.sits_out, n.first, n.second) == (result.loser, result.winner, s.sits_out)
        assert all(a <= b for a, b in zip(before.tally.hand_points, self.game.tally.hand_points,
                                          strict=True))

    @precondition(lambda self: hasattr(self, "game"))
    @rule(points=POINTS)
    def sitter_cannot_win(self, points: int) -> None:
        s = self.game.seating
        if self.game.is_over(self.rules):
            return
        try:
            self.game.after(self.rules, Won(s.sits_out, s.first, points))
        except SystemsError:
            pass
        else:
            raise AssertionError("a player sitting out won a hand")

    @invariant()
    def seating_is_consistent(self) -> None:
        if not hasattr(self, "game"):
            return
        s = self.game.seating
        assert {s.sits_out, s.first, s.second} == {0, 1, 2}
        mode = self.rules["three_player_mode"]
        assert s.dealer == (s.sits_out if mode == "dealer_sits_out" else s.second)
        assert list(self.game.tally.hand_points) == self.scores

    @invariant()
    def settlement_adds_up(self) -> None:
        if not hasattr(self, "game") or not self.game.is_over(self.rules):
            return
        st_ = self.game.settlement(self.rules)
        assert sum(st_.net) == 0
        assert all(amount > 0 and payer != payee for payer, payee, amount in st_.payments)
        box = int(self.rules["box_bonus"])
        t = self.game.tally
        losers = [p for p in range(3) if p != st_.winner]
        a, b = losers
        diff = (t.hand_points[a] + box * t.boxes[a]) - (t.hand_points[b] + box * t.boxes[b])
        between = [p for p in st_.payments if {p[0], p[1]} == {a, b}]
        assert (between[0][2] if between else 0) == abs(diff)
        # Each loser pays the winner the difference after the game and box bonuses, and a
        # loser who scored nothing pays more: pagat doubles the 100 game bonus, Cutthroat
        # (rummyrulebook) has him pay an additional 100.
        w = st_.winner
        cutthroat = self.rules.name == "cutthroat"
        box_w = 25 if cutthroat else 20
        for loser in losers:
            shut = t.hand_points[loser] == 0
            won = t.hand_points[w] + 100 + box_w * t.boxes[w]
            if shut:
                won += 100
            owed = won - (t.hand_points[loser] + box_w * t.boxes[loser])
            paid = sum(p[2] if p[0] == loser else -p[2] for p in st_.payments
                       if {p[0], p[1]} == {loser, w})
            assert paid == owed, (loser, paid, owed)
            assert (loser in st_.shut_out) == shut


class PartnershipMachine(RuleBasedStateMachine):
    """PARTNER.*: the opponents alternate; the team totals are the netted table results."""

    @initialize()
    def start(self) -> None:
        self.rules = ruleset("partnership")
        self.game = PartnershipGame()
        self.expected = [0, 0]

    @precondition(lambda self: hasattr(self, "game") and not self.game.is_over(self.rules))
    @rule(data=st.lists(st.tuples(st.booleans(), POINTS, st.booleans()), min_size=2,
                        max_size=2))
    def deal(self, data: list[tuple[bool, int, bool]]) -> None:
        pairs = tables(self.game.deals)
        assert {pairs[0][0], pairs[1][0]} == {0, 2} and {pairs[0][1], pairs[1][1]} == {1, 3}
        results: list[Result] = []
        team_points = [0, 0]
        for (a, b), (a_wins, points, void) in zip(pairs, data, strict=True):
            if void:
                results.append(None)
                continue
            w, loser = (a, b) if a_wins else (b, a)
            results.append(Won(w, loser, points))
            team_points[team_of(w)] += points
        # netting as the seeds state it: both won -> the sum; split -> the difference
        if team_points[0] > team_points[1]:
            self.expected[0] += team_points[0] - team_points[1]
        elif team_points[1] > team_points[0]:
            self.expected[1] += team_points[1] - team_points[0]
        previous = self.game.deals
        self.game = self.game.after(self.rules, results)
        assert self.game.deals == previous + 1

    @precondition(lambda self: hasattr(self, "game") and self.game.is_over(self.rules))
    @rule()
    def recorded_deal_after_the_end_is_refused(self) -> None:
        try:
            self.game.after(self.rules, [None, None])
        except SystemsError:
            pass
        else:
            raise AssertionError("a deal was recorded after the game ended")

    @invariant()
    def totals_equal_netted_results(self) -> None:
        if hasattr(self, "game"):
            assert list(self.game.tally.hand_points) == self.expected

    @invariant()
    def final_adds_up(self) -> None:
        if not hasattr(self, "game") or not self.game.is_over(self.rules):
            return
        f = self.game.final(self.rules)
        assert f.settlement == abs(f.totals[0] - f.totals[1])
        assert f.totals[f.winner] >= self.expected[f.winner] + int(self.rules["game_bonus"])


class HollywoodMachine(RuleBasedStateMachine):
    """HOLLYWOOD.*: while no game has ended, a player's k-th win is in games 1..min(k, 3);
    an ended game takes no more scores; scores only grow."""

    @initialize(goal=st.sampled_from([60, 100, 150]))
    def start(self, goal: int) -> None:
        self.rules = ruleset("hollywood", {"game_target": goal})
        self.game = HollywoodGame.new(self.rules)
        self.wins: list[list[int]] = [[], []]

    @precondition(lambda self: hasattr(self, "game") and not self.game.is_over(self.rules))
    @rule(winner=st.integers(0, 1), points=POINTS, void=st.booleans())
    def hand(self, winner: int, points: int, void: bool) -> None:
        before = self.game
        closed = [not before.is_open(self.rules, g) for g in range(3)]
        self.game = before.after(self.rules, None if void else Won(winner, 1 - winner, points))
        for g in range(3):
            if closed[g]:
                assert self.game.games[g] == before.games[g]
            for p in (0, 1):
                assert self.game.games[g].hand_points[p] >= before.games[g].hand_points[p]
        if void:
            assert self.game == before
            return
        self.wins[winner].append(points)
        if not any(closed):
            # the literal rule of the sources (k-th win in games 1..min(k, 3)), valid while no
            # game had ended before this hand
            for p in (0, 1):
                for g in range(3):
                    literal = sum(pts for k, pts in enumerate(self.wins[p], 1) if k > g)
                    assert self.game.games[g].hand_points[p] == literal

    @precondition(lambda self: hasattr(self, "game") and self.game.is_over(self.rules))
    @rule(winner=st.integers(0, 1))
    def hand_after_the_end_is_refused(self, winner: int) -> None:
        try:
            self.game.after(self.rules, Won(winner, 1 - winner, 10))
        except SystemsError:
            pass
        else:
            raise AssertionError("a hand was entered after every game ended")

    @invariant()
    def settlement_is_consistent(self) -> None:
        if not hasattr(self, "game") or not self.game.is_over(self.rules):
            return
        results = self.game.results(self.rules)
        payee, amount = self.game.settlement(self.rules)
        signed = sum((r.settlement if r.payee == 0 else -r.settlement)
                     for r in results if r.payee is not None)
        assert amount == abs(signed) and (payee is None) == (signed == 0)


for machine in (ThreeMachine, PartnershipMachine, HollywoodMachine):
    machine.TestCase.settings = settings(settings.default, stateful_step_count=40,
                                         max_examples=max(10, settings.default.max_examples // 2))
TestThree = ThreeMachine.TestCase
TestPartnership = PartnershipMachine.TestCase
TestHollywood = HollywoodMachine.TestCase


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ginspec.conformance.cli", *args],
                          capture_output=True, text=True, check=False)


def test_play_serbian_three_players_json() -> None:
    proc = _cli("play", "--profile", "serbian-online", "--players", "3", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    trace = json.loads(proc.stdout)
    assert trace["system"] == "table" and trace["players"] == 3
    res = trace["result"]
    assert res is not None and sum(res["shares"]) == res["pool"]
    totals = [0, 0, 0]
    for hand in trace["hands"]:
        assert len(hand["deck"]) == 52
        totals = [t + p for t, p in zip(totals, hand["result"]["penalties"], strict=True)]
        assert hand["totals"] == totals
    assert res["totals"] == totals and max(totals) >= 100
    assert res["winner"] == totals.index(min(totals))


def test_play_systems_and_rules_listing() -> None:
    for profile in ("three-player", "partnership", "hollywood"):
        proc = _cli("play", "--profile", profile, "--players",
                    {"three-player": "3", "partnership": "4", "hollywood": "2"}[profile],
                    "--seed", "2", "--json")
        assert proc.returncode == 0, (profile, proc.stderr)
        assert json.loads(proc.stdout)["result"] is not None
    rows = {line.split()[0] for line in _cli("rules").stdout.splitlines() if line.strip()}
    for profile in ("three-player", "partnership", "hollywood"):
        assert profile in rows


def test_play_wrong_player_count_is_one_line_error() -> None:
    proc = _cli("play", "--profile", "partnership", "--players", "3", "--seed", "1")
    assert proc.returncode == 2
    assert proc.stderr.startswith("ginspec: error:") and proc.stderr.count("\n") == 1


def test_check_log_replays_a_table_trace(tmp_path: Any) -> None:
    """TABLE.REJECTION: a played table trace checks OK; a tampered result, a step by the wrong
    player and a wrong dealer are each the first finding, with code and clause."""
    proc = _cli("play", "--profile", "serbian-online", "--players", "4", "--seed", "3", "--json")
    trace = json.loads(proc.stdout)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace))
    ok = _cli("check-log", str(path))
    assert ok.returncode == 0 and ok.stdout.startswith("OK:"), ok.stdout + ok.stderr

    def finding(change: Any) -> dict[str, Any]:
        bad = json.loads(json.dumps(trace))
        change(bad)
        path.write_text(json.dumps(bad))
        proc = _cli("check-log", str(path), "--json")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        found: dict[str, Any] = json.loads(proc.stdout)["finding"]
        return found

    def tamper_result(t: dict[str, Any]) -> None:
        t["hands"][0]["result"]["penalties"] = [p + 1 for p in t["hands"][0]["result"]["penalties"]]

    def wrong_player(t: dict[str, Any]) -> None:
        step = t["hands"][0]["actions"][2]
        step["player"] = (step["player"] + 1) % 4

    def wrong_dealer(t: dict[str, Any]) -> None:
        t["hands"][1]["dealer"] = 3

    assert (finding(tamper_result)["code"], finding(tamper_result)["clause"]) == \
        ("RESULT_MISMATCH", "TABLE.PENALTY")
    assert (finding(wrong_player)["code"], finding(wrong_player)["clause"]) == \
        ("NOT_YOUR_TURN", "TABLE.TURN-ORDER")
    assert finding(wrong_dealer)["clause"] == "TABLE.DEALER"


@given(knocker=st.integers(0, 1), kd=st.integers(0, 10), dd=st.integers(0, 60))
def test_two_seat_penalties_equal_two_player_points(knocker: int, kd: int, dd: int) -> None:
    """TABLE.PENALTY's note: with two seats the loser's penalty is the winner's points under
    serbian-online (chapter 9), and the same side wins."""
    rules = ruleset("serbian-online")
    deadwood = [0, 0]
    deadwood[knocker], deadwood[1 - knocker] = kd, dd
    pens = table_penalties(knocker, deadwood)
    score = score_hand("gin" if kd == 0 else "knock", kd, dd, rules)
    winner = knocker if score.winner == "knocker" else 1 - knocker
    assert pens.winner == winner
    assert pens.penalties[1 - winner] == max(score.knocker, score.defender)
    assert pens.penalties[winner] == 0

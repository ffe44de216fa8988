"""Checking a trace of a multi-game system (``ginspec play --profile three-player --json``, and
``cutthroat``, ``partnership``, ``hollywood``) against a ruleset (chapter 14, SYSTEM.TRACE): every
hand replayed by the two-player engine between the two seats the system puts at it, who plays
and who deals checked against the system's rotation, every recorded result and running score
compared, and the final settlement."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.reference.game import Deal, HandState
from ginspec.reference.game.deal import DealError
from ginspec.reference.game.match_trace import CheckReport, TraceError, TraceFinding
from ginspec.reference.game.rejections import Rejection
from ginspec.reference.systems.hollywood import HollywoodGame
from ginspec.reference.systems.partnership import PartnershipGame, tables, team_of
from ginspec.reference.systems.results import Result, result_in_seats
from ginspec.reference.systems.three import ThreeGame
from ginspec.reference.typed_rules import Rules
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError


def _get(obj: Any, name: str, kind: type, where: str) -> Any:
    value = obj.get(name) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TraceError(f"{where}.{name}: missing, or not {'a list' if kind is list else 'an integer'}")
    return value


class _Stop(Exception):
    """The first finding: stops the replay."""

    def __init__(self, finding: TraceFinding, finished: bool = False) -> None:
        super().__init__(finding.message)
        self.finding = finding
        self.finished = finished


def _play(rules: Rules, record: Any, h: int, first: int, second: int) -> tuple[Result, int]:
    """Replay one hand between seats ``first`` (the engine's non-dealer) and ``second`` (its
    dealer); the result in seats, and the number of steps replayed."""
    where = f"hands[{h - 1}]"
    if (record.get("first"), record.get("second")) != (first, second):
        raise _Stop(TraceFinding(h, None, "deal", "WRONG_DEALER", "SYSTEM.TRACE",
                            f"seats {first} and {second} play this hand (seat {first} first), "
                            f"not {record.get('first')!r} and {record.get('second')!r}"))
    try:
        deal = Deal.parse(_get(record, "deck", list, where), 1)
    except (DealError, GinspecError) as exc:
        raise TraceError(f"{where}.deck: {exc}") from None
    state = HandState.new(deal, rules)
    seats = (first, second)
    steps = 0
    for j, step in enumerate(_get(record, "actions", list, where)):
        if not isinstance(step, dict) or not isinstance(step.get("action"), str):
            raise TraceError(f"{where}.actions[{j}]: expected {{player, action}}")
        who, text = step.get("player"), step["action"]
        if state.is_over:
            raise _Stop(TraceFinding(h, j, text, "HAND_OVER", "ACTION.PHASE", "the hand is over"))
        player: int | None = None
        if who != "chance":
            if who not in seats or isinstance(who, bool):
                raise _Stop(TraceFinding(h, j, text, "NOT_YOUR_TURN", "SYSTEM.TRACE",
                                    f"seat {who!r} does not play this hand"))
            player = seats.index(who)
        try:
            state = state.apply(text, player)
        except Rejection as exc:
            raise _Stop(TraceFinding(h, j, text, exc.code.value, exc.clause, exc.detail)) from None
        steps += 1
    if not state.is_over:
        raise _Stop(TraceFinding(h, None, "", "HAND_NOT_OVER", "TRACE.CHECK",
                            "the recorded actions do not finish the hand"))
    res = state.result
    assert res is not None
    result = result_in_seats(res, seats)
    clause = next((c for c in res.score.clauses if c != "SCORE.HAND-WINNER"), "SCORE.VOID")
    ours = {"outcome": res.outcome.value, "winner": None if result is None else result.winner,
            "points": 0 if result is None else result.points}
    for name, value in ours.items():
        if name in record and record[name] != value:
            raise _Stop(TraceFinding(h, None, "", "RESULT_MISMATCH", clause,
                                f"recorded {name} {record[name]!r}, the rules give {value!r}"))
    return result, steps


def _same(h: int, record: Any, name: str, ours: Any, clause: str) -> None:
    if name in record and record[name] != ours:
        raise _Stop(TraceFinding(h, None, "", "RESULT_MISMATCH", clause,
                            f"recorded {name} {record[name]!r}, the rules give {ours!r}"))


@implements("SYSTEM.TRACE")
def check_system_trace(data: dict[str, Any], rules: Rules) -> CheckReport:
    """Replay ``data`` (a three-player, partnership or Hollywood trace) under ``rules``; the first
    illegal step or wrong recorded value is the finding. Malformed traces raise TraceError."""
    hands = _get(data, "hands", list, "trace")
    for i, record in enumerate(hands):
        if not isinstance(record, dict):
            raise TraceError(f"hands[{i}]: expected an object")
    system = rules.game_system
    counter = {"steps": 0, "hands": 0}

    def play(record: Any, first: int, second: int) -> Result:
        counter["hands"] += 1
        result, steps = _play(rules, record, counter["hands"], first, second)
        counter["steps"] += steps
        return result

    try:
        final = data.get("result")
        if system == "three_player":
            finished = _three(hands, rules, play, final)
        elif system == "partnership":
            finished = _partnership(hands, rules, play, final)
        elif system == "hollywood":
            finished = _hollywood(hands, rules, play, final)
        else:
            raise TraceError(f"system {system!r}: not a system this checker replays")
    except _Stop as stop:
        return CheckReport(stop.finding, counter["hands"], counter["steps"], stop.finished)
    return CheckReport(None, counter["hands"], counter["steps"], finished)


def _over(h: int) -> _Stop:
    return _Stop(TraceFinding(h, None, "deal", "MATCH_OVER", "SYSTEM.TRACE",
                         "the game was over after the previous hand"), True)


def _final(h: int, final: Any, ours: Mapping[str, Any], clause: str) -> None:
    """Compare the recorded end of the game (the trace's ``result``) with the rules'."""
    if isinstance(final, dict):
        for name, value in ours.items():
            _same(h, final, name, value, clause)


def _three(hands: list[Any], rules: Rules, play: Any, final: Any) -> bool:
    game = ThreeGame.new(rules)
    for h, record in enumerate(hands, 1):
        if game.is_over(rules):
            raise _over(h)
        s = game.seating
        for name, seat in (("dealer", s.dealer), ("sits_out", s.sits_out)):
            if name in record and record[name] != seat:
                raise _Stop(TraceFinding(h, None, "deal", "WRONG_DEALER", "THREE.ROTATION",
                                    f"recorded {name} {record[name]!r}, the rotation gives "
                                    f"seat {seat}"))
        game = game.after(rules, play(record, s.first, s.second))
        _same(h, record, "scores", list(game.tally.hand_points), "THREE.GAME")
    if not game.is_over(rules):
        return False
    st = game.settlement(rules)
    _final(len(hands), final, {"winner": st.winner, "payments": [list(p) for p in st.payments],
                               "net": list(st.net), "shut_out": list(st.shut_out)},
           "SETTLE.PAIRWISE")
    return True


def _partnership(hands: list[Any], rules: Rules, play: Any, final: Any) -> bool:
    game = PartnershipGame()
    redeal = rules.partnership_draw == "replay_table"
    h = 0
    while h < len(hands):
        if game.is_over(rules):
            raise _over(h + 1)
        results: list[Result] = []
        for a, b in tables(game.deals):
            while True:
                if h >= len(hands):
                    raise _Stop(TraceFinding(h, None, "", "HAND_NOT_OVER", "PARTNER.TABLES",
                                        "the trace stops in the middle of a deal"))
                record = hands[h]
                h += 1
                first, second = (a, b) if team_of(b) == game.dealing_team else (b, a)
                _same(h, record, "deal", game.deals, "PARTNER.TABLES")
                result = play(record, first, second)
                if result is not None or not redeal:
                    break
            results.append(result)
        game = game.after(rules, results)
        _same(h, hands[h - 1], "team_scores", list(game.tally.hand_points), "PARTNER.NETTING")
    if not game.is_over(rules):
        return False
    f = game.final(rules)
    _final(len(hands), final, {"winner": f.winner, "totals": list(f.totals),
                               "settlement": f.settlement, "payee": f.payee}, "PARTNER.GAME")
    return True


def _hollywood(hands: list[Any], rules: Rules, play: Any, final: Any) -> bool:
    game = HollywoodGame.new(rules)
    dealer = 0
    nxt = rules.next_dealer
    for h, record in enumerate(hands, 1):
        if game.is_over(rules):
            raise _over(h)
        result = play(record, 1 - dealer, dealer)
        game = game.after(rules, result)
        _same(h, record, "games", [list(g.hand_points) for g in game.games], "HOLLYWOOD.ENTRY")
        if result is not None:
            dealer = result.loser if nxt == "loser" else (
                result.winner if nxt == "winner" else 1 - dealer)
    if not game.is_over(rules):
        return False
    payee, amount = game.settlement(rules)
    _final(len(hands), final, {"payee": payee, "settlement": amount,
                               "games": [list(r.totals) for r in game.results(rules)]},
           "HOLLYWOOD.SETTLEMENT")
    return True

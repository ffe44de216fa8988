"""Whole games of the multi-player systems between built-in strategies, as JSON-ready traces
(``ginspec play``): each hand is a two-player hand of the engine (``HandState``), the system
decides who plays it and how it is scored (THREE.*, PARTNER.*, HOLLYWOOD.*)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ginspec.reference.game import Deal, HandState, deal_from_seed
from ginspec.reference.game.match import hand_seed
from ginspec.reference.game.state import CHANCE
from ginspec.reference.game.strategies import Strategy
from ginspec.reference.systems.hollywood import HOLLYWOOD_ENGINE, HollywoodGame
from ginspec.reference.systems.partnership import (
    PARTNERSHIP_ENGINE,
    PartnershipGame,
    tables,
    team_of,
)
from ginspec.reference.systems.results import Result, result_in_seats
from ginspec.reference.systems.three import THREE_PLAYER_ENGINE, ThreeGame
from ginspec.reference.typed_rules import Engine, Rules, game_rules
from ginspec.spec.cards import card_str
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value

SYSTEM_ENGINES: Final[dict[str, Engine]] = {
    "three_player": THREE_PLAYER_ENGINE, "partnership": PARTNERSHIP_ENGINE,
    "hollywood": HOLLYWOOD_ENGINE,
}


def system_rules(params: Mapping[str, Value], name: str | None = None) -> Rules:
    """The typed rules of a three-player, partnership or Hollywood ruleset, refused (one line)
    when its system's engine does not play one of its parameters."""
    rules = game_rules(params, name)
    engine = SYSTEM_ENGINES.get(rules.game_system)
    if engine is None:
        raise GinspecError(f"game_system {rules.game_system!r} is not played by play_system")
    return engine.check(rules)


def play_hand(rules: Rules, deal: Deal, first: int, second: int,
              strategies: Sequence[Strategy], rng: random.Random) -> tuple[Result, dict[str, Any]]:
    """Play one two-player hand: seat ``first`` is the engine's non-dealer, ``second`` its
    dealer (``deal.dealer`` must be 1). Returns the result in seats and the hand's record."""
    if deal.dealer != 1:
        raise GinspecError("play_hand: the engine's dealer is the second player (dealer=1)")
    seats = (first, second)
    state = HandState.new(deal, rules)
    steps: list[dict[str, Any]] = []
    while not state.is_over:
        if state.to_move == CHANCE:
            action = state.chance_action()
            steps.append({"player": "chance", "action": str(action)})
        else:
            p = state.to_move
            assert p is not None
            action = strategies[seats[p]].choose(state, rng)
            steps.append({"player": seats[p], "action": str(action)})
        state = state.apply(action)
    res = state.result
    assert res is not None
    result = result_in_seats(res, seats)
    record = {"first": first, "second": second, "deck": [card_str(c) for c in deal.deck],
              "actions": steps, "outcome": res.outcome.value,
              "winner": None if result is None else result.winner,
              "points": 0 if result is None else result.points}
    return result, record


def play_system(params: Mapping[str, Value], profile: str, seed: int,
                strategies: Sequence[Strategy], max_hands: int = 300) -> dict[str, Any]:
    """Play a whole game of the ruleset's ``game_system`` (three_player, partnership,
    hollywood)."""
    rules = system_rules(params, profile)
    system = rules.game_system
    rng = random.Random(f"ginspec-system-play:{seed}")
    hands: list[dict[str, Any]] = []
    index = 0

    def deal() -> Deal:
        nonlocal index
        d = deal_from_seed(hand_seed(seed, index), dealer=1)
        index += 1
        return d

    trace: dict[str, Any] = {"system": system, "profile": profile, "seed": seed,
                             "strategies": [s.name for s in strategies], "hands": hands}
    if system == "three_player":
        three = ThreeGame.new(rules)
        while not three.is_over(rules) and len(hands) < max_hands:
            s = three.seating
            result, record = play_hand(rules, deal(), s.first, s.second, strategies, rng)
            record.update(dealer=s.dealer, sits_out=s.sits_out)
            three = three.after(rules, result)
            record["scores"] = list(three.tally.hand_points)
            hands.append(record)
        if three.is_over(rules):
            st = three.settlement(rules)
            trace["result"] = {"winner": st.winner, "payments": [list(p) for p in st.payments],
                               "net": list(st.net), "shut_out": list(st.shut_out)}
        else:
            trace["result"] = None
        return trace
    if system == "partnership":
        part = PartnershipGame()
        redeal = rules.partnership_draw == "replay_table"
        while not part.is_over(rules) and len(hands) < max_hands:
            results: list[Result] = []
            for a, b in tables(part.deals):
                while True:
                    # the member of the team that lost the last netted deal deals (PARTNER.TABLES)
                    first, second = (a, b) if team_of(b) == part.dealing_team else (b, a)
                    result, record = play_hand(rules, deal(), first, second, strategies, rng)
                    record["deal"] = part.deals
                    hands.append(record)
                    if result is not None or not redeal or len(hands) >= max_hands:
                        break
                results.append(result)
            if redeal and None in results:
                break
            part = part.after(rules, results)
            hands[-1]["team_scores"] = list(part.tally.hand_points)
        if part.is_over(rules):
            f = part.final(rules)
            trace["result"] = {"winner": f.winner, "totals": list(f.totals),
                               "settlement": f.settlement, "payee": f.payee}
        else:
            trace["result"] = None
        return trace
    if system == "hollywood":
        holly = HollywoodGame.new(rules)
        dealer = 0
        while not holly.is_over(rules) and len(hands) < max_hands:
            result, record = play_hand(rules, deal(), 1 - dealer, dealer, strategies, rng)
            holly = holly.after(rules, result)
            record["games"] = [list(g.hand_points) for g in holly.games]
            hands.append(record)
            if result is not None:
                dealer = result.loser if rules.next_dealer == "loser" else (
                    result.winner if rules.next_dealer == "winner" else 1 - dealer)
        if holly.is_over(rules):
            payee, amount = holly.settlement(rules)
            trace["result"] = {"payee": payee, "settlement": amount,
                               "games": [list(r.totals) for r in holly.results(rules)]}
        else:
            trace["result"] = None
        return trace
    raise GinspecError(f"game_system {system!r} is not played by play_system")


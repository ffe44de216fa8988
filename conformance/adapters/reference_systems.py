"""The reference's answers to the queries about the multi-player systems of chapter 14.

``system`` (SYSTEM.KIND), ``table-penalty`` (TABLE.UNDERCUT, TABLE.PENALTY), ``prize``
(TABLE.PRIZE), ``table-game`` (TABLE.GAME-END), ``table-adjudicate`` (TABLE.BEST-PLAY),
``three-rotation`` (THREE.*, SETTLE.PAIRWISE),
``partnership`` (PARTNER.*, SETTLE.PROPORTIONAL) and ``hollywood`` (HOLLYWOOD.*). Arguments and
answers are those of ``conformance/PROTOCOL.md`` ("System queries"). An input no legal game can
produce (a hand won by the player sitting out, partners playing each other, a score entered
after every game is over) is answered ``{"error": true, "message": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.adapters.base import JSONObject
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.reference.systems.hollywood import HollywoodGame
from ginspec.reference.systems.partnership import PartnershipGame, net, tables, team_of
from ginspec.reference.systems.results import Result, Won
from ginspec.reference.systems.three import ThreeGame
from ginspec.reference.table import prize_split, table_penalties, table_winner
from ginspec.reference.table.table_adjudicate import adjudicate_table
from ginspec.reference.typed_rules import Rules, to_rules
from ginspec.spec.cards import card_str, parse_card, parse_cards
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import ruleset


def _rules(what: str, profile: str | None, overrides: Mapping[str, Any]) -> Rules:
    return to_rules(ruleset(profile or str(QUERY_KINDS[what].default_profile), dict(overrides)))


def _result(entry: Sequence[Any]) -> Result:
    """``["void"]`` or ``[winner, loser, points]``."""
    if list(entry) == ["void"]:
        return None
    winner, loser, points = entry
    return Won(int(winner), int(loser), int(points))


def system(args: Mapping[str, Any], profile: str | None,
           overrides: Mapping[str, Any]) -> JSONObject:
    try:
        rules = to_rules(ruleset(profile or "pagat", dict(overrides)))
    except GinspecError:
        return {"valid": False}
    return {"valid": True, "game_system": rules.game_system, "players": rules.players}


def table_penalty(args: Mapping[str, Any], profile: str | None,
                  overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("table-penalty", profile, overrides)
    try:
        res = table_penalties(int(args["knocker"]), [int(d) for d in args["deadwood"]],
                              rules.gin_bonus, rules.undercut_bonus,
                              rules.undercut_on_tie == "undercut")
    except GinspecError as exc:  # an input no legal table hand gives (PROTOCOL.md)
        return {"error": True, "message": str(exc)}
    return {"outcome": res.kind, "winner": res.winner, "penalties": list(res.penalties)}


def prize(args: Mapping[str, Any], profile: str | None,
          overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("prize", profile, overrides)
    totals = [int(t) for t in args["totals"]]
    low = min(totals)
    if totals.count(low) != 1:
        return {"error": True, "message": "the lowest total is shared: the game is not over"}
    split = prize_split(int(args["pool"]), totals, totals.index(low),
                        rules.prize_winner_share, rules.prize_window)
    return {"winner": split.winner, "shares": list(split.shares)}


def table_game(args: Mapping[str, Any], profile: str | None,
               overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("table-game", profile, overrides)
    limit = rules.penalty_limit
    hands = [[int(p) for p in h] for h in args["hands"]]
    totals = [0] * len(hands[0])
    for k, pens in enumerate(hands):
        if table_winner(totals, limit) is not None:
            return {"error": True, "message": f"the game was over before hand {k + 1}"}
        totals = [t + p for t, p in zip(totals, pens, strict=True)]
    winner = table_winner(totals, limit)
    return {"totals": totals, "over": winner is not None, "winner": winner}


def three_rotation(args: Mapping[str, Any], profile: str | None,
                   overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("three-rotation", profile, overrides)
    game = ThreeGame.new(rules)
    seatings = [game.seating]
    try:
        for entry in args["hands"]:
            game = game.after(rules, _result(entry))
            seatings.append(game.seating)
    except GinspecError as exc:
        return {"error": True, "message": str(exc)}
    out: JSONObject = {
        "seatings": [[s.dealer, s.sits_out, s.first, s.second] for s in seatings],
        "scores": list(game.tally.hand_points), "over": game.is_over(rules)}
    if out["over"]:
        settled = game.settlement(rules)
        out["payments"] = [list(p) for p in settled.payments]
        out["net"] = list(settled.net)
    return out


def partnership(args: Mapping[str, Any], profile: str | None,
                overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("partnership", profile, overrides)
    game = PartnershipGame()
    netted: list[list[Any]] = []
    pairings: list[list[list[int]]] = []
    dealers: list[list[int]] = []
    try:
        for deal in args["deals"]:
            results = [_result(t) for t in deal]
            pairs = tables(game.deals)
            pairings.append([list(p) for p in pairs])
            dealers.append([a if team_of(a) == game.dealing_team else b for a, b in pairs])
            team, points = net(results)
            game = game.after(rules, results)
            netted.append(["none"] if team is None else [team, points])
    except GinspecError as exc:
        return {"error": True, "message": str(exc)}
    out: JSONObject = {"tables": pairings, "dealers": dealers, "netted": netted,
                       "totals": list(game.tally.hand_points), "over": game.is_over(rules)}
    if out["over"]:
        final = game.final(rules)
        out.update(final=list(final.totals), payee=final.payee, settlement=final.settlement)
    return out


def hollywood(args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
    rules = _rules("hollywood", profile, overrides)
    game = HollywoodGame.new(rules)
    try:
        for entry in args["hands"]:
            result = None if list(entry) == ["void"] else Won(int(entry[0]), 1 - int(entry[0]),
                                                              int(entry[1]))
            game = game.after(rules, result)
    except GinspecError as exc:
        return {"error": True, "message": str(exc)}
    out: JSONObject = {"games": [list(g.hand_points) for g in game.games],
                       "over": game.is_over(rules)}
    if out["over"]:  # match.scores: each game's box points and game bonus (MATCH.BOX, MATCH.GAME-BONUS)
        finals = game.results(rules)
        out.update(box_points=[list(r.box_points) for r in finals],
                   game_bonus=[r.game_bonus for r in finals])
        payee, amount = game.settlement(rules)
        out.update(payee=payee, settlement=amount)
    return out


def table_adjudicate(args: Mapping[str, Any], profile: str | None,
                     overrides: Mapping[str, Any]) -> JSONObject:

    hands = [parse_cards(list(h)) for h in args["hands"]]
    rules = ruleset(profile or "serbian-online", {**overrides, "players": len(hands)})
    melds = args.get("knocker_melds")
    discard = args.get("discard")
    ruling = adjudicate_table(
        hands, int(args["knocker"]), rules,
        discard=parse_card(str(discard)) if discard else None,
        knocker_melds=[parse_cards(list(m)) for m in melds] if melds else None)
    layoffs: list[list[str]] = [[] for _ in hands]
    for play in ruling.defenders:
        layoffs[play.seat] = [card_str(x.card) for x in play.layoffs]
    decl = ruling.declaration
    return {
        "outcome": ruling.outcome, "winner": ruling.winner,
        "discard": None if ruling.discard is None else card_str(ruling.discard),
        "declaration": None if decl is None else [[card_str(c) for c in m.cards]
                                                  for m in decl.melds],
        "layoffs": layoffs,
        "deadwood": None if ruling.deadwood is None else list(ruling.deadwood),
        "penalties": None if ruling.penalties is None else list(ruling.penalties),
    }


SYSTEM_ANSWERS: Final[dict[str, Callable[[Mapping[str, Any], str | None, Mapping[str, Any]],
                                         JSONObject]]] = {
    "system": system, "table-penalty": table_penalty, "prize": prize, "table-game": table_game,
    "three-rotation": three_rotation, "partnership": partnership, "hollywood": hollywood,
    "table-adjudicate": table_adjudicate,
}
"""Each system query and the function answering it."""

"""Scripted procedure cases: hand-written positions for the clauses of the turn, the knock, the
wall, the eleven-card start, straight gin, the action grammar and the player's observation, and
a negative case for each rejection code that the seeded probes of :mod:`.games` never draw.

Every script is an explicit deal (:meth:`Deal.from_hands`: the two hands, the upcard and the top
of the stock; the rest of the stock follows in card order, DEAL.STOCK), the actions in turn order,
and the expected verdicts, observations and results **written out here from the clause text**,
not read from the engine. Long scripts (the wall) are spelled out by arithmetic on the explicit
deck: both players draw from the stock and throw the drawn card back, so the discards are the
stock cards in deck order, and after 29 draws the stock holds its last two cards (WALL.END).
``tests/test_conformance_runner.py`` checks that the reference passes every one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.cases import Case
from ginspec.conformance.generate.games import DEAL_CLAUSES, known
from ginspec.reference.game import Deal
from ginspec.spec.cards import NUM_CARDS, card_str

Step = dict[str, Any]
Point = dict[str, Any]

NON_DEALER: Final = "2C 3C 4C 7D 7H 7S JS QS KS QD"
"""Three melds and the queen of diamonds (10 deadwood): the hand of chapter 15's examples."""
DEALER: Final = "8C 8D 8H 9D 9H 9S AS 2S 3S 5H"
"""Three melds and the five of hearts (5 deadwood)."""
UPCARD: Final = "5D"
WALL_DRAWS: Final = 29
"""31 stock cards after a deal with an upcard, less a wall of two (WALL.END)."""
MELDS_1: Final = "2C 3C 4C / 7D 7H 7S / JS QS KS"
MELDS_0: Final = "8C 8D 8H / 9D 9H 9S / AS 2S 3S"


def ok(player: int | str, action: str, clause: str | None = None) -> Step:
    step: Step = {"player": player, "action": action, "expect": "accepted"}
    if clause:
        step["clause"] = clause
    return step


def refused(player: int | str, action: str, code: str, clause: str) -> Step:
    return {"player": player, "action": action, "expect": {"rejected": code}, "clause": clause}


def at(after: int, clause: str | None = None, **fields: Any) -> Point:
    """A checkpoint after ``after`` steps (``to_act=None`` once the hand is over)."""
    point: Point = {"after": after, **fields}
    if clause:
        point["clause"] = clause
    return point


def deal_json(deal: Deal) -> dict[str, Any]:
    return {"dealer": deal.dealer, "deck": deal.tokens()}


def standard(stock: str = "", dealer: int = 0) -> Deal:
    return Deal.from_hands(NON_DEALER, DEALER, UPCARD, stock, dealer)


def reversed_deck(dealer: int) -> Deal:
    """A second deal for match cases: the pack in descending card order."""
    return Deal(tuple(reversed(range(NUM_CARDS))), dealer)


def stock_cards(deal: Deal) -> list[str]:
    """The stock, top first: deck positions 21 to 51 (DEAL.STOCK)."""
    return deal.tokens()[21:]


def to_the_wall(deal: Deal, offer: bool = True, opening: Step | None = None) -> list[Step]:
    """Both pass the upcard (if ``offer``; FIRST.PLAIN has none), then each draws from the stock
    and discards the card drawn, the non-dealer first, until two stock cards are left (the 29th
    discard reaches the wall). With ``opening`` (the eleven-card start: the non-dealer's first
    discard) that step comes first and the dealer draws first."""
    nd = 1 - deal.dealer
    steps = [opening] if opening else [ok(nd, "pass"), ok(deal.dealer, "pass")] if offer else []
    first, second = (deal.dealer, nd) if opening else (nd, deal.dealer)
    for i, card in enumerate(stock_cards(deal)[:WALL_DRAWS]):
        who = first if i % 2 == 0 else second
        steps += [ok(who, "draw-stock"), ok(who, f"discard {card}")]
    return steps


def _requires(kind: str, steps: Sequence[Step], points: Sequence[Point]) -> list[str]:
    verbs = {str(s["action"]).split()[0].lower() for s in steps}
    need = [kind]
    if any(s["expect"] != "accepted" for s in steps):
        need.append("rejection-codes")
    if any(k.startswith("legal_") for p in points for k in p):
        need.append("legal-actions")
    if verbs & {"declare", "meld"}:
        need.append("melding.explicit")
    if verbs & {"layoff", "done"}:
        need.append("layoff.explicit")
    return need


def scripted(case_id: str, description: str, *, profile: str, deals: Sequence[Deal],
             steps: list[Step], points: list[Point], clauses: Iterable[str],
             violates: Iterable[str] = (), decides: Iterable[str] = (),
             overrides: Mapping[str, Any] | None = None, result: Mapping[str, Any] | None = None,
             origin: str = "endgame") -> Case:
    kind = "match" if len(deals) > 1 else "hand"
    step_clauses = [str(s["clause"]) for s in steps if "clause" in s]
    point_clauses = [str(p["clause"]) for p in points if "clause" in p]
    extra: dict[str, Any] = {"result": dict(result)} if result else {}
    return Case.make(
        id=case_id, kind=kind, origin=origin, description=description,
        clauses=known(["CARD.DECK", *DEAL_CLAUSES, *clauses, *step_clauses, *point_clauses]),
        violates=known(violates), decides=known(decides), profile=profile,
        overrides=dict(overrides or {}), requires=_requires(kind, steps, points),
        source={"generator": "scripted (conformance/generate/scripted.py)",
                "script": case_id},
        deals=[deal_json(d) for d in deals], steps=steps, checkpoints=points, **extra,
    )


# --- the deal -----------------------------------------------------------------------------------


def deal_cases() -> Iterator[Case]:
    deal = Deal(tuple(range(NUM_CARDS)), 1)
    # the pack in card order, player 1 deals: player 0 gets positions 0, 2, ..., 18, player 1
    # positions 1, 3, ..., 19, position 20 (8D) is the upcard and 9D tops the stock
    non_dealer = ["AC", "3C", "5C", "7C", "9C", "JC", "KC", "2D", "4D", "6D"]
    dealer = ["2C", "4C", "6C", "8C", "TC", "QC", "AD", "3D", "5D", "7D"]
    yield scripted(
        "proc.deal.positions.pagat",
        "the pack in card order dealt by player 1: the cards each player may discard show the "
        "hands dealt one at a time from the non-dealer, the upcard is the 21st card and the "
        "first draw takes the 22nd",
        profile="pagat", deals=[deal], origin="full-hand",
        steps=[ok(0, "take-upcard"), ok(0, "discard KC"), ok(1, "draw-stock"),
               ok(1, "discard 9D")],
        clauses=["FIRST.UPCARD-OFFER", "TURN.DRAW", "TURN.DISCARD", "TURN.DISCARD-TAKEN"],
        decides=["DEAL.DECK-ORDER", "DEAL.HANDS", "DEAL.UPCARD", "DEAL.STOCK"],
        points=[at(0, "DEAL.UPCARD", phase="offer-non-dealer", to_act=0, hand_sizes=[10, 10],
                   discard_top="8D", stock_size=31),
                at(1, "DEAL.HANDS", phase="discard", to_act=0,
                   legal_actions=sorted(f"discard {c}" for c in non_dealer)),
                at(2, phase="draw", to_act=1, discard_top="KC", stock_size=31),
                at(3, "DEAL.STOCK", phase="discard", to_act=1, hand_sizes=[10, 11],
                   stock_size=30,
                   legal_actions=sorted(f"discard {c}" for c in [*dealer, "9D"])),
                at(4, "DEAL.STOCK", phase="draw", to_act=0, discard_top="9D")],
    )


# --- the turn and the action grammar ---------------------------------------------------------


def turn_cases() -> Iterator[Case]:
    deal = standard("AC 6C")
    opening = [ok(1, "pass"), ok(0, "pass"), ok(1, "draw-stock"), ok(1, "discard AC"),
               ok(0, "draw-stock"), ok(0, "discard 6C")]
    size = "TURN.HAND-SIZE"
    yield scripted(
        "proc.turn.hand-size-and-order.pagat",
        "ten cards between turns, eleven during one; the players act in turn and each sees the "
        "discard top, the stock size and both hand sizes (a drawn card is not shown)",
        profile="pagat", deals=[deal], steps=opening, origin="full-hand",
        clauses=["TURN.ALTERNATE", "TURN.DRAW", "TURN.DISCARD", "ACTION.TURN-ORDER",
                 "FIRST.UPCARD-OFFER", "FIRST.DEALER-OFFER", "FIRST.BOTH-PASS"],
        decides=["OBSERVATION.PLAYER"],
        points=[
            at(0, size, phase="offer-non-dealer", to_act=1, hand_sizes=[10, 10],
               discard_top="5D", stock_size=31),
            at(1, "ACTION.TURN-ORDER", phase="offer-dealer", to_act=0),
            at(2, "ACTION.TURN-ORDER", phase="first-draw", to_act=1, hand_sizes=[10, 10]),
            at(3, size, phase="discard", to_act=1, hand_sizes=[10, 11], discard_top="5D",
               stock_size=30),
            at(4, size, phase="draw", to_act=0, hand_sizes=[10, 10], discard_top="AC",
               stock_size=30),
            at(5, size, phase="discard", to_act=0, hand_sizes=[11, 10], discard_top="AC",
               stock_size=29),
            at(6, size, phase="draw", to_act=1, hand_sizes=[10, 10], discard_top="6C",
               stock_size=29),
        ],
    )
    yield scripted(
        "proc.reject.turn.two-turns-in-a-row.pagat",
        "the player who has just discarded may not take the next turn as well: NOT_YOUR_TURN",
        profile="pagat", deals=[deal], origin="negative",
        steps=[*opening[:4], refused(1, "draw-stock", "NOT_YOUR_TURN", "TURN.ALTERNATE")],
        clauses=["ACTION.REJECTION"], violates=["TURN.ALTERNATE"],
        points=[at(4, phase="draw", to_act=0), at(5, "TURN.ALTERNATE", phase="draw", to_act=0,
                                                   hand_sizes=[10, 10], stock_size=30)],
    )
    yield scripted(
        "proc.reject.turn.second-draw.pagat",
        "a turn takes exactly one card: a second draw is refused with WRONG_PHASE",
        profile="pagat", deals=[deal], origin="negative",
        steps=[*opening[:3], refused(1, "draw-stock", "WRONG_PHASE", "TURN.DRAW"),
               refused(1, "take-discard", "WRONG_PHASE", "TURN.DRAW")],
        clauses=["ACTION.REJECTION", "ACTION.PHASE"], violates=["TURN.DRAW"],
        points=[at(5, "TURN.DRAW", phase="discard", to_act=1, hand_sizes=[10, 11],
                   discard_top="5D", stock_size=30)],
    )
    yield scripted(
        "proc.action.spellings.pagat",
        "every action written in another accepted spelling (any case, lower-case cards, melds in "
        "any order, '/' without spaces) is accepted as the canonical action; the hand ends in an "
        "undercut",
        profile="pagat", deals=[deal], origin="full-hand",
        steps=[ok(1, "PASS"), ok(0, "Pass"), ok(1, "Draw-Stock"), ok(1, "discard ac"),
               ok(0, "DRAW-STOCK"), ok(0, "Discard 6c"), ok(1, "take-DISCARD"),
               ok(1, "knock qd"), ok(1, "declare 7s 7h 7d/4c 2c 3c / ks js qs"),
               ok(0, "MELD 9h 9d 9s/8h 8c 8d / 3s as 2s"), ok(0, "Done")],
        clauses=["ACTION.GRAMMAR", "TURN.DRAW", "TURN.DISCARD", "KNOCK.ELIGIBLE",
                 "SHOWDOWN.DECLARATION", "SHOWDOWN.DEFENDER-SPREAD"],
        decides=["SCORE.UNDERCUT", "CARD.VALUE", "DEADWOOD.VALUE"],
        points=[at(7, "ACTION.GRAMMAR", phase="discard", to_act=1, hand_sizes=[10, 11],
                   discard_top="AC", stock_size=29),
                at(8, "ACTION.GRAMMAR", phase="declare", to_act=1),
                at(11, phase="over", to_act=None)],
        # knocker (1) keeps 6C = 6, the defender (0) keeps 5H = 5: undercut, 6 - 5 + 10
        result={"outcome": "undercut", "knocker": 1, "winner": 0, "deadwood": [5, 6],
                "points": [11, 0]},
    )


# --- knocking ----------------------------------------------------------------------------------


def knock_cases() -> Iterator[Case]:
    # KNOCK.OPTIONAL: the non-dealer could go gin at once but plays on; the dealer goes gin.
    gin_hand = "2C 3C 4C 7D 7H 7S JS QS KS 5C"
    deal = Deal.from_hands(gin_hand, DEALER, "6C", "4S", 0)
    yield scripted(
        "proc.knock.optional-gin-declined.pagat",
        "the non-dealer takes the upcard and could go gin, but discards and plays on (nobody "
        "has to knock); the dealer then goes gin and wins the hand",
        profile="pagat", deals=[deal], origin="full-hand",
        steps=[ok(1, "take-upcard"), ok(1, "discard 2C", "KNOCK.OPTIONAL"),
               ok(0, "draw-stock"), ok(0, "knock 5H"),
               ok(0, "declare 8C 8D 8H / 9D 9H 9S / AS 2S 3S 4S"),
               ok(1, "meld 3C 4C 5C 6C / 7D 7H 7S / JS QS KS")],
        clauses=["TURN.DRAW", "KNOCK.ELIGIBLE", "SHOWDOWN.DECLARATION", "LAYOFF.AFTER-GIN"],
        decides=["KNOCK.OPTIONAL", "KNOCK.GIN", "SCORE.GIN"],
        points=[at(1, "KNOCK.OPTIONAL", phase="discard", to_act=1,
                   legal_includes=["discard 2C", "knock 2C"]),
                at(2, "KNOCK.OPTIONAL", phase="draw", to_act=0, discard_top="2C",
                   hand_sizes=[10, 10]),
                at(6, phase="over", to_act=None)],
        # gin by player 0: gin_bonus 20 + the defender's deadwood 0 (no layoffs onto gin)
        result={"outcome": "gin", "knocker": 0, "winner": 0, "deadwood": [0, 0],
                "points": [20, 0]},
    )
    # DEADWOOD.MINIMUM decides a knock: melding the four fives as a set leaves 3C 4C 6S 7S (20)
    # over; the three runs 3C-5C, 5S-7S, 8H-TH leave only 5D 5H, so knocking with either is legal
    runs = Deal.from_hands("3C 4C 5C 5D 5H 5S 6S 7S 9H TH", "2C 2D 2S 9C 9D 9S JC QC KC AD",
                           "8H", "", 0)
    yield scripted(
        "proc.knock.eligible-by-the-least-deadwood.pagat",
        "a knock is judged by the least deadwood over every arrangement: the four fives are "
        "better split between two runs than kept as a set, so the knock with 5D is legal (5H, 5 "
        "points, left); the defender keeps only AD and undercuts",
        profile="pagat", deals=[runs], origin="endgame",
        steps=[ok(1, "take-upcard"), ok(1, "knock 5D", "DEADWOOD.MINIMUM"),
               ok(1, "declare 3C 4C 5C / 5S 6S 7S / 8H 9H TH"),
               ok(0, "meld 2C 2D 2S / 9C 9D 9S / JC QC KC"), ok(0, "done")],
        clauses=["KNOCK.ELIGIBLE", "KNOCK.LIMIT", "SHOWDOWN.DECLARATION",
                 "SHOWDOWN.DEFENDER-SPREAD"],
        decides=["DEADWOOD.MINIMUM", "SCORE.UNDERCUT"],
        points=[at(1, "DEADWOOD.MINIMUM", phase="discard", to_act=1,
                   legal_includes=["knock 5D", "knock 5H"]),
                at(2, "DEADWOOD.MINIMUM", phase="declare", to_act=1),
                at(5, phase="over", to_act=None)],
        # the knocker keeps 5H = 5, the defender AD = 1: undercut, 5 - 1 + 10
        result={"outcome": "undercut", "knocker": 1, "winner": 0, "deadwood": [1, 5],
                "points": [14, 0]},
    )
    # KNOCK.GIN-COMPULSORY (rlcard: eleven-card start, gin compulsory)
    eleven = Deal.from_hands("2C 3C 4C 5C 7D 7H 7S JS QS KS QD", DEALER, None, "", 0)
    yield scripted(
        "proc.knock.gin-compulsory.rlcard",
        "gin is compulsory: the non-dealer's eleven cards allow gin, so the one legal action is "
        "the knock that leaves no deadwood",
        profile="rlcard", deals=[eleven], origin="full-hand",
        steps=[ok(1, "knock QD", "KNOCK.GIN-COMPULSORY"),
               ok(1, "declare 2C 3C 4C 5C / 7D 7H 7S / JS QS KS"),
               ok(0, f"meld {MELDS_0}")],
        clauses=["KNOCK.GIN-COMPULSORY", "ELEVEN.FIRST-TURN", "SHOWDOWN.DECLARATION"],
        decides=["KNOCK.GIN", "SCORE.GIN"],
        points=[at(0, "KNOCK.GIN-COMPULSORY", phase="discard", to_act=1,
                   legal_actions=["knock QD"]),
                at(3, phase="over", to_act=None)],
        # gin_bonus 25 + the dealer's 5H
        result={"outcome": "gin", "knocker": 1, "winner": 1, "deadwood": [5, 0],
                "points": [0, 30]},
    )
    # KNOCK.PROCEDURE, KNOCK.ENDS-HAND: the knock card goes face down, not onto the pile.
    deal = standard("AC 6C")
    yield scripted(
        "proc.knock.face-down-and-ends-the-turns.pagat",
        "the dealer knocks with 5H: the knock card lies face down, so the top of the discard "
        "pile stays AC; nobody draws or discards again; the showdown is scored",
        profile="pagat", deals=[deal], origin="endgame",
        steps=[ok(1, "pass"), ok(0, "pass"), ok(1, "draw-stock"), ok(1, "discard AC"),
               ok(0, "draw-stock"), ok(0, "knock 5H", "KNOCK.PROCEDURE"),
               ok(0, f"declare {MELDS_0}"), ok(1, f"meld {MELDS_1}"), ok(1, "done")],
        clauses=["KNOCK.ENDS-HAND", "KNOCK.ELIGIBLE", "SHOWDOWN.DECLARATION",
                 "SHOWDOWN.DEFENDER-SPREAD", "SHOWDOWN.ORDER"],
        decides=["KNOCK.PROCEDURE", "OBSERVATION.PLAYER", "SCORE.KNOCK", "CARD.VALUE",
                 "DEADWOOD.VALUE"],
        points=[at(5, phase="discard", to_act=0, hand_sizes=[11, 10], discard_top="AC"),
                at(6, "KNOCK.PROCEDURE", phase="declare", to_act=0, hand_sizes=[10, 10],
                   discard_top="AC", stock_size=29),
                at(6, "KNOCK.ENDS-HAND", legal_excludes=["draw-stock", "take-discard",
                                                         "discard 6C", "knock 6C"]),
                at(7, "KNOCK.PROCEDURE", phase="defender-meld", to_act=1, discard_top="AC"),
                at(8, "KNOCK.ENDS-HAND", phase="defender-layoff", to_act=1,
                   legal_excludes=["draw-stock", "take-discard"]),
                at(9, "KNOCK.ENDS-HAND", phase="over", to_act=None, discard_top="AC",
                   stock_size=29)],
        # the knocker keeps 6C = 6, the defender QD = 10 (a face card, CARD.VALUE): 10 - 6
        result={"outcome": "knock", "knocker": 0, "winner": 0, "deadwood": [6, 10],
                "points": [4, 0]},
    )


# --- straight gin, the eleven-card start ------------------------------------------------------


def variant_cases() -> Iterator[Case]:
    deal = standard()
    yield scripted(
        "proc.reject.straight.knock-with-deadwood.straight",
        "straight gin: a knock leaving 5 points of deadwood is refused (only gin goes out); the "
        "player discards instead",
        profile="straight", deals=[deal], origin="negative",
        steps=[ok(1, "take-discard", "FIRST.PLAIN"),
               refused(1, "knock QD", "KNOCK_OVER_LIMIT", "STRAIGHT.GIN-ONLY"),
               ok(1, "discard QD")],
        clauses=["ACTION.REJECTION", "KNOCK.LIMIT", "FIRST.PLAIN"],
        violates=["STRAIGHT.GIN-ONLY"],
        points=[at(1, "STRAIGHT.GIN-ONLY", phase="discard", to_act=1,
                   legal_excludes=["knock QD", "knock 2C", "knock KS"]),
                at(2, "STRAIGHT.GIN-ONLY", phase="discard", to_act=1, hand_sizes=[10, 11]),
                at(3, phase="draw", to_act=0, discard_top="QD")],
    )
    eleven = Deal.from_hands(f"{NON_DEALER} 5D", DEALER, None, "AC", 0)
    yield scripted(
        "proc.eleven.deal-and-first-turn.rlcard",
        "the eleven-card start: the non-dealer holds eleven, the dealer ten, no upcard and 31 "
        "stock cards; the non-dealer discards first without drawing, then the dealer draws",
        profile="rlcard", deals=[eleven], origin="full-hand",
        steps=[ok(1, "discard QD", "ELEVEN.FIRST-TURN"), ok(0, "draw-stock")],
        clauses=["ELEVEN.FIRST-TURN", "TURN.DRAW", "TURN.HAND-SIZE"],
        decides=["ELEVEN.DEAL"],
        points=[at(0, "ELEVEN.DEAL", phase="discard", to_act=1, hand_sizes=[10, 11],
                   discard_top=None, stock_size=31),
                at(1, "ELEVEN.FIRST-TURN", phase="draw", to_act=0, hand_sizes=[10, 10],
                   discard_top="QD", stock_size=31),
                at(2, "ELEVEN.FIRST-TURN", phase="discard", to_act=0, hand_sizes=[11, 10],
                   discard_top="QD", stock_size=30)],
    )
    yield scripted(
        "proc.reject.eleven.no-upcard.rlcard",
        "the eleven-card start turns no upcard: there is nothing to take or pass",
        profile="rlcard", deals=[eleven], origin="negative",
        steps=[refused(1, "take-upcard", "WRONG_PHASE", "ELEVEN.DEAL"),
               refused(1, "pass", "WRONG_PHASE", "ELEVEN.DEAL")],
        clauses=["ACTION.REJECTION", "ACTION.PHASE"], violates=["ELEVEN.DEAL"],
        points=[at(2, "ELEVEN.DEAL", phase="discard", to_act=1, hand_sizes=[10, 11],
                   discard_top=None, stock_size=31)],
    )
    yield scripted(
        "proc.reject.eleven.first-turn.rlcard",
        "the eleven-card start: the non-dealer acts first and does not draw; he may knock at "
        "once (5D left over)",
        profile="rlcard", deals=[eleven], origin="negative",
        steps=[refused(0, "draw-stock", "NOT_YOUR_TURN", "ELEVEN.FIRST-TURN"),
               refused(1, "draw-stock", "WRONG_PHASE", "ELEVEN.FIRST-TURN"),
               ok(1, "knock QD", "ELEVEN.FIRST-TURN")],
        clauses=["ACTION.REJECTION", "KNOCK.ANY-TURN"], violates=["ELEVEN.FIRST-TURN"],
        points=[at(0, "ELEVEN.FIRST-TURN", phase="discard", to_act=1,
                   legal_includes=["discard QD", "discard 5D", "knock QD", "knock 5D"]),
                at(2, "ELEVEN.FIRST-TURN", phase="discard", to_act=1, hand_sizes=[10, 11]),
                at(3, "ELEVEN.FIRST-TURN", phase="declare", to_act=1)],
    )


# --- the wall ----------------------------------------------------------------------------------


def wall_cases() -> Iterator[Case]:
    deal = standard()
    stock = stock_cards(deal)
    steps = to_the_wall(deal, offer=False)  # serbian-online: no upcard offer (FIRST.PLAIN)
    n = len(steps)
    last, before_last = stock[WALL_DRAWS - 1], stock[WALL_DRAWS - 2]
    pile_below_top = [UPCARD, *stock[:WALL_DRAWS - 1]]
    yield scripted(
        "proc.reject.wall.reshuffle-not-a-permutation.serbian-online",
        "at the first wall the referee reshuffles the discard pile below its top card: a "
        "reshuffle naming other cards is refused; the right one puts the 29 cards beneath the "
        "two stock cards, and the next draw takes the first of those two",
        profile="serbian-online", deals=[deal], origin="negative",
        steps=[*steps, refused("chance", "reshuffle AC 2C 3C", "RESHUFFLE_NOT_A_PERMUTATION",
                               "WALL.RESHUFFLE"),
               ok("chance", f"reshuffle {' '.join(pile_below_top)}", "WALL.RESHUFFLE"),
               ok(0, "draw-stock"), ok(0, f"discard {stock[WALL_DRAWS]}")],
        clauses=["ACTION.REJECTION", "WALL.END"], violates=["WALL.RESHUFFLE"],
        points=[at(n, "WALL.RESHUFFLE", phase="reshuffle", to_act="chance", stock_size=2,
                   discard_top=last, hand_sizes=[10, 10]),
                at(n + 1, "WALL.RESHUFFLE", phase="reshuffle", to_act="chance", stock_size=2,
                   discard_top=last),
                at(n + 2, "WALL.RESHUFFLE", phase="draw", to_act=0, stock_size=31,
                   discard_top=last),
                at(n + 4, "WALL.RESHUFFLE", phase="draw", to_act=1, stock_size=30,
                   discard_top=stock[WALL_DRAWS])],
    )
    steps = to_the_wall(deal)
    n = len(steps)
    yield scripted(
        "proc.reject.wall.must-knock.colony",
        "the wall's last chance: having taken the last discard, the dealer must knock; a plain "
        "discard is refused, and the knock (with the taken card turned over) is accepted",
        profile="colony", deals=[deal], origin="negative",
        steps=[*steps, ok(0, "take-discard", "WALL.LAST-CHANCE"),
               refused(0, "discard 5H", "WALL_MUST_KNOCK", "WALL.LAST-CHANCE"),
               ok(0, f"knock {last}", "WALL.LAST-CHANCE")],
        clauses=["ACTION.REJECTION", "WALL.END"], violates=["WALL.LAST-CHANCE"],
        points=[at(n, "WALL.LAST-CHANCE", phase="wall", to_act=0, stock_size=2),
                at(n + 2, "WALL.LAST-CHANCE", phase="wall-knock", to_act=0,
                   hand_sizes=[11, 10], stock_size=2),
                at(n + 3, phase="declare", to_act=0)],
    )
    # WALL.REDEAL: a void hand in a match; the same dealer (pagat) deals again.
    second = {d: reversed_deck(d) for d in (0, 1)}
    for redeal, dealer, overrides in (("same", 0, {}), ("passes", 1,
                                                        {"redeal_dealer": "passes"})):
        nxt = second[dealer]
        yield scripted(
            f"proc.wall.redeal-{redeal}.pagat",
            f"a match: the first hand is void at the wall; redeal_dealer = {redeal}, so player "
            f"{dealer} deals the second hand",
            profile="pagat", overrides=overrides, deals=[deal, nxt], origin="full-match",
            steps=[*steps[:-1], ok(1, steps[-1]["action"], "WALL.REDEAL")],
            clauses=["WALL.END", "SCORE.VOID"], decides=["WALL.REDEAL"],
            points=[at(n - 1, phase="discard", to_act=1, stock_size=2),
                    at(n, "WALL.REDEAL", phase="offer-non-dealer", to_act=1 - dealer,
                       hand_sizes=[10, 10], stock_size=31,
                       discard_top=card_str(nxt.deck[20]))],
        )
    yield scripted(
        "proc.reject.wrong-dealer.void-hand.pagat",
        "a match: the first hand is void at the wall, and the second deal names player 1 as "
        "dealer although the same dealer deals again: the discard that would end the hand and "
        "start that deal is refused with WRONG_DEALER",
        profile="pagat", deals=[deal, second[1]], origin="negative",
        steps=[*steps[:-1], refused(1, steps[-1]["action"], "WRONG_DEALER", "WALL.REDEAL")],
        clauses=["ACTION.REJECTION", "WALL.END"], violates=["WALL.REDEAL"],
        points=[at(n, "WALL.REDEAL", phase="discard", to_act=1, hand_sizes=[10, 11],
                   stock_size=2, discard_top=before_last)],
    )


# --- the next dealer of a match ------------------------------------------------------------------


def dealer_cases() -> Iterator[Case]:
    deal = standard()
    hand = [ok(1, "take-upcard"), ok(1, "knock QD"), ok(1, f"declare {MELDS_1}"),
            ok(0, f"meld {MELDS_0}")]
    # both keep 5 (5D and 5H): pagat counts the tie as an undercut, the defender (0) wins and
    # the loser (1) deals next (MATCH.NEXT-DEALER, next_dealer = loser)
    yield scripted(
        "proc.match.next-dealer-loser.pagat",
        "a match: the defender wins the first hand on a tie (pagat), so the loser, player 1, "
        "deals the second",
        profile="pagat", deals=[deal, reversed_deck(1)], origin="full-match",
        steps=[*hand, ok(0, "done", "MATCH.NEXT-DEALER")],
        clauses=["SCORE.TIE"], decides=["MATCH.NEXT-DEALER"],
        points=[at(4, phase="defender-layoff", to_act=0),
                at(5, "MATCH.NEXT-DEALER", phase="offer-non-dealer", to_act=0,
                   hand_sizes=[10, 10], stock_size=31,
                   discard_top=card_str(reversed_deck(1).deck[20]))],
    )
    yield scripted(
        "proc.reject.wrong-dealer.pagat",
        "a match: the loser of the first hand (player 1) must deal the second; a second deal by "
        "player 0 is refused with WRONG_DEALER when the hand ends, and the position stays",
        profile="pagat", deals=[deal, reversed_deck(0)], origin="negative",
        steps=[*hand, refused(0, "done", "WRONG_DEALER", "MATCH.NEXT-DEALER")],
        clauses=["ACTION.REJECTION", "SCORE.TIE"], violates=["MATCH.NEXT-DEALER"],
        points=[at(5, "MATCH.NEXT-DEALER", phase="defender-layoff", to_act=0)],
    )


# --- the showdown's codes that probes do not reach ------------------------------------------


def showdown_cases() -> Iterator[Case]:
    big = {"big_gin_bonus": 31}
    deal = standard()
    yield scripted(
        "proc.reject.big-gin-not-melded.wikipedia",
        "big gin is played (big_gin_bonus = 31), but QD and 5D are not in melds: refused",
        profile="wikipedia", overrides=big, deals=[deal], origin="negative",
        steps=[ok(1, "take-discard"),  # wikipedia (seed 002): no offer (FIRST.PLAIN)
               refused(1, "big-gin", "BIG_GIN_NOT_MELDED", "KNOCK.BIG-GIN-SHAPE")],
        clauses=["ACTION.REJECTION", "KNOCK.BIG-GIN"], violates=["KNOCK.BIG-GIN-SHAPE"],
        points=[at(2, "KNOCK.BIG-GIN-SHAPE", phase="discard", to_act=1, hand_sizes=[10, 11],
                   legal_excludes=["big-gin"])],
    )
    gin = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS 5C", DEALER, "6C", "", 0)
    yield scripted(
        "proc.reject.declaration-eleven-cards.wikipedia",
        "after big gin the eleven cards must all be declared in melds: a declaration of ten of "
        "them leaving 6C over is refused",
        profile="wikipedia", overrides=big, deals=[gin], origin="negative",
        steps=[ok(1, "take-discard"), ok(1, "big-gin", "KNOCK.BIG-GIN"),
               refused(1, f"declare {MELDS_1}", "DECLARATION_ELEVEN_CARDS",
                       "SHOWDOWN.DECLARATION"),
               ok(1, "declare 2C 3C 4C 5C 6C / 7D 7H 7S / JS QS KS")],
        clauses=["ACTION.REJECTION", "KNOCK.BIG-GIN-SHAPE"], violates=["SHOWDOWN.DECLARATION"],
        points=[at(2, "KNOCK.BIG-GIN", phase="declare", to_act=1, hand_sizes=[10, 11]),
                at(3, "SHOWDOWN.DECLARATION", phase="declare", to_act=1),
                at(4, phase="defender-meld", to_act=0)],
    )
    # LAYOFF.CHAIN (serbian-online: original_melds_only): TS extends 7S 8S 9S, JS only through TS
    chain = Deal.from_hands("2C 3C 4C 7C 7D 7H 7S 8S 9S QD", "TS JS 8C 8D 8H 9D 9H AS 2S 3S",
                            "5D", "", 0)
    yield scripted(
        "proc.reject.layoff-chained.serbian-online",
        "layoffs onto the melds as first spread only: TS extends 7S 8S 9S, but JS would extend "
        "it only through the laid-off TS",
        profile="serbian-online", deals=[chain], origin="negative",
        steps=[ok(1, "take-discard"), ok(1, "knock QD"),  # FIRST.PLAIN: no offer
               ok(1, "declare 2C 3C 4C / 7C 7D 7H / 7S 8S 9S"),
               ok(0, "meld 8C 8D 8H / AS 2S 3S"), ok(0, "layoff TS to 7S", "LAYOFF.RUN"),
               refused(0, "layoff JS to 7S", "LAYOFF_CHAINED", "LAYOFF.CHAIN")],
        clauses=["ACTION.REJECTION", "LAYOFF.TARGET"], violates=["LAYOFF.CHAIN"],
        points=[at(5, phase="defender-layoff", to_act=0),
                at(6, "LAYOFF.CHAIN", phase="defender-layoff", to_act=0)],
    )


def scripted_cases() -> list[Case]:
    """Every scripted case, in a fixed order."""
    return [*deal_cases(), *turn_cases(), *knock_cases(), *variant_cases(), *wall_cases(), *dealer_cases(),
            *showdown_cases()]

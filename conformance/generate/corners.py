"""Corner cases the mutation analysis found unplayed (docs/conformance/mutation.md): positions
and questions where a generated mutant of the reference plays differently and no other family
looks. Every expected value here is written from the clause text; the build stops if the
reference disagrees (:class:`CornerError`).

* two-player hands under ``serbian-online`` (FIRST.PLAIN): the card just taken from the pile
  is neither a legal discard nor a legal knock discard (TURN.DISCARD-TAKEN); a knock with the
  king of spades, the highest card number, refused over the limit (KNOCK.LIMIT);
* a three-player table hand taken up right after the reshuffle: the pile is its top card
  only, so taking it leaves the pile empty (TABLE.WALL);
* ``table-penalty`` questions without overrides, at two players too (TABLE.PLAYERS: the table
  game is played by 2 to 4) — the existing ones all carry overrides, which an engine playing
  exactly one profile is never sent;
* a knock ruling on eleven cards, where the ruling picks the knock discard (SHOWDOWN.BEST-PLAY);
* settings at the smallest value that switches a rule on, which no profile plays: a take cap of
  1 (TURN.TAKE-CAP), a big gin bonus of 1 (KNOCK.BIG-GIN), and a table ruling with a gin bonus
  other than the undercut bonus (TABLE.PENALTY).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.games import known
from ginspec.conformance.generate.scripted import (
    DEALER,
    MELDS_1,
    NON_DEALER,
    UPCARD,
    WALL_DRAWS,
    Step,
    at,
    ok,
    refused,
    scripted,
    standard,
    stock_cards,
    to_the_wall,
)
from ginspec.conformance.generate.systems import system_case
from ginspec.conformance.generate.table import (
    THREE,
    Script,
    TableCaseError,
    _drain,
    _src,
    _three_knocked,
)
from ginspec.reference.game import Deal
from ginspec.reference.game.deal import split_deck
from ginspec.spec.cards import card_str

PROFILE: Final = "serbian-online"
GENERATOR: Final = "corners (conformance/generate/corners.py)"


def _table_source(section: str) -> dict[str, str]:
    """The source of a table-game corner case: chapter 14's section ``section``."""
    return {"spec": "spec/chapters/14-multiplayer.md", "section": section, "generator": GENERATOR}


class CornerError(AssertionError):
    """A hand-written expectation and the reference disagree: the build stops."""


def hand_corners() -> Iterator[Case]:
    """Two-player hands under ``serbian-online`` from chapter 15's deal (:func:`standard`:
    player 1 holds 2C 3C 4C / 7D 7H 7S / JS QS KS and QD, the upcard is 5D, the stock starts
    with AC)."""
    # FIRST.PLAIN: the non-dealer may take the upcard at once. Holding 5D, player 1 may discard
    # any card but the 5D (TURN.DISCARD-TAKEN, discard_taken_card = never) and knock only with
    # QD (5 left); a knock with 5D would leave QD's 10 but is a discard of the taken card too.
    discards = [f"discard {c}" for c in
                ["2C", "3C", "4C", "7D", "7H", "7S", "JS", "QS", "KS", "QD"]]
    yield scripted(
        "proc.corner.taken-card-no-knock.serbian-online",
        "under serbian-online the upcard taken at the plain first turn may not be discarded, "
        "not even as the knock discard: the legal actions are the other ten discards and the "
        "knock with QD",
        profile=PROFILE, deals=[standard()],
        steps=[ok(1, "take-discard", "FIRST.PLAIN"),
               refused(1, "knock 5D", "DISCARD_OF_TAKEN_CARD", "TURN.DISCARD-TAKEN")],
        points=[at(1, "TURN.DISCARD-TAKEN", phase="discard", to_act=1,
                   legal_actions=sorted([*discards, "knock QD"]))],
        clauses=["FIRST.PLAIN", "TURN.DISCARD-TAKEN", "KNOCK.LIMIT"],
        violates=["TURN.DISCARD-TAKEN"])
    # After drawing AC player 1 knocks with KS: JS QS, QD and AC are left, 31 > 10.
    yield scripted(
        "proc.corner.knock-king-of-spades-over-limit.serbian-online",
        "a knock discarding the king of spades (the highest card number) that leaves 31 "
        "points is refused with KNOCK_OVER_LIMIT; the position is unchanged",
        profile=PROFILE, deals=[standard()],
        steps=[ok(1, "draw-stock", "TURN.DRAW"),
               refused(1, "knock KS", "KNOCK_OVER_LIMIT", "KNOCK.LIMIT")],
        points=[at(2, phase="discard", to_act=1, hand_sizes=[10, 11], stock_size=30)],
        clauses=["FIRST.PLAIN", "KNOCK.LIMIT"], violates=["KNOCK.LIMIT"])


def wall_corners() -> Iterator[Case]:
    """WALL.LAST-CHANCE under ``openspiel`` (``take_and_knock_any_discard``): both players
    draw and throw back until the wall; the dealer, holding 5 deadwood, may take the last
    discard only to knock at once, with any card, the taken one included; no plain discard."""
    deal = standard()
    last = stock_cards(deal)[WALL_DRAWS - 1]
    steps = to_the_wall(deal)
    n = len(steps)
    yield scripted(
        "proc.corner.wall-take-to-knock.openspiel",
        "at the wall under take_and_knock_any_discard the dealer may take the last discard "
        "or pass; having taken it he may only knock, with the taken card or another",
        profile="openspiel", deals=[deal],
        steps=[*steps, ok(0, "take-discard", "WALL.LAST-CHANCE"),
               ok(0, f"knock {last}", "WALL.LAST-CHANCE")],
        clauses=["WALL.END", "WALL.LAST-CHANCE", "KNOCK.LIMIT"],
        points=[at(n, "WALL.LAST-CHANCE", phase="wall", to_act=0, stock_size=2,
                   legal_actions=["pass", "take-discard"]),
                at(n + 1, "WALL.LAST-CHANCE", phase="wall-knock", to_act=0, hand_sizes=[11, 10],
                   legal_includes=[f"knock {last}", "knock 5H"],
                   legal_excludes=[f"discard {last}", "discard 5H"]),
                at(n + 2, phase="declare", to_act=0)])


def table_corners() -> Iterator[Case]:
    """TABLE.WALL: right after the reshuffle the pile is its former top card alone."""

    s = _drain(Script.of_hands(THREE, "QD", "3C"), 2)
    top = s.state.pile[-1] if s.state.pile else None
    if top is None or len(s.state.pile) != 1:
        raise TableCaseError("after the reshuffle the pile should be one card")
    s.check(phase="draw", stock_size=30, to_act=1)
    s.act("take-discard").check(phase="discard", to_act=1, hand_sizes=[7, 8, 7],
                                discard_top=None, stock_size=30)
    s.act("discard 6H").check(phase="draw", to_act=2, discard_top="6H", stock_size=30)
    yield s.case("table.wall.take-after-reshuffle", "endgame", "three players: right after "
                 "the reshuffle the next player takes the pile's one card, which leaves it "
                 "empty; his discard starts it again", _src("TABLE.WALL"), extra=("TABLE.WALL",))


PENALTIES: Final[tuple[tuple[str, dict[str, Any], dict[str, Any], str], ...]] = (
    ("two-players-knock", {"knocker": 0, "deadwood": [4, 9]},
     {"outcome": "knock", "winner": 0, "penalties": [0, 5]},
     "two players: the defender pays his deadwood less the knocker's, 9 - 4"),
    ("two-players-undercut", {"knocker": 1, "deadwood": [3, 7]},
     {"outcome": "undercut", "winner": 0, "penalties": [0, 29]},
     "two players: the defender's 3 undercuts the knocker's 7, who pays 4 + 25"),
    ("two-players-gin", {"knocker": 1, "deadwood": [6, 0]},
     {"outcome": "gin", "winner": 1, "penalties": [31, 0]},
     "two players: after gin the defender pays 6 + 25"),
    ("three-players-gin", {"knocker": 0, "deadwood": [0, 0, 12]},
     {"outcome": "gin", "winner": 0, "penalties": [0, 25, 37]},
     "three players: after gin a defender with no deadwood still pays 25"),
    ("four-players-tie-no-undercut", {"knocker": 3, "deadwood": [5, 8, 5, 5]},
     {"outcome": "knock", "winner": 3, "penalties": [0, 3, 0, 0]},
     "four players: defenders level with the knocker's 5 do not undercut and pay 0"),
)
"""TABLE.PENALTY and TABLE.UNDERCUT with the profile's own bonuses (25 and 25)."""


def penalty_corners() -> Iterator[Case]:

    # TABLE.KNOCK: nobody knocks with more than the knock limit (10): no answer but an error.
    yield system_case("sys.table-penalty.knocker-over-limit", "table-penalty",
                      {"knocker": 0, "deadwood": [11, 20, 30]}, {"error": True},
                      description="a knocker's deadwood of 11, above any knock limit: no legal "
                      "table hand has it, the answer is an error", violates=["TABLE.KNOCK"],
                      source=_table_source("TABLE.KNOCK"))
    for name, args, expect, text in PENALTIES:
        yield system_case(f"sys.table-penalty.{name}", "table-penalty", args, expect,
                          description=text, source=_table_source("TABLE.PENALTY"))


def _adjudicate_case(case_id: str, knocker: str, defender: str, expect: dict[str, Any],
                     description: str) -> Case:
    """An ``adjudicate`` question under ``serbian-online`` with its hand-written answer
    (declaration melds in any order), checked against the reference."""

    query = {"what": "adjudicate", "knocker": knocker.split(), "defender": defender.split()}
    got = ReferenceAdapter().query("adjudicate", {k: v for k, v in query.items() if k != "what"},
                                   PROFILE, {})
    if any(got.get(k) != v for k, v in expect.items() if k != "declaration") or sorted(
            map(sorted, got.get("declaration", []))) != sorted(map(sorted, expect["declaration"])):
        raise CornerError(f"{case_id}: the spec says {expect}, the reference {got}")
    return Case.make(
        id=case_id, kind="query", origin="query", description=description,
        clauses=known(["SHOWDOWN.BEST-PLAY", "KNOCK.ELIGIBLE", "SCORE.KNOCK", "SCORE.GIN",
                       "LAYOFF.AFTER-GIN"]),
        decides=known(["SHOWDOWN.BEST-PLAY", "SCORE.GIN" if expect["outcome"] == "gin"
                       else "SCORE.KNOCK"]), profile=PROFILE,
        requires=["query.adjudicate"],
        source={"generator": GENERATOR, "blame": "SHOWDOWN.BEST-PLAY"},
        query=query, expect=expect)


def adjudicate_corners() -> Iterator[Case]:
    """Eleven-card knock rulings, where the ruling picks the knock discard (SHOWDOWN.BEST-PLAY).

    * 2C 3C 4C / 7D 7H 7S / JS QS KS, QD and 5D: the best discard is QD (5 left). The
      defender's 8C 8D 8H and 9D 9H 9S leave AS 2S 5H KH, 18 points, none of which fits the
      knocker's melds: a knock, 18 - 5 = 13 to the knocker (SCORE.KNOCK).
    * four aces, four twos and three threes: any ace or two can go, leaving gin, and so can
      many other declarations (247 candidates in all); the defender's 4C 5C 6C and 7D 8D 9D
      leave KH QH JS TS, 40, nothing to lay off: gin, 25 + 40 = 65 (SCORE.GIN). On equal nets
      the lowest card number is discarded, the ace of clubs (SHOWDOWN.BEST-PLAY).
    """
    yield _adjudicate_case(
        "q.adjudicate.eleven-cards.serbian-online", "2C 3C 4C 7D 7H 7S JS QS KS QD 5D",
        "8C 8D 8H 9D 9H 9S AS 2S 5H KH",
        {"outcome": "knock", "deadwood": {"knocker": 5, "defender": 18},
         "points": {"knocker": 13, "defender": 0},
         "declaration": [["2C", "3C", "4C"], ["7D", "7H", "7S"], ["JS", "QS", "KS"]],
         "layoffs": []},
        "the ruling on an eleven-card knock picks the knock discard (QD): knock, 5 against "
        "18, 13 points")
    yield _adjudicate_case(
        "q.adjudicate.eleven-cards-many-declarations.serbian-online",
        "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H", "4C 5C 6C 7D 8D 9D KH QH JS TS",
        {"outcome": "gin", "deadwood": {"knocker": 0, "defender": 40},
         "points": {"knocker": 65, "defender": 0},
         "declaration": [["AD", "AH", "AS"], ["2C", "2D", "2H", "2S"], ["3C", "3D", "3H"]],
         "layoffs": []},
        "an eleven-card ruling with 247 legal declarations: the ace of clubs goes, gin, 65 "
        "points")


def match_corners() -> Iterator[Case]:
    """A game won by player 1 (MATCH.SETTLEMENT: the payee is the higher total, here player
    1): under openspiel gin with 60 against scores 25 + 60 = 85, a knock of 5 against 30 then
    25; 110 reaches the target of 100 after the second hand. No game bonus, no boxes; player 0
    scored nothing (a shutout, with no effect under openspiel)."""

    hands = [[1, "gin", 0, 60], [1, "knock", 5, 30]]
    expect = {"over": True, "hands": 2, "totals": [0, 110], "winner": 1, "shutout": True,
              "settlement": 110, "payee": 1}
    got = ReferenceAdapter().query("match", {"hands": hands}, "openspiel", {})
    if any(got.get(k) != v for k, v in expect.items()):
        raise CornerError(f"game won by player 1: the spec says {expect}, the reference {got}")
    yield Case.make(
        id="q.match.player-one-is-paid.openspiel", kind="query", origin="query",
        description="a game player 1 wins 110 to 0 under openspiel: player 1 is the payee of "
        "110",
        clauses=known(["MATCH.CUMULATIVE", "MATCH.TARGET", "MATCH.SETTLEMENT", "MATCH.SHUTOUT",
                       "MATCH.SHUTOUT-TEST", "SCORE.GIN", "SCORE.KNOCK"]),
        decides=known(["MATCH.TARGET", "MATCH.SETTLEMENT"]), profile="openspiel",
        requires=["query.match"],
        source={"generator": GENERATOR, "blame": "MATCH.SETTLEMENT"},
        query={"what": "match", "hands": hands}, expect=expect)


def setting_corners() -> Iterator[Case]:
    """Rules switched on by their smallest value, under ``wikipedia`` (FIRST.PLAIN, no offer):

    * ``discard_take_cap = 1`` (TURN.TAKE-CAP): player 1 draws AC and throws QD; player 0's take
      of it is the first take of the hand, which reaches the cap: the hand is void at once and
      the take is not carried out (QD stays on the pile, both hands keep ten cards);
    * ``big_gin_bonus = 1`` (KNOCK.BIG-GIN): any bonus above 0 makes big gin exist: player 1
      takes 6C onto 2C 3C 4C 5C / 7D 7H 7S / JS QS KS and may go big gin;
    * ``gin_bonus = 20`` at the table (TABLE.PENALTY; the undercut bonus stays 25): chapter 14's
      gin ruling (table-adjudicate-picks-gin) charges each defender his deadwood plus 20, 22 + 20
      and 21 + 20.
    """
    yield scripted(
        "proc.corner.take-cap-one.wikipedia",
        "discard_take_cap = 1: the first take of the top discard in the hand voids it, and the "
        "take is not carried out",
        profile="wikipedia", overrides={"discard_take_cap": 1}, deals=[standard()],
        steps=[ok(1, "draw-stock", "TURN.DRAW"), ok(1, "discard QD", "TURN.DISCARD"),
               ok(0, "take-discard", "TURN.TAKE-CAP")],
        points=[at(2, phase="draw", to_act=0, discard_top="QD"),
                at(3, "TURN.TAKE-CAP", phase="over", to_act=None, hand_sizes=[10, 10],
                   discard_top="QD")],
        clauses=["FIRST.PLAIN", "TURN.TAKE-CAP"], decides=["TURN.TAKE-CAP"],
        result={"outcome": "void", "knocker": None, "winner": None, "deadwood": [0, 0],
                "points": [0, 0]})
    gin = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS 5C", DEALER, "6C", "", 0)
    yield scripted(
        "proc.corner.big-gin-bonus-one.wikipedia",
        "big_gin_bonus = 1: big gin is played with any bonus above 0; eleven melded cards "
        "after the take may go big gin",
        profile="wikipedia", overrides={"big_gin_bonus": 1}, deals=[gin],
        steps=[ok(1, "take-discard", "TURN.DRAW"), ok(1, "big-gin", "KNOCK.BIG-GIN")],
        points=[at(1, "KNOCK.BIG-GIN", phase="discard", to_act=1, hand_sizes=[10, 11],
                   legal_includes=["big-gin", "knock 2C"]),
                at(2, "KNOCK.BIG-GIN", phase="declare", to_act=1)],
        clauses=["FIRST.PLAIN", "KNOCK.BIG-GIN-SHAPE"], decides=["KNOCK.BIG-GIN"])
    hands = ["7H 8H 9H TH KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "JH 3S 3D 3H QS QH AC"]
    yield system_case(
        "sys.table-adjudicate.gin-bonus-20", "table-adjudicate",
        {"hands": [h.split() for h in hands], "knocker": 0},
        {"outcome": "gin", "winner": 0, "deadwood": [0, 22, 21], "penalties": [0, 42, 41],
         "discard": "2C", "declaration": [["7H", "8H", "9H", "TH"], ["KC", "KD", "KS"]],
         "layoffs": [[], ["6H"], ["JH"]]},
        description="a table gin ruling with gin_bonus = 20 and the undercut bonus 25: each "
        "defender pays his deadwood plus 20", profile=PROFILE, overrides={"gin_bonus": 20},
        clauses=["TABLE.PENALTY"],
        source=_table_source("TABLE.PENALTY"))


def _take_turns(deal: Deal, takes: int) -> list[Step]:
    """After both pass the upcard and the non-dealer draws AC and throws it: ``takes`` turns in
    which the player to act takes the top discard and throws the lowest card by card number he
    held before (never the card just taken, so TURN.TAKE-AND-RETURN never applies)."""
    non_dealer, dealer, _, stock = split_deck(deal, eleven_card_start=False)
    nd = 1 - deal.dealer
    hands = {nd: non_dealer, deal.dealer: dealer}
    first = stock[0]
    steps = [ok(nd, "pass"), ok(deal.dealer, "pass"), ok(nd, "draw-stock"),
             ok(nd, f"discard {card_str(first)}")]
    top, who = first, deal.dealer
    for _ in range(takes):
        thrown = min(hands[who])
        hands[who] = [c for c in hands[who] if c != thrown] + [top]
        steps += [ok(who, "take-discard", "TURN.DRAW"), ok(who, f"discard {card_str(thrown)}")]
        top, who = thrown, 1 - who
    return steps


def rule_corners() -> Iterator[Case]:
    """Rules of single profiles at a boundary no other case reaches:

    * KNOCK.OPTIONAL (pagat, gin not compulsory): player 1 holds 2C 3C 4C / 7D 7H 7S / JS QS KS
      and 3D and draws AC; gin is his by throwing 3D, but he may knock with AC instead, 3 left;
    * TURN.TAKE-CAP under openspiel (cap 50): 49 takes of the top discard are played; the 50th
      voids the hand and is not carried out;
    * WALL.LAST-CHANCE under openspiel: at the wall the dealer, holding three melds and QH, may
      take the last discard KH, since a knock is then possible at exactly the limit (10);
    * WALL.RESHUFFLE under serbian-online: the first wall turns the pile into the stock (in the
      order the chance step gives), the second voids the hand;
    * TABLE.UNDERCUT under serbian-online (a tie is no undercut): a defender level with the
      knocker's 5 pays 0 and the knocker wins.
    """
    deal = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS 3D", DEALER, UPCARD, "AC", 0)
    yield scripted(
        "proc.corner.knock-instead-of-gin.pagat",
        "gin is not compulsory: holding gin after the draw, a player may knock with deadwood "
        "instead (AC thrown, 3D's 3 left)",
        profile="pagat", deals=[deal],
        steps=[ok(1, "pass"), ok(0, "pass"), ok(1, "draw-stock", "FIRST.BOTH-PASS"),
               ok(1, "knock AC", "KNOCK.OPTIONAL")],
        points=[at(3, "KNOCK.OPTIONAL", phase="discard", to_act=1,
                   legal_includes=["knock 3D", "knock AC", "discard 3D"]),
                at(4, phase="declare", to_act=1)],
        clauses=["KNOCK.GIN-COMPULSORY", "KNOCK.LIMIT"], decides=["KNOCK.OPTIONAL"])
    deal = standard()
    steps = _take_turns(deal, 49)
    n = len(steps)
    taken = str(steps[-1]["action"]).split()[1]
    yield scripted(
        "proc.corner.take-cap-fifty.openspiel",
        "openspiel's take cap of 50: 49 takes of the top discard are played, the 50th voids the "
        "hand and is not carried out",
        profile="openspiel", deals=[deal],
        steps=[*steps, ok(0 if steps[-1]["player"] == 1 else 1, "take-discard",
                          "TURN.TAKE-CAP")],
        points=[at(n, phase="draw", hand_sizes=[10, 10], discard_top=taken),
                at(n + 1, "TURN.TAKE-CAP", phase="over", to_act=None, hand_sizes=[10, 10],
                   discard_top=taken)],
        clauses=["FIRST.BOTH-PASS", "TURN.TAKE-AND-RETURN"], decides=["TURN.TAKE-CAP"],
        result={"outcome": "void", "knocker": None, "winner": None, "deadwood": [0, 0],
                "points": [0, 0]})
    base = Deal.from_hands(NON_DEALER, DEALER.replace("5H", "QH"), UPCARD, "", 0)
    rest = [c for c in stock_cards(base) if c != "KH"]
    deal = Deal.from_hands(NON_DEALER, DEALER.replace("5H", "QH"), UPCARD,
                           " ".join([*rest[:WALL_DRAWS - 1], "KH"]), 0)
    steps = to_the_wall(deal)
    n = len(steps)
    yield scripted(
        "proc.corner.wall-take-to-knock-at-limit.openspiel",
        "at the wall under take_and_knock_any_discard the dealer may take KH: with it he can "
        "knock at exactly the limit, QH or KH left",
        profile="openspiel", deals=[deal],
        steps=[*steps, ok(0, "take-discard", "WALL.LAST-CHANCE"),
               ok(0, "knock KH", "WALL.LAST-CHANCE")],
        points=[at(n, "WALL.LAST-CHANCE", phase="wall", to_act=0,
                   legal_actions=["pass", "take-discard"]),
                at(n + 1, "WALL.LAST-CHANCE", phase="wall-knock", to_act=0,
                   legal_includes=["knock KH", "knock QH"]),
                at(n + 2, phase="declare", to_act=0)],
        clauses=["WALL.END", "KNOCK.LIMIT"], decides=["WALL.LAST-CHANCE"])
    deal = standard()
    steps = to_the_wall(deal, offer=False)
    pile = [UPCARD, *(str(s["action"]).split()[1] for s in steps if s["action"] != "draw-stock")]
    n = len(steps)
    after = [s for i, card in enumerate([*stock_cards(deal)[WALL_DRAWS:], *pile[:-1]])
             for s in (ok(i % 2, "draw-stock"), ok(i % 2, f"discard {card}"))][:2 * WALL_DRAWS]
    yield scripted(
        "proc.corner.second-wall-void.serbian-online",
        "under serbian-online the first wall reshuffles the pile into the stock; the second "
        "wall voids the hand",
        profile=PROFILE, deals=[deal],
        steps=[*steps, ok("chance", f"reshuffle {' '.join(pile[:-1])}", "WALL.RESHUFFLE"),
               *after],
        points=[at(n, "WALL.RESHUFFLE", phase="reshuffle"),
                at(n + 1, phase="draw", to_act=0, stock_size=31),
                at(n + 1 + len(after), "WALL.RESHUFFLE", phase="over", to_act=None)],
        clauses=["WALL.END", "SCORE.VOID"], decides=["WALL.RESHUFFLE"],
        result={"outcome": "void", "knocker": None, "winner": None, "deadwood": [0, 0],
                "points": [0, 0]})
    hands = ["2C 3C 4C 7D 7H 7S 5H", "8C 8D 8S JH JD JS 5D", "KC QD TH 9C 6S 4D 2H"]
    yield system_case(
        "sys.table-adjudicate.tie-knocker-wins", "table-adjudicate",
        {"hands": [h.split() for h in hands], "knocker": 0},
        {"outcome": "knock", "winner": 0, "deadwood": [5, 5, 51], "penalties": [0, 0, 46],
         "layoffs": [[], [], []]},
        description="a table knock of 5 that a defender ties (5D over two sets): under "
        "serbian-online a tie is no undercut, the knocker wins and the tying defender pays 0",
        profile=PROFILE, clauses=["TABLE.UNDERCUT", "SCORE.TIE"],
        source=_table_source("TABLE.PENALTY"))


def override_corners() -> Iterator[Case]:
    """Rules no profile plays or no case reached, under the overrides or profile that play them:

    * LAYOFF.KNOCKER with ``knocker_may_lay_off`` (pagat otherwise): player 1 takes the upcard 5D
      and knocks with QD, 5 left; the dealer spreads 2D 3D 4D, 8C 8D 8H and AS 2S 3S and lays
      off nothing; then the knocker may lay off his 5D onto 2D 3D 4D, or be done;
    * WALL.LAST-CHANCE under rlcard (``take_and_play_on``): at the wall the non-dealer, with no
      meld and no knock in sight, may still take the wall discard and play on, discarding
      another card, which reaches the wall again;
    * TABLE.LAYOFF-ORIGINAL with ``ace_high_runs`` (serbian-online otherwise): seat 1 lays KS
      off onto the knocker's TS JS QS; seat 2's AS would follow only past that KS, across the
      king-ace step of the ace-high order, so he keeps it.
    """
    deal = Deal.from_hands(NON_DEALER, "2D 3D 4D 8C 8D 8H AS 2S 3S 5H", UPCARD, "", 0)
    yield scripted(
        "proc.corner.knocker-lays-off.pagat",
        "knocker_may_lay_off = true: after the defender is done, the knocker may lay his 5D off "
        "onto the defender's 2D 3D 4D",
        profile="pagat", overrides={"knocker_may_lay_off": True}, deals=[deal],
        steps=[ok(1, "take-upcard", "FIRST.UPCARD-OFFER"), ok(1, "knock QD", "KNOCK.ELIGIBLE"),
               ok(1, f"declare {MELDS_1}", "SHOWDOWN.DECLARATION"),
               ok(0, "meld 2D 3D 4D / 8C 8D 8H / AS 2S 3S", "SHOWDOWN.DEFENDER-SPREAD"),
               ok(0, "done", "LAYOFF.TARGET")],
        points=[at(5, "LAYOFF.KNOCKER", phase="knocker-layoff", to_act=1,
                   legal_includes=["done"])],
        clauses=["LAYOFF.RUN"], decides=["LAYOFF.KNOCKER"])
    deal = Deal.from_hands("KC JH 9S 8C 6S 4H 3D 2H TD 5C AD", "QD JS 9H 7C 5S 3H AS KD 8H 6D",
                           None, "", 0)  # no melds: no gin (compulsory under rlcard) in reach
    steps = to_the_wall(deal, opening=ok(1, "discard AD", "ELEVEN.FIRST-TURN"))
    last_player, taker, thrown = 0, 1, "KC"  # the dealer draws the 29th card; no meld for 1
    n = len(steps)
    yield scripted(
        "proc.corner.wall-play-on-without-knock.rlcard",
        "at the wall under take_and_play_on a player who cannot knock may still take the wall "
        "discard and play on; his discard reaches the wall again",
        profile="rlcard", deals=[deal],
        steps=[*steps, ok(taker, "take-discard", "WALL.LAST-CHANCE"),
               ok(taker, f"discard {thrown}", "WALL.LAST-CHANCE")],
        points=[at(n, "WALL.LAST-CHANCE", phase="wall", to_act=taker, stock_size=2),
                at(n + 1, "WALL.LAST-CHANCE", phase="discard", to_act=taker),
                at(n + 2, "WALL.LAST-CHANCE", phase="wall", to_act=last_player, stock_size=2,
                   discard_top=thrown)],
        clauses=["WALL.END", "ELEVEN.DEAL"], decides=["WALL.LAST-CHANCE"])
    hands = ["TS JS QS 5C 5D 5H AC KD", "KS 7C 7D 7H 9C 3D 2H", "AS 8D 8H 8S 6C 4D 2D"]
    yield system_case(
        "sys.table-adjudicate.ace-high-past-layoff", "table-adjudicate",
        {"hands": [h.split() for h in hands], "knocker": 0},
        {"outcome": "knock", "winner": 0, "deadwood": [1, 14, 13], "penalties": [0, 13, 12],
         "discard": "KD", "declaration": [["5C", "5D", "5H"], ["TS", "JS", "QS"]],
         "layoffs": [[], ["KS"], []]},
        description="ace_high_runs = true at serbian-online's table: seat 2's AS would extend "
        "TS JS QS only past the KS seat 1 laid off, and only the knocker's melds as declared "
        "take layoffs, so he keeps it", profile=PROFILE, overrides={"ace_high_runs": True},
        clauses=["TABLE.LAYOFF-ORIGINAL", "TABLE.PENALTY"],
        source=_table_source("TABLE.LAYOFF-ORIGINAL"))


def _query_case(case_id: str, what: str, args: dict[str, Any], expect: dict[str, Any], *,
                profile: str, overrides: dict[str, Any], clauses: list[str], decides: list[str],
                blame: str, description: str) -> Case:
    """A ``what`` question with its hand-written answer, checked against the reference (a
    declaration's melds in any order)."""

    got = ReferenceAdapter().query(what, args, profile, overrides)
    differs = [k for k, v in expect.items() if k != "declaration" and got.get(k) != v]
    if differs or ("declaration" in expect and sorted(map(sorted, got.get("declaration", [])))
                   != sorted(map(sorted, expect["declaration"]))):
        raise CornerError(f"{case_id}: the spec says {expect}, the reference {got}")
    return Case.make(
        id=case_id, kind="query", origin="query", description=description,
        clauses=known(clauses), decides=known(decides), profile=profile, overrides=overrides,
        requires=[f"query.{what}"], source={"generator": GENERATOR, "blame": blame},
        query={"what": what, **args}, expect=expect)


def mutation_run_corners() -> Iterator[Case]:
    """The eight misses of the independent mutation run (docs/conformance/mutation.md):
    answers to valid requests that no case asked for.

    * KNOCK.GIN-COMPULSORY under rlcard (gin compulsory, eleven-card start): player 1 holds
      AC 2C 3C 4C / 7D 7H 7S / JS QS KS and 3D; gin is his by throwing 3D, so a knock with AC
      (3D's 3 left, within the limit) and a plain discard are refused GIN_COMPULSORY, and the
      gin knock is his only legal action;
    * ACTION.GRAMMAR: ``pass`` takes no argument, so ``pass 3C`` is malformed whatever the phase
      (refused MALFORMED_ACTION where ``pass`` is legal and where it is not); a meld names each
      card once, so ``declare 2C 3C 4C 4C / ...`` is malformed, not a declaration of a non-meld;
    * WALL.LAST-CHANCE under colony (``take_and_knock_any_discard``, ``only_at_wall``): the dealer
      holds 8C 8D 8H / 9D 9H 9S and AD AH 2D 3H (7); the wall discard KC fits nothing, and only
      turning it over as the knock card leaves him within the limit (any other discard leaves
      14 or more): take-discard is legal, then ``knock KC`` is his only action;
    * TABLE.TURN with ``discard_taken_card = always`` at serbian-online's table: the first seat
      takes QD and may discard it at once, or knock with it (2C's 2 left);
    * SHOWDOWN.BEST-PLAY and SCORE.BIG-GIN with ``big_gin_bonus = 31`` (wikipedia; gin bonus
      25): eleven melded cards 2C-6C / 7D 7H 7S / JS QS KS against 30 are ruled big gin, 31 + 30
      = 61, which beats gin after a discard (25 + 30 = 55);
    * OKLAHOMA.SPADES with ``spade_double = off``: a knock of 7 undercut by 5 under a spade
      upcard scores 2 + 10 (oklahoma's undercut bonus) = 12, not doubled;
    * ACTION.PHASE at the table: a finished table hand has no legal actions (phase ``over``,
      nobody acts).
    """
    deal = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS 3D AC", DEALER, None, "", 0)
    yield scripted(
        "proc.corner.gin-compulsory-no-knock-with-deadwood.rlcard",
        "gin is compulsory: holding gin after the deal, player 1 may not knock with deadwood "
        "(AC thrown, 3D's 3 left) nor discard; the gin knock with 3D is his only action",
        profile="rlcard", deals=[deal],
        steps=[refused(1, "knock AC", "GIN_COMPULSORY", "KNOCK.GIN-COMPULSORY"),
               refused(1, "discard AC", "GIN_COMPULSORY", "KNOCK.GIN-COMPULSORY"),
               ok(1, "knock 3D", "KNOCK.GIN")],
        points=[at(0, "KNOCK.GIN-COMPULSORY", phase="discard", to_act=1,
                   legal_actions=["knock 3D"]),
                at(2, phase="discard", to_act=1, hand_sizes=[10, 11]),
                at(3, phase="declare", to_act=1)],
        clauses=["ELEVEN.FIRST-TURN", "KNOCK.LIMIT"], violates=["KNOCK.GIN-COMPULSORY"])
    deal = standard()
    yield scripted(
        "proc.corner.pass-with-a-card-is-malformed.pagat",
        "pass takes no argument: 'pass 3C' is malformed, both while the upcard is offered "
        "(where pass is legal) and after the take (where it is not)",
        profile="pagat", deals=[deal],
        steps=[refused(1, "pass 3C", "MALFORMED_ACTION", "ACTION.GRAMMAR"),
               ok(1, "take-upcard", "FIRST.UPCARD-OFFER"),
               refused(1, "pass 3C", "MALFORMED_ACTION", "ACTION.GRAMMAR"),
               ok(1, "discard QD", "TURN.DISCARD")],
        points=[at(1, phase="offer-non-dealer", to_act=1, hand_sizes=[10, 10]),
                at(3, phase="discard", to_act=1, hand_sizes=[10, 11])],
        clauses=["FIRST.UPCARD-OFFER"], violates=["ACTION.GRAMMAR"])
    yield scripted(
        "proc.corner.declare-card-twice-in-a-meld-is-malformed.pagat",
        "a meld names each card once: 'declare 2C 3C 4C 4C / ...' is malformed "
        "(MALFORMED_ACTION), not a declared group that is no meld",
        profile="pagat", deals=[deal],
        steps=[ok(1, "take-upcard", "FIRST.UPCARD-OFFER"), ok(1, "knock QD", "KNOCK.ELIGIBLE"),
               refused(1, "declare 2C 3C 4C 4C / 7D 7H 7S / JS QS KS", "MALFORMED_ACTION",
                       "ACTION.GRAMMAR"),
               ok(1, f"declare {MELDS_1}", "SHOWDOWN.DECLARATION")],
        points=[at(3, phase="declare", to_act=1), at(4, phase="defender-meld", to_act=0)],
        clauses=["KNOCK.PROCEDURE"], violates=["ACTION.GRAMMAR"])
    dealer = "8C 8D 8H 9D 9H 9S AD AH 2D 3H"
    base = Deal.from_hands(NON_DEALER, dealer, UPCARD, "", 0)
    rest = [c for c in stock_cards(base) if c != "KC"]
    deal = Deal.from_hands(NON_DEALER, dealer, UPCARD, " ".join([*rest[:WALL_DRAWS - 1], "KC"]),
                           0)
    steps = to_the_wall(deal)
    n = len(steps)
    yield scripted(
        "proc.corner.wall-take-to-turn-over.colony",
        "at colony's wall the dealer may take the wall discard KC although only knocking with "
        "KC itself (turning it over) keeps him within the limit; then that knock is his only "
        "action",
        profile="colony", deals=[deal],
        steps=[*steps, ok(0, "take-discard", "WALL.LAST-CHANCE"),
               ok(0, "knock KC", "WALL.LAST-CHANCE")],
        points=[at(n, "WALL.LAST-CHANCE", phase="wall", to_act=0, stock_size=2,
                   discard_top="KC", legal_actions=["pass", "take-discard"]),
                at(n + 1, "WALL.LAST-CHANCE", phase="wall-knock", to_act=0, hand_sizes=[11, 10],
                   legal_actions=["knock KC"]),
                at(n + 2, phase="declare", to_act=0)],
        clauses=["WALL.END", "TURN.DISCARD-TAKEN", "KNOCK.LIMIT"], decides=["WALL.LAST-CHANCE"])
    s = Script.of_hands(THREE, "QD", "3C", discard_taken_card="always")
    s.act("take-discard").check(phase="discard", to_act=0, hand_sizes=[8, 7, 7],
                                legal=["discard QD", "knock QD"])
    s.act("discard QD").check(phase="draw", to_act=1, discard_top="QD", hand_sizes=[7, 7, 7])
    yield s.case("table.turn.taken-card-discarded-always", "endgame",
                 "discard_taken_card = always at the table: the card just taken from the pile "
                 "may be discarded at once, or knocked with", _src("TABLE.TURN"),
                 extra=("TABLE.TURN",))
    yield _query_case(
        "q.adjudicate.big-gin-beats-gin.wikipedia", "adjudicate",
        {"knocker": ["2C", "3C", "4C", "5C", "6C", "7D", "7H", "7S", "JS", "QS", "KS"],
         "defender": ["8C", "8D", "8H", "9D", "9H", "9S", "4H", "6D", "KH", "QD"]},
        {"outcome": "big_gin", "deadwood": {"knocker": 0, "defender": 30},
         "points": {"knocker": 61, "defender": 0},
         "declaration": [["2C", "3C", "4C", "5C", "6C"], ["7D", "7H", "7S"], ["JS", "QS", "KS"]],
         "layoffs": []},
        profile="wikipedia", overrides={"big_gin_bonus": 31},
        clauses=["SHOWDOWN.BEST-PLAY", "KNOCK.BIG-GIN", "KNOCK.BIG-GIN-SHAPE", "SCORE.BIG-GIN",
                 "LAYOFF.AFTER-GIN"], decides=["SHOWDOWN.BEST-PLAY", "SCORE.BIG-GIN"],
        blame="SCORE.BIG-GIN",
        description="big_gin_bonus = 31: eleven melded cards against 30 are ruled big gin, 61 "
        "points, not gin after a discard (55)")
    yield _query_case(
        "q.score.spade-upcard-not-doubled.oklahoma", "score",
        {"outcome": "knock", "knocker_deadwood": 7, "defender_deadwood": 5, "upcard": "7S"},
        {"points": [0, 12], "undercut": True, "boxes": [0, 1]},
        profile="oklahoma", overrides={"spade_double": "off"},
        clauses=["OKLAHOMA.SPADES", "SCORE.UNDERCUT"], decides=["OKLAHOMA.SPADES"],
        blame="OKLAHOMA.SPADES",
        description="spade_double = off under Oklahoma: a spade upcard doubles nothing; the "
        "undercut scores 2 + 10")
    s = _three_knocked().act("declare 7H 8H 9H / KC KD KS", "meld 4C 4D 4S", "done",
                             "meld 3S 3D 3H", "done")
    s.check(phase="over", to_act=None, legal_actions=[])
    yield s.case("table.over.no-legal-actions", "endgame",
                 "three players: once the table hand is over nobody acts and there are no legal "
                 "actions", _src("TABLE.REJECTION"),
                 {"outcome": "knock", "knocker": 0, "winner": 0, "deadwood": [2, 28, 26],
                  "penalties": [0, 26, 24]})


def corner_cases() -> list[Case]:
    return [*hand_corners(), *wall_corners(), *table_corners(), *penalty_corners(),
            *adjudicate_corners(), *match_corners(), *setting_corners(), *rule_corners(),
            *override_corners(), *mutation_run_corners()]

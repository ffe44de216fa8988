"""``ginspec ruling``: the casebook of disputed rulings — list, check, show, new."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ginspec.reference.cli.args import help_then_error
from ginspec.reference.cli.console import print_table
from ginspec.reference.rulings import (
    KINDS,
    AnyRuling,
    RulingCase,
    RulingVerdict,
    casebook,
    check_ruling,
    find_ruling,
    findings,
)
from ginspec.spec.cards import card_str
from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.inputs import check_writable

TEMPLATE = """\
# A ginspec ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
# Cards: rank A 2 3 4 5 6 7 8 9 T J Q K then suit C D H S (10 and ♣♦♥♠ are accepted too).
format = 1
id = "my-knock-with-ten"                 # your own ID; the shipped casebook uses C01, C02, ...
title = "Knocking with exactly ten"
question = "The knocker's only unmelded card is a king. May he knock, and what does he score?"
clauses = ["KNOCK.LIMIT"]                 # optional: the clauses this ruling is about

[position]
knocker = "2C 3C 4C 7H 7D 7S JS QS KS KD"    # the ten cards kept after the knock discard
defender = "8C 8D 8H 9S 9H 9D AS 2S 5H 6D"   # the defender's ten cards
# knocker_melds = "2C 3C 4C / 7D 7H 7S / JS QS KS"   # optional: the declaration, else best play
# upcard = "7S"                                    # optional: the first upcard (Oklahoma)

[[sources]]                               # optional: who says what
says = "Ten or less may knock."
cite = ["SEED-RO: Knocking", "SEED-SQ: Knocking"]

[[expect]]                                # one table per profile you want checked
profile = "pagat"
outcome = "knock"                         # knock, gin, big_gin, undercut, tie, gin_cancelled, illegal_knock
deadwood = { knocker = 10, defender = 14 }
points = { knocker = 4, defender = 0 }

[[expect]]
profile = "straight"                      # gin only: a knock with 10 is not allowed
outcome = "illegal_knock"
"""

GAME_TEMPLATE = """\
# A ginspec game-script ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
# A deal, a script of actions, and what each profile says about the position it reaches.
# Actions: take-upcard, pass, draw-stock, take-discard, discard XX, knock XX, big-gin, declare ...,
# meld ..., layoff XX to YY, done (see the actions chapter). "play-to-wall" in a script: each
# player in turn draws from the stock and throws the card drawn, up to the draw that leaves the wall.
format = 1
kind = "game"
id = "my-taken-card"
title = "Throwing back the card just taken"
question = "The non-dealer takes the upcard. May he discard it again at once?"
clauses = ["TURN.DISCARD-TAKEN"]

[position]                                # or: deck = "52 cards, the first dealt first"
non_dealer = "2C 3C 4C 7D 7H 7S JS QS KS QD"  # player 1 (the dealer is player 0 unless dealer = 1)
dealer_cards = "8C 8D 8H 9D 9H 9S AS 2S 3S 5H"
upcard = "5D"
stock = "KH"                              # optional: the top of the stock; the rest in card order
dealer = 0
script = ["take-upcard"]                  # each action made by the player to move

[[expect]]
profile = "pagat"
try = "discard 5D"                        # the action in dispute
allowed = false
code = "DISCARD_OF_TAKEN_CARD"            # optional: the rejection code and clause when refused
clause = "TURN.DISCARD-TAKEN"
legal = ["discard QD", "knock QD"]        # optional: actions that must be legal / illegal
illegal = ["knock 5D"]
# then = ["knock QD", ...]                # optional: more actions under this profile only
# phase = "discard"  to_move = 1          # optional: where the hand stands
# outcome = "knock"  points = [0, 5]      # optional, once the hand is over: player 0, player 1

[[expect]]
profile = "openspiel"
try = "discard 5D"
allowed = true
"""

MATCH_TEMPLATE = """\
# A ginspec match ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
format = 1
kind = "match"
id = "my-shutout"
title = "A shutout"
question = "Player 0 wins three hands, player 1 none. What are the final totals?"
clauses = ["MATCH.SHUTOUT"]

[position]
# each hand: [knocker, outcome, knocker's deadwood, defender's deadwood] or ["void"];
# outcome is knock, gin or big_gin; players are 0 and 1
hands = [[0, "knock", 2, 42], [0, "knock", 5, 40], [0, "knock", 3, 33]]
dealer = 0                                # who deals the first hand

[[expect]]
profile = "pagat"
over = true
hand_points = [105, 0]                    # every field is optional; a list is [player 0, player 1]
totals = [365, 0]                         # after game bonus, boxes and shutout
winner = 0
shutout = true
# boxes = [3, 0]  scores = [105, 0] (what counts toward the target)  settlement = 365  payee = 0
# dealers = [0, 1, 1, 1]                  # the dealer of each hand, then of the next one

[[expect]]
profile = "pagat"
set = { shutout_effect = "hand_points_doubled", box_bonus = 25 }
totals = [385, 0]
"""

HOLLYWOOD_TEMPLATE = """\
# A ginspec Hollywood ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
format = 1
kind = "hollywood"
id = "my-hollywood"
title = "Hollywood entry"
question = "Where do the scores of four hands go?"
clauses = ["HOLLYWOOD.ENTRY"]

[position]
hands = [[0, 25], [1, 12], [0, 18], [0, 36]]   # [winner, points] or ["void"]

[[expect]]
profile = "hollywood"
games = [[79, 12], [54, 0], [36, 0]]      # each game: [player 0, player 1]
over = false
# payee = 0  settlement = 100             # once every game is over
"""

PARTNERSHIP_TEMPLATE = """\
# A ginspec partnership ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
# Team 0 is seats 0 and 2, team 1 seats 1 and 3; in the first deal seat 0 plays seat 1 and
# seat 2 plays seat 3, in the second 0 plays 3 and 2 plays 1, and so on.
format = 1
kind = "partnership"
id = "my-netting"
title = "Netting a deal"
question = "Seat 0 wins 30, seat 3 wins 29. What does each team score?"
clauses = ["PARTNER.NETTING"]

[position]
deals = [[[0, 1, 30], [3, 2, 29]]]        # each deal: two tables, [winner, loser, points] or ["void"]

[[expect]]
profile = "partnership"
netted = [[0, 1]]                         # per deal: [team, points] or ["none"]
totals = [1, 0]
over = false
# final = [..]  payee = 0  settlement = 0 # once the game is over
"""

THREE_TEMPLATE = """\
# A ginspec three-player ruling (format 1). Check it with:  ginspec ruling check THIS_FILE
format = 1
kind = "three-player"
id = "my-rotation"
title = "Three-player rotation"
question = "Who deals and who sits out after these hands?"
clauses = ["THREE.ROTATION"]

[position]
hands = [[2, 1, 10], [0, 2, 25]]          # [winner, loser, points] or ["void"]

[[expect]]
profile = "three-player"
# each seating: [dealer, sits out, plays first, plays second], before each hand and after the last
seatings = [[0, 0, 1, 2], [1, 1, 2, 0], [2, 2, 0, 1]]
scores = [25, 0, 10]
over = false
# payments = [[payer, payee, amount], ...]  net = [..]   # once the game is over
"""

TABLE_TEMPLATE = """\
# A ginspec table-game ruling (format 1): a knock at a table of three or four.
# Check it with:  ginspec ruling check THIS_FILE
format = 1
kind = "table"
id = "my-table-layoff"
title = "A layoff after another player's layoff"
question = "Seat 1 lays 6H off on the knocker's 7H 8H 9H. May seat 2 then add 5H?"
clauses = ["TABLE.LAYOFF-ORIGINAL"]

[position]
# every seat's cards in seat order (play passes to the next higher seat): the knocker's seven kept
# cards (or eight: the ruling then picks the discard), the others' seven
hands = ["7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC"]
knocker = 0
discard = "3C"                            # optional: the knock discard
# knocker_melds = "7H 8H 9H / KC KD KS"   # optional: the declaration, else best play

[[expect]]
profile = "serbian-online"
outcome = "knock"                         # knock, gin, undercut or illegal_knock
winner = 0                                # optional from here on; lists are per seat
deadwood = [2, 22, 26]
penalties = [0, 20, 24]
layoffs = [[], ["6H"], []]

[[expect]]
profile = "serbian-online"
set = { layoff_chain = "unlimited" }
outcome = "knock"
penalties = [0, 20, 19]
"""

TEMPLATES = {
    "showdown": TEMPLATE,
    "game": GAME_TEMPLATE,
    "match": MATCH_TEMPLATE,
    "hollywood": HOLLYWOOD_TEMPLATE,
    "partnership": PARTNERSHIP_TEMPLATE,
    "three-player": THREE_TEMPLATE,
    "table": TABLE_TEMPLATE,
}


def register(sub: Any) -> None:
    p = sub.add_parser("ruling", help="the casebook of disputed rulings: list, check, show, new")
    actions = p.add_subparsers(dest="ruling_command", metavar="ACTION", parser_class=type(p))
    ls = actions.add_parser("list", help="list the casebook, one ruling a line")
    ls.add_argument("--json", action="store_true", help="JSON lines")
    ls.set_defaults(handler=run_list)
    ck = actions.add_parser("check", help="run a ruling file (or casebook ID) and print the verdicts")
    ck.add_argument("ruling", help="a ruling file (.toml) or a casebook ID such as C01")
    ck.add_argument("--json", action="store_true", help="one JSON object")
    ck.set_defaults(handler=run_check)
    sh = actions.add_parser("show", help="print a casebook ruling file")
    sh.add_argument("id", help="a casebook ID such as C01")
    sh.set_defaults(handler=run_show)
    nw = actions.add_parser("new", help="write a ruling template (to stdout, or to FILE)")
    nw.add_argument("file", nargs="?", help="where to write it (refuses to overwrite)")
    nw.add_argument(
        "--kind",
        choices=KINDS,
        default="showdown",
        help="showdown (a knock's result, the default), game (a deal and a script of actions), "
        "match (a sequence of hands), hollywood, partnership, three-player, or table (a knock at "
        "a table of three or four)",
    )
    nw.set_defaults(handler=run_new)
    p.set_defaults(handler=lambda args: help_then_error(p, "an action is needed (listed above)"))


def run_list(args: argparse.Namespace) -> int:
    rows = []
    for case in casebook():
        profiles = sorted({e.profile for e in case.expectations})
        if args.json:
            print(json.dumps({"id": case.id, "kind": case.kind, "title": case.title, "profiles": profiles,
                              "file": case.path}))
        rows.append((case.id, case.kind, case.title, ", ".join(profiles)))
    if not args.json:
        print_table(("id", "kind", "title", "profiles"), rows)
    return 0


def verdict_json(case: RulingCase, verdicts: list[RulingVerdict]) -> dict[str, Any]:
    """The JSON of a showdown ruling's verdicts (with the adjudicator's full ruling)."""
    return {
        "id": case.id,
        "title": case.title,
        "ok": all(v.ok for v in verdicts),
        "verdicts": [
            {
                "profile": v.expectation.profile,
                "overrides": dict(v.expectation.overrides),
                "ok": v.ok,
                "mismatches": list(v.mismatches),
                "ruling": v.ruling.to_json(),
            }
            for v in verdicts
        ],
    }


def run_check(args: argparse.Namespace) -> int:
    case = find_ruling(args.ruling)
    try:
        if not isinstance(case, RulingCase):
            return _check_other(case, args.json)
        verdicts = check_ruling(case)
    except RulingFileError:
        raise
    except GinspecError as exc:  # a position the rules refuse (e.g. a card held twice)
        raise RulingFileError(f"{case.path}: {exc}") from None
    if args.json:
        print(json.dumps(verdict_json(case, verdicts)))
        return 0 if all(v.ok for v in verdicts) else 1
    print(f"{case.id}: {case.title}")
    print(f"  {case.question}")
    print(f"  knocker:  {' '.join(card_str(c) for c in case.knocker)}")
    print(f"  defender: {' '.join(card_str(c) for c in case.defender)}")
    for v in verdicts:
        r = v.ruling
        mark = "ok  " if v.ok else "FAIL"
        points = "-" if r.points is None else f"knocker {r.points[0]}, defender {r.points[1]}"
        print(
            f"{mark} {v.expectation.label}: {r.outcome}; deadwood knocker {r.knocker_deadwood}, "
            f"defender {r.defender_deadwood}; points {points}"
        )
        for problem in v.mismatches:
            print(f"       {problem}")
        print_table(("clause", "finding"), r.trail)
    return 0 if all(v.ok for v in verdicts) else 1


def _check_other(case: AnyRuling, as_json: bool) -> int:
    """``check`` for a game-script, match or systems ruling."""
    found = findings(case)
    ok = all(f.ok for f in found)
    if as_json:
        print(json.dumps({"id": case.id, "kind": case.kind, "title": case.title, "ok": ok,
                          "verdicts": [f.to_json() for f in found]}))
        return 0 if ok else 1
    print(f"{case.id}: {case.title}")
    print(f"  {case.question}")
    for f in found:
        answer = "; ".join(f"{k}: {v}" for k, v in f.answer)
        print(f"{'ok  ' if f.ok else 'FAIL'} {f.label}: {answer}")
        for problem in f.mismatches:
            print(f"       {problem}")
        print_table(("clause", "finding"), f.trail)
    return 0 if ok else 1


def run_show(args: argparse.Namespace) -> int:
    case = find_ruling(args.id)
    sys.stdout.write(Path(case.path).read_text(encoding="utf-8"))
    return 0


def run_new(args: argparse.Namespace) -> int:
    template = TEMPLATES[args.kind]
    if args.file is None:
        sys.stdout.write(template)
        return 0
    path = check_writable(args.file, RulingFileError)  # before anything: name length included
    if path.exists():
        raise RulingFileError(f"{path}: already exists; not overwritten")
    try:
        path.write_text(template, encoding="utf-8")
    except OSError as exc:
        raise RulingFileError(f"{path}: cannot write: {exc.strerror}") from None
    print(f"wrote {path}; edit it, then: ginspec ruling check {path}")
    return 0

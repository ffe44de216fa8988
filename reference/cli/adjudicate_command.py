"""``ginspec adjudicate``: the ruling on a knock, both sides playing best (spec chapter 13,
SHOWDOWN.BEST-PLAY)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ginspec.reference.adjudicate import Ruling, adjudicate
from ginspec.reference.cli.adjudicate_table import run_table
from ginspec.reference.cli.args import UsageError, parse_melds
from ginspec.reference.cli.console import print_table
from ginspec.spec.cards import card_str, parse_card, parse_cards
from ginspec.spec.parameters import Value, parse_assignment
from ginspec.spec.profiles import ruleset


def register(sub: Any) -> None:
    p = sub.add_parser(
        "adjudicate",
        help="settle a knock: declaration, layoffs, deadwood, outcome and points",
        description="Adjudicate a knock under a profile. Two players: --knocker and --defender; "
        "the knocker's cards are the ten kept after the knock discard (eleven: the adjudicator "
        "also picks the discard, or big gin). The table game of three or four (chapter 14, "
        "profile serbian-online): one --hand per seat in seat order (play passes to the next "
        "seat), --knocker-seat and --discard; the knocker's hand is the seven cards kept (eight: "
        "the adjudicator picks the discard). Without --knocker-melds everyone plays best, as "
        "SHOWDOWN.BEST-PLAY and TABLE.BEST-PLAY define it.",
        epilog="JSON (--json): outcome (knock, gin, big_gin, undercut, tie, gin_cancelled, illegal_knock); "
        "deadwood {knocker, defender} after all layoffs; points {knocker, defender} (null for an "
        "illegal knock); knock_limit; discard (when 11 cards were given); declaration {melds, "
        "deadwood_cards, deadwood}; defender {melds, layoffs [{card, onto, action}], "
        "deadwood_cards}; knocker_layoffs; declarations_considered; trail [{clause, text}]; "
        "profile; overrides. The table game (--hand) instead gives: system (table); players; "
        "knocker (the seat); outcome (knock, gin, undercut, illegal_knock); knock_limit; discard; "
        "declaration; defenders [{seat, melds, layoffs [{card, onto, action}], deadwood_cards, "
        "deadwood}] in turn order; table (the knocker's melds after all layoffs); deadwood, "
        "penalties (per seat; null for an illegal knock); winner; undercutter; "
        "declarations_considered; trail; profile; overrides.",
    )
    p.add_argument("--profile", required=True, help="a profile name (see `ginspec rules`)")
    p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                   help="override a parameter (repeatable)")
    p.add_argument("--knocker", metavar="CARDS", help="two players: the knocker's cards")
    p.add_argument("--defender", metavar="CARDS", help="two players: the defender's ten cards")
    p.add_argument("--hand", action="append", default=[], metavar="CARDS",
                   help="the table game: one seat's cards, once per seat in seat order (3 or 4)")
    p.add_argument("--knocker-seat", type=int, metavar="SEAT",
                   help="the table game: the seat that knocked (0 is the first --hand)")
    p.add_argument("--discard", metavar="CARD",
                   help="the table game: the knocker's discard (omit it and give 8 cards to "
                   "have it chosen)")
    p.add_argument("--knocker-melds", metavar="MELDS",
                   help="the knocker's declared melds, separated by '/': \"7H 7D 7S / 8C 9C TC\"")
    p.add_argument("--upcard", metavar="CARD", help="the first upcard (Oklahoma: knock limit, spades)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(handler=run)


def _ruleset(profile: str, assignments: list[str]) -> Any:

    overrides: dict[str, Value] = {}
    for text in assignments:
        name, value = parse_assignment(text)
        overrides[name] = value
    return ruleset(profile, overrides)


def run(args: argparse.Namespace) -> int:
    if args.hand or args.knocker_seat is not None or args.discard is not None:
        return run_table(args)
    if args.knocker is None or args.defender is None:
        raise UsageError("--knocker and --defender: both are needed for two players "
                         "(for the table game give --hand once per seat and --knocker-seat)")
    rules = _ruleset(args.profile, args.set)
    knocker = parse_cards(args.knocker)
    defender = parse_cards(args.defender)
    melds = parse_melds(args.knocker_melds) if args.knocker_melds is not None else None
    upcard = parse_card(args.upcard) if args.upcard else None
    ruling = adjudicate(knocker, defender, rules, knocker_melds=melds, upcard=upcard)
    if args.json:
        out = ruling.to_json()
        out["profile"] = args.profile
        out["overrides"] = dict(rules.overrides)
        print(json.dumps(out))
    else:
        print_ruling(ruling, args.profile, sys.stdout)
    return 0


def print_ruling(ruling: Ruling, profile: str, out: TextIO) -> None:
    """The readable form: the declaration, the layoffs, the counts, the result, the trail."""
    data = ruling.to_json()
    print(f"profile:     {profile} (knock limit {ruling.knock_limit})", file=out)
    if ruling.discard is not None:
        print(f"discard:     {card_str(ruling.discard)}", file=out)
    if ruling.declaration is not None:
        print(f"declaration: {ruling.declaration}", file=out)
    if ruling.defence is not None:
        melds = " / ".join(str(m) for m in ruling.defence.melds) or "(none)"
        print(f"defender:    {melds}", file=out)
        lays = [f"{x['card']} onto {' '.join(x['onto'])}" for x in data["defender"]["layoffs"]]
        print(f"layoffs:     {'; '.join(lays) or '(none)'}", file=out)
    if ruling.knocker_layoffs:
        lays = [f"{x['card']} onto {' '.join(x['onto'])}" for x in data["knocker_layoffs"]]
        print(f"knocker lays off: {'; '.join(lays)}", file=out)
    if ruling.knocker_deadwood is not None:
        print(f"deadwood:    knocker {ruling.knocker_deadwood}, defender {ruling.defender_deadwood}",
              file=out)
    print(f"outcome:     {ruling.outcome}", file=out)
    if ruling.points is not None:
        print(f"points:      knocker {ruling.points[0]}, defender {ruling.points[1]}", file=out)
    else:
        print("points:      none (the rules give no score for an illegal knock)", file=out)
    print("trail:", file=out)
    print_table(("clause", "finding"), ruling.trail, out)

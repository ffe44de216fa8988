"""``ginspec adjudicate --hand ... --knocker-seat N``: the ruling on a knock at a table of three or
four (spec chapter 14, TABLE.BEST-PLAY). Called by ``adjudicate.run`` when a seat's hand is given."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ginspec.reference.cli.args import UsageError, parse_melds
from ginspec.reference.cli.console import print_table
from ginspec.reference.table.table_adjudicate import TableRuling, adjudicate_table
from ginspec.reference.typed_rules import to_rules
from ginspec.spec.cards import parse_card, parse_cards
from ginspec.spec.errors import GinspecError, ParameterError
from ginspec.spec.parameters import Value, parse_assignment
from ginspec.spec.profiles import ruleset


def run_table(args: argparse.Namespace) -> int:
    if args.knocker is not None or args.defender is not None:
        raise UsageError("--hand (the table game) and --knocker/--defender (two players) do not "
                         "mix: give every seat with --hand")
    if args.upcard is not None:
        raise UsageError("--upcard: the table game has no Oklahoma rules")
    if not args.hand:
        raise UsageError("--hand: give each seat's cards, once per seat in seat order")
    if len(args.hand) not in (3, 4):
        raise UsageError(f"--hand: {len(args.hand)} seat(s) given; the table game seats 3 or 4 "
                         "(two players: --knocker and --defender)")
    if args.knocker_seat is None:
        raise UsageError("--knocker-seat: required with --hand (0 is the first --hand)")
    hands = []
    for seat, text in enumerate(args.hand):
        try:
            hands.append(parse_cards(text))
        except GinspecError as exc:
            raise type(exc)(f"--hand (seat {seat}): {exc}") from None
    overrides: dict[str, Value] = {}
    for text in args.set:
        name, value = parse_assignment(text)
        overrides[name] = value
    system = to_rules(ruleset(args.profile, overrides)).game_system
    if system != "table":
        raise ParameterError(
            f"--profile {args.profile}: not the table game (game_system = "
            f"{system}); use serbian-online, or --set game_system=table")
    if "players" in overrides and overrides["players"] != len(hands):
        raise UsageError(f"--set players={overrides['players']}, but {len(hands)} seats were "
                         "given with --hand")
    overrides["players"] = len(hands)
    rules = ruleset(args.profile, overrides)
    discard = None
    if args.discard is not None:
        try:
            discard = parse_card(args.discard)
        except GinspecError as exc:
            raise type(exc)(f"--discard: {exc}") from None
    melds = None
    if args.knocker_melds is not None:
        melds = parse_melds(args.knocker_melds)
    ruling = adjudicate_table(hands, args.knocker_seat, rules, discard=discard,
                              knocker_melds=melds)
    if args.json:
        out = ruling.to_json()
        out["profile"] = args.profile
        out["overrides"] = dict(rules.overrides)  # players included: set from the seats
        print(json.dumps(out))
    else:
        print_table_ruling(ruling, args.profile, sys.stdout)
    return 0


def print_table_ruling(ruling: TableRuling, profile: str, out: TextIO) -> None:
    """The readable form: the declaration, each defender's play, the result, the trail."""
    data = ruling.to_json()
    print(f"profile:     {profile}, {ruling.players} players (knock limit "
          f"{ruling.knock_limit})", file=out)
    knocked = f"seat {ruling.knocker}"
    if data["discard"] is not None:
        knocked += f", discarding {data['discard']}"
    print(f"knocker:     {knocked}", file=out)
    if ruling.declaration is not None:
        print(f"declaration: {ruling.declaration}", file=out)
    for play in data["defenders"]:
        melds = " / ".join(" ".join(m) for m in play["melds"]) or "(no melds)"
        lays = "; ".join(f"{x['card']} onto {' '.join(x['onto'])}" for x in play["layoffs"])
        dead = " ".join(play["deadwood_cards"]) or "nothing"
        print(f"seat {play['seat']}:      spreads {melds}; lays off {lays or 'nothing'}; keeps "
              f"{dead} = {play['deadwood']}", file=out)
    outcome = ruling.outcome
    if ruling.winner is not None:
        outcome += f", won by seat {ruling.winner}"
    print(f"outcome:     {outcome}", file=out)
    if ruling.penalties is not None and ruling.deadwood is not None:
        print("deadwood:    " + ", ".join(f"seat {s} {d}" for s, d in enumerate(ruling.deadwood)),
              file=out)
        print("penalties:   " + ", ".join(f"seat {s} {p}" for s, p in
                                          enumerate(ruling.penalties)), file=out)
    else:
        print("penalties:   none (an illegal knock is not scored)", file=out)
    print("trail:", file=out)
    print_table(("clause", "finding"), ruling.trail, out)

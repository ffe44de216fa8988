"""``ginspec deadwood``: optimal melds, deadwood and knock eligibility of a hand
(DEADWOOD.MINIMUM, DEADWOOD.ARRANGEMENTS, KNOCK.ELIGIBLE, KNOCK.LIMIT, KNOCK.GIN)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import analyse_discards, optimal_arrangements
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.errors import GinspecError, HandSizeError
from ginspec.spec.parameters import parameter

ARRANGEMENT_LIMIT = 1000
"""At most this many optimal arrangements are listed (the count says when there are more)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "deadwood",
        help="optimal melds and deadwood of a hand; best discards for 11 cards",
        description="Print the optimal melds, deadwood cards and deadwood value of a hand "
        "(0-52 cards). For 11 cards: the best discards, the deadwood after them, and whether "
        "the hand may knock or go gin.",
    )
    p.add_argument("cards", nargs="*", help="cards such as 7H TS AC (also 10S, ts, T♠)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--batch", metavar="FILE", help="one hand per line ('-' for stdin); JSON lines out")
    p.add_argument("--knock-limit", type=int, default=10, metavar="N", help="knock limit (default 10)")
    p.add_argument("--ace-high", action="store_true", help="allow Q-K-A runs (ace_high_runs)")
    p.add_argument("--wraparound", action="store_true", help="allow K-A-2 runs (wraparound_runs)")
    p.add_argument("--ace-value", type=int, default=1, metavar="N", help="deadwood value of an ace")
    p.set_defaults(handler=run)


def analyse(tokens: list[str] | str, rules: MeldRules, knock_limit: int) -> dict[str, Any]:
    """The JSON-ready analysis of one hand."""
    cards = parse_cards(tokens)
    arrangements = optimal_arrangements(cards, rules, limit=ARRANGEMENT_LIMIT)
    best = arrangements[0]
    out: dict[str, Any] = {
        "cards": [card_str(c) for c in cards],
        "deadwood": best.deadwood,
        "melds": [[card_str(c) for c in m.cards] for m in best.melds],
        "deadwood_cards": [card_str(c) for c in best.deadwood_cards],
        "optimal_arrangements": len(arrangements),
        "arrangements_complete": len(arrangements) < ARRANGEMENT_LIMIT,
    }
    if len(cards) == 11:
        disc = analyse_discards(cards, rules)
        kept = [c for c in cards if c != disc.best_discards[0]]
        kept_best = optimal_arrangements(kept, rules, limit=1)[0]
        out.update(
            {
                "deadwood_before_discard": best.deadwood,
                "deadwood": disc.deadwood,
                "best_discards": [card_str(c) for c in disc.best_discards],
                "melds": [[card_str(c) for c in m.cards] for m in kept_best.melds],
                "deadwood_cards": [card_str(c) for c in kept_best.deadwood_cards],
                "knock_limit": knock_limit,
                "can_knock": disc.deadwood <= knock_limit,
                "gin": disc.deadwood == 0,
                "big_gin": disc.big_gin,
            }
        )
    return out


def _text(result: dict[str, Any], out: TextIO) -> None:
    melds = " / ".join(" ".join(m) for m in result["melds"]) or "(none)"
    dead = " ".join(result["deadwood_cards"]) or "(none)"
    if "best_discards" in result:
        print(f"hand:      {' '.join(result['cards'])}", file=out)
        print(f"discard:   {' or '.join(result['best_discards'])}", file=out)
        print(f"melds:     {melds}", file=out)
        print(f"deadwood:  {dead}  = {result['deadwood']}", file=out)
        verdict = (
            "big gin (all 11 cards meld)" if result["big_gin"]
            else "gin" if result["gin"]
            else f"may knock (limit {result['knock_limit']})" if result["can_knock"]
            else f"may not knock (limit {result['knock_limit']})"
        )
        print(f"verdict:   {verdict}", file=out)
    else:
        print(f"hand:      {' '.join(result['cards'])}", file=out)
        print(f"melds:     {melds}", file=out)
        print(f"deadwood:  {dead}  = {result['deadwood']}", file=out)
    more = "" if result["arrangements_complete"] else "+"
    print(f"optimal arrangements: {result['optimal_arrangements']}{more}", file=out)


def run(args: argparse.Namespace) -> int:
    limit = parameter("knock_limit").check(args.knock_limit)
    rules = MeldRules(
        ace_high_runs=args.ace_high or args.wraparound,
        wraparound_runs=args.wraparound,
        ace_value=args.ace_value,
    )
    if args.batch is not None:
        if args.cards:
            raise HandSizeError("give either cards or --batch FILE, not both")
        return _batch(args.batch, rules, int(limit))
    if not parse_cards(args.cards):  # no argument, or only blank ones such as ""
        raise HandSizeError("no cards given: write a hand such as 7H 7D 7S 8C 9C TC 2S 3D 4H KD")
    result = analyse(args.cards, rules, int(limit))
    if args.json:
        print(json.dumps(result))
    else:
        _text(result, sys.stdout)
    return 0


def _batch(path: str, rules: MeldRules, limit: int) -> int:
    """One hand per line in, one JSON object per line out; a bad line stops with exit 2."""
    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise HandSizeError(f"cannot read {path}: {exc.strerror}") from None
    number = 0
    with stream:
        try:
            for number, line in enumerate(stream, 1):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                try:
                    result = analyse(text, rules, limit)
                except GinspecError as exc:
                    raise type(exc)(f"{path}:{number}: {exc}") from None
                print(json.dumps(result))
        except UnicodeDecodeError:
            raise HandSizeError(f"{path}:{number + 1}: not UTF-8 text") from None
    return 0

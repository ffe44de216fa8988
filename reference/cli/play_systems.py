"""``ginspec play`` for more than two players and for the scoring systems of chapter 14: the
table game (``--profile serbian-online --players 3``), three players, partnerships and
Hollywood. Called by ``play.run_play``; returns None when the two-player engine should play."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ginspec.reference.cli.args import UsageError
from ginspec.reference.game.strategies import strategy
from ginspec.reference.systems.play import play_system
from ginspec.reference.table import table_rules
from ginspec.reference.table.game import play_table_game
from ginspec.reference.table.table_strategies import table_strategy
from ginspec.reference.typed_rules import to_rules
from ginspec.spec.profiles import parse_overrides, ruleset


def _names(players: str | None) -> tuple[int | None, list[str] | None]:
    """``--players``: a count N (N greedy players), a comma list of strategy names, or None
    (not given: the profile's number of players)."""
    if players is None:
        return None, None
    text = players.strip()
    if text.isdigit():
        n = int(text)
        if not 2 <= n <= 4:
            raise UsageError(f"--players: {text!r}: a game has 2 to 4 players")
        return n, ["greedy"] * n
    return None, [n.strip() for n in text.split(",")]


def run_systems(args: argparse.Namespace) -> int | None:
    """Play a multi-player or multi-game system; None if this is a plain two-player match."""
    count, names = _names(args.players)
    overrides = parse_overrides(args.set)
    base = ruleset(args.profile, overrides)
    if count is not None and count != to_rules(base).players:
        overrides = {**overrides, "players": count}
    values = ruleset(args.profile, overrides)
    typed = to_rules(values)
    system = typed.game_system
    if system == "single":
        if args.players is None:
            args.players = "greedy,random"
        elif count is not None:
            args.players = "greedy,greedy"
        return None
    if names is None:  # not given: greedy players in every seat of the system
        names = ["greedy"] * typed.players
    if len(names) != typed.players:
        raise UsageError(f"--players: {args.players!r}: this game has {typed.players} "
                         "players")
    if system == "table":
        trace = play_table_game(table_rules(values, args.profile), args.seed,
                                [table_strategy(n) for n in names])
    else:
        trace = play_system(values, args.profile, args.seed, [strategy(n) for n in names])
    trace["overrides"] = dict(overrides)  # check-log replays under the same rules (SYSTEM.TRACE)
    if args.json:
        json.dump(trace, sys.stdout, indent=1)
        print()
    else:
        _print(trace)
    return 0


def _table_hand(r: dict[str, Any]) -> str:
    """One table hand in words: who knocked, and who won (TABLE.UNDERCUT)."""
    if r["outcome"] == "void":
        return "void"
    if r["outcome"] == "gin":
        return f"seat {r['knocker']} went gin"
    if r["outcome"] == "undercut":
        return f"seat {r['knocker']} knocked and was undercut by seat {r['winner']}"
    return f"seat {r['knocker']} knocked and won"


def _print(trace: dict[str, Any]) -> None:
    print(f"{trace['system']} game, profile {trace['profile']}, seed {trace['seed']}: "
          f"players {', '.join(trace['strategies'])}")
    for number, hand in enumerate(trace["hands"], 1):
        if trace["system"] == "table":
            r = hand["result"]
            who = _table_hand(r)
            print(f"  hand {number} (dealer {hand['dealer']}): {who}; penalties {r['penalties']}; "
                  f"totals {hand['totals']}")
        else:
            won = "void" if hand["winner"] is None else \
                f"seat {hand['winner']} wins {hand['points']}"
            print(f"  hand {number}: seat {hand['first']} v seat {hand['second']}: "
                  f"{hand['outcome']}, {won}")
    print(f"result: {json.dumps(trace['result'])}")

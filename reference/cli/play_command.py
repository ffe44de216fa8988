"""``ginspec play`` and ``ginspec check-log``: play a seeded match between two built-in
strategies (readable trace, or the JSON trace of TRACE.FORMAT), and check a JSON trace against a
profile (TRACE.CHECK): exit 0 when every step is legal, 1 with the first illegal step and its
clause, 2 for a malformed file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ginspec.reference.cli.args import seed_arg
from ginspec.reference.cli.play_systems import run_systems
from ginspec.reference.game.match_trace import TraceError, check_trace, play_match
from ginspec.reference.game.strategies import strategy
from ginspec.reference.systems.play import system_rules
from ginspec.reference.systems.system_trace import check_system_trace
from ginspec.reference.table.table_state import table_rules
from ginspec.reference.table.table_trace import check_table_trace
from ginspec.reference.typed_rules import Rules, game_rules
from ginspec.spec.inputs import guard, read_json
from ginspec.spec.profiles import parse_overrides, ruleset


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a seeded match between two built-in strategies and print the trace",
        description="Play a whole match (deal to the target) between two built-in strategies "
        "(greedy: minimises its deadwood and knocks as soon as it may; random: any legal action) "
        "and print a readable trace, or with --json the JSON trace (spec chapter 15, "
        "TRACE.FORMAT), which `ginspec check-log` accepts.",
    )
    p.add_argument("--profile", required=True, help="a profile name (see `ginspec rules`)")
    p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                   help="override a parameter (repeatable)")
    p.add_argument("--seed", type=seed_arg, required=True, help="the match seed (deals, first dealer)")
    p.add_argument("--players", default=None, metavar="A,B",
                   help="strategies of player 0 and player 1 (greedy, random); default "
                   "greedy,random. A number N (2-4) seats N greedy players: with N > 2, or a "
                   "profile of chapter 14 (three-player, cutthroat, partnership, hollywood), the "
                   "game is that system's (serbian-online with 3 or 4 players: the table game); "
                   "such a system seats greedy players when --players is not given, or one "
                   "strategy name per seat")
    p.add_argument("--json", action="store_true", help="write the JSON trace")
    p.set_defaults(handler=run_play)

    c = sub.add_parser(
        "check-log",
        help="replay a JSON match trace and report the first illegal step",
        description="Replay a JSON trace (spec chapter 15, TRACE.FORMAT; the table game and the "
        "other systems of chapter 14, SYSTEM.TRACE) under a profile. Exit 0: "
        "every step legal and every recorded result right; exit 1: the first illegal step or "
        "wrong result, with its rejection code and clause ID; exit 2: the file is not a trace.",
    )
    c.add_argument("file", help="the trace file ('-' for stdin)")
    c.add_argument("--profile", help="a profile name (default: the trace's own 'profile')")
    c.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                   help="override a parameter (repeatable; default: the trace's 'overrides')")
    c.add_argument("--json", action="store_true", help="one JSON object")
    c.set_defaults(handler=run_check)


def _rules(profile: str, assignments: list[str] | dict[str, Any]) -> Rules:
    overrides = parse_overrides(assignments) if isinstance(assignments, list) else assignments
    return game_rules(ruleset(profile, overrides), name=profile)


def run_play(args: argparse.Namespace) -> int:

    code = run_systems(args)
    if code is not None:
        return code
    rules = _rules(args.profile, args.set)
    names = [n.strip() for n in args.players.split(",")]
    if len(names) != 2:
        raise TraceError(f"--players: expected two strategies A,B, got {args.players!r}")
    players = [strategy(n) for n in names]
    trace = play_match(rules, args.seed, players, parse_overrides(args.set))
    if args.json:
        json.dump(trace, sys.stdout, indent=1)
        print()
    else:
        print_trace(trace, sys.stdout, rules.eleven_card_start)
    return 0


def print_trace(trace: dict[str, Any], out: TextIO, eleven_card_start: bool = False) -> None:
    """The readable form of a trace (the referee's view: drawn cards are shown)."""
    names = trace["players"]
    cut = f" (cut {trace['cut'][0]} / {trace['cut'][1]})" if trace.get("cut") else ""
    print(f"profile {trace['profile']}, seed {trace['seed']}: player 0 = {names[0]}, "
          f"player 1 = {names[1]}; player {trace['first_dealer']} deals first{cut}", file=out)
    for hand in trace["hands"]:
        deck = hand["deck"]
        dealer = hand["dealer"]
        print(f"\n== hand {hand['number']} — dealer: player {dealer}", file=out)
        non_dealer = 1 - dealer
        hands = {non_dealer: deck[0:21:2] if eleven_card_start else deck[0:20:2],
                 dealer: deck[1:20:2]}
        for p in (0, 1):
            print(f"   player {p} holds {' '.join(sorted(hands[p], key=_order))}", file=out)
        stock = list(deck[21:])
        pile = [] if eleven_card_start else [deck[20]]
        if pile:
            print(f"   upcard {deck[20]}", file=out)
        for step in hand["actions"]:
            who = "referee " if step["player"] == "chance" else f"player {step['player']}"
            text = step["action"]
            words = text.split()
            if words[0] == "reshuffle":
                stock += words[1:]
                pile = pile[-1:]
                text = f"reshuffle ({len(words) - 1} discards go under the stock)"
            elif words[0] == "draw-stock" and stock:
                text = f"draw-stock ({stock.pop(0)})"
            elif words[0] in ("take-upcard", "take-discard") and pile:
                text = f"{words[0]} ({pile.pop()})"
            elif words[0] == "discard":
                pile.append(words[1])
            print(f"   {who}: {text}", file=out)
        r = hand["result"]
        if r["outcome"] == "void":
            print("   → void hand (the wall), no score", file=out)
        else:
            print(f"   → {r['outcome']} by player {r['knocker']}: deadwood {r['deadwood'][0]} / "
                  f"{r['deadwood'][1]}, points {r['points'][0]} / {r['points'][1]}", file=out)
        print(f"   scores {hand['scores'][0]} / {hand['scores'][1]}", file=out)
    res = trace["result"]
    if res is None:
        print("\nno result: the match was stopped without a winner", file=out)
    else:
        print(f"\nplayer {res['winner']} wins: final {res['totals'][0]} / {res['totals'][1]} "
              f"(hand points {res['hand_points']}, boxes {res['box_points']}, game bonus "
              f"{res['game_bonus']}{', shutout' if res['shutout'] else ''})", file=out)


def _order(token: str) -> tuple[int, int]:
    return ("CDHS".index(token[1]), "A23456789TJQK".index(token[0]))


def run_check(args: argparse.Namespace) -> int:
    data = read_json(args.file, TraceError)
    with guard(args.file, TraceError):
        return _check(args, data)


def _check(args: argparse.Namespace, data: Any) -> int:
    if not isinstance(data, dict):
        raise TraceError("trace: expected a JSON object")
    profile = args.profile or data.get("profile")
    if not isinstance(profile, str):
        raise TraceError("profile: missing (give --profile)")
    overrides: list[str] | dict[str, Any] = args.set
    if not args.set and not args.profile:
        raw = data.get("overrides") or {}
        if not isinstance(raw, dict):
            raise TraceError("overrides: expected an object")
        overrides = raw
    if data.get("system") == "table":  # chapter 14: the table game of 2-4 players

        table_overrides = parse_overrides(overrides) if isinstance(overrides, list) \
            else dict(overrides)
        if "players" not in table_overrides and isinstance(data.get("players"), int):
            table_overrides["players"] = data["players"]
        report = check_table_trace(data, table_rules(ruleset(profile, table_overrides), profile))
    elif data.get("system") in ("three_player", "partnership", "hollywood"):  # chapter 14

        values = parse_overrides(overrides) if isinstance(overrides, list) else dict(overrides)
        report = check_system_trace(data, system_rules(ruleset(profile, values), profile))
    else:
        report = check_trace(data, _rules(profile, overrides))
    if args.json:
        finding = report.finding
        print(json.dumps({
            "ok": report.ok, "hands": report.hands, "steps": report.steps,
            "finished": report.finished,
            "finding": None if finding is None else {
                "hand": finding.hand, "step": finding.step, "action": finding.action,
                "code": finding.code, "clause": finding.clause, "message": finding.message},
        }))
    elif report.finding is None:
        state = "match finished" if report.finished else "match not finished"
        print(f"OK: {report.hands} hands, {report.steps} steps legal under {profile} ({state})")
    else:
        print(f"ILLEGAL at {report.finding}")
    return 0 if report.ok else 1

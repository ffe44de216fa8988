"""``ginspec ruling``: the casebook of disputed rulings — list, check, show, new."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ginspec.reference.rulings import RulingCase, Verdict, casebook, check_ruling, find_ruling
from ginspec.spec.cards import card_str
from ginspec.spec.errors import RulingFileError

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
    nw.set_defaults(handler=run_new)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def run_list(args: argparse.Namespace) -> int:
    for case in casebook():
        profiles = sorted({e.profile for e in case.expectations})
        if args.json:
            print(json.dumps({"id": case.id, "title": case.title, "profiles": profiles, "file": case.path}))
        else:
            print(f"{case.id:<5} {case.title}  [{', '.join(profiles)}]")
    return 0


def verdict_json(case: RulingCase, verdicts: list[Verdict]) -> dict[str, Any]:
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
    verdicts = check_ruling(case)
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
        for clause, text in r.trail:
            print(f"       {clause:<26} {text}")
    return 0 if all(v.ok for v in verdicts) else 1


def run_show(args: argparse.Namespace) -> int:
    case = find_ruling(args.id)
    sys.stdout.write(Path(case.path).read_text(encoding="utf-8"))
    return 0


def run_new(args: argparse.Namespace) -> int:
    if args.file is None:
        sys.stdout.write(TEMPLATE)
        return 0
    path = Path(args.file)
    if path.exists():
        raise RulingFileError(f"{path}: already exists; not overwritten")
    path.write_text(TEMPLATE, encoding="utf-8")
    print(f"wrote {path}; edit it, then: ginspec ruling check {path}")
    return 0

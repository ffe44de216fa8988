"""``ginspec rules``: the ruleset parameters and the named profiles.

* ``ginspec rules`` lists the profiles and the parameters (type, allowed values, default, clause).
* ``ginspec rules PROFILE [--set NAME=VALUE ...] [--json]`` prints one ruleset as a table of
  parameter, value and source.
* ``ginspec rules --param NAME [--json]`` explains one parameter: its clause, every attested value
  with its sources, and which profiles play which value. Unknown profiles, parameters or values, and impossible
  combinations, are one-line errors with exit code 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ginspec.reference.cli.args import UsageError
from ginspec.reference.cli.console import print_table
from ginspec.reference.engines import engine_for
from ginspec.reference.typed_rules import game_rules
from ginspec.spec.parameters import constraints, parameter, parameters, value_text
from ginspec.spec.profiles import parse_overrides, profile, profiles, ruleset


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rules",
        help="list the ruleset profiles and parameters, or print one profile",
        description="Without PROFILE: list profiles and parameters. With PROFILE: print its "
        "value and source for every parameter.",
    )
    p.add_argument("profile", nargs="?", help="a profile name, e.g. pagat (see `ginspec rules`)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter (repeatable)")
    p.add_argument("--param", metavar="NAME",
                   help="explain one parameter: values, sources, and the profiles that play each")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(handler=run)


def _catalogue_json() -> dict[str, Any]:
    return {
        "profiles": [
            {"name": n, "title": profile(n).title, "basis": profile(n).basis} for n in profiles()
        ],
        "parameters": [
            {
                "name": p.name, "type": p.type, "allowed": p.allowed(), "default": p.default,
                "clause": p.clause, "description": p.description,
                "default_reason": p.default_reason,
                "values": [
                    {"value": a.value, "note": a.note, "sources": list(a.sources)} for a in p.values
                ],
            }
            for p in parameters().values()
        ],
        "constraints": [
            {"when": [str(t) for t in c.when], "require": [str(t) for t in c.require],
             "message": c.message}
            for c in constraints()
        ],
    }


def _print_catalogue() -> None:
    print_table(("profile", "title"), ((name, profile(name).title) for name in profiles()),
                title="Profiles")
    print()
    print_table(("name", "allowed", "default", "clause"),
                ((p.name, p.allowed(), value_text(p.default), p.clause) for p in parameters().values()),
                title="Parameters")
    print()
    print("Impossible combinations (refused):")
    for rule in constraints():
        when = " and ".join(str(t) for t in rule.when)
        need = " and ".join(str(t) for t in rule.require)
        print(f"  when {when}: needs {need}")
    print()
    print("Show one profile: ginspec rules PROFILE [--set NAME=VALUE ...] [--json]")
    print("Explain one parameter: ginspec rules --param NAME [--json]")


def _param_json(name: str) -> dict[str, Any]:
    param = parameter(name)
    by_value: dict[str, list[str]] = {}
    for prof in profiles():
        by_value.setdefault(value_text(profile(prof).entries[name].value), []).append(prof)
    values = [
        {"value": a.value, "note": a.note, "sources": list(a.sources),
         "profiles": by_value.pop(value_text(a.value), [])}
        for a in param.values
    ]
    values += [{"value": profile(ps[0]).entries[name].value, "note": "", "sources": [],
                "profiles": ps} for ps in by_value.values()]
    return {
        "name": param.name, "type": param.type, "allowed": param.allowed(),
        "default": param.default, "default_reason": param.default_reason,
        "clause": param.clause, "description": param.description, "values": values,
    }


def _print_param(name: str) -> None:
    data = _param_json(name)
    print(f"{data['name']} ({data['type']}: {data['allowed']}) — decides {data['clause']}")
    print(data["description"])
    print(f"Default: {value_text(data['default'])} ({data['default_reason']})")
    for item in data["values"]:
        print()
        note = f" — {item['note']}" if item["note"] else ""
        print(f"{value_text(item['value'])}{note}")
        for source in item["sources"]:
            print(f"    {source}")
        print(f"    profiles: {', '.join(item['profiles']) or '(none)'}")


def run(args: argparse.Namespace) -> int:
    overrides = parse_overrides(args.overrides)
    if args.param is not None:
        if args.profile is not None or overrides:
            raise UsageError("rules: --param takes no PROFILE and no --set")
        if args.json:
            print(json.dumps(_param_json(args.param), indent=1))
        else:
            _print_param(args.param)
        return 0
    if args.profile is None:
        if overrides:
            raise UsageError("rules: --set needs a PROFILE")
        if args.json:
            print(json.dumps(_catalogue_json(), indent=1))
        else:
            _print_catalogue()
        return 0
    rules = ruleset(args.profile, overrides)
    typed = game_rules(rules)
    engine = engine_for(typed)
    engine.check(typed)  # a parameter the engine does not play is an error, not a silent no-op
    shown = [name for name in rules if engine.applies(name)]
    prof = rules.profile
    if args.json:
        print(json.dumps({
            "profile": rules.name,
            "title": prof.title,
            "basis": prof.basis,
            "description": prof.description,
            "overrides": rules.overrides,
            "repr": repr(rules),
            "values": {name: rules[name] for name in rules},
            "sources": {name: rules.source(name) for name in rules},
            "stated": {
                name: (name not in rules.overrides and prof.entries[name].stated) for name in rules
            },
            "engine": engine.name,
            "applies": shown,
        }, indent=1))
        return 0
    print(f"{rules.name} — {prof.title}")
    print(f"Basis: {prof.basis}" + (f"  (inherits {prof.base})" if prof.base else ""))
    print(prof.description)
    if rules.overrides:
        print(f"Overrides: {', '.join(f'{k}={value_text(v)}' for k, v in rules.overrides.items())}")
    print()
    print(f"Played by the {engine.name} engine, with {typed.players} players; the "
          f"{len(rules) - len(shown)} parameters it does not play are not shown.")
    print()
    width = max(len(name) for name in shown)
    vwidth = max(len(value_text(rules[name])) for name in shown)
    print(f"{'parameter':<{width}}  {'value':<{vwidth}}  source")
    for name in shown:
        mark = "*" if name in rules.overrides else " "
        print(f"{name:<{width}}  {value_text(rules[name]):<{vwidth}} {mark}{rules.source(name)}")
    return 0

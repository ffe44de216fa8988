"""``ginspec bench mutants``: the mutation table of docs/conformance/mutation.md.

Generates every mutant of :data:`ginspec.conformance.mutation.targets.MODULES` (or a seeded
sample of them), runs each through the committed suite against the reference restricted to each
``--profile`` (``all``: every profile), and prints per adapter the mutants, kills (by failure,
adapter error or hang), survivors, survivors never reached under the profile, survivors a
random hand or question tells from the reference (a witness), and the kill rate. ``--out`` writes
every mutant's result as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.cases import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutation.planted import planted_mutants
from ginspec.conformance.mutation.run import (
    ALL,
    Budget,
    MutationError,
    MutationRun,
    adapter_for,
    run_mutants,
    sample,
)
from ginspec.conformance.mutation.targets import mutants
from ginspec.spec.inputs import check_writable

DEFAULT_PROFILES = ("openspiel", "pagat", "serbian-online", ALL)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sample", type=int, default=None, metavar="N",
                   help="mutants: run N mutants drawn with --seed instead of all")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="mutants: seconds per mutant (default: 5x the unmutated run + 10, >= 20)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="mutants: write every mutant's result here (JSON)")
    p.add_argument("--from", dest="saved", type=Path, action="append", default=[],
                   metavar="FILE", help="mutants: no run; print the table of saved --out files "
                   "(repeatable; a later file's result for a mutant and adapter replaces an "
                   "earlier one) with the current arguments of equivalence")
    p.add_argument("--mutant", dest="only", action="append", default=[], metavar="ID",
                   help="mutants: run only this mutant (repeatable; an ID as --out writes it), "
                   "e.g. to re-run survivors after the suite changed")


EQUIVALENT_FILE: Final = Path(__file__).with_name("equivalent.toml")


def equivalent_mutants(path: Path = EQUIVALENT_FILE) -> dict[str, dict[str, str]]:
    """The survivors argued equivalent by hand: mutant ID -> {profile or "*": argument}."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}
    for entry in data.get("mutant", []):
        out[str(entry["id"])] = {str(p): str(entry["why"]) for p in entry.get("profiles", ["*"])}
    return out


def argument_for(mutant: str, profile: str, known: dict[str, dict[str, str]]) -> str | None:
    why = known.get(mutant, {})
    return why.get(profile) or why.get("*")


def _rate(killed: int, alive: int) -> float:
    return round(killed / (killed + alive), 4) if killed + alive else 1.0


def summary(profile: str, cases: int, results: list[dict[str, Any]],
            known: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
    """The figures of one adapter's row, from its results (as ``MutantResult.to_json``)."""
    known = equivalent_mutants() if known is None else known
    survivors = [r for r in results if r["status"] == "survived"]
    unreached = [r for r in survivors if not r["reached"]]
    witnessed = [r for r in survivors if r["reached"] and r.get("witness")]
    argued = [r for r in survivors if r["reached"] and not r.get("witness")
              and argument_for(r["id"], profile, known)]
    killed = sum(1 for r in results if r["status"] == "killed")
    return {
        "profile": profile, "cases": cases, "mutants": len(results), "killed": killed,
        "by_fail": sum(1 for r in results if r.get("how") == "fail"),
        "by_error": sum(1 for r in results if r.get("how") in ("error", "crash")),
        "by_timeout": sum(1 for r in results if r.get("how") == "timeout"),
        "invalid": sum(1 for r in results if r["status"] == "invalid"),
        "survived": len(survivors), "unreached": len(unreached), "witnessed": len(witnessed),
        "argued": len(argued),
        "unexplained": len(survivors) - len(unreached) - len(witnessed) - len(argued),
        "kill_rate": _rate(killed, len(survivors)),
        "kill_rate_reached": _rate(killed, len(survivors) - len(unreached)),
        "kill_rate_non_equivalent": _rate(killed,
                                          len(survivors) - len(unreached) - len(argued)),
    }


def run_summary(run: MutationRun) -> dict[str, Any]:
    return {**summary(run.profile, run.cases, [r.to_json() for r in run.results]),
            "seconds": round(run.seconds, 1), "excluded": run.excluded}


def format_table(rows: list[dict[str, Any]]) -> str:
    head = ("| adapter | cases | mutants | killed | survived | unreached | argued equivalent | "
            "witnessed | unexplained | kill rate | of reached | of non-equivalent |")
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        lines.append(f"| {r['profile']} | {r['cases']} | {r['mutants']} | {r['killed']} | "
                     f"{r['survived']} | {r['unreached']} | {r['argued']} | {r['witnessed']} | "
                     f"{r['unexplained']} | {100 * r['kill_rate']:.1f} % | "
                     f"{100 * r['kill_rate_reached']:.1f} % | "
                     f"{100 * r['kill_rate_non_equivalent']:.1f} % |")
    return "\n".join(lines)


def format_survivors(runs: dict[str, list[dict[str, Any]]],
                     known: dict[str, dict[str, str]] | None = None) -> str:
    """Every reached survivor, once, with the adapters it survives and its classification."""
    known = equivalent_mutants() if known is None else known
    seen: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for profile, results in runs.items():
        for r in results:
            if r["status"] == "survived" and r["reached"]:
                seen.setdefault(r["id"], (r, []))[1].append(profile)
    lines = ["| mutant | change | survives | classification |", "|---|---|---|---|"]
    for mid, (r, profiles) in seen.items():
        notes: dict[str, list[str]] = {}
        for profile in profiles:
            witness = next((x.get("witness") for x in runs[profile] if x["id"] == mid), None)
            why = argument_for(mid, profile, known)
            note = (f"witness {witness['where']} seed {witness['seed']}" if witness
                    else f"equivalent: {why}" if why else "unexplained")
            notes.setdefault(note, []).append(profile)
        change = str(r["change"]).replace("|", "\\|")  # a Markdown table cell
        said = "; ".join(", ".join(names) + ": " + note for note, names in notes.items())
        lines.append(f"| `{mid}` | {change} | {', '.join(profiles)} | {said} |")
    return "\n".join(lines)


def merge_saved(saved: list[dict[str, Any]]) -> tuple[dict[str, int], dict[str, list[dict[str, Any]]]]:
    """Per adapter, the case count and the results of saved runs in order: a later run's result
    for a mutant replaces an earlier one (a re-run of survivors on a grown suite), the others
    stay; the case count is the latest run's."""
    cases: dict[str, int] = {}
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for data in saved:
        for row in data["summary"]:
            profile = row["profile"]
            cases[profile] = int(row["cases"])
            mine = results.setdefault(profile, {})
            for r in data["results"][profile]:
                mine[r["id"]] = r
    return cases, {p: list(rs.values()) for p, rs in results.items()}


def show_saved(paths: list[Path]) -> int:
    """The table and survivors of saved runs, re-classified with equivalent.toml."""
    saved = []
    for path in paths:
        try:
            saved.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise MutationError(f"--from: {path}: cannot read a saved run: {exc}") from None
    cases, results = merge_saved(saved)
    rows = [summary(profile, cases[profile], rs) for profile, rs in results.items()]
    print(format_table(rows))
    print()
    print(format_survivors(results))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.saved:
        return show_saved(args.saved)
    profiles = list(dict.fromkeys(args.profile or DEFAULT_PROFILES))
    for profile in profiles:
        adapter_for(profile)  # an unknown profile is refused before any work
    if args.timeout is not None and args.timeout <= 0:
        raise MutationError(f"--timeout: must be more than 0, got {args.timeout}")
    if args.out is not None and not args.out.parent.is_dir():
        raise MutationError(f"--out: {args.out.parent} is not a directory")
    if args.out is not None:  # checked before the run, not after it: name length too
        check_writable(args.out, MutationError, "--out")

    specs = chosen([*mutants(), *planted_mutants()], args.only) if args.only else \
        sample(mutants(), args.sample, args.seed)
    suite = load_cases([SUITE_DIR])
    budget = Budget(hands=args.hands or Budget.hands, queries=args.hands or Budget.queries)
    rows, results = [], {}
    for profile in profiles:
        done = run_mutants(specs, profile, suite, timeout=args.timeout, budget=budget,
                           progress=None if args.json else _dot)
        if not args.json:
            print(file=sys.stderr)
        rows.append(run_summary(done))
        results[profile] = [r.to_json() for r in done.results]
    if args.out is not None:
        args.out.write_text(json.dumps({"seed": args.seed, "sample": args.sample,
                                        "summary": rows, "results": results}, indent=1) + "\n",
                            encoding="utf-8")
    if args.json:
        print(json.dumps(rows))
    else:
        print(format_table(rows))
        print()
        print(format_survivors(results))
    return 0


def chosen(specs: list[Any], ids: list[str]) -> list[Any]:
    """The mutants named by ``--mutant``, in the generator's order; an unknown ID is refused."""
    by_id = {s.id: s for s in specs}
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        raise MutationError(f"--mutant: no generated or planted mutant {unknown[0]!r}")
    wanted = set(ids)
    return [s for s in specs if s.id in wanted]


def _dot(result: Any) -> None:
    mark = {"killed": ".", "survived": "S", "invalid": "!"}[result.status]
    print(mark, end="", file=sys.stderr, flush=True)

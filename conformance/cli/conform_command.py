"""``ginspec conform`` (run the suite against an adapter) and ``ginspec serve`` (the reference
over the JSON-lines protocol)."""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import gc
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.adapters.base import Adapter, AdapterError, AdapterFault, Hello
from ginspec.conformance.adapters.loader import open_adapter
from ginspec.conformance.adapters.subprocess_adapter import STARTUP_TIMEOUT
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.model import CaseFormatError
from ginspec.conformance.reports.explain import Rerun
from ginspec.conformance.reports.output import check_outputs, is_stdout
from ginspec.conformance.runner import (
    MAX_RESTARTS,
    CaseResult,
    Runner,
    RunSummary,
    parse_shard,
    read_expect_fail,
    select,
    skip_reason,
)
from ginspec.conformance.selection import (
    check_expect_fail_ids,
    expect_fail_path,
    load_run_cases,
)
from ginspec.reference.cli.args import positive_int, seed_arg
from ginspec.reference.cli.escape import printable
from ginspec.spec.inputs import check_folder

REPORT_FLAGS: Final = ("json", "junit", "html")


def seconds_arg(text: str) -> float:
    """The argparse type of a timeout: a finite number of seconds above 0 (``nan`` and ``inf``
    are refused, never read as "no timeout")."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a timeout is a number of seconds above 0")
    return value


def count_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number 0 or more")
    return value


class _Stop(KeyboardInterrupt):
    """SIGTERM, raised where the run is (the runner stops and the reports keep what ran)."""


def _on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the reports are being written
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise _Stop("SIGTERM")


@contextlib.contextmanager
def _signals_stop_the_run() -> Iterator[None]:
    """SIGTERM stops the run like SIGINT: the runner returns what ran, the adapter's process
    group is ended and the reports are written (signals during that are ignored)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    old_int = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGINT, old_int)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "conform",
        help="run the conformance suite against an implementation",
        description="Run the conformance suite against one adapter, or several side by side. "
        "Exit 0: every case run passed; 1: failures or unexpected passes; 2: usage or adapter "
        "errors.",
    )
    p.add_argument(
        "--adapter",
        required=True,
        action="append",
        metavar="SPEC",
        help="reference | openspiel | rlcard | python:MODULE:CLASS | cmd:'COMMAND ARGS' "
        "(repeatable: each engine runs the same cases, reported side by side)",
    )
    p.add_argument(
        "--suite",
        action="append",
        metavar="PATH",
        help="case folder or file, a ruling file (.toml, as 'ginspec ruling new' writes), or a "
        "named suite: committed, regressions (repeatable; default: the committed suite)",
    )
    p.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="P",
        help="only cases of this profile (repeatable); profile-free cases always run",
    )
    p.add_argument("--cases", metavar="GLOB", help="only case IDs matching GLOB")
    p.add_argument(
        "--write-derived",
        type=Path,
        metavar="DIR",
        help="an engine of rules declared by value: also write the cases derived for its rules "
        "(the scenarios no committed case plays under them) as case files to DIR",
    )
    p.add_argument(
        "--expect-fail",
        action="append",
        metavar="FILE",
        help="cases expected to fail (JSON {id: reason} or 'ID # reason' lines), or the name of "
        "a shipped list (openspiel, rlcard); one for all engines, or one per --adapter in order",
    )
    p.add_argument("--shard", metavar="I/N", help="run the I-th of N deterministic shards")
    p.add_argument("--json", type=Path, metavar="FILE", help="JSON-lines report (- : stdout)")
    p.add_argument("--junit", type=Path, metavar="FILE", help="JUnit XML report (- : stdout)")
    p.add_argument("--html", type=Path, metavar="FILE", help="self-contained HTML report (- : stdout)")
    p.add_argument(
        "--max-fail",
        type=positive_int,
        metavar="N",
        help="stop after N failing cases (failures, adapter errors, unexpected passes)",
    )
    p.add_argument("-x", "--exitfirst", action="store_const", const=1, dest="max_fail",
                   help="stop at the first failing case (--max-fail 1)")
    p.add_argument(
        "--timeout",
        type=seconds_arg,
        default=10.0,
        metavar="S",
        help="per-request timeout for cmd: and python: adapters (default 10 s)",
    )
    p.add_argument(
        "--startup-timeout",
        type=seconds_arg,
        default=None,
        metavar="S",
        help=f"how long a started cmd: adapter has to answer hello, also less than --timeout "
        f"(default {STARTUP_TIMEOUT:g} s, or --timeout when that is longer)",
    )
    p.add_argument(
        "--max-restarts",
        type=count_arg,
        default=MAX_RESTARTS,
        metavar="N",
        help=f"restarts of a failing adapter in a row before the remaining cases are reported "
        f"as adapter errors (default {MAX_RESTARTS})",
    )
    p.add_argument(
        "--smoke",
        action="store_true",
        help="only check that the adapter speaks the protocol (tells a broken adapter "
        "from a non-conforming engine)",
    )
    p.add_argument(
        "--live",
        action="store_true",
        help="live differential mode: play seeded random hands against the reference",
    )
    p.add_argument("--seed", type=seed_arg, help="--live: first seed (default 0)")
    p.add_argument("--hands", type=positive_int,
                   help="--live: hands to play (at least; the last example is played whole; "
                   "default 20)")
    p.add_argument("--rules", type=Path, metavar="FILE",
                   help="--live: the ruleset to play, a TOML file (profile = \"...\" and a [set] "
                   "table; PROTOCOL.md, 'Rules declared by value'); instead of --profile")
    p.add_argument("--max-examples", type=positive_int, metavar="N",
                   help="--live: Hypothesis examples per round (default 20)")
    p.add_argument("--max-new", type=positive_int, metavar="N",
                   help="--live: stop after N new divergences, each shrunk (default 10)")
    p.add_argument("--players", type=positive_int, metavar="N",
                   help="--live: play seed 001's table game at N seats (3 or 4; a table profile "
                   "such as serbian-online, an adapter declaring table-game.N)")
    p.add_argument("--out", type=Path, help="--live: folder for the shrunk case (default .)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list every clause, every declined case and every expected failure")
    p.set_defaults(handler=run_conform)
    s = sub.add_parser(
        "serve",
        help="serve an adapter (default: the reference) over the "
        "JSON-lines protocol on stdin/stdout",
    )
    s.add_argument(
        "--adapter",
        default="reference",
        metavar="SPEC",
        help="reference (default) or python:MODULE:CLASS",
    )
    s.set_defaults(handler=run_serve)



def _hello(adapter: Adapter) -> Hello:
    try:
        return adapter.hello()
    except AdapterFault as fault:
        adapter.close()
        raise AdapterError(f"--adapter: hello failed: {fault.kind}: {fault}") from None


LIVE_DEFAULTS: dict[str, object] = {"seed": 0, "hands": 20, "out": Path(".")}
"""The defaults of the options only ``--live`` reads (filled in when it runs)."""

LIVE_ONLY = (*LIVE_DEFAULTS, "max_examples", "max_new")
"""Options only ``--live`` reads: refused in the other modes rather than ignored."""


def _refuse_for_mode(args: argparse.Namespace) -> None:
    """--smoke and --live write no report and play no suite: the options that would be ignored
    are refused, one line naming them."""
    if args.players is not None and not args.live:
        raise CaseFormatError("--players: only --live plays table hands (the suite's table "
                              "cases name their seats)")
    if not args.live:
        live_only = [f"--{f.replace('_', '-')}" for f in LIVE_ONLY if getattr(args, f) is not None]
        if live_only:
            raise CaseFormatError(f"{live_only[0]}: only --live uses it (it plays random hands; "
                                  f"a suite run plays the suite's cases)")
    mode = "--smoke" if args.smoke else "--live" if args.live else None
    if mode is None:
        return
    if args.smoke and args.live:
        raise CaseFormatError("--smoke and --live: give one of them")
    given = [f"--{f}" for f in REPORT_FLAGS if getattr(args, f) is not None]
    given += ["--max-fail/-x"] if args.max_fail is not None else []
    given += ["--suite"] if args.suite else []
    given += ["--expect-fail"] if args.expect_fail and args.smoke else []
    given += ["--cases"] if args.cases else []
    given += ["--shard"] if args.shard else []
    given += ["a second --adapter"] if len(args.adapter) > 1 else []
    if given:
        what = "writes its verdict on stdout only" if mode == "--smoke" else \
            "writes the shrunk case to --out and its verdict on stdout"
        raise CaseFormatError(f"{mode}: {given[0]} is not used in this mode ({mode[2:]} {what})")


def _of_rules(cases: list[Case], path: Path, adapters: list[str]) -> list[Case]:
    """``--rules FILE``: only the cases of exactly that ruleset (by value), which every adapter
    must be able to play (PROTOCOL.md, "Rules declared by value")."""
    from ginspec.conformance.adapters.rules_file import load_rules, rules_reason

    declared = load_rules(path)
    for spec in adapters:
        adapter = open_adapter(spec)
        try:
            reason = _hello(adapter).rules_reason(declared.name, declared.overrides)
        finally:
            adapter.close()
        if reason is not None:
            raise AdapterError(f"--rules {path}: {spec} cannot play these rules: {reason}")
    return [c for c in cases if rules_reason(declared, c.profile, c.overrides) is None]


def run_conform(args: argparse.Namespace) -> int:
    with _signals_stop_the_run():
        try:
            return _conform(args)
        except _Stop:  # before the first case (hello, loading): nothing to report
            print("ginspec: interrupted by SIGTERM before any case ran", file=sys.stderr)
            return 143


def _conform(args: argparse.Namespace) -> int:
    shard = parse_shard(args.shard) if args.shard else None
    _refuse_for_mode(args)
    from ginspec.spec.profiles import profiles

    # (--live checks its one profile itself)
    unknown_profiles = [] if args.live else [p for p in args.profile if p not in profiles()]
    if unknown_profiles:
        raise CaseFormatError(f"--profile: unknown profile {unknown_profiles[0]!r} (known: "
                              f"{', '.join(profiles())})")
    check_outputs((f"--{f}", getattr(args, f)) for f in REPORT_FLAGS)
    if getattr(args, "write_derived", None) is not None:
        check_folder(args.write_derived, CaseFormatError, "--write-derived")
    if args.smoke or args.live:
        return _run_mode(args)
    adapters: list[str] = args.adapter
    lists = args.expect_fail or []
    if len(lists) not in (0, 1, len(adapters)):
        raise CaseFormatError(f"--expect-fail: give one list for all engines or one per --adapter "
                              f"({len(adapters)}), not {len(lists)}")
    paths = [expect_fail_path(v) for v in lists]
    expects = [read_expect_fail(p) for p in paths]
    collecting = gc.isenabled()
    gc.disable()  # until the cases are frozen: the first collection after loading walks them all
    try:
        cases = load_run_cases(args.suite)
    finally:
        gc.freeze()  # the cases live as long as the run: the collector need not walk them again
        if collecting:
            gc.enable()
    for value, expect in zip(lists, expects, strict=True):
        check_expect_fail_ids(expect, cases, value)
    if args.cases and not any(fnmatch.fnmatchcase(c.id, args.cases) for c in cases):
        raise CaseFormatError(f"--cases {args.cases!r}: no case ID matches "
                              "(see 'ginspec suite list')")
    chosen = select(cases, profiles=args.profile, pattern=args.cases, shard=shard)
    if args.rules is not None:
        chosen = _of_rules(chosen, args.rules, adapters)
    runs: list[Run] = []
    for i, spec in enumerate(adapters):
        expect = expects[i] if len(expects) == len(adapters) else expects[0] if expects else {}
        listed = lists[i] if len(lists) == len(adapters) else lists[0] if lists else None
        try:
            runs.append(_run_one(args, spec, chosen, expect, listed, len(adapters) == 1))
        except _Refused as refused:  # refused at hello: the reports hold that one error
            runs.append(Run(spec, RunSummary(refused.hello, refused=str(refused.error)),
                            _rerun(args, spec, listed), expect, listed))
            _write_reports(args, runs, chosen)
            raise refused.error from None
        if runs[-1].summary.interrupted:  # no further engine after SIGINT/SIGTERM
            break
    _write_reports(args, runs, chosen)
    from ginspec.conformance.reports.terminal import print_side_by_side, print_summary

    # a report on stdout keeps stdout machine-readable: the summary goes to stderr
    out = sys.stderr if any(is_stdout(getattr(args, f) or "") for f in REPORT_FLAGS) else sys.stdout
    for r in runs:
        print_summary(r.summary, out, verbose=args.verbose, rerun=r.rerun, reasons=r.expect,
                      not_run=r.not_run, max_fail=args.max_fail)
    if len(runs) > 1:
        print_side_by_side([(r.spec, r.summary) for r in runs], out, verbose=args.verbose)
    stopped = next((r.summary for r in runs if r.summary.interrupted), None)
    if stopped is not None:
        return stopped.exit_code  # 130 or 143, as the footer says
    return max(r.summary.exit_code for r in runs)


class _Refused(Exception):
    """An adapter refused at hello (its hello failed, or it declares nothing the selection needs):
    the error to report, and the hello to head the reports with."""

    def __init__(self, error: AdapterError, hello: Hello):
        super().__init__(str(error))
        self.error = error
        self.hello = hello


def _write_reports(args: argparse.Namespace, runs: list[Run], chosen: list[Case]) -> None:
    """Every report asked for (--json, --junit, --html), of the runs so far."""
    selection_base = {"profiles": args.profile, "cases": args.cases, "shard": args.shard,
                      "selected": len(chosen)}
    if args.json is not None:
        from ginspec.conformance.reports.jsonl import write_runs

        write_runs(args.json, [(r.spec, r.summary, {**selection_base, "expect_fail": r.listed,
                                                     "not_run": r.not_run}) for r in runs])
    if args.junit is not None:
        from ginspec.conformance.reports.junit import write_junit_runs

        write_junit_runs(args.junit, [(r.rerun, r.summary) for r in runs],
                         {k: v for r in runs for k, v in r.expect.items()})
    if args.html is not None:
        from ginspec.conformance.reports.html import write_html

        write_html(args.html, [(r.spec, r.summary) for r in runs], reruns=[r.rerun for r in runs],
                   reasons=[r.expect for r in runs])


@dataclass
class Run:
    """One engine's run of the chosen cases."""

    spec: str
    summary: RunSummary
    rerun: Rerun
    expect: dict[str, str]
    listed: str | None
    not_run: int = 0


def _rerun(args: argparse.Namespace, spec: str, listed: str | None) -> Rerun:
    extra: list[str] = []
    if args.timeout != 10.0:
        extra += ["--timeout", str(args.timeout)]
    rules = getattr(args, "rules", None)
    if rules:
        extra += ["--rules", str(rules)]
    if listed:
        extra += ["--expect-fail", listed]
    return Rerun(spec, tuple(args.suite or ()), tuple(extra))


def _with_derived(args: argparse.Namespace, chosen: list[Case], hello: Hello) -> list[Case]:
    """The chosen cases for an engine of rules declared by value (``generate/derive.py``): the
    hand and match scenarios it would skip for a rule value are derived for its rules, and each
    derived case is sent instead of the committed cases of its scenario."""
    from ginspec.conformance.generate.derive import derived_for, superseded, write_derived

    assert hello.rules is not None
    made = derived_for(chosen, hello.rules,
                       lambda c: not str(skip_reason(c, hello) or "").startswith("rules:"))
    if args.write_derived is not None:
        write_derived(made, args.write_derived)
    replaced = superseded(chosen, made)
    return [c for c in chosen if c.id not in replaced] + made


def _run_one(args: argparse.Namespace, spec: str, chosen: list[Case], expect: dict[str, str],
             listed: str | None, stream: bool = False) -> Run:
    adapter = open_adapter(spec, timeout=args.timeout, startup=args.startup_timeout)
    try:
        hello = _hello(adapter)
    except AdapterError as error:  # the adapter said no usable hello: nothing is known of it
        raise _Refused(error, Hello(name=spec, version="")) from None
    if hello.rules is not None:  # the scenarios no committed case plays, derived for its rules
        chosen = _with_derived(args, chosen, hello)
    if chosen and all(skip_reason(c, hello) for c in chosen):
        adapter.close()
        raise _Refused(AdapterError(f"--adapter {spec}: {printable(hello.name)} declares nothing "
                                    f"that could run any of the {len(chosen)} selected cases "
                                    f"({skip_reason(chosen[0], hello)}, ...)"), hello)
    streamed = None
    if stream and args.json is not None and not is_stdout(args.json):  # written as cases finish
        from ginspec.conformance.reports.jsonl import JsonlStream

        streamed = JsonlStream(args.json, hello, spec, {"selected": len(chosen)})
    failures = 0
    todo = list(chosen)

    def capped() -> Iterator[Case]:
        for case in todo:
            if args.max_fail is not None and failures >= args.max_fail:
                return
            yield case

    def count(outcome: CaseResult) -> None:
        nonlocal failures
        if streamed is not None:
            streamed.add(outcome)
        if outcome.status in ("fail", "error", "xpass"):
            failures += 1

    try:
        runner = Runner(adapter, hello, expect, max_restarts=args.max_restarts)
        summary = _run_with_progress(runner, capped(), len(todo), args.no_progress, count)
    finally:
        adapter.close()
        if streamed is not None:
            streamed.close()
    left = len(todo) - len(summary.outcomes)
    if summary.interrupted:
        summary.not_run = left
    return Run(spec, summary, _rerun(args, spec, listed), expect, listed,
               0 if summary.interrupted else left)


def _run_mode(args: argparse.Namespace) -> int:
    adapter = open_adapter(args.adapter[0], timeout=args.timeout, startup=args.startup_timeout)
    hello = _hello(adapter)
    try:
        if args.smoke:
            from ginspec.conformance.smoke import smoke

            return smoke(adapter, hello, sys.stdout)
        from ginspec.conformance.adapters.rules_file import load_rules
        from ginspec.conformance.stateful import run_live
        from ginspec.spec.profiles import ruleset

        for name, default in LIVE_DEFAULTS.items():  # not given: the live mode's defaults
            if getattr(args, name) is None:
                setattr(args, name, default)
        check_folder(args.out, CaseFormatError, "--out")  # before play: a shrunk case goes there
        if args.rules is not None and args.profile:
            raise CaseFormatError("--live: give --profile or --rules, not both")
        if args.rules is None and len(args.profile) != 1:
            raise CaseFormatError("--live: give exactly one --profile (or --rules FILE)")
        rules = load_rules(args.rules) if args.rules is not None else ruleset(args.profile[0])
        lists = args.expect_fail or []
        if len(lists) > 1:
            raise CaseFormatError("--live: give one --expect-fail list")
        expect = read_expect_fail(expect_fail_path(lists[0])) if lists else {}
        code: int = run_live(adapter, hello, rules, seed=args.seed,
                             hands=args.hands, out=args.out,
                             stdout=sys.stdout, expect_fail=expect,
                             max_examples=args.max_examples, max_new=args.max_new,
                             players=args.players)
        if code == 1:
            _explain_shrunk_case(args, adapter, hello, rules.name)
        return code
    finally:
        adapter.close()


def _explain_shrunk_case(args: argparse.Namespace, adapter: Adapter, hello: Hello,
                         profile: str) -> None:
    """After a live divergence: the shrunk case file run once more against the adapter, and its
    failure explained like any other (cards, expected beside actual, clause, rerun command)."""
    from ginspec.conformance.cases import load_case
    from ginspec.conformance.stateful import case_id

    written = sorted(args.out.glob(f"{case_id(f'live.{profile}')}.*.json"),
                     key=lambda p: p.stat().st_mtime)
    if not written:
        return
    case = load_case(written[-1])
    with contextlib.suppress(AdapterFault):
        adapter.restart()
    outcome = Runner(adapter, hello).run_case(case)
    if outcome.status in ("skip", "declined"):
        done = "skipped" if outcome.status == "skip" else "declined by the adapter"
        print(f"the shrunk case {case.id} was {done} when rerun, so it was not judged again: "
              f"{outcome.message}", file=sys.stdout)
        return
    if outcome.status not in ("fail", "error"):
        print(f"the shrunk case {case.id} did not fail again when rerun ({outcome.status}): the "
              "engine is not deterministic for it", file=sys.stdout)
        return
    from ginspec.conformance.reports.explain import explain
    from ginspec.conformance.reports.terminal import print_failure
    from ginspec.reference.cli.console import make_console

    rerun = Rerun(args.adapter[0], (str(written[-1]),),
                  ("--timeout", str(args.timeout)) if args.timeout != 10.0 else ())
    print_failure(make_console(sys.stdout), explain(outcome, rerun))


def _run_with_progress(runner: Runner, cases: Iterable[Case], total: int, quiet: bool,
                       count: Callable[[CaseResult], None]) -> RunSummary:
    if quiet or not sys.stderr.isatty():
        return runner.run(cases, count)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("conformance", total=total)

        def tick(outcome: CaseResult) -> None:
            count(outcome)
            progress.advance(task)

        return runner.run(cases, tick)


def run_serve(args: argparse.Namespace) -> int:
    from ginspec.conformance.serve import serve

    if args.adapter.startswith("cmd:"):
        raise AdapterError("serve: --adapter must be reference or python:MODULE:CLASS")
    adapter = open_adapter(args.adapter)
    return serve(adapter, sys.stdin, sys.stdout)

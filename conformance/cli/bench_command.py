"""``ginspec bench``: speed benchmarks, each side by side with a peer in the same run.

``ginspec bench engine``: full random hands per second through the game engine's public API
(``HandState.new`` / ``legal_actions()`` / ``apply``), next to OpenSpiel's ``gin_rummy`` driven
from Python the same way (``legal_actions()`` / ``apply_action``, chance outcomes sampled). Both
sides play uniformly random legal actions from seeded generators; a hand runs from the deal to
its end. Results go to docs/performance.md (section "Game engine").

``ginspec bench mutants``: the kill rate of generated mutants of the reference per
single-profile adapter (:mod:`ginspec.conformance.mutation`; docs/conformance/mutation.md).

``ginspec bench live``: per two-player profile, the hands a live run plays against an adapter
(the reference by default), the share reaching a showdown, whole matches per 20 hands and
ginspec's seconds beside the adapter's (:mod:`ginspec.conformance.bench.live`;
docs/conformance/live.md, docs/performance.md).

``ginspec bench melds``: median and p90 µs per hand of the meld engine (minimum deadwood; best
discard for 11 cards) on random, meld-dense and worst-case hands, next to OpenSpiel's
``GinRummyUtils.min_deadwood`` on the same hands, every answer cross-checked
(:mod:`ginspec.conformance.bench.meld_bench`; docs/performance.md, section "Meld engine").
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ginspec.reference.cli.args import seed_arg
from ginspec.reference.game.deal import deal_from_seed
from ginspec.reference.game.state import CHANCE, HandState
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.errors import GinspecError


class BenchError(GinspecError):
    """A benchmark could not run (unknown benchmark, peer missing when required)."""


@dataclass(frozen=True)
class Measure:
    name: str
    hands: int
    steps: int
    seconds: float
    scored: int
    """Hands that ended in a score (a knock or gin) rather than void or 0-0."""

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def steps_per_hand(self) -> float:
        return self.steps / self.hands

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "hands": self.hands, "steps": self.steps,
                "seconds": round(self.seconds, 3),
                "hands_per_second": round(self.hands_per_second, 1),
                "steps_per_hand": round(self.steps_per_hand, 1),
                "scored_hands": self.scored}


def _timed(name: str, play_hand: Callable[[int], tuple[int, bool]], hands: int) -> Measure:
    steps = 0
    scored = 0
    start = time.perf_counter()
    for i in range(hands):
        n, score = play_hand(i)
        steps += n
        scored += score
    return Measure(name, hands, steps, time.perf_counter() - start, scored)


def engine_hand(profile: str, seed: int) -> Callable[[int], tuple[int, bool]]:
    """A function playing hand ``i`` at random through the engine; returns its step count and
    whether anybody scored."""
    rules = rules_for_profile(profile)

    def play(i: int) -> tuple[int, bool]:
        rng = random.Random(seed * 1_000_003 + i)
        state = HandState.new(deal_from_seed(rng.getrandbits(32), i % 2), rules)
        steps = 0
        while not state.is_over:
            chance = state.to_move == CHANCE
            action = state.chance_action() if chance else rng.choice(list(state.legal_actions()))
            state = state.apply(action)
            steps += 1
        assert state.result is not None
        return steps, any(state.result.points)

    return play


def openspiel_hand(seed: int) -> Callable[[int], tuple[int, bool]] | None:
    """The same for OpenSpiel's gin_rummy (chance nodes, i.e. the deal, count as steps)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")

    def play(i: int) -> tuple[int, bool]:
        rng = random.Random(seed * 1_000_003 + i)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        return steps, any(state.returns())

    return play


def run_engine_bench(hands: int, seed: int, profiles: list[str],
                     require_peer: bool) -> dict[str, Any]:
    measures = []
    peer = openspiel_hand(seed)
    if peer is None and require_peer:
        raise BenchError("OpenSpiel is not installed: pip install 'ginspec[openspiel]'")
    # Warm-up (imports, caches) outside the timing.
    for profile in profiles:
        engine_hand(profile, seed)(10**6)
    if peer is not None:
        peer(10**6)
    for profile in profiles:
        measures.append(_timed(f"ginspec engine ({profile})", engine_hand(profile, seed), hands))
    if peer is not None:
        measures.append(_timed("OpenSpiel gin_rummy (Python)", peer, hands))
    out: dict[str, Any] = {
        "benchmark": "engine", "hands": hands, "seed": seed,
        "python": platform.python_version(), "machine": platform.machine(),
        "measures": [m.to_json() for m in measures],
    }
    if peer is not None:
        os_rate = measures[-1].hands_per_second
        out["ratios_vs_openspiel"] = {m.name: round(m.hands_per_second / os_rate, 2)
                                      for m in measures[:-1]}
    return out


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="speed benchmarks side by side with a peer (ginspec bench engine)",
        description="Run a speed benchmark. 'engine': random full hands per second through the "
        "game engine's public API, next to OpenSpiel's gin_rummy driven from Python in the "
        "same run (if OpenSpiel is installed). 'melds': median/p90 microseconds per hand of "
        "min_deadwood (best discard for 11 cards) on random, meld-dense and worst-case hands, "
        "next to OpenSpiel's GinRummyUtils.min_deadwood, every answer cross-checked. 'start': "
        "whole 'ginspec conform --adapter reference' processes, start-up included, the "
        "committed suite verified by its digest beside every case schema-checked.",
    )
    p.add_argument("benchmark", choices=["engine", "melds", "mutants", "start", "live"],
                   help="which benchmark")
    p.add_argument("--hands", type=int, default=None,
                   help="hands per side (default: engine 300; melds 2000 per random set; "
                   "live 100 per profile)")
    p.add_argument("--reps", type=int, default=None, metavar="R",
                   help="melds: calls per hand per timing (default 20); start: paired runs "
                   "(default 5)")
    p.add_argument("--seed", type=seed_arg, default=1, help="seed of the random players and deals")
    p.add_argument("--profile", action="append", default=[], metavar="P",
                   help="engine profile(s) to time (default: openspiel and pagat; live: every "
                   "two-player profile)")
    p.add_argument("--adapter", default=None, metavar="SPEC",
                   help="live: the engine played against the reference (default: reference)")
    p.add_argument("--expect-fail", default=None, metavar="LIST",
                   help="live: the adapter's known divergences, played past (a file or a "
                   "shipped list's name)")
    p.add_argument("--require-peer", action="store_true",
                   help="fail (exit 2) if OpenSpiel is not installed")
    p.add_argument("--json", action="store_true", help="one JSON object")
    from ginspec.conformance.mutation.command import add_arguments

    add_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.hands is not None and args.hands < 1:
        raise BenchError(f"--hands: must be at least 1, got {args.hands}")
    if args.benchmark == "mutants":
        from ginspec.conformance.mutation.command import run as run_mutation

        return run_mutation(args)
    if args.benchmark == "start":
        return run_start(args)
    if args.benchmark == "live":
        return run_live_bench(args)
    if args.adapter is not None or args.expect_fail is not None:
        raise BenchError("--adapter/--expect-fail: apply to 'bench live' only")
    if args.benchmark == "melds":
        if args.profile:
            raise BenchError("--profile: applies to 'bench engine' only (the meld benchmark "
                             "times the standard meld rules, the rules OpenSpiel plays)")
        return run_melds(args)
    args.hands = args.hands or 300
    profiles = args.profile or ["openspiel", "pagat"]
    result = run_engine_bench(args.hands, args.seed, profiles, args.require_peer)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"random full hands, {result['hands']} per side, seed {result['seed']}, "
          f"Python {result['python']} ({result['machine']})")
    from ginspec.reference.cli.console import print_table

    numbers = ("hands/s", "steps/hand", "scored", "seconds")
    print_table(("side", *numbers),
                ((m["name"], f"{m['hands_per_second']:.1f}", f"{m['steps_per_hand']:.1f}",
                  m["scored_hands"], f"{m['seconds']:.2f}") for m in result["measures"]),
                right=numbers)
    if "ratios_vs_openspiel" in result:
        for name, ratio in result["ratios_vs_openspiel"].items():
            print(f"{name}: {ratio:.2f}x OpenSpiel's hands/s")
    else:
        print("OpenSpiel not installed: no peer column (pip install 'ginspec[openspiel]')",
              file=sys.stderr)
    return 0


def run_start(args: argparse.Namespace) -> int:
    """``ginspec bench start`` (see :mod:`ginspec.conformance.bench.start`)."""
    from ginspec.conformance.bench.start import run_start_bench

    if args.profile or args.hands is not None:
        raise BenchError("--profile/--hands: 'bench start' times the whole suite against the "
                         "reference; --reps sets the number of paired runs")
    runs = 5 if args.reps is None else args.reps
    if runs < 1:
        raise BenchError(f"--reps: must be at least 1, got {runs}")
    report = run_start_bench(runs)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"whole 'ginspec conform --adapter reference' processes, {runs} paired runs (medians), "
          f"Python {report['python']} ({report['machine']}), load average "
          f"{report['load_average_1min']}")
    from ginspec.reference.cli.console import print_table

    print_table(("suite", "wall s", "CPU s", "exit"),
                ((m["name"], f"{m['wall_s']:.2f}", f"{m['cpu_s']:.2f}",
                  ",".join(map(str, m["exit_codes"]))) for m in report["measures"]),
                right=("wall s", "CPU s"))
    print(f"digest / every case checked: wall {report['ratio_wall']:.3f}, "
          f"CPU {report['ratio_cpu']:.3f}")
    return 0


def run_melds(args: argparse.Namespace) -> int:
    """``ginspec bench melds`` (see :mod:`ginspec.conformance.bench.meld_bench`)."""
    from ginspec.conformance.bench.meld_bench import format_table, peer_available, run_benchmark

    args.reps = 20 if args.reps is None else args.reps
    if args.reps < 1:
        raise BenchError(f"--reps: must be at least 1, got {args.reps}")
    if args.hands is not None and args.hands < 4:
        raise BenchError(f"--hands: the melds benchmark needs at least 4 (a quarter of them make "
                         f"the dense sets), got {args.hands}")
    if args.require_peer and not peer_available():
        raise BenchError("OpenSpiel is not installed: pip install 'ginspec[openspiel]'")
    report = run_benchmark(hands=args.hands or 2000, seed=args.seed, reps=args.reps)
    print(json.dumps(report, indent=2) if args.json else format_table(report))
    return 0


def run_live_bench(args: argparse.Namespace) -> int:
    """``ginspec bench live`` (see :mod:`ginspec.conformance.bench.live`): exit 1 when a
    profile misses a bound or the adapter shows a new divergence."""
    from ginspec.conformance.adapters.loader import open_adapter
    from ginspec.conformance.bench.live import HEADERS, measure, table_rows, two_player_profiles
    from ginspec.conformance.runner import read_expect_fail
    from ginspec.conformance.selection import expect_fail_path
    from ginspec.reference.cli.console import print_table
    from ginspec.spec.profiles import profiles

    every = two_player_profiles()
    for name in args.profile:
        if name not in every:
            known = name in profiles()
            raise BenchError(f"--profile {name}: " + ("not a two-player profile the live "
                             "machine plays" if known else "no such profile"))
    expect = read_expect_fail(expect_fail_path(args.expect_fail)) if args.expect_fail else {}
    adapter = open_adapter(args.adapter or "reference")
    figures = []
    try:
        for name in args.profile or every:
            figures.append(measure(adapter, name, hands=args.hands or 100, seed=args.seed,
                                   expect_fail=expect))
    finally:
        adapter.close()
    if args.json:
        print(json.dumps({"benchmark": "live", "adapter": args.adapter or "reference",
                          "seed": args.seed, "python": platform.python_version(),
                          "runs": [f.to_json() for f in figures]}))
    else:
        print(f"live machine against {args.adapter or 'reference'}, seed {args.seed}, "
              f"Python {platform.python_version()}")
        print_table(HEADERS, table_rows(figures), right=HEADERS[1:])
        for f in figures:
            for line in f.new:
                print(f"{f.profile}: new divergence {line}")
    bad = [f for f in figures if not f.meets or f.new]
    return 1 if bad else 0

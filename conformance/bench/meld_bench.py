"""The meld-engine benchmark: µs per hand for ginspec's reference and, when installed, OpenSpiel.

Hand sets (all drawn from one seed, so a run is reproducible):

* ``uniform-10`` — uniform random 10-card hands; both sides compute the minimum deadwood.
* ``uniform-11`` — uniform random 11-card hands; ours computes the best discard
  (:func:`~ginspec.reference.melds.min_deadwood_after_discard`, KNOCK.ELIGIBLE), OpenSpiel its
  ``min_deadwood`` on 11 cards. A second OpenSpiel column times the same question answered
  correctly: its 10-card ``min_deadwood`` after each of the 11 discards.
* ``dense-10`` — 10 of the 12 cards of three consecutive ranks: every card is in a set and in a run.
* ``dense-11`` (extra) — 11 of the 16 cards of four consecutive ranks, best discard: where
  OpenSpiel's 11-card shortcut (meld all 11, drop the highest leftover) shows.
* ``worst-10`` — the 10-card hands with the most packings of disjoint melds (what OpenSpiel's
  meld-group search walks) and with the most set choices (what ours enumerates), taken from every
  10-card subset of three consecutive ranks and every "two four-of-a-kinds plus two" hand.

Timing: for each hand, the call is repeated ``reps`` times in a plain loop and the total divided by
``reps``; the median and 90th percentile over hands are reported. The two sides are timed hand by
hand, alternately, with the garbage collector off, and each gets a plain Python list of ints in its
own card encoding (translated before timing). Every answer is checked outside the timed region:
a fast wrong answer is worthless.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import itertools
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from ginspec.conformance.adapters.openspiel import to_os
from ginspec.reference.melds import all_melds, min_deadwood, min_deadwood_after_discard
from ginspec.spec.cards import Card, card_str
from ginspec.spec.errors import GinspecError

Hand = list[Card]


class BenchmarkMismatch(GinspecError):
    """ginspec and OpenSpiel disagree on a benchmarked hand where they must agree."""


# --- hand sets -------------------------------------------------------------------------------


def uniform_hands(rng: random.Random, count: int, size: int) -> list[Hand]:
    return [rng.sample(range(52), size) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int = 10, ranks: int = 3) -> list[Hand]:
    """``size`` of the cards of ``ranks`` consecutive ranks (all four suits), in random order."""
    hands = []
    for _ in range(count):
        low = rng.randrange(14 - ranks)
        pool = [s * 13 + r for s in range(4) for r in range(low, low + ranks)]
        hands.append(rng.sample(pool, size))
    return hands


def count_packings(hand: Sequence[Card]) -> int:
    """How many sets of pairwise-disjoint melds the hand has (the empty set included)."""
    melds = [m.mask for m in all_melds(list(hand))]

    def walk(start: int, used: int) -> int:
        total = 1
        for i in range(start, len(melds)):
            if not melds[i] & used:
                total += walk(i + 1, used | melds[i])
        return total

    return walk(0, 0)


def count_set_choices(hand: Sequence[Card]) -> int:
    """How many ways to choose the set cards (no set, or a set, at each rank held 3+ times)."""
    total = 1
    for rank in range(13):
        held = sum(1 for c in hand if c % 13 == rank)
        total *= {3: 2, 4: 6}.get(held, 1)
    return total


def worst_hands(rng: random.Random, count: int) -> list[Hand]:
    """The hardest 10-card hands of two families, for OpenSpiel's search and for ours."""
    candidates: list[Hand] = []
    for low in range(11):
        pool = [s * 13 + r for r in range(low, low + 3) for s in range(4)]
        candidates.extend(list(c) for c in itertools.combinations(pool, 10))
    for low in range(12):
        quads = [s * 13 + r for r in (low, low + 1) for s in range(4)]
        rest = [c for c in range(52) if c not in quads and abs(c % 13 - low) <= 3]
        candidates.extend([*quads, *pair] for pair in itertools.combinations(rest, 2))
    by_packings = sorted(candidates, key=lambda h: (-count_packings(h), h))
    by_choices = sorted(candidates, key=lambda h: (-count_set_choices(h), -count_packings(h), h))
    half = max(1, count // 2)
    chosen: list[Hand] = []
    seen: set[tuple[Card, ...]] = set()
    for hand in [*by_packings[:half], *by_choices[: count - half]]:
        key = tuple(sorted(hand))
        if key not in seen:
            seen.add(key)
            chosen.append(rng.sample(hand, len(hand)))
    return chosen


# --- timing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    median_us: float
    p90_us: float


@dataclass(frozen=True)
class SetResult:
    """One hand set: our timing, OpenSpiel's (None when not installed) and the checks."""

    name: str
    description: str
    hands: int
    ours: Timing
    openspiel: Timing | None
    openspiel_each_discard: Timing | None
    ratio: float | None
    """OpenSpiel median / our median: above 1 means ours is faster."""
    openspiel_11_card_differs: int | None
    """Hands where OpenSpiel's 11-card ``min_deadwood`` is not the best-discard deadwood."""
    example_difference: str | None


def _per_call_us(func: Callable[[Hand], object], hand: Hand, reps: int) -> float:
    clock = time.perf_counter_ns
    start = clock()
    for _ in range(reps):
        func(hand)
    return (clock() - start) / reps / 1000


def _summary(samples: list[float]) -> Timing:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return Timing(round(statistics.median(ordered), 3), round(p90, 3))


def _time_sides(
    funcs: Sequence[Callable[[Hand], object]], inputs: Sequence[Sequence[Hand]], reps: int
) -> list[Timing]:
    """Time each function on its own encoding of every hand, alternating hand by hand."""
    samples: list[list[float]] = [[] for _ in funcs]
    enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(len(inputs[0])):
            for k, func in enumerate(funcs):
                func(inputs[k][i])  # warm
                samples[k].append(_per_call_us(func, inputs[k][i], reps))
    finally:
        if enabled:
            gc.enable()
    return [_summary(s) for s in samples]


def _load_openspiel() -> Any | None:
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for card in range(52):  # the translation, checked against OpenSpiel's own names
        if utils.card_string(to_os(card)).upper() != card_str(card):
            raise BenchmarkMismatch(f"card translation wrong for {card_str(card)}")
    return utils


def _each_discard(os_min: Callable[[Hand], int]) -> Callable[[Hand], int]:
    """OpenSpiel's 10-card minimum after each possible discard (the best-discard question)."""

    def best(hand: Hand) -> int:
        return min(os_min(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    return best


def peer_available() -> bool:
    """Whether OpenSpiel (pyspiel) can be imported."""
    return importlib.util.find_spec("pyspiel") is not None


def _fmt(hand: Hand) -> str:
    return " ".join(card_str(c) for c in hand)


def run_benchmark(hands: int = 2000, seed: int = 1, reps: int = 20) -> dict[str, Any]:
    """Run every hand set; raise BenchmarkMismatch if the two sides disagree where they must."""
    rng = random.Random(seed)
    sets: list[tuple[str, str, list[Hand]]] = [
        ("uniform-10", "uniform random 10-card hands", uniform_hands(rng, hands, 10)),
        ("uniform-11", "uniform random 11-card hands, best discard", uniform_hands(rng, hands, 11)),
        ("dense-10", "10 of the 12 cards of 3 consecutive ranks", dense_hands(rng, hands // 4)),
        ("worst-10", "hardest constructed 10-card hands", worst_hands(rng, 40)),
        ("dense-11", "11 of the 16 cards of 4 consecutive ranks, best discard",
         dense_hands(rng, hands // 4, 11, 4)),
    ]
    utils = _load_openspiel()
    results: list[SetResult] = []
    for name, description, hand_list in sets:
        eleven = name.endswith("-11")
        ours_func = min_deadwood_after_discard if eleven else min_deadwood
        expected = [ours_func(h) for h in hand_list]
        if utils is None:
            [ours] = _time_sides([ours_func], [hand_list], reps)
            results.append(SetResult(name, description, len(hand_list), ours, None, None, None,
                                     None, None))
            continue
        os_hands = [[to_os(c) for c in h] for h in hand_list]
        os_min = utils.min_deadwood
        differs, example = 0, None
        for hand, os_hand, ours_value in zip(hand_list, os_hands, expected, strict=True):
            if eleven:
                right = min(os_min(os_hand[:i] + os_hand[i + 1 :]) for i in range(11))
                shortcut = os_min(os_hand)
                if shortcut != right:
                    differs += 1
                    example = example or f"{_fmt(hand)}: best discard {right}, OpenSpiel {shortcut}"
            else:
                right = os_min(os_hand)
            if right != ours_value:
                raise BenchmarkMismatch(
                    f"{name}: {_fmt(hand)}: ginspec {ours_value}, OpenSpiel {right}"
                )

        funcs: list[Callable[[Hand], object]] = [ours_func, os_min]
        inputs = [hand_list, os_hands]
        if eleven:
            funcs.append(_each_discard(os_min))
            inputs.append(os_hands)
        timings = _time_sides(funcs, inputs, reps)
        results.append(
            SetResult(
                name, description, len(hand_list), timings[0], timings[1],
                timings[2] if eleven else None,
                round(timings[1].median_us / timings[0].median_us, 2),
                differs if eleven else None, example,
            )
        )
    return {"machine": machine_facts(), "seed": seed, "reps": reps,
            "sets": [asdict(r) for r in results]}


def machine_facts() -> dict[str, Any]:
    import os

    def dist(name: str) -> str | None:
        try:
            return version(name)
        except PackageNotFoundError:
            return None

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "ginspec": dist("ginspec"),
        "open_spiel": dist("open_spiel"),
    }


def format_table(report: dict[str, Any]) -> str:
    """The report as a Markdown table."""
    lines = [
        "| hand set | hands | ginspec median µs | ginspec p90 µs | OpenSpiel median µs "
        "| OpenSpiel p90 µs | OpenSpiel / ginspec (median) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for s in report["sets"]:
        ours, theirs = s["ours"], s["openspiel"]
        os_cells = (
            [f"{theirs['median_us']:.2f}", f"{theirs['p90_us']:.2f}", f"{s['ratio']:.2f}x"]
            if theirs else ["—", "—", "—"]
        )
        lines.append(f"| {s['name']} | {s['hands']} | {ours['median_us']:.2f} | "
                     f"{ours['p90_us']:.2f} | " + " | ".join(os_cells) + " |")
        if s["openspiel_each_discard"]:
            each = s["openspiel_each_discard"]
            lines.append(
                f"| {s['name']} (OpenSpiel: 10-card min_deadwood after each discard) | "
                f"{s['hands']} | | | {each['median_us']:.2f} | {each['p90_us']:.2f} | "
                f"{each['median_us'] / ours['median_us']:.2f}x |"
            )
        if s["openspiel_11_card_differs"] is not None:
            example = f", e.g. {s['example_difference']}" if s["example_difference"] else ""
            notes.append(
                f"{s['name']}: OpenSpiel's 11-card min_deadwood (meld all 11, drop the highest "
                f"leftover) differs from the best-discard deadwood on "
                f"{s['openspiel_11_card_differs']} of {s['hands']} hands{example} "
                "(docs/performance.md)."
            )
    m = report["machine"]
    lines.append("")
    lines.append(f"Python {m['python']} ({m['implementation']}, {m['machine']}), {m['cpus']} CPUs, "
                 f"ginspec {m['ginspec']}, open-spiel {m['open_spiel'] or 'not installed'}; "
                 f"seed {report['seed']}, {report['reps']} calls per hand.")
    lines.extend(notes)
    return "\n".join(lines)

"""Benchmark of per-hand certificates (FORMAL.CERTIFICATE; docs/performance.md, section
"Certificates"): median and p90 CPU milliseconds per certificate for random 10- and 11-card hands
and meld-dense 10- and 11-card hands (11 cards: best discard), next to the independent check of
the same certificate and the reference computation that the certificate checks
(``min_deadwood`` / ``min_deadwood_after_discard``) on the same hands. CPU time of this process
(``time.process_time``; z3 runs in it), so a loaded machine delays the run but barely changes
the numbers; the load average is recorded beside them.

Run with ``ginspec prove --bench [--hands N] [--seed S] [--json]``.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3
from ginspec.reference.meld_rules import STANDARD
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.spec.cards import NUM_RANKS, Card
from ginspec.spec.formal import checker
from ginspec.spec.formal.certificate import FormalModelError, certify


@dataclass(frozen=True)
class Row:
    """One kind of hand: timings in milliseconds."""

    kind: str
    hands: int
    certificate_median_ms: float
    certificate_p90_ms: float
    reference_median_ms: float
    mean_checks: float
    checker_median_ms: float
    checker_p90_ms: float

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "hands": self.hands,
                "certificate_median_ms": round(self.certificate_median_ms, 3),
                "certificate_p90_ms": round(self.certificate_p90_ms, 3),
                "reference_median_ms": round(self.reference_median_ms, 4),
                "ratio": round(self.certificate_median_ms / self.reference_median_ms, 1),
                "mean_checks": round(self.mean_checks, 2),
                "checker_median_ms": round(self.checker_median_ms, 3),
                "checker_p90_ms": round(self.checker_p90_ms, 3)}


def random_hands(rng: random.Random, count: int, size: int) -> list[list[Card]]:
    return [rng.sample(range(52), size) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int = 10) -> list[list[Card]]:
    """``size`` cards from the 16 cards of 4 adjacent ranks: many overlapping sets and runs."""
    out = []
    for _ in range(count):
        low = rng.randrange(NUM_RANKS - 3)
        pool = [s * NUM_RANKS + low + k for s in range(4) for k in range(4)]
        out.append(rng.sample(pool, size))
    return out


def _p90(xs: list[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def measure(kind: str, hands: list[list[Card]], discard: bool) -> Row:
    reference: Callable[[list[Card]], int] = (
        (lambda h: min_deadwood_after_discard(h, STANDARD)) if discard
        else (lambda h: min_deadwood(h, STANDARD))
    )
    claims, ref_times = [], []
    for h in hands:
        started = time.process_time()
        claims.append(reference(h))
        ref_times.append(time.process_time() - started)
    cert_times, check_times, checks = [], [], 0
    for h, claim in zip(hands, claims, strict=True):
        started = time.process_time()
        cert = certify(h, claim, STANDARD, discard=discard)
        cert_times.append(time.process_time() - started)
        if not cert.ok:  # pragma: no cover - the differential tests would have caught it
            raise FormalModelError(f"benchmark hand not certified: {cert!r}")
        checks += cert.checks
        data = cert.to_json(timing=False)
        started = time.process_time()
        problem = checker.check(data)  # the independent check of the same certificate
        check_times.append(time.process_time() - started)
        if problem is not None:  # pragma: no cover
            raise FormalModelError(f"the independent checker rejects {cert!r}: {problem}")
    return Row(kind, len(hands), statistics.median(cert_times) * 1000, _p90(cert_times) * 1000,
               statistics.median(ref_times) * 1000, checks / len(hands),
               statistics.median(check_times) * 1000, _p90(check_times) * 1000)


def run_bench(count: int = 500, seed: int = 1) -> dict[str, Any]:
    """Time certificates for ``count`` hands of each kind (seeded; the same hands every run)."""
    rng = random.Random(seed)
    load = os.getloadavg()[0]
    certify(list(range(11)), 0, STANDARD)  # warm up: Z3's context, the bound's suit tables
    rows = [
        measure("random 10 cards", random_hands(rng, count, 10), discard=False),
        measure("random 11 cards (best discard)", random_hands(rng, count, 11), discard=True),
        measure("dense 10 cards (4 adjacent ranks)", dense_hands(rng, count), discard=False),
        measure("dense 11 cards (4 adjacent ranks, best discard)", dense_hands(rng, count, 11),
                discard=True),
    ]
    return {"hands_per_kind": count, "seed": seed, "clock": "process CPU time",
            "load_average": round((load + os.getloadavg()[0]) / 2, 1),
            "python": platform.python_version(),
            "machine": platform.machine(), "z3": z3.get_version_string(),
            "rows": [r.to_json() for r in rows]}


def render(report: dict[str, Any]) -> str:
    lines = [f"certificates: {report['hands_per_kind']} hands per kind, seed {report['seed']}, "
             f"Python {report['python']}, z3 {report['z3']}; CPU ms, load average "
             f"{report['load_average']}",
             "| hands | certificate median ms | p90 ms | independent check median ms | p90 ms "
             "| reference median ms | ratio | solver checks |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["rows"]:
        lines.append(f"| {r['kind']} | {r['certificate_median_ms']:.2f} | {r['certificate_p90_ms']:.2f} "
                     f"| {r['checker_median_ms']:.2f} | {r['checker_p90_ms']:.2f} "
                     f"| {r['reference_median_ms']:.4f} | {r['ratio']:.0f}x | {r['mean_checks']:.2f} |")
    return "\n".join(lines)

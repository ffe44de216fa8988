"""The live machine's figures (docs/conformance/live.md); a benchmark, not a test: minutes.

    python -m ginspec.conformance.bench.live_mutants pagat        # each LIVE_MUTANTS entry

For each mutant: the hand its first divergence showed in, the seconds to find and to shrink it,
the steps of the shrunk case and the clause it blames (a Markdown table row). The showdown and
match figures per profile are ``ginspec bench live`` (:mod:`ginspec.conformance.bench.live`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from ginspec.conformance import mutants
from ginspec.conformance.stateful import LiveRun, play_live
from ginspec.spec.profiles import ruleset


def mutant_rows(profile: str, seed: int = 1, hands: int = 1000) -> list[str]:
    rows = ["| mutant | breaks | hands | find (s) | shrink (s) | steps | clause blamed |",
            "|---|---|---|---|---|---|---|"]
    for cls, breaks in mutants.LIVE_MUTANTS.items():
        adapter = cls()
        run = LiveRun(adapter, adapter.hello(), ruleset(profile), hands=hands)
        start = time.perf_counter()
        new = play_live(run, seed=seed, max_new=1)
        end = time.perf_counter()
        if not new:
            rows.append(f"| {cls.__name__} | {breaks} | not found in {run.stats.hands} | | | | |")
            continue
        divergence, trace = new[0]
        # the first difference that showed (shrinking may end on another it led to)
        hand, when = min(run.found_at.values(), key=lambda found: found[1], default=(0, start))
        rows.append(f"| {cls.__name__} | {breaks} | {hand} | {when - start:.0f} | "
                    f"{end - when:.0f} | {len(trace.steps)} | {divergence.clause} |")
        print(rows[-1], flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    rows = mutant_rows(args[0] if args else "pagat")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The live machine's figures (docs/conformance/live.md); a benchmark, not a test: minutes.

    python -m ginspec.conformance.bench.live_mutants pagat        # each LIVE_MUTANTS entry
    python -m ginspec.conformance.bench.live_mutants --figures    # showdowns and matches

For each mutant: the hand its first divergence showed in, the seconds to find and to shrink it,
the steps of the shrunk case and the clause it blames (a Markdown table row). With
``--figures``: for each two-player profile, 40 hands of the reference against itself — hands
with a showdown and whole matches played to the target.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from ginspec.conformance import mutants
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.stateful import LiveRun, play_live
from ginspec.reference.game import Deal, HandState, rules_for_profile
from ginspec.reference.game.match import MatchState
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import profiles, ruleset


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
        hand, when = run.found_at.get(divergence.ident, (0, start))
        rows.append(f"| {cls.__name__} | {breaks} | {hand} | {when - start:.0f} | "
                    f"{end - when:.0f} | {len(trace.steps)} | {divergence.clause} |")
        print(rows[-1], flush=True)
    return rows


def figure_rows(seed: int = 1, hands: int = 40) -> list[str]:
    rows = ["| profile | hands | showdowns | matches to target | per 20 hands |",
            "|---|---|---|---|---|"]
    deal = Deal(tuple(range(52)), 0)
    for name in profiles():
        try:
            HandState.new(deal, rules_for_profile(name))
            MatchState.new(rules_for_profile(name), deal=deal)
        except GinspecError:
            continue  # not a two-player game (the table, three players, partnerships)
        adapter = ReferenceAdapter()
        run = LiveRun(adapter, adapter.hello(), ruleset(name), hands=hands)
        play_live(run, seed=seed)
        s = run.stats
        rows.append(f"| {name} | {s.hands} | {s.showdowns} ({100 * s.showdowns / s.hands:.0f} %)"
                    f" | {s.matches} | {20 * s.matches / s.hands:.1f} |")
        print(rows[-1], flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    rows = figure_rows() if args == ["--figures"] else mutant_rows(args[0] if args else "pagat")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

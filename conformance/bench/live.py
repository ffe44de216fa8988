"""``ginspec bench live``: what a live run plays, per two-player profile, and what it costs.

For each profile the live machine (:mod:`ginspec.conformance.stateful`) plays ``--hands`` hands
against an adapter (the reference by default) from one seed and counts the hands that reached a
showdown (anything but a void hand, SCORE.VOID), the whole matches played to their target
(MATCH.TARGET) and the seconds: the whole run, the adapter's share (every call into it) and
ginspec's (the reference beside it, the comparisons and the machine itself). The figures of
docs/conformance/live.md and the time shares of docs/performance.md come from this command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ginspec.conformance.adapters.base import Adapter
from ginspec.conformance.stateful import LiveRun, play_live
from ginspec.reference.engines import ENGINES, engine_for
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.profiles import profiles, ruleset

SHOWDOWN_SHARE = 0.4
MATCHES_PER_20 = 1.0
"""The bounds a live run meets under every two-player profile (at least 40 % of hands reach a
showdown, at least one whole match per 20 hands reaches its target)."""


def two_player_profiles() -> list[str]:
    """The profiles the two-player engine plays (``game_system = "single"``), in file order."""
    return [p for p in profiles() if engine_for(rules_for_profile(p)) is ENGINES["single"]]


@dataclass(frozen=True)
class LiveFigures:
    """One live run's figures."""

    profile: str
    hands: int
    showdowns: int
    matches: int
    steps: int
    seconds: float
    adapter_seconds: float
    new: tuple[str, ...]
    """The new divergences found, each ``ID (clause): message`` (none against the
    reference)."""
    whole_matches: bool
    """The adapter plays whole matches (capability ``match``): the match bound applies."""

    @property
    def showdown_share(self) -> float:
        return self.showdowns / self.hands if self.hands else 0.0

    @property
    def per_20(self) -> float:
        return 20 * self.matches / self.hands if self.hands else 0.0

    @property
    def ginspec_seconds(self) -> float:
        return self.seconds - self.adapter_seconds

    @property
    def ratio(self) -> float:
        """ginspec's seconds per second of the adapter's."""
        return self.ginspec_seconds / self.adapter_seconds if self.adapter_seconds else 0.0

    @property
    def meets(self) -> bool:
        return self.showdown_share >= SHOWDOWN_SHARE and (
            self.per_20 >= MATCHES_PER_20 or not self.whole_matches)

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "hands": self.hands, "showdowns": self.showdowns,
                "matches": self.matches, "steps": self.steps, "seconds": round(self.seconds, 2),
                "adapter_seconds": round(self.adapter_seconds, 2),
                "ginspec_seconds": round(self.ginspec_seconds, 2),
                "ratio": round(self.ratio, 2), "new_divergences": list(self.new),
                "meets_bounds": self.meets}


def measure(adapter: Adapter, profile: str, *, hands: int, seed: int,
            expect_fail: Mapping[str, str] | None = None) -> LiveFigures:
    """Play ``hands`` hands of ``profile`` live against ``adapter`` from ``seed``."""
    hello = adapter.hello()
    run = LiveRun(adapter, hello, ruleset(profile), hands=hands,
                  expect_fail=dict(expect_fail or {}))
    new = play_live(run, seed=seed)
    s = run.stats
    return LiveFigures(profile, s.hands, s.showdowns, s.matches, s.steps, s.seconds_total,
                       s.seconds_adapter,
                       tuple(f"{d.ident} ({d.clause}): {d.message}" for d, _ in new),
                       "match" in hello.capabilities)


def table_rows(figures: Sequence[LiveFigures]) -> list[tuple[str, ...]]:
    """One row per run: profile, hands, showdowns (%), matches, per 20 hands, seconds
    (adapter / ginspec, their ratio), new divergences, whether the bounds hold."""
    return [(f.profile, str(f.hands), f"{f.showdowns} ({100 * f.showdown_share:.0f} %)",
             str(f.matches), f"{f.per_20:.1f}" if f.whole_matches else "-",
             f"{f.seconds:.1f}", f"{f.adapter_seconds:.1f}", f"{f.ginspec_seconds:.1f}",
             f"{f.ratio:.2f}", str(len(f.new)), "yes" if f.meets else "NO")
            for f in figures]


HEADERS = ("profile", "hands", "showdowns", "matches", "per 20 hands", "seconds",
           "adapter s", "ginspec s", "ginspec/adapter", "new divergences", "bounds met")

"""``python -m ginspec.conformance.benchmark``: how long the committed suite takes, and how much of
a step is the runner's own overhead.

Three runs over the same cases, side by side:

* ``reference`` — the reference engine in-process;
* ``trivial`` — an adapter that does nothing (accepts every action, answers every observation
  with an empty object): what remains is the runner itself (selection, comparisons, bookkeeping);
* ``reference over cmd:`` — ``ginspec serve`` in a subprocess (protocol + JSON + pipes).

Loading and schema-checking the case files is timed separately.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ginspec.conformance.adapters.base import Adapter, Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cases.model import CAPABILITIES
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner
from ginspec.spec.parameters import parameters
from ginspec.spec.profiles import profiles

ENGINE_SIDE = ("deal.engine", "melding.automatic", "layoff.automatic")
"""Capabilities the trivial adapter leaves out: with them it would deal and settle showdowns
itself, and the runner would skip every fixed deal (PROTOCOL.md) instead of timing it."""


class TrivialAdapter(Adapter):
    """Answers instantly and wrongly: the baseline for the runner's own cost."""

    def hello(self) -> Hello:
        return Hello(name="trivial", version="0", profiles=tuple(profiles()),
                     capabilities=tuple(c for c in CAPABILITIES if c not in ENGINE_SIDE),
                     overrides=tuple(parameters()))

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        return {}

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        return None

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        return None

    def legal_actions(self) -> list[str]:
        return []

    def apply(self, player: int | str, action: str) -> Verdict:
        return Verdict.ok()

    def observe(self) -> JSONObject:
        return {}

    def result(self) -> JSONObject | None:
        return {}


def _steps(cases: list[Case]) -> int:
    """Requests a full run makes beyond one per case: steps and checkpoints."""
    return sum(len(c.steps) + len(c.checkpoints) for c in cases)


def _time(adapter: Adapter, cases: list[Case]) -> tuple[float, int]:
    hello = adapter.hello()
    runner = Runner(adapter, hello)
    start = time.perf_counter()
    summary = runner.run(cases)
    return time.perf_counter() - start, summary.count("pass")


def main() -> int:
    start = time.perf_counter()
    cases = load_cases([SUITE_DIR])
    load = time.perf_counter() - start
    games = [c for c in cases if c.kind != "query"]
    n_steps = _steps(games)
    print(f"suite: {len(cases)} cases ({len(games)} hands/matches, {n_steps} steps+checkpoints);"
          f" load and schema check {load:.2f} s")
    ref_s, ref_pass = _time(ReferenceAdapter(), cases)
    print(f"reference in-process: {ref_s:.2f} s for the full suite ({ref_pass} passed)")
    # Per-step cost on the game cases: the trivial adapter is wrong, so the runner stops at the
    # first mismatch; time it on the prefix each case plays instead by counting requests made.
    triv = TrivialAdapter()
    counted = _CountingAdapter(triv)
    triv_s, _ = _time(counted, games)
    ref_count = _CountingAdapter(ReferenceAdapter())
    ref_games_s, _ = _time(ref_count, games)
    print(f"trivial adapter: {triv_s:.3f} s for {counted.calls} calls = "
          f"{1e6 * triv_s / max(counted.calls, 1):.1f} us per call, "
          f"{1e6 * triv_s / max(len(games), 1):.1f} us per game case (runner overhead)")
    print(f"reference on the game cases: {ref_games_s:.3f} s for {ref_count.calls} calls = "
          f"{1e6 * ref_games_s / max(ref_count.calls, 1):.1f} us per call")
    cmd = CommandAdapter([sys.executable, "-m", "ginspec.conformance.cli", "serve"], timeout=30)
    try:
        cmd_s, cmd_pass = _time(cmd, cases)
    finally:
        cmd.close()
    print(f"reference over cmd: (ginspec serve): {cmd_s:.2f} s for the full suite "
          f"({cmd_pass} passed)")
    return 0


class _CountingAdapter(Adapter):
    """Counts the calls made to another adapter."""

    def __init__(self, inner: Adapter):
        self.inner = inner
        self.calls = 0

    def hello(self) -> Hello:
        return self.inner.hello()

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        self.calls += 1
        return self.inner.query(what, args, profile, overrides)

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        self.calls += 1
        self.inner.new_hand(profile, overrides, deal)

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        self.calls += 1
        self.inner.new_match(profile, overrides, deals)

    def legal_actions(self) -> list[str]:
        self.calls += 1
        return self.inner.legal_actions()

    def apply(self, player: int | str, action: str) -> Verdict:
        self.calls += 1
        return self.inner.apply(player, action)

    def observe(self) -> JSONObject:
        self.calls += 1
        return self.inner.observe()

    def result(self) -> JSONObject | None:
        self.calls += 1
        return self.inner.result()


if __name__ == "__main__":
    sys.exit(main())

"""Running generated mutants through the suite (``ginspec bench mutants``).

Each mutant runs in a forked child process: the child switches the mutant on for the duration
of every adapter call only (the judge — the runner and the comparison, which may ask the
reference whether an unexpected answer is also right — always sees the unmutated reference),
plays the cases one by one and stops at the first case that does not pass (a *kill*). The parent
waits at most ``timeout`` seconds; a child still running then is killed and the mutant counted
as killed by a hang (an engine that hangs fails the suite: the command adapter's per-case timeout
catches it). Cases that killed earlier mutants are tried first, which makes most kills take a
few cases; the verdict (killed or not) does not depend on the order.

The adapters are the reference restricted to one profile (``ProfileReference``: no other
profile, no overrides — an engine that plays exactly one ruleset) or the whole reference
(profile ``all``).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ginspec.conformance.adapters.base import Adapter, Hello
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.reference_game import profile_names
from ginspec.conformance.cases import Case
from ginspec.conformance.mutation.targets import MutantSpec, Switch, clear_caches
from ginspec.conformance.mutation.witness import (
    Witness,
    ask,
    executed_lines,
    find_witness,
    hand_difference,
)
from ginspec.conformance.runner import Runner, skip_reason
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.errors import GinspecError

ALL: Final = "all"
"""The profile name of the adapter that declares every profile and override."""

ADAPTER_METHODS: Final = ("query", "new_hand", "new_match", "new_table_hand", "legal_actions",
                          "apply", "observe", "result")


class MutationError(GinspecError):
    """The mutation run cannot start (unknown profile, bad sample size)."""


class ProfileReference(ReferenceAdapter):
    """The reference declaring ONE profile and no overrides."""

    def __init__(self, profile: str):
        super().__init__()
        self.profile = profile

    def hello(self) -> Hello:
        h = super().hello()
        return Hello(name=f"reference-{self.profile}", version=h.version, language=h.language,
                     profiles=(self.profile,), capabilities=h.capabilities, overrides=())


def adapter_for(profile: str) -> ReferenceAdapter:
    """The adapter of a mutation run: ``all`` or one profile."""
    if profile == ALL:
        return ReferenceAdapter()

    if profile not in profile_names():
        raise MutationError(f"--profile: unknown profile {profile!r} (one of "
                            f"{', '.join(profile_names())}, or {ALL})")
    return ProfileReference(profile)


@dataclass(frozen=True)
class MutantResult:
    """What became of one mutant: ``killed`` (by ``case``, with the case's status ``how`` —
    fail, error or timeout), ``survived`` (every case passed) or ``invalid`` (did not compile or
    could not be switched on)."""

    spec: MutantSpec
    status: str
    case: str | None = None
    how: str | None = None
    culprit: str | None = None
    cases_run: int = 0
    seconds: float = 0.0
    reached: bool = True
    """Whether the reference executes the mutated line at all under the run's profile(s) (in
    its cases, random hands or random questions); an unreached mutant is not run."""
    witness: Witness | None = None
    """For a survivor: the random hand or question that tells it from the reference."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {**self.spec.to_json(), "status": self.status,
                               "cases_run": self.cases_run, "reached": self.reached}
        if self.case is not None or self.how is not None:
            out.update(case=self.case, how=self.how, culprit=self.culprit)
        if self.witness is not None:
            out["witness"] = self.witness.to_json()
        return out


@dataclass
class MutationRun:
    """All mutants of one run, against one adapter."""

    profile: str
    cases: int
    results: list[MutantResult] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    """Cases the unmutated reference fails (a stale suite): not run."""
    seconds: float = 0.0


def playable(cases: Sequence[Case], hello: Hello) -> list[Case]:
    """The cases the runner would send to this adapter."""
    return [c for c in cases if skip_reason(c, hello) is None]


@dataclass(frozen=True)
class Budget:
    """How hard a survivor is searched for a witness: random hands and questions per profile."""

    hands: int = 200
    queries: int = 200
    profiles: tuple[str, ...] = ()


def _child(spec: MutantSpec, make_adapter: Callable[[], Adapter], cases: Sequence[Case],
           first: Sequence[str], out: int, budget: Budget) -> None:
    """Runs in the forked child: writes the suite's verdict as one JSON line to ``out`` and, for
    a survivor, the witness search's as a second."""
    try:
        switch = Switch(spec)
    except Exception as exc:  # the mutant does not compile (e.g. a constant made illegal)
        os.write(out, json.dumps({"status": "invalid", "how": type(exc).__name__}).encode())
        return
    adapter = make_adapter()
    for name in ADAPTER_METHODS:
        setattr(adapter, name, switch.wrap(getattr(adapter, name)))
    runner = Runner(adapter, adapter.hello())
    by_id = {c.id: c for c in cases}
    order = [by_id[i] for i in first if i in by_id]
    seen = set(first)
    order += [c for c in cases if c.id not in seen]
    for n, case in enumerate(order, 1):
        outcome = runner.run_case(case)
        if outcome.status in ("fail", "error"):
            os.write(out, json.dumps({"status": "killed", "case": case.id, "how": outcome.status,
                                      "culprit": outcome.culprit, "cases_run": n}).encode())
            return
    os.write(out, json.dumps({"status": "survived", "cases_run": len(order)}).encode() + b"\n")
    answer: dict[str, Any] = {}
    for profile in budget.profiles:
        found = find_witness(switch, profile, budget.hands, budget.queries)
        if found is not None:
            answer["witness"] = {"profile": profile, **found.to_json()}
            break
    os.write(out, json.dumps(answer).encode())


def run_one(spec: MutantSpec, make_adapter: Callable[[], Adapter], cases: Sequence[Case],
            first: Sequence[str], timeout: float, budget: Budget = Budget()) -> MutantResult:
    """One mutant in a forked child: at most ``timeout`` seconds for the cases (a mutant still
    playing them then hangs: a kill) and as long again for a survivor's witness search (cut
    short, it finds no witness)."""
    start = time.perf_counter()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        code = 0
        try:
            _child(spec, make_adapter, cases, first, write, budget)
        except BaseException:  # a fault of the harness, never a kill
            import traceback

            os.write(write, json.dumps({"status": "invalid",
                                        "how": traceback.format_exc(limit=-4)}).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    data = b""
    deadline = start + timeout
    timed_out = False
    extended = False
    while True:
        if not extended and b"\n" in data:  # the cases passed: time for the witness search
            deadline, extended = time.perf_counter() + timeout, True
        left = deadline - time.perf_counter()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read], [], [], left)
        if not ready:
            continue
        chunk = os.read(read, 65536)
        if not chunk:
            break
        data += chunk
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(read)
    seconds = time.perf_counter() - start
    verdict, _, rest = data.partition(b"\n")
    if not verdict:
        return MutantResult(spec, "killed", how="timeout" if timed_out else "crash",
                            seconds=seconds)
    found = json.loads(rest).get("witness") if rest and not timed_out else None
    witness = Witness(f"{found['where']} ({found['profile']})", int(found["seed"]),
                      str(found["detail"])) if found else None
    told = json.loads(verdict)
    return MutantResult(spec, told["status"], case=told.get("case"), how=told.get("how"),
                        culprit=told.get("culprit"), cases_run=int(told.get("cases_run", 0)),
                        seconds=seconds, witness=witness)


def sample(specs: Sequence[MutantSpec], size: int | None, seed: int) -> list[MutantSpec]:
    """All mutants, or ``size`` of them drawn with ``seed`` (kept in their fixed order)."""
    if size is None or size >= len(specs):
        return list(specs)
    if size < 1:
        raise MutationError(f"--sample: must be at least 1, got {size}")
    chosen = set(random.Random(seed).sample(range(len(specs)), size))
    return [s for i, s in enumerate(specs) if i in chosen]


def two_player_profiles() -> tuple[str, ...]:
    """The profiles the two-player engine plays (the mutated modules are its rules)."""

    return tuple(p for p in profile_names() if rules_for_profile(p).game_system in
                 ("single", "hollywood"))


def baseline(profile: str, cases: Sequence[Case], budget: Budget
             ) -> tuple[float, list[str], set[tuple[str, int]], set[tuple[str, int]]]:
    """The unmutated reference over ``cases`` (timed) and, traced, over the cases again, and over
    the witness search's random hands and questions: the seconds, the cases the reference
    itself fails (left out of the run: they cannot kill), the lines the cases execute and the
    lines anything executes."""
    adapter = adapter_for(profile)
    runner = Runner(adapter, adapter.hello())
    start = time.perf_counter()
    failed = [c.id for c in cases if runner.run_case(c).status != "pass"]
    seconds = time.perf_counter() - start
    if len(failed) > len(cases) // 10:
        raise MutationError(f"the unmutated reference fails {len(failed)} of {len(cases)} "
                            f"cases (first {failed[0]}): no mutation run on a failing baseline")

    def suite() -> None:
        clear_caches()  # so the memoised tables are built again, under the tracer
        for case in cases:
            runner.run_case(case)

    def random() -> None:
        clear_caches()
        for name in budget.profiles:
            for k in range(budget.hands):
                hand_difference(None, name, k)
            for k in range(budget.queries):
                ask(name, k)

    return seconds, failed, executed_lines(suite), executed_lines(random)


def witness_profiles(profile: str) -> tuple[str, ...]:
    return two_player_profiles() if profile == ALL else (profile,)


def run_mutants(specs: Sequence[MutantSpec], profile: str, suite: Sequence[Case], *,
                timeout: float | None = None, budget: Budget = Budget(),
                progress: Callable[[MutantResult], None] | None = None) -> MutationRun:
    """Every mutant of ``specs`` against the adapter of ``profile``. ``timeout`` per mutant
    defaults to five times the unmutated run plus the witness search (at least 20 s)."""
    adapter = adapter_for(profile)
    cases = playable(suite, adapter.hello())
    run = MutationRun(profile, len(cases))
    start = time.perf_counter()
    names = witness_profiles(profile)
    budget = Budget(max(10, budget.hands // len(names)), max(10, budget.queries // len(names)),
                    names)
    seconds, failed, by_suite, by_random = baseline(profile, cases, budget)
    run.excluded = failed
    cases = [c for c in cases if c.id not in failed]
    run.cases = len(cases)
    limit = timeout if timeout is not None else max(20.0, 5 * seconds + 10)
    killers: list[str] = []
    for spec in specs:
        where = (spec.target.filename, spec.site.line)
        if where not in by_suite and where not in by_random:
            # Never executed: the mutant plays exactly as the reference (nothing to run).
            result = MutantResult(spec, "survived", reached=False)
        elif where not in by_suite:
            # The cases never execute it: they pass as on the reference; search a witness.
            result = MutantResult(**{**run_one(spec, lambda: adapter_for(profile), [], [],
                                               limit, budget).__dict__, "cases_run": 0})
        else:
            result = run_one(spec, lambda: adapter_for(profile), cases, killers, limit, budget)
        if result.case is not None:
            if result.case in killers:
                killers.remove(result.case)
            killers.insert(0, result.case)
        run.results.append(result)
        if progress:
            progress(result)
    run.seconds = time.perf_counter() - start
    return run

"""A pytest plugin: ``pytest --ginspec-adapter=python:mypkg.adapter:MyEngine`` runs the
conformance suite as one pytest item per case, node ID ``ginspec::<case ID>``.

The cases are collected like any test (a collector beside the session's own), so ``--co`` lists
them, ``-k`` and ``--lf`` select them, and ``-n`` (``pytest-xdist``) spreads them over workers, each
opening its own adapter. Options: ``--ginspec-adapter SPEC`` (as ``ginspec conform --adapter``),
``--ginspec-suite PATH`` (repeatable; a case file or folder, a ruling ``.toml``, or a named suite:
committed, regressions; default the committed suite), ``--ginspec-profile P`` (repeatable),
``--ginspec-cases GLOB``, ``--ginspec-expect-fail FILE`` (or a shipped list's name: openspiel,
rlcard), ``--ginspec-timeout S``. Cases the adapter did not declare, or that it declines (protocol
2), are skipped with the reason, never passed; ``--ginspec-expect-fail`` entries are strict
``xfail`` with their reasons, so one that passes fails. A failure prints the whole report of the
case (cards, expected beside actual, the clause, the ``ginspec conform`` command rerunning it).
The plugin is registered through the ``pytest11`` entry point and does nothing unless
``--ginspec-adapter`` is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Adapter, Hello
from ginspec.conformance.cases import Case


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ginspec", "ginspec conformance suite")
    group.addoption("--ginspec-adapter", metavar="SPEC",
                    help="run the ginspec conformance suite against this adapter")
    group.addoption("--ginspec-suite", action="append", default=[], metavar="PATH",
                    help="case folder or file, ruling .toml, or committed|regressions "
                    "(default: the committed suite)")
    group.addoption("--ginspec-profile", action="append", default=[], metavar="P",
                    help="only cases of this profile (profile-free cases always run)")
    group.addoption("--ginspec-cases", metavar="GLOB", help="only case IDs matching GLOB")
    group.addoption("--ginspec-expect-fail", metavar="FILE",
                    help="expected-failure list, or a shipped list's name (openspiel, rlcard)")
    group.addoption("--ginspec-live", action="store_true",
                    help="also run the live machine (ginspec.conformance.stateful) as one "
                    "Hypothesis stateful test, ginspec::live, under your Hypothesis profile")
    group.addoption("--ginspec-rules", metavar="FILE",
                    help="--ginspec-live: the ruleset to play (TOML: profile and [set]); default "
                    "the one --ginspec-profile, else the adapter's declared rules")
    group.addoption("--ginspec-live-players", type=int, metavar="N",
                    help="--ginspec-live: play seed 001's table game at N seats (3 or 4)")
    group.addoption("--ginspec-live-out", default=".", metavar="DIR",
                    help="--ginspec-live: folder for the shrunk case of a divergence")
    group.addoption("--ginspec-timeout", type=float, default=10.0, metavar="S",
                    help="per-request timeout for cmd: adapters")


class _Shared:
    """The adapter and runner of this pytest process (opened lazily, closed at the end)."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.adapter: Adapter | None = None
        self.hello: Hello | None = None
        self.runner: Any = None
        self.suites: list[str] = list(config.getoption("--ginspec-suite"))

    def get(self) -> Any:
        if self.runner is None:
            from ginspec.conformance.adapters.loader import open_adapter
            from ginspec.conformance.runner import Runner

            spec = self.config.getoption("--ginspec-adapter")
            self.adapter = open_adapter(spec, timeout=self.config.getoption("--ginspec-timeout"))
            self.hello = self.adapter.hello()
            self.runner = Runner(self.adapter, self.hello)  # expected failures: xfail marks
        return self.runner

    def close(self) -> None:
        if self.adapter is not None:
            self.adapter.close()


class CaseFailure(Exception):
    """A conformance case failed (the message names the clause and the divergence)."""


class _ExplainedItem(pytest.Item):
    """An item whose :class:`CaseFailure` is reported as its explanation alone (no traceback)."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))


class CaseItem(_ExplainedItem):
    """One conformance case; its node ID is ``ginspec::<case ID>``."""

    def __init__(self, *, case: Case, shared: _Shared, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.shared = shared
        for clause in case.clauses:
            self.user_properties.append(("clause", clause))

    def runtest(self) -> None:
        outcome = self.shared.get().run_case(self.case)
        if outcome.status == "skip":
            pytest.skip(f"not declared by the adapter: {outcome.message}")
        if outcome.status == "declined":
            pytest.skip(f"declined by the adapter: {outcome.message}")
        if outcome.status in ("fail", "error"):
            from ginspec.conformance.reports.explain import Rerun, explain, plain

            spec = self.config.getoption("--ginspec-adapter")
            raise CaseFailure(plain(explain(outcome, Rerun(spec, tuple(self.shared.suites)))))

    def reportinfo(self) -> tuple[str, int, str]:
        return self.case.data.get("source", {}).get("spec", self.case.id), 0, self.case.id


class LiveItem(_ExplainedItem):
    """The live machine as an ordinary Hypothesis stateful test (node ``ginspec::live``): the
    user's Hypothesis profile and example database apply; a shrunk divergence is written as a
    case file to ``--ginspec-live-out`` and the item fails naming its clause."""

    def __init__(self, *, shared: _Shared, expect: dict[str, str], **kwargs: Any):
        super().__init__(**kwargs)
        self.shared = shared
        self.expect = expect

    def _rules(self, hello: Hello) -> Any:
        from ginspec.conformance.adapters.rules_file import load_rules
        from ginspec.spec.profiles import ruleset

        path = self.config.getoption("--ginspec-rules")
        if path:
            return load_rules(path)
        chosen = self.config.getoption("--ginspec-profile")
        if len(chosen) == 1:
            return ruleset(chosen[0])
        if hello.rules is not None:
            return hello.rules
        raise pytest.UsageError("--ginspec-live: give --ginspec-rules FILE or one --ginspec-profile")

    def runtest(self) -> None:
        from ginspec.conformance.stateful import (
            Divergence,
            LiveRun,
            case_of,
            live_settings,
            machine_for,
            write_case,
        )
        from hypothesis import settings
        from hypothesis.stateful import run_state_machine_as_test

        self.shared.get()
        adapter, hello = self.shared.adapter, self.shared.hello
        assert adapter is not None and hello is not None
        run = LiveRun(adapter, hello, self._rules(hello), expect_fail=self.expect,
                      players=self.config.getoption("--ginspec-live-players"))
        try:
            run_state_machine_as_test(machine_for(run), settings=live_settings(
                run, max_examples=settings().max_examples, parent=settings()))
        except Divergence as divergence:
            trace = run.failure[1] if run.failure is not None else None
            where = ""
            if trace is not None:
                path = write_case(case_of(run, divergence, trace),
                                  Path(self.config.getoption("--ginspec-live-out")))
                where = f"\nminimal case ({len(trace.steps)} steps): {path}"
            raise CaseFailure(f"[{divergence.clause}] {divergence.ident}: "
                              f"{divergence.message}{where}") from None

    def reportinfo(self) -> tuple[str, int, str]:
        return "ginspec.conformance.stateful", 0, "live"


class SuiteCollector(pytest.Collector):
    """The cases of the run (``--ginspec-suite``, ``--ginspec-profile``, ``--ginspec-cases``), one
    :class:`CaseItem` each, in suite order; a case listed in ``--ginspec-expect-fail`` carries a
    strict ``xfail`` mark with its reason (passing then fails the item)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        from ginspec.conformance.runner import read_expect_fail, select
        from ginspec.conformance.selection import (
            check_expect_fail_ids,
            expect_fail_path,
            load_run_cases,
        )

        config = self.config
        shared = config.stash[_SHARED]
        cases = load_run_cases(shared.suites or None)
        listed = config.getoption("--ginspec-expect-fail")
        expect = read_expect_fail(expect_fail_path(listed)) if listed else {}
        check_expect_fail_ids(expect, cases, f"--ginspec-expect-fail {listed}")
        chosen = select(cases, profiles=config.getoption("--ginspec-profile"),
                        pattern=config.getoption("--ginspec-cases"))
        items: list[pytest.Item | pytest.Collector] = []
        if config.getoption("--ginspec-live"):
            items.append(LiveItem.from_parent(self, name="live", shared=shared, expect=expect))
        for case in chosen:
            item = CaseItem.from_parent(self, name=case.id, case=case, shared=shared)
            if case.id in expect:
                item.add_marker(pytest.mark.xfail(
                    reason=f"listed in --ginspec-expect-fail: {expect[case.id]}", strict=True))
            items.append(item)
        return items


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """The suite is one more collector of the session, so ``--co``, ``-k``, ``--lf``, ``--sw``
    and ``pytest-xdist`` (every worker collects the same IDs in the same order) see its cases as
    ordinary items."""
    report = yield
    config = collector.config
    if isinstance(collector, pytest.Session) and config.getoption("--ginspec-adapter") and \
            report.passed:
        report.result.append(SuiteCollector.from_parent(collector, name=NODE, nodeid=NODE))
    return report


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--ginspec-adapter"):
        config.stash[_SHARED] = _Shared(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    shared = config.stash.get(_SHARED, None)
    if shared is not None:
        shared.close()


NODE = "ginspec"
"""The node ID of the suite collector: cases are ``ginspec::<case ID>``."""
_SHARED = pytest.StashKey[_Shared]()

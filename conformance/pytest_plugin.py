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


class CaseItem(pytest.Item):
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

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        return self.case.data.get("source", {}).get("spec", self.case.id), 0, self.case.id


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

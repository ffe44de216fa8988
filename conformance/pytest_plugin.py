"""A pytest plugin: ``pytest --ginspec-adapter=python:mypkg.adapter:MyEngine`` runs the
conformance suite as one pytest item per case, the case ID as the test ID.

Options: ``--ginspec-adapter SPEC`` (as ``ginspec conform --adapter``), ``--ginspec-suite PATH``
(repeatable; default the committed suite), ``--ginspec-profile P`` (repeatable),
``--ginspec-cases GLOB``, ``--ginspec-expect-fail FILE``, ``--ginspec-timeout S``. Cases the
adapter did not declare, or that it declines (protocol 2), are skipped with the reason, never
passed; ``--ginspec-expect-fail``
entries are xfail, and one that passes fails the item. With ``pytest-xdist`` each worker opens its
own adapter. The plugin is registered through the ``pytest11`` entry point and does nothing unless
``--ginspec-adapter`` is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Adapter, Hello
from ginspec.conformance.cases import Case, load_cases


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ginspec", "ginspec conformance suite")
    group.addoption("--ginspec-adapter", metavar="SPEC",
                    help="run the ginspec conformance suite against this adapter")
    group.addoption("--ginspec-suite", action="append", default=[], metavar="PATH",
                    help="case folder or file (default: the committed suite)")
    group.addoption("--ginspec-profile", action="append", default=[], metavar="P",
                    help="only cases of this profile (profile-free cases always run)")
    group.addoption("--ginspec-cases", metavar="GLOB", help="only case IDs matching GLOB")
    group.addoption("--ginspec-expect-fail", metavar="FILE", help="expected-failure list")
    group.addoption("--ginspec-timeout", type=float, default=10.0, metavar="S",
                    help="per-request timeout for cmd: adapters")


class _Shared:
    """The adapter and runner of this pytest process (opened lazily, closed at the end)."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.adapter: Adapter | None = None
        self.hello: Hello | None = None
        self.runner: Any = None

    def get(self) -> Any:
        if self.runner is None:
            from ginspec.conformance.adapters.loader import open_adapter
            from ginspec.conformance.runner import Runner, read_expect_fail

            spec = self.config.getoption("--ginspec-adapter")
            self.adapter = open_adapter(spec, timeout=self.config.getoption("--ginspec-timeout"))
            self.hello = self.adapter.hello()
            xfail_path = self.config.getoption("--ginspec-expect-fail")
            expect = read_expect_fail(Path(xfail_path)) if xfail_path else {}
            self.runner = Runner(self.adapter, self.hello, expect)
        return self.runner

    def close(self) -> None:
        if self.adapter is not None:
            self.adapter.close()


class CaseFailure(Exception):
    """A conformance case failed (the message names the clause and the divergence)."""


class CaseItem(pytest.Item):
    """One conformance case."""

    def __init__(self, *, case: Case, shared: _Shared, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.shared = shared
        for clause in case.clauses:
            self.user_properties.append(("clause", clause))

    def runtest(self) -> None:
        outcome = self.shared.get().run_case(self.case)
        detail = str(outcome.mismatch) if outcome.mismatch else outcome.message
        if outcome.status == "skip":
            pytest.skip(f"not declared by the adapter: {outcome.message}")
        if outcome.status == "declined":
            pytest.skip(f"declined by the adapter: {outcome.message}")
        if outcome.status == "xfail":
            pytest.xfail(f"listed in --ginspec-expect-fail: {detail}")
        if outcome.status in ("fail", "error", "xpass"):
            where = f" at {outcome.where} {outcome.step}" if outcome.step is not None else ""
            raise CaseFailure(f"{outcome.status} [{outcome.culprit or '-'}]{where}: {detail}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.id}: {excinfo.value}\n  {self.case.description}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        return self.case.data.get("source", {}).get("spec", self.case.id), 0, self.case.id


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if not config.getoption("--ginspec-adapter"):
        return
    from ginspec.conformance.generate.suite import SUITE_DIR
    from ginspec.conformance.runner import select

    shared = _Shared(config)
    config.stash[_SHARED] = shared
    cases = load_cases([Path(p) for p in config.getoption("--ginspec-suite")] or [SUITE_DIR])
    chosen = select(cases, profiles=config.getoption("--ginspec-profile"),
                    pattern=config.getoption("--ginspec-cases"))
    for case in chosen:
        items.append(CaseItem.from_parent(session, name=case.id, case=case, shared=shared))


def pytest_unconfigure(config: pytest.Config) -> None:
    shared = config.stash.get(_SHARED, None)
    if shared is not None:
        shared.close()


_SHARED = pytest.StashKey[_Shared]()

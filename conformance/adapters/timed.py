"""A per-request timeout for in-process (``python:``) adapters.

An in-process adapter cannot be killed, so each call runs on a worker thread and the runner
waits at most ``--timeout`` seconds for it. A call that overruns is an adapter error of kind
``timeout`` on that case; the worker (which may still be running the call) is abandoned — it is
a daemon thread, so it never keeps the run alive — and :meth:`TimedAdapter.restart` builds a
fresh adapter object from the class, so an abandoned call can never touch the next case's state.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ginspec.conformance.adapters.base import Adapter, AdapterFault, Hello, JSONObject, Verdict
from ginspec.conformance.adapters.subprocess_adapter import check_timeout

T = TypeVar("T")


class TimedAdapter(Adapter):
    """Wraps the adapter ``factory()`` builds; every call has ``timeout`` seconds."""

    def __init__(self, factory: Callable[[], Adapter], *, timeout: float = 10.0):
        self.factory = factory
        self.timeout = check_timeout(timeout)
        self.inner = factory()
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]] | None
        self._jobs = None
        self._abandoned = False

    def _worker(self, jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]]
                ) -> None:
        while True:
            call, answer = jobs.get()
            try:
                answer.put((True, call()))
            except BaseException as exc:  # handed to the caller's thread, re-raised there
                answer.put((False, exc))

    def _call(self, what: str, call: Callable[[], T]) -> T:
        if self._jobs is None:
            self._jobs = queue.Queue()
            threading.Thread(target=self._worker, args=(self._jobs,), daemon=True).start()
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._jobs.put((call, answer))
        try:
            ok, value = answer.get(timeout=self.timeout)
        except queue.Empty:
            self._jobs = None  # the worker is stuck in the call: abandon it
            self._abandoned = True
            raise AdapterFault(f"no answer to {what} within {self.timeout:g} s",
                               kind="timeout") from None
        if not ok:
            raise value
        result: T = value
        return result

    def hello(self) -> Hello:
        return self._call("hello", self.inner.hello)

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        return self._call("query", lambda: self.inner.query(what, args, profile, overrides))

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        self._call("new_hand", lambda: self.inner.new_hand(profile, overrides, deal))

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        self._call("new_match", lambda: self.inner.new_match(profile, overrides, deals))

    def new_table_hand(self, profile: str, overrides: Mapping[str, Any],
                       deal: Mapping[str, Any]) -> None:
        self._call("new_table_hand", lambda: self.inner.new_table_hand(profile, overrides, deal))

    def dealt(self) -> JSONObject:
        return self._call("dealt", self.inner.dealt)

    def legal_actions(self) -> list[str]:
        return self._call("legal_actions", self.inner.legal_actions)

    def apply(self, player: int | str, action: str) -> Verdict:
        return self._call("apply", lambda: self.inner.apply(player, action))

    def observe(self) -> JSONObject:
        return self._call("observe", self.inner.observe)

    def result(self) -> JSONObject | None:
        return self._call("result", self.inner.result)

    def end_case(self) -> None:
        self._call("end_case", self.inner.end_case)

    def close(self) -> None:
        if not self._abandoned:
            self._call("close", self.inner.close)

    def restart(self) -> None:
        """After a timeout: a fresh adapter object (the old one may still be busy)."""
        if self._abandoned:
            self.inner = self.factory()
            self._abandoned = False
        else:
            self._call("restart", self.inner.restart)

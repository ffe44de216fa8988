"""A Python adapter that declares nothing a case could use: no profile, no capability."""

from __future__ import annotations

from ginspec.conformance.adapters.base import Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter


class Nothing(ReferenceAdapter):
    def hello(self) -> Hello:
        return Hello(name="nothing", version="0", language="python")

    def apply(self, player: int | str, action: str) -> Verdict:
        raise AssertionError("never called: nothing was declared")

    def observe(self) -> JSONObject:
        raise AssertionError("never called: nothing was declared")

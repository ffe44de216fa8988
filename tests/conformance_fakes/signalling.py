"""The reference, except that on its third query it sends ginspec (its own process: a python:
adapter runs in-process) a signal, as a user's Ctrl-C or a CI's cancel would."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from typing import Any

from ginspec.conformance.adapters.base import JSONObject
from ginspec.conformance.adapters.reference import ReferenceAdapter

AFTER = 2
"""Queries answered before the signal is sent."""


class _Signalling(ReferenceAdapter):
    SIGNAL = signal.SIGTERM

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        self.asked += 1
        if self.asked == AFTER + 1:
            os.kill(os.getpid(), self.SIGNAL)
        return super().query(what, args, profile, overrides)


class Sigterm(_Signalling):
    SIGNAL = signal.SIGTERM


class Sigint(_Signalling):
    SIGNAL = signal.SIGINT

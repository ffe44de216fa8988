"""Hypothesis-explored traces (filled below)."""

from __future__ import annotations

from ginspec.conformance.cases import Case


def explored_cases() -> list[Case]:
    return []

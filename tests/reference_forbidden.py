"""A test helper: the reference's showdown and game entry points made to raise, to show that
judging an answer is a comparison with the case's data only (the runner never replays the
reference while judging; the build records every right answer)."""

from __future__ import annotations

import importlib

import pytest

ENTRY_POINTS = (
    ("ginspec.reference.adjudicate", "adjudicate"),
    ("ginspec.reference.adjudicate", "adjudicate_position"),
    ("ginspec.reference.layoffs", "layoff_plans"),
    ("ginspec.reference.layoffs", "legal_declarations"),
    ("ginspec.reference.melds", "min_deadwood"),
    ("ginspec.reference.melds", "optimal_arrangements"),
    ("ginspec.reference.game.state", "HandState.apply"),
)


def _forbidden(*args: object, **kwargs: object) -> None:
    raise AssertionError("the reference was called while judging")


def forbid_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry point of :data:`ENTRY_POINTS` raises until the test ends."""
    for module, name in ENTRY_POINTS:
        owner: object = importlib.import_module(module)
        *path, attr = name.split(".")
        for part in path:
            owner = getattr(owner, part)
        monkeypatch.setattr(owner, attr, _forbidden)

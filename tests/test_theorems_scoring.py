"""Proofs about reference/scoring.py itself: for every profile (and for every value of the
scoring parameters at once) and all deadwood values — ONE-WINNER, NON-NEGATIVE,
GIN-NEVER-UNDERCUT, UNDERCUT-EXACTLY, SPADE-DOUBLING, and per profile KNOCK-LIMIT (docs/proven.md)."""

from __future__ import annotations

import pytest
from ginspec.reference.proofs.scoring_proofs import prove_hand_scoring
from ginspec.spec.profiles import profiles

NAMES = ["ONE-WINNER", "NON-NEGATIVE", "GIN-NEVER-UNDERCUT", "UNDERCUT-EXACTLY", "SPADE-DOUBLING"]


@pytest.mark.parametrize("profile", [None, *profiles()], ids=["all-parameter-values", *profiles()])
def test_hand_scoring_properties(profile: str | None) -> None:
    results = prove_hand_scoring(profile)
    assert [r.name for r in results] == NAMES + (["KNOCK-LIMIT"] if profile else [])
    for r in results:
        assert r.holds, (r.name, r.counterexample)

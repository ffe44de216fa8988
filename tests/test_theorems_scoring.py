"""Proofs about reference/scoring.py itself: for every profile (and for every value of the
scoring parameters at once) and all deadwood values — ONE-WINNER, NON-NEGATIVE,
GIN-NEVER-UNDERCUT, UNDERCUT-EXACTLY, SPADE-DOUBLING, and per profile KNOCK-LIMIT (docs/proven.md)."""

from __future__ import annotations

from types import ModuleType

import pytest
from ginspec.reference import scoring
from ginspec.reference.proofs import scoring_proofs
from ginspec.reference.proofs.scoring_proofs import prove_hand_scoring, score_spec
from ginspec.spec.formal.theorems import TheoremResult
from ginspec.spec.profiles import profiles
from planting import plant

NAMES = ["ONE-WINNER", "NON-NEGATIVE", "GIN-NEVER-UNDERCUT", "UNDERCUT-EXACTLY", "SPADE-DOUBLING"]


@pytest.mark.parametrize("profile", [None, *profiles()], ids=["all-parameter-values", *profiles()])
def test_hand_scoring_properties(profile: str | None) -> None:
    results = prove_hand_scoring(profile)
    assert [r.name for r in results] == NAMES + (["KNOCK-LIMIT"] if profile else [])
    for r in results:
        assert r.holds, (r.name, r.counterexample)


def test_hand_scoring_equals_chapter_9_written_again() -> None:
    result = score_spec()
    assert result.holds, result.counterexample


# Four scoring bugs that the property proofs above let through (each was planted by an audit).
PLANTED = [
    ("gin scores one point more", "ar.ite(outcome == 1, gin_bonus, big_gin_bonus) + dd",
     "ar.ite(outcome == 1, gin_bonus + 1, big_gin_bonus) + dd"),
    ("gin and big-gin bonuses swapped", "ar.ite(outcome == 1, gin_bonus, big_gin_bonus) + dd",
     "ar.ite(outcome == 1, big_gin_bonus, gin_bonus) + dd"),
    ("a tie pays 1 under knocker_scores_zero", "knock_points = ar.ite(lower, dd - kd, 0)",
     "knock_points = ar.ite(lower, dd - kd, ar.ite(ar.and_(equal, tie == TIE_CODES"
     "[\"knocker_scores_zero\"]), 1, 0))"),
    ("gin ignores the defender's deadwood", "ar.ite(outcome == 1, gin_bonus, big_gin_bonus) + dd",
     "ar.ite(outcome == 1, gin_bonus, big_gin_bonus)"),
]


@pytest.mark.parametrize(("bug", "old", "new"), PLANTED, ids=[p[0] for p in PLANTED])
def test_each_planted_scoring_bug_fails_score_spec(bug: str, old: str, new: str) -> None:
    broken = plant(scoring, old, new)
    assert all(r.holds for r in prove_hand_scoring_with(broken)), "the property proofs miss it"
    result = score_spec(broken.hand_score_terms)
    assert not result.holds and "chapter 9" in (result.counterexample or ""), bug


def prove_hand_scoring_with(module: ModuleType) -> list[TheoremResult]:
    """The property proofs run on a planted copy (to show they let the bug through)."""
    saved = scoring_proofs.hand_score_terms
    scoring_proofs.hand_score_terms = module.hand_score_terms
    try:
        return [r for r in scoring_proofs.prove_hand_scoring(None) if r.name != "SPADE-DOUBLING"]
    finally:
        scoring_proofs.hand_score_terms = saved

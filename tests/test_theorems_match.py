"""Match scoring is chapter 11: the reference's own match code (reference/scoring.py) run on
symbolic values against spec/formal/match_spec.py, for every parameter value (MATCH-SPEC,
MATCH-CUMULATIVE; MATCH-BOXES and MATCH-DEALER exhaustive); each planted bug makes a proof fail
(docs/proven.md)."""

from __future__ import annotations

import pytest
from ginspec.reference import scoring
from ginspec.reference.proofs.match_proofs import MATCH_THEOREMS, prove_match_scoring
from planting import plant

NAMES = ["MATCH-SPEC", "MATCH-CUMULATIVE", "MATCH-BOXES", "MATCH-DEALER"]


def test_match_scoring_equals_chapter_11_written_again() -> None:
    results = prove_match_scoring()
    assert [r.name for r in results] == NAMES
    for r in results:
        assert r.holds, (r.name, r.counterexample)


# (bug, the proof that must fail, text of reference/scoring.py, its replacement)
PLANTED = [
    ("the loser's boxes are forgotten", "MATCH-SPEC",
     "totals[loser] = tally.hand_points[loser] + box_points[loser]",
     "totals[loser] = tally.hand_points[loser]"),
    ("the loser always pays", "MATCH-SPEC",
     "payee=None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)",
     "payee=winner"),
    ("total_doubled leaves the box points single", "MATCH-SPEC",
     "        total_winner *= 2\n", "        total_winner += hands[winner] + game_bonus\n"),
    ("loser_scored_nothing counts hands won", "MATCH-SPEC",
     "shutout = tally.hand_points[loser] == 0", "shutout = tally.hands_won[loser] == 0"),
    ("the target must be passed, not reached", "MATCH-SPEC",
     ">= typed.game_target]", "> typed.game_target]"),
    ("boxes count toward the target twice", "MATCH-SPEC",
     "extra = self.boxes[player] * typed.box_bonus if",
     "extra = 2 * self.boxes[player] * typed.box_bonus if"),
    ("the flat shutout bonus is the game bonus", "MATCH-SPEC",
     "total_winner += typed.shutout_bonus", "total_winner += typed.game_bonus"),
    ("a hand won is credited to the knocker", "MATCH-CUMULATIVE",
     'won[knocker if hand.winner == "knocker" else defender] = 1', "won[knocker] = 1"),
    ("extra boxes are not doubled on a spade deal", "MATCH-BOXES",
     "extra *= 2", "extra *= 1"),
    ("next_dealer=loser gives the winner the deal", "MATCH-DEALER",
     "        return 1 - hand_winner\n", "        return hand_winner\n"),
]


@pytest.mark.parametrize(("bug", "proof", "old", "new"), PLANTED, ids=[p[0] for p in PLANTED])
def test_each_planted_match_bug_fails_its_proof(bug: str, proof: str, old: str, new: str) -> None:
    broken = plant(scoring, old, new)
    result = MATCH_THEOREMS[proof](broken)
    assert not result.holds, bug
    assert "chapter 11" in (result.counterexample or ""), result.counterexample

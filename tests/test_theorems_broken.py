"""The theorems can fail: each check is handed a deliberately broken ingredient of the optimiser
(or of the model) and must report the failure with a counterexample."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

import ginspec.reference.melds as melds
import ginspec.spec.formal.encoding as encoding
import pytest
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.proofs import scoring_proofs
from ginspec.reference.proofs.optimiser_lemmas import (
    block_exhaustive,
    discard_by_suit,
    long_runs_split,
    run_enumeration_complete,
    set_choices_complete,
)
from ginspec.reference.scoring import Arithmetic, HandScoreTerms
from ginspec.reference.suit_tables import SuitTables, run_partitions, suit_tables
from ginspec.spec.cards import parse_cards
from ginspec.spec.formal import certify
from ginspec.spec.formal.rules import STANDARD, FormalRules
from ginspec.spec.formal.theorems import encoding_exact, stretch_cover, suit_permutation

SIX_RUN = 0b111111 << 2  # ranks 3..8


def _cover_off_by_one(rules: MeldRules) -> SuitTables:
    """Tables whose cover of 3-4-5-6-7-8 forgets one card (as if long runs did not split)."""
    t = suit_tables(rules)
    cover = list(t.cover)
    cover[SIX_RUN] -= 8
    dead = list(t.dead)
    dead[SIX_RUN] += 8
    return replace(t, cover=tuple(cover), dead=tuple(dead))


def test_broken_cover_table_fails_long_runs_split_and_enumeration() -> None:
    assert not long_runs_split(_cover_off_by_one)
    result = run_enumeration_complete(_cover_off_by_one)
    assert not result.holds and "tables wrong" in (result.counterexample or "")


def test_missing_run_pattern_fails_enumeration() -> None:
    def no_ace_high(rules: MeldRules) -> SuitTables:
        return suit_tables(MeldRules(ace_value=rules.ace_value))  # forgets Q-K-A etc.

    result = run_enumeration_complete(no_ace_high)
    assert not result.holds and "run patterns differ" in (result.counterexample or "")


def test_partitions_that_skip_the_deadwood_branch_fail_enumeration() -> None:
    def only_runs_first(mask: int, tables: SuitTables) -> list[list[int]]:
        parts = run_partitions(mask, tables)
        return parts[-1:]  # keeps one partition: misses the others

    result = run_enumeration_complete(partitions=only_runs_first)
    assert not result.holds and "exist" in (result.counterexample or "")


def _no_three_of_four(rank: int, suit_masks: Sequence[int]) -> list[tuple[int, ...]]:
    present = tuple(s for s in range(4) if suit_masks[s] >> rank & 1)
    return [()] + ([present] if len(present) >= 3 else [])


def _removals_without_three_of_four() -> tuple[dict[int, tuple[int, ...]], ...]:
    return tuple({column: options[:2] for column, options in per_rank.items()}
                 for per_rank in melds._SET_REMOVALS)


def test_forgotten_three_of_four_fails_set_choices_and_a_certificate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = set_choices_complete(_no_three_of_four)
    assert not result.holds and "_set_options" in (result.counterexample or "")
    broken = _removals_without_three_of_four()
    result = set_choices_complete(removals=broken)
    assert not result.holds and "_SET_REMOVALS" in (result.counterexample or "")
    # The same bug inside the optimiser: two ranks held four times, so the 7s go through the
    # table (the 5s, taken last, through the closed form). The hand is gin:
    # 3S 4S 5S / 5C 5D 5H / 7C 7D 7H / 7S 8S 9S; the broken optimiser melds all four 7s.
    hand = parse_cards("7C 7D 7H 7S 8S 9S 5C 5D 5H 5S 4S 3S")
    assert melds.min_deadwood(hand) == 0
    monkeypatch.setattr(melds, "_SET_REMOVALS", broken)
    broken_claim = melds.min_deadwood(hand)
    assert broken_claim == 17
    cert = certify(hand, broken_claim, discard=False)
    assert cert.outcome == "claim-too-high" and cert.optimum == 0
    assert not block_exhaustive((4, 5, 6))


def test_broken_rank_dp_fails_block_exhaustive() -> None:
    def dp_forgets_sets(s: Sequence[int], rules: MeldRules) -> int:
        return sum(suit_tables(rules).dead[m] for m in s)  # runs only: as if no set existed

    result = block_exhaustive((0, 1, 2), rank_dp=dp_forgets_sets)
    assert not result.holds and "rank DP" in (result.counterexample or "")


def test_broken_closed_form_fails_block_exhaustive(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_closed_form(mask: int, three: int, quads: int, dead: Sequence[int]) -> int:
        return min(dead[m & 0x1FFF] + dead[m >> 13 & 0x1FFF] + dead[m >> 26 & 0x1FFF] + dead[m >> 39]
                   for m in melds._set_card_choices(mask, three ^ (three & -three)))

    monkeypatch.setattr(melds, "_min_deadwood_with_sets", no_closed_form)  # forgets the last rank's sets
    result = block_exhaustive((0, 1, 2))
    assert not result.holds and "min_deadwood" in (result.counterexample or "")


def test_wrong_gain_table_fails_discard_by_suit() -> None:
    def gain_is_dead(rules: MeldRules) -> SuitTables:
        t = suit_tables(rules)
        return replace(t, gain=(t.gain[0], *t.dead[1:]))  # "drop the whole suit's deadwood"

    result = discard_by_suit(gain_is_dead)
    assert not result.holds and "gain" in (result.counterexample or "")


def test_set_options_that_ignore_the_discard_fail_discard_by_suit() -> None:
    def sticky(rank: int, suit_masks: Sequence[int]) -> list[tuple[int, ...]]:
        present = tuple(s for s in range(4) if suit_masks[s] >> rank & 1)
        out: list[tuple[int, ...]] = [()]
        if len(present) >= 2:  # wrongly offers a "set" of two once a card is gone
            out.append(present)
        if len(present) == 4:
            out.extend(combinations(present, 3))
        return out

    assert not discard_by_suit(set_options=sticky)


def test_broken_windows_fail_the_model_theorems(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrapping(rules: FormalRules) -> tuple[tuple[int, int, int], ...]:
        return tuple((p, (p + 1) % 13, (p + 2) % 13) for p in range(13))  # K-A-2 under standard

    monkeypatch.setattr(encoding, "windows", wrapping)
    assert not stretch_cover(STANDARD)
    result = encoding_exact(STANDARD)
    assert not result.holds and "accepts" in (result.counterexample or "")


def test_suit_asymmetric_encoding_fails_suit_permutation(monkeypatch: pytest.MonkeyPatch) -> None:
    real_build = encoding.ArrangementEncoding._build

    def biased_build(self: encoding.ArrangementEncoding) -> None:
        real_build(self)
        for card, var in self.run_var.items():  # clubs may never be run cards
            if card < 13:
                self.constraints.append(encoding.z3.Not(var))

    monkeypatch.setattr(encoding.ArrangementEncoding, "_build", biased_build)
    result = suit_permutation(STANDARD)
    assert not result.holds and "hand" in (result.counterexample or "")


def test_broken_scoring_fails_the_scoring_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    real = scoring_proofs.hand_score_terms

    def undercut_gin(ar: Arithmetic, outcome: Any, kd: Any, dd: Any, **kw: Any) -> HandScoreTerms:
        t = real(ar, outcome, kd, dd, **kw)  # a gin against a gin hand "is an undercut"
        return replace(t, undercut=ar.or_(t.undercut, ar.and_(outcome == 1, dd == 0)))

    monkeypatch.setattr(scoring_proofs, "hand_score_terms", undercut_gin)
    failed = {r.name for r in scoring_proofs.prove_hand_scoring("pagat") if not r.holds}
    assert "GIN-NEVER-UNDERCUT" in failed

    def tie_always_undercut(ar: Arithmetic, outcome: Any, kd: Any, dd: Any, **kw: Any) -> HandScoreTerms:
        return real(ar, outcome, kd, dd, **{**kw, "tie": 0})

    monkeypatch.setattr(scoring_proofs, "hand_score_terms", tie_always_undercut)
    failed = {r.name for r in scoring_proofs.prove_hand_scoring("openspiel") if not r.holds}
    assert "UNDERCUT-EXACTLY" in failed and "ONE-WINNER" in failed


def test_broken_knock_limit_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scoring_proofs, "knock_limit_for", lambda rules, upcard: 10)  # ignores Oklahoma
    failed = {r.name for r in scoring_proofs.prove_hand_scoring("oklahoma") if not r.holds}
    assert failed == {"KNOCK-LIMIT"}


def test_wrong_truth_table_fails_encoding_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginspec.spec.formal.theorems as model_theorems
    from ginspec.spec.formal.definition import run_coverable

    real = run_coverable(STANDARD)
    forged = list(real)
    forged[0b111 << 4] = False  # "5-6-7 is not a run"
    monkeypatch.setattr(model_theorems, "run_coverable", lambda rules: tuple(forged))
    result = model_theorems.encoding_exact(STANDARD)
    assert not result.holds and "accepts" in (result.counterexample or "")


def test_wrong_closed_form_fails_last_rank_closed_form() -> None:
    from ginspec.reference.proofs.optimiser_lemmas import last_rank_closed_form
    from planting import plant

    assert last_rank_closed_form().holds
    for old, new in (("total = min(0, total, total - max(ea, eb, ec, ee))", "total = min(0, total)"),
                     ("total = min(0, total, total - max(ea, eb, ec, ee))",
                      "total = min(0, total, total - min(ea, eb, ec, ee))"),
                     ("elif total > 0:", "elif total > 1:")):
        broken = plant(melds, old, new)  # the closed-form line of the code itself, changed
        assert not last_rank_closed_form(broken._min_deadwood_with_sets).holds, new


def test_cross_suit_coupling_fails_suit_independence(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginspec.spec.formal.theorems import suit_independence

    real_build = encoding.ArrangementEncoding._build

    def coupled_build(self: encoding.ArrangementEncoding) -> None:
        real_build(self)
        for card, var in self.run_var.items():  # a club run card forbids the diamond of its rank
            if card < 13 and card + 13 in self.run_var:
                self.constraints.append(encoding.z3.Not(encoding.z3.And(var, self.run_var[card + 13])))

    monkeypatch.setattr(encoding.ArrangementEncoding, "_build", coupled_build)
    result = suit_independence(STANDARD)
    assert not result.holds and "suit" in (result.counterexample or "")


def test_negative_points_and_half_doubling_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = scoring_proofs.hand_score_terms

    def pays_the_difference_anyway(ar: Arithmetic, outcome: Any, kd: Any, dd: Any, **kw: Any) -> HandScoreTerms:
        t = real(ar, outcome, kd, dd, **kw)  # the knocker "scores" dd - kd even when it is negative
        return replace(t, knocker=ar.ite(outcome == 0, dd - kd, t.knocker))

    monkeypatch.setattr(scoring_proofs, "hand_score_terms", pays_the_difference_anyway)
    failed = {r.name for r in scoring_proofs.prove_hand_scoring("hoyle") if not r.holds}
    assert "NON-NEGATIVE" in failed

    def doubles_only_the_knocker(ar: Arithmetic, outcome: Any, kd: Any, dd: Any, **kw: Any) -> HandScoreTerms:
        doubled = kw["doubled"]
        t = real(ar, outcome, kd, dd, **{**kw, "doubled": False})
        return replace(t, knocker=t.knocker * ar.ite(doubled, 2, 1))

    monkeypatch.setattr(scoring_proofs, "hand_score_terms", doubles_only_the_knocker)
    failed = {r.name for r in scoring_proofs.prove_hand_scoring("oklahoma") if not r.holds}
    assert "SPADE-DOUBLING" in failed

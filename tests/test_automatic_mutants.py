"""Engines that settle the showdown themselves but not with best play (a defect class for
automatic melding and layoffs): the committed suite's automatic-showdown expectations catch each
one, on an automatic case, and blame a clause of the showdown (SHOWDOWN.*, LAYOFF.*) or of the
score it changes (SCORE.*), never a clause of the play before the knock."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutants import AUTOMATIC_MUTANTS, Mutant
from ginspec.conformance.runner import CaseResult, Runner

SHOWDOWN_FAMILIES = ("SHOWDOWN.", "LAYOFF.", "SCORE.")


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


@cache
def outcomes(mutant: type[Mutant]) -> tuple[CaseResult, ...]:
    adapter = mutant()
    return tuple(Runner(adapter, adapter.hello()).run(list(suite())).outcomes)


def failures(mutant: type[Mutant]) -> tuple[CaseResult, ...]:
    return tuple(o for o in outcomes(mutant) if o.status == "fail")


@pytest.mark.parametrize("mutant", list(AUTOMATIC_MUTANTS), ids=lambda m: m.__name__)
def test_the_suite_catches_the_automatic_showdown_defect(mutant: type[Mutant]) -> None:
    fails = failures(mutant)
    assert fails, f"{mutant.__name__} survived the committed suite"
    assert all(o.automatic for o in fails), [o.case.id for o in fails if not o.automatic]
    culprits = Counter(str(o.culprit) for o in fails)
    assert all(c.startswith(SHOWDOWN_FAMILIES) for c in culprits), culprits


def test_the_automatic_mutants_play_legal_showdowns() -> None:
    """Each mutant's defect is in its choices, not in illegal steps: no case errors, and each
    fails on fewer cases than it passes among the automatic ones (it is wrong only where best
    play differs)."""
    for mutant in AUTOMATIC_MUTANTS:
        auto = Counter(o.status for o in outcomes(mutant) if o.automatic)
        assert auto["error"] == 0 and auto["pass"] > auto["fail"] > 0, (mutant.__name__, auto)


@pytest.mark.parametrize("mutant", ["GreedyLayoffs", "LayoffsWithoutChaining"])
def test_a_layoff_defect_is_blamed_on_the_layoff_not_on_the_score_it_changes(mutant: str) -> None:
    """A result is judged in the order its fields follow from one another (the deadwood after
    the layoffs before the outcome and points it decides, compare.RESULT_ORDER), so every
    failure of an engine whose only defect is its layoffs names a LAYOFF.* clause, never
    SCORE.UNDERCUT or SCORE.TIE (before that order, 9 of GreedyLayoffs' 23 failures did)."""
    kind = next(m for m in AUTOMATIC_MUTANTS if m.__name__ == mutant)
    culprits = Counter(str(o.culprit) for o in failures(kind))
    assert culprits and all(c.startswith("LAYOFF.") for c in culprits), culprits

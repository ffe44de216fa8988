"""The mutation check: every deliberately broken engine is caught, and a failing case names the
clause it breaks (as the culprit or among the suspects)."""

from __future__ import annotations

import sys
from collections import Counter

import pytest
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutants import MUTANTS, GinBonusWrong, Mutant
from ginspec.conformance.runner import Runner
from ginspec.spec.clauses import registry


@pytest.fixture(scope="module")
def suite() -> list[Case]:
    return load_cases([SUITE_DIR])


def test_at_least_fifteen_mutants_each_breaking_a_real_clause() -> None:
    assert len(MUTANTS) >= 15
    assert all(clause in registry() for clause in MUTANTS.values())


@pytest.mark.parametrize("mutant", list(MUTANTS), ids=lambda m: m.__name__)
def test_suite_kills_mutant_and_names_the_clause(mutant: type[Mutant], suite: list[Case]) -> None:
    adapter = mutant()
    summary = Runner(adapter, adapter.hello()).run(suite)
    fails = [o for o in summary.outcomes if o.status == "fail"]
    assert fails, f"{mutant.__name__} survived the suite"
    clause = MUTANTS[mutant]
    naming = [o for o in fails if o.culprit == clause or clause in o.suspects]
    culprits = Counter(o.culprit for o in fails).most_common(5)
    assert naming, f"{mutant.__name__} breaks {clause}, but the failures blame {culprits}"
    print(f"{mutant.__name__}: killed by {len(fails)} cases; {clause} named by "
          f"{naming[0].case.id}")


def test_mutant_is_caught_through_the_protocol(suite: list[Case]) -> None:
    argv = [sys.executable, "-m", "ginspec.conformance.cli", "serve", "--adapter",
            f"python:ginspec.conformance.mutants:{GinBonusWrong.__name__}"]
    adapter = CommandAdapter(argv, timeout=20)
    try:
        hands = [c for c in suite if c.kind == "hand" and c.origin == "full-hand"]
        summary = Runner(adapter, adapter.hello()).run(hands)
    finally:
        adapter.close()
    assert summary.hello.name == "mutant-GinBonusWrong"
    assert any(o.culprit == "SCORE.GIN" for o in summary.outcomes if o.status == "fail")

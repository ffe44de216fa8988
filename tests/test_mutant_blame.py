"""Blame precision for the hand-written mutants: the runner's verdicts point at the clause each
mutant breaks, and at no unrelated one.

Two properties, per mutant of ``MUTANTS``:

* the culprit of the first failing case (in suite order) is the mutant's clause (``breaks``);
* every failing case (leaving out any case the unmutated reference also fails) blames a clause
  *related* to it, so a per-clause table of the run's culprits names no unrelated clause.

"Related" comes from the spec's own data, never from a hand list: the blamed clause is the broken
one, or the blamed clause cites it (its text, annotations or ``see_also`` name it: the spec
defines the blamed rule in terms of the broken one, e.g. DEADWOOD.MINIMUM counts CARD.VALUE,
SHOWDOWN.BEST-PLAY scores by SCORE.UNDERCUT), or the two share a parameter (KNOCK.OPTIONAL and
KNOCK.GIN-COMPULSORY are both ``gin_compulsory``). A failure there is downstream of the broken
rule: the case checks a field the spec computes from it.

A mutant for which the runner blames otherwise is listed in :data:`IMPRECISE_FIRST` or
:data:`IMPRECISE` with the reason; its test is a strict xfail, so it fails once the blame is
fixed and the entry must go.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutants import MUTANTS, Mutant
from ginspec.conformance.runner import CaseResult, Runner
from ginspec.spec.clauses import registry

IMPRECISE_FIRST: dict[str, str] = {}
"""Mutants whose first failing case the runner blames on another clause, and why."""

IMPRECISE: dict[str, str] = {}
"""Mutants with a failing case the runner blames on an unrelated clause, and why."""


@cache
def cites(clause: str) -> frozenset[str]:
    """The clauses ``clause`` names in its text, annotations and ``see_also``."""
    found = registry()[clause]
    words = re.findall(r"[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+", found.text + " ".join(found.annotations))
    return frozenset(w for w in (*words, *found.extra.get("see_also", ())) if w in registry())


def related(broken: str, blamed: str | None) -> bool:
    """Whether the spec ties ``blamed`` to ``broken`` (see the module docstring)."""
    if blamed == broken:
        return True
    if blamed is None or blamed not in registry():
        return False
    return broken in cites(blamed) or bool(set(registry()[blamed].params)
                                           & set(registry()[broken].params))


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_cases([SUITE_DIR]))


def failing(adapter: ReferenceAdapter) -> tuple[CaseResult, ...]:
    summary = Runner(adapter, adapter.hello()).run(list(suite()))
    return tuple(o for o in summary.outcomes if o.status == "fail")


@cache
def reference_failures() -> frozenset[str]:
    """Cases the unmutated reference fails: a suite defect, not a kill (reported, left out)."""
    return frozenset(o.case.id for o in failing(ReferenceAdapter()))


@cache
def failures(mutant: type[Mutant]) -> tuple[CaseResult, ...]:
    return tuple(o for o in failing(mutant()) if o.case.id not in reference_failures())


def marked(listed: dict[str, str]) -> list[object]:
    return [pytest.param(m, id=m.__name__, marks=pytest.mark.xfail(
        reason=listed[m.__name__], strict=True)) if m.__name__ in listed
        else pytest.param(m, id=m.__name__) for m in MUTANTS]


def test_lists_name_real_mutants() -> None:
    names = {m.__name__ for m in MUTANTS}
    assert set(IMPRECISE_FIRST) <= names and set(IMPRECISE) <= names


@pytest.mark.parametrize("mutant", marked(IMPRECISE_FIRST))
def test_first_failure_blames_the_mutants_clause(mutant: type[Mutant]) -> None:
    fails = failures(mutant)
    assert fails, f"{mutant.__name__} survived the suite"
    first = fails[0]
    assert first.culprit == MUTANTS[mutant], (
        f"{mutant.__name__} breaks {MUTANTS[mutant]}; {first.case.id} blames {first.culprit}")


@pytest.mark.parametrize("mutant", marked(IMPRECISE))
def test_no_failure_blames_an_unrelated_clause(mutant: type[Mutant]) -> None:
    fails = failures(mutant)
    assert fails, f"{mutant.__name__} survived the suite"
    others = Counter(o.culprit for o in fails if not related(MUTANTS[mutant], o.culprit))
    assert not others, (f"{mutant.__name__} breaks {MUTANTS[mutant]}; failures also blame "
                        f"unrelated {dict(others)}")


def test_relation_is_the_specs() -> None:
    """The relation follows the spec's citations and parameters, and is not everything."""
    assert related("CARD.VALUE", "DEADWOOD.MINIMUM")  # deadwood counts card values
    assert related("KNOCK.OPTIONAL", "KNOCK.GIN-COMPULSORY")  # both gin_compulsory
    assert not related("DEAL.HANDS", "KNOCK.ELIGIBLE")
    assert not related("SCORE.GIN", None)

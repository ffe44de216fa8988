"""The systematic mutant generator (ginspec.conformance.mutation): its operators, switching a
mutant on and off, and a tiny deterministic run. The full table is a benchmark
(``ginspec bench mutants``), not a test."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest
from ginspec.conformance.cases import load_cases
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.mutation.operators import OPERATORS, mutate, sites
from ginspec.conformance.mutation.planted import planted, planted_mutants
from ginspec.conformance.mutation.run import (
    Budget,
    adapter_for,
    playable,
    run_one,
    sample,
)
from ginspec.conformance.mutation.targets import MODULES, MutantSpec, Switch, mutants
from ginspec.reference.scoring import score_hand
from ginspec.spec.profiles import ruleset

SOURCE = '''
def f(a, b):
    """Docstring 7."""
    x: int = 3
    if a < b and not a:
        return max(a, b) + 1
    assert a == 2
    return g(a, b) or True
'''


def _function() -> ast.FunctionDef:
    node = ast.parse(SOURCE).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_every_operator_family_applies_and_docstrings_annotations_asserts_are_left_alone() -> None:
    found = sites(_function())
    assert Counter(s.family for s in found) == Counter(
        {"condition": 5, "boolean": 4, "compare": 1, "arith": 1, "constant": 2, "minmax": 1,
         "swap": 2})
    assert {s.family for s in found} == set(OPERATORS)
    texts = {s.description for s in found}
    assert "< -> <=" in texts and "3 -> 4" in texts and "1 -> 2" in texts
    assert "== -> !=" not in texts  # inside assert
    assert not any(s.line == 3 for s in found)  # the docstring


@pytest.mark.parametrize(("change", "line"), [
    ("< -> <=", "if a <= b and (not a):"),
    ("operand 2 of and dropped", "if a < b:"),
    ("and -> or", "if a < b or not a:"),
    ("not dropped", "if a < b and a:"),
    ("max -> min", "return min(a, b) + 1"),
    ("+ -> -", "return max(a, b) - 1"),
    ("True -> False", "return g(a, b) or False"),
])
def test_mutate_changes_exactly_one_site(change: str, line: str) -> None:
    site = next(s for s in sites(_function()) if s.description == change)
    text = ast.unparse(mutate(_function(), site))
    assert line in text
    assert ast.unparse(_function()).count("\n") == text.count("\n")


def test_all_generated_mutants_compile_with_their_functions_free_variables() -> None:
    specs = _mutants()
    assert len(specs) > 1000
    assert {s.target.module for s in specs} == set(MODULES)
    assert len({s.id for s in specs}) == len(specs)
    for spec in sample(specs, 60, 7):
        Switch(spec)


_ALL: list[MutantSpec] = []


def _mutants() -> list[MutantSpec]:
    if not _ALL:
        _ALL.extend(mutants())
    return _ALL


def _spec(function: str, change: str, line_text: str) -> MutantSpec:
    for spec in _mutants():
        if spec.target.qualname == function and spec.site.description == change:
            from inspect import getsourcelines

            from ginspec.conformance.mutation.targets import function_of

            lines, start = getsourcelines(function_of(spec.target))
            if line_text in lines[spec.site.line - start]:
                return spec
    raise LookupError(f"{function}: {change} at {line_text!r}")


GIN_BONUS = ("hand_score_terms", "+ -> -", "gin_bonus, big_gin_bonus) + dd")
"""Gin scores its bonus minus the defender's deadwood (SCORE.GIN says plus)."""
STRICT_ZIP = ("all_melds", "True -> False", "zip(tables.runs, tables.run_masks")
"""``zip(..., strict=False)`` over two tuples built from the same list: equivalent."""


def test_switch_changes_the_function_for_every_caller_and_restores_it() -> None:
    switch = Switch(_spec(*GIN_BONUS))
    rules = ruleset("pagat", {})
    bonus = int(rules["gin_bonus"])
    assert score_hand("gin", 0, 7, rules).knocker == bonus + 7  # SCORE.GIN
    switch.on()
    try:
        assert score_hand("gin", 0, 7, rules).knocker == bonus - 7
    finally:
        switch.off()
    assert score_hand("gin", 0, 7, rules).knocker == bonus + 7


@pytest.fixture(scope="module")
def openspiel_cases() -> list:  # type: ignore[type-arg]
    return playable(load_cases([SUITE_DIR]), adapter_for("openspiel").hello())


def test_the_suite_kills_a_wrong_gin_score_and_not_an_equivalent_mutant(
        openspiel_cases: list) -> None:  # type: ignore[type-arg]
    budget = Budget(5, 5, ("openspiel",))
    killed = run_one(_spec(*GIN_BONUS), lambda: adapter_for("openspiel"), openspiel_cases, [],
                     120, budget)
    assert killed.status == "killed" and killed.how == "fail", killed
    equivalent = run_one(_spec(*STRICT_ZIP), lambda: adapter_for("openspiel"),
                         openspiel_cases, [], 120, budget)
    assert equivalent.status == "survived" and equivalent.witness is None, equivalent
    assert equivalent.cases_run == len(openspiel_cases)


def test_bench_mutants_refuses_bad_input_in_one_line(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    assert main(["bench", "mutants", "--profile", "nosuch"]) == 2
    assert "unknown profile 'nosuch'" in capsys.readouterr().err
    assert main(["bench", "mutants", "--out", str(tmp_path / "no" / "m.json")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert main(["bench", "mutants", "--out", str(tmp_path / ("m" * 300 + ".json"))]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and "too long" in err and err.count("\n") == 1  # before the run, one line


def test_bench_mutants_tiny_sample_writes_its_results(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.json"
    assert main(["bench", "mutants", "--profile", "openspiel", "--sample", "3", "--seed", "5",
                 "--hands", "10", "--out", str(out), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    data = json.loads(out.read_text())
    assert rows == data["summary"] and rows[0]["mutants"] == 3
    assert rows[0]["killed"] + rows[0]["survived"] + rows[0]["invalid"] == 3
    assert [r["id"] for r in data["results"]["openspiel"]] == \
        [s.id for s in sample(mutants(), 3, 5)]


def test_every_argued_equivalent_names_a_generated_mutant_and_a_known_adapter() -> None:
    from ginspec.conformance.adapters.reference_game import profile_names
    from ginspec.conformance.mutation.command import equivalent_mutants

    ids = {s.id for s in _mutants()}
    for mutant, arguments in equivalent_mutants().items():
        assert mutant in ids, f"equivalent.toml: {mutant} is no generated mutant (stale line?)"
        assert set(arguments) <= {"*", "all", *profile_names()}, mutant


def test_bench_mutants_refuses_an_unknown_mutant_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "mutants", "--profile", "openspiel", "--mutant", "melds:nosuch:x:1.0"]) == 2
    assert "--mutant: no generated or planted mutant 'melds:nosuch:x:1.0'" in capsys.readouterr().err


def test_saved_runs_merge_a_rerun_of_survivors_over_the_first_run() -> None:
    from ginspec.conformance.mutation.command import merge_saved, summary

    def saved(cases: int, *results: tuple[str, str]) -> dict:  # type: ignore[type-arg]
        return {"summary": [{"profile": "pagat", "cases": cases}],
                "results": {"pagat": [{"id": i, "status": st, "reached": True}
                                      for i, st in results]}}

    first = saved(10, ("a", "killed"), ("b", "survived"), ("c", "survived"))
    rerun = saved(12, ("b", "killed"))
    cases, results = merge_saved([first, rerun])
    assert cases == {"pagat": 12}
    assert [(r["id"], r["status"]) for r in results["pagat"]] == \
        [("a", "killed"), ("b", "killed"), ("c", "survived")]
    row = summary("pagat", 12, results["pagat"], known={})
    assert (row["mutants"], row["killed"], row["unexplained"]) == (3, 2, 1)


CORNER_KILLS = [
    ("serbian-online", "game.state:HandState._generate:condition:255.3",
     "proc.corner.taken-card-no-knock.serbian-online"),
    ("serbian-online", "game.state:HandState._check:constant:484.0",
     "proc.corner.knock-king-of-spades-over-limit.serbian-online"),
    ("openspiel", "game.state:HandState._generate:condition:116.2",
     "proc.corner.wall-take-to-knock.openspiel"),
    ("serbian-online", "table.table_state:TableState._after_discard:constant:132.0",
     "table.wall.take-after-reshuffle"),
    ("serbian-online", "table.penalties:table_penalties:compare:21.0",
     "sys.table-penalty.two-players-knock"),
    ("serbian-online", "table.penalties:table_penalties:constant:71.0",
     "sys.table-penalty.knocker-over-limit"),
    ("serbian-online", "adjudicate:adjudicate_position:constant:79.0",
     "q.adjudicate.eleven-cards.serbian-online"),
    ("openspiel", "scoring:final_scores:constant:384.0", "q.match.player-one-is-paid.openspiel"),
    ("all", "game.state:HandState._take_capped:constant:19.0", "proc.corner.take-cap-one.wikipedia"),
    ("all", "game.state:HandState._generate:constant:309.0",
     "proc.corner.big-gin-bonus-one.wikipedia"),
    ("all", "table.table_adjudicate:_showdown:swap:110.2", "sys.table-adjudicate.gin-bonus-20"),
    ("pagat", "game.state:HandState._check:condition:534.1",
     "proc.corner.knock-instead-of-gin.pagat"),
    ("openspiel", "game.state:HandState._take_capped:compare:20.0",
     "proc.corner.take-cap-fifty.openspiel"),
    ("openspiel", "game.state:HandState._wall_take_ok:compare:83.0",
     "proc.corner.wall-take-to-knock-at-limit.openspiel"),
    ("serbian-online", "table.table_adjudicate:_showdown:compare:125.0",
     "sys.table-adjudicate.tie-knocker-wins"),
    ("serbian-online", "game.state:HandState._discard:condition:178.2",
     "proc.corner.second-wall-void.serbian-online"),
    ("all", "game.state:HandState._generate:compare:463.0", "proc.corner.knocker-lays-off.pagat"),
    ("all", "game.state:HandState._check:condition:261.1",
     "proc.corner.wall-play-on-without-knock.rlcard"),
    ("all", "table.table_adjudicate:_blocked:condition:150.0",
     "sys.table-adjudicate.ace-high-past-layoff"),
    ("colony", "game.state:HandState._wall_take_ok:condition:73.2",
     "proc.corner.wall-take-to-turn-over.colony"),
    ("all", "table.table_state:TableState._check:condition:178.2",
     "table.turn.taken-card-discarded-always"),
    ("all", "typed_rules:Rules.spade_upcard_doubles:condition:4.2",
     "q.score.spade-upcard-not-doubled.oklahoma"),
    ("all", "game.state:HandState._check:planted:gin-compulsory-knock-raises",
     "proc.corner.gin-compulsory-no-knock-with-deadwood.rlcard"),
    ("pagat", "game.actions:_parse_melds:planted:card-twice-in-a-meld-parsed",
     "proc.corner.declare-card-twice-in-a-meld-is-malformed.pagat"),
    ("pagat", "game.actions:_parse_action:planted:bare-verb-argument-ignored",
     "proc.corner.pass-with-a-card-is-malformed.pagat"),
    ("colony", "game.state:HandState._wall_take_ok:planted:colony-wall-reads-discard-taken-card",
     "proc.corner.wall-take-to-turn-over.colony"),
    ("all", "adjudicate:adjudicate_position:planted:no-big-gin-candidate",
     "q.adjudicate.big-gin-beats-gin.wikipedia"),
    ("serbian-online", "table.table_state:TableState._candidates:planted:over-falls-through",
     "table.over.no-legal-actions"),
]
"""Survivors of the 2026-12-02 and 2026-12-05 measurements, and the eight misses of the
independent run (generated mutants where the operators make the change, planted ones
of ``conformance/mutation/planted.py`` where they do not), with the corner case that kills each
(docs/conformance/mutation.md)."""


def test_the_corner_cases_pass_on_the_reference_and_kill_their_survivors() -> None:
    from ginspec.conformance.adapters.reference import ReferenceAdapter
    from ginspec.conformance.generate.corners import corner_cases
    from ginspec.conformance.runner import Runner

    cases = {c.id: c for c in corner_cases()}
    reference = ReferenceAdapter()
    runner = Runner(reference, reference.hello())
    assert all(runner.run_case(c).status == "pass" for c in cases.values())
    by_id = {s.id: s for s in [*_mutants(), *planted_mutants()]}
    for profile, mutant, case_id in CORNER_KILLS:
        got = run_one(by_id[mutant], lambda p=profile: adapter_for(p), [cases[case_id]], [], 60,
                      Budget(0, 0, ()))
        assert (got.status, got.case) == ("killed", case_id), (mutant, got)


def test_a_planted_mutant_replaces_its_text_once_and_is_switched_like_a_generated_one() -> None:
    from ginspec.conformance.generate.scripted import standard
    from ginspec.reference.game import HandState, rules_for_profile

    spec = next(s for s in planted_mutants() if s.name == "bare-verb-argument-ignored")
    assert spec.id == "game.actions:_parse_action:planted:bare-verb-argument-ignored"
    assert spec.site.family == "planted" and spec.to_json()["id"] == spec.id
    state = HandState.new(standard(), rules_for_profile("pagat")).apply("take-upcard")
    refusal = state.rejection("pass 3C")
    assert refusal is not None and refusal.code.value == "MALFORMED_ACTION"
    switch = Switch(spec)
    switch.on()
    try:
        refusal = state.rejection("pass 3C")
        assert refusal is not None and refusal.code.value == "WRONG_PHASE"
    finally:
        switch.off()
    with pytest.raises(ValueError, match="occurs 0 times"):
        planted("game.actions", "_parse_action", "x", "no such text", "pass")

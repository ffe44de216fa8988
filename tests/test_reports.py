"""Failure reports a user can act on, run control, and the reproductions of the reported problems.

The failing engines are the reference with one planted defect (tests/conformance_fakes/
misreports.py), so which cases fail is known from the case data alone: ``TensHigh`` miscounts every
deadwood query holding a ten, ``NoKnocking`` refuses every knock.
"""

from __future__ import annotations

import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from ginspec.conformance.cases import load_cases
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR

FAKES = Path(__file__).parent / "conformance_fakes"
TENS = "python:misreports:TensHigh"
TENS_CULPRIT = "DEADWOOD.MINIMUM"
"""What a wrong ``deadwood`` answer is blamed on: the clause that defines the answer (CARD.VALUE
instead where no two melds of the hand share a card, so only the values decide it)."""
NO_KNOCK = "python:misreports:NoKnocking"
ANSI = re.compile(r"\x1b\[")


@pytest.fixture(autouse=True)
def _fakes_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def deadwood_cases() -> list:  # type: ignore[type-arg]
    """The cases ``--cases 'q.deadwood.*'`` selects (deadwood and arrangement-count queries)."""
    return [c for c in load_cases([SUITE_DIR]) if c.id.startswith("q.deadwood.")]


def with_a_ten() -> set[str]:
    """The cases TensHigh gets wrong: deadwood queries whose hand holds a ten (from the case
    data alone)."""
    return {c.id for c in deadwood_cases() if c.query["what"] == "deadwood"
            and any(t.startswith("T") for t in c.query["cards"])}


def cards_shown(tokens: list[str]) -> str:
    suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    return " ".join(("10" if t[0] == "T" else t[0]) + suits[t[1]] for t in tokens)


# -- the terminal failure report ---------------------------------------------------------------


def test_a_failure_shows_cards_expected_beside_actual_clause_text_and_rerun() -> None:
    code, out, _ = cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "--no-progress")
    assert code == 1
    assert not ANSI.search(out), "piped output has no colour"
    failing = with_a_ten()
    assert failing
    first = next(c for c in deadwood_cases() if c.id in failing)
    block = out[out.index(f"FAIL {first.id} "):]
    block = block[:block.index("rerun:")] + block[block.index("rerun:"):].split("\n", 1)[0]
    assert f"cards: {cards_shown(first.query['cards'])}" in block
    want = first.expect["deadwood"]
    assert re.search(rf"deadwood\s+│\s+{want}\s+│\s+{want + 1}\b", block), block
    optimal = first.expect.get("optimal")
    if optimal:  # the case's own optimal arrangement, drawn as cards, beside the engine's (none)
        assert " / ".join(cards_shown(m) for m in optimal[0]) in block
    assert "(no melds)" in block
    # a wrong deadwood answer is blamed on the clause that defines the answer (DEADWOOD.MINIMUM,
    # conformance/CASES.md "Blame"); the tens' value (CARD.VALUE, which it counts) is a suspect
    culprit = TENS_CULPRIT
    from ginspec.spec.clauses import registry

    clause = registry()[culprit]
    assert f"FAIL {first.id} in the answer [{culprit}]" in block
    assert f"{culprit} — §{clause.number} {clause.title}" in block
    first_words = " ".join(clause.text.split()[:4]).replace("**", "")
    assert first_words in block and "**" not in block  # Markdown rendered as text
    assert re.search(r"also suspect: .*\bCARD\.VALUE\b", block), block
    rerun = block.rsplit("rerun: ", 1)[1].strip()
    assert rerun == f"ginspec conform --adapter {TENS} --cases {first.id}"
    code, again, _ = cli(*rerun.split()[1:], "--no-progress")
    assert code == 1 and again.strip().endswith("0 unexpected passes")
    assert "1 cases in" in again and "1 failed" in again


def test_piped_tables_never_cut_ids() -> None:
    code, out, _ = cli("conform", "--adapter", "reference", "-v", "--no-progress")
    assert code in (0, 1), out[-2000:]  # (this test is about widths, not about the verdicts)
    cases = load_cases([SUITE_DIR])
    for clause in {c for case in cases for c in case.clauses}:
        assert re.search(rf"^ {re.escape(clause)} +│", out, re.M), clause
    assert "…" not in out


def test_colour_on_a_terminal_and_none_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginspec.reference.cli.console import make_console, styled

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    tty = Tty()
    make_console(tty).print(styled("FAIL x", "fail"))
    assert ANSI.search(tty.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Tty()
    make_console(tty).print(styled("FAIL x", "fail"))
    assert not ANSI.search(tty.getvalue()) and "FAIL x" in tty.getvalue()
    monkeypatch.delenv("NO_COLOR")
    piped = io.StringIO()
    make_console(piped).print(styled("FAIL x", "fail"))
    assert not ANSI.search(piped.getvalue())


def test_a_step_divergence_shows_the_deal_and_the_steps() -> None:
    code, out, _ = cli("conform", "--adapter", NO_KNOCK, "--cases", "casebook.c01.*", "-x",
                       "--no-progress")
    assert code == 1
    case = next(c for c in load_cases([SUITE_DIR]) if c.id == "casebook.c01.1")
    knock = next(i for i, s in enumerate(case.steps) if str(s["action"]).startswith("knock"))
    assert f"FAIL casebook.c01.1 at step {knock} " in out
    assert "player 0 (dealer): " + cards_shown(case.deals[0]["deck"][1:20:2]) in out
    assert re.search(rf"^\s+{knock} │ 1\s+│ knock ", out, re.M)
    assert re.search(r"verdict\s+│ 'accepted'\s+│ 'rejected KNOCK_TOO_HIGH'", out)


def test_verbose_lists_expected_failures_with_their_reasons(tmp_path: Path) -> None:
    failing = sorted(with_a_ten())
    listed = tmp_path / "known.txt"
    listed.write_text(f"{failing[0]}  # counts a ten as eleven (planted)\n", encoding="utf-8")
    code, out, _ = cli("conform", "--adapter", TENS, "--cases", failing[0], "--expect-fail",
                       str(listed), "-v", "--no-progress")
    assert code == 0
    assert re.search(rf"{re.escape(failing[0])}\s+│ counts a ten as eleven \(planted\)", out)


# -- run control -------------------------------------------------------------------------------


def test_max_fail_and_exitfirst_stop_the_run(tmp_path: Path) -> None:
    code, out, _ = cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "-x",
                       "--json", str(tmp_path / "r.jsonl"), "--no-progress")
    assert code == 1
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    statuses = [x["status"] for x in lines if x["type"] == "case"]
    assert statuses.count("fail") == 1 and statuses[-1] == "fail"
    not_run = len(deadwood_cases()) - len(statuses)
    assert f"stopped after 1 failure(s) (--max-fail): {not_run} case(s) not run" in out
    code, out, _ = cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "--max-fail", "3",
                       "--no-progress")
    assert code == 1 and "3 failed" in out


def test_the_first_adapter_error_shows_the_adapters_stderr() -> None:
    fake = FAKES / "fake_adapter.py"
    code, out, _ = cli("conform", "--adapter", f"cmd:{sys.executable} {fake} crash", "--cases",
                       "q.meld.*", "--no-progress", "--timeout", "5")
    assert code == 2
    assert out.count("fake adapter: crashing on purpose") == 1
    first = out.index("ERROR ")
    assert out.index("fake adapter: crashing on purpose") > first


def test_a_bad_report_path_is_refused_before_the_run(tmp_path: Path) -> None:
    for flag in ("--json", "--junit", "--html"):
        # the adapter does not even load: the path is checked first
        code, out, err = cli("conform", "--adapter", "python:no_such_module_x:A", flag,
                             "/nonexistent/d/r.out")
        assert code == 2 and out == ""
        assert err.splitlines() == [f"ginspec: error: {flag} /nonexistent/d/r.out: folder "
                                    "/nonexistent/d does not exist"]


def test_dash_writes_json_or_junit_to_stdout() -> None:
    code, out, err = cli("conform", "--adapter", "reference", "--cases", "q.meld.*", "--json", "-",
                         "--no-progress")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert [lines[0]["type"], lines[-1]["type"]] == ["header", "footer"]
    assert "cases in" in err and not Path("-").exists()
    code, out, err = cli("conform", "--adapter", "reference", "--cases", "q.meld.*", "--junit", "-",
                         "--no-progress")
    assert code == 0 and ET.fromstring(out).tag == "testsuites"


def test_several_adapters_run_side_by_side(tmp_path: Path) -> None:
    code, out, _ = cli("conform", "--adapter", "reference", "--adapter", TENS, "--cases",
                       "q.deadwood.*", "--json", str(tmp_path / "r.jsonl"), "--html",
                       str(tmp_path / "r.html"), "--no-progress")
    assert code == 1
    assert "per clause, side by side" in out
    side = out[out.index("per clause, side by side"):]
    row = next(line for line in side.splitlines() if line.startswith(" DEADWOOD.MINIMUM "))
    n = sum("DEADWOOD.MINIMUM" in c.clauses for c in deadwood_cases())
    bad = len(with_a_ten())
    # a hand whose melds share no card has one way to meld it: its wrong deadwood is the card
    # values' (CARD.VALUE, as the case records), the others' DEADWOOD.MINIMUM's
    by_value = sum(c.id in with_a_ten() and c.blame.get("deadwood") == "CARD.VALUE"
                   for c in deadwood_cases())
    assert 0 < by_value < bad
    assert re.search(rf"│ {n} pass\s+│ {n - bad} pass {bad - by_value} fail", row), row
    values = next(line for line in side.splitlines() if line.startswith(" CARD.VALUE "))
    assert re.search(rf"│ \d+ pass {by_value} fail", values), values
    headers = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()
               if json.loads(x)["type"] == "header"]
    assert [h["adapter"]["spec"] for h in headers] == ["reference", TENS]
    page = (tmp_path / "r.html").read_text()
    assert "<small>reference</small>" in page and f"<small>{TENS}</small>" in page


# -- HTML and JUnit ----------------------------------------------------------------------------


def test_html_failures_first_cards_fit_clause_rendered(tmp_path: Path) -> None:
    failing = sorted(with_a_ten())
    listed = tmp_path / "known.txt"
    listed.write_text(f"{failing[0]}  # planted reason\n", encoding="utf-8")
    code, _, _ = cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "--html",
                     str(tmp_path / "r.html"), "--expect-fail", str(listed), "--no-progress")
    assert code == 1
    page = (tmp_path / "r.html").read_text()
    assert page.index("<h2>Failures") < page.index("<h2>Expected failures") < \
        page.index("<h2>Clauses by implementation")
    assert "planted reason" in page
    assert re.search(r'<span class="card (red|black)" title="T[CDHS]">10[♣♦♥♠]</span>', page)
    assert "min-width:34px" in page and "white-space:nowrap" in page  # the box grows with "10"
    # the culprit's text, its Markdown rendered (DEADWOOD.MINIMUM's "**minimum deadwood**")
    assert "<strong>minimum deadwood</strong>" in page and "**" not in page
    assert (f'<pre class="rerun">ginspec conform --adapter {TENS} --expect-fail {listed} --cases '
            f'{failing[1]}</pre>') in page


def test_junit_message_and_body_explain_the_failure(tmp_path: Path) -> None:
    failing = sorted(with_a_ten())
    code, _, _ = cli("conform", "--adapter", TENS, "--cases", failing[0], "--junit",
                     str(tmp_path / "r.xml"), "--no-progress")
    assert code == 1
    [failure] = ET.parse(tmp_path / "r.xml").getroot().iter("failure")
    assert re.match(rf"FAIL {re.escape(failing[0])} in the answer \[{TENS_CULPRIT}\]: deadwood: "
                    "expected", failure.get("message", ""))
    assert f"rerun: ginspec conform --adapter {TENS} --cases {failing[0]}" in (failure.text or "")
    assert "is the smallest deadwood over all its arrangements" in (failure.text or "")


# -- saved runs --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(FAKES))
    out = {"good": root / "good.jsonl", "bad": root / "bad.jsonl"}
    try:
        for name, spec in (("good", "reference"), ("bad", TENS)):
            cli("conform", "--adapter", spec, "--cases", "q.deadwood.*", "--json", str(out[name]),
                "--no-progress")
        for i in (1, 2):
            out[f"shard{i}"] = root / f"shard{i}.jsonl"
            cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "--shard", f"{i}/2",
                "--json", str(out[f"shard{i}"]), "--no-progress")
    finally:
        mp.undo()
    return out


def test_report_diff_lists_exactly_the_changed_cases(runs: dict[str, Path]) -> None:
    code, out, _ = cli("report", "diff", str(runs["good"]), str(runs["bad"]), "--json")
    assert code == 1  # a case newly fails
    [run] = json.loads(out)["runs"]
    assert {c["id"] for c in run["changes"]} == with_a_ten()
    assert {c["category"] for c in run["changes"]} == {"new failure"}
    assert run["clauses"]["DEADWOOD.MINIMUM"] == {"new failure": len(with_a_ten())}
    assert run["clauses"]["CARD.VALUE"] == {"new failure": len(with_a_ten())}
    code, out, _ = cli("report", "diff", str(runs["bad"]), str(runs["good"]))
    assert code == 0 and f"{len(with_a_ten())} fixed" in out
    code, out, _ = cli("report", "diff", str(runs["good"]), str(runs["good"]))
    assert code == 0 and "0 case(s) changed" in out


def test_report_merge_of_shards_is_the_whole_run(runs: dict[str, Path], tmp_path: Path) -> None:
    merged = tmp_path / "merged.jsonl"
    code, _, _ = cli("report", "merge", str(runs["shard1"]), str(runs["shard2"]), "--out", str(merged))
    assert code == 1
    code, out, _ = cli("report", "diff", str(runs["bad"]), str(merged), "--json")
    assert code == 0 and json.loads(out)["runs"][0]["changes"] == []
    footer = json.loads(merged.read_text().splitlines()[-1])
    assert footer["counts"]["fail"] == len(with_a_ten())
    assert footer["counts"]["pass"] == len(deadwood_cases()) - len(with_a_ten())


def test_report_summary_markdown_and_badge(runs: dict[str, Path], tmp_path: Path) -> None:
    code, out, _ = cli("report", "summary", str(runs["bad"]))
    assert code == 1 and f"{len(with_a_ten())} failing" in out
    code, out, _ = cli("report", "markdown", str(runs["good"]), str(runs["bad"]))
    assert code == 0
    lines = out.splitlines()
    assert "| engine | adapter | pass | fail | error | skip | declined | xfail | xpass | exit |" in lines
    assert "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" in lines
    assert any(line.startswith("| DEADWOOD\\.MINIMUM |") for line in lines)
    svg = tmp_path / "b.svg"
    code, _, _ = cli("report", "badge", str(runs["bad"]), "--out", str(svg))
    assert code == 0
    root = ET.fromstring(svg.read_text())
    n, bad = len(deadwood_cases()), len(with_a_ten())
    assert f"{n - bad}/{n} pass, {bad} failing" in "".join(root.itertext())


def test_report_expect_fail_keeps_reasons_and_drops_passes(runs: dict[str, Path], tmp_path: Path) -> None:
    failing = sorted(with_a_ten())
    passing = sorted({c.id for c in deadwood_cases()} - set(failing))
    listed = tmp_path / "known.txt"
    listed.write_text(f"# my engine's known failures\n{failing[0]}  # my own reason\n"
                      f"{passing[0]}  # fixed since\n", encoding="utf-8")
    code, _, err = cli("report", "expect-fail", str(runs["bad"]), "--update", str(listed))
    assert code == 0
    assert f"1 kept, {len(failing) - 1} added, 1 dropped" in err
    lines = listed.read_text().splitlines()
    assert lines[:2] == ["# my engine's known failures", f"{failing[0]}  # my own reason"]
    assert {line.split()[0] for line in lines[1:]} == set(failing)
    assert all(re.search(r"# [A-Z.-]+: deadwood: expected \d+, got \d+$", line) for line in lines[2:])
    code, _, _ = cli("conform", "--adapter", TENS, "--cases", "q.deadwood.*", "--expect-fail",
                     str(listed), "--no-progress")
    assert code == 0  # the written list makes the run pass


# -- shipped lists and suites by name ------------------------------------------------------------


def test_expect_fail_and_suite_by_name() -> None:
    from ginspec.conformance.selection import expect_fail_path, suite_path

    assert expect_fail_path("openspiel").name == "openspiel.txt"
    assert expect_fail_path("openspiel").parent.name == "expect-fail"
    assert suite_path("committed") == SUITE_DIR
    assert (suite_path("regressions") / "hand").is_dir()


# -- fast start --------------------------------------------------------------------------------


def test_the_committed_suite_is_trusted_by_its_digest(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    import shutil

    from ginspec.conformance.cases import CaseFormatError, store

    store._LOADED.clear()

    def no_schema() -> None:
        raise AssertionError("the schema was consulted")

    monkeypatch.setattr(store, "case_validator", no_schema)
    assert len(store.load_cases([SUITE_DIR])) == json.loads(
        (SUITE_DIR / "manifest.json").read_text())["counts"]["total"]
    copy = tmp_path / "suite"
    shutil.copytree(SUITE_DIR, copy)
    # The first file read: an untrusted copy is checked file by file, and stops at this one.
    edited = next(store.case_files(copy))
    kind = json.loads(edited.read_text())["kind"]
    edited.write_text(edited.read_text().replace(f'"kind": "{kind}"', '"kind": "quest"', 1))
    monkeypatch.undo()
    with pytest.raises(CaseFormatError, match=re.escape(edited.name) + ".*kind"):
        store.load_cases([copy])


# -- rulings run against engines ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["showdown", "game", "match", "hollywood", "partnership",
                                  "three-player", "table"])
def test_every_ruling_template_runs_as_cases(kind: str, tmp_path: Path) -> None:
    code, text, _ = cli("ruling", "new", "--kind", kind)
    assert code == 0
    mine = tmp_path / "mine.toml"
    mine.write_text(text, encoding="utf-8")
    code, out, _ = cli("conform", "--adapter", "reference", "--suite", str(mine), "--json",
                       str(tmp_path / "r.jsonl"), "--no-progress")
    assert code == 0, out
    cases = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()
             if json.loads(x)["type"] == "case"]
    assert cases and all(c["status"] == "pass" and c["id"].startswith("ruling.") for c in cases)


def test_a_ruling_fails_against_an_engine_that_rules_otherwise(tmp_path: Path) -> None:
    from ginspec.reference.cli.ruling_command import TEMPLATE

    mine = tmp_path / "mine.toml"
    mine.write_text(TEMPLATE, encoding="utf-8")
    code, out, _ = cli("conform", "--adapter", NO_KNOCK, "--suite", str(mine), "--no-progress")
    assert code == 1
    assert re.search(r"^FAIL ruling\.my-knock-with-ten\.1 at step \d+ ", out, re.M)
    assert f"rerun: ginspec conform --adapter {NO_KNOCK} --suite {mine} --cases ruling.my-knock-with-ten.1" in out


def test_a_ruling_the_reference_disputes_is_refused(tmp_path: Path) -> None:
    from ginspec.reference.cli.ruling_command import TEMPLATE

    wrong = TEMPLATE.replace("points = { knocker = 4, defender = 0 }", "points = { knocker = 9, defender = 0 }")
    assert wrong != TEMPLATE
    mine = tmp_path / "mine.toml"
    mine.write_text(wrong, encoding="utf-8")
    code, out, err = cli("conform", "--adapter", "reference", "--suite", str(mine))
    assert code == 2 and out == ""
    assert err.startswith(f"ginspec: error: {mine}: the reference does not give the expected ruling")
    assert "points" in err and len(err.splitlines()) == 1


def test_report_diff_of_openspiel_with_a_broken_option(tmp_path: Path) -> None:
    """OpenSpiel, then OpenSpiel with its knock card set to 9: the diff lists exactly the cases
    the reference also plays differently with a knock limit of 9 (among those OpenSpiel passed)."""
    pytest.importorskip("pyspiel")
    from broken_openspiel import reference_knock_card_nine  # type: ignore[import-not-found]
    from ginspec.conformance.runner import Runner
    from ginspec.conformance.selection import load_run_cases

    suites = ["--suite", "committed", "--suite", "regressions", "--expect-fail", "openspiel"]
    good, bad = tmp_path / "openspiel.jsonl", tmp_path / "knock9.jsonl"
    assert cli("conform", "--adapter", "openspiel", *suites, "--json", str(good), "--no-progress")[0] == 0
    cli("conform", "--adapter", "python:broken_openspiel:KnockCardNine", *suites, "--json", str(bad),
        "--no-progress")
    code, out, _ = cli("report", "diff", str(good), str(bad), "--json")
    assert code == 1
    [run] = json.loads(out)["runs"]
    passed = {json.loads(x)["id"] for x in good.read_text().splitlines()
              if json.loads(x).get("status") == "pass"}
    cases = [c for c in load_run_cases(["committed", "regressions"]) if c.id in passed]
    from ginspec.conformance.adapters.openspiel import OpenSpielAdapter

    # judged by OpenSpiel's hello: each case under the ruleset OpenSpiel played it by (a case of
    # suite format 2 carries one entry per ruleset, and the reference declares every profile)
    reference, hello = reference_knock_card_nine(), OpenSpielAdapter().hello()
    predicted = {o.case.id for o in Runner(reference, hello).run(cases).outcomes
                 if o.status == "fail"}
    assert predicted
    assert {c["id"] for c in run["changes"]} == predicted
    assert {c["category"] for c in run["changes"]} == {"new failure"}


SAVED_RUNS_GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guides" / "saved-runs.md"


def test_saved_runs_guide_commands_run_in_order(tmp_path: Path) -> None:
    """docs/guides/saved-runs.md, every console command in order, with the exits it describes:
    the greedy example fails some cases (summary and diff exit 1), the list written by
    ``report expect-fail`` makes its run pass."""
    import os
    import subprocess

    commands, inside = [], False
    for line in SAVED_RUNS_GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```console"
        elif inside and line.startswith("$ "):
            commands.append(line[2:])
    failing = {"--adapter python:ginspec.conformance.examples.greedy_adapter:GreedyAdapter --profile pagat --json",
               "report summary greedy", "report diff"}
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        want = 1 if any(f in command for f in failing) else 0
        assert proc.returncode == want, f"{command}\nexit {proc.returncode}\n{proc.stdout[-2000:]}{proc.stderr}"
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| engine | adapter |" in summary and "### Failing cases" in summary
    ET.fromstring((tmp_path / "badge.svg").read_text(encoding="utf-8"))
    assert (tmp_path / "greedy-known.txt").read_text(encoding="utf-8").count("\n") > 1


def test_a_live_divergence_is_explained_from_its_shrunk_case(tmp_path: Path) -> None:
    mutant = "python:ginspec.conformance.mutants:DiscardRestrictionOff"
    code, out, _ = cli("conform", "--live", "--adapter", mutant, "--profile", "pagat", "--seed", "1",
                       "--hands", "20", "--max-new", "1", "--out", str(tmp_path))
    assert code == 1
    [written] = tmp_path.glob("live.pagat.*.json")
    assert re.search(rf"^FAIL {re.escape(written.stem)} ", out, re.M)
    assert "upcard: " in out and "legal_actions" in out
    rerun = f"ginspec conform --adapter {mutant} --suite {written} --cases {written.stem}"
    assert f"rerun: {rerun}" in out
    again, _, _ = cli(*rerun.split()[1:], "--no-progress")
    assert again == 1


# --- an interrupted run says so in every report; a refused run still writes them -------

SIGNAL_EXITS = {"Sigterm": ("SIGTERM", 143), "Sigint": ("SIGINT", 130)}
"""The fake (tests/conformance_fakes/signalling.py) -> the signal it sends and the exit code a
process ended by it has (128 + the signal's number)."""


def _reports(tmp_path: Path) -> tuple[list[str], dict[str, Path]]:
    paths = {f: tmp_path / f"run.{f}" for f in ("json", "junit", "html")}
    return [w for f, p in paths.items() for w in (f"--{f}", str(p))], paths


@pytest.mark.parametrize("fake", sorted(SIGNAL_EXITS))
def test_an_interrupted_run_says_so_in_every_report(fake: str, tmp_path: Path) -> None:
    name, exit_code = SIGNAL_EXITS[fake]
    flags, paths = _reports(tmp_path)
    code, out, _ = cli("conform", "--adapter", f"python:signalling:{fake}", "--cases", "q.deadwood.*",
                       *flags, "--no-progress")
    assert code == exit_code and f"INTERRUPTED by {name}" in out
    lines = [json.loads(line) for line in paths["json"].read_text().splitlines()]
    header, cases, footer = lines[0], [x for x in lines if x["type"] == "case"], lines[-1]
    selected = header["selection"]["selected"]
    assert footer["exit_code"] == exit_code and footer["interrupted"] == name
    assert 0 < len(cases) < selected and footer["not_run"] == selected - len(cases)
    root = ET.parse(paths["junit"]).getroot()
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["interrupted"] == name and props["not_run"] == str(selected - len(cases))
    [stop] = [tc for tc in root.iter("testcase") if tc.find("error") is not None]
    message = stop.find("error").get("message", "")  # type: ignore[union-attr]
    assert name in message and f"{selected - len(cases)} selected case(s) not run" in message
    assert sum(int(s.get("errors", "0")) for s in root.iter("testsuite")) == 1
    html = paths["html"].read_text()
    assert re.search(rf'<div class="banner" role="alert">[^<]*INTERRUPTED by {name}: '
                     rf"{selected - len(cases)} selected case\(s\) not run", html)
    code, out, _ = cli("report", "summary", str(paths["json"]))
    assert code == 2 and f"INTERRUPTED by {name}" in out  # never a pass
    code, out, _ = cli("report", "summary", "--json", str(paths["json"]))
    assert json.loads(out)["interrupted"] == name and json.loads(out)["exit_code"] == exit_code
    code, out, _ = cli("report", "markdown", str(paths["json"]))
    assert code == 0 and f"INTERRUPTED by {name}" in out
    assert f"| {exit_code} |" in out
    badge = tmp_path / "b.svg"
    assert cli("report", "badge", str(paths["json"]), "-o", str(badge))[0] == 0
    assert "interrupted" in badge.read_text()
    merged = tmp_path / "merged.jsonl"
    assert cli("report", "merge", str(paths["json"]), "-o", str(merged))[0] == 2
    assert json.loads(merged.read_text().splitlines()[-1])["interrupted"] == name


PROTOCOL_99 = f"cmd:{sys.executable} -m ginspec.conformance.faults bad-protocol 5 5"


@pytest.mark.parametrize(("adapter", "said"), [
    ("python:empty:Nothing", "declares nothing that could run"),
    (PROTOCOL_99, "protocol 99"),
])
def test_a_run_refused_at_hello_still_writes_every_report(adapter: str, said: str,
                                                         tmp_path: Path) -> None:
    flags, paths = _reports(tmp_path)
    code, _, err = cli("conform", "--adapter", adapter, "--cases", "q.deadwood.*", *flags,
                       "--no-progress")
    assert code == 2
    [line] = err.strip().splitlines()
    assert line.startswith("ginspec: error:") and said in line
    lines = [json.loads(x) for x in paths["json"].read_text().splitlines()]
    assert [x["type"] for x in lines] == ["header", "footer"]
    assert said in lines[-1]["refused"] and lines[-1]["exit_code"] == 2
    root = ET.parse(paths["junit"]).getroot()
    [case] = list(root.iter("testcase"))
    error = case.find("error")
    assert error is not None and said in error.get("message", "")
    assert said in {p.get("name"): p.get("value") for p in root.iter("property")}["refused"]
    assert re.search(r'<div class="banner" role="alert">[^<]*REFUSED at hello', paths["html"].read_text())
    code, out, _ = cli("report", "summary", str(paths["json"]))
    assert code == 2 and "REFUSED at hello" in out
    code, out, _ = cli("report", "markdown", str(paths["json"]))
    assert "REFUSED at hello" in out

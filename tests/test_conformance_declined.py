"""Declining one case (protocol 2): recorded as ``declined`` — never a pass — in every report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner

FAKES = Path(__file__).parent / "conformance_fakes"
FAKE = FAKES / "fake_adapter.py"
SHY = "python:declining:SevensShy"


@pytest.fixture(autouse=True)
def _fakes_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FAKES))


def _meld_cases() -> list[Case]:
    return [c for c in load_cases([SUITE_DIR]) if c.id.startswith("q.meld.")]


def _sevens(cases: list[Case]) -> set[str]:
    return {c.id for c in cases if "7C" in c.query.get("cards", [])}


def test_a_declined_reply_over_the_protocol_is_declined_not_passed() -> None:
    cases = _meld_cases()
    adapter = CommandAdapter([sys.executable, str(FAKE), "decline"], timeout=5.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    declined = {o.case.id for o in summary.outcomes if o.status == "declined"}
    assert declined == _sevens(cases) and declined
    assert all(o.message == "no sevens of clubs here" for o in summary.outcomes
               if o.status == "declined")
    assert summary.count("pass") == len(cases) - len(declined)
    assert summary.exit_code == 0


def test_declining_after_the_opening_request_is_a_protocol_error() -> None:
    hands = [c for c in load_cases([SUITE_DIR]) if c.kind == "hand" and c.steps][:2]
    adapter = CommandAdapter([sys.executable, str(FAKE), "declinelate"], timeout=5.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(hands)
    finally:
        adapter.close()
    assert [o.status for o in summary.outcomes] == ["error", "error"]
    assert all("unsupported" not in o.status for o in summary.outcomes)


def test_python_adapter_declines_by_raising_unsupported() -> None:
    from declining import DeclinesMidHand, SevensShy  # type: ignore[import-not-found]

    cases = _meld_cases()
    shy = SevensShy()
    summary = Runner(shy, shy.hello()).run(cases)
    assert {o.case.id for o in summary.outcomes if o.status == "declined"} == _sevens(cases)
    late = DeclinesMidHand()
    hand = next(c for c in load_cases([SUITE_DIR]) if c.kind == "hand" and c.steps)
    outcome = Runner(late, late.hello()).run_case(hand)
    assert outcome.status == "error" and "declined after the opening request" in outcome.message


def test_declined_in_every_report_and_with_expect_fail(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    cases = _meld_cases()
    sevens = sorted(_sevens(cases))
    expect = tmp_path / "expect.txt"
    expect.write_text(f"{sevens[0]}  # listed, but the adapter declines it\n")
    jsonl, junit, page = tmp_path / "r.jsonl", tmp_path / "r.xml", tmp_path / "r.html"
    code = main(["conform", "--adapter", SHY, "--cases", "q.meld.*", "--no-progress",
                 "--expect-fail", str(expect), "--json", str(jsonl), "--junit", str(junit),
                 "--html", str(page)])
    assert code == 0  # declined is not a failure, and a declined listed case is not a stale entry
    out = capsys.readouterr().out
    assert f"{len(sevens)} declined by the adapter (not passes)" in out
    assert f"DECLINED {sevens[0]}: this engine has no seven of clubs" in out
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    statuses = {line["id"]: line["status"] for line in lines if line["type"] == "case"}
    assert {i for i, s in statuses.items() if s == "declined"} == set(sevens)
    assert lines[-1]["counts"]["declined"] == len(sevens) and lines[-1]["counts"]["xpass"] == 0
    xml = junit.read_text()
    assert xml.count('<skipped message="declined: this engine has no seven of clubs"') == \
        len(sevens)
    html = page.read_text()
    assert f"Declined by the adapter ({len(sevens)}; not passes)" in html
    assert sevens[0] in html.split("Declined by the adapter")[1]


def test_pytest_plugin_skips_a_declined_case(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
            f"--ginspec-adapter={SHY}", "--ginspec-cases=q.meld.*7c*"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(FAKES), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False,
                          env=env)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "declined by the adapter: this engine has no seven of clubs" in proc.stdout
    assert " passed" not in proc.stdout


def test_live_mode_plays_other_deals_when_one_is_declined(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    code = main(["conform", "--live", "--adapter", "python:declining:DealerZeroOnly",
                 "--profile", "pagat", "--seed", "2", "--hands", "4", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"no divergence in \d+ hand\(s\) of pagat", out), out
    assert "declined by the adapter" in out

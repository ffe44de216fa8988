"""The runner, the protocol and adapter faults (each fault is reported; the run goes on)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter
from ginspec.conformance.cases import load_cases
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner, in_shard, select
from ginspec.conformance.versions import PROTOCOL_VERSION
from reference_forbidden import forbid_reference

FAKE = Path(__file__).parent / "conformance_fakes" / "fake_adapter.py"


def _meld_cases() -> list[object]:
    return [c for c in load_cases([SUITE_DIR]) if c.id.startswith("q.meld.")]


def test_reference_passes_every_case_in_process() -> None:
    """Every case but the deal checks of engines that deal themselves, which the reference
    (sent decks) skips, naming the capability (tests/test_engine_deals.py plays them)."""
    adapter = ReferenceAdapter()
    summary = Runner(adapter, adapter.hello()).run(load_cases([SUITE_DIR]))
    assert summary.counts()["fail"] == 0 and summary.counts()["error"] == 0
    skipped = [o for o in summary.outcomes if o.status == "skip"]
    assert all(o.case.id.startswith("deal-engine.") and "deal.engine" in o.message
               for o in skipped), [(o.case.id, o.message) for o in skipped][:5]
    assert summary.exit_code == 0


def test_reference_passes_through_serve_and_cmd(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole committed suite over ``cmd:ginspec serve``; the reference plays in the child,
    and the runner's process judges from the cases' data alone."""
    forbid_reference(monkeypatch)
    code = main(
        [
            "conform",
            "--adapter",
            f"cmd:{sys.executable} -m ginspec.conformance.cli serve",
            "--no-progress",
        ]
    )
    assert code == 0


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("crash", "crash"), ("hang", "timeout"), ("garbage", "garbage"), ("badseq", "protocol")],
)
def test_fault_is_an_error_on_that_case_and_the_run_goes_on(mode: str, kind: str) -> None:
    melds = _meld_cases()
    with_7c = [c for c in melds if "7C" in c.query["cards"]][:2]
    cases = [*melds[:4], with_7c[0], *melds[4:8], with_7c[-1], *melds[8:10]]
    # generous timeouts: on a loaded machine an innocent case must not time out (only the hang
    # waits them out, twice); the process start has the default --startup-timeout
    adapter = CommandAdapter([sys.executable, str(FAKE), mode], timeout=6.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    errors = [o for o in summary.outcomes if o.status == "error"]
    triggered = [o for o in summary.outcomes if "7C" in o.case.query.get("cards", [])]
    assert errors and {o.case.id for o in errors} == {o.case.id for o in triggered}
    assert all(o.message.startswith(kind) for o in errors)
    assert summary.count("pass") == len(cases) - len(errors)
    assert summary.exit_code == 2
    if mode == "crash":
        assert "crashing on purpose" in errors[0].message


def test_wrong_protocol_version_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", f"cmd:{sys.executable} {FAKE} otherprotocol",
                 "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"protocol {PROTOCOL_VERSION + 1}" in err and err.startswith("ginspec: error:")


def test_an_older_accepted_protocol_still_runs() -> None:
    """Protocol 2 only added to 1 (PROTOCOL.md, versioning rules): a protocol-1 adapter runs."""
    adapter = CommandAdapter([sys.executable, str(FAKE), "protocol1"], timeout=5.0)
    try:
        hello = adapter.hello()
        summary = Runner(adapter, hello).run(_meld_cases())
    finally:
        adapter.close()
    assert hello.protocol == 1
    assert summary.count("pass") == len(summary.outcomes) > 0


def test_wrong_answers_are_failures_not_errors() -> None:
    adapter = CommandAdapter([sys.executable, str(FAKE), "wrongmeld"], timeout=5.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(_meld_cases())
    finally:
        adapter.close()
    assert summary.count("fail") == len(summary.outcomes)
    assert summary.exit_code == 1
    assert all(o.culprit and o.culprit.startswith("MELD.") for o in summary.outcomes)


def test_smoke_tells_a_broken_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "conform",
                "--smoke",
                "--adapter",
                f"cmd:{sys.executable} {FAKE} garbage",
                "--timeout",
                "3",
            ]
        )
        == 2
    )
    # garbage only on melds holding 7C; the smoke meld is 7C 7D 7H
    out = capsys.readouterr().out
    assert "BROKEN: query meld: garbage" in out


def test_expect_fail_must_keep_failing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "xfail.txt"
    stale.write_text("q.meld.7c7d7h  # believed broken\n")
    some = next(c.id for c in _meld_cases())
    stale.write_text(f"{some}  # believed broken\n")
    code = main(
        [
            "conform",
            "--adapter",
            "reference",
            "--cases",
            some,
            "--expect-fail",
            str(stale),
            "--no-progress",
        ]
    )
    assert code == 1
    assert "1 unexpected passes" in capsys.readouterr().out


def test_expect_fail_keeps_a_wrong_engine_green(tmp_path: Path) -> None:
    ids = [c.id for c in _meld_cases()]
    listing = tmp_path / "xfail.json"
    listing.write_text(json.dumps({i: "known: melds inverted" for i in ids}))
    code = main(
        [
            "conform",
            "--adapter",
            f"cmd:{sys.executable} {FAKE} wrongmeld",
            "--cases",
            "q.meld.*",
            "--expect-fail",
            str(listing),
            "--no-progress",
        ]
    )
    assert code == 0


def test_shards_partition_the_suite() -> None:
    cases = load_cases([SUITE_DIR])
    parts = [select(cases, shard=(i, 3)) for i in (1, 2, 3)]
    assert sum(len(p) for p in parts) == len(cases)
    assert {c.id for p in parts for c in p} == {c.id for c in cases}
    assert all(in_shard(c.id, (1, 3)) for c in parts[0])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["conform", "--adapter", "nonsense"], "unknown adapter 'nonsense'"),
        (["conform", "--adapter", "python:no_such_module:X"], "cannot import 'no_such_module'"),
        (["conform", "--adapter", "python:json:JSONDecoder"], "is not a subclass"),
        (["conform", "--adapter", "reference", "--shard", "4/3"], "--shard: '4/3'"),
        (["conform", "--adapter", "cmd:/no/such/engine"], "cannot start '/no/such/engine'"),
        (["suite", "show", "no-such-case"], "no case with id 'no-such-case'"),
    ],
)
def test_bad_cli_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ginspec: error:") and message in err and "\n" not in err


def test_malformed_case_file_names_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = next(SUITE_DIR.glob("cases/query/q.meld.*.json"))
    data = json.loads(source.read_text())
    data["query"]["cards"][0] = "1Z"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["conform", "--adapter", "reference", "--suite", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: query/cards/0:" in err


def test_reports_are_written(tmp_path: Path) -> None:
    jsonl, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    code = main(
        [
            "conform",
            "--adapter",
            "reference",
            "--cases",
            "q.knock.*",
            "--json",
            str(jsonl),
            "--junit",
            str(junit),
            "--no-progress",
        ]
    )
    assert code == 0
    lines = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["versions"]["protocol"] == PROTOCOL_VERSION
    assert lines[-1]["type"] == "footer" and lines[-1]["counts"]["pass"] == len(lines) - 2
    assert "<testcase" in junit.read_text()


def test_invented_action_is_an_adapter_error() -> None:
    hands = [c for c in load_cases([SUITE_DIR]) if c.kind == "hand"
             and any("legal_actions" in p for p in c.checkpoints)][:3]
    adapter = CommandAdapter([sys.executable, str(FAKE), "invent"], timeout=10.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(hands)
    finally:
        adapter.close()
    assert summary.count("error") == len(hands)
    assert all("steal-the-stock" in o.message and o.message.startswith("protocol")
               for o in summary.outcomes)

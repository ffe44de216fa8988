"""HTML report, pytest plugin, live differential mode and the protocol's JSON Schemas."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cli import main
from ginspec.conformance.serve import handle
from ginspec.conformance.versions import PROTOCOL_VERSION
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

SCHEMA = Path(__file__).resolve().parents[1] / "conformance" / "schema" / "protocol.schema.json"


def test_html_report_draws_failures_with_cards_and_clause_text(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code = main(["conform", "--adapter", "python:ginspec.conformance.mutants:LayoffOntoDeadwood",
                 "--cases", "reject.layoff-no-such-meld.*", "--html", str(page), "--no-progress"])
    assert code == 1
    text = page.read_text()
    assert '<div class="failure" id="reject.layoff-no-such-meld.' in text
    assert 'class="card' in text and "LAYOFF.TARGET — §" in text
    assert 'class="diverge"' in text and "rejected LAYOFF_NO_SUCH_MELD" in text
    assert "<script" not in text and "http" not in text.split("</style>")[1].split("<h2>")[0]


def test_pytest_plugin_runs_one_item_per_case(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA",
            "--ginspec-adapter=python:ginspec.conformance.mutants:AceIsOne",
            "--ginspec-cases=spec.notation-*"]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "FAILED ginspec::spec.notation-ace-is-not-1" in proc.stdout
    assert "PASSED ginspec::spec.notation-canonical" in proc.stdout
    assert "[CARD.NOTATION]" in proc.stdout


def test_live_mode_shrinks_a_divergence_to_a_case_file(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    mutant = "python:ginspec.conformance.mutants:DiscardRestrictionOff"
    code = main(["conform", "--live", "--adapter", mutant, "--profile", "pagat", "--seed", "1",
                 "--hands", "20", "--max-new", "1", "--out", str(tmp_path)])
    assert code == 1
    [case_file] = tmp_path.glob("live.pagat.*.json")
    case = json.loads(case_file.read_text())
    assert len(case["steps"]) <= 3
    assert "divergence" in capsys.readouterr().out
    assert main(["conform", "--adapter", mutant, "--suite", str(case_file)]) == 1
    assert main(["conform", "--adapter", "reference", "--suite", str(case_file)]) == 0
    # the same --seed replays the same play: a second run writes the same case, byte for byte
    again = tmp_path / "again"
    assert main(["conform", "--live", "--adapter", mutant, "--profile", "pagat", "--seed", "1",
                 "--hands", "20", "--max-new", "1", "--out", str(again)]) == 1
    [again_file] = again.glob("live.pagat.*.json")
    assert again_file.read_bytes() == case_file.read_bytes()


def test_live_mode_finds_nothing_against_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--live", "--adapter", "reference", "--profile", "hoyle", "--seed",
                 "3", "--hands", "3"]) == 0
    assert re.search(r"no divergence in \d+ hand\(s\) of hoyle", capsys.readouterr().out)


def test_served_messages_follow_the_protocol_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    defs = schema["$defs"]

    def validator(ref: dict[str, object]) -> Draft202012Validator:
        return Draft202012Validator({**ref, "$defs": defs})

    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    requests = [
        {"seq": 1, "cmd": "hello", "protocol": PROTOCOL_VERSION},
        {"seq": 2, "cmd": "query", "what": "deadwood", "profile": None, "overrides": {},
         "cards": ["7C", "7D", "7H", "KS"]},
        {"seq": 2, "cmd": "query", "what": "match", "profile": "pagat", "overrides": {},
         "hands": [[0, "gin", 0, 40], ["void"], [1, "knock", 2, 40]]},
        {"seq": 3, "cmd": "new_hand", "profile": "pagat", "overrides": {},
         "deal": {"dealer": 0, "deck": deck}},
        {"seq": 4, "cmd": "legal_actions"},
        {"seq": 5, "cmd": "apply", "player": 0, "action": "draw-stock"},
        {"seq": 6, "cmd": "apply", "player": 1, "action": "pass"},
        {"seq": 7, "cmd": "observe"},
        {"seq": 8, "cmd": "result"},
        {"seq": 9, "cmd": "stop"},
    ]
    adapter = ReferenceAdapter()
    for request in requests:
        validator(defs["request"]).validate(request)
        reply, _ = handle(adapter, request)
        assert "error" not in reply, reply
        validator(defs["reply_to"]["properties"][request["cmd"]]).validate(reply)
    reply, _ = handle(adapter, {"seq": 10, "cmd": "apply", "player": 1, "action": "discard 7H"})
    assert reply["accepted"] is False and reply["code"]
    declined = {"seq": 11, "unsupported": "no big gin here"}
    for cmd in ("query", "new_hand", "new_match"):
        validator(defs["reply_to"]["properties"][cmd]).validate(declined)
    with pytest.raises(ValidationError):
        validator(defs["reply_to"]["properties"]["apply"]).validate({"seq": 12})

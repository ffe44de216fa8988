"""Adapter processes under control: process groups, timeouts, seq matching, the restart
budget, python: timeouts, bounded replies, and the fault harness on a fast subset of cases."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import AdapterFault, JSONObject
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter, reply_problem
from ginspec.conformance.adapters.timed import TimedAdapter
from ginspec.conformance.cases import Case, load_cases
from ginspec.conformance.cli import main
from ginspec.conformance.faults import BASELINE, FAULTS, MARK, _marked_processes, case_key, run_fault, triggered
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner
from hypothesis import given, settings
from hypothesis import strategies as st

PY = sys.executable


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """Every triggered case of each kind, and a few untouched ones around them."""
    # (the engine-deal checks carry no deck: the reference, which deals from one, skips them)
    everything = [c for c in load_cases([SUITE_DIR]) if all("deck" in d for d in c.deals)]
    hit = [c for c in everything if triggered(*case_key(c))]
    picked: dict[str, Case] = {}
    for c in hit:
        picked.setdefault(c.kind, c)
    calm = [c for c in everything if not triggered(*case_key(c))]
    chosen = {c.id for c in [*picked.values(), *calm[::150]]}
    return [c for c in everything if c.id in chosen]


@pytest.fixture(scope="module")
def baseline(cases: list[Case]) -> dict[str, str]:
    return _baseline(cases)


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> str:
    """A mark every adapter process started by the test inherits (to find survivors)."""
    mark = f"test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv(MARK, mark)
    return mark


def _baseline(cases: list[Case]) -> dict[str, str]:
    """The reference's own statuses, in-process (what a fault must leave unchanged)."""
    adapter = ReferenceAdapter()
    return {o.case.id: o.status for o in Runner(adapter, adapter.hello()).run(cases).outcomes}


def _survivors(mark: str) -> list[int]:
    time.sleep(0.3)
    return [p for p in _marked_processes(mark) if p != os.getpid()]


def _faulty(kind: str, timeout: float = 8.0, shell: bool = False, startup: float = 30.0
            ) -> CommandAdapter:
    """A fauxmplementation (timeouts generous: CI machines are slow and shared)."""
    engine = [PY, "-m", "ginspec.conformance.faults", kind, str(timeout), str(startup)]
    argv = ["sh", "-c", " ".join(engine) + "; true"] if shell else engine
    return CommandAdapter(argv, timeout=timeout, startup=startup)


@pytest.mark.parametrize(("kind", "shell"), [("sh-hang", True), ("fork-hang", False)])
def test_a_hang_under_a_wrapper_or_a_child_ends_in_time(
        kind: str, shell: bool, cases: list[Case], marked: str, baseline: dict[str, str]
        ) -> None:
    adapter = _faulty(kind, timeout=5.0, shell=shell)
    start = time.monotonic()
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    hit = [o for o in summary.outcomes if triggered(*case_key(o.case))]
    assert hit and all(o.status == "error" and o.message.startswith("timeout") for o in hit)
    assert all(o.status == baseline[o.case.id] for o in summary.outcomes if o not in hit)
    # each hit case costs the timeout plus a restart, never an unbounded wait
    assert time.monotonic() - start < len(hit) * (5.0 + 30) + 60
    assert _survivors(marked) == []


def test_a_stale_hello_is_discarded_not_taken_for_the_next_answer(
        cases: list[Case], marked: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        baseline: dict[str, str]) -> None:
    monkeypatch.setenv("GINSPEC_FAULT_STATE", str(tmp_path / "state"))
    adapter = _faulty("slow-hello", startup=8.0)
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    hit = {o.case.id for o in summary.outcomes if triggered(*case_key(o.case))}
    assert {o.case.id for o in summary.outcomes if o.status != baseline[o.case.id]} == hit
    assert any("late reply to seq" in d for d in adapter.discarded)
    assert _survivors(marked) == []


@pytest.mark.parametrize(("kind", "fragment"), [
    ("duplicate", "duplicate"), ("missing-field", "protocol schema"), ("nan", "NaN"),
    ("closed-stdout", "closed its stdout but is still running"),
    ("wrong-seq", "has seq"),
])
def test_each_bad_reply_is_the_error_of_the_case_that_caused_it(
        kind: str, fragment: str, cases: list[Case], marked: str, baseline: dict[str, str]
        ) -> None:
    adapter = _faulty(kind)
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    for o in summary.outcomes:
        if triggered(*case_key(o.case)):
            assert o.status == "error" and fragment in o.message, (o.case.id, o.message)
        else:
            assert o.status == baseline[o.case.id], (o.case.id, o.message)
    assert _survivors(marked) == []


def test_an_error_reply_costs_no_restart(cases: list[Case]) -> None:
    adapter = _faulty("error-reply")
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    assert adapter.restarts == 0
    assert summary.count("error") == sum(triggered(*case_key(c)) for c in cases)


def test_the_restart_budget_ends_a_hopeless_run_quickly(cases: list[Case], marked: str) -> None:
    adapter = _faulty("crash-always")
    try:
        summary = Runner(adapter, adapter.hello(), max_restarts=2).run(cases)
    finally:
        adapter.close()
    assert summary.count("error") == len(cases)
    assert adapter.restarts == 2
    assert "failed 3 cases in a row (--max-restarts 2)" in summary.gave_up
    assert all(o.message.startswith("not run:") for o in summary.outcomes[3:])
    assert _survivors(marked) == []


def test_crash_messages_say_how_the_process_ended(cases: list[Case]) -> None:
    adapter = _faulty("crash")
    try:
        summary = Runner(adapter, adapter.hello()).run(cases)
    finally:
        adapter.close()
    errors = [o for o in summary.outcomes if o.status == "error"]
    assert errors and all("exited with code 3" in o.message for o in errors)


_FLOOD = """
import json, sys
for raw in sys.stdin:
    request = json.loads(raw)
    if request["cmd"] == "hello":
        print(json.dumps({"seq": request["seq"], "protocol": 2, "name": "flood", "version": "1",
                          "profiles": ["pagat"], "capabilities": []}), flush=True)
        pad = "x" * (3 * 2**20)  # 60 lines of 3 MB, each under the protocol's maximum
        for _ in range(60):
            sys.stdout.write(json.dumps({"seq": request["seq"], "pad": pad}) + "\\n")
        sys.stdout.flush()
"""


def _resident_mb() -> float:
    status = Path("/proc/self/status").read_text(encoding="ascii")
    return int(next(x for x in status.splitlines() if x.startswith("VmRSS:")).split()[1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_replies_the_runner_has_not_read_are_bounded(marked: str) -> None:
    """An adapter that prints 180 MB of well-formed lines while the runner is busy elsewhere:
    ginspec holds a few lines (the reader waits on the full pipe), not all of them."""
    adapter = CommandAdapter([PY, "-c", _FLOOD], timeout=8.0)
    try:
        before = _resident_mb()
        adapter.hello()
        time.sleep(4)  # the runner is starved: nothing reads the replies
        held = _resident_mb() - before
        with pytest.raises(AdapterFault, match="duplicate"):
            adapter.request("observe")
    finally:
        adapter.close()
    assert held < 40, f"{held:.0f} MB held"
    assert _survivors(marked) == []


class _Sleepy(ReferenceAdapter):
    """Hangs on meld queries of 7C (a python: adapter that never returns)."""

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "meld" and "7C" in args.get("cards", []):
            time.sleep(30)
        return super().query(what, args, profile, overrides)


def test_python_adapters_have_a_per_request_timeout() -> None:
    melds = [c for c in load_cases([SUITE_DIR]) if c.id.startswith("q.meld.")][:30]
    adapter = TimedAdapter(_Sleepy, timeout=0.5)
    start = time.monotonic()
    summary = Runner(adapter, adapter.hello()).run(melds)
    hit = [o for o in summary.outcomes if "7C" in o.case.query["cards"]]
    assert hit and all(o.status == "error" and o.message.startswith("timeout") for o in hit)
    assert summary.count("pass") == len(melds) - len(hit)
    assert time.monotonic() - start < 0.5 * len(hit) + 20


def test_the_timed_wrapper_forwards_every_adapter_method() -> None:
    from ginspec.conformance.adapters.base import Adapter

    public = {name for name in dir(Adapter) if not name.startswith("_")}
    assert public <= set(vars(TimedAdapter)), public - set(vars(TimedAdapter))


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "soon"])
def test_timeouts_are_finite_and_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--adapter", "reference", "--timeout", value]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ginspec: error:") and "--timeout" in err and "\n" not in err


def test_a_nul_byte_in_the_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--adapter", "cmd:eng\0ine"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ginspec: error: --adapter: cannot start") and "\n" not in err


def test_an_adapter_that_declares_nothing_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "--adapter", "python:tests.conformance_fakes.empty:Nothing",
                 "--no-progress"])
    assert code == 2
    assert "declares nothing that could run" in capsys.readouterr().err


def test_sigterm_keeps_the_reports_and_ends_the_adapter(tmp_path: Path) -> None:
    fault = next(f for f in FAULTS if f.name == "sigterm")
    everything = load_cases([SUITE_DIR])
    row = run_fault(fault, everything, [], timeout=8.0, max_restarts=3, limit=600, startup=30.0,
                    baseline=_baseline(everything))
    assert row.finished and row.exit_code == 143 and row.orphans == 0
    assert row.statuses_right, row.note
    assert 0 < row.lines < len(everything)


@pytest.mark.parametrize("name", ["markup", "stderr-flood", "vanish", "bad-protocol", "huge"])
def test_fault_harness_rows(name: str, cases: list[Case], tmp_path: Path,
                            baseline: dict[str, str]) -> None:
    """A fast subset of ``ginspec faults``: the run finishes, nothing is lost, the statuses
    are right, the reports parse, nothing survives."""
    suite = tmp_path / "suite"
    suite.mkdir()
    for case in cases:
        source = next(SUITE_DIR.glob(f"cases/*/{case.id}.json"))
        shutil.copy(source, suite / source.name)
    fault = next(f for f in FAULTS if f.name == name)
    row = run_fault(fault, cases, ["--suite", str(suite)], timeout=8.0, max_restarts=3,
                    limit=600, startup=30.0, baseline=baseline)
    assert row.finished and row.orphans == 0
    assert row.statuses_right, row.note
    if fault.expect != "refused":
        assert row.lines == len(cases)
    if name == "huge" and row.peak_mb is not None:  # 50 MB lines are skipped, never held:
        # ginspec's own peak (measured in the exec'd process) stays within a few 4 MB lines of
        # the same run without the fault
        calm = run_fault(BASELINE, cases, ["--suite", str(suite)], timeout=8.0, max_restarts=3,
                         limit=600, startup=30.0, baseline=baseline)
        assert calm.peak_mb is not None
        assert row.peak_mb < calm.peak_mb + 25, (row.peak_mb, calm.peak_mb)


_REPLY = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=3)
    | st.sampled_from(["draw", "7H", "chance"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["seq", "answer", "ok", "accepted", "code", "actions", "observation",
                         "phase", "to_act", "result", "unsupported", "name", "version",
                         "protocol", "profiles", "capabilities", "hand_sizes", "stock_size",
                         "discard_top"]), inner, max_size=6),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["hello", "query", "new_hand", "apply", "observe", "result",
                        "legal_actions", "stop"]), _REPLY)
def test_the_fast_reply_check_agrees_with_jsonschema(cmd: str, reply: Any) -> None:
    import jsonschema

    schema = json.loads((SUITE_DIR.parent / "schema" / "protocol.schema.json").read_text())
    full = {**schema, "$ref": f"#/$defs/reply_to/properties/{cmd}"}
    valid = jsonschema.Draft202012Validator(full).is_valid(reply)
    ours = reply_problem(cmd, reply) if isinstance(reply, dict) else "not an object"
    assert (ours is None) == valid, ours


def test_a_fault_that_hits_no_selected_case_wants_a_clean_run(cases: list[Case], tmp_path: Path,
                                                              baseline: dict[str, str]) -> None:
    """``ginspec faults --cases GLOB`` on cases the fault never acts on: the right verdict is the
    baseline's exit code (0 here), not 2."""
    calm = [c for c in cases if not triggered(*case_key(c))][:4]
    suite = tmp_path / "suite"
    suite.mkdir()
    for case in calm:
        source = next(SUITE_DIR.glob(f"cases/*/{case.id}.json"))
        shutil.copy(source, suite / source.name)
    fault = next(f for f in FAULTS if f.name == "crash")
    row = run_fault(fault, calm, ["--suite", str(suite)], timeout=8.0, max_restarts=3,
                    limit=600, startup=30.0, baseline={c.id: baseline[c.id] for c in calm})
    assert row.finished and row.exit_code == 0 and row.lines == len(calm)
    assert row.statuses_right, row.note


# --- small faults -------------------------------------------------------------------

_REPLYING = """
import json, sys
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.serve import handle
adapter = ReferenceAdapter()
for line in sys.stdin:
    request = json.loads(line)
    reply = handle(adapter, request)[0]
    reply["seq"] = {seq}
    print(json.dumps(reply), flush=True)
"""


@pytest.mark.parametrize(("seq", "accepted"), [("request['seq']", True),
                                               ("float(request['seq'])", False)])
def test_a_seq_must_be_an_integer(seq: str, accepted: bool) -> None:
    """The protocol schema's ``seq`` is an integer: 1.0 is not the reply to request 1."""
    adapter = CommandAdapter([PY, "-c", _REPLYING.format(seq=seq)], timeout=20.0)
    try:
        if accepted:
            assert adapter.hello().name
        else:
            with pytest.raises(AdapterFault) as caught:
                adapter.hello()
            assert caught.value.kind == "protocol" and "seq 1.0" in str(caught.value)
    finally:
        adapter.close()


_HELLO_ONCE = """
import json, os, sys
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.serve import handle
marker = sys.argv[1]
first = not os.path.exists(marker)
open(marker, "a").close()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "hello" and first:
        print(json.dumps(handle(ReferenceAdapter(), request)[0]), flush=True)
"""


def test_a_restarted_adapter_that_never_says_hello_is_a_start_up_failure(tmp_path: Path) -> None:
    """Started once, it answers hello and then nothing; restarted, it never answers hello. The
    cases after the restart blame the start-up (hello), not the request that found it dead."""
    script = tmp_path / "once.py"
    script.write_text(_HELLO_ONCE)
    report = tmp_path / "run.jsonl"
    code = main(["conform", "--adapter", f"cmd:{PY} {script} {tmp_path / 'started'}",
                 "--cases", "q.deadwood.*", "--timeout", "1", "--startup-timeout", "1",
                 "--max-restarts", "1", "--json", str(report), "--no-progress"])
    assert code == 2
    lines = [json.loads(x) for x in report.read_text().splitlines()]
    cases = [x for x in lines if x["type"] == "case"]
    assert "no reply to query" in cases[0]["message"]  # the first: the running process hung
    after = cases[1]["message"]
    assert "start-up failed" in after and "never answered hello" in after, after
    assert "start-up failed" in lines[-1]["gave_up"]


def test_startup_timeout_may_be_below_the_timeout(tmp_path: Path) -> None:
    from ginspec.conformance.adapters.subprocess_adapter import STARTUP_TIMEOUT

    assert CommandAdapter(["x"], timeout=10.0, startup=1.0).startup == 1.0
    assert CommandAdapter(["x"], timeout=2.0).startup == STARTUP_TIMEOUT
    assert CommandAdapter(["x"], timeout=STARTUP_TIMEOUT * 2).startup == STARTUP_TIMEOUT * 2
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    start = time.monotonic()
    code = main(["conform", "--adapter", f"cmd:{PY} {silent}", "--timeout", "60",
                 "--startup-timeout", "1", "--cases", "q.deadwood.*", "--no-progress"])
    assert code == 2 and time.monotonic() - start < 30

"""Fauxmplementations: fault-injecting adapters, and the harness that runs the suite through each.

``python -m ginspec.conformance.faults KIND`` serves the reference over the protocol (like
``ginspec serve``) but misbehaves, as :data:`FAULTS` describes, on the *triggered* cases: those
whose opening request hashes into a fixed residue class (:func:`triggered`), chosen per case kind
so that query, hand, match and table cases are all hit. A query case is hit at its query; a
hand, match or table case at the request after its opening one (mid-case). Some faults act at
``hello`` or on every case instead.

``ginspec faults`` runs ``ginspec conform`` (a real subprocess) against each fauxmplementation
and prints one row per fault: did the run finish, its exit code, result lines written against
cases selected, whether every status is the one the fault calls for (an adapter error naming the
fault on the triggered cases, the reference's own pass elsewhere), processes of the run still
alive afterwards (orphans), seconds, and ginspec's own peak memory (measured inside the
exec'd process: :func:`run_measured`). ``docs/reliability.md`` holds the table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from ginspec.conformance.adapters.base import Adapter
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case, load_case
from ginspec.conformance.cli import main as cli
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.runner import Runner
from ginspec.conformance.serve import handle

TRIGGER_MODULUS: Final[dict[str, int]] = {"query": 200, "hand": 100, "table-hand": 16,
                                           "match": 3}
"""One case in N of each kind is triggered (a few of each kind in the suite)."""

MARK: Final = "GINSPEC_FAULT_RUN"
"""Environment variable every process of a harness run inherits (how orphans are found)."""


@dataclass(frozen=True)
class Fault:
    """One fault kind: what the fauxmplementation does, and what the run must report."""

    name: str
    does: str
    expect: str
    """``error`` (triggered cases are adapter errors whose message holds :attr:`reason`),
    ``pass`` (the fault is harmless: every case passes), ``refused`` (the run stops at hello:
    exit 2, one line), ``give-up`` (the cases from the first trigger on are adapter errors),
    ``interrupted`` (SIGTERM mid-run: what ran is reported)."""
    reason: str = ""
    """What the error message of a hit case must contain (``a|b``: either)."""
    wrapper: bool = False
    """Started as ``sh -c '...; true'`` (the shell stays the parent of the engine)."""


BASELINE: Final = Fault("none", "serves the reference as it is: the baseline every other row is "
                        "judged against", "baseline")

FAULTS: Final[tuple[Fault, ...]] = (
    Fault("crash", "exits with code 3", "error", "crash: the adapter exited with code 3"),
    Fault("hang", "stops answering (sleeps)", "error", "timeout"),
    Fault("sh-hang", "hangs under a shell wrapper (sh -c '...; true')", "error", "timeout",
          wrapper=True),
    Fault("fork-hang", "forks a child that holds stdout open, then exits", "error", "timeout"),
    Fault("slow", "answers 0.5 s after the timeout", "error", "timeout"),
    Fault("slow-hello", "a restarted process answers hello 0.5 s after the startup timeout "
          "(its late reply must not be taken for the next case's)", "error", "crash"),
    Fault("garbage", "prints a line that is not JSON", "error", "garbage"),
    Fault("non-object", "prints a JSON array", "error", "garbage: reply to"),
    Fault("bad-utf8", "prints bytes that are not UTF-8", "error", "not UTF-8"),
    Fault("nan", "answers with NaN in the reply", "error", "NaN is not a JSON number"),
    Fault("partial", "prints half a reply, no newline, then hangs", "error", "timeout"),
    Fault("huge", "prints a 50 MB line before the reply", "error", "longer than|timeout"),
    Fault("wrong-seq", "answers with a seq never sent", "error", "protocol: reply to"),
    Fault("duplicate", "answers twice", "error", "duplicate"),
    Fault("missing-field", "leaves out the reply's field (answer, accepted, observation, "
          "result)", "error", "protocol schema"),
    Fault("unknown-fields", "adds fields the protocol does not define", "pass"),
    Fault("error-reply", "answers with a well-formed error (no restart needed)", "error",
          "error: the adapter reported an error"),
    Fault("stderr-flood", "writes 2 MB of ANSI escapes and control characters to stderr, "
          "then exits", "error", "crash"),
    Fault("closed-stdout", "closes its stdout and keeps running", "error",
          "closed its stdout but is still running"),
    Fault("markup", "names itself and answers errors in rich markup, HTML and ANSI", "error",
          "[/]"),
    Fault("bad-protocol", "says it speaks protocol 99 at hello", "refused", "protocol 99"),
    Fault("crash-always", "exits at every case's first request", "give-up", "in a row"),
    Fault("vanish", "deletes its own launcher, then crashes (the restart cannot start it)",
          "give-up", "cannot start"),
    Fault("sigterm", "is fine; the harness sends SIGTERM to ginspec mid-run", "interrupted"),
)
FAULT_NAMES: Final = tuple(f.name for f in FAULTS)
Baseline = Mapping[str, str]
"""Case ID -> the status the reference itself gets (through the protocol, no fault)."""


# --- which cases a fault hits ------------------------------------------------------------------

def _key(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def request_key(request: Mapping[str, Any]) -> tuple[str, str] | None:
    """(case kind, key) of a case's opening request, or None for other requests."""
    cmd = request.get("cmd")
    if cmd == "query":
        body = {k: v for k, v in request.items() if k not in ("seq", "cmd", "profile",
                                                              "overrides")}
        return "query", _key(body)
    if cmd in ("new_hand", "new_table_hand"):
        kind = "hand" if cmd == "new_hand" else "table-hand"
        return kind, _key(request.get("deal"))
    if cmd == "new_match":
        deals = request.get("deals") or [None]
        return "match", _key(deals[0])
    return None


def case_key(case: Case) -> tuple[str, str]:
    """The same (kind, key) computed from a case file (how the harness knows the hit cases)."""
    if case.kind == "query":
        return "query", _key(dict(case.query))
    return case.kind, _key(dict(case.deals[0]))


def triggered(kind: str, key: str) -> bool:
    return int(key[:8], 16) % TRIGGER_MODULUS.get(kind, 1) == 0


# --- the fauxmplementation -----------------------------------------------------------------

def _write(out: IO[bytes], data: bytes) -> None:
    out.write(data)
    out.flush()


def _misbehave(fault: str, request: dict[str, Any], reply: dict[str, Any], out: IO[bytes],
               timeout: float) -> bool:
    """Act out ``fault`` on this request; True when the reply was written (or never will be)."""
    line = (json.dumps(reply) + "\n").encode()
    if fault in ("crash", "crash-always", "vanish"):
        if fault == "vanish":
            Path(os.environ["GINSPEC_FAULT_LAUNCHER"]).unlink(missing_ok=True)
        sys.exit(3)
    if fault in ("hang", "sh-hang"):
        time.sleep(3600)
    if fault == "fork-hang":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        os._exit(0)
    if fault == "slow":
        time.sleep(timeout + 0.5)
        return False
    if fault == "garbage":
        _write(out, b"this is not json\n")
    elif fault == "non-object":
        _write(out, b"[1, 2, 3]\n")
    elif fault == "bad-utf8":
        _write(out, b'{"seq": ' + str(request["seq"]).encode() + b', "x": "\xff\xfe"}\n')
    elif fault == "nan":
        _write(out, line.replace(b"{", b'{"value": NaN, ', 1))
    elif fault == "partial":
        _write(out, line[: len(line) // 2])
        time.sleep(3600)
    elif fault == "huge":
        for _ in range(50):
            out.write(b"x" * 2**20)
        _write(out, b"\n" + line)
    elif fault == "wrong-seq":
        _write(out, (json.dumps({**reply, "seq": int(request["seq"]) + 1000}) + "\n").encode())
    elif fault == "duplicate":
        _write(out, line + line)
    elif fault == "missing-field":
        trimmed = {k: v for k, v in reply.items()
                   if k not in ("answer", "ok", "accepted", "observation", "result", "actions")}
        _write(out, (json.dumps(trimmed) + "\n").encode())
    elif fault == "unknown-fields":
        _write(out, (json.dumps({**reply, "x-engine": {"note": "extra"}, "zzz": [1]}) + "\n")
               .encode())
    elif fault in ("error-reply", "markup"):
        text = "[/] [bold]<script>]]>\x1b[31m\x07" if fault == "markup" else "engine said no"
        _write(out, (json.dumps({"seq": request["seq"], "error": {"message": text}}) + "\n")
               .encode())
    elif fault == "stderr-flood":
        junk = ("\x1b[31mred\x1b[0m \x00\x01\x08 [/] <b>]]>" * 64 + "\n").encode()
        for _ in range(2 * 2**20 // len(junk)):
            sys.stderr.buffer.write(junk)
        sys.stderr.flush()
        sys.exit(4)
    elif fault == "closed-stdout":
        with contextlib.suppress(OSError):
            out.close()
        with contextlib.suppress(OSError):
            os.close(1)
        time.sleep(3600)
    else:
        return False
    return True


def _age() -> float:
    """Seconds since this process started (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _warm_up(adapter: Adapter) -> None:
    """Play one suite case of each kind before serving: the reference's first use of each code
    path (imports, caches) then costs start-up time, covered by ``--startup-timeout``, and only
    the injected fault ever decides whether a request is answered in time."""

    runner = Runner(adapter, adapter.hello())
    for kind in ("query", "hand", "table-hand", "match"):
        for path in sorted((SUITE_DIR / "cases" / kind).glob("*.json"))[:3]:
            runner.run_case(load_case(path))


def serve_faulty(fault: str, stdin: IO[bytes], out: IO[bytes], timeout: float,
                 startup: float) -> int:
    """The reference over the protocol, with ``fault`` acted out on the triggered cases."""

    adapter = ReferenceAdapter()
    _warm_up(adapter)
    state = os.environ.get("GINSPEC_FAULT_STATE", "")
    restarted = bool(state) and Path(state).exists()
    if state and not restarted:
        Path(state).write_text("started\n", encoding="utf-8")
    armed = False
    for raw in stdin:
        request = json.loads(raw)
        reply, stop = handle(adapter, request)
        cmd = request.get("cmd")
        if cmd == "hello":
            if fault == "markup":
                reply["name"] = "[/]<b>\x1b[2J"
            if fault == "bad-protocol":
                reply["protocol"] = 99
            if fault == "slow-hello" and restarted:  # 0.5 s after the runner stops waiting
                time.sleep(max(0.0, startup + 0.5 - _age()))
        opening = request_key(request)
        fire = False
        if opening is not None:
            armed = False
            hit = fault == "crash-always" or triggered(*opening)
            if hit and opening[0] == "query":
                fire = True
            elif hit:
                armed = True
        elif armed and cmd != "hello":
            armed, fire = False, True
        if fault == "slow-hello" and fire:  # crash, so that the next start is a restart
            sys.exit(5)
        if fire and _misbehave(fault, request, reply, out, timeout):
            continue
        _write(out, (json.dumps(reply) + "\n").encode())
        if stop:
            return 0
    return 0


# --- the harness ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    fault: str
    finished: bool
    exit_code: int | None
    lines: int
    cases: int
    statuses_right: bool
    orphans: int
    seconds: float
    peak_mb: float | None
    """ginspec's own peak resident size (MB, after exec; None when it was killed or unknown)."""
    note: str = ""
    statuses: Mapping[str, str] = field(default_factory=dict, repr=False)


def _marked_processes(mark: str) -> list[int]:
    """Live processes (zombies included) whose environment carries ``MARK=mark``."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def expected_status(fault: Fault, case: Case, hit: bool, after_first: bool,
                    baseline: Baseline) -> tuple[str, str]:
    """The status (and a message fragment) ``fault`` calls for on ``case``: an adapter error
    where the fault acts, else the reference's own status."""
    if fault.expect == "give-up" and after_first:  # the reason is checked on the run as a whole
        return "error", ""
    if fault.expect == "error" and hit:
        return "error", fault.reason
    return baseline.get(case.id, "pass"), ""


def run_fault(fault: Fault, cases: Sequence[Case], suite_args: Sequence[str], timeout: float,
              max_restarts: int, limit: float, startup: float = 10.0,
              baseline: Baseline | None = None) -> Row:
    """``ginspec conform`` against one fauxmplementation; one row of the table."""
    with tempfile.TemporaryDirectory(prefix="ginspec-fault-") as tmp:
        work = Path(tmp)
        report = work / "run.jsonl"
        junit = work / "run.xml"
        mark = f"{fault.name}-{os.getpid()}-{time.monotonic_ns()}"
        launcher = work / "engine.sh"
        engine = f"{sys.executable} -m ginspec.conformance.faults {fault.name} {timeout} {startup}"
        launcher.write_text(f"#!/bin/sh\nexec {engine}\n", encoding="utf-8")
        launcher.chmod(0o755)
        if fault.wrapper:
            spec = f"cmd:sh -c '{engine}; true'"
        elif fault.name == "vanish":
            spec = f"cmd:{launcher}"
        else:
            spec = f"cmd:{engine}"
        env = {**os.environ, MARK: mark, "GINSPEC_FAULT_STATE": str(work / "state"),
               "GINSPEC_FAULT_LAUNCHER": str(launcher)}
        peak_file = work / "peak"
        argv = [sys.executable, "-m", "ginspec.conformance.faults", "--peak", str(peak_file),
                "conform", "--adapter", spec,
                "--timeout", str(timeout), "--startup-timeout", str(startup),
                "--max-restarts", str(max_restarts), "--no-progress",
                "--json", str(report), "--junit", str(junit), *suite_args]
        start = time.monotonic()
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err: list[bytes] = []
        reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))  # type: ignore[union-attr]
        reader.start()
        if fault.expect == "interrupted":  # once some cases are reported: SIGTERM
            while time.monotonic() - start < limit and _case_lines(report) < 20:
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
        code, finished = _wait(proc.pid, start + limit)
        seconds = time.monotonic() - start
        peak = _read_peak(peak_file)
        reader.join(timeout=5)
        proc.returncode = code
        time.sleep(0.2)
        orphans = [pid for pid in _marked_processes(mark) if pid != proc.pid]
        for pid in orphans:  # never leave them behind, even when the run did
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        lines, right, note, statuses = _judge(fault, cases, report, junit, code, b"".join(err),
                                              baseline or {})
        return Row(fault.name, finished, code, lines, len(cases), right, len(orphans), seconds,
                   peak, note, statuses)


def _case_lines(report: Path) -> int:
    try:
        return report.read_bytes().count(b'"type": "case"')
    except OSError:
        return 0


def _wait(pid: int, deadline: float) -> tuple[int | None, bool]:
    """Exit code and whether the run ended in time; a run still going at ``deadline`` is
    killed."""
    finished = True
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            finished = False
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            done, status = os.waitpid(pid, 0)
            break
        time.sleep(0.05)
    return os.waitstatus_to_exitcode(status), finished


def peak_mb() -> float | None:
    """This process's peak resident size in MB since it was exec'd (Linux ``VmHWM``; None
    elsewhere). Unlike ``ru_maxrss`` it does not count what a forked child inherited from its
    parent before exec (a child of a large test worker would start at the worker's size)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def run_measured(peak_file: Path, argv: Sequence[str]) -> int:
    """``ginspec ARGV`` in this process, then its peak resident size (:func:`peak_mb`) written
    to ``peak_file`` (how the harness measures ginspec's own memory, adapters excluded)."""

    try:
        return cli(list(argv))
    finally:
        peak = peak_mb()
        peak_file.write_text("" if peak is None else f"{peak:.1f}\n", encoding="ascii")


def _read_peak(peak_file: Path) -> float | None:
    try:
        return float(peak_file.read_text(encoding="ascii"))
    except (OSError, ValueError):  # killed at the limit, or no /proc
        return None


def _judge(fault: Fault, cases: Sequence[Case], report: Path, junit: Path, code: int | None,
           err: bytes, baseline: Baseline) -> tuple[int, bool, str, dict[str, str]]:
    """Result lines written, whether every status and the exit code are what ``fault`` calls
    for (with a note on the first one that is not), and the statuses."""
    stderr = err.decode("utf-8", "replace").strip()
    if fault.expect == "refused":
        ok = code == 2 and stderr.count("\n") == 0 and fault.reason in stderr
        return 0, ok, "" if ok else f"exit {code}: {stderr[-200:]}", {}
    if "Traceback" in stderr:
        return 0, False, "traceback: " + stderr.splitlines()[-1][:200], {}
    try:
        entries = [json.loads(line, parse_constant=_refuse)
                   for line in report.read_text(encoding="utf-8").splitlines()]
        import xml.etree.ElementTree as ET

        ET.parse(junit)
    except (OSError, ValueError) as exc:
        return 0, False, f"exit {code}, report unreadable: {exc}; {stderr[-200:]}", {}
    results = {e["id"]: e for e in entries if e.get("type") == "case"}
    statuses = {i: str(e["status"]) for i, e in results.items()}
    if fault.expect == "baseline":
        ok = len(results) == len(cases) and code in (0, 1)
        counts = ", ".join(f"{list(statuses.values()).count(s)} {s}" for s in sorted(set(statuses.values())))
        return len(results), ok, f"baseline: {counts}", statuses
    by_id = {c.id: c for c in cases}
    ran = {case_id: i for i, case_id in enumerate(results)}  # the order the run played them in
    position = {c.id: ran.get(c.id, len(cases) + i) for i, c in enumerate(cases)}
    first = min((position[c.id] for c in cases if triggered(*case_key(c))), default=len(cases) * 2)
    if fault.name == "crash-always":
        first = 0
    if fault.expect == "interrupted":
        wrong = [i for i, e in results.items()
                 if i not in by_id or e["status"] != baseline.get(i, "pass")]
        ok = code == 143 and not wrong and 0 < len(results) < len(cases)
        return len(results), ok, "" if ok else f"exit {code}, wrong {wrong[:3]}", statuses
    wrong = []
    acted = False  # did the fault act on any selected case (then the run must exit 2)?
    for case in cases:
        want, fragment = expected_status(fault, case, triggered(*case_key(case)),
                                         position[case.id] >= first, baseline)
        acted = acted or want == "error"
        got = results.get(case.id)
        message = got.get("message", "") if got else ""
        if got is None or got["status"] != want or \
                not any(part in message for part in fragment.split("|")):
            wrong.append(f"{case.id}: {got and got['status']} {got and got.get('message', '')[:80]}"
                         f" (want {want} {fragment})")
    if fault.expect == "give-up" and not any(fault.reason in e.get("message", "")
                                             for e in results.values()):
        wrong.append(f"no case names the reason {fault.reason!r}")
    clean = 1 if any(s in ("fail", "xpass") for s in baseline.values()) else 0
    want_code = 2 if acted else clean
    ok = not wrong and code == want_code
    note = wrong[0] if wrong else ("" if ok else f"exit {code}, want {want_code}")
    return len(results), ok, note, statuses


def _refuse(name: str) -> None:
    raise ValueError(f"{name} in a JSON-lines report")


def run_harness(faults: Sequence[Fault], cases: Sequence[Case], suite_args: Sequence[str],
                timeout: float, max_restarts: int, limit: float, startup: float,
                progress: Callable[[Row], None] | None = None) -> Iterator[Row]:
    """The baseline row first, then one row per fault judged against it."""
    base = run_fault(BASELINE, cases, suite_args, timeout, max_restarts, limit, startup)
    if progress:
        progress(base)
    yield base
    for fault in faults:
        row = run_fault(fault, cases, suite_args, timeout, max_restarts, limit, startup,
                        base.statuses)
        if progress:
            progress(row)
        yield row


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table (docs/reliability.md)."""
    does = {f.name: f.does for f in (BASELINE, *FAULTS)}
    head = ("| fault | the adapter ... | finished? | exit | result lines / cases | statuses right? "
            "| orphans | seconds | peak MB |\n|---|---|---|---|---|---|---|---|---|\n")

    def verdict(r: Row) -> str:
        text = ("yes" if r.statuses_right else "NO") + (f" ({r.note})" if r.note else "")
        return text.replace("|", "/")[:160]

    body = "".join(
        f"| {r.fault} | {does.get(r.fault, '')} | {'yes' if r.finished else 'NO'} | {r.exit_code} "
        f"| {r.lines} / {r.cases} | {verdict(r)} "
        f"| {r.orphans} | {r.seconds:.1f} | {'-' if r.peak_mb is None else f'{r.peak_mb:.0f}'} |\n"
        for r in rows)
    return head + body


def main(argv: Sequence[str]) -> int:
    """``python -m ginspec.conformance.faults KIND [TIMEOUT [STARTUP]]``: serve the reference
    with KIND; ``--peak FILE ARGS...``: run ``ginspec ARGS`` and write its peak memory to FILE."""
    if len(argv) >= 2 and argv[0] == "--peak":
        return run_measured(Path(argv[1]), argv[2:])
    if not argv or argv[0] not in (BASELINE.name, *FAULT_NAMES):
        print(f"usage: python -m ginspec.conformance.faults {{{','.join(FAULT_NAMES)}}} "
              "[TIMEOUT]", file=sys.stderr)
        return 2
    timeout = float(argv[1]) if len(argv) > 1 else 2.0
    startup = float(argv[2]) if len(argv) > 2 else 30.0
    return serve_faulty(argv[0], sys.stdin.buffer, sys.stdout.buffer, timeout, startup)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A subprocess adapter speaking the JSON-lines protocol (``conformance/PROTOCOL.md``).

One process serves many cases. The process starts in a session (and process group)
of its own, without a shell unless the command names one. Every request has a deadline
(``--timeout``); a process that exits, hangs, prints something that is not a JSON object, or a
reply the protocol schema rejects, raises :class:`AdapterFault` for that case. The runner then
calls :meth:`restart`: the whole process group is killed and reaped (children a wrapper such as
``sh -c`` or ``npm run`` started included) and a fresh process says ``hello`` again.

Replies are matched to requests by ``seq``: a late reply to an earlier request (one that timed
out) is discarded and logged in :attr:`CommandAdapter.discarded`, never taken as the answer to
another request; a second reply to a request of the current case is a protocol error of that
case. A reply line is at most :data:`MAX_REPLY_BYTES` bytes and at most :data:`QUEUED_LINES`
lines wait to be read (a process that prints faster than the runner reads waits on its full pipe),
so memory stays bounded whatever the process prints; stderr keeps its last :data:`STDERR_KEEP`
characters.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import IO, Any, Final

from ginspec.conformance.adapters.base import (
    Adapter,
    AdapterError,
    AdapterFault,
    Hello,
    JSONObject,
    Unsupported,
    Verdict,
)
from ginspec.conformance.cases.store import SCHEMA_DIR
from ginspec.conformance.versions import ACCEPTED_PROTOCOLS, PROTOCOL_VERSION
from ginspec.spec.errors import GinspecError
from ginspec.spec.inputs import parse_json

_EOF = object()
_TOO_LONG = object()
STDERR_KEEP = 4000
MAX_REPLY_BYTES = 4 * 2**20
"""The longest reply line read (the largest reference reply is under 10 kB)."""
QUEUED_LINES = 2
"""How many read reply lines may wait for the runner; the reader waits when they are full, so at
most ``(QUEUED_LINES + 2) * MAX_REPLY_BYTES`` bytes of replies are held at any time."""
STARTUP_TIMEOUT = 30.0
"""Default ``--startup-timeout``: how long a started process has to answer ``hello``."""
DISCARDED_KEEP = 50
"""How many discarded replies :attr:`CommandAdapter.discarded` remembers."""


class _ReplyError(GinspecError):
    """A reply line that is not bounded JSON (turned into an :class:`AdapterFault`)."""


def check_timeout(seconds: float) -> float:
    """A per-request timeout: a finite number of seconds above zero."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not math.isfinite(seconds) or seconds <= 0:
        raise AdapterError(f"--timeout: {seconds!r}: must be a finite number of seconds above 0")
    return float(seconds)


@cache
def _reply_schemas() -> dict[str, Any]:
    """The schema of each command's reply (``protocol.schema.json``, ``reply_to``), references
    inlined."""

    schema = json.loads((SCHEMA_DIR / "protocol.schema.json").read_text(encoding="utf-8"))
    cmds = schema["$defs"]["reply_to"]["properties"]
    return {cmd: _inline(reply, schema) for cmd, reply in cmds.items()}


REPLY_KEYWORDS: Final = frozenset({"type", "required", "properties", "additionalProperties",
                                   "items", "enum", "const", "oneOf", "minLength", "description"})
"""The JSON Schema keywords reply schemas use; :func:`reply_problem` checks exactly these (a
test compares it with ``jsonschema`` on random replies)."""


def _inline(node: Any, root: Mapping[str, Any]) -> Any:
    """``node`` with every local ``$ref`` replaced by what it points to (the protocol schema has
    no recursive references); a keyword :func:`reply_problem` does not know is refused."""
    if isinstance(node, list):
        return [_inline(v, root) for v in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target: Any = root
        for part in str(node["$ref"]).removeprefix("#/").split("/"):
            target = target[part]
        return _inline(target, root)
    unknown = set(node) - REPLY_KEYWORDS
    if unknown:
        raise AdapterError(f"protocol.schema.json: reply keyword {sorted(unknown)[0]} unsupported")
    out = {k: _inline(v, root) for k, v in node.items() if k != "properties"}
    if isinstance(node.get("additionalProperties"), bool):
        out["additionalProperties"] = node["additionalProperties"]
    if "properties" in node:
        out["properties"] = {k: _inline(v, root) for k, v in node["properties"].items()}
    return out


_TYPES: Final[dict[str, Callable[[Any], bool]]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: not isinstance(v, bool) and (
        isinstance(v, int) or (isinstance(v, float) and v.is_integer())),
    "number": lambda v: not isinstance(v, bool) and isinstance(v, (int, float)),
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality (``true`` is not ``1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
    return (numbers or type(a) is type(b)) and bool(a == b)


def _problem(schema: Mapping[str, Any], value: Any, path: str) -> str | None:
    where = path or "(top level)"
    kinds = schema.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else kinds
        if not any(_TYPES[name](value) for name in names):
            return f"{where}: {value!r:.80} is not of type {' or '.join(names)}"
    if "const" in schema and not _same(schema["const"], value):
        return f"{where}: {value!r:.80} is not {schema['const']!r}"
    if "enum" in schema and not any(_same(e, value) for e in schema["enum"]):
        return f"{where}: {value!r:.80} is not one of {schema['enum']!r:.120}"
    if "minLength" in schema and isinstance(value, str) and len(value) < schema["minLength"]:
        return f"{where}: {value!r:.80} is too short"
    if "oneOf" in schema:
        fits = [_problem(option, value, path) for option in schema["oneOf"]]
        if sum(p is None for p in fits) != 1:
            return next((p for p in fits if p), f"{where}: matches more than one form")
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                return f"{where}: {name!r} is a required property"
        known = schema.get("properties", {})
        for name, sub in known.items():
            if name in value:
                found = _problem(sub, value[name], f"{path}/{name}".lstrip("/"))
                if found:
                    return found
        extra = schema.get("additionalProperties", True)
        for name in value:
            if name in known or extra is True:
                continue
            if extra is False:
                return f"{where}: {name!r:.40} is not an allowed property"
            found = _problem(extra, value[name], f"{path}/{name}".lstrip("/"))
            if found:
                return found
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found = _problem(schema["items"], item, f"{path}/{i}".lstrip("/"))
            if found:
                return found
    return None


def reply_problem(cmd: str, reply: JSONObject) -> str | None:
    """Why ``reply`` breaks the protocol schema's reply to ``cmd`` (None when it does not)."""
    schema = _reply_schemas().get(cmd)
    return None if schema is None else _problem(schema, reply, "")


def exit_text(code: int | None) -> str:
    """How a process ended, in words."""
    if code is None:
        return "closed its stdout but is still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"


class CommandAdapter(Adapter):
    """Runs ``argv`` and talks to it over stdin/stdout, one JSON object a line."""

    def __init__(self, argv: Sequence[str], *, timeout: float = 10.0,
                 startup: float | None = None):
        self.argv = list(argv)
        self.timeout = check_timeout(timeout)
        self.startup = max(STARTUP_TIMEOUT, self.timeout) if startup is None else check_timeout(startup)
        """How long a freshly started process has to answer ``hello`` (engines start slowly):
        ``startup`` when given (also below ``timeout``), else the longer of
        :data:`STARTUP_TIMEOUT` and ``timeout``."""
        self._unanswered_hello: int | None = None
        """The seq of a restart's ``hello`` that got no reply in time (the process is kept, as
        the reply may be slow): until a reply comes, a timeout is the start-up's, not the
        request's."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(QUEUED_LINES)
        self._pushed_back: object = None
        """A line :meth:`end_case` took but left for the next request (EOF, a too-long line)."""
        self._reading = threading.Event()
        """Cleared when the process is killed: its reader stops waiting for room."""
        self._stderr: list[str] = []
        self._seq = 0
        self._case_seq = 1
        """The first seq of the current case: replies from here on belong to it."""
        self._hello: Hello | None = None
        self.restarts = 0
        self.discarded: list[str] = []
        """Late or unsolicited replies that were dropped (newest last)."""

    # --- process management ----------------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            raise AdapterError(
                f"--adapter: cannot start {self.argv[0]!r}: {exc.strerror or exc}"
            ) from None
        except ValueError as exc:  # a NUL byte in an argument
            raise AdapterError(f"--adapter: cannot start {self.argv[0][:200]!r}: {exc}") from None
        self._lines = queue.Queue(QUEUED_LINES)
        self._pushed_back = None
        self._reading = threading.Event()
        self._reading.set()
        self._stderr = []
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(
            target=self._pump, args=(self._proc.stdout, self._lines, self._reading), daemon=True
        ).start()
        threading.Thread(target=self._drain, args=(self._proc.stderr,), daemon=True).start()

    @staticmethod
    def _pump(stream: IO[bytes], out: queue.Queue[object], reading: threading.Event) -> None:
        """Reads reply lines; a line longer than MAX_REPLY_BYTES is skipped, never kept. When
        QUEUED_LINES lines wait, it waits for room (until the process is killed)."""

        def offer(item: object) -> bool:
            while reading.is_set():
                with contextlib.suppress(queue.Full):
                    out.put(item, timeout=0.2)
                    return True
            return False

        with contextlib.suppress(OSError, ValueError):
            while True:
                line = stream.readline(MAX_REPLY_BYTES + 1)
                if not line:
                    break
                if len(line) > MAX_REPLY_BYTES and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):
                        line = stream.readline(65536)
                    item: object = _TOO_LONG
                else:
                    item = line
                if not offer(item):
                    return
        offer(_EOF)

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                chunk = stream.read1(65536)  # type: ignore[attr-defined]
                if not chunk:
                    break
                self._stderr.append(chunk.decode("utf-8", "replace"))
                if sum(map(len, self._stderr)) > 4 * STDERR_KEEP:
                    self._stderr[:] = ["".join(self._stderr)[-STDERR_KEEP:]]

    def stderr_tail(self) -> str:
        return "".join(self._stderr)[-STDERR_KEEP:]

    @property
    def pid(self) -> int | None:
        """The process (and process group) ID of the running adapter, if any."""
        return self._proc.pid if self._proc is not None else None

    def _kill(self) -> None:
        """Kill the adapter's whole process group and reap the adapter."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        self._reading.clear()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            proc.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream:
                    stream.close()

    def close(self) -> None:
        """Ask the adapter to stop (2 s), then end its process group in any case."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._send({"seq": self._next_seq(), "cmd": "stop"})
                self._proc.wait(timeout=2)
            except (AdapterFault, subprocess.TimeoutExpired, OSError):
                pass
        self._kill()

    def restart(self) -> None:
        self._kill()
        self.restarts += 1
        self._spawn()
        self._unanswered_hello = None
        try:
            self._handshake()
        except AdapterFault as fault:
            if fault.kind == "timeout":
                self._unanswered_hello = self._case_seq
            raise

    # --- requests --------------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _send(self, message: JSONObject) -> None:
        if self._proc is None:
            self._spawn()
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise AdapterFault(
                "the adapter process is gone (write failed)",
                kind="crash",
                stderr=self.stderr_tail(),
            ) from None

    def _fault(self, message: str, kind: str) -> AdapterFault:
        return AdapterFault(message, kind=kind, stderr=self.stderr_tail())

    def _exit_text(self) -> str:
        proc = self._proc
        if proc is None:
            return exit_text(None)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=1)
        return exit_text(proc.poll())

    def _parse(self, line: object, cmd: str) -> JSONObject:
        if line is _EOF:
            raise self._fault(f"the adapter {self._exit_text()} during {cmd}", "crash")
        if line is _TOO_LONG:
            raise self._fault(f"reply to {cmd} is longer than {MAX_REPLY_BYTES} bytes", "garbage")
        assert isinstance(line, bytes)
        try:
            reply = parse_json(line.strip(), f"reply to {cmd}", _ReplyError)
        except _ReplyError as exc:
            raise self._fault(f"{exc} in {line[:200]!r}", "garbage") from None
        if not isinstance(reply, dict):
            raise self._fault(f"reply to {cmd} is not a JSON object: {line[:200]!r}", "garbage")
        return reply

    def end_case(self) -> None:
        """A reply waiting after the case's last request is a duplicate: the case's fault."""
        if self._proc is None:
            return
        time.sleep(0)
        try:
            line = self._next_line(0.0)
        except queue.Empty:
            return
        if line is _EOF or line is _TOO_LONG or not isinstance(line, bytes):
            self._pushed_back = line
            return
        seq: object = None
        with contextlib.suppress(GinspecError):
            parsed = parse_json(line.strip(), "reply", _ReplyError)
            seq = parsed.get("seq") if isinstance(parsed, dict) else None
        if isinstance(seq, int) and self._case_seq <= seq <= self._seq:
            raise self._fault(f"a second reply to seq {seq} (duplicate): {line[:200]!r}",
                              "protocol")
        self._discard(line, "unsolicited")

    def _next_line(self, wait: float) -> object:
        """The next reply line (or _EOF, _TOO_LONG), waiting at most ``wait`` seconds."""
        line, self._pushed_back = self._pushed_back, None
        if line is not None:
            return line
        return self._lines.get(timeout=wait) if wait > 0 else self._lines.get_nowait()

    def _discard(self, line: bytes, why: str) -> None:
        self.discarded.append(f"{why}: {line[:200]!r}")
        del self.discarded[:-DISCARDED_KEEP]

    def request(self, cmd: str, **fields: Any) -> JSONObject:
        """Send one request and return its reply; faults raise :class:`AdapterFault`.

        Waits until the reply with this request's ``seq`` arrives or the timeout runs out;
        replies to earlier cases' requests are discarded on the way."""
        return self._request(cmd, self.timeout, fields)

    def _request(self, cmd: str, wait: float, fields: Mapping[str, Any]) -> JSONObject:
        seq = self._next_seq()
        self._send({"seq": seq, "cmd": cmd, **fields})
        deadline = time.monotonic() + wait
        while True:
            try:
                line = self._next_line(max(1e-6, deadline - time.monotonic()))
            except queue.Empty:
                late = f" (discarded: {self.discarded[-1]})" if self.discarded else ""
                if self._unanswered_hello is not None and cmd != "hello":
                    raise self._fault(
                        f"start-up failed: the restarted adapter never answered hello (seq "
                        f"{self._unanswered_hello}, --startup-timeout {self.startup:g} s), so "
                        f"{cmd} got no reply within {wait:g} s either{late}", "timeout") from None
                raise self._fault(f"no reply to {cmd} within {wait:g} s{late}",
                                  "timeout") from None
            reply = self._parse(line, cmd)
            got = reply.get("seq")
            if isinstance(got, int) and not isinstance(got, bool) and got == seq:  # 5.0 is no seq
                self._unanswered_hello = None
                break
            if isinstance(got, int) and not isinstance(got, bool) and 0 < got < self._case_seq:
                assert isinstance(line, bytes)
                if got == self._unanswered_hello:  # late, but the process did start
                    self._unanswered_hello = None
                self._discard(line, f"late reply to seq {got} while waiting for {seq}")
                continue
            if isinstance(got, int) and not isinstance(got, bool) and 0 < got < seq:
                raise self._fault(f"a second reply to seq {got} (duplicate) while waiting for "
                                  f"{seq}", "protocol")
            raise self._fault(f"reply to {cmd} has seq {got!r}, expected {seq} (an integer)",
                              "protocol")
        if "error" in reply:
            err = reply["error"]
            message = err.get("message", err) if isinstance(err, dict) else err
            raise AdapterFault(
                f"the adapter reported an error on {cmd}: {message}",
                kind="error",
                stderr=str(err.get("traceback", "")) if isinstance(err, dict) else "",
            )
        problem = reply_problem(cmd, reply) if "unsupported" not in reply else None
        if problem is not None:
            raise self._fault(f"{cmd} reply breaks the protocol schema: {problem}", "protocol")
        return reply

    def _handshake(self) -> Hello:
        self._case_seq = self._seq + 1
        reply = self._request("hello", self.startup, {"protocol": PROTOCOL_VERSION})
        hello = Hello.from_json(reply)
        if hello.protocol not in ACCEPTED_PROTOCOLS:
            raise AdapterFault(
                f"the adapter speaks protocol {hello.protocol}, this runner speaks "
                f"{' or '.join(map(str, ACCEPTED_PROTOCOLS))}",
                kind="protocol",
            )
        self._hello = hello
        return hello

    def _opening(self, cmd: str, **fields: Any) -> JSONObject:
        """A case's opening request, which the adapter may decline (protocol 2):
        ``{"seq": N, "unsupported": REASON}`` raises :class:`Unsupported`."""
        self._case_seq = self._seq + 1
        reply = self.request(cmd, **fields)
        if "unsupported" in reply:
            reason = reply["unsupported"]
            if not isinstance(reason, str) or not reason.strip():
                raise AdapterFault(f"{cmd} reply: 'unsupported' must be a non-empty reason",
                                   kind="protocol")
            raise Unsupported(reason)
        return reply

    # --- the adapter interface -------------------------------------------------------------

    def hello(self) -> Hello:
        if self._hello is None:
            self._spawn()
            self._handshake()
        assert self._hello is not None
        return self._hello

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> JSONObject:
        reply = self._opening("query", what=what, profile=profile, overrides=dict(overrides),
                              **args)
        answer = reply.get("answer")
        if not isinstance(answer, dict):
            raise AdapterFault("query reply has no 'answer' object", kind="protocol")
        return answer

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        self._opening("new_hand", profile=profile, overrides=dict(overrides), deal=dict(deal))

    def new_match(
        self, profile: str, overrides: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]
    ) -> None:
        self._opening(
            "new_match", profile=profile, overrides=dict(overrides), deals=[dict(d) for d in deals]
        )

    def new_table_hand(
        self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> None:
        self._opening("new_table_hand", profile=profile, overrides=dict(overrides),
                      deal=dict(deal))

    def dealt(self) -> JSONObject:
        deal = self.request("dealt").get("deal")
        if not isinstance(deal, dict):
            raise AdapterFault("dealt reply has no 'deal' object", kind="protocol")
        return deal

    def legal_actions(self) -> list[str]:
        actions = self.request("legal_actions").get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise AdapterFault(
                "legal_actions reply has no list of strings 'actions'", kind="protocol"
            )
        return actions

    def apply(self, player: int | str, action: str) -> Verdict:
        reply = self.request("apply", player=player, action=action)
        accepted = reply.get("accepted")
        if accepted is True:
            return Verdict.ok()
        if accepted is False:
            code = reply.get("code")
            if code is not None and not isinstance(code, str):
                raise AdapterFault("apply reply: code must be a string", kind="protocol")
            return Verdict(False, code)
        raise AdapterFault("apply reply has no boolean 'accepted'", kind="protocol")

    def observe(self) -> JSONObject:
        obs = self.request("observe").get("observation")
        if not isinstance(obs, dict):
            raise AdapterFault("observe reply has no 'observation' object", kind="protocol")
        return obs

    def result(self) -> JSONObject | None:
        reply = self.request("result")
        res = reply.get("result")
        if res is not None and not isinstance(res, dict):
            raise AdapterFault("result reply: 'result' must be an object or null", kind="protocol")
        return res

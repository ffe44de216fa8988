"""A subprocess adapter speaking the JSON-lines protocol (``conformance/PROTOCOL.md``).

One process serves many cases. Every request has a timeout; a process that exits,
hangs, prints something that is not a JSON object, answers out of sequence or breaks the protocol
raises :class:`AdapterFault` for that case, and the runner calls :meth:`restart`, which starts a
fresh process (and says ``hello`` again) before the next case.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

from ginspec.conformance.adapters.base import (
    Adapter,
    AdapterError,
    AdapterFault,
    Hello,
    JSONObject,
    Unsupported,
    Verdict,
)
from ginspec.conformance.versions import ACCEPTED_PROTOCOLS, PROTOCOL_VERSION

_EOF = object()
STDERR_KEEP = 4000


class CommandAdapter(Adapter):
    """Runs ``argv`` and talks to it over stdin/stdout, one JSON object a line."""

    def __init__(self, argv: Sequence[str], *, timeout: float = 10.0):
        self.argv = list(argv)
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: list[str] = []
        self._seq = 0
        self._hello: Hello | None = None
        self.restarts = 0

    # --- process management ----------------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise AdapterError(
                f"--adapter: cannot start {self.argv[0]!r}: {exc.strerror}"
            ) from None
        self._lines = queue.Queue()
        self._stderr = []
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(
            target=self._pump, args=(self._proc.stdout, self._lines), daemon=True
        ).start()
        threading.Thread(target=self._drain, args=(self._proc.stderr,), daemon=True).start()

    @staticmethod
    def _pump(stream: IO[str], out: queue.Queue[object]) -> None:
        for line in stream:
            out.put(line)
        out.put(_EOF)

    def _drain(self, stream: IO[str]) -> None:
        for line in stream:
            self._stderr.append(line)
            if sum(map(len, self._stderr)) > 4 * STDERR_KEEP:
                del self._stderr[: len(self._stderr) // 2]

    def stderr_tail(self) -> str:
        return "".join(self._stderr)[-STDERR_KEEP:]

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def close(self) -> None:
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
        self._handshake()

    # --- requests --------------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _send(self, message: JSONObject) -> None:
        if self._proc is None:
            self._spawn()
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise AdapterFault(
                "the adapter process is gone (write failed)",
                kind="crash",
                stderr=self.stderr_tail(),
            ) from None

    def request(self, cmd: str, **fields: Any) -> JSONObject:
        """Send one request and return its reply; faults raise :class:`AdapterFault`."""
        seq = self._next_seq()
        self._send({"seq": seq, "cmd": cmd, **fields})
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AdapterFault(
                f"no reply to {cmd} within {self.timeout:g} s",
                kind="timeout",
                stderr=self.stderr_tail(),
            ) from None
        if line is _EOF:
            code = self._proc.poll() if self._proc else None
            raise AdapterFault(
                f"the adapter exited (code {code}) during {cmd}",
                kind="crash",
                stderr=self.stderr_tail(),
            )
        text = str(line).strip()
        try:
            reply = json.loads(text)
        except json.JSONDecodeError:
            raise AdapterFault(
                f"reply to {cmd} is not JSON: {text[:200]!r}",
                kind="garbage",
                stderr=self.stderr_tail(),
            ) from None
        if not isinstance(reply, dict):
            raise AdapterFault(
                f"reply to {cmd} is not a JSON object: {text[:200]!r}", kind="garbage"
            )
        if reply.get("seq") != seq:
            raise AdapterFault(
                f"reply to {cmd} has seq {reply.get('seq')!r}, expected {seq}", kind="protocol"
            )
        if "error" in reply:
            err = reply["error"]
            message = err.get("message", err) if isinstance(err, dict) else err
            raise AdapterFault(
                f"the adapter reported an error on {cmd}: {message}",
                kind="error",
                stderr=str(err.get("traceback", "")) if isinstance(err, dict) else "",
            )
        return reply

    def _handshake(self) -> Hello:
        reply = self.request("hello", protocol=PROTOCOL_VERSION)
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

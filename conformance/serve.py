"""Serving an adapter over the JSON-lines protocol (``ginspec serve``; ``conformance/PROTOCOL.md``).

The server reads one request a line from ``stdin`` and writes one reply a line to ``stdout``
(flushed after each). An exception inside the engine becomes an ``error`` reply for that request;
the server keeps going. An adapter that declines a case (raises
:class:`~ginspec.conformance.adapters.base.Unsupported` from ``query``, ``new_hand``,
``new_match`` or ``new_table_hand``) gets the reply ``{"seq": N, "unsupported": REASON}``. ``stop`` (or the end of
input) ends it.
"""

from __future__ import annotations

import json
import traceback
from typing import IO, Any

from ginspec.conformance.adapters.base import Adapter, JSONObject, Unsupported
from ginspec.conformance.versions import ACCEPTED_PROTOCOLS, PROTOCOL_VERSION
from ginspec.spec.errors import GinspecError
from ginspec.spec.inputs import parse_json


def handle(adapter: Adapter, request: Any) -> tuple[JSONObject, bool]:
    """The reply to one request, and whether to stop."""
    if not isinstance(request, dict):
        return {"seq": None, "error": {"message": "a request is a JSON object"}}, False
    seq = request.get("seq")
    cmd = request.get("cmd")
    try:
        if cmd == "hello":
            reply: JSONObject = adapter.hello().to_json()
            if request.get("protocol") not in ACCEPTED_PROTOCOLS:
                reply["warning"] = f"this server speaks protocol {PROTOCOL_VERSION}"
        elif cmd == "stop":
            adapter.close()
            return {"seq": seq, "ok": True}, True
        elif cmd == "query":
            args = {
                k: v
                for k, v in request.items()
                if k not in ("seq", "cmd", "what", "profile", "overrides")
            }
            reply = {
                "answer": adapter.query(
                    str(request["what"]),
                    args,
                    request.get("profile"),
                    request.get("overrides") or {},
                )
            }
        elif cmd == "new_hand":
            adapter.new_hand(
                str(request["profile"]), request.get("overrides") or {}, request["deal"]
            )
            reply = {"ok": True}
        elif cmd == "new_match":
            adapter.new_match(
                str(request["profile"]), request.get("overrides") or {}, request["deals"]
            )
            reply = {"ok": True}
        elif cmd == "new_table_hand":
            adapter.new_table_hand(
                str(request["profile"]), request.get("overrides") or {}, request["deal"]
            )
            reply = {"ok": True}
        elif cmd == "dealt":
            reply = {"deal": adapter.dealt()}
        elif cmd == "legal_actions":
            reply = {"actions": adapter.legal_actions()}
        elif cmd == "apply":
            player = request["player"]
            reply = adapter.apply(player if player == "chance" else int(player),
                                  str(request["action"])).to_json()
        elif cmd == "observe":
            reply = {"observation": adapter.observe()}
        elif cmd == "result":
            reply = {"result": adapter.result()}
        else:
            reply = {"error": {"message": f"unknown cmd {cmd!r}"}}
    except Unsupported as declined:
        reply = {"unsupported": declined.reason or "unsupported"}
    except Exception as exc:
        reply = {
            "error": {
                "message": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(limit=-4),
            }
        }
    return {"seq": seq, **reply}, False


def serve(adapter: Adapter, stdin: IO[str], stdout: IO[str]) -> int:
    """Answer requests until ``stop`` or end of input; returns the exit code (0)."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = parse_json(line, "request")  # bounded like every input (spec/inputs.py)
        except GinspecError as exc:
            reply: JSONObject = {"seq": None, "error": {"message": str(exc)}}
            stop = False
        else:
            reply, stop = handle(adapter, request)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if stop:
            break
    return 0

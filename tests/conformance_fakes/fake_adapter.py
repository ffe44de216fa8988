"""A deliberately faulty protocol adapter for the runner's fault tests.

Usage: python fake_adapter.py MODE. It serves the reference over the protocol, except:

* ``crash``     — exits (code 3) when asked about a meld containing 7C;
* ``hang``      — stops answering when asked about a meld containing 7C;
* ``garbage``   — answers a meld query containing 7C with a line that is not JSON;
* ``otherprotocol`` — says it speaks the next protocol version at hello;
* ``protocol1`` — says it speaks protocol 1 at hello (still accepted: 2 only added to 1);
* ``decline``   — declines (``unsupported``) meld queries containing 7C;
* ``declinelate`` — answers ``unsupported`` to every ``apply`` (a protocol fault);
* ``badseq``    — answers meld queries containing 7C with the wrong seq;
* ``invent``    — adds an invented action to every list of legal actions.
* ``wrongmeld`` — answers every meld query with the opposite verdict (a rules failure, not a fault).
"""

from __future__ import annotations

import json
import sys
import time

from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.serve import handle
from ginspec.conformance.versions import PROTOCOL_VERSION


def main(mode: str) -> int:
    adapter = ReferenceAdapter()
    for line in sys.stdin:
        request = json.loads(line)
        trigger = (
            request.get("cmd") == "query"
            and request.get("what") == "meld"
            and "7C" in request.get("cards", [])
        )
        if trigger and mode == "crash":
            print("fake adapter: crashing on purpose", file=sys.stderr)
            return 3
        if trigger and mode == "hang":
            time.sleep(3600)
        if trigger and mode == "decline":
            print(json.dumps({"seq": request["seq"], "unsupported": "no sevens of clubs here"}),
                  flush=True)
            continue
        if mode == "declinelate" and request.get("cmd") == "apply":
            print(json.dumps({"seq": request["seq"], "unsupported": "no playing"}), flush=True)
            continue
        if trigger and mode == "garbage":
            print("this is not json", flush=True)
            continue
        reply, stop = handle(adapter, request)
        if request.get("cmd") == "hello" and mode == "otherprotocol":
            reply["protocol"] = PROTOCOL_VERSION + 1
        if request.get("cmd") == "hello" and mode == "protocol1":
            reply["protocol"] = 1
        if trigger and mode == "badseq":
            reply["seq"] = -1
        if mode == "invent" and "actions" in reply:
            reply["actions"] = [*reply["actions"], "steal-the-stock"]
        if mode == "wrongmeld" and request.get("what") == "meld" and "answer" in reply:
            reply["answer"]["valid"] = not reply["answer"]["valid"]
        print(json.dumps(reply), flush=True)
        if stop:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

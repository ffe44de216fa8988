"""``python -m ginspec.conformance.peers.live``: a live differential run against a peer.

    python -m ginspec.conformance.peers.live --peer openspiel --profile openspiel \\
        --hands 3000 --seed 1 [--peer-profile P] [--json FILE] [--cases DIR]

Prints the agreement rate, the divergences grouped by signature with the shortest example of
each, and the time spent in the peer and in ginspec. ``--cases DIR`` writes the shortest example
of each signature as a JSON file (deal + steps) that replays the divergence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import ruleset

from . import load_driver
from .lockstep import LockstepReport, lockstep
from .reference_driver import ReferenceDriver


def summary(report: LockstepReport) -> dict[str, object]:
    """The report as JSON (the shortest divergence of each signature)."""
    ginspec_s = report.seconds_total - report.seconds_peer
    return {
        "peer": report.peer, "seed": report.seed, "hands": report.hands,
        "agreed_hands": report.agreed_hands, "steps": report.steps,
        "outcomes": dict(report.outcomes),
        "divergences": dict(report.by_signature.most_common()),
        "examples": [d.to_json() for d in report.first_of_each()],
        "seconds": {"total": round(report.seconds_total, 3),
                    "peer": round(report.seconds_peer, 3),
                    "reference": round(report.seconds_ours, 3),
                    "ginspec": round(ginspec_s, 3)},
        "hands_per_second": round(report.hands / report.seconds_total, 1)
        if report.seconds_total else None,
        "ginspec_share": round(ginspec_s / report.seconds_total, 3)
        if report.seconds_total else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ginspec.conformance.peers.live")
    parser.add_argument("--peer", required=True, choices=["openspiel", "rlcard"])
    parser.add_argument("--profile", required=True, help="the profile ginspec plays")
    parser.add_argument("--peer-profile", help="the profile the peer plays (default: --profile)")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--go-on", action="store_true",
                        help="continue a hand past a difference in legal actions")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--cases", metavar="DIR")
    args = parser.parse_args(argv)
    try:
        peer = load_driver(args.peer)
        params = dict(ruleset(args.profile))
        peer_params = dict(ruleset(args.peer_profile)) if args.peer_profile else None
        report = lockstep(peer, ReferenceDriver(), params, hands=args.hands, seed=args.seed,
                          peer_params=peer_params, go_on=args.go_on)
    except GinspecError as exc:
        print(f"live: error: {exc}", file=sys.stderr)
        return 2
    data = summary(report)
    data["profile"] = args.profile
    data["peer_profile"] = args.peer_profile or args.profile
    print(f"{args.peer} ({peer.info.version}) vs ginspec, profile {args.profile}"
          f" (peer plays {data['peer_profile']}), seed {args.seed}: {report.agreed_hands}/"
          f"{report.hands} hands agree throughout; divergences by kind (hands):")
    for sig, count in report.by_signature.most_common():
        print(f"  {count:6d}  {sig}")
    sec = data["seconds"]
    assert isinstance(sec, dict)
    print(f"  time {sec['total']} s: peer {sec['peer']} s, ginspec {sec['ginspec']} s "
          f"(reference {sec['reference']} s); {data['hands_per_second']} hands/s")
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    if args.cases:
        out = Path(args.cases)
        out.mkdir(parents=True, exist_ok=True)
        for i, d in enumerate(report.first_of_each()):
            case = {"peer": args.peer, "profile": args.profile,
                    "peer_profile": data["peer_profile"], **d.to_json()}
            (out / f"{args.peer}-{args.profile}-{i + 1}.json").write_text(
                json.dumps(case, indent=1) + "\n")
    return 0 if not report.divergences else 1


if __name__ == "__main__":
    sys.exit(main())

"""``ginspec prove``: a machine-checked certificate for a hand's least deadwood
(DEADWOOD.MINIMUM, KNOCK.ELIGIBLE, KNOCK.LIMIT, KNOCK.GIN; FORMAL.CERTIFICATE).

Exit 0 when the claim is proved, 1 when the claim is wrong (with the reason), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ginspec.reference.cli.args import seed_arg
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.proofs.certificate_bench import render as render_bench
from ginspec.reference.proofs.certificate_bench import run_bench
from ginspec.reference.proofs.certify import certify_hand
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.errors import HandSizeError
from ginspec.spec.formal.certificate import Certificate
from ginspec.spec.formal.verify import verify
from ginspec.spec.inputs import guard, read_json
from ginspec.spec.parameters import complete, parameter
from ginspec.spec.profiles import parse_overrides, ruleset


def register(sub: Any) -> None:
    p = sub.add_parser(
        "prove",
        help="prove a hand's least deadwood with Z3 (witness + UNSAT bound)",
        description="Prove that the least deadwood of a hand is N: an arrangement reaching N, "
        "checked against the formal definition, and a Z3 proof that nothing lower exists. For 11 "
        "cards the question is the deadwood after the best discard (knock and gin eligibility). "
        "N defaults to the reference's answer. Exit 0: proved; 1: the claim is wrong; 2: bad input.",
    )
    p.add_argument("cards", nargs="*", help="cards such as 7H TS AC (also 10S, ts, T♠)")
    p.add_argument("--claim", type=_claim, metavar="N",
                   help=f"the deadwood to prove, 0..{MAX_CLAIM} (default: the reference's)")
    p.add_argument("--json", action="store_true", help="print the certificate as one JSON object")
    p.add_argument("--knock-limit", type=int, metavar="N",
                   help="for 11 cards: also prove whether the hand may knock (default 10)")
    p.add_argument("--no-discard", action="store_true",
                   help="with 11 cards, prove the deadwood of all 11 (no discard first)")
    p.add_argument("--ace-high", action="store_true", help="allow Q-K-A runs (ace_high_runs)")
    p.add_argument("--wraparound", action="store_true", help="allow K-A-2 runs (wraparound_runs)")
    p.add_argument("--ace-value", type=int, default=1, metavar="N", help="deadwood value of an ace")
    p.add_argument("--profile", metavar="NAME", help="take the meld rules and knock limit from a profile")
    p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                   help="override a parameter (with or without --profile; repeatable)")
    p.add_argument("--upcard", metavar="CARD", help="the first upcard (Oklahoma: sets the knock limit)")
    p.add_argument("--verify", metavar="FILE",
                   help="re-prove a certificate saved with --json ('-' for stdin); exit 0 if it stands")
    p.add_argument("--verify-suite", nargs="?", const="", metavar="DIR",
                   help="re-check every certificate of the suite (default: the committed suite) "
                   "against its cases; exit 0 if all stand")
    p.add_argument("--sample", type=int, metavar="N",
                   help="with --verify-suite: only N cases, chosen with --seed")
    p.add_argument("--bench", action="store_true",
                   help="benchmark: time certificates on seeded random and dense hands (no CARDS)")
    p.add_argument("--hands", type=int, default=500, metavar="N", help="with --bench: hands per kind")
    p.add_argument("--seed", type=seed_arg, default=1, metavar="S", help="with --bench: random seed")
    p.set_defaults(handler=run)


MAX_CLAIM = 52 * 15
"""No hand has more deadwood: 52 cards at most 15 points each (an ace may be worth 15)."""


def _claim(text: str) -> int:
    """``--claim``: an integer 0..MAX_CLAIM (one-line error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value}: deadwood is never negative")
    if value > MAX_CLAIM:
        raise argparse.ArgumentTypeError(f"{value}: no hand has deadwood above {MAX_CLAIM}")
    return value


def _arrangement(cert: Certificate) -> str:
    w = cert.witness
    melds = " / ".join(" ".join(card_str(c) for c in m) for m in w.melds) or "(no melds)"
    dead = " ".join(card_str(c) for c in w.deadwood_cards) or "(none)"
    return f"{melds} | {dead} = {w.deadwood}"


def render(cert: Certificate, source: str) -> str:
    """The certificate as readable lines."""
    lines = [f"hand:      {' '.join(card_str(c) for c in cert.hand)}"]
    if cert.question == "deadwood-after-discard":
        lines.append(f"question:  least deadwood after the best discard; claim {cert.claim} ({source})")
    else:
        lines.append(f"question:  least deadwood of the {len(cert.hand)} cards; claim {cert.claim} ({source})")
    w = cert.witness
    discard = f"discard {card_str(w.discard)}, then " if w.discard is not None else ""
    lines.append(f"witness:   {discard}{_arrangement(cert)}  (checked against the definition)")
    if cert.optimum > 0:
        lines.append(f"bound:     no arrangement has deadwood {cert.optimum - 1} or less (Z3: unsat)")
    else:
        lines.append("bound:     deadwood is never negative")
    verdict = "PROVED" if cert.ok else "WRONG CLAIM"
    lines.append(f"result:    {verdict} — {cert.explain()}  [{cert.checks} solver checks, "
                 f"{cert.seconds * 1000:.1f} ms]")
    if cert.question == "deadwood-after-discard":
        if cert.gin:
            lines.append("verdict:   gin (the kept cards all meld)")
        elif cert.knock_limit is not None:
            may = "may knock" if cert.can_knock else "may not knock"
            lines.append(f"verdict:   {may} (knock limit {cert.knock_limit})")
    return "\n".join(lines)


def _verify(path: str) -> int:
    data = read_json(path, HandSizeError)
    if not isinstance(data, dict):
        raise HandSizeError(f"{path}: a certificate is a JSON object")
    from z3 import Z3Exception

    with guard(path, HandSizeError):
        try:
            stands, reason = verify(data)
        except Z3Exception as exc:  # pragma: no cover - verify keeps numbers within Z3's range
            raise HandSizeError(f"{path}: not a certificate Z3 can check: {exc}") from None
    print(reason)
    return 0 if stands else 1


def _rules(args: argparse.Namespace) -> tuple[MeldRules, int]:
    """Meld rules and knock limit: from --profile/--set/--upcard, or from the variant flags."""
    if args.profile is None and not args.set:
        if args.upcard is not None:
            raise HandSizeError("--upcard needs --profile or --set (e.g. --set oklahoma=true)")
        rules = MeldRules(
            ace_high_runs=args.ace_high or args.wraparound,
            wraparound_runs=args.wraparound,
            ace_value=int(parameter("ace_value").check(args.ace_value)),
        )
        return rules, 10
    if args.ace_high or args.wraparound or args.ace_value != 1:
        raise HandSizeError("give the meld rules either as --profile/--set or as --ace-high/"
                            "--wraparound/--ace-value, not both")
    overrides = parse_overrides(args.set)
    values = dict(ruleset(args.profile, overrides)) if args.profile else complete(overrides)
    upcard = parse_cards([args.upcard])[0] if args.upcard is not None else None
    return MeldRules.from_params(values), knock_limit_for(values, upcard)


def _verify_suite(args: argparse.Namespace) -> int:
    from ginspec.reference.proofs.suite_certificates import (
        CERTIFICATES,
        SUITE_DIR,
        SuiteCertificateError,
        verify_suite,
    )
    from ginspec.spec.inputs import shown_path

    folder = Path(args.verify_suite) if args.verify_suite else SUITE_DIR
    try:
        present = (folder / CERTIFICATES).is_file()
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        raise SuiteCertificateError(f"{shown_path(folder)}: not a readable folder: "
                                    f"{getattr(exc, 'strerror', None) or exc}") from None
    if not present:
        raise HandSizeError(f"{folder}: no {CERTIFICATES} (build it with ginspec suite build)")
    if args.sample is not None and args.sample < 1:
        raise HandSizeError(f"--sample {args.sample}: need at least 1")
    result = verify_suite(folder, sample=args.sample, seed=args.seed)
    for problem in result.problems:
        print(problem)
    print(f"{result.certificates} certificates of {result.cases} cases: "
          f"{'all stand' if result.ok else f'{len(result.problems)} problems'}")
    return 0 if result.ok else 1


def run(args: argparse.Namespace) -> int:
    if args.verify_suite is not None:
        if args.cards or args.bench or args.verify is not None:
            raise HandSizeError("--verify-suite takes no cards, no --bench and no --verify")
        return _verify_suite(args)
    if args.sample is not None:
        raise HandSizeError("--sample needs --verify-suite")
    if args.verify is not None:
        if args.cards or args.bench:
            raise HandSizeError("--verify FILE takes no cards and no --bench")
        return _verify(args.verify)
    if args.bench:
        if args.cards:
            raise HandSizeError("--bench takes no cards")
        if args.hands < 1:
            raise HandSizeError(f"--hands {args.hands}: need at least 1")
        report = run_bench(args.hands, args.seed)
        print(json.dumps(report) if args.json else render_bench(report))
        return 0
    cards = parse_cards(args.cards)
    if not cards:  # no argument, or only blank ones such as ""
        raise HandSizeError("no cards given: write a hand such as 7H 7D 7S 8C 9C TC 2S 3D 4H KD")
    rules, ruleset_limit = _rules(args)
    discard = len(cards) == 11 and not args.no_discard
    knock_limit = None
    if discard:
        given = ruleset_limit if args.knock_limit is None else args.knock_limit
        knock_limit = int(parameter("knock_limit").check(given))
    elif args.knock_limit is not None:
        raise HandSizeError("--knock-limit needs an 11-card hand (the deadwood after a discard)")
    cert = certify_hand(cards, rules, args.claim, discard=discard, knock_limit=knock_limit)
    if args.json:
        print(json.dumps(cert.to_json()))
    else:
        text = render(cert, "given" if args.claim is not None else "the reference's answer")
        if cert.big_gin:
            text = text.replace("verdict:   gin (the kept cards all meld)",
                                "verdict:   big gin (all 11 cards meld, proved: deadwood 0 without a discard)")
        print(text)
    return 0 if cert.ok else 1

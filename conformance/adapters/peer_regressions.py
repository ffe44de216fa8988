"""Regression cases for the peers' differences, in the case format (``ginspec-case/1``).

Each case is a minimal hand that shows one difference found by the scripted tests and the live
runs: the expected verdicts are written by hand from the clause they cite (and the reference
passes every case — tests/test_peers_adapters.py checks it), the peer named in the ID fails it.
They are listed in ``conformance/expect-fail/<peer>.txt`` with their classification.

    python -m ginspec.conformance.adapters.peer_regressions DIR   # (re)writes the case files
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ginspec.conformance.adapters.deal_layout import deal_for
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.store import dump_case
from ginspec.spec.cards import card_str, parse_cards

ROOT = Path(__file__).resolve().parents[1] / "peers" / "regressions"
"""Where the committed regression cases live (run them with ``--suite``)."""

SPREAD = "KS KC KD 5S 6S 7S 9C TC JC"
JUNK_ND = "KC QD JH 9S 7C 5D 3H AS 2C 4D 6H"
JUNK_D = "KD QH JS 9C 7D 5H 3S AC 2D 4H"


def _deal(deck: Sequence[int], dealer: int) -> dict[str, object]:
    return {"dealer": dealer, "deck": [card_str(c) for c in deck]}


def _step(player: int, action: str, expect: object = "accepted",
          clause: str | None = None) -> dict[str, object]:
    step: dict[str, object] = {"player": player, "action": action, "expect": expect}
    if clause:
        step["clause"] = clause
    return step


def _case(**fields: object) -> Case:
    fields.setdefault("overrides", {})
    return Case.make(origin="endgame", checkpoints=[], **fields)


def openspiel_cases() -> list[Case]:
    knock = ["take-upcard", "knock JD", "declare KS KD KC / 5S 6S 7S / 9C TC JC"]
    chain = deal_for(parse_cards(f"{SPREAD} JD"),
                     parse_cards("8S 9S TS 2C 2D 3D 4H 5H 7H QD"), 1, parse_cards("2H")[0])
    eleven = parse_cards("5C 3D 4D 5D 6D 4H 5H 6H 2S 3S 6S")
    knock11 = deal_for(eleven[:10], parse_cards("AC 2C AD 2D AH 2H 8C 9D TH JS"), 1, eleven[10])
    deck = list(range(52))
    up = card_str(deck[20])
    return [
        _case(
            id="peer.openspiel.layoff-chain-third-card", kind="hand", profile="openspiel",
            description="After 8S and 9S are laid off on 5S 6S 7S, TS extends 5S..9S and may be "
                        "laid off too (OpenSpiel stops a chain after two cards).",
            clauses=["LAYOFF.CHAIN", "LAYOFF.RUN"],
            requires=["hand", "melding.explicit", "layoff.explicit"],
            deals=[_deal(chain, 1)],
            steps=[*(_step(0, a) for a in knock), _step(1, "meld"),
                   _step(1, "layoff 8S to 5S"), _step(1, "layoff 9S to 5S"),
                   _step(1, "layoff TS to 5S", clause="LAYOFF.CHAIN")],
        ),
        _case(
            id="peer.openspiel.knock-eleven-card-deadwood", kind="hand", profile="openspiel",
            description="5C 3D 4D 5D 6D 4H 5H 6H 2S 3S + 6S: discarding 6S leaves 5C 2S 3S = 10 "
                        "beside 3D..6D and 4H 5H 6H, so the knock is legal (OpenSpiel counts 12).",
            clauses=["KNOCK.ELIGIBLE", "KNOCK.LIMIT"],
            requires=["hand"],
            deals=[_deal(knock11, 1)],
            steps=[_step(0, "take-upcard"), _step(0, "knock 6S", clause="KNOCK.ELIGIBLE")],
        ),
        Case.make(
            id="peer.openspiel.take-and-return-twice", kind="hand", profile="openspiel",
            origin="endgame", overrides={"take_and_return_void": False},
            description=f"Both players take the upcard {up} and discard it again: with "
                        "take_and_return_void = false play goes on (OpenSpiel always ends the "
                        "hand with no score; its profile sets take_and_return_void = true).",
            clauses=["TURN.ALTERNATE", "TURN.DISCARD-TAKEN"],
            requires=["hand"],
            deals=[_deal(deck, 0)],
            steps=[_step(1, "take-upcard"), _step(1, f"discard {up}"),
                   _step(0, "take-discard"), _step(0, f"discard {up}")],
            checkpoints=[{"after": 4, "phase": "draw", "to_act": 1, "clause": "TURN.ALTERNATE"}],
        ),
    ]


def rlcard_cases() -> list[Case]:
    taken = deal_for(parse_cards("QH 2C 3D 4H 6C 7D 8H 9H JD QS 2S"),
                     parse_cards(f"{SPREAD} AD"), 0)
    junk = deal_for(parse_cards(JUNK_ND), parse_cards(JUNK_D), 0)
    wall = [_step(1, "discard 6H")]
    for i in range(29):
        p = 0 if i % 2 == 0 else 1
        drawn = card_str(junk[21 + i])
        wall += [_step(p, "draw-stock"), _step(p, f"discard {drawn}")]
    return [
        _case(
            id="peer.rlcard.knock-with-taken-card", kind="hand", profile="rlcard",
            description="Under discard_taken_card = never the card just taken (QH) may not be "
                        "the knock card either (RLCard offers knock QH).",
            clauses=["TURN.DISCARD-TAKEN"],
            violates=["TURN.DISCARD-TAKEN"],
            requires=["hand"],
            deals=[_deal(taken, 0)],
            steps=[_step(1, "discard QH"), _step(0, "take-discard"),
                   _step(0, "knock QH", {"rejected": "DISCARD_OF_TAKEN_CARD"},
                         "TURN.DISCARD-TAKEN")],
        ),
        _case(
            id="peer.rlcard.wall-take-without-knock", kind="hand", profile="rlcard",
            overrides={"wall_action": "take_and_knock_other_discard"},
            description="With wall_action = take_and_knock_other_discard the last discard may be "
                        "taken only to knock; a player who cannot knock with it may not take it "
                        "(RLCard always lets him take it and play on: its profile sets "
                        "wall_action = take_and_play_on).",
            clauses=["WALL.END", "WALL.LAST-CHANCE"],
            violates=["WALL.LAST-CHANCE"],
            requires=["hand"],
            deals=[_deal(junk, 0)],
            steps=[*wall, _step(1, "take-discard", {"rejected": "WALL_TAKE_WITHOUT_KNOCK"},
                                "WALL.LAST-CHANCE")],
        ),
    ]


def regression_cases() -> list[Case]:
    return [*openspiel_cases(), *rlcard_cases()]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else ROOT
    folder.mkdir(parents=True, exist_ok=True)
    for case in regression_cases():
        print(dump_case(case, folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())

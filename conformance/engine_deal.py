"""An engine's own deal (capability ``deal.engine``, PROTOCOL.md): the deal it reports with
``dealt``, checked against the deal clauses, and the request that asks for it again. Shared by
the live mode (conformance/stateful.py), which reads every deal such an engine makes, and the
runner, which replays a case the live mode wrote from one (a deal with a ``seed``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.reference.game import Deal
from ginspec.spec.cards import NUM_CARDS, parse_cards

__all__ = ["engine_request", "read_engine_deal"]


def engine_request(deal: Mapping[str, Any]) -> dict[str, Any]:
    """What ``new_hand`` sends an engine that deals itself for a case's deal: the dealer and the
    seed the live mode sent when the engine dealt it (the recorded deck is the runner's, to
    compare the engine's deal with)."""
    return {"dealer": deal["dealer"], "seed": deal["seed"]}


def read_engine_deal(data: object, dealer: int, eleven: bool, *, first: bool = False
                     ) -> tuple[Deal | None, str, str]:
    """The deal an engine reports (``dealt``, capability deal.engine), checked: a deal, or None
    with the clause it breaks and why (DEAL.SHUFFLE, DEAL.HANDS or under the eleven-card start
    ELEVEN.DEAL, DEAL.UPCARD; a dealer other than the one sent: DEAL.FIRST-DEALER for the
    ``first`` deal of a hand or match, MATCH.NEXT-DEALER for a later hand of a match). The
    stock is the rest of the 52 (DEAL.STOCK) once these hold."""
    if not isinstance(data, Mapping):
        return None, "DEAL.HANDS", f"dealt: expected an object, got {data!r}"
    try:
        hands = [parse_cards([str(t) for t in h]) for h in data["hands"]]
        up = data.get("upcard")
        upcard = None if up is None else parse_cards([str(up)])[0]
        stock = parse_cards([str(t) for t in data["stock"]])
        said = int(data["dealer"])
    except (KeyError, TypeError, ValueError) as exc:
        return None, "DEAL.HANDS", f"dealt: malformed deal: {exc}"
    if said != dealer:
        return None, "DEAL.FIRST-DEALER" if first else "MATCH.NEXT-DEALER", \
            f"player {said} dealt; {'the deal names' if first else 'the rules name'} player {dealer}"
    cards = [c for h in hands for c in h] + ([] if upcard is None else [upcard]) + stock
    if len(hands) != 2 or len(cards) != NUM_CARDS or len(set(cards)) != NUM_CARDS:
        return None, "DEAL.SHUFFLE", (f"the deal holds {len(cards)} cards ({len(set(cards))} "
                                      f"distinct), not the 52 of the pack")
    sizes = [len(h) for h in hands]
    want = [10, 10]
    want[1 - dealer] += int(eleven)
    if sizes != want:
        return None, "ELEVEN.DEAL" if eleven else "DEAL.HANDS", \
            f"hands of {sizes} cards, the rules deal {want}"
    if (upcard is None) != eleven:
        return None, "ELEVEN.DEAL" if eleven else "DEAL.UPCARD", \
            "an upcard where none is turned" if eleven else "no upcard"
    deal = Deal.from_hands(hands[1 - dealer], hands[dealer], upcard, stock, dealer=dealer)
    return deal, "", ""

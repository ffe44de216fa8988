"""Deal checks for engines that deal themselves (``deal.engine``, PROTOCOL.md): a hand or a match
whose first deal is a dealer and a seed, no deck. Such an engine is sent the dealer and the seed
(``new_hand``, or ``new_match``: the first hand of a match is dealt on the engine's own match
path), asked ``dealt``, and its deal is checked by the runner (DEAL.SHUFFLE, DEAL.HANDS or
ELEVEN.DEAL, DEAL.UPCARD, DEAL.STOCK, DEAL.FIRST-DEALER); then the position it dealt is observed
before anything is played. Every other engine skips them (they require ``deal.engine``).

The expectations come from the rules alone, never from a deal: which cards an engine deals is
its own business, so only what every right deal shares is expected: the hand sizes (10 and 10,
the non-dealer 11 under the eleven-card start), the 31 cards of the stock, no upcard under the
eleven-card start, and the first phase and player of the first turn. These depend on
``first_turn`` only, so each case is played under every two-player profile with the same first
turn (its ``rulesets`` entry ``depends`` on ``first_turn``), and by an engine whose rules,
declared by value, agree on it.

The later hands of a match cannot be scripted here (no case knows the cards an engine deals, so
none can play a hand to its end); the live mode checks every deal of every match it plays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from ginspec.conformance.cases import Case
from ginspec.reference.typed_rules import rules_for_profile
from ginspec.spec.profiles import profiles

FIRST_TURNS: Final[dict[str, dict[str, Any]]] = {
    # first_turn -> the first phase (ACTION.PHASE) and the clause that opens it; whether the deal
    # turns an upcard and gives the non-dealer an eleventh card
    "upcard_offer": {"phase": "offer-non-dealer", "clause": "FIRST.UPCARD-OFFER", "eleven": False},
    "plain": {"phase": "draw", "clause": "FIRST.PLAIN", "eleven": False},
    "eleven_card_start": {"phase": "discard", "clause": "ELEVEN.FIRST-TURN", "eleven": True},
}
SEEDS: Final = (20260401, 20260402)
"""The seed sent with each case's deal (one per dealer): an engine may shuffle by it."""
STOCK: Final = 31
"""The stock after the deal: 52 cards less 20 dealt and the upcard, or less 21 dealt (DEAL.STOCK,
ELEVEN.DEAL)."""


def _profiles(kind: str, first_turn: str) -> list[str]:
    """The two-player profiles with this first turn whose hands (or matches) are ordinary."""
    systems = ("single", "hollywood") if kind == "hand" else ("single",)
    return [p for p, rules in ((p, rules_for_profile(p)) for p in profiles())
            if rules.players == 2 and rules.game_system in systems
            and rules.first_turn == first_turn]


def _opened(first_turn: str, dealer: int) -> dict[str, Any]:
    """What the position shows once the deal is made (the checkpoint after no step)."""
    opening = FIRST_TURNS[first_turn]
    eleven = bool(opening["eleven"])
    sizes = [10, 10]
    sizes[1 - dealer] += int(eleven)
    deal_clause = "ELEVEN.DEAL" if eleven else "DEAL.HANDS"
    point: dict[str, Any] = {"after": 0, "hand_sizes": sizes, "stock_size": STOCK}
    blame = {"hand_sizes": deal_clause, "stock_size": "ELEVEN.DEAL" if eleven else "DEAL.STOCK"}
    if eleven:  # no upcard is turned: the discard pile starts empty
        point["discard_top"] = None
        blame["discard_top"] = "ELEVEN.DEAL"
    point.update(phase=opening["phase"], to_act=1 - dealer)
    blame.update(phase=str(opening["clause"]), to_act=str(opening["clause"]))
    point["blame"] = blame
    return point


def engine_deal_cases() -> Iterator[Case]:
    """A single hand and a match under each first turn, each dealer, dealt by the engine."""
    for kind in ("hand", "match"):
        for first_turn, opening in FIRST_TURNS.items():
            names = _profiles(kind, first_turn)
            if not names:
                continue
            eleven = bool(opening["eleven"])
            deal_clauses = ["DEAL.SHUFFLE", "DEAL.FIRST-DEALER", "DEAL.HANDS", "DEAL.UPCARD",
                            "DEAL.STOCK", *(["ELEVEN.DEAL"] if eleven else []),
                            str(opening["clause"])]
            for dealer, seed in enumerate(SEEDS):
                what = "the first hand of a match" if kind == "match" else "a single hand"
                yield Case.make(
                    id=f"deal-engine.{kind}.{first_turn.replace('_', '-')}.d{dealer}",
                    kind=kind, origin="generated",
                    description=(f"{what} that the engine deals itself ({first_turn}, player "
                                 f"{dealer} deals): the 52 cards once each, "
                                 f"{'11 and 10' if eleven else '10 and 10'} in the hands, "
                                 f"{'no upcard' if eleven else 'an upcard'}, the rest the stock"),
                    clauses=deal_clauses, profile=names[0],
                    requires=[kind, "deal.engine"],
                    source={"generator": "engine deal checks", "seed": seed},
                    deals=[{"dealer": dealer, "seed": seed}], steps=[],
                    checkpoints=[_opened(first_turn, dealer)],
                    rulesets=[{"profiles": names, "depends": ["first_turn"]}],
                )

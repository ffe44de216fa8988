"""One scenario under every first-turn procedure: the opening of a hand written under one
``first_turn`` (FIRST.UPCARD-OFFER, FIRST.PLAIN, ELEVEN.FIRST-TURN) rewritten as the opening of
another that leaves the hand in the same position.

From one deck order (DEAL.DECK-ORDER) the three procedures deal the same twenty cards; they differ
in what happens to card 21. Two openings have an equivalent under another procedure:

* **take-21** — the non-dealer ends its first turn holding card 21 and discards (or knocks with)
  another card (``knock X`` likewise): ``take-upcard, discard X`` with the offer, ``take-discard, discard X`` in a plain
  first turn, and ``discard X`` with the eleven-card start, which deals card 21 to the non-dealer
  (ELEVEN.DEAL). The card played is not card 21: a card taken from the pile and discarded again
  is a different move (TURN.DISCARD, TURN.TAKE-AND-RETURN) from discarding a dealt card.
* **draw-22** — card 21 starts the discard pile and the non-dealer draws card 22 from the stock:
  ``pass, pass, draw-stock`` with the offer (FIRST.BOTH-PASS), ``draw-stock`` in a plain first
  turn. The eleven-card start has none: card 21 is already in the non-dealer's hand.

Any other opening (the dealer taking the offered upcard, a refused first step) has no equivalent,
and the scenario is not playable under the other procedure. A plain first turn's take counts
toward ``discard_take_cap`` (TURN.TAKE-CAP) and the offer's does not, so take-21 changes to
or from a plain first turn only where neither ruleset caps the takes. ``tests/test_openings.py``
replays every translated opening of the committed suite in the reference and compares the
positions after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ginspec.reference.typed_rules import Rules, to_rules

TAKE_21: Final = "take-21"
DRAW_22: Final = "draw-22"
ENDS_TURN: Final = ("discard", "knock")
"""The actions that end the non-dealer's take-21 turn (part of the opening)."""

FORMS: Final[dict[tuple[str, str], tuple[tuple[str, str], ...]]] = {
    (TAKE_21, "upcard_offer"): (("N", "take-upcard"),),
    (TAKE_21, "plain"): (("N", "take-discard"),),
    (TAKE_21, "eleven_card_start"): (),
    (DRAW_22, "upcard_offer"): (("N", "pass"), ("D", "pass"), ("N", "draw-stock")),
    (DRAW_22, "plain"): (("N", "draw-stock"),),
}
"""Each opening's steps under each first turn (N the non-dealer, D the dealer)."""

CLAUSE: Final = {"take-upcard": "FIRST.UPCARD-OFFER", "take-discard": "TURN.DRAW",
                 "draw-stock": "TURN.DRAW"}

WHY_NONE: Final = {
    DRAW_22: "the non-dealer draws card 22 after card 21 starts the pile; the eleven-card start "
             "deals it card 21 instead (ELEVEN.DEAL)",
}


@dataclass(frozen=True)
class Opening:
    """A scenario's opening rewritten for another first turn: the case's first ``replaces``
    steps are played as ``steps``."""

    kind: str
    replaces: int
    steps: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"replaces": self.replaces, "steps": [dict(s) for s in self.steps]}


def _who(step: Mapping[str, Any], dealer: int) -> str:
    player = step.get("player")
    return "D" if player == dealer else "N" if player == 1 - dealer else "?"


def classify(steps: Sequence[Mapping[str, Any]], dealer: int, first_turn: str) -> tuple[str, int] | None:
    """The opening of ``steps`` under ``first_turn`` and the number of its steps (without the
    action that ends a take-21 turn); None when it is neither take-21 nor draw-22."""
    for kind in (TAKE_21, DRAW_22):
        form = FORMS.get((kind, first_turn))
        if form is None:
            continue
        n = len(form)
        head = steps[:n + (1 if kind == TAKE_21 else 0)]
        if len(head) < n or any(s["expect"] != "accepted" for s in head):
            continue
        if any((_who(s, dealer), s["action"]) != f for s, f in zip(head, form, strict=False)):
            continue
        if kind == TAKE_21 and not _ends_take(head[n:], dealer):
            continue
        return kind, n
    return None


def _ends_take(rest: Sequence[Mapping[str, Any]], dealer: int) -> bool:
    return len(rest) == 1 and _who(rest[0], dealer) == "N" \
        and str(rest[0]["action"]).split(" ", 1)[0] in ENDS_TURN


def translate(steps: Sequence[Mapping[str, Any]], deck: Sequence[str], dealer: int,
              source: Rules | Mapping[str, Any], target: Rules | Mapping[str, Any]
              ) -> Opening | str:
    """The opening of ``steps`` (played under the parameter values ``source``) for the values
    ``target``, or why there is none. Only ``first_turn`` decides; ``discard_take_cap`` must be
    off on a plain side of take-21."""
    source, target = to_rules(source), to_rules(target)
    have, want = source.first_turn, target.first_turn
    found = classify(steps, dealer, have)
    if found is None:
        return "its opening has no equivalent under another first turn"
    kind, n = found
    form = FORMS.get((kind, want))
    if form is None:
        return WHY_NONE[kind]
    if kind == TAKE_21:
        card = str(steps[n]["action"]).split(" ")[1:2]
        if card == [deck[20]]:
            return "the non-dealer plays card 21 itself, which is taken, not dealt, under " \
                   "another first turn (TURN.DISCARD)"
        capped = [v.discard_take_cap for v in (source, target) if v.discard_take_cap]
        if capped and "plain" in (have, want):
            return f"discard_take_cap={capped[0]} counts the takes from " \
                   "the pile, and a plain first turn's take is one (TURN.TAKE-CAP)"
    players = {"N": 1 - dealer, "D": dealer}
    new = tuple({"player": players[who], "action": action, "expect": "accepted",
                 "clause": CLAUSE.get(action, "FIRST.BOTH-PASS")}
                for who, action in form)
    return Opening(kind, n, new)

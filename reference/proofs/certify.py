"""Certify the reference's answer for one hand (DEADWOOD.MINIMUM, KNOCK.ELIGIBLE).

The claim defaults to what the reference computes (:func:`min_deadwood`, or
:func:`min_deadwood_after_discard` when a discard comes first); the certificate then proves or
refutes it with the formal model.
"""

from __future__ import annotations

from collections.abc import Iterable

from ginspec.reference.meld_rules import STANDARD, MeldRules
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.spec.cards import Card
from ginspec.spec.clauses import implements
from ginspec.spec.formal.certificate import Certificate, certify


def reference_claim(cards: Iterable[Card], rules: MeldRules = STANDARD, *, discard: bool) -> int:
    """The reference's least deadwood (after the best discard when ``discard``)."""
    hand = list(cards)
    return min_deadwood_after_discard(hand, rules) if discard else min_deadwood(hand, rules)


@implements("DEADWOOD.MINIMUM", "KNOCK.ELIGIBLE")
def certify_hand(
    cards: Iterable[Card],
    rules: MeldRules = STANDARD,
    claim: int | None = None,
    *,
    discard: bool | None = None,
    knock_limit: int | None = None,
) -> Certificate:
    """A certificate for ``claim``, by default the reference's own answer for the hand."""
    hand = list(cards)
    if discard is None:
        discard = len(hand) == 11
    if claim is None:
        claim = reference_claim(hand, rules, discard=discard)
    return certify(hand, claim, rules, discard=discard, knock_limit=knock_limit)

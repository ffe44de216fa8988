"""The adjudicator and the engine agree on every showdown (SHOWDOWN.*, LAYOFF.*, chapter 15).

For a random knock position the adjudicator's ruling — its declaration, the defender's spread and
layoffs, the knocker's layoffs — is played through the engine from an explicit deal, and the
engine must accept every step and end the hand with the same deadwood and points. This checks the
two implementations of the showdown and of the scoring hand-off against each other.
"""

from __future__ import annotations

from ginspec.reference.adjudicate import adjudicate
from ginspec.reference.game import Deal, HandState
from ginspec.reference.typed_rules import game_rules
from ginspec.spec.cards import card_str
from ginspec.spec.profiles import ruleset
from hypothesis import assume, given
from hypothesis import strategies as st
from showdown_oracle import brute_min_deadwood, knock_positions

PROFILES = ["pagat", "openspiel", "serbian-online", "wikipedia", "round-the-corner"]


def _melds_text(melds: object) -> str:
    return " / ".join(str(m) for m in melds)  # type: ignore[attr-defined]


@given(knock_positions(), st.sampled_from(PROFILES), st.booleans())
def test_engine_accepts_and_scores_the_adjudicated_showdown(
    position: tuple[list[int], list[int]], profile: str, knocker_lays_off: bool
) -> None:
    knocker, defender = position
    assume(len(knocker) == 10 and brute_min_deadwood(knocker) <= 10)
    overrides = {"knocker_may_lay_off": True} if knocker_lays_off else {}
    rules = ruleset(profile, overrides)
    ruling = adjudicate(knocker, defender, rules)
    assume(ruling.declaration is not None and ruling.defence is not None)
    assert ruling.points is not None
    # The non-dealer (player 1) holds the kept ten minus one card, which is the upcard, plus a
    # spare card that becomes the knock discard; the dealer (player 0) is the defender.
    taken = knocker[0]
    spare = next(c for c in range(52) if c not in knocker and c not in defender)
    non_dealer = [*knocker[1:], spare]
    deal = Deal.from_hands(non_dealer, defender, taken, (), 0)
    state = HandState.new(deal, game_rules(rules, name=profile))
    decl = ruling.declaration
    # The upcard is taken as the first turn's offer (FIRST.UPCARD-OFFER) or, under the plain first turn,
    # like any discard (FIRST.PLAIN).
    take = "take-upcard" if state.rules.upcard_offer else "take-discard"
    steps = [take, f"knock {card_str(spare)}"]
    steps.append(f"declare {_melds_text(decl.melds)}" if decl.melds else "declare")
    steps.append(f"meld {_melds_text(ruling.defence.melds)}" if ruling.defence.melds else "meld")
    if not (decl.gin and rules["layoff_after_gin"] == "forbidden"):
        steps += [str(x) for x in ruling.defence.layoffs] + ["done"]
        if rules["knocker_may_lay_off"] and not decl.gin:
            steps += [str(x) for x in ruling.knocker_layoffs] + ["done"]
    for text in steps:
        rejection = state.rejection(text)
        assert rejection is None, f"{text!r}: {rejection}\n{steps}"
        state = state.apply(text)
    assert state.result is not None, steps
    assert state.result.deadwood == (ruling.defender_deadwood, ruling.knocker_deadwood)
    assert state.result.points == (ruling.points[1], ruling.points[0])
    assert state.result.outcome.value == ruling.outcome, (state.result, ruling.outcome)

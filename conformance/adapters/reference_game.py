"""The reference game engine (``ginspec.reference.game``) behind the adapter interface.

A hand case runs one :class:`HandState`; a match case runs a :class:`MatchState` fed with the
case's deals in order: when a hand ends and the match goes on, the next deal is dealt at once
(its dealer must be the one MATCH.NEXT-DEALER / WALL.REDEAL name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.adapters.base import JSONObject, Verdict
from ginspec.reference.game import Deal, HandState, Rejection, format_action, rules_for_profile
from ginspec.reference.game.match import MatchState
from ginspec.reference.game.state import CHANCE, Phase
from ginspec.reference.game.strategies import best_layoff_steps
from ginspec.reference.melds import Meld
from ginspec.spec.cards import card_str, cards_of, sort_key
from ginspec.spec.profiles import profiles, ruleset

GAME_CAPABILITIES: Final[tuple[str, ...]] = (
    "hand", "match", "legal-actions", "rejection-codes", "melding.explicit", "layoff.explicit",
    "observe.hands",
    "match.scores",
)
CHANCE_PLAYER: Final = "chance"
ACCEPTED: Final = Verdict.ok()
"""The verdict of every accepted action (verdicts are immutable: one serves all)."""


def available() -> bool:
    return True


def profile_names() -> tuple[str, ...]:
    return tuple(profiles())


def profile_params(profile: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter value of ``profile`` with ``overrides`` applied."""
    return dict(ruleset(profile, dict(overrides)))


def to_deal(data: Mapping[str, Any]) -> Deal:
    return Deal.parse(list(data["deck"]), int(data["dealer"]))


def engine_player(player: int | str) -> int:
    return CHANCE if player == CHANCE_PLAYER else int(player)


def hand_result(state: HandState) -> JSONObject | None:
    """The result fields of a finished hand (the case format's ``result``)."""
    return None if state.result is None else state.result.to_json()


def observation(state: HandState) -> JSONObject:
    """The referee's observation fields compared by checkpoints."""
    to_move = state.to_move
    return {
        "phase": state.phase.value,
        "to_act": CHANCE_PLAYER if to_move == CHANCE else to_move,
        "hand_sizes": [state.hands[0].bit_count(), state.hands[1].bit_count()],
        "discard_top": None if state.discard_top is None else card_str(state.discard_top),
        "stock_size": len(state.stock),
    }


def legal_texts(state: HandState) -> list[str]:
    return [format_action(a, state.rules.meld_rules) for a in state.legal_actions()]


SHOWDOWN_PHASES: Final = (Phase.DECLARE, Phase.DEFENDER_MELD, Phase.DEFENDER_LAYOFF,
                          Phase.KNOCKER_LAYOFF)
"""The phases an automatic showdown plays for the engine (melding.automatic, layoff.automatic)."""


def _melds_text(verb: str, melds: Sequence[Meld]) -> str:
    body = " / ".join(" ".join(card_str(c) for c in m.cards) for m in melds)
    return f"{verb} {body}" if body else verb


def best_showdown_steps(state: HandState, *, melding: bool, layoffs: bool,
                        spread: bool = False) -> list[tuple[int, str]]:
    """The showdown steps an automatic engine plays itself, as best play plays them
    (SHOWDOWN.BEST-PLAY), as ``(player, action)``: with ``melding`` the knocker's declaration,
    with ``layoffs`` the defender's spread and layoffs (SHOWDOWN.DEFENDER-SPREAD, LAYOFF.*) and
    the knocker's layoffs where the rules give him some (LAYOFF.KNOCKER); with ``spread`` too
    (``spread.explicit``) the defender spreads as an action and only the layoffs after it are
    played (:func:`best_layoff_steps`). Steps left explicit are not played; outside the
    showdown there are none."""
    if state.phase not in SHOWDOWN_PHASES or state.knocker is None:
        return []
    if state.phase is Phase.DECLARE and not melding:
        return []
    if state.phase is not Phase.DECLARE and not layoffs:
        return []
    if spread:
        return [] if state.phase in (Phase.DECLARE, Phase.DEFENDER_MELD) else \
            best_layoff_steps(state)
    k = state.knocker
    d = 1 - k
    ruling = state.best_ruling()
    steps: list[tuple[int, str]] = []
    if state.phase is Phase.DECLARE:
        assert ruling.declaration is not None
        steps.append((k, _melds_text("declare", ruling.declaration.melds)))
        state = state.apply(steps[-1][1], k)
        if not layoffs:
            return steps
    defence = ruling.defence
    assert defence is not None
    if state.phase is Phase.DEFENDER_MELD:
        steps.append((d, _melds_text("meld", defence.melds)))
        state = state.apply(steps[-1][1], d)
    plans = {d: [str(x) for x in defence.layoffs], k: [str(x) for x in ruling.knocker_layoffs]}
    while state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
        who = d if state.phase is Phase.DEFENDER_LAYOFF else k
        steps.append((who, plans[who].pop(0) if plans[who] else "done"))
        state = state.apply(steps[-1][1], who)
    return steps


class GameDriver:
    """One hand or match of the reference engine, driven through the adapter calls."""

    def __init__(self, hand: HandState | None, match: MatchState | None,
                 deals: Sequence[Deal] = ()):
        self.hand = hand
        self.match = match
        self.deals = list(deals)
        self.next_deal = 1
        self.showdown: Callable[[HandState], list[tuple[int, str]]] | None = None
        """The showdown steps the engine plays itself (melding.automatic, layoff.automatic)."""
        self.rejection: Rejection | None = None
        """The reference's reason for the last refused action (its clause names the rule)."""

    @classmethod
    def hand_game(cls, profile: str, overrides: Mapping[str, Any],
                  deal: Mapping[str, Any]) -> GameDriver:
        rules = rules_for_profile(profile, dict(overrides))
        return cls(HandState.new(to_deal(deal), rules), None)

    @classmethod
    def match_game(cls, profile: str, overrides: Mapping[str, Any],
                   deals: Sequence[Mapping[str, Any]]) -> GameDriver:
        rules = rules_for_profile(profile, dict(overrides))
        parsed = [to_deal(d) for d in deals]
        return cls(None, MatchState.new(rules, deal=parsed[0]), parsed)

    def state(self) -> HandState:
        if self.match is not None:
            return self.match.hand
        assert self.hand is not None
        return self.hand

    def legal_actions(self) -> list[str]:
        return legal_texts(self.state())

    def apply(self, player: int | str, action: str) -> Verdict:
        try:
            if self.match is not None:
                # the action that ends a hand also deals the next one: a deal by the wrong
                # player (WRONG_DEALER) refuses the action and leaves the match as it was
                match = self.match.apply(action, engine_player(player))
                for who, step in self.showdown(match.hand) if self.showdown else ():
                    match = match.apply(step, who)
                self.match = self._deal_next(match)
            else:
                assert self.hand is not None
                hand = self.hand.apply(action, engine_player(player))
                if self.showdown is not None:
                    for who, step in self.showdown(hand):
                        hand = hand.apply(step, who)
                self.hand = hand
        except Rejection as rejection:
            self.rejection = rejection
            return Verdict.rejected(rejection.code.value)
        return ACCEPTED

    def _deal_next(self, match: MatchState) -> MatchState:
        if match.hand_over and not match.is_over and self.next_deal < len(self.deals):
            match = match.next_hand(self.deals[self.next_deal])
            self.next_deal += 1
        return match

    def observe(self) -> JSONObject:
        state = self.state()
        obs = observation(state)
        obs["hands"] = [[card_str(c) for c in sorted(cards_of(h), key=sort_key)]
                        for h in state.hands]  # observe.hands
        if self.match is not None:
            obs["match_scores"] = list(self.match.scores)
            obs["hand_number"] = self.match.hand_number
            results = self.match.results
            obs["last_points"] = list(results[-1].points) if results else None
        return obs

    def result(self) -> JSONObject | None:
        if self.match is None:
            return hand_result(self.state())
        return match_result(self.match)


def match_result(match: MatchState) -> JSONObject | None:
    """The result of a finished match: hands played, totals toward the target, the box points
    and the game bonus (MATCH.BOX, MATCH.GAME-BONUS), final totals."""
    if match.final is None:
        return None
    f = match.final
    return {"outcome": "match", "winner": f.winner, "hands": len(match.results),
            "match_totals": list(match.scores), "box_points": list(f.box_points),
            "game_bonus": f.game_bonus, "final_totals": list(f.totals),
            "settlement": f.settlement}

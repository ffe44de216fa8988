"""The two-player game engine: a hand and a match as immutable state machines (chapter 15).

>>> from ginspec.reference.game import HandState, deal_from_seed, game_rules
>>> state = HandState.new(deal_from_seed(7), game_rules())
>>> state.phase.value, state.to_move
('offer-non-dealer', 1)
>>> sorted(str(a) for a in state.legal_actions())
['pass', 'take-upcard']
>>> state = state.apply("pass").apply("pass")
>>> "take-discard" in state.legal_actions()
False
"""

from ginspec.reference.game.actions import Action, Kind, format_action, parse_action
from ginspec.reference.game.deal import Deal, DealError, deal_from_seed
from ginspec.reference.game.observation import Observation, observe, referee_view
from ginspec.reference.game.rejections import Code, MalformedAction, Rejection
from ginspec.reference.game.state import CHANCE, HandResult, HandState, LegalActions, Phase
from ginspec.reference.typed_rules import Rules, game_rules, rules_for_profile
from ginspec.reference.vocabulary import Outcome

__all__ = [
    "CHANCE",
    "Action",
    "Code",
    "Deal",
    "DealError",
    "HandResult",
    "HandState",
    "Kind",
    "LegalActions",
    "MalformedAction",
    "Observation",
    "Outcome",
    "Phase",
    "Rejection",
    "Rules",
    "deal_from_seed",
    "format_action",
    "game_rules",
    "observe",
    "parse_action",
    "referee_view",
    "rules_for_profile",
]

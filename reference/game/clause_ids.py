"""The clause IDs the engine cites, in one place.

Rule clauses of the game chapters (05-13) belong to their chapters' owners; the engine's own
clauses (ACTION.*, OBSERVATION.*, TRACE.*) are in chapter 15. Every rejection and every
state transition of the engine names one of these constants, so a renamed clause is a one-line
change here (tests/test_clause_links.py checks that each exists).
"""

from __future__ import annotations

from typing import Final

# --- engine (chapter 15-actions-and-observations.md) ---------------------------------------
ACTION_GRAMMAR: Final = "ACTION.GRAMMAR"
ACTION_TURN_ORDER: Final = "ACTION.TURN-ORDER"
ACTION_PHASE: Final = "ACTION.PHASE"
ACTION_REJECTION: Final = "ACTION.REJECTION"
OBSERVATION_PLAYER: Final = "OBSERVATION.PLAYER"
OBSERVATION_REFEREE: Final = "OBSERVATION.REFEREE"
TRACE_FORMAT: Final = "TRACE.FORMAT"
TRACE_CHECK: Final = "TRACE.CHECK"

# --- deal and turns (chapters 05-07, 12) ----------------------------------------------------
DEAL_ORDER: Final = "DEAL.DECK-ORDER"
DEAL_HANDS: Final = "DEAL.HANDS"
DEAL_UPCARD: Final = "DEAL.UPCARD"
DEAL_STOCK: Final = "DEAL.STOCK"
FIRST_DEALER: Final = "DEAL.FIRST-DEALER"
FIRST_TURN_OFFER: Final = "FIRST.UPCARD-OFFER"
FIRST_DEALER_OFFER: Final = "FIRST.DEALER-OFFER"
FIRST_TURN_BOTH_PASS: Final = "FIRST.BOTH-PASS"
FIRST_AFTER_TAKE: Final = "FIRST.AFTER-TAKE"
ELEVEN_DEAL: Final = "ELEVEN.DEAL"
ELEVEN_FIRST_TURN: Final = "ELEVEN.FIRST-TURN"
TURN_ALTERNATE: Final = "TURN.ALTERNATE"
TURN_DRAW: Final = "TURN.DRAW"
TURN_DISCARD: Final = "TURN.DISCARD"
DISCARD_TAKEN_CARD: Final = "TURN.DISCARD-TAKEN"
TURN_HAND_SIZE: Final = "TURN.HAND-SIZE"
TAKE_AND_RETURN: Final = "TURN.TAKE-AND-RETURN"
TAKE_CAP: Final = "TURN.TAKE-CAP"

# --- knocking (chapters 04, 08, 12) ---------------------------------------------------------
KNOCK_ELIGIBLE: Final = "KNOCK.ELIGIBLE"
KNOCK_LIMIT: Final = "KNOCK.LIMIT"
KNOCK_ANY_TURN: Final = "KNOCK.ANY-TURN"
KNOCK_PROCEDURE: Final = "KNOCK.PROCEDURE"
KNOCK_ENDS_HAND: Final = "KNOCK.ENDS-HAND"
KNOCK_GIN: Final = "KNOCK.GIN"
BIG_GIN: Final = "KNOCK.BIG-GIN"
BIG_GIN_SHAPE: Final = "KNOCK.BIG-GIN-SHAPE"
GIN_COMPULSORY: Final = "KNOCK.GIN-COMPULSORY"
OKLAHOMA_LIMIT: Final = "OKLAHOMA.KNOCK-LIMIT"
OKLAHOMA_ACE: Final = "OKLAHOMA.ACE"

# --- the wall (chapter 10) ------------------------------------------------------------------
WALL_END: Final = "WALL.END"
WALL_LAST_DRAW: Final = "WALL.LAST-DRAW"
WALL_LAST_CHANCE: Final = "WALL.LAST-CHANCE"
WALL_RESHUFFLE: Final = "WALL.RESHUFFLE"
WALL_REDEAL: Final = "WALL.REDEAL"

# --- showdown (chapter 13) ------------------------------------------------------------------
SHOWDOWN_DECLARATION: Final = "SHOWDOWN.DECLARATION"
SHOWDOWN_DEFENDER_SPREAD: Final = "SHOWDOWN.DEFENDER-SPREAD"
SHOWDOWN_ORDER: Final = "SHOWDOWN.ORDER"
SHOWDOWN_COMPARE: Final = "SHOWDOWN.COMPARE"
LAYOFF_TARGET: Final = "LAYOFF.TARGET"
LAYOFF_KNOCKER: Final = "LAYOFF.KNOCKER"

# --- scoring and the match (chapters 09, 11) ------------------------------------------------
SCORE_VOID: Final = "SCORE.VOID"
MATCH_CUMULATIVE: Final = "MATCH.CUMULATIVE"
MATCH_TARGET: Final = "MATCH.TARGET"
MATCH_NEXT_DEALER: Final = "MATCH.NEXT-DEALER"

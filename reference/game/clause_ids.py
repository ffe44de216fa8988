"""The clause IDs the engine cites, in one place.

Rule clauses of the game chapters (05-13) belong to their chapters' owners; the engine's own
clauses (ACTION.*, OBSERVATION.*, ENGINE.*, TRACE.*) are in chapter 15. Every rejection and every
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
DEAL_ORDER: Final = "ENGINE.DEAL-ORDER"
TRACE_FORMAT: Final = "TRACE.FORMAT"

# --- deal and turns (rules-params' chapters) ------------------------------------------------
DEAL_CARDS: Final = "DEAL.CARDS"
FIRST_DEALER: Final = "DEAL.FIRST-DEALER"
FIRST_TURN_OFFER: Final = "TURN.FIRST.OFFER"
FIRST_TURN_BOTH_PASS: Final = "TURN.FIRST.BOTH-PASS"
ELEVEN_CARD_START: Final = "TURN.FIRST.ELEVEN-CARDS"
TURN_DRAW: Final = "TURN.DRAW"
TURN_DISCARD: Final = "TURN.DISCARD"
DISCARD_TAKEN_CARD: Final = "TURN.DISCARD.TAKEN-CARD"

# --- knocking -------------------------------------------------------------------------------
KNOCK_ELIGIBLE: Final = "KNOCK.ELIGIBLE"
KNOCK_LIMIT: Final = "KNOCK.LIMIT"
KNOCK_FACE_DOWN: Final = "KNOCK.DISCARD-FACE-DOWN"
KNOCK_GIN: Final = "KNOCK.GIN"
BIG_GIN: Final = "KNOCK.BIG-GIN"
BIG_GIN_SHAPE: Final = "KNOCK.BIG-GIN-SHAPE"
GIN_COMPULSORY: Final = "KNOCK.GIN-COMPULSORY"
OKLAHOMA_LIMIT: Final = "OKLAHOMA.KNOCK-LIMIT"

# --- the wall -------------------------------------------------------------------------------
WALL_TRIGGER: Final = "WALL.TRIGGER"
WALL_KNOCK_ON_DRAW: Final = "WALL.KNOCK-ON-DRAW"
WALL_ACTION: Final = "WALL.ACTION"
WALL_RESHUFFLE: Final = "WALL.RESHUFFLE"
WALL_VOID: Final = "WALL.VOID"

# --- showdown (showdown's chapter 13) -------------------------------------------------------
SHOWDOWN_DECLARATION: Final = "SHOWDOWN.DECLARATION"
SHOWDOWN_DECLARATION_MAXIMAL: Final = "SHOWDOWN.DECLARATION.MAXIMAL"
SHOWDOWN_DEFENDER_SPREAD: Final = "SHOWDOWN.DEFENDER-SPREAD"
SHOWDOWN_COMPARE: Final = "SHOWDOWN.COMPARE"
LAYOFF_TARGET: Final = "LAYOFF.TARGET"
LAYOFF_SET: Final = "LAYOFF.SET"
LAYOFF_RUN: Final = "LAYOFF.RUN"
LAYOFF_CHAIN: Final = "LAYOFF.CHAIN"
LAYOFF_AFTER_GIN: Final = "LAYOFF.AFTER-GIN"
LAYOFF_KNOCKER: Final = "LAYOFF.KNOCKER"
MELD_SET: Final = "MELD.SET"

# --- match ----------------------------------------------------------------------------------
MATCH_TARGET: Final = "MATCH.TARGET"
MATCH_NEXT_DEALER: Final = "MATCH.NEXT-DEALER"
REDEAL_DEALER: Final = "WALL.REDEAL-DEALER"

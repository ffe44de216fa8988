"""Rejection codes: the closed list of reasons an action is refused (ACTION.REJECTION).

Every refused action raises :class:`Rejection`, which carries one :class:`Code` and the ID of the
clause the action breaks. The state is never changed by a refused action (states are immutable).
The showdown's codes are the strings of ``ginspec.reference.layoffs.SHOWDOWN_CODES`` 1:1.
"""

from __future__ import annotations

from enum import Enum

from ginspec.reference.layoffs import SHOWDOWN_CODES
from ginspec.spec.errors import GinspecError


class Code(Enum):
    """Why an action was refused. The value is the code's stable text."""

    MALFORMED_ACTION = "MALFORMED_ACTION"
    """The text is not an action of the grammar (unknown verb, bad card, wrong token count)."""
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    """The player named is not the player to act."""
    WRONG_PHASE = "WRONG_PHASE"
    """The current phase does not offer this kind of action (e.g. draw-stock at the showdown)."""
    HAND_OVER = "HAND_OVER"
    """The hand has ended; no action is possible."""
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    """The card to discard or knock with is not in the player's hand."""
    UPCARD_REFUSED = "UPCARD_REFUSED"
    """After both players passed the upcard, the non-dealer must draw from the stock."""
    DISCARD_OF_TAKEN_CARD = "DISCARD_OF_TAKEN_CARD"
    """The card just taken from the discard pile may not be discarded this turn."""
    KNOCK_OVER_LIMIT = "KNOCK_OVER_LIMIT"
    """After this discard the best deadwood is above the knock limit."""
    BIG_GIN_NOT_PLAYED = "BIG_GIN_NOT_PLAYED"
    """Big gin is not part of this ruleset (big_gin_bonus = 0)."""
    BIG_GIN_NOT_MELDED = "BIG_GIN_NOT_MELDED"
    """Big gin needs all eleven cards in melds."""
    GIN_COMPULSORY = "GIN_COMPULSORY"
    """The player can go gin and gin is compulsory: any other play is refused."""
    WALL_TAKE_WITHOUT_KNOCK = "WALL_TAKE_WITHOUT_KNOCK"
    """At the wall the discard may only be taken by a player who can then knock with it."""
    WALL_MUST_KNOCK = "WALL_MUST_KNOCK"
    """Having taken the discard at the wall, the player must knock."""
    RESHUFFLE_NOT_A_PERMUTATION = "RESHUFFLE_NOT_A_PERMUTATION"
    """A reshuffle must list exactly the cards that form the new stock."""
    DECLARATION_NOT_A_MELD = "DECLARATION_NOT_A_MELD"
    """A declared group is not a meld."""
    DECLARATION_CARD_NOT_HELD = "DECLARATION_CARD_NOT_HELD"
    """A declared meld uses a card the knocker does not hold."""
    DECLARATION_CARD_TWICE = "DECLARATION_CARD_TWICE"
    """A card appears in two declared melds."""
    DECLARATION_ELEVEN_CARDS = "DECLARATION_ELEVEN_CARDS"
    """Eleven cards may be declared only as big gin (every card melded, big gin played)."""
    DECLARATION_OVER_LIMIT = "DECLARATION_OVER_LIMIT"
    """The declared deadwood is above the knock limit (0 for gin, big gin or compulsory gin)."""
    DECLARATION_NOT_MAXIMAL = "DECLARATION_NOT_MAXIMAL"
    """knocker_must_meld_maximally: the declaration leaves more deadwood than the hand's minimum."""
    DEFENDER_MELD_INVALID = "DEFENDER_MELD_INVALID"
    """The defender's melds are not disjoint melds of its own cards."""
    LAYOFF_CARD_NOT_HELD = "LAYOFF_CARD_NOT_HELD"
    """The card is not among the player's unmelded cards."""
    LAYOFF_NO_SUCH_MELD = "LAYOFF_NO_SUCH_MELD"
    """No meld of the other player on the table holds the named card."""
    LAYOFF_DOES_NOT_FIT = "LAYOFF_DOES_NOT_FIT"
    """The card does not extend that meld (or extends only a laid-off card, without chaining)."""
    LAYOFF_CHAINED = "LAYOFF_CHAINED"
    """The card fits only through a card laid off earlier (layoff_chain = original_melds_only)."""
    LAYOFF_AFTER_GIN = "LAYOFF_AFTER_GIN"
    """Nothing may be laid off onto a gin hand under this ruleset."""
    LAYOFF_BY_KNOCKER = "LAYOFF_BY_KNOCKER"
    """The knocker may not lay off under this ruleset."""
    WRONG_DEALER = "WRONG_DEALER"
    """A match's next hand was dealt by the wrong player."""


CLAUSE_OF: dict[Code, str] = {
    Code.MALFORMED_ACTION: "ACTION.GRAMMAR",
    Code.NOT_YOUR_TURN: "ACTION.TURN-ORDER",
    Code.WRONG_PHASE: "ACTION.PHASE",
    Code.HAND_OVER: "ACTION.PHASE",
    Code.CARD_NOT_IN_HAND: "TURN.DISCARD",
    Code.UPCARD_REFUSED: "FIRST.BOTH-PASS",
    Code.DISCARD_OF_TAKEN_CARD: "TURN.DISCARD-TAKEN",
    Code.KNOCK_OVER_LIMIT: "KNOCK.ELIGIBLE",
    Code.BIG_GIN_NOT_PLAYED: "KNOCK.BIG-GIN",
    Code.BIG_GIN_NOT_MELDED: "KNOCK.BIG-GIN-SHAPE",
    Code.GIN_COMPULSORY: "KNOCK.GIN-COMPULSORY",
    Code.WALL_TAKE_WITHOUT_KNOCK: "WALL.LAST-CHANCE",
    Code.WALL_MUST_KNOCK: "WALL.LAST-CHANCE",
    Code.RESHUFFLE_NOT_A_PERMUTATION: "WALL.RESHUFFLE",
    Code.WRONG_DEALER: "MATCH.NEXT-DEALER",
    # the showdown's codes, with its default clauses
    **{Code(code): clause for code, clause in SHOWDOWN_CODES.items()},
}
"""The clause each code cites by default (a rejection may name a more specific clause)."""


class Rejection(GinspecError):
    """An action refused by the rules: ``code``, the ``clause`` it breaks, the ``action`` text."""

    def __init__(self, code: Code, message: str, *, action: str = "", clause: str | None = None):
        self.code = code
        self.clause = clause or CLAUSE_OF[code]
        self.action = action
        self.detail = message
        where = f"{action!r}: " if action else ""
        super().__init__(f"{where}{code.value} ({self.clause}): {message}")

    def __repr__(self) -> str:
        return (
            f"Rejection(Code.{self.code.name}, {self.detail!r}, action={self.action!r}, "
            f"clause={self.clause!r})"
        )


class MalformedAction(Rejection):
    """The action text does not parse (code MALFORMED_ACTION)."""

    def __init__(self, message: str, *, action: str = ""):
        super().__init__(Code.MALFORMED_ACTION, message, action=action)

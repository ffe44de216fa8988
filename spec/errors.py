"""The error hierarchy shared by every part of ginspec.

Every error a user can cause is a :class:`GinspecError`, which is a :class:`ValueError`,
so ``except ValueError`` catches all of them; the CLI turns them into one line and exit 2.
"""

from __future__ import annotations


class GinspecError(ValueError):
    """Base class of every error caused by bad input to ginspec."""


class CardError(GinspecError):
    """A card token could not be parsed (see clause CARD.NOTATION)."""


class DuplicateCardError(CardError):
    """A card appears twice where a set of distinct cards is needed (CARD.DECK)."""


class HandSizeError(GinspecError):
    """A hand has the wrong number of cards for the question asked."""


class MeldError(GinspecError):
    """A declared meld or arrangement is not valid (MELD.*)."""


class ClauseError(GinspecError):
    """A clause ID is unknown, duplicated or malformed, or a chapter is malformed."""


class ParameterError(GinspecError):
    """A ruleset parameter or profile is unknown, or a value is not allowed."""


class RulingFileError(GinspecError):
    """A ruling file (casebook format) is malformed; the message names the file and the field."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message: cut to ``limit`` characters, and never an error of
    its own (an integer of 5,000 digits has no ``repr``)."""
    try:
        text = repr(value)
    except ValueError:
        return f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."

"""What differed between an answer and a case's expectation (:class:`Mismatch`), and the
small comparisons the query checks share (card lists in canonical order, one field)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ginspec.spec.cards import card_str, parse_card, sort_key
from ginspec.spec.errors import CardError


@dataclass(frozen=True)
class Mismatch:
    """What differed: the field, the expected and the actual value."""

    field: str
    expected: Any
    actual: Any
    note: str = ""

    def __str__(self) -> str:
        text = f"{self.field}: expected {self.expected!r}, got {self.actual!r}"
        return f"{text} ({self.note})" if self.note else text


def blame_key(field: str, value: Any) -> str:
    """The ``blame`` key of a query case for one answer to a field (``field:value``, a string
    as it is, anything else as JSON: ``valid:false``, ``outcome:illegal_knock``): the clause
    deciding that an engine answering so is wrong, where it differs from the field's own."""
    import json

    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return f"{field}:{text}"


def canonical_cards(tokens: Any) -> list[str] | None:
    """Tokens in canonical spelling and display order; None when not a list of card tokens."""
    if not isinstance(tokens, list):
        return None
    try:
        cards = [parse_card(str(t)) for t in tokens]
    except CardError:
        return None
    return [card_str(c) for c in sorted(cards, key=sort_key)]


def arrangement_key(melds: Any) -> list[list[str]] | None:
    """Melds as sorted canonical card lists, in order; None when not lists of card tokens."""
    if not isinstance(melds, list):
        return None
    out = []
    for m in melds:
        c = canonical_cards(m)
        if c is None:
            return None
        out.append(c)
    return sorted(out)


def same(field: str, expected: Any, answer: Mapping[str, Any]) -> Mismatch | None:
    """``answer[field]`` against ``expected`` (a boolean is never equal to a number)."""
    actual = answer.get(field)
    if isinstance(expected, bool) != isinstance(actual, bool) or actual != expected:
        return Mismatch(field, expected, actual)
    return None

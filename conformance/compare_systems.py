"""Comparing the answers to the system queries of chapter 14 (``system``, ``table-penalty``,
``prize``, ``table-game``, ``three-rotation``, ``partnership``, ``hollywood``): every expected
field must be equal; an expected ``error`` needs the answer ``{"error": true}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.mismatch import Mismatch
from ginspec.spec.cards import card_str, parse_card
from ginspec.spec.errors import CardError


def _differs(want: Any, got: Any) -> bool:
    return isinstance(want, bool) != isinstance(got, bool) or want != got


def _card_groups(value: Any) -> list[list[str]] | None:
    """Groups of card tokens, each sorted, in their order (None if not a list of lists)."""
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        return None
    try:
        return [sorted(card_str(parse_card(str(t))) for t in g) for g in value]
    except CardError:
        return None


def _same_groups(name: str, want: Any, got: Any) -> bool:
    """A declaration compares as a set of melds, layoffs per seat as a set of cards."""
    w, g = _card_groups(want), _card_groups(got)
    if w is None or g is None:
        return False
    return sorted(w) == sorted(g) if name == "declaration" else w == g


def check_system_query(what: str, expect: Mapping[str, Any],
                       answer: Mapping[str, Any]) -> Mismatch | None:
    """The first expected field the answer gets wrong, or None."""
    if expect.get("error"):
        if answer.get("error") is True:
            return None
        return Mismatch("error", True, dict(answer), "no legal game gives this input")
    if answer.get("error"):
        first = next(iter(expect))
        return Mismatch(first, expect[first], "error", str(answer.get("message", "")))
    for name in QUERY_KINDS[what].answer:
        if name not in expect:
            continue
        if name in ("declaration", "layoffs") and expect[name] is not None:
            if not _same_groups(name, expect[name], answer.get(name)):
                return Mismatch(name, expect[name], answer.get(name), "any order")
        elif _differs(expect[name], answer.get(name)):
            return Mismatch(name, expect[name], answer.get(name))
    return None

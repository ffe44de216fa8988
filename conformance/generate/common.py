"""Helpers shared by the case builders: card text, IDs, parameter → oracle rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ginspec.conformance.oracle import OracleRules
from ginspec.spec.cards import Card, card_str, parse_cards, sort_key


def text_cards(cards: Iterable[Card]) -> list[str]:
    """Cards as canonical tokens in display order (suit C D H S, then rank)."""
    return [card_str(c) for c in sorted(cards, key=sort_key)]


def card_list(value: Any, *, distinct: bool = True) -> list[Card]:
    """Cards from a spec example field: a string of tokens or a list of tokens."""
    if isinstance(value, str):
        return parse_cards(value, distinct=distinct)
    return parse_cards([str(v) for v in value], distinct=distinct)


def id_cards(cards: Iterable[Card]) -> str:
    """The cards as an ID fragment, e.g. ``ac2c3c``."""
    return "".join(t.lower() for t in text_cards(cards))


def oracle_rules(params: Mapping[str, Any]) -> OracleRules:
    """The oracle's meld rules for parameter values (missing ones take the catalogue default)."""
    return OracleRules(
        ace_high_runs=bool(params.get("ace_high_runs", False)),
        wraparound_runs=bool(params.get("wraparound_runs", False)),
        ace_value=int(params.get("ace_value", 1)),
    )


def id_params(params: Mapping[str, Any]) -> str:
    """Non-default parameters as an ID suffix, e.g. ``.ace_high_runs-true``."""
    parts = [f"{k}-{str(v).lower()}" for k, v in sorted(params.items())]
    return "".join(f".{p.replace('_', '-')}" for p in parts)

"""Shared helpers for the peer-driver tests: load a driver or skip WITH the reason printed.

Set ``GINSPEC_REQUIRE_PEERS=openspiel,rlcard`` (CI does, once the install succeeded) to turn a
missing peer into a failure instead of a skip.
"""

from __future__ import annotations

import os
import sys

import pytest
from ginspec.conformance.peers import PeerDriver, PeerUnavailable, load_driver
from ginspec.spec.cards import Card, parse_cards


def driver_or_skip(name: str) -> PeerDriver:
    """A driver for ``name``; skips (printing why) when the peer is not importable."""
    try:
        return load_driver(name)
    except PeerUnavailable as exc:
        required = {p.strip() for p in os.environ.get("GINSPEC_REQUIRE_PEERS", "").split(",")}
        if name in required:
            pytest.fail(f"peer {name} is required (GINSPEC_REQUIRE_PEERS) but: {exc}")
        print(f"SKIP peer {name}: {exc}", file=sys.stderr)
        pytest.skip(f"peer {name} not available: {exc}")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_cards(text)[0]


def tokens(text: str) -> list[str]:
    """Card tokens of a space-separated string, as a query sends them."""
    return text.split()

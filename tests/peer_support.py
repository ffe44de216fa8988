"""Shared helpers for the peer-adapter tests: open an adapter or skip WITH the reason printed,
and read its JSON answers in the terms the scripted tests are written in.

Set ``GINSPEC_REQUIRE_PEERS=openspiel,rlcard`` (CI does, once the install succeeded) to turn a
missing peer into a failure instead of a skip.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Unsupported
from ginspec.conformance.adapters.loader import open_peer
from ginspec.conformance.adapters.peer import PeerAdapter, PeerUnavailable
from ginspec.spec.cards import Card, parse_cards


@dataclass(frozen=True)
class Seen:
    """An observation: hands as card numbers (sorted), the discard top as a card number."""

    phase: str
    to_act: int | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    discard_top: Card | None
    stock_size: int


@dataclass(frozen=True)
class Ended:
    """A result: ``outcome`` is how the hand was ended (knock, gin or void, before comparing
    deadwood: an undercut or a tie is a knock here), ``note`` the engine's reason for a void
    hand."""

    outcome: str
    knocker: int | None
    deadwood: tuple[int, ...] | None
    points: tuple[int, ...] | None
    note: str


@dataclass(frozen=True)
class Played:
    accepted: bool
    reason: str


class Driven:
    """A peer adapter driven with explicit parameters (``start``) and its answers decoded."""

    def __init__(self, adapter: PeerAdapter):
        self.adapter = adapter

    def check_params(self, params: Mapping[str, Any]) -> list[str]:
        return self.adapter.check_params(params)

    def new_hand(self, deck: Sequence[Card], dealer: int, params: Mapping[str, Any]) -> None:
        reasons = self.adapter.check_params(params)
        if reasons:
            raise Unsupported("; ".join(reasons))
        self.adapter.start(list(deck), dealer, params)

    def legal_actions(self) -> list[str]:
        return self.adapter.legal_actions()

    def apply(self, action: str) -> Played:
        verdict = self.adapter.apply(self.adapter.to_act() if self.adapter.phase() != "over"
                                     else 0, action)
        return Played(verdict.accepted, "" if verdict.accepted else str(verdict.code))

    def observe(self) -> Seen:
        o = self.adapter.observe()
        top = o["discard_top"]
        h0, h1 = (tuple(sorted(parse_cards(h))) for h in o["hands"])
        return Seen(o["phase"], o["to_act"], (h0, h1),
                    None if top is None else parse_cards([top])[0], o["stock_size"])

    def result(self) -> Ended:
        r = self.adapter.result()
        assert r is not None, "the hand is not over"
        outcome = "knock" if r["outcome"] in ("undercut", "tie") else str(r["outcome"])
        void = outcome == "void"
        points = tuple(r["points"]) if "points" in r else None
        return Ended(outcome, r["knocker"], None if void else tuple(r["deadwood"]), points,
                     self.adapter.void_reason() if void else "")

    def query(self, what: str, args: Mapping[str, Any], params: Mapping[str, Any]
              ) -> dict[str, Any]:
        return self.adapter.query(what, args, None, params)


def adapter_or_skip(name: str) -> PeerAdapter:
    """The adapter of ``name``; skips (printing why) when the peer is not importable."""
    try:
        return open_peer(name)
    except PeerUnavailable as exc:
        required = {p.strip() for p in os.environ.get("GINSPEC_REQUIRE_PEERS", "").split(",")}
        if name in required:
            pytest.fail(f"peer {name} is required (GINSPEC_REQUIRE_PEERS) but: {exc}")
        print(f"SKIP peer {name}: {exc}", file=sys.stderr)
        pytest.skip(f"peer {name} not available: {exc}")


def driver_or_skip(name: str) -> Driven:
    """The adapter of ``name``, driven with explicit parameters."""
    return Driven(adapter_or_skip(name))


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_cards(text)[0]


def tokens(text: str) -> list[str]:
    """Card tokens of a space-separated string, as a query sends them."""
    return text.split()

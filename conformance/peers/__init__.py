"""Drivers for real gin rummy engines ("peers"): OpenSpiel and RLCard.

Each driver plays a hand from an explicit deal and speaks our action strings both ways
(:class:`~ginspec.conformance.peers.model.PeerDriver`). :func:`load_driver` builds one by name
and raises :class:`~ginspec.conformance.peers.model.PeerUnavailable` with the reason when the
peer's library is not installed.
"""

from __future__ import annotations

from typing import Final

from .model import (
    PeerDriver,
    PeerError,
    PeerInfo,
    PeerObservation,
    PeerResult,
    PeerUnavailable,
    PeerUnsupported,
    Verdict,
)

PEERS: Final = ("openspiel", "rlcard")


def load_driver(name: str) -> PeerDriver:
    """A fresh driver for the peer ``name`` (one of :data:`PEERS`)."""
    if name == "openspiel":
        from .openspiel import OpenSpielDriver

        return OpenSpielDriver()
    if name == "rlcard":
        from .rlcard import RLCardDriver

        return RLCardDriver()
    raise PeerError(f"unknown peer {name!r}: expected one of {', '.join(PEERS)}")


__all__ = [
    "PEERS",
    "PeerDriver",
    "PeerError",
    "PeerInfo",
    "PeerObservation",
    "PeerResult",
    "PeerUnavailable",
    "PeerUnsupported",
    "Verdict",
    "load_driver",
]

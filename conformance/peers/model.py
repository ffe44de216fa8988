"""The peer-driver interface: typed results and the :class:`PeerDriver` base class.

A *peer* is a gin rummy engine nobody here wrote (OpenSpiel, RLCard). A driver plays one hand on
the peer from an explicit deal and speaks OUR action strings both ways, so the conformance
adapters and the live differential run never see the peer's own action numbers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from ginspec.spec.cards import Card, format_cards
from ginspec.spec.errors import GinspecError

Value: TypeAlias = bool | int | str
"""A ruleset parameter value."""

Params: TypeAlias = Mapping[str, Value]
"""Parameter name -> value (a Ruleset or a plain dict)."""


class PeerError(GinspecError):
    """A peer driver was misused (no hand started, malformed action, bad deal)."""


class PeerUnavailable(PeerError):
    """The peer's library cannot be imported here; the message says why."""


class PeerUnsupported(PeerError):
    """The ruleset asks for a rule the peer cannot play; the message names the parameter."""


@dataclass(frozen=True)
class Verdict:
    """The peer's answer to one action: accepted, or rejected with the peer's reason."""

    accepted: bool
    reason: str = ""

    def __repr__(self) -> str:
        return f"Verdict(accepted={self.accepted!r}, reason={self.reason!r})"


ACCEPTED = Verdict(True)


@dataclass(frozen=True)
class PeerObservation:
    """What the table shows, in OUR terms (players are ours: 0/1, dealer as given)."""

    phase: str
    """One of :data:`PHASES`."""
    to_act: int | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    discard_top: Card | None
    stock_size: int

    def __repr__(self) -> str:
        hands = ", ".join(repr(format_cards(sorted(h))) for h in self.hands)
        return (f"PeerObservation(phase={self.phase!r}, to_act={self.to_act!r}, hands=({hands}), "
                f"discard_top={self.discard_top!r}, stock_size={self.stock_size!r})")


PHASES: tuple[str, ...] = (
    "offer-non-dealer",  # FIRST.UPCARD-OFFER: the non-dealer may take the upcard or pass
    "offer-dealer",      # FIRST.DEALER-OFFER: then the dealer
    "first-draw",        # FIRST.BOTH-PASS: both passed, the non-dealer draws from the stock
    "draw",              # TURN.DRAW: draw from the stock or take the discard
    "discard",           # 11 cards in hand: discard or knock (also the eleven-card opening)
    "wall",              # WALL.LAST-CHANCE: take the wall discard to knock, or pass
    "wall-knock",        # the wall discard was taken: knock
    "declare",           # SHOWDOWN.DECLARATION: the knocker declares melds
    "defender-meld",     # SHOWDOWN.DEFENDER-SPREAD: the defender spreads melds
    "defender-layoff",   # LAYOFF.TARGET: the defender lays off, then done
    "over",              # the hand has ended
)
"""Phase names, as the reference engine names them (ACTION.PHASE)."""


@dataclass(frozen=True)
class PeerResult:
    """How the hand ended, in OUR terms.

    ``outcome`` is ``"knock"``, ``"gin"``, ``"big_gin"`` or ``"void"`` (no one went out). ``deadwood`` is each
    player's final deadwood as the peer counts it (``None`` for a void hand). ``points`` is
    (player 0, player 1) as the peer scores the hand, or ``None`` when the peer does not score
    (RLCard's payoffs are training rewards, not points). ``note`` carries the peer's own words,
    e.g. why a hand was void.
    """

    outcome: str
    knocker: int | None
    deadwood: tuple[int, int] | None
    points: tuple[int, int] | None
    note: str = ""


@dataclass(frozen=True)
class PeerInfo:
    """What a driver declares about its engine: name, version and honest capabilities."""

    name: str
    version: str
    capabilities: frozenset[str]
    """Capability names from the conformance case format (``hand``, ``legal-actions``, ...)."""
    limitations: tuple[str, ...] = field(default=())
    """Plain-language differences in HOW the engine works (not rule choices)."""


class PeerDriver(ABC):
    """Play one hand on a peer engine in our action language.

    Call :meth:`new_hand`, then alternate :meth:`legal_actions` / :meth:`apply` until
    :meth:`observe` reports phase ``"over"``, then read :meth:`result`.
    """

    info: PeerInfo

    @abstractmethod
    def check_params(self, params: Params) -> list[str]:
        """Reasons the peer cannot play ``params`` (empty when it can)."""

    @abstractmethod
    def new_hand(self, deal: Sequence[Card], dealer: int, params: Params) -> None:
        """Start a hand from the 52-card ``deal`` (DEAL.DECK-ORDER) with ``dealer`` 0 or 1.

        Raises :class:`PeerUnsupported` when :meth:`check_params` finds a reason.
        """

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """The legal actions of the player to act, as our action strings, sorted."""

    @abstractmethod
    def apply(self, action: str) -> Verdict:
        """Apply one of our action strings for the player to act; a rejection changes nothing."""

    @abstractmethod
    def observe(self) -> PeerObservation:
        """The current table in our terms."""

    @abstractmethod
    def result(self) -> PeerResult:
        """The hand's result; raises :class:`PeerError` before the hand is over."""

    def query(self, what: str, args: Mapping[str, object], params: Params) -> dict[str, object]:
        """Answer a conformance query (``meld``, ``deadwood``, ``knock`` ...) with the peer's
        own functions, in the case format's answer fields. Only the queries named in
        ``info.capabilities`` (``query.WHAT``) are answered."""
        raise QueryUnsupported(f"{self.info.name} answers no {what!r} query")


class QueryUnsupported(PeerError):
    """The peer has no function that answers this question."""

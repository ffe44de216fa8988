"""Our reference engine (``ginspec.reference.game``) behind the same driver interface as the
peers, so the live differential run can drive both in lockstep."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from ginspec.spec.cards import Card, cards_of
from ginspec.spec.errors import GinspecError

from .model import (
    ACCEPTED,
    Params,
    PeerDriver,
    PeerError,
    PeerInfo,
    PeerObservation,
    PeerResult,
    PeerUnavailable,
    PeerUnsupported,
    Verdict,
)

_OUTCOME = {"knock": "knock", "undercut": "knock", "tie": "knock", "gin": "gin",
            "gin_cancelled": "gin", "big_gin": "big_gin", "void": "void"}
"""The engine's outcomes folded to the driver's (who went out, and how)."""


class ReferenceDriver(PeerDriver):
    """The reference engine as a :class:`PeerDriver`."""

    def __init__(self) -> None:
        try:
            self._g: Any = importlib.import_module("ginspec.reference.game")
        except ImportError as exc:  # pragma: no cover - before the engine landed
            raise PeerUnavailable(f"the reference engine is not available: {exc}") from exc
        self.info = PeerInfo(
            name="reference", version="ginspec",
            capabilities=frozenset({"hand", "legal-actions", "rejection-codes",
                                    "melding.explicit", "layoff.explicit"}))
        self._state: Any = None

    def check_params(self, params: Params) -> list[str]:
        try:
            self._g.game_rules(dict(params))
        except GinspecError as exc:
            return [str(exc)]
        return []

    def new_hand(self, deal: Sequence[Card], dealer: int, params: Params) -> None:
        try:
            rules = self._g.game_rules(dict(params))
        except GinspecError as exc:
            raise PeerUnsupported(str(exc)) from exc
        self._state = self._g.HandState.new(self._g.Deal(tuple(deal), dealer), rules)

    def _require(self) -> Any:
        if self._state is None:
            raise PeerError("no hand in progress: call new_hand first")
        return self._state

    def legal_actions(self) -> list[str]:
        return sorted(str(a) for a in self._require().legal_actions())

    def apply(self, action: str) -> Verdict:
        try:
            self._state = self._require().apply(action)
        except GinspecError as exc:
            code = getattr(exc, "code", None)
            return Verdict(False, f"{code.value}: {exc}" if code is not None else str(exc))
        return ACCEPTED

    def observe(self) -> PeerObservation:
        s = self._require()
        hands = (tuple(cards_of(s.hands[0])), tuple(cards_of(s.hands[1])))
        to_act = None if s.is_over else s.to_move
        return PeerObservation(s.phase.value, to_act, hands, s.discard_top, len(s.stock))

    def result(self) -> PeerResult:
        s = self._require()
        if not s.is_over or s.result is None:
            raise PeerError("the hand is not over")
        r = s.result
        outcome = _OUTCOME.get(r.outcome.value, r.outcome.value)
        if outcome == "void":
            return PeerResult("void", None, None, (0, 0))
        return PeerResult(outcome, r.knocker, tuple(r.deadwood), tuple(r.points),
                          r.outcome.value)

    @property
    def state(self) -> Any:
        """The engine's own state (for callers that need more than the driver shows)."""
        return self._require()

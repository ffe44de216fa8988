"""What the adapters of engines nobody here wrote (OpenSpiel, RLCard) share.

A peer adapter is an ordinary :class:`~ginspec.conformance.adapters.base.Adapter`: it plays one
hand per case from an explicit deal, forced on the engine's own shuffle, and speaks our action
strings both ways (the engine's action numbers never leave it). It declares exactly what its
engine does: the profiles whose every rule the engine plays (:meth:`PeerAdapter.check_params`
names what it cannot), the capabilities it has, the parameters it can change per case, and in
``hello.extra["limitations"]`` how it works differently (not rule choices). Neither peer names
rejection codes, so a refused action is reported with the code :data:`REJECTED` and only
accepted/refused is compared. Its observations add ``hands`` (each player's cards, sorted), which
the live machine compares when present.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ginspec.conformance.adapters.base import Adapter, Hello, JSONObject, Unsupported, Verdict
from ginspec.spec.cards import Card, card_str, parse_cards
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import profiles, ruleset

REJECTED = "PEER_REJECTED"
"""The code of every refusal: the peers give no reason the suite could compare."""

Params = Mapping[str, Value]
"""Parameter name -> value (a Ruleset or a plain dict)."""


class PeerUnavailable(GinspecError):
    """The peer's library cannot be imported here; the message says why."""


class PeerAdapter(Adapter):
    """An engine played one hand at a time through its own API (see the module docstring)."""

    name: ClassVar[str]
    homepage: ClassVar[str]
    capabilities: ClassVar[tuple[str, ...]]
    limitations: ClassVar[tuple[str, ...]]
    overridable: ClassVar[tuple[str, ...]] = ()
    version: str = ""

    # --- what a peer implements -----------------------------------------------------------------

    def engine_reasons(self, params: Params) -> list[str]:
        """Reasons the engine cannot play ``params``, as far as its adapter knows its settings
        and its fixed rules."""
        raise NotImplementedError

    def check_params(self, params: Params) -> list[str]:
        """Reasons the engine cannot play ``params`` (empty when it can): :meth:`engine_reasons`,
        then every other parameter moved off the peer's own profile that the adapter does not
        declare overridable. A rule the adapter was never taught is refused, not claimed."""
        reasons = self.engine_reasons(params)
        named = {reason.split("=")[0].split(":")[0] for reason in reasons}
        own = ruleset(self.name)
        reasons += [f"{name}={value!r}: {self.name} is played only with its profile's {own[name]!r}"
                    for name, value in params.items()
                    if name not in self.overridable and name not in named and value != own[name]]
        return reasons

    def start(self, deck: Sequence[Card], dealer: int, params: Params) -> None:
        """Start a hand from the 52-card ``deck`` (DEAL.DECK-ORDER) with ``dealer`` 0 or 1."""
        raise NotImplementedError

    def phase(self) -> str:
        """The phase in our names (ACTION.PHASE)."""
        raise NotImplementedError

    def to_act(self) -> int | None:
        raise NotImplementedError

    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Each player's cards (ours: cards spread or laid off stay the player's)."""
        raise NotImplementedError

    def discard_top(self) -> Card | None:
        raise NotImplementedError

    def stock_size(self) -> int:
        raise NotImplementedError

    def play(self, action: str) -> bool:
        """Apply one of our action strings for the player to act; False (nothing changed) when
        the engine does not allow it."""
        raise NotImplementedError

    def hand_result(self) -> JSONObject:
        """The finished hand's result fields (PROTOCOL.md, "Results")."""
        raise NotImplementedError

    # --- the adapter interface ------------------------------------------------------------------

    def hello(self) -> Hello:
        playable = tuple(p for p in profiles() if not self.check_params(ruleset(p)))
        return Hello(name=self.name, version=self.version, language="python",
                     profiles=playable, capabilities=tuple(sorted(self.capabilities)),
                     overrides=self.overridable, homepage=self.homepage,
                     extra={"limitations": list(self.limitations)})

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        params = ruleset(profile, dict(overrides))
        reasons = self.check_params(params)
        if reasons:
            raise Unsupported("; ".join(reasons))
        self.start(parse_cards([str(t) for t in deal["deck"]]), int(deal["dealer"]), params)

    def apply(self, player: int | str, action: str) -> Verdict:
        if self.phase() == "over" or player != self.to_act():
            return Verdict.rejected(REJECTED)
        return Verdict.ok() if self.play(action) else Verdict.rejected(REJECTED)

    def observe(self) -> JSONObject:
        hands = self.hands()
        top = self.discard_top()
        return {"phase": self.phase(), "to_act": self.to_act(),
                "hand_sizes": [len(hands[0]), len(hands[1])],
                "discard_top": None if top is None else card_str(top),
                "stock_size": self.stock_size(),
                "hands": [[card_str(c) for c in sorted(h)] for h in hands]}

    def result(self) -> JSONObject | None:
        return self.hand_result() if self.phase() == "over" else None


def knock_result(knocker: int, deadwood: Sequence[int], points: Sequence[int] | None,
                 gin: bool) -> JSONObject:
    """A finished knock or gin in the result fields: the outcome from the engine's own points
    (an undercut is the defender scoring, a tie nobody), or from the deadwood when the engine
    scores nothing (SCORE.UNDERCUT)."""
    k, d = knocker, 1 - knocker
    outcome = "gin" if gin else "knock"
    winner: int | None = k
    if not gin and points is not None:
        if points[d] > 0:
            outcome, winner = "undercut", d
        elif points[k] == 0:
            outcome, winner = "tie", None
    elif not gin and deadwood[k] >= deadwood[d]:
        outcome, winner = "undercut", d
    out: JSONObject = {"outcome": outcome, "knocker": k, "winner": winner,
                       "deadwood": list(deadwood)}
    if points is not None:
        out["points"] = list(points)
        # A box is one hand won (MATCH.BOX); single-hand peers keep none, so it is derived from
        # the engine's own winner — a translation, like turning zero-sum returns into points.
        out["boxes"] = [int(winner == 0), int(winner == 1)]
    return out


def void_result(scored: bool) -> JSONObject:
    """A void hand (nobody went out): the case format writes its deadwood as [0, 0]."""
    out: JSONObject = {"outcome": "void", "knocker": None, "winner": None, "deadwood": [0, 0]}
    if scored:
        out["points"] = [0, 0]
        out["boxes"] = [0, 0]
    return out


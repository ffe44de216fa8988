"""The peer drivers as conformance adapters: ``ginspec conform --adapter openspiel`` and
``--adapter rlcard`` (named adapter SPECs; ``python:ginspec.conformance.peers.adapters:
OpenSpielAdapter`` works too).

An adapter declares exactly what its engine does (see :class:`~.model.PeerInfo`): the profiles
whose every rule the peer plays, the capabilities it has, and the parameters it can change per
case. Neither peer names rejection codes, so a refused action is reported with the code
``PEER_REJECTED`` and the runner compares only accepted/rejected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ginspec.conformance.adapters.base import Adapter, Hello, JSONObject, Verdict
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.profiles import profiles, ruleset

from . import load_driver
from .model import PeerDriver, PeerResult

REJECTED = "PEER_REJECTED"
"""The code of every refusal: the peers give no reason the suite could compare."""

HOMEPAGES: dict[str, str] = {
    "openspiel": "https://github.com/google-deepmind/open_spiel",
    "rlcard": "https://github.com/datamllab/rlcard",
}


def result_json(r: PeerResult) -> JSONObject:
    """A peer's result in the case format's ``result`` fields."""
    if r.outcome == "void":
        # The case format writes a void hand's deadwood as [0, 0] (nobody counts).
        out: JSONObject = {"outcome": "void", "knocker": None, "winner": None,
                           "deadwood": [0, 0]}
        if r.points is not None:
            out["points"] = [0, 0]
            out["boxes"] = [0, 0]
        return out
    assert r.knocker is not None and r.deadwood is not None
    k, d = r.knocker, 1 - r.knocker
    outcome: str = r.outcome
    winner: int | None = k
    if r.outcome == "knock" and r.points is not None:
        if r.points[d] > 0:
            outcome, winner = "undercut", d
        elif r.points[k] == 0:
            outcome, winner = "tie", None
    elif r.outcome == "knock" and r.deadwood[k] >= r.deadwood[d]:
        outcome, winner = "undercut", d  # no points: the peer's deadwood decides (SCORE.UNDERCUT)
    out = {"outcome": outcome, "knocker": k, "winner": winner, "deadwood": list(r.deadwood)}
    if r.points is not None:
        out["points"] = list(r.points)
        # A box is one hand won (MATCH.BOX); single-hand peers keep none, so it is derived from
        # the peer's own winner — a translation, like turning zero-sum returns into points.
        out["boxes"] = [int(winner == 0), int(winner == 1)]
    return out


class PeerAdapter(Adapter):
    """A peer driver behind the adapter interface (one hand per case)."""

    peer: ClassVar[str]
    overridable: ClassVar[tuple[str, ...]] = ()

    def __init__(self) -> None:
        self.driver: PeerDriver = load_driver(self.peer)

    def hello(self) -> Hello:
        info = self.driver.info
        playable = tuple(p for p in profiles() if not self.driver.check_params(ruleset(p)))
        return Hello(name=info.name, version=info.version, language="python",
                     profiles=playable, capabilities=tuple(sorted(info.capabilities)),
                     overrides=self.overridable, homepage=HOMEPAGES.get(info.name, ""),
                     extra={"limitations": list(info.limitations)})

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> JSONObject:
        from ginspec.conformance.adapters.base import Unsupported

        from .model import QueryUnsupported

        params = dict(ruleset(profile, dict(overrides))) if profile else dict(overrides)
        try:
            return self.driver.query(what, args, params)
        except QueryUnsupported as exc:  # the peer's function cannot ask this one question
            raise Unsupported(str(exc)) from None

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        params = ruleset(profile, dict(overrides))
        deck = parse_cards([str(t) for t in deal["deck"]])
        self.driver.new_hand(deck, int(deal["dealer"]), params)

    def legal_actions(self) -> list[str]:
        return self.driver.legal_actions()

    def apply(self, player: int | str, action: str) -> Verdict:
        if player != self.driver.observe().to_act:
            return Verdict.rejected(REJECTED)
        verdict = self.driver.apply(action)
        return Verdict.ok() if verdict.accepted else Verdict.rejected(REJECTED)

    def observe(self) -> JSONObject:
        o = self.driver.observe()
        return {"phase": o.phase, "to_act": o.to_act,
                "hand_sizes": [len(o.hands[0]), len(o.hands[1])],
                "discard_top": None if o.discard_top is None else card_str(o.discard_top),
                "stock_size": o.stock_size}

    def result(self) -> JSONObject | None:
        if self.driver.observe().phase != "over":
            return None
        return result_json(self.driver.result())


def open_peer_adapter(name: str) -> PeerAdapter:
    """The named peer adapter; AdapterError (exit 2) with the reason when it cannot load."""
    from ginspec.conformance.adapters.base import AdapterError

    from .model import PeerUnavailable

    try:
        return ADAPTERS[name]()
    except PeerUnavailable as exc:
        raise AdapterError(f"--adapter {name}: {exc}") from None


class OpenSpielAdapter(PeerAdapter):
    """OpenSpiel's ``gin_rummy`` (extra ``ginspec[openspiel]``)."""

    peer = "openspiel"
    overridable = ("knock_limit", "oklahoma", "gin_bonus", "undercut_bonus")  # OKLAHOMA.ACE: gin only


class RLCardAdapter(PeerAdapter):
    """RLCard's gin rummy (extra ``ginspec[rlcard]``)."""

    peer = "rlcard"
    overridable = ("knock_limit", "discard_taken_card", "wall_size")


ADAPTERS: dict[str, type[PeerAdapter]] = {"openspiel": OpenSpielAdapter,
                                           "rlcard": RLCardAdapter}
"""The named adapter SPECs."""

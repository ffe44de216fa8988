"""Live differential play (conformance/peers/lockstep.py): it must find a planted difference,
replay what it reports, and against the real peers find only the known differences."""

from __future__ import annotations

import pytest
from ginspec.conformance.peers import PeerDriver, Verdict
from ginspec.conformance.peers.actions import canonical
from ginspec.conformance.peers.lockstep import Divergence, lockstep
from ginspec.conformance.peers.reference_driver import ReferenceDriver
from ginspec.spec.profiles import ruleset
from peer_support import driver_or_skip


class NoDiscardOfTakenCard(PeerDriver):
    """A planted rule change: forbids discarding the card just taken (wraps a real driver)."""

    def __init__(self, inner: PeerDriver):
        self.inner, self.info = inner, inner.info
        self.taken: int | None = None

    def check_params(self, params):  # type: ignore[no-untyped-def]
        return self.inner.check_params(params)

    def new_hand(self, deal, dealer, params):  # type: ignore[no-untyped-def]
        self.taken = None
        self.inner.new_hand(deal, dealer, params)

    def legal_actions(self) -> list[str]:
        return [a for a in self.inner.legal_actions()
                if not (canonical(a)[0] == "discard" and canonical(a)[1] == self.taken)]

    def apply(self, action: str) -> Verdict:
        if action not in self.legal_actions():
            return Verdict(False, "planted rule")
        top = self.inner.observe().discard_top
        verdict = self.inner.apply(action)
        self.taken = top if action in ("take-upcard", "take-discard") else None
        return verdict

    def observe(self):  # type: ignore[no-untyped-def]
        return self.inner.observe()

    def result(self):  # type: ignore[no-untyped-def]
        return self.inner.result()


def replay(d: PeerDriver, div: Divergence, params: dict[str, object]) -> set[object]:
    d.new_hand(list(div.deck), div.dealer, params)
    for _, action in div.actions:
        assert d.apply(action).accepted
    return {canonical(a) for a in d.legal_actions()}


def test_identical_engines_agree() -> None:
    a, b = driver_or_skip("openspiel"), driver_or_skip("openspiel")
    report = lockstep(a, b, {}, hands=20, seed=3)
    assert report.divergences == [] and report.agreed_hands == 20
    assert sum(report.outcomes.values()) == 20 and report.outcomes["knock"] > 0


def test_a_planted_difference_is_found_and_replays() -> None:
    a = driver_or_skip("openspiel")
    b = NoDiscardOfTakenCard(driver_or_skip("openspiel"))
    report = lockstep(a, b, {}, hands=30, seed=5)
    assert report.divergences, "the planted rule was never noticed"
    div = report.first_of_each()[0]
    assert div.kind == "legal-actions" and div.signature.endswith("+peer discard")
    assert replay(a, div, {}) != replay(b, div, {})
    assert div.actions[-1][1] in ("take-upcard", "take-discard")


KNOWN_OPENSPIEL = (
    "legal actions in defender-layoff",       # chain stops after two cards / untargeted layoffs
    "legal actions in discard: +ours knock",  # 11-card deadwood miscounted: a knock refused
)
KNOWN_RLCARD = (
    "legal actions in discard: +peer knock",  # knock with the card just picked up
)


@pytest.mark.parametrize(("peer", "known"), [("openspiel", KNOWN_OPENSPIEL),
                                             ("rlcard", KNOWN_RLCARD)])
def test_the_real_peer_differs_only_in_known_ways(peer: str, known: tuple[str, ...]) -> None:
    """Against the reference under the peer's own profile, every divergence must be one of
    the documented ones (docs/conformance/peer-rules.md), and most hands agree to the end."""
    driver = driver_or_skip(peer)
    params = dict(ruleset(peer))
    report = lockstep(driver, ReferenceDriver(), params, hands=40, seed=11)
    unknown = [d for d in report.divergences if not d.signature.startswith(known)]
    assert not unknown, [d.to_json() for d in unknown[:2]]
    assert report.agreed_hands >= 30

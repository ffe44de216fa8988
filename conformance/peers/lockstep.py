"""Live differential play: a peer and our reference in lockstep on seeded random hands.

After every action both sides must agree on who acts, the hands, the stock and the discard
top, and on the SET of legal actions (compared in canonical form, see
:mod:`~ginspec.conformance.peers.actions`); at the end they must agree on the result. The
first disagreement of a hand is a :class:`Divergence`: the deal and the action list that reach
it, which replays the disagreement on its own (a minimal reproducing case: every action in it
is needed to reach the position).

Peers that work differently are compared on what they do model (:attr:`PeerInfo.limitations`):
for RLCard, which melds automatically and has no layoffs, the reference's showdown is completed
the same way (best declaration, best defender melds, no layoffs) and points are not compared;
RLCard's ``gin`` names no discard, so the gin discards of both sides are compared as one choice.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.spec.cards import Card, card_str, card_value

from .actions import Canonical, canonical, parse_melds
from .model import Params, PeerDriver, PeerObservation, PeerResult

PRE_SHOWDOWN = frozenset({"offer-non-dealer", "offer-dealer", "first-draw", "draw", "discard",
                          "wall", "wall-knock"})


@dataclass(frozen=True)
class Divergence:
    """The first disagreement in one hand, with everything needed to replay it."""

    hand: int
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[tuple[int, str], ...]
    """(player, action) pairs both sides accepted before the disagreement."""
    kind: str
    """``observation``, ``legal-actions``, ``verdict`` or ``result``."""
    phase: str
    peer: str
    ours: str
    signature: str
    """A short class of the disagreement, used to group thousands of hands."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": {"dealer": self.dealer, "deck": [card_str(c) for c in self.deck]},
            "steps": [{"player": p, "action": a} for p, a in self.actions],
            "kind": self.kind, "phase": self.phase, "peer": self.peer, "ours": self.ours,
            "signature": self.signature,
        }


@dataclass
class LockstepReport:
    """The outcome of :func:`lockstep`."""

    peer: str
    params: dict[str, Any]
    seed: int
    hands: int = 0
    steps: int = 0
    agreed_hands: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    divergences: list[Divergence] = field(default_factory=list)
    by_signature: Counter[str] = field(default_factory=Counter)
    seconds_peer: float = 0.0
    seconds_ours: float = 0.0
    seconds_total: float = 0.0

    def first_of_each(self) -> list[Divergence]:
        """The shortest divergence of each signature, most frequent signature first."""
        best: dict[str, Divergence] = {}
        for d in self.divergences:
            if d.signature not in best or len(d.actions) < len(best[d.signature].actions):
                best[d.signature] = d
        return [best[s] for s, _ in self.by_signature.most_common() if s in best]


class _Timed:
    """Wraps a driver and adds the time spent in it to a counter."""

    def __init__(self, driver: PeerDriver, report: LockstepReport, attr: str):
        self.d, self.r, self.attr = driver, report, attr

    def __call__(self, name: str, *args: Any) -> Any:
        t = time.perf_counter()
        try:
            return getattr(self.d, name)(*args)
        finally:
            setattr(self.r, self.attr, getattr(self.r, self.attr) + time.perf_counter() - t)


def _gin_collapse(actions: Iterable[str], hand: Sequence[Card]) -> frozenset[Canonical]:
    """Canonical actions with every gin discard folded into one ``("knock", "gin")``."""
    out: set[Canonical] = set()
    for a in actions:
        c = canonical(a)
        if c[0] == "knock" and len(hand) == 11 and isinstance(c[1], int) and \
                min_deadwood([x for x in hand if x != c[1]]) == 0:
            out.add(("knock", "gin"))
        else:
            out.add(c)
    return frozenset(out)


def _obs_key(o: PeerObservation) -> tuple[Any, ...]:
    return (o.to_act, tuple(sorted(o.hands[0])), tuple(sorted(o.hands[1])), o.stock_size,
            o.discard_top)


def _melded_value(action: str) -> int:
    words = action.split(None, 1)
    return sum(card_value(c) for m in parse_melds(words[1] if len(words) > 1 else "")
               for c in m)


def _auto_showdown(ours: _Timed) -> None:
    """Finish the reference's showdown as an automatic-melding peer does: the knocker's
    declaration with the least deadwood, the defender's melds of most value, no layoffs."""
    while ours("observe").phase != "over":
        phase = ours("observe").phase
        legal = ours("legal_actions")
        if phase in ("declare", "defender-meld"):
            choice = max(legal, key=lambda a: (_melded_value(a), a))
        elif "done" in legal:
            choice = "done"
        else:
            raise AssertionError(f"auto showdown: no choice in phase {phase}: {legal}")
        verdict = ours("apply", choice)
        assert verdict.accepted, verdict


Chooser = Callable[[random.Random, PeerObservation, list[str]], str]


def greedy_choice(rng: random.Random, obs: PeerObservation, legal: list[str]) -> str:
    """Play that reaches showdowns often: mostly keep the hand with the least deadwood, knock
    when possible, lay off before saying done; one move in five is random."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    knocks = [a for a in legal if a.startswith("knock")]
    if knocks:
        return rng.choice(knocks)
    layoffs = [a for a in legal if a.startswith("layoff")]
    if layoffs:
        return rng.choice(layoffs)
    hand = list(obs.hands[obs.to_act]) if obs.to_act is not None else []
    discards = [a for a in legal if a.startswith("discard")]
    if discards:
        def after(a: str) -> int:
            card = canonical(a)[1]
            return min_deadwood([c for c in hand if c != card])
        return min(discards, key=lambda a: (after(a), a))
    top = obs.discard_top
    if "take-discard" in legal or "take-upcard" in legal:
        take = "take-discard" if "take-discard" in legal else "take-upcard"
        if top is not None and hand and min_deadwood_after_discard([*hand, top]) < min_deadwood(
                hand):
            return take
        others = [a for a in legal if a != take]
        return others[0] if others else take
    return rng.choice(legal)


def deal_for_hand(seed: int, hand: int) -> tuple[list[Card], int]:
    """The deal of hand ``hand`` of a run with ``seed``: a shuffled deck and a dealer."""
    rng = random.Random(f"ginspec-lockstep:{seed}:{hand}")
    deck = list(range(52))
    rng.shuffle(deck)
    return deck, rng.randrange(2)


def _result_key(r: PeerResult, points: bool) -> tuple[Any, ...]:
    return (r.outcome, r.knocker, r.deadwood, r.points if points else None)


def _play_hand(
    p: _Timed, o: _Timed, report: LockstepReport, h: int, params: tuple[Params, Params],
    chooser: Chooser, flags: tuple[bool, bool, bool], go_on: bool = False,
) -> tuple[list[Divergence], str | None]:
    """Play hand ``h`` on both sides: the divergences found (the first only, unless
    ``go_on``: then play continues with actions both sides allow, and each kind of difference
    is recorded once) and the agreed outcome (None when the sides parted for good)."""
    auto_showdown, gin_auto, points = flags
    deck, dealer = deal_for_hand(report.seed, h)
    rng = random.Random(f"ginspec-lockstep-play:{report.seed}:{h}")
    p("new_hand", deck, dealer, params[0])
    o("new_hand", deck, dealer, params[1])
    history: list[tuple[int, str]] = []
    found: list[Divergence] = []

    def diverge(kind: str, phase: str, peer_s: str, ours_s: str, sig: str
                ) -> tuple[list[Divergence], None]:
        note(kind, phase, peer_s, ours_s, sig)
        return found, None

    def note(kind: str, phase: str, peer_s: str, ours_s: str, sig: str) -> None:
        if all(d.signature != sig for d in found):
            found.append(Divergence(h, dealer, tuple(deck), tuple(history), kind, phase, peer_s,
                                    ours_s, sig))

    while True:
        po, oo = p("observe"), o("observe")
        if po.phase == "over" and auto_showdown and oo.phase == "declare":
            _auto_showdown(o)
            oo = o("observe")
        if (po.phase == "over") != (oo.phase == "over"):
            return diverge("observation", oo.phase, po.phase, oo.phase,
                           f"hand over: peer {po.phase == 'over'}, ours {oo.phase == 'over'}"
                           f" (ours in {oo.phase})")
        if po.phase == "over":
            pr, orr = p("result"), o("result")
            if _result_key(pr, points) != _result_key(orr, points):
                return diverge("result", "over", repr(pr), repr(orr),
                               f"result {pr.outcome}/{orr.outcome}")
            return found, str(orr.outcome)
        if oo.phase in PRE_SHOWDOWN and _obs_key(po) != _obs_key(oo):
            return diverge("observation", oo.phase, repr(po), repr(oo),
                           f"observation in {oo.phase}")
        pl, ol = p("legal_actions"), o("legal_actions")
        if gin_auto and po.to_act is not None:
            hand = list(po.hands[po.to_act])
            ps, os_ = _gin_collapse(pl, hand), _gin_collapse(ol, hand)
        else:
            ps = frozenset(canonical(a) for a in pl)
            os_ = frozenset(canonical(a) for a in ol)
        if ps != os_:
            only_peer = sorted(a for a in pl if canonical(a) not in os_)
            only_ours = sorted(a for a in ol if canonical(a) not in ps)
            verbs = sorted({("+peer " + a.split()[0]) for a in only_peer}
                           | {("+ours " + a.split()[0]) for a in only_ours})
            sig = f"legal actions in {oo.phase}: {', '.join(verbs)}"
            shared = sorted(a for a in pl if canonical(a) in os_)
            if not go_on or not shared:
                return diverge("legal-actions", oo.phase, " | ".join(only_peer) or "-",
                               " | ".join(only_ours) or "-", sig)
            note("legal-actions", oo.phase, " | ".join(only_peer) or "-",
                 " | ".join(only_ours) or "-", sig)
            pl = shared
        action = chooser(rng, po, sorted(pl))
        who = oo.to_act if oo.to_act is not None else -1
        pv = p("apply", action)
        ov = o("apply", action)
        report.steps += 1
        if pv.accepted != ov.accepted or not pv.accepted:
            return diverge("verdict", oo.phase, repr(pv), repr(ov),
                           f"verdict on {action.split()[0]}")
        history.append((who, action))


def lockstep(
    peer: PeerDriver,
    ours: PeerDriver,
    params: Params,
    *,
    hands: int,
    seed: int = 0,
    chooser: Chooser = greedy_choice,
    max_divergences: int | None = None,
    peer_params: Params | None = None,
    go_on: bool = False,
) -> LockstepReport:
    """Play ``hands`` seeded random hands on ``peer`` and ``ours`` side by side.

    Both play ``params``, unless ``peer_params`` is given: then the peer plays its own rules
    and every divergence is a difference between those and ``params`` (e.g. the peer's own
    profile against the closest seed profile). With ``go_on`` a hand continues past a
    difference in legal actions with an action both sides allow, so one early difference does
    not hide the later ones."""
    report = LockstepReport(peer.info.name, dict(params), seed)
    both = (params if peer_params is None else peer_params, params)
    p, o = _Timed(peer, report, "seconds_peer"), _Timed(ours, report, "seconds_ours")
    limits = " ".join(peer.info.limitations)
    flags = ("melding.explicit" not in peer.info.capabilities,
             "gin names no discard" in limits, "no points" not in limits)
    start = time.perf_counter()
    for h in range(hands):
        if max_divergences is not None and len(report.divergences) >= max_divergences:
            break
        report.hands += 1
        found, outcome = _play_hand(p, o, report, h, both, chooser, flags, go_on)
        for d in found:
            report.divergences.append(d)
            report.by_signature[d.signature] += 1
        if not found:
            report.agreed_hands += 1
        if outcome is not None:
            report.outcomes[outcome] += 1
    report.seconds_total = time.perf_counter() - start
    return report

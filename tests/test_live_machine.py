"""The live machine (conformance/stateful.py): it finds a planted difference and writes a case
that replays it, finds nothing against the reference itself, plays automatic showdowns and
engine deals, plays past the differences an expect-fail list names, and against the real
peers finds only their documented differences while reaching showdowns."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conformance_fakes.own_deal import OwnDeal, TakenCardKept
from ginspec.conformance.adapters.base import Hello, JSONObject
from ginspec.conformance.adapters.reference import AutomaticReference, ReferenceAdapter
from ginspec.conformance.cases import load_cases
from ginspec.conformance.runner import Runner
from ginspec.conformance.stateful import LiveRun, play_live, read_engine_deal, run_live
from ginspec.reference.game import deal_from_seed
from ginspec.spec.cards import card_str
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import ruleset
from peer_support import adapter_or_skip


class NoDiscardOfTakenCard(TakenCardKept, ReferenceAdapter):
    """A planted rule change: the card just taken may not be discarded (as if the profile said
    discard_taken_card = never), with the right refusal code."""


def _run(adapter: Any, profile: str, hands: int, **kw: Any) -> tuple[LiveRun, list[Any]]:
    run = LiveRun(adapter, adapter.hello(), ruleset(profile), hands=hands, **kw)
    return run, play_live(run, seed=kw.pop("seed", 5) if "seed" in kw else 5, shrink_seconds=10)


def test_the_reference_agrees_with_itself_and_reaches_showdowns_and_matches() -> None:
    """The bounds of docs/conformance/live.md: at least 40 % of hands reach a showdown, at
    least one whole match per 20 hands reaches its target; --hands N plays about N hands."""
    run, new = _run(ReferenceAdapter(), "pagat", 100)  # (40 hands sat one match from the bound)
    s = run.stats
    assert new == [] and 100 <= s.hands <= 120
    assert s.showdowns >= 0.4 * s.hands, s.outcomes
    assert s.matches >= s.hands // 20, s


def test_automatic_showdowns_agree_with_best_play() -> None:
    run, new = _run(AutomaticReference(), "hoyle", 10)
    assert new == [] and run.stats.showdowns > 4


def test_a_planted_difference_is_found_shrunk_and_written_as_a_case(tmp_path: Path) -> None:
    """``ginspec conform --live``'s engine: the divergence is written as a case that fails for
    the planted engine and passes for the reference."""
    planted = NoDiscardOfTakenCard()
    out = io.StringIO()
    code = run_live(planted, planted.hello(), ruleset("openspiel"), seed=5, hands=40,
                    out=tmp_path, stdout=out)
    text = out.getvalue()
    assert code == 1 and "minimal case" in text, text
    [written] = tmp_path.glob("live.openspiel.*.json")
    data: JSONObject = json.loads(written.read_text())
    assert data["origin"] == "generated" and data["decides"]
    assert data["source"]["divergence"].startswith(("live.legal-actions.discard",
                                                    "live.verdict.discard"))
    [loaded] = load_cases([written])
    assert Runner(planted, planted.hello()).run([loaded]).counts()["fail"] == 1
    reference = ReferenceAdapter()
    assert Runner(reference, reference.hello()).run([loaded]).counts()["pass"] == 1


def test_an_expected_divergence_is_counted_and_played_past() -> None:
    expected = {"live.legal-actions.discard.missing-discard": "planted",
                "live.verdict.discard.discard.accepted": "planted"}
    run, new = _run(NoDiscardOfTakenCard(), "openspiel", 12, expect_fail=expected)
    assert new == [], [(d.ident, d.message) for d, _ in new]
    assert sum(run.stats.known.values()) >= 1 and run.stats.hands >= 12


def test_engine_deals_are_checked() -> None:
    deal = deal_from_seed(4, 1)
    tokens = [card_str(c) for c in deal.deck]
    good = {"dealer": 1, "hands": [tokens[0:20:2], tokens[1:20:2]], "upcard": tokens[20],
            "stock": tokens[21:]}
    made, clause, _ = read_engine_deal(good, 1, eleven=False)
    assert made is not None and made.deck == deal.deck and clause == ""
    fifty = {**good, "stock": tokens[21:-2]}
    assert read_engine_deal(fifty, 1, eleven=False)[1] == "DEAL.SHUFFLE"
    assert read_engine_deal(good, 0, eleven=False)[1] == "MATCH.NEXT-DEALER"
    assert read_engine_deal({**good, "upcard": None, "stock": tokens[20:]}, 1,
                            eleven=False)[1] == "DEAL.UPCARD"


def test_an_engine_dealing_itself_is_played_on_its_deals() -> None:
    """The machine reads the engine's deal, checks it and plays it; the seed it sends makes the
    engine deal the same when Hypothesis replays a game (else the run is flaky)."""
    run, new = _run(OwnDeal(), "pagat", 10)
    assert new == [] and run.stats.hands >= 10 and run.stats.showdowns >= 4
    short = OwnDeal()
    short.short = True
    _, new = _run(short, "pagat", 3)
    assert [d.ident for d, _ in new] == ["live.deal.DEAL.SHUFFLE"]


def test_both_explicit_and_automatic_is_refused() -> None:
    class Both(ReferenceAdapter):
        def hello(self) -> Hello:
            h = super().hello()
            return Hello(h.name, h.version, profiles=h.profiles,
                         capabilities=(*h.capabilities, "melding.automatic"))
    with pytest.raises(GinspecError, match=r"melding\.explicit and melding\.automatic"):
        LiveRun(Both(), Both().hello(), ruleset("pagat"))


KNOWN: dict[str, dict[str, str]] = {
    "openspiel": {
        "live.legal-actions.defender-layoff.missing-layoff": "chained layoffs stop (LAYOFF.CHAIN)",
        "live.legal-actions.defender-layoff.extra-layoff": "untargeted layoffs (LAYOFF.TARGET)",
        "live.legal-actions.defender-layoff.extra-layoff.missing-layoff": "both of the above",
        "live.legal-actions.discard.missing-knock": "11-card deadwood miscounted (KNOCK.ELIGIBLE)",
        "live.verdict.discard.knock.refused": "11-card deadwood miscounted (KNOCK.ELIGIBLE)",
    },
    "rlcard": {
        "live.legal-actions.discard.extra-knock": "knock with the card just taken",
        "live.legal-actions.discard.missing-knock": "gin names no discard: RLCard picks one",
        "live.result.deadwood.knock": "no layoffs",
        "live.result.deadwood.undercut": "no layoffs",
        "live.result.outcome.knock": "no layoffs",
        "live.result.outcome.undercut": "no layoffs",
        "live.result.winner.knock": "no layoffs",
        "live.result.winner.undercut": "no layoffs",
        "live.result.points.knock": "no points (training rewards)",
        "live.result.points.undercut": "no points (training rewards)",
        "live.result.points.gin": "no points (training rewards)",
        "live.result.points.tie": "no points (training rewards)",
        "live.result.boxes.knock": "no points (training rewards)",
        "live.result.boxes.undercut": "no points (training rewards)",
        "live.result.boxes.gin": "no points (training rewards)",
        "live.result.boxes.tie": "no points (training rewards)",
        "live.result.points.void": "no points (training rewards)",
        "live.result.boxes.void": "no points (training rewards)",
    },
}


@pytest.mark.parametrize("peer", ["openspiel", "rlcard"])
def test_the_real_peer_differs_only_in_known_ways(peer: str) -> None:
    """Against the reference under the peer's own profile every divergence is a documented
    one (docs/conformance/peer-rules.md), and hands reach showdowns that are compared."""
    adapter = adapter_or_skip(peer)
    run, new = _run(adapter, peer, 8, expect_fail=KNOWN[peer])
    assert new == [], [(d.ident, d.message) for d, _ in new]
    assert run.stats.showdowns >= 3, run.stats.outcomes

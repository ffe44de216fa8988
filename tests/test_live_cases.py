"""The cases the live mode writes (conformance/stateful.py, ``case_of``): their IDs pass the
case loader's rules whatever the divergence, the profile or the length, and a divergence in a
hand an engine dealt itself (deal.engine) is written so that the engine fails it again."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conformance_fakes.own_deal import OwnDeal, OwnDealNoDiscardOfTakenCard
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import load_cases
from ginspec.conformance.cli.conform_command import _explain_shrunk_case
from ginspec.conformance.runner import Runner
from ginspec.conformance.stateful import case_id, run_live
from ginspec.spec.profiles import ruleset

ID_RULE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
"""The case format's ID rule (conformance/schema/case.schema.json, ``case_id``)."""
SUITE = Path(__file__).resolve().parents[1] / "conformance" / "suite" / "cases"


def test_a_deal_divergence_id_is_lower_case() -> None:
    assert case_id("live.oklahoma.deal.DEAL.SHUFFLE.s0.n0") == \
        "live.oklahoma.deal.deal.shuffle.s0.n0"


def test_every_name_becomes_a_valid_id() -> None:
    for name in ("live.pagat.result.big_gin.gin.s7.n3", "live.My Rules.deal.DEAL.HANDS.s1",
                 "live." + "x" * 200, "live." + "y" * 200, "__", "live.a/b\\c.s0"):
        ident = case_id(name)
        assert ID_RULE.match(ident) and len(ident) <= 120, (name, ident)
    assert case_id("live." + "x" * 200) != case_id("live." + "x" * 199)


def _live(engine: Any, tmp_path: Path, hands: int, profile: str = "pagat"
          ) -> tuple[int, str, Path]:
    out = io.StringIO()
    code = run_live(engine, engine.hello(), ruleset(profile), seed=5, hands=hands,
                    out=tmp_path, stdout=out, max_new=1)
    [written] = tmp_path.glob("live.*.json")
    return code, out.getvalue(), written


def test_a_bad_engine_deal_is_written_as_a_case_that_fails_again(tmp_path: Path) -> None:
    """An engine that deals itself 50 cards breaks DEAL.SHUFFLE (the deal is the 52 cards of
    the pack). The case written loads, records the seed and the deal the engine reported, and
    fails again, on DEAL.SHUFFLE, when the same engine plays it; an engine that does not deal
    itself cannot play it (no deck holds that deal)."""
    engine = OwnDeal()
    engine.short = True
    code, text, written = _live(engine, tmp_path, 3)
    assert code == 1, text
    [case] = load_cases([written])
    assert ID_RULE.match(case.id) and "deal.engine" in case.requires
    assert "seed" in case.deals[0] and "deck" not in case.deals[0]
    reported = json.loads(case.data["source"]["dealt"])
    assert sum(len(h) for h in reported["hands"]) + 1 + len(reported["stock"]) == 50
    again = Runner(engine, engine.hello()).run_case(case)
    assert (again.status, again.culprit) == ("fail", "DEAL.SHUFFLE"), again
    reference = ReferenceAdapter()
    assert Runner(reference, reference.hello()).run_case(case).status == "skip"


def test_a_divergence_in_an_engine_dealt_hand_replays_the_engine_deck(tmp_path: Path) -> None:
    """A difference later in a hand the engine dealt: the case holds the engine's deck, the seed
    it dealt it from and the steps. The engine, dealing again from the seed, fails it again;
    the reference, sent the deck, passes it. (Under the openspiel rules the card just taken
    may be discarded, TURN.DISCARD-TAKEN.)"""
    engine = OwnDealNoDiscardOfTakenCard()
    code, text, written = _live(engine, tmp_path, 40, "openspiel")
    assert code == 1, text
    [case] = load_cases([written])
    assert ID_RULE.match(case.id) and case.steps
    deal = case.deals[0]
    assert "seed" in deal and len(deal["deck"]) == 52
    assert Runner(engine, engine.hello()).run_case(case).status == "fail"
    reference = ReferenceAdapter()
    assert Runner(reference, reference.hello()).run_case(case).status == "pass"
    assert "not deterministic" not in text and "skipped" not in text


def test_the_rerun_of_a_skipped_case_says_skipped(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``ginspec conform --live`` runs the last case it wrote once more; when the runner skips it
    (here a hand with a fixed deck, for an engine that deals itself), it says skipped and why,
    not that the engine is not deterministic."""
    source = SUITE / "hand" / "casebook.c01.1.json"
    profile = json.loads(source.read_text(encoding="utf-8"))["profile"]
    shutil.copy(source, tmp_path / f"live.{profile}.copied.json")
    engine = OwnDeal()
    args = argparse.Namespace(out=tmp_path, adapter=["python:own_deal"], timeout=10.0)
    _explain_shrunk_case(args, engine, engine.hello(), profile)
    text = capsys.readouterr().out
    assert "was skipped when rerun" in text and "deal.engine" in text, text
    assert "not deterministic" not in text

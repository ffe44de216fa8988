"""``ginspec bench melds``: the hand sets, the cross-check, and the report (not the speed: speed
targets are measured by the command itself, see docs/performance.md)."""

from __future__ import annotations

import importlib.util
import json
import random

import pytest
from ginspec.conformance.bench import meld_bench as bench
from ginspec.conformance.cli import main
from ginspec.reference.meld_rules import STANDARD, MeldRules
from meld_oracle import Rules, oracle_partitions

HAVE_PYSPIEL = importlib.util.find_spec("pyspiel") is not None


def test_hand_sets_are_what_they_claim() -> None:
    rng = random.Random(3)
    for hand in bench.uniform_hands(rng, 50, 11):
        assert len(hand) == len(set(hand)) == 11
    for hand in bench.dense_hands(rng, 50):
        ranks = sorted({c % 13 for c in hand})
        assert len(hand) == len(set(hand)) == 10
        assert ranks == list(range(ranks[0], ranks[0] + 3))


def test_packing_count_matches_the_oracle() -> None:
    rng = random.Random(4)
    hands = bench.worst_hands(rng, 6) + bench.dense_hands(rng, 6)
    for hand in hands:
        assert bench.count_packings(hand) == sum(1 for _ in oracle_partitions(hand, Rules()))


def test_worst_hands_have_the_most_set_choices() -> None:
    # Ten cards hold at most two ranks four times: 6 x 6 ways to choose the set cards.
    hands = bench.worst_hands(random.Random(5), 10)
    assert max(bench.count_set_choices(h) for h in hands) == 36
    assert all(len(h) == len(set(h)) == 10 for h in hands)


def test_report_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "melds", "--hands", "24", "--reps", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = [s["name"] for s in report["sets"]]
    assert names == ["uniform-10", "uniform-11", "dense-10", "worst-10", "dense-11"]
    for s in report["sets"]:
        assert s["ours"]["median_us"] > 0
        assert s["ours"]["p90_us"] >= s["ours"]["median_us"]
        assert (s["openspiel"] is not None) == HAVE_PYSPIEL
    assert report["machine"]["python"]


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "melds", "--hands", "8", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| hand set |")
    assert "| worst-10 |" in out


@pytest.mark.parametrize("argv", [["bench"], ["bench", "melds", "--hands", "0"],
                                  ["bench", "melds", "--reps", "-1"]])
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.skipif(not HAVE_PYSPIEL, reason="OpenSpiel (pyspiel) is not installed")
def test_a_wrong_answer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def off_by_one(cards: list[int], rules: MeldRules = STANDARD) -> int:
        return 1 + sum(min(c % 13 + 1, 10) for c in cards)

    monkeypatch.setattr(bench, "min_deadwood", off_by_one)
    with pytest.raises(bench.BenchmarkMismatch):
        bench.run_benchmark(hands=8, reps=1)

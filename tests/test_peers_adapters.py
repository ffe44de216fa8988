"""The peer adapters (OpenSpiel, RLCard): the committed suite runs to the end with zero
adapter errors, and every failure is one the expect-fail list classifies (an upstream fix shows
as an unexpected pass, exit 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from peer_support import driver_or_skip

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("peer", ["openspiel", "rlcard"])
def test_suite_runs_with_the_expect_fail_list(peer: str, tmp_path: Path) -> None:
    pytest.importorskip("ginspec.conformance.adapters.base",
                        reason="the conformance runner has not landed")
    driver_or_skip(peer)
    import json

    from ginspec.conformance.cli import main

    report = tmp_path / "report.jsonl"
    code = main(["conform", "--adapter", peer, "--no-progress", "--json", str(report),
                 "--suite", str(ROOT / "conformance" / "suite"),
                 "--suite", str(ROOT / "conformance" / "peers" / "regressions"),
                 "--expect-fail", str(ROOT / "conformance" / "expect-fail" / f"{peer}.txt")])
    footer = json.loads(report.read_text().splitlines()[-1])
    counts = footer["counts"]
    assert counts["error"] == 0, counts
    assert counts["fail"] == 0 and counts["xpass"] == 0, counts
    assert counts["pass"] > 0 and counts["xfail"] > 0, counts
    assert code == 0


def test_hello_is_honest() -> None:
    pytest.importorskip("ginspec.conformance.adapters.base",
                        reason="the conformance runner has not landed")
    driver_or_skip("openspiel")
    driver_or_skip("rlcard")
    from ginspec.conformance.adapters.openspiel import OpenSpielAdapter
    from ginspec.conformance.adapters.rlcard import RLCardAdapter

    os_hello = OpenSpielAdapter().hello()
    assert "openspiel" in os_hello.profiles and "pagat" not in os_hello.profiles
    assert {"melding.explicit", "layoff.explicit"} <= set(os_hello.capabilities)
    assert "match" not in os_hello.capabilities and "rejection-codes" not in os_hello.capabilities
    rl_hello = RLCardAdapter().hello()
    assert rl_hello.profiles == ("rlcard",)
    assert "melding.explicit" not in rl_hello.capabilities
    assert {"melding.automatic", "layoff.automatic"} <= set(rl_hello.capabilities)


def test_regression_cases_are_fresh_and_the_reference_passes_them(tmp_path: Path) -> None:
    """The committed regression cases are exactly what the generator writes, and every one of
    them is passed by the reference (so the hand-written expectations agree with it)."""
    pytest.importorskip("ginspec.conformance.adapters.base",
                        reason="the conformance runner has not landed")
    import json

    from ginspec.conformance.adapters.peer_regressions import ROOT as REGRESSIONS
    from ginspec.conformance.adapters.peer_regressions import main as write
    from ginspec.conformance.cli import main

    write([str(tmp_path / "fresh")])
    fresh = sorted(p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh").rglob("*.json"))
    committed = sorted(p.relative_to(REGRESSIONS) for p in REGRESSIONS.rglob("*.json"))
    assert fresh == committed and fresh
    for rel in fresh:
        assert (tmp_path / "fresh" / rel).read_bytes() == (REGRESSIONS / rel).read_bytes(), rel
    report = tmp_path / "ref.jsonl"
    code = main(["conform", "--adapter", "reference", "--no-progress", "--json", str(report),
                 "--suite", str(REGRESSIONS)])
    counts = json.loads(report.read_text().splitlines()[-1])["counts"]
    assert code == 0 and counts["pass"] == len(fresh), counts


@pytest.mark.parametrize("peer", ["openspiel", "rlcard"])
def test_smoke(peer: str) -> None:
    """`ginspec conform --smoke --adapter PEER`: the adapter speaks the protocol."""
    pytest.importorskip("ginspec.conformance.adapters.base",
                        reason="the conformance runner has not landed")
    driver_or_skip(peer)
    from ginspec.conformance.cli import main

    assert main(["conform", "--smoke", "--adapter", peer]) == 0

"""The peer drivers as conformance adapters: the committed suite runs to the end with zero
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
    pytest.importorskip("ginspec.conformance.peers.adapters",
                        reason="the peer adapters have not landed")
    driver_or_skip(peer)
    import json

    from ginspec.conformance.cli import main

    report = tmp_path / "report.jsonl"
    code = main(["conform", "--adapter", peer, "--no-progress", "--json", str(report),
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
    pytest.importorskip("ginspec.conformance.peers.adapters",
                        reason="the peer adapters have not landed")
    driver_or_skip("openspiel")
    driver_or_skip("rlcard")
    from ginspec.conformance.peers.adapters import OpenSpielAdapter, RLCardAdapter

    os_hello = OpenSpielAdapter().hello()
    assert "openspiel" in os_hello.profiles and "pagat" not in os_hello.profiles
    assert {"melding.explicit", "layoff.explicit"} <= set(os_hello.capabilities)
    assert "match" not in os_hello.capabilities and "rejection-codes" not in os_hello.capabilities
    rl_hello = RLCardAdapter().hello()
    assert rl_hello.profiles == ("rlcard",)
    assert "melding.explicit" not in rl_hello.capabilities

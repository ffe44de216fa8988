"""The suite's numbers carry certificates (FORMAL.CERTIFICATE): every deadwood, best-discard and
knock/gin verdict of a query case, and every knock verdict of a hand case, has its certificate in
conformance/suite/certificates.jsonl.
CI re-checks a deterministic sample plus every case this branch changed against main (strict
fields, a Z3 re-proof, the independent checker), and runs the JavaScript checker on a sample."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ginspec.reference.proofs.suite_certificates import (
    CERTIFICATES,
    SUITE_DIR,
    certified_cases,
    check_case,
    knock_claims,
    questions,
    read_certificates,
    verify_suite,
)
from ginspec.spec.formal import checker

ROOT = Path(__file__).resolve().parents[1]
NODE_CHECKER = ROOT / "conformance" / "examples" / "node" / "check-certificate.mjs"
CASES = certified_cases(SUITE_DIR)
CERTS = read_certificates(SUITE_DIR)


def _changed_case_ids() -> list[str]:
    """IDs of the query and hand cases this branch changed against main (none outside a git
    checkout)."""
    try:
        out = subprocess.run(["git", "diff", "--name-only", "main", "--", "conformance/suite/cases/query",
                              "conformance/suite/cases/hand"],
                             cwd=ROOT, capture_output=True, text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    ids = []
    for name in out.split():
        path = ROOT / name
        if path.exists():
            ids.append(json.loads(path.read_text(encoding="utf-8"))["id"])
    return ids


def test_every_certified_number_has_its_certificate() -> None:
    assert len(CASES) > 200
    missing = [q.key for case in CASES for q in questions(case) if q.key not in CERTS]
    assert not missing, missing[:5]
    used = {q.key for case in CASES for q in questions(case)}
    assert set(CERTS) == used, sorted(set(CERTS) - used)[:5]


def test_a_sample_and_every_changed_case_are_re_checked() -> None:
    result = verify_suite(SUITE_DIR, sample=25, seed=16, also=_changed_case_ids())
    assert result.ok, result.problems[:5]
    assert result.cases >= 25


def test_a_wrong_expectation_is_caught() -> None:
    knock = next(c for c in CASES if c["kind"] == "query" and c["query"]["what"] == "knock")
    wrong = copy.deepcopy(knock)
    wrong["expect"]["best_discards"] = [knock["query"]["cards"][0]] if knock["query"]["cards"][0] not in \
        knock["expect"]["best_discards"] else []
    assert check_case(knock, CERTS) == []
    assert check_case(wrong, CERTS), "a changed best-discard list must not pass"
    cert = copy.deepcopy(CERTS[questions(knock)[0].key])
    cert["can_knock"] = not cert["can_knock"]
    assert check_case(knock, {questions(knock)[0].key: cert, **{q.key: CERTS[q.key] for q in questions(knock)[1:]}})


def test_hand_cases_carry_their_knock_verdicts() -> None:
    hands = [c for c in CASES if c["kind"] == "hand"]
    assert len(hands) > 200
    claims = [claim for case in hands for claim in knock_claims(case)]
    assert {c.verdict for c in claims} == {"within", "over", "all-melded", "not-all-melded"}
    case = next(c for c in hands if any(k.verdict == "within" and k.step < len(c["steps"])
                                        for k in knock_claims(c)))
    assert check_case(case, CERTS) == []
    step = next(k.step for k in knock_claims(case) if k.verdict == "within")
    wrong = copy.deepcopy(case)  # the same knock, expected to be refused as over the limit
    wrong["steps"][step]["expect"] = {"rejected": "KNOCK_OVER_LIMIT"}
    wrong.pop("rulesets", None)
    assert any("over the limit" in p for p in check_case(wrong, CERTS))


def _sample(n: int) -> list[dict[str, Any]]:
    """Every certificate with a solver-free bound (all but hands with thousands of set choices)."""
    keys = sorted(k for k, c in CERTS.items() if c["lower_bound"] is not None)
    return [CERTS[k] for k in keys[:: max(1, len(keys) // n)]]


def test_the_python_checker_accepts_a_sample() -> None:
    for cert in _sample(60):
        assert checker.check(cert) is None, cert["hand"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_checker_agrees(tmp_path: Path) -> None:
    sample = _sample(60)
    bad = copy.deepcopy(sample[0])
    bad["lower_bound"]["cases"][0]["suits"] = [s + 1 for s in bad["lower_bound"]["cases"][0]["suits"]]
    lines = tmp_path / "certs.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in [*sample, bad]), encoding="utf-8")
    run = subprocess.run(["node", str(NODE_CHECKER), "--lines", str(lines)], capture_output=True,
                         text=True, timeout=300)
    verdicts = run.stdout.splitlines()
    assert verdicts[:-1] == ["ok"] * len(sample), run.stdout + run.stderr
    assert verdicts[-1].startswith("lower bound") and run.returncode == 1
    assert checker.check(bad) is not None


def test_verify_suite_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from ginspec.conformance.cli import main

    assert main(["prove", "--verify-suite", "--sample", "3"]) == 0
    assert "all stand" in capsys.readouterr().out
    assert main(["prove", "--verify-suite", "/nonexistent"]) == 2
    assert main(["prove", "--sample", "3", "7H"]) == 2
    capsys.readouterr()
    assert (SUITE_DIR / CERTIFICATES).is_file()

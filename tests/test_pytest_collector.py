"""The pytest plugin collects cases as real items: stable node IDs ``ginspec::<case ID>`` that
``--co`` lists, ``-k`` and ``--lf`` select and ``pytest-xdist`` spreads; expected failures are
strict xfails with their reasons. The engine is a mutant with one known defect (AceIsOne reads
``1`` as the ace, so only ``spec.notation-ace-is-not-1`` fails among the notation cases)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from ginspec.conformance.cases import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR

MUTANT = "--ginspec-adapter=python:ginspec.conformance.mutants:AceIsOne"
CASES = "--ginspec-cases=spec.notation-*"
FAILING = "spec.notation-ace-is-not-1"


def notation_ids() -> list[str]:
    return [c.id for c in load_cases([SUITE_DIR]) if c.id.startswith("spec.notation-")]


def pytest_run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", MUTANT, CASES, *args],
                          cwd=cwd, capture_output=True, text=True, check=False, timeout=600)


def test_collect_only_lists_every_case_by_node_id(tmp_path: Path) -> None:
    proc = pytest_run(tmp_path, "--co", "-p", "no:cacheprovider")
    assert proc.returncode == 0, proc.stdout[-2000:]
    listed = [line for line in proc.stdout.splitlines() if line.startswith("ginspec::")]
    assert listed == [f"ginspec::{i}" for i in notation_ids()]
    assert f"{len(listed)} tests collected" in proc.stdout


def test_k_selects_cases_and_lf_reruns_the_last_failure(tmp_path: Path) -> None:
    proc = pytest_run(tmp_path, "--co", "-p", "no:cacheprovider", "-k", "ace")
    chosen = [line for line in proc.stdout.splitlines() if line.startswith("ginspec::")]
    assert chosen == [f"ginspec::{i}" for i in notation_ids() if "ace" in i]
    first = pytest_run(tmp_path)
    assert first.returncode == 1
    assert f"FAILED ginspec::{FAILING}" in first.stdout
    assert f"rerun: ginspec conform --adapter python:ginspec.conformance.mutants:AceIsOne --cases {FAILING}" \
        in first.stdout
    again = pytest_run(tmp_path, "--lf")
    assert again.returncode == 1
    assert f"1 failed, {len(notation_ids()) - 1} deselected" in again.stdout


def test_expected_failures_are_strict_xfails_with_reasons(tmp_path: Path) -> None:
    listed = tmp_path / "known.txt"
    listed.write_text(f"{FAILING}  # the mutant reads 1 as the ace\n", encoding="utf-8")
    proc = pytest_run(tmp_path, "-p", "no:cacheprovider", f"--ginspec-expect-fail={listed}")
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (f"XFAIL ginspec::{FAILING} - listed in --ginspec-expect-fail: the mutant reads 1 "
            "as the ace") in proc.stdout
    stale = tmp_path / "stale.txt"
    passing = next(i for i in notation_ids() if i != FAILING)
    stale.write_text(f"{passing}  # not really failing\n", encoding="utf-8")
    proc = pytest_run(tmp_path, "-p", "no:cacheprovider", f"--ginspec-expect-fail={stale}")
    assert proc.returncode == 1
    assert f"FAILED ginspec::{passing}" in proc.stdout and "XPASS(strict)" in proc.stdout


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist not installed")
def test_xdist_workers_collect_the_same_items(tmp_path: Path) -> None:
    proc = pytest_run(tmp_path, "-p", "no:cacheprovider", "-n", "2")
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert f"1 failed, {len(notation_ids()) - 1} passed" in proc.stdout
    assert f"FAILED ginspec::{FAILING}" in proc.stdout

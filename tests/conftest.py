"""Shared test configuration: Hypothesis profiles.

``ci`` (used when CI is set) keeps the whole suite well inside the CI time budget; ``dev`` is the
default; ``thorough`` (HYPOTHESIS_PROFILE=thorough) is for long local runs.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def build_site(out: Path, *options: str) -> Path:
    """Build the documentation site into ``out`` with warnings as errors (``options``: e.g. -D language=sr)."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    # The build writes its generated pages into docs/gen/ (removed and written again): two
    # builds at once (the English and the Serbian site, on two xdist workers) would race there,
    # so a build holds an exclusive lock on the docs folder.
    lock = os.open(docs, os.O_RDONLY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(
            [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", *options, str(docs),
             str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.close(lock)
    assert proc.returncode == 0, f"sphinx-build -W {' '.join(options)} failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture(scope="session")
def site_sr(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built in Serbian (the booklets of seed 001's system are translated), once per session."""
    return build_site(tmp_path_factory.mktemp("site-sr"), "-D", "language=sr")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site, built once per test session with warnings as errors."""
    return build_site(tmp_path_factory.mktemp("site"))


KNOWN_FAILING: dict[str, str] = {}
"""Tests known to fail on main, each with its reason, marked xfail (not strict: a fix may land
before its entry is removed, which the run reports as XPASS). The change that fixes one removes
its entry; the list is not a place to park new failures."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        reason = KNOWN_FAILING.get(item.nodeid)
        if reason:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=False))

"""Packaging: every package folder is listed in pyproject.toml, and the built wheel installs into
a fresh virtual environment and runs.

The wheel test builds from a copy of the source tree (so no stale ``build/`` folder can leak in),
installs the wheel with ``--no-deps`` into a new venv, and makes the dependencies visible through
a ``.pth`` line naming the test interpreter's site-packages. A ``.pth`` *path* line does not run
the ``.pth`` files inside that folder, so the editable install of the test interpreter stays
invisible; the test checks that ``ginspec`` is imported from the fresh venv.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"spec": "ginspec.spec", "reference": "ginspec.reference", "conformance": "ginspec.conformance"}


def test_every_package_folder_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = set()
    for folder, name in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *parts)))
    assert found == listed


def build_wheel(tmp: Path) -> Path:
    source = tmp / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    out = tmp / "wheels"
    base = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)]
    proc = subprocess.run(base, capture_output=True, text=True, check=False, timeout=240)
    if proc.returncode != 0:
        # No index reachable for the isolated build: build with this interpreter's setuptools.
        proc = subprocess.run([*base, "--no-build-isolation"], capture_output=True, text=True,
                              check=False, timeout=240)
    assert proc.returncode == 0, proc.stderr
    [wheel] = out.glob("ginspec-*.whl")
    return wheel


@pytest.mark.wheel
def test_wheel_installs_and_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)

    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"ginspec", wheel.name.split("-py")[0] + ".dist-info"}, tops  # no bare spec/
    assert "ginspec/__init__.py" not in names  # ginspec is a namespace package
    chapters = {n for n in names if n.startswith("ginspec/spec/chapters/") and n.endswith(".md")}
    assert {f"ginspec/spec/chapters/{p.name}" for p in (ROOT / "spec/chapters").glob("*.md")} == chapters
    assert "ginspec/spec/parameters.toml" in names

    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # this interpreter's pip installs into it
    bindir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    python = bindir / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True,
                   timeout=120)
    fresh_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    (Path(fresh_site) / "_ginspec_test_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")

    def ginspec(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bindir / "ginspec"), *args], capture_output=True, text=True,
                              check=False, timeout=60, cwd=tmp_path)

    where = subprocess.run(
        [str(python), "-c", "import ginspec.spec.cards as m, importlib.metadata as md; "
         "print(m.__file__); print(md.distribution('ginspec').locate_file(''))"],
        check=True, capture_output=True, text=True, cwd=tmp_path).stdout.split("\n")
    assert where[0].startswith(str(env_dir)), where
    assert where[1].startswith(str(env_dir)), where

    version = ginspec("--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == "ginspec " + wheel.name.split("-")[1]

    hand = ["4C", "5C", "6C", "7C", "6D", "3H", "5H", "6H", "3S", "5S", "6S"]
    result = ginspec("deadwood", *hand, "--json")
    assert result.returncode == 0, result.stderr
    analysis = json.loads(result.stdout)
    # Worked by hand in tests/test_melds_checks.py: discard 7C, keep two sets, 4C 3H 3S = 10.
    assert (analysis["deadwood"], analysis["best_discards"]) == (10, ["7C"])

    clauses = ginspec("clauses")
    assert clauses.returncode == 0, clauses.stderr
    assert "MELD.SET" in clauses.stdout

    bad = ginspec("deadwood", "7H", "QQ")
    assert bad.returncode == 2
    assert len(bad.stderr.splitlines()) == 1 and "QQ" in bad.stderr

    site = Path(fresh_site)
    assert not (site / "spec").exists() and not (site / "reference").exists()

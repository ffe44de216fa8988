"""No two modules of the distribution share a base name: every ``.py`` file under the folders that
pyproject.toml maps to ginspec.spec, ginspec.reference and ginspec.conformance has a name of its
own (``__init__.py`` and ``__main__.py`` excepted), so a module is known by its last name alone."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
EXEMPT: Final = frozenset({"__init__.py", "__main__.py"})


def package_folders() -> list[Path]:
    """The folders pyproject.toml's ``package-dir`` maps to the import packages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [ROOT / folder for folder in config["tool"]["setuptools"]["package-dir"].values()]


def shared_base_names(folders: Iterable[Path], root: Path) -> dict[str, list[str]]:
    """Each base name used by more than one module under ``folders`` -> their paths (relative to
    ``root``, sorted)."""
    paths: defaultdict[str, list[str]] = defaultdict(list)
    for folder in folders:
        for path in folder.rglob("*.py"):
            if path.name not in EXEMPT:
                paths[path.name].append(path.relative_to(root).as_posix())
    return {name: sorted(found) for name, found in sorted(paths.items()) if len(found) > 1}


def test_the_package_folders_are_the_three_layers() -> None:
    assert sorted(f.name for f in package_folders()) == ["conformance", "reference", "spec"]
    assert all(f.is_dir() for f in package_folders())


def test_no_two_modules_share_a_base_name() -> None:
    shared = shared_base_names(package_folders(), ROOT)
    assert not shared, "modules sharing a base name: " + "; ".join(
        f"{name}: {', '.join(paths)}" for name, paths in shared.items())


def test_a_shared_base_name_is_found_across_folders_and_depths(tmp_path: Path) -> None:
    for rel in ("spec/__init__.py", "spec/formal/__init__.py", "spec/formal/scoring.py",
                "reference/__init__.py", "reference/scoring.py", "reference/melds.py",
                "conformance/__main__.py", "conformance/cli/__main__.py", "conformance/runner.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("", encoding="utf-8")
    folders = [tmp_path / name for name in ("spec", "reference", "conformance")]
    assert shared_base_names(folders, tmp_path) == {
        "scoring.py": ["reference/scoring.py", "spec/formal/scoring.py"]}

"""What a run reads, by path or by name, so every documented command works after ``pip install``
as well as in a checkout: the suites (``--suite``), the expected-failure lists (``--expect-fail``),
and a user's ruling files turned into cases (``--suite mine.toml``).

Named suites: ``committed`` (the suite in the package, the default) and ``regressions`` (the
minimal cases of the peers' classified differences). Named expect-fail lists: the files of
``conformance/expect-fail/`` by stem, e.g. ``openspiel``. A path that exists always wins over a
name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from ginspec.conformance.cases import Case, CaseFormatError, load_cases

EXPECT_FAIL_DIR: Final = Path(__file__).resolve().parent / "expect-fail"
"""The known-failure lists of the peers, shipped in the package."""
REGRESSIONS_DIR: Final = Path(__file__).resolve().parent / "peers" / "regressions"
"""The regression cases of the peers' differences (written by ``adapters/peer_regressions.py``)."""


def named_suites() -> dict[str, Path]:
    from ginspec.conformance.generate.suite import SUITE_DIR

    return {"committed": SUITE_DIR, "regressions": REGRESSIONS_DIR}


def named_expect_fail() -> dict[str, Path]:
    return {p.stem: p for p in sorted(EXPECT_FAIL_DIR.glob("*.txt"))}


def _path_or_name(option: str, value: str | Path, known: dict[str, Path], what: str,
                  named: str, listed: str) -> Path:
    """An existing path, or the name of one of ``known`` (else a one-line error naming both)."""
    path = Path(value)
    if path.exists():
        return path
    if str(value) in known:
        return known[str(value)]
    raise CaseFormatError(f"{option} {value}: no such {what}, and no {named} of that name "
                          f"({listed}: {', '.join(known)})")


def expect_fail_path(value: str | Path) -> Path:
    """``--expect-fail``: a file, or the name of a list shipped in the package."""
    return _path_or_name("--expect-fail", value, named_expect_fail(), "file", "shipped list",
                         "shipped")


def suite_path(value: str | Path) -> Path:
    """``--suite``: a case file or folder, a ruling file (``.toml``), or a named suite."""
    return _path_or_name("--suite", value, named_suites(), "case file or folder", "suite",
                         "named")


def load_run_cases(values: Sequence[str | Path] | None) -> list[Case]:
    """The cases of ``--suite`` values (default: the committed suite). A ``.toml`` file is a
    ruling (``ginspec ruling new``): its expectations become cases, as the casebook's do."""
    paths = [suite_path(v) for v in values] if values else [named_suites()["committed"]]
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in paths:
        found = ruling_file_cases(path) if path.suffix == ".toml" else load_cases([path])
        for case in found:
            if case.id in seen:
                raise CaseFormatError(f"{case.path or path}: id: {case.id} already used by "
                                      f"{seen[case.id]}")
            seen[case.id] = case.path or str(path)
            cases.append(case)
    return cases


def ruling_file_cases(path: Path) -> list[Case]:
    """The cases of one ruling file: the conversion the committed casebook uses
    (``generate.casebook.ruling_cases``), with IDs ``ruling.<id>.<n>`` and the file as source.
    An expectation the reference does not reach, or answers otherwise, is an error naming it."""
    from ginspec.conformance.generate.casebook import ruling_cases
    from ginspec.reference.rulings import load_ruling
    from ginspec.spec.errors import GinspecError

    ruling = load_ruling(path)
    try:
        made, notes = ruling_cases(ruling)
    except AssertionError as exc:  # the reference rules otherwise than the file expects
        raise CaseFormatError(f"{path}: the reference does not give the expected ruling ({exc}); "
                              f"see 'ginspec ruling check {path}'") from None
    except GinspecError as exc:
        raise CaseFormatError(f"{path}: {exc}") from None
    if notes:
        raise CaseFormatError(f"{path}: expectation {notes[0]['example']}: cannot be played as a "
                              f"case: {notes[0]['reason']}")
    if not made:
        raise CaseFormatError(f"{path}: no expectation to turn into a case")
    return [_as_user_case(c, path) for c in made]


def _as_user_case(case: Case, path: Path) -> Case:
    """A converted case renamed for the user's file, then checked like any case file."""
    import json
    import re

    from ginspec.conformance.cases import parse_case

    data = dict(case.data)
    data["id"] = re.sub(r"[^a-z0-9.-]", "-", "ruling." + case.id.removeprefix("casebook."))
    data["source"] = {**data.get("source", {}), "ruling": str(path)}
    data["description"] = case.description.replace("casebook ", "ruling ", 1)
    fields = {k: v for k, v in data.items() if k not in ("format", "fingerprint")}
    return parse_case(json.loads(Case.make(**fields).to_json()), str(path))


LIVE_PREFIX = "live."
"""Expect-fail IDs of live divergences (``ginspec conform --live``), not of suite cases."""


def check_expect_fail_ids(expect_fail: dict[str, str], cases: Iterable[Case], where: str) -> None:
    """Every listed ID must be a case of the run's suites (a typo is an error, not a no-op)."""
    unknown = sorted(k for k in set(expect_fail) - {c.id for c in cases}
                     if not k.startswith(LIVE_PREFIX))
    if unknown:
        raise CaseFormatError(f"{where}: {unknown[0]}: no such case in the suite")

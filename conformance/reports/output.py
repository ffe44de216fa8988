"""Where reports go: paths checked before a run starts, and ``-`` meaning standard output."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from ginspec.spec.errors import GinspecError
from ginspec.spec.inputs import check_writable

STDOUT = "-"


class ReportPathError(GinspecError):
    """A report cannot be written where it was asked for (checked before the run starts)."""


def is_stdout(path: Path | str) -> bool:
    return str(path) == STDOUT


def check_outputs(flags: Iterable[tuple[str, Path | None]]) -> None:
    """Refuse, in one line naming the flag, a report path that cannot be written: a missing or
    read-only folder, a folder given as the file, a read-only file, a name too long for the file
    system, one file for two reports, or two reports on standard output."""
    seen: dict[str, str] = {}
    to_stdout: list[str] = []
    for flag, path in flags:
        if path is None:
            continue
        if is_stdout(path):
            to_stdout.append(flag)
            continue
        _check_one(flag, path)
        key = os.path.realpath(path)
        if key in seen:
            raise ReportPathError(f"{flag} {path}: the same file as {seen[key]}")
        seen[key] = flag
    if len(to_stdout) > 1:
        raise ReportPathError(f"{to_stdout[1]} -: only one report can go to standard output "
                              f"({to_stdout[0]} - already does)")


def _check_one(flag: str, path: Path) -> None:
    check_writable(path, ReportPathError, flag)


def emit(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path``, or to standard output for ``-``."""
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ReportPathError(f"{path}: cannot write: {exc.strerror}") from None

"""The one way the command line prints tables and coloured lines (``rich``).

On a terminal: the terminal's width and colour. Piped or redirected: no colour and no width limit,
so a clause or case ID is never cut (``SHOWDOWN.DEFENDER-SPREAD`` stays whole in CI logs).
``NO_COLOR`` (any value) turns colour and every other style off on a terminal too;
``FORCE_COLOR`` turns them on when piped.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ginspec.reference.cli.escape import printable

if TYPE_CHECKING:
    from rich.console import Console

UNLIMITED = 100_000
"""The width of a console that is not a terminal: wide enough that nothing is cut."""

STATUS_STYLE = {
    "pass": "green",
    "fail": "bold red",
    "error": "bold yellow",
    "xpass": "bold red",
    "xfail": "magenta",
    "skip": "dim",
    "declined": "dim",
}
"""The colour of each case status (only on a terminal)."""


def make_console(out: TextIO | None = None) -> Console:
    """A rich console writing to ``out`` (default stdout), sized and coloured as above. It reads
    no markup: text from engines and case files is printed as it is (after
    :func:`ginspec.reference.cli.escape.printable`)."""
    from rich.console import Console

    class InertConsole(Console):
        """Prints strings through :func:`printable`: no engine text drives the terminal."""

        def print(self, *objects: Any, **kwargs: Any) -> None:
            super().print(*(printable(o) if isinstance(o, str) else o for o in objects), **kwargs)

    stream = out if out is not None else sys.stdout
    tty = _isatty(stream)
    if not tty:
        stream = _Trimmed(stream)
    no_color = bool(os.environ.get("NO_COLOR"))
    forced = bool(os.environ.get("FORCE_COLOR")) and not no_color
    return InertConsole(
        file=stream,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
        width=None if tty else UNLIMITED,
        force_terminal=True if forced else None,
        color_system="auto" if (tty or forced) and not no_color else None,
    )


class _Trimmed:
    """A stream that drops the spaces rich pads table rows with at the end of each line (a piped
    table of 126 clauses is otherwise 126 lines of trailing blanks)."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write("\n".join(line.rstrip(" ") for line in text.split("\n")))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None = None,
          right: Iterable[str] = ()) -> Any:
    """A rich table: ``columns`` as headers, ``right`` the right-aligned (numeric) ones. Cells are
    plain text (never markup), and no column is ever cut or wrapped."""
    from rich.table import Table
    from rich.text import Text

    t = Table(title=title, show_edge=False, title_justify="left")
    numeric = set(right)
    for col in columns:
        t.add_column(col, justify="right" if col in numeric else "left", no_wrap=True,
                     overflow="fold")
    for row in rows:
        t.add_row(*(cell if isinstance(cell, Text) else Text(_text(cell)) for cell in row))
    return t


def _text(cell: Any) -> str:
    """A cell's text with control characters and ANSI escapes made visible (engine strings are
    data: ``reference/cli/escape.py``)."""

    return "" if cell is None else printable(cell)


def print_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO | None = None,
                *, title: str | None = None, right: Iterable[str] = ()) -> None:
    """Print :func:`table` to ``out`` (default stdout)."""
    make_console(out).print(table(columns, rows, title=title, right=right))


def styled(text: str, status: str) -> Any:
    """``text`` in the colour of ``status`` (plain when the console has no colour)."""
    from rich.text import Text

    return Text(printable(text), style=STATUS_STYLE.get(status, ""))

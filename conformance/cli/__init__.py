"""The ``ginspec`` command line.

Each sub-command lives in its own module in this package and exposes ``register(subparsers)``;
:data:`COMMAND_MODULES` lists them in help order. Every error a user can cause ends in one line
on stderr and exit code 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

from ginspec.spec.errors import GinspecError

COMMAND_MODULES: tuple[str, ...] = (
    "deadwood", "clauses", "rules", "adjudicate", "ruling", "play", "bench", "prove", "suite",
    "conform",
)
"""Modules of ginspec.conformance.cli, each adding its sub-commands."""

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2


class UsageError(GinspecError):
    """Bad command-line input."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("ginspec").strip()
        raise UsageError(f"{where}: {message}" if where else message)


def help_then_error(parser: argparse.ArgumentParser, what: str) -> int:
    """A command group called without its action: its help on stdout, then the one-line error."""
    parser.print_help()
    where = parser.prog.removeprefix("ginspec").strip()
    raise UsageError(f"{where}: {what}" if where else what)


def seed_arg(text: str) -> int:
    """The argparse type of a ``--seed``: a whole number 0 or more (``random.Random(-n)`` plays the
    same game as ``n``, so a negative seed would silently repeat another)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed is a whole number 0 or more") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed is a whole number 0 or more")
    return value


def package_version() -> str:
    try:
        return version("ginspec")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ginspec",
        description="The rules of Gin Rummy: spec, reference, proofs and conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"ginspec {package_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"ginspec.conformance.cli.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            return help_then_error(parser, "a command is needed (listed above)")
        code: int = args.handler(args)
        return code
    except GinspecError as exc:
        from ginspec.conformance.escape import printable

        print(f"ginspec: error: {printable(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())

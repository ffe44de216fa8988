"""The ``ginspec`` command: one dispatcher over the command groups of every layer.

The rules commands (``deadwood``, ``rules``, ``adjudicate``, ``ruling``, ``play``, ``check-log``,
``prove``) live in ``ginspec.reference.cli`` and need only the rules; the suite commands
(``conform``, ``serve``, ``suite``, ``bench``, ``clause``/``clauses``, which link a clause to its
cases) live in this package. The dispatcher sits here, in the top layer, because it is the one
place that knows both; it imports a command's module only when that command runs (or when the
full help is asked for), so ``ginspec adjudicate`` loads neither the conformance suite nor Z3.
Every error a user can cause ends in one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from ginspec.conformance.versions import package_version
from ginspec.reference.cli.args import EXIT_OK, EXIT_USAGE, Parser, help_then_error
from ginspec.spec.errors import GinspecError

COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "ginspec.reference.cli.deadwood_command": ("deadwood",),
    "ginspec.conformance.cli.clauses_command": ("clauses", "clause"),
    "ginspec.reference.cli.rules_command": ("rules",),
    "ginspec.reference.cli.adjudicate_command": ("adjudicate",),
    "ginspec.reference.cli.ruling_command": ("ruling",),
    "ginspec.reference.cli.play_command": ("play", "check-log"),
    "ginspec.conformance.cli.bench_command": ("bench",),
    "ginspec.reference.cli.prove_command": ("prove",),
    "ginspec.conformance.cli.suite_command": ("suite",),
    "ginspec.conformance.cli.conform_command": ("conform", "serve"),
    "ginspec.conformance.cli.report_command": ("report",),
    "ginspec.conformance.cli.faults_command": ("faults",),
}
"""Each module whose ``register(subparsers)`` adds commands -> the commands it adds, in help order."""
COMMANDS: dict[str, str] = {name: module for module, names in COMMAND_MODULES.items() for name in names}
"""Command name -> its module."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``ginspec`` parser: every command, or only ``command``'s module when it is known."""
    parser = Parser(
        prog="ginspec",
        description="The rules of Gin Rummy: spec, reference, proofs and conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"ginspec {package_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    wanted = [COMMANDS[command]] if command in COMMANDS else list(COMMAND_MODULES)
    for name in wanted:
        importlib.import_module(name).register(sub)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The sub-command named by ``argv``: its first word, when no top-level option comes first."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(_command_of(words))
        args = parser.parse_args(words)
        if not getattr(args, "handler", None):
            return help_then_error(parser, "a command is needed (listed above)")
        code: int = args.handler(args)
        return code
    except GinspecError as exc:
        from ginspec.reference.cli.escape import printable

        print(f"ginspec: error: {printable(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())

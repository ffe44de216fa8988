"""What every ``ginspec`` command shares: the one-line usage error, exit codes, argument types."""

from __future__ import annotations

import argparse
from typing import NoReturn

from ginspec.spec.cards import Card, parse_cards
from ginspec.spec.errors import GinspecError, MeldError

EXIT_OK = 0
EXIT_USAGE = 2


class UsageError(GinspecError):
    """Bad command-line input: one line on stderr, exit 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("ginspec").strip()
        raise UsageError(f"{where}: {message}" if where else message)


def help_then_error(parser: argparse.ArgumentParser, what: str) -> int:
    """A command group called without its action: its help on stdout, then the one-line error."""
    parser.print_help()
    where = parser.prog.removeprefix("ginspec").strip()
    raise UsageError(f"{where}: {what}" if where else what)


def _whole_number(text: str, minimum: int, what: str) -> int:
    """``text`` as a whole number of at least ``minimum``, else the one-line argparse error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {what}a whole number {minimum} or more") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"{text!r}: {what}a whole number {minimum} or more")
    return value


def seed_arg(text: str) -> int:
    """The argparse type of a ``--seed``: a whole number 0 or more (``random.Random(-n)`` plays the
    same game as ``n``, so a negative seed would silently repeat another)."""
    return _whole_number(text, 0, "a seed is ")


def positive_int(text: str) -> int:
    """The argparse type of a count such as ``--hands``: a whole number 1 or more."""
    return _whole_number(text, 1, "")


def parse_melds(text: str) -> list[list[Card]]:
    """``--knocker-melds '7H 7D 7S / 8C 9C TC'`` -> groups of cards; an empty group is an error."""
    groups = [part.strip() for part in text.split("/")]
    if any(not g for g in groups):
        raise MeldError(f"--knocker-melds: empty meld in {text!r} (separate melds with '/')")
    return [parse_cards(g) for g in groups]

"""Every ``ginspec`` command shown in the built site and in the README parses with the real argument
parser (ginspec.conformance.cli.build_parser), and no option is printed with an en dash (U+2013 for
"--set", which a reader copies and the shell refuses)."""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from ginspec.conformance.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
BLOCK_RE = re.compile(
    r'<div class="highlight-(?:sh|bash|shell|console|text|default|none) notranslate">.*?<pre[^>]*>(.*?)</pre>', re.S
)
PLACEHOLDER_RE = re.compile(r"'([A-Z][A-Z_]{2,})'")
INLINE_RE = re.compile(r"<code[^>]*>(.*?)</code>", re.S)
TAG_RE = re.compile(r"<[^>]+>")
EN_DASH_OPTION_RE = re.compile(r"[\u2013\u2014][a-z][a-z-]*")
SHELL_BREAKS = {"|", "||", "&&", ";", ">", ">>", "2>", "2>&1", "<", "&"}
SYNOPSIS_OPTIONAL_RE = re.compile(r"\s\[[^\]]*\]")


def text_of(fragment: str) -> str:
    return html.unescape(TAG_RE.sub("", fragment))


def command_lines(text: str) -> Iterator[str]:
    """The shell lines of a code block, with continuation lines joined and prompts removed."""
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip().removeprefix("$ ")
        if "ginspec" in line and not line.startswith("usage:"):
            yield line


def ginspec_invocations(line: str) -> Iterator[list[str]]:
    """The argument lists given to ``ginspec`` on one shell line (pipes and redirections cut off).

    A synopsis (``ginspec deadwood CARDS... [--json]``, ``ginspec suite build|list|show``) is read as
    the commands it stands for: optional parts dropped, ``X...`` as ``X``, each alternative alone."""
    line = SYNOPSIS_OPTIONAL_RE.sub("", line).replace(" ...", " X").replace("...", "")
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError:
        tokens = line.split()
    segment: list[str] = []
    segments = []
    for tok in tokens:
        if tok in SHELL_BREAKS:
            segments.append(segment)
            segment = []
        else:
            segment.append(tok)
    segments.append(segment)
    for seg in segments:
        for i, tok in enumerate(seg):
            if tok == "ginspec" or tok.endswith("/ginspec"):
                args = seg[i + 1 :]
                if i > 0 and seg[i - 1] in {"-m", "import"}:
                    break  # "python -m ginspec ..." is handled by the same parser; "import ginspec" is code
                yield from _alternatives(args)
                break


def _alternatives(args: list[str]) -> Iterator[list[str]]:
    for i, tok in enumerate(args):
        if "|" in tok and not tok.startswith(("'", '"')) and " " not in tok:
            for choice in tok.split("|"):
                yield from _alternatives([*args[:i], choice, *args[i + 1 :]])
            return
    yield args


def names_a_command(parser: argparse.ArgumentParser, args: list[str]) -> bool:
    """True when ``args`` are only (sub-)command names, as in a table that names ``ginspec suite show``."""
    for word in args:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            return False
        parser = subs[0].choices[word]
    return bool(args)


def parse_error(args: list[str], mention: bool = False) -> str | None:
    """None when the real parser accepts ``args`` (or they only name a command), else its complaint.

    A placeholder the reader fills in (``--seed SEED``, ``--kind KIND``) is not held against the
    command; an inline ``mention`` (``ginspec conform --live`` in a sentence) may leave out
    required arguments, but every option and value it does show must be right."""
    parser = build_parser()
    if names_a_command(parser, args):
        return None
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(args)
    except SystemExit as exc:
        problem = None if exc.code == 0 else (err.getvalue().strip().splitlines() or ["exit"])[-1]
    except ValueError as exc:  # UsageError, the parser's one-line error
        problem = str(exc)
    else:
        problem = None
    if problem is None:
        return None
    quoted = PLACEHOLDER_RE.search(problem)
    if quoted and quoted.group(1) in args:
        return None
    if mention and "the following arguments are required" in problem:
        return None
    return problem


def site_commands(site: Path) -> Iterator[tuple[str, str]]:
    for page in sorted(site.rglob("*.html")):
        if "_static" in page.parts or page.name in {"genindex.html", "search.html"}:
            continue
        source = page.read_text(encoding="utf-8")
        where = str(page.relative_to(site))
        for block in BLOCK_RE.findall(source):
            for line in command_lines(text_of(block)):
                yield where, line
        for inline in INLINE_RE.findall(source):
            text = text_of(inline)
            if text.startswith("ginspec "):
                yield where + " (inline)", text


def readme_commands() -> Iterator[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        for line in command_lines(block):
            yield "README.md", line
    for inline in re.findall(r"`(ginspec [^`]+)`", text):
        yield "README.md (inline)", inline.replace("\\|", "|")


def failures(commands: Iterator[tuple[str, str]]) -> tuple[int, list[str]]:
    seen = 0
    bad = []
    for where, line in commands:
        for args in ginspec_invocations(line):
            seen += 1
            problem = parse_error(args, mention=where.endswith("(inline)"))
            if problem is not None:
                bad.append(f"{where}: {line!r}: {problem}")
    return seen, bad


def test_every_command_in_the_site_parses(site: Path) -> None:
    seen, bad = failures(site_commands(site))
    assert seen > 50, f"only {seen} ginspec commands found in the site: the extraction is broken"
    assert not bad, "commands the ginspec parser refuses:\n" + "\n".join(bad)


def test_every_command_in_the_readme_parses() -> None:
    seen, bad = failures(readme_commands())
    assert seen > 20, f"only {seen} ginspec commands found in the README"
    assert not bad, "commands the ginspec parser refuses:\n" + "\n".join(bad)


def test_no_option_printed_with_an_en_dash(site: Path) -> None:
    bad = []
    for page in sorted(site.rglob("*.html")):
        if "_static" in page.parts:
            continue
        text = text_of(page.read_text(encoding="utf-8"))
        bad += [f"{page.relative_to(site)}: {m.group(0)}" for m in EN_DASH_OPTION_RE.finditer(text)]
    assert not bad, "an en or em dash printed where '--' was written:\n" + "\n".join(bad[:30])


@pytest.mark.parametrize(
    ("line", "ok"),
    [
        ("ginspec rules hoyle --set game_bonus=100", True),
        ("ginspec rules hoyle \u2013set game_bonus=100", False),
        ("ginspec deadwood CARDS... [--json]", True),
        ("ginspec suite build|list|show", True),
        ("ginspec suite bulid", False),
        ("ginspec suite show", True),
        ("ginspec ruling new --kind KIND FILE", True),
        ("ginspec ruling new --kind knid FILE", False),
        ("ginspec suite show --bogus", False),
        ("ginspec play --profile pagat --seed 7 --json > t.json", True),
    ],
)
def test_the_check_itself(line: str, ok: bool) -> None:
    """The extraction and the parser call tell a good command from a bad one."""
    seen, bad = failures(iter([("t", line)]))
    assert seen >= 1
    assert (not bad) is ok, bad

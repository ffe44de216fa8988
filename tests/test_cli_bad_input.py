"""Bad input to every ``ginspec`` sub-command ends in exit code 2 and exactly one line on stderr,
``ginspec: error: ...``, naming the bad token or field — never a traceback.

The sub-commands are read from the argparse parser itself (:func:`build_parser`), so a new
command is picked up automatically: it gets the generic checks at once (an unknown option; a
non-number for every numeric option; an unknown choice; a negative seed; unknown, mistyped and
out-of-range ``--set`` overrides; an unknown ``--profile``), and :func:`test_every_command_has_a_battery`
fails until it has a valid base command line in :data:`BASE` and its own bad inputs in
:func:`battery`. Everything runs in-process through :func:`main`; a few checks run the console
entry point in a subprocess.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from ginspec.conformance.cli import build_parser, main
from ginspec.conformance.cli.conform_command import seconds_arg
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.reference.cli.args import seed_arg
from ginspec.reference.cli.ruling_command import TEMPLATE
from hypothesis import given
from hypothesis import strategies as st

Command = tuple[str, ...]

ONE_CASE = str(min((SUITE_DIR / "cases").rglob("*.json")))
"""One committed case file: a suite small enough to load at once."""

KNOCKER = "2C 3C 4C 7H 7D 7S JS QS KS 5D"
DEFENDER = "8C 8D 8H 9S 9H 9D AS 2S 3S 5H"
SEATS = ("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC")
TABLE = ["--profile", "serbian-online", "--hand", SEATS[0], "--hand", SEATS[1], "--hand", SEATS[2],
         "--knocker-seat", "0", "--discard", "3C"]


# -- running the command line ------------------------------------------------------------------


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[object, str, str]:
    """Exit code, stdout and stderr of ``ginspec ARGV`` run in-process. Any exception other than
    the CLI's own propagates, so a traceback fails the test that caused it."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code: object = main(argv)
            except SystemExit as exc:  # argparse's own exits (--help, --version) only
                code = exc.code
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_usage_error(argv: list[str], *names: str, stdin: str | None = None) -> str:
    """``ginspec ARGV`` exits 2 with one ``ginspec: error:`` line that contains every name."""
    code, _, err = run_cli(argv, stdin)
    lines = err.splitlines()
    shown = f"ginspec {' '.join(argv)!s}\nexit {code}\nstderr: {err!r}"
    assert code == 2, shown
    assert len(lines) == 1 and lines[0].startswith("ginspec: error: "), shown
    assert "Traceback" not in err, shown
    for name in names:
        assert name in lines[0], f"{name!r} not named\n{shown}"
    return lines[0]


# -- the commands, read from the parser ----------------------------------------------------------


def _walk(parser: argparse.ArgumentParser, prefix: Command) -> Iterator[tuple[Command, argparse.ArgumentParser, bool]]:
    """(command, its parser, whether it has sub-commands of its own) for every command."""
    groups = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if prefix:
        yield prefix, parser, bool(groups)
    for group in groups:
        for name, sub in group.choices.items():
            yield from _walk(sub, (*prefix, name))


COMMANDS: dict[Command, argparse.ArgumentParser] = {}
GROUPS: list[Command] = []
for _command, _parser, _is_group in _walk(build_parser(), ()):
    (GROUPS.append(_command) if _is_group else COMMANDS.__setitem__(_command, _parser))


def _options(command: Command) -> list[argparse.Action]:
    return [a for a in COMMANDS[command]._actions if a.option_strings and a.dest != "help"]


def _ids(commands: object) -> list[str]:
    return [" ".join(c) for c in commands]  # type: ignore[attr-defined]


# -- files ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Files:
    """Bad (and a few good) input files, written once for the module."""

    root: Path

    def path(self, name: str) -> str:
        return str(self.root / name)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    from ginspec.reference.game.match_trace import play_match
    from ginspec.reference.game.strategies import strategy
    from ginspec.reference.typed_rules import rules_for_profile

    root = tmp_path_factory.mktemp("bad-input")
    (root / "folder").mkdir()
    (root / "binary.dat").write_bytes(b"\xff\xfe\x00\x81 not text")
    texts = {
        "broken.json": "{\"hand\": [",
        "broken.toml": "id = [",
        "rules.toml": 'profile = "wikipedia"\n[set]\nundercut_bonus = 20\n',
        "rules-profile.toml": 'profile = "no-such-profile"\n',
        "rules-param.toml": 'profile = "pagat"\n[set]\nno_such_param = 1\n',
        "rules-type.toml": 'profile = "pagat"\n[set]\ngin_bonus = "lots"\n',
        "list.json": "[1, 2]",
        "object.json": "{}",
        "batch.txt": "7H 8H 9H\n7C QQ 2S\n",
        "expect-fail.txt": "no-such-case-anywhere  # a reason\n",
        "trace-hands.json": json.dumps({"profile": "pagat", "hands": "none"}),
        "trace-profile.json": json.dumps({"profile": "no-such-profile", "hands": []}),
        "trace-overrides.json": json.dumps({"profile": "pagat", "overrides": ["gin_bonus"]}),
        "cert-empty.json": "{}",
        "cert-witness.json": json.dumps({"witness": 7}),
        "ruling-card.toml": TEMPLATE.replace('knocker = "2C 3C 4C', 'knocker = "2C QQ 4C', 1),
        "ruling-dup.toml": TEMPLATE.replace('defender = "8C 8D', 'defender = "2C 8D', 1),
        "ruling-count.toml": TEMPLATE.replace('knocker = "2C 3C 4C 7H 7D 7S JS QS KS KD"',
                                              'knocker = "2C 3C 4C"', 1),
        "ruling-profile.toml": TEMPLATE.replace('profile = "pagat"', 'profile = "no-such-profile"', 1),
        "ruling-set.toml": TEMPLATE.replace('profile = "pagat"\n',
                                            'profile = "pagat"\nset = { no_such_param = 1 }\n', 1),
        "ruling-set-type.toml": TEMPLATE.replace('profile = "pagat"\n',
                                                 'profile = "pagat"\nset = { gin_bonus = "lots" }\n', 1),
        "ruling-outcome.toml": TEMPLATE.replace('outcome = "knock"', 'outcome = "knocked"', 1),
        "ruling-format.toml": TEMPLATE.replace("format = 1", "format = 9", 1),
    }
    for name, text in texts.items():
        assert not name.startswith("ruling-") or text != TEMPLATE, f"{name}: nothing planted"
        (root / name).write_text(text, encoding="utf-8")
    code, _, err = run_cli(["conform", "--adapter", "reference", "--suite", ONE_CASE, "--json",
                            str(root / "run.jsonl")])
    assert code == 0, err
    (root / "run-case-first.jsonl").write_text(
        (root / "run.jsonl").read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    trace = play_match(rules_for_profile("pagat"), 3, [strategy("greedy"), strategy("random")])
    (root / "trace.json").write_text(json.dumps(trace), encoding="utf-8")
    bad_deck = json.loads(json.dumps(trace))
    bad_deck["hands"][0]["deck"][5] = "QQ"
    (root / "trace-deck.json").write_text(json.dumps(bad_deck), encoding="utf-8")
    return Files(root)


# -- the base command lines and each command's own bad inputs ------------------------------------

BASE: dict[Command, Callable[[Files], list[str]]] = {
    ("deadwood",): lambda f: ["7H", "8H", "9H"],
    ("clauses",): lambda f: [],
    ("clause",): lambda f: ["MELD.SET"],
    ("rules",): lambda f: ["pagat"],
    ("adjudicate",): lambda f: ["--profile", "pagat", "--knocker", KNOCKER, "--defender", DEFENDER],
    ("ruling", "list"): lambda f: [],
    ("ruling", "check"): lambda f: ["C01"],
    ("ruling", "show"): lambda f: ["C01"],
    ("ruling", "new"): lambda f: [],
    ("play",): lambda f: ["--profile", "pagat", "--seed", "1"],
    ("check-log",): lambda f: [f.path("trace.json")],
    ("bench",): lambda f: ["engine", "--hands", "1"],
    ("prove",): lambda f: ["7H", "8H"],
    ("suite", "build"): lambda f: [],
    ("suite", "list"): lambda f: [],
    ("suite", "show"): lambda f: ["no-such-case-anywhere"],
    ("suite", "coverage"): lambda f: [],
    ("suite", "derive"): lambda f: ["--rules", f.path("rules.toml"), "--out", f.path("derived")],
    ("conform",): lambda f: ["--adapter", "reference"],
    ("serve",): lambda f: [],
    ("report", "summary"): lambda f: [f.path("run.jsonl")],
    ("report", "diff"): lambda f: [f.path("run.jsonl"), f.path("run.jsonl")],
    ("report", "merge"): lambda f: [f.path("run.jsonl"), "--out", f.path("merged.jsonl")],
    ("report", "markdown"): lambda f: [f.path("run.jsonl")],
    ("report", "badge"): lambda f: [f.path("run.jsonl")],
    ("report", "expect-fail"): lambda f: [f.path("run.jsonl"), "--update", f.path("xf.txt")],
    ("faults",): lambda f: ["--fault", "crash", "--cases", "NO-SUCH-CASE-*"],
}
"""Per command, a command line that is valid up to the option under test (the generic checks add
one bad option to it)."""

Bad = tuple[list[str], tuple[str, ...]]


LONG = "n" * 300 + ".out"
"""A file name longer than any file system allows (255 bytes): refused before any work."""


def battery(command: Command, f: Files) -> list[Bad]:
    """The command's own bad inputs: (argv after the command words, names the error must show)."""
    missing, folder, binary = f.path("missing.json"), f.path("folder"), f.path("binary.dat")
    unreadable: list[Bad] = [([missing], ("missing.json",)), ([folder], ("folder",)),
                             ([binary], ("binary.dat",))]
    adj = ["--profile", "pagat"]
    table = TABLE[:-2]  # no --discard
    batteries: dict[Command, list[Bad]] = {
        ("deadwood",): [
            (["7H", "QQ"], ("QQ",)), (["7H", "7h"], ("7h",)), (["7H", "1H"], ("1H",)),
            (["7H", "7"], ("'7'",)), (["7H", "7HH"], ("7HH",)), ([""], ("no cards",)), ([], ("no cards",)),
            (["7H", "--knock-limit", "11"], ("knock_limit", "11")),
            (["7H", "--knock-limit", "-1"], ("knock_limit", "-1")),
            (["7H", "--ace-value", "0"], ("ace_value", "0")),
            (["--batch", f.path("batch.txt")], ("batch.txt:2", "QQ")),
            (["--batch", missing], ("missing.json",)), (["--batch", folder], ("folder",)),
            (["--batch", binary], ("binary.dat",)), (["7H", "--batch", f.path("batch.txt")], ("--batch",)),
        ],
        ("clauses",): [(["extra"], ("extra",))],
        ("clause",): [(["NO.SUCH-CLAUSE"], ("NO.SUCH-CLAUSE",)), (["meld.set"], ("meld.set",)),
                      ([""], ("''",)), ([], ("id",))],
        ("rules",): [
            (["no-such-profile"], ("no-such-profile",)),
            (["--param", "no_such_param"], ("no_such_param",)),
            (["--param", "gin_bonus", "pagat"], ("--param",)), (["--set", "gin_bonus=1"], ("--set",)),
            (["pagat", "--set", "=3"], ("''",)), (["pagat", "--set", "gin_bonus="], ("gin_bonus",)),
            (["pagat", "--set", "gin_bonus=1.5"], ("gin_bonus", "1.5")),
            (["pagat", "--set", "oklahoma=2"], ("oklahoma", "2")),
            (["pagat", "--set", "spade_double=always"], ("spade_double", "always")),
        ],
        ("adjudicate",): [
            ([*adj, "--knocker", KNOCKER.replace("5D", "QQ"), "--defender", DEFENDER], ("QQ",)),
            ([*adj, "--knocker", KNOCKER, "--defender", DEFENDER.replace("5H", "2C")], ("2C",)),
            ([*adj, "--knocker", KNOCKER.replace("5D", "2C"), "--defender", DEFENDER], ("2C",)),
            ([*adj, "--knocker", "2C 3C 4C", "--defender", DEFENDER], ("knocker", "3 cards")),
            ([*adj, "--knocker", KNOCKER, "--defender", "8C 8D"], ("defender", "2")),
            ([*adj, "--knocker", "", "--defender", DEFENDER], ("knocker", "0 cards")),
            ([*adj, "--knocker", KNOCKER], ("--defender",)),
            (["--knocker", KNOCKER, "--defender", DEFENDER], ("--profile",)),
            ([*adj, "--knocker", KNOCKER, "--defender", DEFENDER, "--upcard", "QQ"], ("QQ",)),
            ([*adj, "--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "2C 3C 4C / "],
             ("--knocker-melds",)),
            ([*adj, "--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "2C 3C QQ"],
             ("QQ",)),
            ([*adj, "--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "8C 9C TC"],
             ("8C 9C TC",)),
            ([*table, "--discard", "QQ"], ("--discard", "QQ")),
            ([*table, "--discard", "7H"], ("7H",)),
            ([*TABLE[:6], "--knocker-seat", "0"], ("3 or 4",)),
            ([*table[:-2], "--knocker-seat", "3", "--discard", "3C"], ("seat 3",)),
            ([*table[:-2], "--knocker-seat", "-1", "--discard", "3C"], ("seat -1",)),
            ([*table[:-2], "--discard", "3C"], ("--knocker-seat",)),
            ([*TABLE[:2], "--hand", SEATS[0], "--hand", SEATS[1][:-3], "--hand", SEATS[2],
              "--knocker-seat", "0", "--discard", "3C"], ("seat 1", "6 cards")),
            ([*TABLE[:2], "--hand", SEATS[0], "--hand", SEATS[1].replace("2D", "QQ"), "--hand",
              SEATS[2], "--knocker-seat", "0"], ("seat 1", "QQ")),
            ([*TABLE, "--set", "players=4"], ("players",)),
            ([*TABLE, "--knocker", KNOCKER], ("--knocker",)),
            ([*TABLE, "--upcard", "3C"], ("--upcard",)),
            (["--profile", "pagat", *TABLE[2:]], ("pagat",)),
        ],
        ("ruling", "list"): [(["extra"], ("extra",))],
        ("ruling", "check"): [
            *unreadable, (["NO-SUCH-RULING"], ("NO-SUCH-RULING",)),
            ([f.path("broken.toml")], ("broken.toml", "TOML")),
            ([f.path("broken.json")], ("broken.json",)),
            ([f.path("ruling-card.toml")], ("ruling-card.toml", "knocker", "QQ")),
            ([f.path("ruling-dup.toml")], ("ruling-dup.toml", "2C")),
            ([f.path("ruling-count.toml")], ("ruling-count.toml", "3 cards")),
            ([f.path("ruling-profile.toml")], ("ruling-profile.toml", "no-such-profile")),
            ([f.path("ruling-set.toml")], ("ruling-set.toml", "no_such_param")),
            ([f.path("ruling-set-type.toml")], ("ruling-set-type.toml", "gin_bonus")),
            ([f.path("ruling-outcome.toml")], ("ruling-outcome.toml", "knocked")),
            ([f.path("ruling-format.toml")], ("ruling-format.toml", "format")),
        ],
        ("ruling", "show"): [*unreadable, (["C999"], ("C999",))],
        ("ruling", "new"): [([f.path("trace.json")], ("trace.json", "exists")),
                            ([f.path("no-folder/x/ruling.toml")], ("ruling.toml",)),
                            ([f.path(LONG)], (LONG[:50], "too long"))],
        ("play",): [
            (["--profile", "pagat", "--seed", "1", "--players", "greedy"], ("--players", "greedy")),
            (["--profile", "pagat", "--seed", "1", "--players", "greedy,wizard"], ("wizard",)),
            (["--profile", "pagat", "--seed", "1", "--players", "9"], ("--players", "9")),
            (["--profile", "pagat", "--seed", "1", "--players", "greedy,greedy,greedy"], ("players",)),
            (["--profile", "pagat"], ("--seed",)), (["--seed", "1"], ("--profile",)),
        ],
        ("check-log",): [
            *unreadable, ([f.path("broken.json")], ("broken.json", "JSON")),
            ([f.path("list.json")], ("object",)), ([f.path("object.json")], ("profile",)),
            ([f.path("trace-hands.json")], ("hands",)),
            ([f.path("trace-profile.json")], ("no-such-profile",)),
            ([f.path("trace-overrides.json")], ("overrides",)),
            ([f.path("trace-deck.json")], ("hands[0]", "QQ")),
        ],
        ("bench",): [(["sprint"], ("sprint",)), (["melds", "--hands", "0"], ("--hands", "0")),
                     (["start", "--reps", "0"], ("--reps", "0")),
                     (["start", "--hands", "3"], ("--hands",)),
                     (["melds", "--hands", "3"], ("--hands", "3")), (["melds", "--reps", "0"], ("--reps",)),
                     (["engine", "--hands", "-2"], ("--hands", "-2")),
                     (["melds", "--profile", "pagat"], ("--profile", "engine"))],
        ("prove",): [
            (["7H", "QQ"], ("QQ",)), (["7H", "7H"], ("7H",)), ([""], ("no cards",)), ([], ("no cards",)),
            (["7H", "--claim", "-1"], ("--claim", "-1")),
            (["7H", "--knock-limit", "5"], ("--knock-limit",)),
            (["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AC", "2C", "3C", "4D", "--knock-limit", "11"],
             ("knock_limit", "11")),
            (["7H", "--ace-value", "99"], ("ace_value", "99")),
            (["7H", "--upcard", "7S"], ("--upcard",)),
            (["7H", "--profile", "pagat", "--upcard", "QQ"], ("QQ",)),
            (["7H", "--profile", "pagat", "--ace-high"], ("--ace-high",)),
            (["--verify", missing], ("missing.json",)), (["--verify", folder], ("folder",)),
            (["--verify", binary], ("binary.dat",)), (["--verify", f.path("broken.json")], ("broken.json",)),
            (["--verify", f.path("list.json")], ("list.json",)),
            (["--verify", f.path("cert-empty.json")], ("missing field",)),
            (["--verify", f.path("cert-witness.json")], ("certificate",)),
            (["7H", "--verify", f.path("cert-empty.json")], ("--verify",)),
            (["--bench", "--hands", "0"], ("--hands", "0")), (["7H", "--bench"], ("--bench",)),
            (["--verify-suite", f.path(LONG)], (LONG[:50], "not a readable folder")),
            (["--verify-suite", folder], ("folder", "certificates.jsonl")),
        ],
        ("suite", "build"): [(["--out", f.path("binary.dat") + "/suite"], ("binary.dat",))],
        ("suite", "list"): [
            (["--suite", missing], ("missing.json",)), (["--suite", binary], ("binary.dat",)),
            (["--suite", f.path("broken.json")], ("broken.json",)),
            (["--suite", f.path("object.json")], ("object.json",)),
            (["--clause", "NO.SUCH-CLAUSE"], ("NO.SUCH-CLAUSE",)),
        ],
        ("suite", "show"): [(["no-such-case-anywhere"], ("no-such-case-anywhere",)),
                            (["x", "--suite", folder], ("folder",))],
        ("suite", "coverage"): [(["extra"], ("extra",))],
        ("suite", "derive"): [
            (["--rules", missing, "--out", f.path("derived")], ("missing.json",)),
            (["--rules", f.path("broken.toml"), "--out", f.path("derived")], ("broken.toml",)),
            (["--rules", f.path("rules-profile.toml"), "--out", f.path("derived")],
             ("no-such-profile",)),
            (["--rules", f.path("rules-param.toml"), "--out", f.path("derived")], ("no_such_param",)),
            (["--rules", f.path("rules-type.toml"), "--out", f.path("derived")], ("gin_bonus", "lots")),
            (["--rules", f.path("rules.toml"), "--out", f.path("broken.toml")], ("--out", "broken.toml")),
            (["--rules", f.path("rules.toml"), "--out", f.path("derived"), "--suite", missing],
             ("missing.json",)),
            (["--out", f.path("derived")], ("--rules",)),
        ],
        ("conform",): [
            (["--adapter", "reference", "--json", f.path(LONG)], ("--json", "too long")),
            (["--adapter", "reference", "--live", "--profile", "pagat", "--out", f.path(LONG)],
             ("--out", "too long")),
            (["--adapter", "reference", "--live", "--profile", "pagat", "--out", f.path("run.jsonl")],
             ("--out", "not a folder")),
            (["--adapter", "no-such-adapter"], ("no-such-adapter",)),
            (["--adapter", "python:no_such_module_x:Adapter"], ("no_such_module_x",)),
            (["--adapter", "python:json:JSONDecoder"], ("JSONDecoder",)),
            (["--adapter", "python:json"], ("python:json",)),
            (["--adapter", f"cmd:{f.path('no-such-program')}"], ("no-such-program",)),
            (["--adapter", "reference", "--suite", missing], ("missing.json",)),
            (["--adapter", "reference", "--suite", binary], ("binary.dat",)),
            (["--adapter", "reference", "--suite", f.path("list.json")], ("list.json",)),
            (["--adapter", "reference", "--expect-fail", missing], ("missing.json",)),
            (["--adapter", "reference", "--expect-fail", binary], ("binary.dat",)),
            (["--adapter", "reference", "--expect-fail", folder], ("folder",)),
            (["--adapter", "reference", "--expect-fail", f.path("broken.json")], ("broken.json",)),
            (["--adapter", "reference", "--expect-fail", f.path("list.json")], ("list.json",)),
            (["--adapter", "reference", "--suite", ONE_CASE, "--expect-fail",
              f.path("expect-fail.txt")], ("no-such-case-anywhere",)),
            (["--adapter", "reference", "--suite", ONE_CASE, "--cases", "NO-SUCH-CASE-*"],
             ("NO-SUCH-CASE-*",)),
            (["--adapter", "reference", "--shard", "3/2"], ("--shard", "3/2")),
            (["--adapter", "reference", "--shard", "half"], ("--shard", "half")),
            (["--adapter", "reference", "--timeout", "0"], ("--timeout",)),
            (["--adapter", "reference", "--timeout", "nan"], ("--timeout", "'nan'")),
            (["--adapter", "reference", "--timeout", "inf"], ("--timeout", "'inf'")),
            (["--adapter", "reference", "--startup-timeout", "-3"], ("--startup-timeout",)),
            (["--adapter", "reference", "--max-restarts", "-1"], ("--max-restarts", "'-1'")),
            (["--adapter", "cmd:eng\0ine"], ("cannot start",)),
            (["--adapter", "reference", "--live"], ("--live", "--profile")),
            (["--adapter", "reference", "--live", "--profile", "pagat", "--hands", "0"], ("--hands",)),
            ([], ("--adapter",)),
            (["--adapter", "reference", "--json", f.path("no-folder/r.jsonl")], ("--json", "no-folder")),
            (["--adapter", "reference", "--junit", f.path("no-folder/r.xml")], ("--junit", "no-folder")),
            (["--adapter", "reference", "--html", folder], ("--html", "folder")),
            (["--adapter", "reference", "--json", "-", "--junit", "-"], ("--junit", "standard output")),
            (["--adapter", "reference", "--json", f.path("r.x"), "--junit", f.path("r.x")],
             ("--junit", "--json")),
            (["--adapter", "reference", "--smoke", "--json", f.path("r.jsonl")], ("--smoke", "--json")),
            (["--adapter", "reference", "--live", "--profile", "pagat", "--junit", f.path("r.xml")],
             ("--live", "--junit")),
            (["--adapter", "reference", "--smoke", "-x"], ("--smoke", "--max-fail")),
            (["--adapter", "reference", "--max-examples", "5"], ("--max-examples", "--live")),
            (["--adapter", "reference", "--max-new", "2"], ("--max-new", "--live")),
            (["--adapter", "reference", "--seed", "7"], ("--seed", "--live")),
            (["--adapter", "reference", "--hands", "3"], ("--hands", "--live")),
            (["--adapter", "reference", "--smoke", "--out", f.path("o")], ("--out", "--live")),
            (["--adapter", "reference", "--adapter", "reference", "--smoke"], ("--smoke", "--adapter")),
            (["--adapter", "reference", "--max-fail", "0"], ("--max-fail", "0")),
            (["--adapter", "reference", "--expect-fail", "no-such-list"], ("no-such-list", "openspiel")),
            (["--adapter", "reference", "--adapter", "reference", "--expect-fail", "openspiel",
              "--expect-fail", "rlcard", "--expect-fail", "openspiel"], ("--expect-fail", "3")),
            (["--adapter", "reference", "--suite", f.path("broken.toml")], ("broken.toml", "TOML")),
            (["--adapter", "reference", "--suite", f.path("ruling-card.toml")], ("ruling-card.toml", "QQ")),
        ],
        ("faults",): [(["--cases", "NO-SUCH-CASE-*"], ("NO-SUCH-CASE-*",)),
                      (["--timeout", "nan"], ("--timeout", "'nan'")),
                      (["--markdown", f.path("no-such-folder/t.md")], ("--markdown",)),
                      (["--markdown", f.path(LONG)], ("--markdown", "too long"))],
        ("serve",): [(["--adapter", "no-such-adapter"], ("no-such-adapter",)),
                     (["--adapter", "cmd:cat"], ("--adapter",))],
        ("report", "summary"): [
            *unreadable, ([f.path("broken.json")], ("broken.json:1", "JSON")),
            ([f.path("object.json")], ("object.json:1", "type")),
            ([f.path("run-case-first.jsonl")], ("run-case-first.jsonl:1", "header")),
            ([f.path("batch.txt")], ("batch.txt:1",)),
        ],
        ("report", "diff"): [([missing, f.path("run.jsonl")], ("missing.json",)),
                             ([f.path("run.jsonl")], ("new",))],
        ("report", "merge"): [([f.path("run.jsonl")], ("--out",)),
                              ([f.path("run.jsonl"), "--out", f.path("no-folder/m.jsonl")], ("--out", "no-folder")),
                              ([binary, "--out", f.path("m.jsonl")], ("binary.dat",)),
                              ([f.path("run.jsonl"), "--out", f.path(LONG)], ("--out", "too long"))],
        ("report", "markdown"): [([f.path("run.jsonl"), "--out", folder], ("--out", "folder")),
                                 ([missing], ("missing.json",)),
                                 ([f.path("run.jsonl"), "--out", f.path(LONG)], ("--out", "too long"))],
        ("report", "badge"): [([missing], ("missing.json",)),
                              ([f.path("run.jsonl"), "--out", f.path("no-folder/b.svg")], ("--out",)),
                              ([f.path("run.jsonl"), "--out", f.path(LONG)], ("--out", "too long"))],
        ("report", "expect-fail"): [([f.path("run.jsonl"), "--update", folder], ("--update", "folder")),
                                    ([f.path("run.jsonl")], ("--update",)),
                                    ([f.path("run.jsonl"), "--update", f.path("list.json")],
                                     ("--update", "list.json")),
                                    ([f.path("run.jsonl"), "--update", f.path(LONG)], ("--update", "too long"))],
    }
    return batteries[command]


# -- the tests -----------------------------------------------------------------------------------


def test_every_command_has_a_battery(files: Files) -> None:
    """Every command of the parser has a base command line and at least one bad input of its own
    (a new command fails here until it gets them)."""
    assert set(COMMANDS) == set(BASE), "add the new command to BASE and battery()"
    assert len(COMMANDS) >= 19
    for command in COMMANDS:
        assert battery(command, files), command


def _own_cases() -> list[tuple[Command, int]]:
    return [(c, i) for c in BASE for i in range(_battery_size(c))]


def _battery_size(command: Command) -> int:
    return len(battery(command, Files(Path("/nonexistent-root"))))


@pytest.mark.parametrize(("command", "index"), _own_cases(),
                         ids=[f"{' '.join(c)}-{i}" for c, i in _own_cases()])
def test_own_bad_inputs(files: Files, command: Command, index: int) -> None:
    argv, names = battery(command, files)[index]
    assert_usage_error([*command, *argv], *names)


@pytest.mark.parametrize("command", list(COMMANDS), ids=_ids(COMMANDS))
def test_unknown_option(files: Files, command: Command) -> None:
    assert_usage_error([*command, *BASE[command](files), "--no-such-option"], "--no-such-option")


@pytest.mark.parametrize("group", GROUPS, ids=_ids(GROUPS))
def test_unknown_action_of_a_group(group: Command) -> None:
    assert_usage_error([*group, "no-such-action"], "no-such-action")


@pytest.mark.parametrize("group", [(), *GROUPS], ids=["ginspec", *_ids(GROUPS)])
def test_a_group_without_its_action_shows_help_then_one_error_line(group: Command) -> None:
    code, out, err = run_cli(list(group))
    assert "usage:" in out
    assert code == 2
    assert err.splitlines() == [err.strip()] and err.startswith("ginspec: error: ")
    assert ("a command is needed" if not group else "an action is needed") in err


def _numeric_options() -> list[tuple[Command, str, str]]:
    found = []
    for command in COMMANDS:
        for action in _options(command):
            if action.type in (int, float, seed_arg, seconds_arg):
                found.append((command, action.option_strings[-1], "x"))
                found.append((command, action.option_strings[-1], "1e"))
                if action.type is seed_arg:
                    found.append((command, action.option_strings[-1], "-1"))
    return found


def test_numeric_options_are_found() -> None:
    options = {(c, o) for c, o, _ in _numeric_options()}
    assert {(("play",), "--seed"), (("deadwood",), "--knock-limit"), (("conform",), "--timeout"),
            (("adjudicate",), "--knocker-seat")} <= options


@pytest.mark.parametrize(("command", "option", "value"), _numeric_options(),
                         ids=[f"{' '.join(c)} {o} {v}" for c, o, v in _numeric_options()])
def test_numeric_option_junk(files: Files, command: Command, option: str, value: str) -> None:
    assert_usage_error([*command, *BASE[command](files), option, value], option, repr(value))


def _choice_options() -> list[tuple[Command, str]]:
    return [(c, a.option_strings[-1]) for c in COMMANDS for a in _options(c) if a.choices]


@pytest.mark.parametrize(("command", "option"), _choice_options(),
                         ids=[f"{' '.join(c)} {o}" for c, o in _choice_options()])
def test_unknown_choice(files: Files, command: Command, option: str) -> None:
    assert_usage_error([*command, *BASE[command](files), option, "no-such-choice"], option,
                       "no-such-choice")


def _commands_with(option: str) -> list[Command]:
    return [c for c in COMMANDS if any(option in a.option_strings for a in _options(c))]


BAD_OVERRIDES = [
    ("no_such_param=1", ("no_such_param",)),
    ("gin_bonus=lots", ("gin_bonus", "lots")),
    ("gin_bonus=2.5", ("gin_bonus", "2.5")),
    ("knock_limit=11", ("knock_limit", "11")),
    ("knock_limit=-1", ("knock_limit", "-1")),
    ("oklahoma=perhaps", ("oklahoma", "perhaps")),
    ("undercut_on_tie=coin_toss", ("undercut_on_tie", "coin_toss")),
    ("oklahoma", ("oklahoma",)),
]


@pytest.mark.parametrize("command", _commands_with("--set"), ids=_ids(_commands_with("--set")))
@pytest.mark.parametrize(("override", "names"), BAD_OVERRIDES, ids=[o for o, _ in BAD_OVERRIDES])
def test_bad_override(files: Files, command: Command, override: str, names: tuple[str, ...]) -> None:
    assert_usage_error([*command, *BASE[command](files), "--set", override], *names)


def test_set_is_found() -> None:
    assert {("rules",), ("adjudicate",), ("play",), ("check-log",), ("prove",)} <= set(
        _commands_with("--set"))


@pytest.mark.parametrize("command", _commands_with("--profile"), ids=_ids(_commands_with("--profile")))
def test_unknown_profile(files: Files, command: Command) -> None:
    assert_usage_error([*command, *BASE[command](files), "--profile", "no-such-profile"],
                       "no-such-profile")


@pytest.mark.parametrize(("argv", "stdin", "names"), [
    (["deadwood", "--batch", "-"], "7H 8H\nAH XX\n", ("-:2", "XX")),
    (["check-log", "-"], "{not json", ("JSON",)),
    (["check-log", "-"], "[]", ("object",)),
    (["prove", "--verify", "-"], "[1]", ("object",)),
    (["prove", "--verify", "-"], "", ("JSON",)),
])
def test_bad_standard_input(argv: list[str], stdin: str, names: tuple[str, ...]) -> None:
    assert_usage_error(argv, *names, stdin=stdin)


# -- random junk where cards are expected --------------------------------------------------------

_CARD_TOKENS = frozenset(
    rank + suit
    for rank in [*"A23456789TJQK", "10"]
    for suit in "CDHS♣♦♥♠♧♢♡♤"
)
"""Every spelling of a card that CARD.NOTATION accepts, upper-cased (lower case is accepted)."""

_junk = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters=","),
    min_size=1, max_size=5,
).filter(lambda t: t.strip().upper() not in _CARD_TOKENS and t.strip() == t)


@given(junk=_junk, where=st.integers(0, 2))
def test_junk_card_tokens(junk: str, where: int) -> None:
    hand = ["7H", "8S", "KD"]
    hand.insert(where, junk)
    line = assert_usage_error(["deadwood", *hand])
    assert junk in line or repr(junk) in line, line


@given(junk=_junk)
def test_junk_card_options(junk: str) -> None:
    assert_usage_error(["adjudicate", "--profile", "pagat", "--knocker", KNOCKER, "--defender",
                        DEFENDER, "--upcard", junk])
    # --discard=JUNK: junk that starts with '-' would otherwise be read as an option
    line = assert_usage_error(["adjudicate", *TABLE[:-2], f"--discard={junk}"], "--discard")
    assert junk in line or repr(junk) in line, line


@given(cards=st.lists(st.sampled_from(["7H", "8S", "KD", "AC", "TC"]), min_size=2, max_size=6)
       .filter(lambda c: len(set(c)) < len(c)))
def test_duplicate_cards(cards: list[str]) -> None:
    line = assert_usage_error(["deadwood", *cards], "duplicate")
    assert any(line.count(c) for c in cards if cards.count(c) > 1), line


# -- the console script, in a subprocess ---------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["deadwood", "7H", "QQ"],
    ["play", "--profile", "pagat", "--seed", "-3"],
    ["rules", "pagat", "--set", "gin_bonus=lots"],
])
def test_console_script(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "ginspec.conformance.cli", *argv],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ginspec: error: "), proc.stderr


def test_help_of_every_command_exits_0() -> None:
    """``--help`` works for every command and group (argparse exits 0 with the usage on stdout)."""
    for command in [*COMMANDS, *GROUPS]:
        code, out, err = run_cli([*command, "--help"])
        assert code == 0 and out.startswith("usage: ginspec ") and not err, command

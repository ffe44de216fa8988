"""Structure-aware fuzzing of every input ginspec reads.

Each entry point gets valid documents (suite cases, played traces, saved certificates, suite
folders with their certificates file, saved runs for every ``report`` action, casebook rulings,
expect-fail lists, protocol replies; file names for ``ruling new``), mutated by Hypothesis: a node replaced by a value
of another type, a huge integer, deep nesting, NaN, markup or control characters; a key dropped;
the text truncated or spliced with bytes. Whatever comes in, the command ends with exit 0, 1 or 2
and, for 2, one line ``ginspec: error: ...`` — never a traceback — and the Python calls raise only
:class:`~ginspec.spec.errors.GinspecError` (or, for replies, :class:`AdapterFault`).

The ``ci`` Hypothesis profile keeps the whole file near 60 s; ``thorough`` (HYPOTHESIS_PROFILE=
thorough) and ``FUZZ_EXAMPLES=N`` are for long local runs (docs/reliability.md records one).
``FUZZ_LOG=FILE`` appends one line per input tried (entry point, outcome), so a long run's inputs
are counted.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import AdapterFault, Hello
from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter, reply_problem
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.reference.rulings import CASEBOOK_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(suppress_health_check=list(HealthCheck), deadline=None,
                **({"max_examples": int(os.environ["FUZZ_EXAMPLES"])}
                   if os.environ.get("FUZZ_EXAMPLES") else {}))
"""The active Hypothesis profile's budget; ``FUZZ_EXAMPLES=N`` overrides it for a long run."""

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(), st.just(10**40),
    st.just(-(10**5000)), st.floats(), st.just(float("inf")), st.just(float("nan")),
    st.text(max_size=8), st.sampled_from(["[/]", "[bold]", "<script>", "]]>", "\x1b[31m", "\x00",
                                          "7H", "TS", "XX", "draw-stock", "knock", "pagat", "C01",
                                          "C" + "9" * 300, "-", ""]),
    st.lists(st.integers(0, 60), max_size=12), st.just([[[[[[]]]]]]), st.just({}),
    st.just({"a": {"b": [1, {"c": None}]}}),
)


def _paths(node: Any) -> list[tuple[Any, ...]]:
    """Every path into ``node`` (at most 12 deep: mutations may have nested it deeply)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(node, ())]
    while stack:
        value, here = stack.pop()
        out.append(here)
        if len(here) >= 12:
            continue
        if isinstance(value, dict):
            stack.extend((v, (*here, k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, (*here, i)) for i, v in enumerate(value))
    return out


def _set(node: Any, path: tuple[Any, ...], value: Any, drop: bool) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        copy = dict(node)
        if drop and not rest:
            copy.pop(head, None)
        else:
            copy[head] = _set(node[head], rest, value, drop)
        return copy
    copy_list = list(node)
    if drop and not rest:
        del copy_list[head]
    else:
        copy_list[head] = _set(node[head], rest, value, drop)
    return copy_list


@st.composite
def mutated(draw: st.DrawFn, documents: list[Any]) -> bytes:
    """A valid document with a few structure-aware mutations, then maybe a byte-level one."""
    doc = documents[draw(st.integers(0, len(documents) - 1))]
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["replace", "replace", "drop", "nest", "wrap"]))
        if how == "nest":
            value: Any = draw(st.integers(50, 3000))
            nested: Any = 0
            for _ in range(value):
                nested = [nested]
            value = nested
        elif how == "wrap":
            value = None
        else:
            value = draw(ODD_VALUES)
        if how == "wrap":
            parent_value = doc
            for step in path:
                parent_value = parent_value[step]
            value = [parent_value]
        doc = _set(doc, path, value, drop=how == "drop" and bool(path))
    try:
        text = json.dumps(doc).encode()
    except (RecursionError, ValueError):
        text = b"[" * 5000
    cut = draw(st.sampled_from(["none", "none", "none", "truncate", "splice"]))
    if cut == "truncate" and text:
        text = text[: draw(st.integers(0, len(text) - 1))]
    elif cut == "splice":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(max_size=6)) + text[at:]
    return text


def _log(entry: str, code: object) -> None:
    path = os.environ.get("FUZZ_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{entry}\t{code}\n")


def _cli(argv: list[str], entry: str) -> int:
    """Run the command; exit 0/1/2 only, and 2 comes with one error line."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    _log(entry, code)
    assert code in (0, 1, 2)
    if code == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ginspec: error:"), err.getvalue()
    return code


# --- the valid documents --------------------------------------------------------------------

@cache
def case_documents() -> list[Any]:
    out = []
    for kind in ("query", "hand", "table-hand", "match"):
        files = sorted((SUITE_DIR / "cases" / kind).glob("*.json"))
        out += [json.loads(p.read_text()) for p in files[:: max(1, len(files) // 6)]]
    return out


@cache
def trace_documents() -> list[Any]:
    out = []
    for argv in (["play", "--profile", "pagat", "--seed", "3", "--json"],
                 ["play", "--profile", "three-player", "--seed", "1", "--json"],
                 ["play", "--profile", "serbian-online", "--players", "3", "--seed", "1", "--json"],
                 ["play", "--profile", "hollywood", "--seed", "2", "--json"]):
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            assert main(argv) == 0
        out.append(json.loads(buffer.getvalue()))
    return out


@cache
def certificate_documents() -> list[Any]:
    out = []
    for cards in (["7C", "7D", "7H", "AC", "2C", "3C", "4D", "5D", "6D", "2H"],
                  ["AC", "2C", "3C", "4D", "4H", "4S", "9D", "9H", "9S", "KC", "QC"]):
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            assert main(["prove", *cards, "--json"]) == 0
        out.append(json.loads(buffer.getvalue()))
    return out


def _write(tmp: Path, name: str, data: bytes) -> str:
    path = tmp / name
    path.write_bytes(data)
    return str(path)


# --- one fuzz test per entry point ------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_fuzz_conform_suite(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = data.draw(mutated(case_documents()))
    path = _write(tmp_path_factory.mktemp("case"), "case.json", text)
    _cli(["conform", "--adapter", "reference", "--suite", path, "--no-progress"], "conform --suite")


@FUZZ
@given(data=st.data())
def test_fuzz_check_log(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = data.draw(mutated(trace_documents()))
    path = _write(tmp_path_factory.mktemp("trace"), "trace.json", text)
    _cli(["check-log", path], "check-log")


@FUZZ
@given(data=st.data())
def test_fuzz_prove_verify(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = data.draw(mutated(certificate_documents()))
    path = _write(tmp_path_factory.mktemp("cert"), "cert.json", text)
    _cli(["prove", "--verify", path], "prove --verify")


@FUZZ
@given(data=st.data())
def test_fuzz_expect_fail(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    ids = [c["id"] for c in case_documents()]
    doc = {i: "known" for i in ids[:3]}
    text = data.draw(mutated([doc, {ids[0]: "x"}]))
    suffix = data.draw(st.sampled_from(["json", "txt"]))
    path = _write(tmp_path_factory.mktemp("xfail"), f"xfail.{suffix}", text)
    one = next(SUITE_DIR.glob(f"cases/*/{ids[0]}.json"))
    _cli(["conform", "--adapter", "reference", "--suite", str(one), "--expect-fail", path,
          "--no-progress"], "conform --expect-fail")


@cache
def verify_suite_documents() -> tuple[list[Any], list[Any]]:
    """Two committed certified cases (a query, a hand) and the certificate lines they use."""
    from ginspec.reference.proofs.suite_certificates import read_certificates, used_keys

    certs = read_certificates(SUITE_DIR)
    cases = [json.loads(min(SUITE_DIR.glob(f"cases/{kind}/{name}")).read_text())
             for kind, name in (("query", "q.deadwood.*.json"), ("hand", "*.json"))]
    lines = [{"key": key, "certificate": certs[key]} for case in cases for key in sorted(used_keys(case))]
    return cases, lines


@FUZZ
@given(data=st.data())
def test_fuzz_prove_verify_suite(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``prove --verify-suite DIR``: a mutated certificate line or a mutated case file."""
    cases, lines = verify_suite_documents()
    folder = tmp_path_factory.mktemp("suite")
    for kind in ("query", "hand"):
        (folder / "cases" / kind).mkdir(parents=True)
    for i, case in enumerate(cases):
        (folder / "cases" / case["kind"] / f"c{i}.json").write_text(json.dumps(case))
    certificates = "".join(json.dumps(line) + "\n" for line in lines).encode()
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(lines) - 1))
        bad = data.draw(mutated([lines[at]]))
        kept = [json.dumps(line).encode() for line in lines]
        certificates = b"\n".join([*kept[:at], bad, *kept[at + 1:]]) + b"\n"
    else:
        which = data.draw(st.integers(0, len(cases) - 1))
        (folder / "cases" / cases[which]["kind"] / f"c{which}.json").write_bytes(
            data.draw(mutated([cases[which]])))
    (folder / "certificates.jsonl").write_bytes(certificates)
    _cli(["prove", "--verify-suite", str(folder)], "prove --verify-suite")


@cache
def saved_run_lines() -> list[Any]:
    """The lines of a saved run of two committed cases (one of them turned into a failure)."""
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"ginspec-fuzz-run-{os.getpid()}.jsonl"
    ids = sorted(SUITE_DIR.glob("cases/query/q.deadwood.*.json"))[:2]
    args = [w for p in ids for w in ("--suite", str(p))]
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["conform", "--adapter", "reference", *args, "--json", str(out), "--no-progress"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    out.unlink()
    lines[2] = {**lines[2], "status": "fail", "culprit": "DEADWOOD.MINIMUM", "field": "deadwood",
                "expected": 3, "actual": 4}
    return lines


REPORT_ACTIONS = (["summary"], ["summary", "--json"], ["diff", "{good}"], ["merge", "-o", "{out}"],
                  ["markdown"], ["badge"], ["expect-fail", "--update", "{out}"])


@FUZZ
@given(data=st.data())
def test_fuzz_report_saved_runs(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every ``ginspec report`` action on a saved run with one line mutated: exit 0, 1 or 2 and,
    for a refused file, one error line (a run with adapter errors also exits 2, and
    ``expect-fail`` says what it wrote on stderr)."""
    lines = saved_run_lines()
    at = data.draw(st.integers(0, len(lines) - 1))
    kept = [json.dumps(line).encode() for line in lines]
    body = b"\n".join([*kept[:at], data.draw(mutated([lines[at]])), *kept[at + 1:]]) + b"\n"
    tmp = tmp_path_factory.mktemp("run")
    run = _write(tmp, "run.jsonl", body)
    good = _write(tmp, "good.jsonl", b"\n".join(kept) + b"\n")
    action = data.draw(st.sampled_from(REPORT_ACTIONS))
    words = [w.format(good=good, out=tmp / "out.txt") for w in action]
    argv = ["report", words[0], *([words[1], run] if action[0] == "diff" else [run]), *words[1:][
        1 if action[0] == "diff" else 0:]]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    _log(f"report {action[0]}", code)
    assert code in (0, 1, 2)
    said = err.getvalue().strip().splitlines()
    if "ginspec: error:" in err.getvalue():
        assert len(said) == 1 and said[0].startswith("ginspec: error:"), err.getvalue()


@FUZZ
@given(name=st.one_of(st.text(min_size=1, max_size=400), st.sampled_from(
    ["n" * 300 + ".toml", "a/" * 3000 + "r.toml", "\x00", "missing-folder/r.toml", ".", "/"])))
def test_fuzz_ruling_new_file_names(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``ruling new FILE`` with any file name, in an empty folder: written, or one error line."""
    folder = tmp_path_factory.mktemp("new")
    here = os.getcwd()
    os.chdir(folder)
    try:
        _cli(["ruling", "new", name], "ruling new")
    finally:
        os.chdir(here)


TOML_VALUES = st.one_of(
    st.sampled_from(['"x"', "1", "1.5", "inf", "nan", "true", "1979-05-27", "[]", "{}", "[1, 2]",
                     '"[/]"', '"<script>"', '"C' + "9" * 300 + '"', "9" * 5000,
                     "[" * 200 + "]" * 200, "{a = {b = {c = 1}}}", '["7H", 7]', '"TS"']),
    st.integers().map(str),
)


@cache
def ruling_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(CASEBOOK_DIR.glob("*.toml"))]


@FUZZ
@given(data=st.data())
def test_fuzz_ruling_check(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = data.draw(st.sampled_from(ruling_texts()))
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        assignments = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w.-]+\s*=", line)]
        if not assignments:
            break
        i = data.draw(st.sampled_from(assignments))
        key = lines[i].split("=", 1)[0]
        if data.draw(st.booleans()):
            lines[i] = f"{key}= {data.draw(TOML_VALUES)}"
        else:
            del lines[i]
    path = _write(tmp_path_factory.mktemp("ruling"), "r.toml", "\n".join(lines).encode())
    _cli(["ruling", "check", path], "ruling check")


@FUZZ
@given(st.sampled_from(["C" + "9" * 300, "C99", "\x00", "-", "x/" * 200, "[/]"]))
def test_fuzz_ruling_ids(ref: str) -> None:
    _cli(["ruling", "check", ref], "ruling check ID")


@cache
def reply_documents() -> list[tuple[str, Any]]:
    from ginspec.conformance.adapters.reference import ReferenceAdapter
    from ginspec.conformance.serve import handle

    adapter = ReferenceAdapter()
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    requests = [
        {"seq": 1, "cmd": "hello", "protocol": 2},
        {"seq": 2, "cmd": "query", "what": "meld", "profile": None, "overrides": {},
         "cards": ["7C", "7D", "7H"]},
        {"seq": 3, "cmd": "new_hand", "profile": "pagat", "overrides": {},
         "deal": {"dealer": 0, "deck": deck}},
        {"seq": 4, "cmd": "legal_actions"}, {"seq": 5, "cmd": "observe"},
        {"seq": 6, "cmd": "apply", "player": 1, "action": "pass"}, {"seq": 7, "cmd": "result"},
    ]
    return [(str(r["cmd"]), handle(adapter, r)[0]) for r in requests]


@FUZZ
@given(data=st.data())
def test_fuzz_protocol_replies(data: st.DataObject) -> None:
    """A reply line is either accepted as its command's reply or is an AdapterFault."""
    cmd, reply = data.draw(st.sampled_from(reply_documents()))
    line = data.draw(mutated([reply]))
    adapter = CommandAdapter(["true"], timeout=1.0)
    try:
        parsed = adapter._parse(line, cmd)
        problem = reply_problem(cmd, parsed)
        if problem is None and cmd == "hello":
            Hello.from_json(parsed)
        _log("protocol reply", "ok" if problem is None else "refused")
    except AdapterFault:
        _log("protocol reply", "fault")


def _api_calls() -> list[tuple[str, int, Callable[..., Any]]]:
    """Public functions, each with its number of arguments."""
    from ginspec.reference.meld_rules import MeldRules
    from ginspec.reference.melds import check_meld, min_deadwood
    from ginspec.reference.typed_rules import rules_for_profile
    from ginspec.spec.cards import parse_card, parse_cards
    from ginspec.spec.profiles import ruleset

    return [("rules_for_profile", 2, rules_for_profile), ("ruleset", 2, ruleset),
            ("parse_card", 1, parse_card), ("parse_cards", 1, parse_cards),
            ("min_deadwood", 1, min_deadwood), ("check_meld", 1, check_meld),
            ("MeldRules.from_params", 1, MeldRules.from_params)]


@FUZZ
@given(st.integers(0, 6), st.lists(ODD_VALUES, min_size=2, max_size=2))
def test_fuzz_python_api_wrong_types(which: int, args: list[Any]) -> None:
    """Wrong argument types raise the project's own errors, never TypeError or AttributeError."""
    from ginspec.spec.errors import GinspecError

    name, arity, call = _api_calls()[which]
    try:
        call(*args[:arity])
    except GinspecError:
        _log(f"api {name}", "GinspecError")
    else:
        _log(f"api {name}", "ok")


def test_bools_are_not_cards_dealers_or_players() -> None:
    from ginspec.reference.typed_rules import rules_for_profile
    from ginspec.spec.cards import parse_card
    from ginspec.spec.errors import GinspecError

    with pytest.raises(GinspecError):
        rules_for_profile("pagat", 5)  # type: ignore[arg-type]
    with pytest.raises(GinspecError):
        parse_card(True)  # type: ignore[arg-type]
    from ginspec.reference.game.deal import Deal
    from ginspec.reference.game.state import HandState

    with pytest.raises(GinspecError, match="dealer"):
        Deal(tuple(range(52)), True)
    hand = HandState.new(Deal(tuple(range(52)), 0), rules_for_profile("pagat"))
    with pytest.raises(GinspecError, match="player"):
        hand.apply("pass", player=True)  # type: ignore[arg-type]
    assert hand.apply("pass", player=1).to_move == 0


@pytest.mark.parametrize("profile", ["three-player", "partnership", "hollywood"])
def test_a_system_trace_names_a_hand_record_that_is_not_an_object(
        profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["play", "--profile", profile, "--seed", "1", "--json"]) == 0
    trace = json.loads(buffer.getvalue())
    trace["hands"] = [trace["hands"][0], 7, "x"]
    path = _write(tmp_path, "trace.json", json.dumps(trace).encode())
    assert main(["check-log", path]) == 2
    assert capsys.readouterr().err.strip() == f"ginspec: error: {path}: hands[1]: expected an object"

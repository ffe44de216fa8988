"""The one input boundary (ginspec.spec.inputs) and the reported reproductions that go through it:
each bad file is exit 2 with one line naming the file (and the field), never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cli import main
from ginspec.conformance.generate.suite import SUITE_DIR, BuiltSuite, write
from ginspec.spec.errors import GinspecError
from ginspec.spec.inputs import MAX_DEPTH, MAX_DIGITS, guard, parse_json, parse_toml


class _Bad(GinspecError):
    pass


@pytest.mark.parametrize(("text", "fragment"), [
    ("[" * 5000 + "]" * 5000, "nested more than"),
    ("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2), "nested more than"),
    ("1" * 5000, "digits"),
    ("[NaN]", "NaN is not a JSON number"),
    ('{"k": Infinity}', "Infinity is not a JSON number"),
    ("1e999", "out of range"),
    ('{"a": ', "invalid JSON"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_json_is_bounded(text: str | bytes, fragment: str) -> None:
    with pytest.raises(_Bad) as caught:
        parse_json(text, "f.json", _Bad)
    assert str(caught.value).startswith("f.json: ") and fragment in str(caught.value)


def test_bounds_let_real_documents_through() -> None:
    assert parse_json('{"a": [1, 2.5, "x", null, true, ' + "9" * MAX_DIGITS + "]}", "f") == \
        {"a": [1, 2.5, "x", None, True, int("9" * MAX_DIGITS)]}


@pytest.mark.parametrize(("text", "fragment"), [
    ("a = " + "[" * 3000 + "]" * 3000, "nested more than"),
    ("a = " + "9" * 5000, "not valid TOML"),
    ("a = inf", "out of range"),
    ("a = [", "not valid TOML"),
])
def test_toml_is_bounded(text: str, fragment: str) -> None:
    with pytest.raises(_Bad) as caught:
        parse_toml(text, "r.toml", _Bad)
    assert fragment in str(caught.value)


def test_guard_names_the_source() -> None:
    with pytest.raises(_Bad, match=r"^t\.json: malformed \(AttributeError"), guard("t.json", _Bad):
        None.get("x")  # type: ignore[attr-defined]


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ginspec: error:") and "\n" not in err, err
    return err


@pytest.mark.parametrize("body", [
    "[" * 3000 + "]" * 3000, '{"profile": "pagat", "hands": ' + "1" * 5000 + "}",
    '{"profile": "pagat", "hands": [1, 2, "x"]}', '{"profile": "pagat", "hands": [{"steps": 3}]}',
])
def test_check_log_bad_traces(body: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.json"
    trace.write_text(body)
    assert str(trace) in _one_line_error(["check-log", str(trace)], capsys)


@pytest.mark.parametrize("body", [
    "[" * 3000 + "]" * 3000, '{"k": Infinity}', '{"question": "deadwood", "k": ' + "9" * 40 + "}",
])
def test_prove_verify_bad_certificates(body: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "c.json"
    cert.write_text(body)
    assert str(cert) in _one_line_error(["prove", "--verify", str(cert)], capsys)


def test_a_case_file_nested_deeply_or_with_markup(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 3000 + "]" * 3000)
    assert str(deep) in _one_line_error(["conform", "--adapter", "reference", "--suite",
                                         str(deep)], capsys)
    source = next(SUITE_DIR.glob("cases/query/q.meld.*.json"))
    data = json.loads(source.read_text())
    data["description"] = "[/] [bold] <script>"
    marked = tmp_path / "marked.json"
    marked.write_text(json.dumps(data))
    assert main(["conform", "--adapter", "reference", "--suite", str(marked),
                 "--no-progress"]) == 0


def test_a_long_ruling_id_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no ruling file or casebook ID" in _one_line_error(
        ["ruling", "check", "C" + "9" * 300], capsys)


@pytest.mark.parametrize("value", ["1.5", "1979-05-27", "[[[[1]]]]", "{a = 1}"])
def test_ruling_fields_of_the_wrong_type(value: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from ginspec.reference.rulings import CASEBOOK_DIR

    text = next(iter(sorted(CASEBOOK_DIR.glob("*.toml")))).read_text()
    lines = [f"id = {value}" if line.startswith("id =") else line for line in text.splitlines()]
    ruling = tmp_path / "r.toml"
    ruling.write_text("\n".join(lines))
    assert str(ruling) in _one_line_error(["ruling", "check", str(ruling)], capsys)


def test_expect_fail_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "x.json"
    listing.write_text("{" + '"a": {' * 3000 + "}" * 3001)
    assert str(listing) in _one_line_error(["conform", "--adapter", "reference",
                                            "--expect-fail", str(listing)], capsys)


def test_suite_build_never_deletes_a_file_it_did_not_write(tmp_path: Path) -> None:
    cases = tmp_path / "cases" / "query"
    cases.mkdir(parents=True)
    (cases / "mine.json").write_text("{}")  # a user's file
    (cases / "q.old.json").write_text("{}")  # written by an earlier build
    (tmp_path / "manifest.json").write_text(json.dumps({"cases": {"q.old": {}}}))
    built = BuiltSuite((), {"cases": {}}, {"manifest.json": '{"cases": {}}\n'})
    write(built, tmp_path)
    assert (cases / "mine.json").exists()
    assert not (cases / "q.old.json").exists()


def test_a_huge_claim_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A claim above the bound on any hand's deadwood (780: 52 cards at 15 points, the most an
    ace may be worth) is refused in one line naming the option, the value and the bound."""
    line = _one_line_error(["prove", "7C", "7D", "7H", "2S", "3S", "--claim", "4294967296"], capsys)
    assert "--claim" in line and "4294967296" in line and "780" in line


def test_a_rules_file_nested_deeply(tmp_path: Path) -> None:
    from ginspec.conformance.adapters.rules_file import RulesFileError, load_rules

    rules = tmp_path / "r.toml"
    rules.write_text('profile = "pagat"\n[set]\nknock_limit = ' + "[" * 3000 + "]" * 3000)
    with pytest.raises(RulesFileError, match=r"r\.toml: nested more than"):
        load_rules(rules)


def test_serve_answers_a_deep_request_with_an_error() -> None:
    import io

    from ginspec.conformance.adapters.reference import ReferenceAdapter
    from ginspec.conformance.serve import serve

    out = io.StringIO()
    serve(ReferenceAdapter(), io.StringIO("[" * 5000 + "]" * 5000 + "\n"), out)
    assert json.loads(out.getvalue())["error"]["message"] == "request: nested more than 64 deep"


# --- the newer readers go through the boundary too --------------------------------------


def _suite_folder(tmp_path: Path, certificates: bytes, case: bytes | None = None) -> Path:
    """A suite folder: one committed query case (or ``case``) and ``certificates`` as its file."""
    folder = tmp_path / "suite"
    (folder / "cases" / "query").mkdir(parents=True)
    source = min(SUITE_DIR.glob("cases/query/q.deadwood.*.json"))
    (folder / "cases" / "query" / source.name).write_bytes(source.read_bytes())
    if case is not None:
        (folder / "cases" / "query" / "zz.bad.json").write_bytes(case)
    (folder / "certificates.jsonl").write_bytes(certificates)
    return folder


@pytest.mark.parametrize(("certificates", "fragment"), [
    (b"x\n", "not JSON"),
    (b"{}\n", "key"),
    (b'{"key": "k", "certificate": 5}\n', "certificate"),
    (b"\xff\xfe\n", "not UTF-8"),
    (b"[" * 5000 + b"]" * 5000 + b"\n", "nested more than"),
    (b'{"key": "k", "certificate": {"n": ' + b"9" * 5000 + b"}}\n", "digits"),
])
def test_verify_suite_bad_certificates(certificates: bytes, fragment: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite_folder(tmp_path, certificates)
    err = _one_line_error(["prove", "--verify-suite", str(folder)], capsys)
    assert str(folder / "certificates.jsonl") in err and fragment in err


@pytest.mark.parametrize("case", [
    b'"s"', b"[1]", b"\xff", b"[" * 5000 + b"]" * 5000, b'{"id": ' + b"9" * 5000 + b"}",
    b'{"kind": "query", "query": 5}', b'{"kind": "hand", "profile": "pagat", "deals": 5}',
])
def test_verify_suite_bad_case_files(case: bytes, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from ginspec.reference.proofs.suite_certificates import SuiteCertificateError, verify_suite

    folder = _suite_folder(tmp_path, b"", case)
    bad = str(folder / "cases" / "query" / "zz.bad.json")
    assert bad in _one_line_error(["prove", "--verify-suite", str(folder)], capsys)
    with pytest.raises(SuiteCertificateError, match=re.escape(bad)):
        verify_suite(folder)


def test_verify_suite_folder_name_too_long(capsys: pytest.CaptureFixture[str]) -> None:
    assert "d" * 40 in _one_line_error(["prove", "--verify-suite", "d" * 300], capsys)


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The lines of a real saved run of one committed case."""
    path = tmp_path_factory.mktemp("run") / "run.jsonl"
    one = str(min(SUITE_DIR.glob("cases/query/q.deadwood.*.json")))
    assert main(["conform", "--adapter", "reference", "--suite", one, "--json", str(path),
                 "--no-progress"]) == 0
    return [json.loads(line) for line in path.read_text().splitlines()]


def _broken_runs(lines: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Name -> (file text, what the error names) for each bad saved run of the issue."""
    header, case, footer = lines[0], lines[1], lines[-1]

    def text(*objects: Any) -> str:
        return "".join(json.dumps(o) + "\n" for o in objects)

    return {
        "deep": (text(header) + "[" * 5000 + "]" * 5000 + "\n", ":2: nested more than"),
        "digits": (json.dumps(header)[:-1] + ', "n": ' + "9" * 5000 + "}\n", ":1: integer of 5000 digits"),
        "adapter": (text({**header, "adapter": 5}, case, footer), ":1: adapter"),
        "clauses": (text(header, {**case, "clauses": -1}, footer), ":2: clauses"),
        "seconds": (text(header, {**case, "seconds": "x"}, footer), ":2: seconds"),
        "selection": (text({**header, "selection": []}, case, footer), ":1: selection"),
        "culprit": (text(header, {**case, "culprit": [1]}, footer), ":2: culprit"),
        "line": (text(header, 7), ":2: (top level)"),
        "interrupted": (text(header, case, {**footer, "interrupted": 5}), ":3: interrupted"),
    }


REPORT_READERS = [
    ["report", "summary", "{run}"], ["report", "summary", "--json", "{run}"],
    ["report", "diff", "{run}", "{run}"], ["report", "merge", "{run}", "-o", "{out}"],
    ["report", "markdown", "{run}"], ["report", "badge", "{run}"],
    ["report", "expect-fail", "{run}", "--update", "{out}"],
]


@pytest.mark.parametrize("name", ["deep", "digits", "adapter", "clauses", "seconds", "selection",
                                  "culprit", "line", "interrupted"])
@pytest.mark.parametrize("argv", REPORT_READERS, ids=lambda a: " ".join(a[:2]))
def test_report_commands_on_bad_saved_runs(name: str, argv: list[str], saved_run: list[dict[str, Any]],
                                           tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginspec.conformance.reports.saved import SavedRunError, read_runs

    body, names = _broken_runs(saved_run)[name]
    run = tmp_path / "bad.jsonl"
    run.write_text(body)
    words = [w.format(run=run, out=tmp_path / "out.txt") for w in argv]
    err = _one_line_error(words, capsys)
    assert str(run) + names in err, err
    with pytest.raises(SavedRunError):
        read_runs(run)


def test_expect_fail_update_reads_its_list_through_the_boundary(
        saved_run: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps(line) + "\n" for line in saved_run))
    for body, fragment in (("[" * 5000 + "]" * 5000, "nested more than"), ("[1]", "not an object"),
                           ('{"a": ' + "9" * 5000 + "}", "digits")):
        listed = tmp_path / "xfail.json"
        listed.write_text(body)
        err = _one_line_error(["report", "expect-fail", str(run), "--update", str(listed)], capsys)
        assert str(listed) in err and fragment in err
    listed.write_bytes(b"\xff\n")
    listed = listed.rename(tmp_path / "xfail.txt")
    assert "not UTF-8" in _one_line_error(["report", "expect-fail", str(run), "--update",
                                           str(listed)], capsys)


LONG_NAME = "n" * 300 + ".out"


@pytest.mark.parametrize("argv", [
    ["ruling", "new", LONG_NAME],
    ["report", "merge", "{run}", "-o", LONG_NAME],
    ["report", "markdown", "{run}", "-o", LONG_NAME],
    ["report", "badge", "{run}", "-o", LONG_NAME],
    ["report", "expect-fail", "{run}", "--update", LONG_NAME],
    ["conform", "--adapter", "reference", "--json", LONG_NAME],
    ["conform", "--adapter", "reference", "--junit", LONG_NAME],
    ["conform", "--adapter", "reference", "--html", LONG_NAME],
], ids=lambda a: " ".join(a[:3]))
def test_a_file_name_too_long_to_write_is_refused_first(
        argv: list[str], saved_run: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps(line) + "\n" for line in saved_run))
    err = _one_line_error([w.format(run=run) for w in argv], capsys)
    assert "n" * 100 in err and "too long" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]


def test_check_writable_is_typed() -> None:
    from ginspec.spec.inputs import NAME_MAX, check_writable

    with pytest.raises(_Bad, match="too long"):
        check_writable("x" * (NAME_MAX + 1), _Bad)
    with pytest.raises(_Bad, match="NUL"):
        check_writable("a\x00b", _Bad)
    with pytest.raises(_Bad, match="does not exist"):
        check_writable("/nonexistent-folder/f.txt", _Bad, "--out")
    assert check_writable("x" * NAME_MAX, _Bad) == Path("x" * NAME_MAX)

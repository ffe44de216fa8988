"""The one input boundary (ginspec.spec.inputs) and the reported reproductions that go through it:
each bad file is exit 2 with one line naming the file (and the field), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

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

"""Engine strings are data: markup, tags, CDATA ends, ANSI escapes and control characters from an
adapter (or a case file) go through every report without changing its meaning or breaking it."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.base import Hello, JSONObject, Unsupported
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR
from ginspec.conformance.reports.explain import Rerun
from ginspec.conformance.reports.html import render
from ginspec.conformance.reports.jsonl import write_runs
from ginspec.conformance.reports.junit import write_junit_runs
from ginspec.conformance.reports.terminal import print_summary
from ginspec.conformance.runner import Runner, RunSummary
from ginspec.reference.cli.escape import html_text, json_line, markdown_text, markup, printable
from hypothesis import given
from hypothesis import strategies as st

EVIL = "[/] [bold]x[/bold] <script>alert(1)</script> ]]> \x1b[31mred\x1b[0m \x00\x07\x08\x0b\x1f\x7f \ud800 é"
"""Everything an engine should not be able to inject."""


class EvilAdapter(ReferenceAdapter):
    """The reference, with EVIL in its hello, in one wrong answer, one error and one decline."""

    def hello(self) -> Hello:
        real = super().hello()
        return Hello(**{**real.__dict__, "name": EVIL, "version": EVIL, "language": EVIL})

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        cards = list(args.get("cards", []))
        if cards[:1] == ["AC"]:
            return {"valid": float("nan"), "inf": float("-inf")}
        if cards[:1] == ["4C"]:
            return {"valid": EVIL}
        if cards[:1] == ["2C"]:
            raise RuntimeError(EVIL)
        if cards[:1] == ["3C"]:
            raise Unsupported(EVIL)
        return super().query(what, args, profile, overrides)


@pytest.fixture(scope="module")
def summary() -> RunSummary:
    cases = [c for c in load_cases([SUITE_DIR]) if c.id.startswith("q.meld.")]
    adapter = EvilAdapter()
    run = Runner(adapter, adapter.hello()).run(cases)
    assert {"fail", "error", "declined"} <= {o.status for o in run.outcomes}
    return run


def _strict_json(text: str) -> Any:
    def refuse(name: str) -> None:
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def test_terminal_report_prints_engine_text_literally(summary: RunSummary) -> None:
    out = io.StringIO()
    print_summary(summary, out, verbose=True)
    text = out.getvalue()
    assert "\x1b" not in text and "\x00" not in text
    assert f"adapter: {printable(EVIL)} {printable(EVIL)}" in text
    assert "[/] [bold]x[/bold] <script>" in text


def test_junit_stays_parsable_xml(summary: RunSummary, tmp_path: Path) -> None:
    path = tmp_path / "r.xml"
    write_junit_runs(path, [(Rerun("..."), summary)])
    root = ET.parse(path).getroot()
    assert printable(EVIL) in root.get("name", "")
    texts = [el.text or "" for el in root.iter() if el.tag in ("error", "failure")]
    assert any("<script>alert(1)</script> ]]>" in t for t in texts)


def test_jsonl_is_strict_json(summary: RunSummary, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    write_runs(path, [("python:evil:EvilAdapter", summary, {})])
    lines = [_strict_json(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["adapter"]["name"] == EVIL
    actual = [entry["actual"] for entry in lines if entry.get("status") == "fail"]
    assert "NaN" in actual and EVIL in actual


def test_html_has_no_engine_markup(summary: RunSummary) -> None:
    page = render([("python:evil:EvilAdapter", summary)])
    assert "<script>" not in page and "\x1b" not in page and "\x00" not in page
    assert "&lt;script&gt;" in page
    page.encode("utf-8")  # no lone surrogate survives


_TEXT = st.text(st.characters(codec=None), max_size=40) | st.sampled_from(
    ["[/]", "[bold]", "\\", "x\\", "[b]\\", "]]>", "<script>", "\x1b[2J", "|a|", "*_`#"])


@given(_TEXT)
def test_markup_round_trips_through_rich(text: str) -> None:
    from rich.text import Text

    assert Text.from_markup(f"[bold]{markup(text)}[/bold]").plain == printable(text)


@given(_TEXT)
def test_markdown_cell_renders_as_the_text(text: str) -> None:
    import html

    from markdown_it import MarkdownIt

    rendered = MarkdownIt("commonmark").render(f"x {markdown_text(text)}")
    body = rendered.removeprefix("<p>x").removesuffix("</p>\n").replace("<br>", "\n")
    assert "<" not in body.replace("&lt;", "")
    expected = printable(text).replace("\r", "").strip()
    assert html.unescape(body).strip() == expected.replace("\x00", "\ufffd")


@given(st.recursive(st.floats() | st.text() | st.integers(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_json_line_is_always_strict(value: Any) -> None:
    line = json_line(value)
    assert "\n" not in line
    _strict_json(line)


def test_html_text_escapes_quotes() -> None:
    assert html_text("\"'<>&") == "&quot;&#x27;&lt;&gt;&amp;"

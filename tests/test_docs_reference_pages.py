"""The protocol and case-format reference pages (docs/_ext/ginspec_docs_schema.py): generated
from the package, covering every schema field, capability, hello field and protocol command."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import Any

from ginspec.conformance.adapters.base import Hello
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases.model import CAPABILITIES
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.cases.store import SCHEMA_DIR
from ginspec.conformance.serve import handle

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import ginspec_docs_schema as ext  # noqa: E402


def text_of(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def schema_fields(schema: dict[str, Any]) -> set[str]:
    names = set(schema.get("properties", {}))
    for sub in schema.get("$defs", {}).values():
        names |= set(sub.get("properties", {}))
    return names | set(schema.get("$defs", {}))


def test_hello_fields_all_explained() -> None:
    assert set(ext.HELLO_MEANING) == set(Hello(name="x", version="1").to_json())


def test_session_covers_every_documented_command() -> None:
    documented = set(re.findall(r"^`([a-z_]+)`(?: with [^\n]*)? →", (ROOT / "docs/guides/protocol.md")
                                .read_text(encoding="utf-8"), re.MULTILINE))
    assert documented >= {"hello", "query", "new_hand", "new_match", "apply", "legal_actions",
                          "observe", "result", "stop"}
    requests = ext.session_requests()
    assert documented | {"shuffle"} == {r["cmd"] for r in requests}
    assert [r["seq"] for r in requests] == list(range(1, len(requests) + 1))


def test_session_replies_are_real_and_complete() -> None:
    """Every request of the documented session is answered by the reference without an error
    (except the deliberately unknown command), and each query answer has the fields the smoke
    check requires of that question."""
    adapter = ReferenceAdapter()
    for request in ext.session_requests():
        reply, _ = handle(adapter, request)
        assert reply["seq"] == request["seq"]
        if request["cmd"] == "shuffle":
            assert "error" in reply
            continue
        assert "error" not in reply, (request, reply)
        if request["cmd"] == "query" and request["what"] in QUERY_KINDS:
            for name, typ in QUERY_KINDS[request["what"]].smoke_shape.items():
                assert isinstance(reply["answer"][name], typ), (request["what"], name)
    queried = {r["what"] for r in ext.session_requests() if r["cmd"] == "query"}
    assert queried == {c.removeprefix("query.") for c in CAPABILITIES if c.startswith("query.")}


def test_include_if_exists() -> None:
    present = "<!-- ginspec:include-if-exists conformance/schema/case.schema.json -->"
    missing = "<!-- ginspec:include-if-exists conformance/NO-SUCH-FILE.md -->"
    end = "<!-- ginspec:end-include -->"
    source = [f"# T\n\n{present}\nfirst fallback\n{end}\n\n{missing}\nsecond fallback\n{end}\n"]
    ext.include_if_exists(None, "guides/protocol", source)  # type: ignore[arg-type]
    assert "```{include} ../../conformance/schema/case.schema.json\n:heading-offset: 1\n" in source[0]
    assert "first fallback" not in source[0] and "second fallback" in source[0]
    assert "NO-SUCH-FILE" not in source[0] and "ginspec:" not in source[0]


def test_case_format_page_lists_every_schema_field(site: Path) -> None:
    import json

    schema = json.loads((SCHEMA_DIR / "case.schema.json").read_text(encoding="utf-8"))
    page = site / "guides" / "case-format.html"
    text = text_of(page)
    missing = sorted(f for f in schema_fields(schema) if f not in text)
    assert not missing, missing
    # patterns keep their backslashes and stars (code, not Markdown emphasis)
    assert schema["$defs"]["clause_id"]["pattern"] in text
    raw = page.read_text(encoding="utf-8")
    for name in schema["$defs"]:
        assert f'id="{ext.anchor(name)}"' in raw


def test_protocol_page_lists_capabilities_and_version(site: Path) -> None:
    from ginspec.conformance.versions import PROTOCOL_VERSION

    text = text_of(site / "guides" / "protocol.html")
    assert all(c in text for c in CAPABILITIES)
    assert f"PROTOCOL_VERSION = {PROTOCOL_VERSION}" in text
    assert '"cmd": "new_hand"' in text and '"accepted": false, "code": "' in text


def test_session_messages_match_the_protocol_schema() -> None:
    """The documented session, replayed against the reference, obeys protocol.schema.json."""
    from jsonschema import Draft202012Validator

    schema = ext.protocol_schema()
    assert schema is not None

    def check(ref: str, message: dict[str, Any]) -> None:
        errors = list(Draft202012Validator({**schema, "$ref": ref}).iter_errors(message))
        assert not errors, (ref, message, [e.message for e in errors])

    adapter = ReferenceAdapter()
    for request in ext.session_requests():
        reply, _ = handle(adapter, request)
        if request["cmd"] == "shuffle":  # the deliberately unknown command
            check("#/$defs/error", reply)
            continue
        check("#/$defs/request", request)
        check(f"#/$defs/reply_to/properties/{request['cmd']}", reply)


def test_protocol_page_lists_every_command(site: Path) -> None:
    schema = ext.protocol_schema()
    assert schema is not None
    page = (site / "guides" / "protocol.html").read_text(encoding="utf-8")
    messages = text_of(site / "guides" / "protocol.html").split("Messages", 1)[1]
    for cmd in schema["$defs"]["request"]["properties"]["cmd"]["enum"]:
        assert cmd in messages
    for name in schema["$defs"]:
        if name not in ("request", "reply_to", "error"):
            assert f'id="{ext.anchor(name, "protocol")}"' in page

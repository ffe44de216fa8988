"""The query-kind registry (conformance/cases/query_kinds.py) is the one definition of every
query: the published JSON Schema, PROTOCOL.md, the capability list, the reference adapter and
the committed suite agree with it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import CAPABILITIES, CaseFormatError, load_cases, parse_case
from ginspec.conformance.cases.model import fingerprint_of
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.compare import check_query
from ginspec.conformance.generate.suite import SUITE_DIR

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "conformance/schema/case.schema.json").read_text(encoding="utf-8"))
PROTOCOL = (ROOT / "conformance/PROTOCOL.md").read_text(encoding="utf-8")


def _schema_required_arguments() -> dict[str, set[str]]:
    """The arguments the case schema requires of each kind (its if/then rules on ``what``)."""
    query = SCHEMA["$defs"]["query"]
    out: dict[str, set[str]] = {what: set() for what in query["properties"]["what"]["enum"]}
    for rule in query["allOf"]:
        cond = rule["if"]["properties"]["what"]
        kinds = cond["enum"] if "enum" in cond else [cond["const"]]
        for what in kinds:
            out[what] |= set(rule["then"].get("required", ()))
    return out


def test_the_schema_lists_the_registry_kinds_and_their_arguments() -> None:
    required = _schema_required_arguments()
    assert set(required) == set(QUERY_KINDS)
    assert {what: set(k.arguments) for what, k in QUERY_KINDS.items()} == required
    properties = set(SCHEMA["$defs"]["query"]["properties"])
    for kind in QUERY_KINDS.values():
        assert set(kind.all_arguments) <= properties, kind.name
    plain = SCHEMA["allOf"][0]["if"]["properties"]["query"]["properties"]["what"]["enum"]
    assert set(plain) == {k.name for k in QUERY_KINDS.values() if k.family != "system"}
    expect = set(SCHEMA["$defs"]["expect"]["properties"])
    for kind in QUERY_KINDS.values():
        if kind.family != "system":
            assert set(kind.answer) - {"melds"} | set(kind.recorded) <= expect, kind.name


def _protocol_rows() -> dict[str, str]:
    """The rows of PROTOCOL.md's two query tables (headed ``| what | arguments | answer |``)."""
    rows: dict[str, str] = {}
    in_table = False
    for line in PROTOCOL.splitlines():
        if line.startswith("| what | arguments | answer |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        m = re.match(r"\| `([a-z-]+)` \| (.*)", line)
        if in_table and m:
            assert m.group(1) not in rows, f"{m.group(1)} documented twice"
            rows[m.group(1)] = m.group(2)
    return rows


def test_protocol_md_documents_every_kind_with_its_arguments_and_answer() -> None:
    rows = _protocol_rows()
    assert set(rows) == set(QUERY_KINDS)
    for what, row in rows.items():
        arguments, answer = row.split(" | ", 1)
        kind = QUERY_KINDS[what]
        for name in kind.all_arguments:
            assert f"`{name}`" in arguments, (what, name)
        for name in kind.answer:
            assert f'"{name}"' in answer or f"`{name}`" in answer, (what, name)


def test_capabilities_hold_one_entry_per_kind() -> None:
    queries = {c for c in CAPABILITIES if c.startswith("query.")}
    assert queries == {k.capability for k in QUERY_KINDS.values()}
    for kind in QUERY_KINDS.values():
        assert CAPABILITIES[kind.capability] == kind.describes


def test_the_reference_answers_every_smoke_question_in_shape() -> None:
    adapter = ReferenceAdapter()
    profile = adapter.hello().profiles[0]
    for kind in QUERY_KINDS.values():
        under = profile if kind.under_profile else kind.smoke_profile or kind.default_profile
        answer = adapter.query(kind.name, dict(kind.smoke_args), under, {})
        assert set(kind.smoke_shape) <= set(kind.answer), kind.name
        for name, typ in kind.smoke_shape.items():
            assert isinstance(answer[name], typ), (kind.name, name, answer)


def test_every_kind_has_committed_cases() -> None:
    seen = {str(c.query["what"]) for c in load_cases([SUITE_DIR]) if c.kind == "query"}
    assert seen == set(QUERY_KINDS)


def _query_case(what: str, query: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "ginspec-case/2", "id": "t.kind", "kind": "query", "origin": "query",
        "description": "t", "clauses": ["CARD.NOTATION"], "violates": [], "decides": [],
        "profile": None, "overrides": {}, "requires": [QUERY_KINDS[what].capability],
        "source": {"generator": "test"}, "query": {"what": what, **query}, "expect": expect,
    }
    data["fingerprint"] = fingerprint_of(data)
    return data


@pytest.mark.parametrize(("what", "query", "expect", "message"), [
    ("next-dealer", {"dealer": 0, "hand": [1, "knock", 2, 9]}, {"next": True},
     "expect/next: True is not one of"),
    ("next-dealer", {"dealer": 0, "hand": [1, "knock", 2, 9]}, {}, "expect/next: required"),
    ("meld", {"cards": ["7C", "7D", "7H"]}, {"valid": True, "count": 1},
     "expect/count: not a field of a meld query"),
    ("prize", {"pool": 100, "totals": [0, 10, 60]}, {"shares": "all"},
     "expect/shares: wrong type str"),
])
def test_an_expectation_off_the_registry_is_refused(
    what: str, query: dict[str, Any], expect: dict[str, Any], message: str
) -> None:
    with pytest.raises(CaseFormatError, match=re.escape(message)):
        parse_case(_query_case(what, query, expect), "t.json")


def test_a_well_formed_query_case_is_accepted() -> None:
    case = parse_case(_query_case("next-dealer", {"dealer": 0, "hand": [1, "knock", 2, 9]},
                                  {"next": 0}), "t.json")
    assert case.kind == "query"


@pytest.mark.parametrize(("what", "expect", "answer", "field"), [
    ("knock-limit", {"limit": 7}, {"limit": 8}, "limit"),
    ("match", {"over": False}, {"over": False, "totals": [1, 2]}, None),
    ("match", {"over": True, "totals": [100, 20]}, {"over": True, "totals": [100, 21]}, "totals"),
    ("arrangement", {"valid": False}, {"valid": False, "deadwood": 99}, None),
    ("card", {"error": True}, {"canonical": "TS"}, "error"),
    ("card", {"canonical": "TS"}, {"error": True}, "canonical"),
    ("knock", {"deadwood": 1, "best_discards": ["2C", "3C"], "can_knock": True, "gin": False},
     {"deadwood": 1, "best_discards": ["3C", "2C"], "can_knock": True, "gin": False}, None),
])
def test_rules_kinds_compare_as_their_entry_says(
    what: str, expect: dict[str, Any], answer: dict[str, Any], field: str | None
) -> None:
    bad = check_query(what, {}, expect, {}, answer)
    assert (bad.field if bad else None) == field


def test_an_unknown_kind_is_named() -> None:
    bad = check_query("tea", {}, {}, {}, {})
    assert bad is not None and bad.field == "query"

"""Sphinx extension: the protocol and case-format reference tables, generated from the package.

Directives (each renders Markdown generated from the installed ginspec, so the guides cannot
drift from the code):

* ``{ginspec-case-schema}`` — every field of the case JSON Schema
  (``conformance/schema/case.schema.json``): one table for the case and one per definition;
* ``{ginspec-capabilities}`` — the closed list of adapter capabilities;
* ``{ginspec-hello}`` — the fields of the ``hello`` reply (the ``Hello`` dataclass);
* ``{ginspec-protocol-session}`` — a real session with the reference (``ginspec serve``'s own
  request handler), one request and reply of every kind;
* ``{ginspec-protocol-schema}`` — each command's request and reply fields, from
  ``conformance/schema/protocol.schema.json``;
* ``{ginspec-version}`` ``NAME`` — one of the versions in ``ginspec.conformance.versions``.

A block from ``<!-- ginspec:include-if-exists PATH -->`` to ``<!-- ginspec:end-include -->``
becomes a MyST ``{include}`` of ``PATH`` (relative to the repository root) when that file exists,
and stays as written (the fallback) when it does not; so a document the conformance suite ships
(``conformance/PROTOCOL.md``, ``CASES.md``) is shown, never copied, the day it appears.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = re.compile(
    r"^<!-- ginspec:include-if-exists (\S+) -->\n(.*?)^<!-- ginspec:end-include -->$",
    re.MULTILINE | re.DOTALL,
)

JSONSchema = dict[str, Any]


# --- the case schema ---------------------------------------------------------------------


def case_schema() -> JSONSchema:
    from ginspec.conformance.cases.store import SCHEMA_DIR

    data: JSONSchema = json.loads((SCHEMA_DIR / "case.schema.json").read_text(encoding="utf-8"))
    return data


def anchor(name: str, prefix: str = "schema") -> str:
    return f"{prefix}-{name.replace('_', '-')}"


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def code(value: Any) -> str:
    return f"`{json.dumps(value)}`"


def describe(schema: JSONSchema, prefix: str = "schema") -> str:
    """One line for a (sub)schema: its type and constraints, definitions as links to the
    anchors ``PREFIX-NAME``."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return f'<a href="#{anchor(name, prefix)}">{name}</a>'
    if "const" in schema:
        return "exactly " + code(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(code(v) for v in schema["enum"])
    for key, word in (("oneOf", "either"), ("anyOf", "any of")):
        if key in schema:
            return f"{word} " + " or ".join(describe(s, prefix) for s in schema[key])
    if "allOf" in schema:
        return ", ".join(describe(s, prefix) for s in schema["allOf"])
    kind = schema.get("type")
    text = " or ".join(kind) if isinstance(kind, list) else str(kind or "")
    if kind == "null":
        text = code(None)
    if kind == "array" and "items" in schema:
        text = f"array of {describe(schema['items'], prefix)}"
    if kind == "object" and "properties" in schema:
        required = set(schema.get("required", []))
        fields = [f"{code(n)}{'' if n in required else ' (optional)'}: {describe(s, prefix)}"
                  for n, s in schema["properties"].items()]
        text = "object with " + "; ".join(fields)
    elif kind == "object" and "additionalProperties" in schema:
        extra = schema["additionalProperties"]
        if isinstance(extra, dict):
            text = f"object of {describe(extra, prefix)}"
    limits = []
    for key, word in (("minItems", "at least {} items"), ("maxItems", "at most {} items"),
                      ("minLength", "at least {} characters"), ("maxLength", "at most {} characters"),
                      ("minimum", "at least {}"), ("minProperties", "at least {} fields")):
        if key in schema:
            limits.append(word.format(schema[key]))
    if schema.get("uniqueItems"):
        limits.append("no repeats")
    if "pattern" in schema:
        limits.append(f"matching `{schema['pattern']}`")
    if "propertyNames" in schema:
        limits.append(f"names {describe(schema['propertyNames'], prefix).removeprefix('str ')}")
    return ", ".join(x for x in [text, *limits] if x)


def conditions(schema: JSONSchema) -> Iterator[str]:
    """The ``if``/``then``/``else`` rules of ``allOf``, in words."""
    for rule in schema.get("allOf", []):
        if "if" not in rule:
            continue
        test = ", ".join(f"`{name}` is {describe(s)}" for name, s in rule["if"]["properties"].items())
        for branch, lead in (("then", f"When {test}"), ("else", "Otherwise")):
            if branch in rule:
                yield f"{lead}: {demands(rule[branch])}."


def demands(schema: JSONSchema) -> str:
    parts = []
    if "required" in schema:
        parts.append("requires " + ", ".join(f"`{f}`" for f in schema["required"]))
    forbidden = [r["required"][0] for r in schema.get("not", {}).get("anyOf", [])]
    if forbidden:
        parts.append("must not have " + ", ".join(f"`{f}`" for f in forbidden))
    return " and ".join(parts)


def field_table(schema: JSONSchema) -> list[str]:
    required = set(schema.get("required", []))
    lines = ["| field | required | value |", "|---|---|---|"]
    for name, sub in schema.get("properties", {}).items():
        lines.append(f"| `{name}` | {'yes' if name in required else 'no'} | {cell(describe(sub))} |")
    return lines


def schema_markdown(schema: JSONSchema) -> list[str]:
    lines = [f"Schema `{schema['$id'].rsplit('/', 1)[-1]}` ({schema['title']}), JSON Schema draft "
             f"2020-12. Fields not listed are refused.", "", *field_table(schema), ""]
    lines += [*conditions(schema), ""]
    defs: dict[str, JSONSchema] = schema.get("$defs", {})
    scalars = [(n, s) for n, s in defs.items() if "properties" not in s]
    lines += ['<span id="schema-definitions"></span>', "", "**Definitions used above:**", "",
              "| name | value |", "|---|---|"]
    lines += [f'| <span id="{anchor(n)}"></span>`{n}` | {cell(describe(s))} |' for n, s in scalars]
    lines.append("")
    for name, sub in defs.items():
        if "properties" not in sub:
            continue
        lines += [f'<span id="{anchor(name)}"></span>', "", f"**`{name}`** — {describe_object(sub)}", ""]
        lines += [*field_table(sub), "", *conditions(sub), ""]
    return lines


def describe_object(schema: JSONSchema) -> str:
    bits = ["an object"]
    if schema.get("additionalProperties") is False:
        bits.append("with only these fields")
    if "minProperties" in schema:
        bits.append(f"with at least {schema['minProperties']} of them")
    return ", ".join(bits) + ":"


# --- the protocol schema -----------------------------------------------------------------


def protocol_schema() -> JSONSchema | None:
    """``conformance/schema/protocol.schema.json``, or None while the suite ships none."""
    from ginspec.conformance.cases.store import SCHEMA_DIR

    path = SCHEMA_DIR / "protocol.schema.json"
    if not path.is_file():
        return None
    data: JSONSchema = json.loads(path.read_text(encoding="utf-8"))
    return data


def fields_text(schema: JSONSchema, skip: tuple[str, ...] = ("seq",)) -> str:
    required = set(schema.get("required", []))
    parts = [f"`{name}`{'' if name in required else ' (optional)'}: {describe(sub, 'protocol')}"
             for name, sub in schema.get("properties", {}).items() if name not in skip]
    return "; ".join(parts) or "—"


def protocol_markdown(schema: JSONSchema) -> list[str]:
    """One row per command: the request's fields and the reply's, from the protocol schema."""
    defs = schema["$defs"]
    request = defs["request"]
    branches = {rule["if"]["properties"]["cmd"]["const"]: rule["then"]
                for rule in request.get("allOf", []) if "then" in rule}
    replies = defs["reply_to"]["properties"]
    lines = [f"Schema `{schema['$id'].rsplit('/', 1)[-1]}` ({schema['title']}). Every request "
             "has `seq` (an integer) and `cmd`; every reply repeats `seq`.", "",
             "| `cmd` | request fields | reply fields |", "|---|---|---|"]
    for cmd in request["properties"]["cmd"]["enum"]:
        ask = fields_text(branches.get(cmd, {}))
        reply = replies.get(cmd, {})
        forms = [defs[f["$ref"].rsplit("/", 1)[-1]] if "$ref" in f else f
                 for f in reply.get("oneOf", [reply])]
        answer = " — or — ".join(fields_text(f) for f in forms)
        lines.append(f"| `{cmd}` | {cell(ask)} | {cell(answer)} |")
    lines += ["", f"Any reply may instead be an error: {cell(fields_text(defs['error'], ()))}.", "",
              "| name | value |", "|---|---|"]
    lines += [f'| <span id="{anchor(n, "protocol")}"></span>`{n}` | {cell(describe(s, "protocol"))} |'
              for n, s in defs.items() if n not in ("request", "reply_to", "error")]
    return lines


# --- the protocol ------------------------------------------------------------------------

HELLO_MEANING: dict[str, str] = {
    "name": "the engine's name, shown in reports",
    "version": "the engine's version, shown in reports",
    "protocol": "the protocol version the adapter speaks; the runner refuses one it does not "
    "accept (ACCEPTED_PROTOCOLS)",
    "language": "the language the engine is written in (informative)",
    "profiles": "the profiles it plays; cases of other profiles are skipped",
    "capabilities": "what it can do (table below); cases needing more are skipped",
    "overrides": "the parameters it accepts as overrides of a profile; cases overriding others "
    "are skipped",
    "homepage": "where to find the engine (informative)",
    "rules": "protocol 3: the one ruleset it plays, by value: {\"profile\": NAME, \"set\": "
    "{param: value}} (or null); when given, a case runs when its ruleset has exactly these values",
}
"""What each ``hello`` field means; a test checks this covers every field ``Hello`` sends."""


def hello_markdown() -> list[str]:
    from ginspec.conformance.adapters.base import Hello

    sent = list(Hello(name="", version="").to_json())
    types = {f.name: str(f.type) for f in dataclasses.fields(Hello)}
    lines = ["| field | type | meaning |", "|---|---|---|"]
    for name in sent:
        kind = {"str": "string", "int": "integer", "tuple[str, ...]": "list of strings",
                "Ruleset | None": "object or null"}.get(
            types[name], types[name])
        lines.append(f"| `{name}` | {kind} | {cell(HELLO_MEANING[name])} |")
    return lines


def capabilities_markdown() -> list[str]:
    from ginspec.conformance.cases.model import CAPABILITIES

    lines = ["| capability | the adapter … |", "|---|---|"]
    lines += [f"| `{name}` | {cell(text)} |" for name, text in CAPABILITIES.items()]
    return lines


SESSION_DEAL: dict[str, Any] = {
    "dealer": 0, "deck": [r + s for s in "CDHS" for r in "A23456789TJQK"]}
"""The new-pack order as the deal: the first card dealt first."""


def session_requests() -> list[dict[str, Any]]:
    """One request of every kind, in the order a runner sends them."""
    from ginspec.conformance.versions import PROTOCOL_VERSION

    cards = ["5C", "6C", "7C", "5D", "6D", "7D", "5H", "5S"]
    eleven = ["AC", "2C", "3C", "4D", "4H", "4S", "9D", "9H", "9S", "KC", "QC"]
    queries: list[dict[str, Any]] = [
        {"what": "card", "token": "10s"},
        {"what": "meld", "cards": ["7C", "7D", "7H"]},
        {"what": "melds-count", "cards": cards},
        {"what": "deadwood", "cards": cards},
        {"what": "arrangements", "cards": cards},
        {"what": "arrangement", "cards": cards, "melds": [["5C", "6C", "7C"], ["5D", "6D", "7D"]]},
        {"what": "knock", "cards": eleven},
        {"what": "knock-limit", "upcard": "3H"},
        {"what": "score", "outcome": "knock", "knocker_deadwood": 8, "defender_deadwood": 10},
        {"what": "match", "hands": [[0, "knock", 3, 30], [1, "gin", 0, 40], ["void"]]},
        {"what": "next-dealer", "dealer": 0, "hand": [1, "knock", 2, 9]},
        {"what": "declaration", "cards": ["2S", "3S", "4S", "9H", "9D", "9C", "JH", "QH", "KH",
                                          "AD"], "melds": [["9C", "9D", "9H"]]},
        {"what": "layoff", "table": [["5S", "6S", "7S"]], "laid": ["8S to 5S"],
         "cards": ["4S", "9S"]},
        {"what": "defence", "knocker_melds": [["7C", "7D", "7H", "7S"], ["8C", "9C", "TC"]],
         "cards": ["6C", "5C", "JC", "QC", "KS", "KH", "KD", "4D", "9H", "2H"]},
        {"what": "adjudicate", "knocker": ["9S", "9H", "9D", "2C", "3C", "4C", "JH", "QH", "KH",
                                           "7D"],
         "defender": ["9C", "5S", "4D", "5H", "6H", "7H", "8H", "TS", "JS", "QS"]},
    ]
    profiles = {"knock-limit": "oklahoma", "score": "pagat", "match": "pagat",
                "next-dealer": "pagat", "adjudicate": "pagat"}
    out: list[dict[str, Any]] = [{"cmd": "hello", "protocol": PROTOCOL_VERSION}]
    for q in queries:
        profile = profiles.get(q["what"])
        out.append({"cmd": "query", **q, "profile": profile, "overrides": {}})
    table = [["7H", "8H", "9H", "KC", "KD", "KS", "2C"], ["6H", "4C", "4D", "4S", "TS", "JD", "2D"],
             ["5H", "3S", "3D", "3H", "QS", "QH", "AC"]]
    systems: list[tuple[str, dict[str, Any]]] = [  # the multi-player queries of chapter 14
        ("three-player", {"what": "system"}),
        ("serbian-online", {"what": "table-penalty", "knocker": 0, "deadwood": [2, 22, 26]}),
        ("serbian-online", {"what": "prize", "pool": 1000, "totals": [40, 100, 62]}),
        ("serbian-online", {"what": "table-game", "hands": [[0, 20, 24]]}),
        ("serbian-online", {"what": "table-adjudicate", "hands": table, "knocker": 0,
                            "discard": "3C"}),
        ("three-player", {"what": "three-rotation", "hands": [[2, 1, 10]]}),
        ("partnership", {"what": "partnership", "deals": [[[0, 1, 30], [3, 2, 29]]]}),
        ("hollywood", {"what": "hollywood", "hands": [[0, 25], [1, 12]]}),
    ]
    for profile, q in systems:
        out.append({"cmd": "query", **q, "profile": profile, "overrides": {}})
    out += [
        {"cmd": "new_hand", "profile": "pagat", "overrides": {}, "deal": SESSION_DEAL},
        {"cmd": "observe"},
        {"cmd": "legal_actions"},
        {"cmd": "apply", "player": 1, "action": "draw-stock"},
        {"cmd": "apply", "player": 1, "action": "pass"},
        {"cmd": "result"},
        {"cmd": "new_match", "profile": "pagat", "overrides": {}, "deals": [SESSION_DEAL]},
        {"cmd": "new_table_hand", "profile": "serbian-online", "overrides": {},
         "deal": {"players": 3, **SESSION_DEAL}},
        {"cmd": "observe"},
        {"cmd": "shuffle"},
        {"cmd": "stop"},
    ]
    return [{"seq": i, **r} for i, r in enumerate(out, 1)]


def short(message: dict[str, Any]) -> str:
    """Compact JSON with the 52-card decks and the long hello lists elided."""
    shown = dict(message)
    if "deal" in shown:
        shown["deal"] = {**{k: v for k, v in shown["deal"].items() if k != "deck"},
                         "deck": ["AC", "2C", "…", "KS"]}
    if "deals" in shown and shown.get("cmd") == "new_match":
        shown["deals"] = [{"dealer": d["dealer"], "deck": ["AC", "2C", "…", "KS"]} for d in shown["deals"]]
    for key in ("profiles", "capabilities", "overrides"):
        if isinstance(shown.get(key), list) and len(shown[key]) > 3:
            shown[key] = [*shown[key][:3], "…"]
    if isinstance(shown.get("error"), dict):
        shown["error"] = {"message": shown["error"].get("message", "")}
    return json.dumps(shown, ensure_ascii=False)


def session_markdown() -> list[str]:
    from ginspec.conformance.adapters.reference import ReferenceAdapter
    from ginspec.conformance.serve import handle

    adapter = ReferenceAdapter()
    lines = ["```text"]
    for request in session_requests():
        reply, _ = handle(adapter, request)
        lines += [f"→ {short(request)}", f"← {short(reply)}"]
    lines.append("```")
    return lines


def version_text(name: str) -> str:
    from ginspec.conformance import versions

    return str(getattr(versions, name))


# --- Sphinx glue -------------------------------------------------------------------------


class _Generated(SphinxDirective):
    """Renders the Markdown lines of :meth:`lines` in place."""

    has_content = False
    optional_arguments = 1

    def lines(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        container = nodes.container()
        self.state.nested_parse(StringList(self.lines(), source="ginspec_docs_schema"), 0, container)
        return list(container.children)


class CaseSchema(_Generated):
    def lines(self) -> list[str]:
        return schema_markdown(case_schema())


class Capabilities(_Generated):
    def lines(self) -> list[str]:
        return capabilities_markdown()


class HelloFields(_Generated):
    def lines(self) -> list[str]:
        return hello_markdown()


class ProtocolSession(_Generated):
    def lines(self) -> list[str]:
        return session_markdown()


class ProtocolSchema(_Generated):
    def lines(self) -> list[str]:
        schema = protocol_schema()
        if schema is None:
            return ["The suite ships no protocol schema yet; the session above is the reference."]
        return protocol_markdown(schema)


class Version(SphinxDirective):
    required_arguments = 1
    NAMES: ClassVar[tuple[str, ...]] = ("PROTOCOL_VERSION", "CASE_FORMAT", "SUITE_VERSION",
                                        "RULES_VERSION")

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in self.NAMES:
            raise self.error(f"unknown version {name!r}")
        return [nodes.paragraph("", "", nodes.literal(text=f"{name} = {version_text(name)}"))]


def include_if_exists(app: Sphinx, docname: str, source: list[str]) -> None:
    def replace(match: re.Match[str]) -> str:
        path = ROOT / match.group(1)
        if not path.is_file():
            return match.group(2)
        rel = Path("../" * docname.count("/")) / ".." / match.group(1)
        # links such as schema/x.json inside the file resolve next to it (download links)
        return f"```{{include}} {rel.as_posix()}\n:heading-offset: 1\n:relative-docs: schema/\n```"

    source[0] = INCLUDE.sub(replace, source[0])


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("ginspec-case-schema", CaseSchema)
    app.add_directive("ginspec-capabilities", Capabilities)
    app.add_directive("ginspec-hello", HelloFields)
    app.add_directive("ginspec-protocol-session", ProtocolSession)
    app.add_directive("ginspec-protocol-schema", ProtocolSchema)
    app.add_directive("ginspec-version", Version)
    app.connect("source-read", include_if_exists)
    return {"version": "1", "parallel_read_safe": True}

"""What every ruling file has, whatever its kind: the header (ID, question, who says what), the
``[position]`` and ``[[expect]]`` tables, and the computed :class:`Finding` of one expectation.

The ruling kinds (:mod:`ginspec.reference.rulings` for showdowns and the dispatch,
``ruling_scripts``, ``ruling_scores``, ``ruling_table``) all build on this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.parameters import Value, parameter, value_text
from ginspec.spec.profiles import profiles, ruleset

FORMAT_VERSION: Final = 1
_TOP_KEYS: Final = {
    "format", "kind", "id", "title", "question", "clauses", "digest", "answer", "position", "sources", "expect"
}


@dataclass(frozen=True)
class Claim:
    """What one side of a dispute says, and who says it."""

    says: str
    cite: tuple[str, ...]


def need_field(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise RulingFileError(f"{where}: missing field '{key}'")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RulingFileError(f"{where}: field '{key}' must be a {kind.__name__}")
    return value


@dataclass(frozen=True, kw_only=True)
class RulingHeader:
    """What every ruling file has, whatever its kind: the ID, the question, who says what."""

    id: str
    title: str
    question: str
    sides: tuple[Claim, ...] = ()
    clauses: tuple[str, ...] = ()
    digest: str = ""
    answer: str = ""
    path: str = ""
    kind: str = "showdown"

    def __repr__(self) -> str:
        return f"load_ruling({self.path!r})" if self.path else f"{type(self).__name__}(id={self.id!r})"


@dataclass(frozen=True)
class Finding:
    """One expectation of a ruling, computed: the answer (field, value as text, in display
    order), the fields that differ from the file, and the clauses that decided it."""

    label: str
    profile: str
    overrides: Mapping[str, Value]
    answer: tuple[tuple[str, str], ...]
    mismatches: tuple[str, ...] = ()
    trail: tuple[tuple[str, str], ...] = ()
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "overrides": dict(self.overrides),
            "ok": self.ok,
            "mismatches": list(self.mismatches),
            "answer": dict(self.answer),
            "trail": [{"clause": c, "text": t} for c, t in self.trail],
        }


def label_of(profile: str, overrides: Mapping[str, Value], extra: tuple[str, ...] = ()) -> str:
    """``profile (name=value, ...)``: how an expectation is named in verdicts and on pages."""
    parts = [f"{k}={value_text(v)}" for k, v in overrides.items()] + list(extra)
    return f"{profile} ({', '.join(parts)})" if parts else profile


def parse_header(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The fields every ruling file has, validated, as keyword arguments of a ruling class."""
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RulingFileError(f"{source}: unknown field '{sorted(unknown)[0]}'")
    fmt = data.get("format", FORMAT_VERSION)
    if fmt != FORMAT_VERSION:
        raise RulingFileError(f"{source}: field 'format': version {fmt!r} is not supported (expected 1)")
    sides = []
    for i, item in enumerate(data.get("sources", [])):
        where = f"{source}: sources[{i}]"
        if not isinstance(item, dict):
            raise RulingFileError(f"{where}: must be a table")
        sides.append(Claim(need_field(item, "says", str, where), tuple(str(c) for c in item.get("cite", []))))
    return {
        "id": need_field(data, "id", str, source),
        "title": need_field(data, "title", str, source),
        "question": need_field(data, "question", str, source),
        "sides": tuple(sides),
        "clauses": tuple(str(c) for c in data.get("clauses", [])),
        "digest": str(data.get("digest", "")),
        "answer": str(data.get("answer", "")),
        "path": source,
        "kind": str(data.get("kind", "showdown")),
    }


def position_of(data: Mapping[str, Any], source: str, keys: set[str]) -> dict[str, Any]:
    """The ``[position]`` table, with no field outside ``keys``."""
    pos: dict[str, Any] = need_field(data, "position", dict, source)
    unknown = set(pos) - keys
    if unknown:
        raise RulingFileError(f"{source}: unknown field 'position.{sorted(unknown)[0]}'")
    return pos


def expect_items(data: Mapping[str, Any], source: str, keys: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """The ``[[expect]]`` tables as ``(where, table)``, each with no field outside ``keys``."""
    raw = need_field(data, "expect", list, source)
    if not raw:
        raise RulingFileError(f"{source}: field 'expect' needs at least one expectation")
    out = []
    for i, item in enumerate(raw):
        where = f"{source}: expect[{i}]"
        if not isinstance(item, dict):
            raise RulingFileError(f"{where}: must be a table")
        unknown = set(item) - keys
        if unknown:
            raise RulingFileError(f"{where}: unknown field '{sorted(unknown)[0]}'")
        out.append((where, item))
    return out


def profile_of(item: Mapping[str, Any], where: str) -> tuple[str, dict[str, Value]]:
    """An expectation's ``profile`` and its ``set`` overrides, validated."""
    profile = need_field(item, "profile", str, where)
    if profile not in set(profiles()):
        raise RulingFileError(f"{where}: field 'profile': unknown profile {profile!r}")
    raw = item.get("set", {})
    if not isinstance(raw, dict):
        raise RulingFileError(f"{where}: field 'set' must be a table of parameters")
    overrides: dict[str, Value] = {}
    for name, value in raw.items():
        try:
            overrides[name] = parameter(name).check(value)
        except GinspecError as exc:
            raise RulingFileError(f"{where}: field 'set.{name}': {exc}") from None
    try:
        ruleset(profile, overrides)
    except GinspecError as exc:
        raise RulingFileError(f"{where}: field 'set': {exc}") from None
    return profile, overrides

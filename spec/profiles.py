"""Named rulesets ("profiles") and validated rulesets (loaded from ``spec/profiles.toml``).

A :class:`Ruleset` is a frozen, validated mapping from every parameter name of
``spec/parameters.toml`` to its value: a profile's values plus any overrides. Unknown profiles,
unknown parameters, values out of range and impossible combinations raise
:class:`~ginspec.spec.errors.ParameterError`; nothing is silently defaulted.

    >>> from ginspec.spec.profiles import ruleset
    >>> rules = ruleset("pagat", {"gin_bonus": 25})
    >>> rules["gin_bonus"], rules.name
    (25, 'pagat')
    >>> rules
    ruleset('pagat', {'gin_bonus': 25})
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from ginspec.spec.errors import ParameterError, shown
from ginspec.spec.parameters import Value, check_combination, parameter, parameters, parse_assignment

PROFILES_FILE: Final = Path(__file__).resolve().parent / "profiles.toml"


@dataclass(frozen=True)
class Entry:
    """One parameter of a profile: its value, where it comes from, and whether a source states it."""

    value: Value
    source: str
    stated: bool


@dataclass(frozen=True)
class Profile:
    """A named ruleset as written in ``profiles.toml`` (with its base profile already merged)."""

    name: str
    title: str
    basis: str
    description: str
    base: str | None
    entries: Mapping[str, Entry]

    def values(self) -> dict[str, Value]:
        return {name: entry.value for name, entry in self.entries.items()}

    def __repr__(self) -> str:
        return f"profile({self.name!r})"


def _entries(name: str, spec: Mapping[str, Any], inherited: Mapping[str, Entry]) -> dict[str, Entry]:
    """The complete entry table of one profile: base values, then its own, then the defaults."""
    own: dict[str, Entry] = {}
    for section, stated in (("values", True), ("unstated", False)):
        for pname, item in spec.get(section, {}).items():
            if pname in own:
                raise ParameterError(f"profiles.toml: {name}: parameter {pname} given twice")
            param = parameter(pname)
            where = f"profiles.toml: {name}.{section}.{pname}"
            if "value" not in item:
                raise ParameterError(f"{where}: needs a value")
            key = "source" if stated else "reason"
            if not str(item.get(key, "")).strip():
                raise ParameterError(f"{where}: needs a {key}")
            try:
                value = param.check(item["value"])
            except ParameterError as exc:
                raise ParameterError(f"{where}: {exc}") from None
            text = str(item[key]) if stated else f"not stated; {item[key]}"
            own[pname] = Entry(value, text, stated)
    table: dict[str, Entry] = {}
    for pname, param in parameters().items():
        if pname in own:
            table[pname] = own[pname]
        elif pname in inherited:
            table[pname] = inherited[pname]
        else:
            table[pname] = Entry(
                param.default, f"not stated; catalogue default: {param.default_reason}", False
            )
    return table


def load_profiles(path: Path = PROFILES_FILE) -> dict[str, Profile]:
    """Read and validate every profile (each must be a valid combination)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    loaded: dict[str, Profile] = {}

    def load(name: str, trail: tuple[str, ...]) -> Profile:
        if name in loaded:
            return loaded[name]
        if name in trail:
            raise ParameterError(f"profiles.toml: profile {name} is its own base")
        spec = data[name]
        base = spec.get("base")
        inherited: Mapping[str, Entry] = {}
        if base is not None:
            if base not in data:
                raise ParameterError(f"profiles.toml: {name}: unknown base profile {base!r}")
            inherited = load(str(base), (*trail, name)).entries
        for key in ("title", "basis", "description"):
            if not str(spec.get(key, "")).strip():
                raise ParameterError(f"profiles.toml: {name}: needs a {key}")
        entries = _entries(name, spec, inherited)
        try:
            check_combination({k: e.value for k, e in entries.items()})
        except ParameterError as exc:
            raise ParameterError(f"profiles.toml: {name}: {exc}") from None
        prof = Profile(name, str(spec["title"]), str(spec["basis"]), str(spec["description"]),
                       None if base is None else str(base), entries)
        loaded[name] = prof
        return prof

    for name in data:
        load(name, ())
    return {name: loaded[name] for name in data}


@cache
def _profiles() -> dict[str, Profile]:
    return load_profiles()


def profiles() -> tuple[str, ...]:
    """The names of the installed profiles, in catalogue order."""
    return tuple(_profiles())


def profile(name: str) -> Profile:
    """Look up a profile by name; an unknown name (or one that is not text) raises
    ParameterError."""
    try:
        return _profiles()[name]
    except (KeyError, TypeError):
        shown = repr(name)[:80] if isinstance(name, str) else f"of type {type(name).__name__}"
        raise ParameterError(
            f"unknown profile {shown} (known: {', '.join(profiles())})"
        ) from None


class Ruleset(Mapping[str, Value]):
    """A validated ruleset: every parameter's value. Immutable and hashable.

    ``name`` is the profile it starts from, ``overrides`` the values changed from it. ``repr`` is
    a call of :func:`ruleset` that rebuilds it.
    """

    __slots__ = ("_name", "_overrides", "_values")

    _name: str
    _overrides: tuple[tuple[str, Value], ...]
    _values: dict[str, Value]

    def __init__(self, name: str, overrides: Mapping[str, Value] | None = None) -> None:
        prof = profile(name)
        if overrides is not None and not isinstance(overrides, Mapping):
            raise ParameterError(f"overrides: expected a mapping of parameter names to values, "
                                 f"got {type(overrides).__name__} {shown(overrides)}")
        given = dict(overrides or {})
        values = prof.values()
        for pname, raw in given.items():
            values[pname] = parameter(pname).check(raw)
            given[pname] = values[pname]
        check_combination(values)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_overrides", tuple(given.items()))
        object.__setattr__(self, "_values", values)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a Ruleset is immutable")

    @property
    def name(self) -> str:
        return self._name

    @property
    def overrides(self) -> dict[str, Value]:
        return dict(self._overrides)

    @property
    def profile(self) -> Profile:
        return profile(self._name)

    def __getitem__(self, key: str) -> Value:
        try:
            return self._values[key]
        except KeyError:
            raise ParameterError(f"unknown parameter {key!r}") from None

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` if there is no such parameter."""
        return self._values.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ruleset):
            return self._name == other._name and self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._name, tuple(sorted(self._values.items()))))

    def source(self, key: str) -> str:
        """Where the value of ``key`` comes from: an override, or the profile's source."""
        if key in dict(self._overrides):
            return "override (--set)"
        try:
            return self.profile.entries[key].source
        except KeyError:
            raise ParameterError(f"unknown parameter {key!r}") from None

    def number(self, key: str) -> int:
        """The value of an int parameter (typed access)."""
        value = self[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParameterError(f"parameter {key} is not an integer")
        return value

    def flag(self, key: str) -> bool:
        """The value of a bool parameter (typed access)."""
        value = self[key]
        if not isinstance(value, bool):
            raise ParameterError(f"parameter {key} is not true/false")
        return value

    def choice(self, key: str) -> str:
        """The value of an enum parameter (typed access)."""
        value = self[key]
        if not isinstance(value, str):
            raise ParameterError(f"parameter {key} is not a choice")
        return value

    def with_overrides(self, overrides: Mapping[str, Value]) -> Ruleset:
        """A new ruleset with more overrides (validated again)."""
        return Ruleset(self._name, {**dict(self._overrides), **overrides})

    def __repr__(self) -> str:
        if not self._overrides:
            return f"ruleset({self._name!r})"
        return f"ruleset({self._name!r}, {dict(self._overrides)!r})"


def ruleset(profile: str, overrides: Mapping[str, Value] | None = None) -> Ruleset:
    """The validated ruleset of ``profile`` with ``overrides`` applied."""
    return Ruleset(profile, overrides)


def parse_overrides(assignments: Iterable[str]) -> dict[str, Value]:
    """Parse ``NAME=VALUE`` strings (as given to ``--set``) into typed overrides."""
    out: dict[str, Value] = {}
    for text in assignments:
        name, value = parse_assignment(text)
        if name in out:
            raise ParameterError(f"parameter {name} is set twice")
        out[name] = value
    return out

"""The ruleset parameter registry (loaded from ``spec/parameters.toml``).

Each parameter has a type, its allowed values, a default, the clause that it decides and the
sources of each attested value. Unknown names and values out of range raise
:class:`~ginspec.spec.errors.ParameterError`; nothing is silently defaulted.
"""

from __future__ import annotations

import operator
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, TypeAlias

from ginspec.spec.errors import ParameterError, shown

Value: TypeAlias = bool | int | str


def value_text(value: object) -> str:
    """A parameter value as the rules files and ``--set`` write it (``true``/``false`` for a
    boolean, else its text)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_repr(kind: str, rules: object, names: tuple[str, ...]) -> str:
    """``kind(name=value, ...)`` naming only the parameters of ``rules`` not at their catalogue
    default: a valid Python ``repr`` for a rules object whose fields are named parameters."""
    fields = (f"{name}={getattr(rules, name)!r}" for name in names
              if getattr(rules, name) != parameter(name).default)
    return f"{kind}({', '.join(fields)})"


PARAMETERS_FILE: Final = Path(__file__).resolve().parent / "parameters.toml"


@dataclass(frozen=True)
class Attested:
    """A value of a parameter, what it means, and the sources that play it."""

    value: Value
    sources: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Parameter:
    """One ruleset parameter."""

    name: str
    type: str
    default: Value
    clause: str
    description: str
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    values: tuple[Attested, ...] = ()
    default_reason: str = ""

    def attested(self, value: Value) -> Attested | None:
        """The attested entry for ``value`` (None if no source plays it)."""
        for entry in self.values:
            if entry.value == value and type(entry.value) is type(value):
                return entry
        return None

    def allowed(self) -> str:
        """The allowed values in words, e.g. ``0..10`` or ``never|always``."""
        if self.type == "bool":
            return "true|false"
        if self.type == "int":
            return f"{self.min}..{self.max}"
        return "|".join(self.choices)

    def check(self, value: object) -> Value:
        """Return ``value`` if it is allowed, else raise ParameterError naming the parameter."""
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            raise ParameterError(f"parameter {self.name}: expected true or false, got {shown(value)}")
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParameterError(f"parameter {self.name}: expected an integer, got {shown(value)}")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise ParameterError(
                    f"parameter {self.name}: {shown(value)} is outside {self.min}..{self.max}"
                )
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise ParameterError(
                f"parameter {self.name}: {shown(value)} is not one of {', '.join(self.choices)}"
            )
        return value

    def parse(self, text: str) -> Value:
        """Parse a command-line value (``true``/``false``, an integer, or a choice)."""
        raw = text.strip()
        value: object
        if self.type == "bool":
            lowered = raw.lower()
            if lowered not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                raise ParameterError(f"parameter {self.name}: expected true or false, got {raw!r}")
            value = lowered in ("true", "yes", "1", "on")
        elif self.type == "int":
            try:
                value = int(raw)
            except ValueError:
                raise ParameterError(f"parameter {self.name}: expected an integer, got {raw!r}") from None
        else:
            value = raw
        return self.check(value)


def load_parameters(path: Path = PARAMETERS_FILE) -> dict[str, Parameter]:
    """Read the parameter catalogue."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    params: dict[str, Parameter] = {}
    for name, spec in data.items():
        if name == "constraints":
            continue
        kind = spec["type"]
        if kind not in ("bool", "int", "enum"):
            raise ParameterError(f"parameters.toml: {name}: unknown type {kind!r}")
        param = Parameter(
            name=name,
            type=kind,
            default=spec["default"],
            clause=spec["clause"],
            description=spec["description"],
            choices=tuple(spec.get("choices", ())),
            min=spec.get("min"),
            max=spec.get("max"),
            values=tuple(
                Attested(v["value"], tuple(v.get("sources", ())), str(v.get("note", "")))
                for v in spec.get("values", ())
            ),
            default_reason=str(spec.get("default_reason", "")),
        )
        param.check(param.default)
        for attested in param.values:
            param.check(attested.value)
        params[name] = param
    return params


@cache
def parameters() -> dict[str, Parameter]:
    """The installed parameter catalogue (loaded once)."""
    return load_parameters()


def parameter(name: str) -> Parameter:
    """Look up a parameter by name; unknown names raise ParameterError."""
    try:
        return parameters()[name]
    except KeyError:
        raise ParameterError(f"unknown parameter {name!r}") from None


def parse_assignment(text: str) -> tuple[str, Value]:
    """Parse ``NAME=VALUE`` as given to ``--set``."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise ParameterError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), parameter(name.strip()).parse(raw)


# --- combinations -------------------------------------------------------------------------------

_OPS: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
_TERM_RE: Final = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(==|!=|<=|>=|<|>)\s*(\S+)\s*$")


@dataclass(frozen=True)
class Term:
    """One comparison ``NAME OP VALUE`` of a constraint."""

    name: str
    op: str
    value: Value

    def holds(self, values: Mapping[str, Value]) -> bool:
        return bool(_OPS[self.op](values[self.name], self.value))

    def __str__(self) -> str:
        return f"{self.name} {self.op} {value_text(self.value)}"


@dataclass(frozen=True)
class Constraint:
    """A combination rule: when every ``when`` term holds, every ``require`` term must hold."""

    when: tuple[Term, ...]
    require: tuple[Term, ...]
    message: str

    def violated(self, values: Mapping[str, Value]) -> bool:
        return all(t.holds(values) for t in self.when) and not all(
            t.holds(values) for t in self.require
        )


def _parse_terms(text: str, params: Mapping[str, Parameter], where: str) -> tuple[Term, ...]:
    terms = []
    for part in text.split(" and "):
        match = _TERM_RE.match(part)
        if not match:
            raise ParameterError(f"parameters.toml: {where}: cannot read {part!r}")
        name, op, raw = match.groups()
        if name not in params:
            raise ParameterError(f"parameters.toml: {where}: unknown parameter {name!r}")
        param = params[name]
        value = param.parse(raw)
        if op not in ("==", "!=") and param.type != "int":
            raise ParameterError(f"parameters.toml: {where}: {op} needs an int parameter")
        terms.append(Term(name, op, value))
    return tuple(terms)


def load_constraints(
    path: Path = PARAMETERS_FILE, params: Mapping[str, Parameter] | None = None
) -> tuple[Constraint, ...]:
    """Read the ``[[constraints]]`` list of the catalogue (checked against the parameters)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    known = params if params is not None else load_parameters(path)
    out = []
    for i, item in enumerate(data.get("constraints", ())):
        where = f"constraint {i + 1}"
        out.append(
            Constraint(
                when=_parse_terms(str(item["when"]), known, where),
                require=_parse_terms(str(item["require"]), known, where),
                message=str(item["message"]),
            )
        )
    return tuple(out)


@cache
def constraints() -> tuple[Constraint, ...]:
    """The installed combination rules (loaded once)."""
    return load_constraints(params=parameters())


def complete(values: Mapping[str, object]) -> dict[str, Value]:
    """Every parameter: the given values (checked) and the defaults for the rest, in catalogue order.

    Unknown names and values out of range raise ParameterError; combinations are not checked here
    (see :func:`check_combination`).
    """
    catalogue = parameters()
    for name in values:
        if name not in catalogue:
            raise ParameterError(f"unknown parameter {name!r}")
    return {
        name: (param.check(values[name]) if name in values else param.default)
        for name, param in catalogue.items()
    }


def check_combination(values: Mapping[str, Value]) -> None:
    """Raise ParameterError for the first impossible combination in a complete set of values."""
    full = complete(values)
    for rule in constraints():
        if rule.violated(full):
            raise ParameterError(rule.message)

"""The ruleset parameter registry (loaded from ``spec/parameters.toml``).

Each parameter has a type, its allowed values, a default, the clause that it decides and the
sources of each attested value. Unknown names and values out of range raise
:class:`~ginspec.spec.errors.ParameterError`; nothing is silently defaulted.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, TypeAlias

from ginspec.spec.errors import ParameterError

Value: TypeAlias = bool | int | str
PARAMETERS_FILE: Final = Path(__file__).resolve().parent / "parameters.toml"


@dataclass(frozen=True)
class Attested:
    """A value of a parameter and the sources that play it."""

    value: Value
    sources: tuple[str, ...]


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

    def check(self, value: object) -> Value:
        """Return ``value`` if it is allowed, else raise ParameterError naming the parameter."""
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            raise ParameterError(f"parameter {self.name}: expected true or false, got {value!r}")
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParameterError(f"parameter {self.name}: expected an integer, got {value!r}")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise ParameterError(
                    f"parameter {self.name}: {value} is outside {self.min}..{self.max}"
                )
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise ParameterError(
                f"parameter {self.name}: {value!r} is not one of {', '.join(self.choices)}"
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
                Attested(v["value"], tuple(v.get("sources", ()))) for v in spec.get("values", ())
            ),
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

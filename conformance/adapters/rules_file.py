"""Rules declared by value: a profile plus parameter values, as an adapter's ``hello`` says them
(``"rules": {"profile": NAME, "set": {param: value}}``) or as a ``--rules FILE`` TOML file::

    profile = "wikipedia"

    [set]
    undercut_bonus = 20

Either form becomes a validated :class:`~ginspec.spec.profiles.Ruleset` (the profile's values with
the ``set`` values applied, PARAM.* checked by ``spec/parameters.toml``); a bad profile, parameter,
value or field raises :class:`RulesFileError` with one line naming it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.errors import ParameterError
from ginspec.spec.inputs import guard, read_toml
from ginspec.spec.parameters import parameter
from ginspec.spec.profiles import Ruleset

QUESTION_PARAMETERS = (*(f.name for f in fields(MeldRules)), "knock_limit")
"""The parameters a question asked under no profile depends on (meld legality, card values and
the knock limit): their catalogue values, unless the case overrides them."""

RULES_KEYS = ("profile", "set")
"""The fields of a rules declaration."""


class RulesFileError(ParameterError):
    """A rules declaration (hello ``rules`` or a ``--rules`` file) is malformed or not allowed."""


def rules_from_json(data: object, where: str = "rules") -> Ruleset:
    """The ruleset ``{"profile": NAME, "set": {param: value}}`` declares (``set`` optional)."""
    if not isinstance(data, Mapping):
        raise RulesFileError(f"{where}: expected an object with 'profile' and 'set', "
                             f"got {type(data).__name__}")
    unknown = sorted(str(k) for k in data if k not in RULES_KEYS)
    if unknown:
        raise RulesFileError(f"{where}: unknown field {unknown[0]!r} (expected profile, set)")
    name = data.get("profile")
    if not isinstance(name, str) or not name:
        raise RulesFileError(f"{where}: 'profile' must name a profile (ginspec rules --list)")
    values = data.get("set", {})
    if not isinstance(values, Mapping):
        raise RulesFileError(f"{where}: 'set' must be a table of parameter = value")
    try:
        return Ruleset(name, {str(k): v for k, v in values.items()})
    except ParameterError as exc:
        raise RulesFileError(f"{where}: {exc}") from None


def rules_json(rules: Ruleset) -> dict[str, Any]:
    """The declaration of ``rules``: its profile and the values set on top of it."""
    return {"profile": rules.name, "set": rules.overrides}


def load_rules(path: str | Path) -> Ruleset:
    """The ruleset of a ``--rules FILE`` TOML file (``profile = "..."`` and a ``[set]`` table)."""

    file = Path(path)
    data = read_toml(file, RulesFileError)
    with guard(f"--rules {file}", RulesFileError):
        return rules_from_json(data, f"--rules {file}")


def rules_reason(declared: Ruleset, profile: str | None, overrides: Mapping[str, Any],
                 depends: Sequence[str] | None = None) -> str | None:
    """Why a case of ``profile`` + ``overrides`` is not a game of the ``declared`` rules (None
    when every parameter has the declared value, whatever profile the case names; given
    ``depends``, every one of those: the expectations depend on no other, conformance/CASES.md).
    A question asked under no profile (a card, meld, deadwood or knock question) is asked under
    the catalogue's meld rules and knock limit with the case's overrides: those must be
    declared."""
    if profile is None:
        asked = {**{name: parameter(name).default for name in QUESTION_PARAMETERS}, **overrides}
        for name, value in asked.items():
            if (type(declared[name]), declared[name]) != (type(value), value):
                return f"rules: {name}={declared[name]!r} declared, the question asks under {value!r}"
        return None
    try:
        wanted = Ruleset(profile, dict(overrides))
    except ParameterError as exc:
        return str(exc)
    for name, value in wanted.items():
        if depends is not None and name not in depends:
            continue
        if (type(declared[name]), declared[name]) != (type(value), value):
            return f"rules: {name}={declared[name]!r} declared, the case plays {value!r}"
    return None

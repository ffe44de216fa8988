"""The engine's view of a ruleset: the parameters it reads, as typed attributes.

:func:`game_rules` accepts a ``Ruleset`` (``ginspec.spec.profiles.ruleset(profile, overrides)``)
or any mapping of parameter names to values: missing names take their catalogue default
(``spec/parameters.toml``), unknown names, bad values and impossible combinations raise
ParameterError. This is the only place the engine reads parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ginspec.reference.layoffs import ShowdownRules
from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.parameters import Value, check_combination, complete
from ginspec.spec.profiles import ruleset


@dataclass(frozen=True, eq=False)
class GameRules:
    """The parameters the engine reads (names as in the parameter catalogue), plus ``params``:
    every parameter's value, for scoring; and ``showdown``: the showdown rules (limit 10 — the
    engine replaces the limit per hand)."""

    knock_limit: int
    oklahoma: bool
    big_gin_bonus: int
    gin_compulsory: bool
    discard_taken_card: str
    first_turn: str
    knock_on_wall_draw: bool
    wall_action: str
    wall_size: int
    take_and_return_void: bool
    discard_take_cap: int
    knocker_may_lay_off: bool
    meld_rules: MeldRules
    showdown: ShowdownRules
    params: Mapping[str, Value]
    name: str = "custom"

    @property
    def eleven_card_start(self) -> bool:
        return self.first_turn == "eleven_card_start"

    def __repr__(self) -> str:
        return f"GameRules(name={self.name!r})"


def game_rules(params: Mapping[str, Value] | None = None, name: str | None = None) -> GameRules:
    """Typed engine rules from a Ruleset or a mapping (missing names default)."""
    label = name or str(getattr(params, "name", "custom"))
    values = complete(params or {})
    check_combination(values)
    return GameRules(
        knock_limit=int(values["knock_limit"]),
        oklahoma=bool(values["oklahoma"]),
        big_gin_bonus=int(values["big_gin_bonus"]),
        gin_compulsory=bool(values["gin_compulsory"]),
        discard_taken_card=str(values["discard_taken_card"]),
        first_turn=str(values["first_turn"]),
        knock_on_wall_draw=bool(values["knock_on_wall_draw"]),
        wall_action=str(values["wall_action"]),
        wall_size=int(values["wall_size"]),
        take_and_return_void=bool(values["take_and_return_void"]),
        discard_take_cap=int(values["discard_take_cap"]),
        knocker_may_lay_off=bool(values["knocker_may_lay_off"]),
        meld_rules=MeldRules.from_params(values),
        showdown=ShowdownRules.from_params(values),
        params=values,
        name=label,
    )


@lru_cache(maxsize=64)
def _profile_rules(profile: str, overrides: tuple[tuple[str, Value], ...]) -> GameRules:
    return game_rules(ruleset(profile, dict(overrides)), name=profile)


def rules_for_profile(profile: str, overrides: Mapping[str, Value] | None = None) -> GameRules:
    """The engine rules of a named profile with overrides (``ginspec.spec.profiles``)."""
    return _profile_rules(profile, tuple(sorted((overrides or {}).items())))

"""The engine's view of a ruleset: the parameters it reads, as typed attributes.

:func:`game_rules` accepts a ``Ruleset`` (``ginspec.spec.profiles.ruleset(profile, overrides)``)
or any mapping of parameter names to values; a name the mapping lacks takes its catalogue default
(``spec/parameters.toml``). This is the only place the engine reads parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import Value, parameters

_FALLBACK_DEFAULTS: dict[str, Value] = {
    # Used only for a name the installed catalogue does not (yet) define. Values: TEAM.md
    # vocabulary, standard (pagat/Hoyle-type) game.
    "knock_limit": 10, "oklahoma": False, "oklahoma_ace": "one", "spade_double": "off",
    "gin_bonus": 25, "big_gin_bonus": 0, "undercut_bonus": 25, "undercut_on_tie": "undercut",
    "discard_taken_card": "never", "first_turn": "upcard_offer", "knock_on_wall_draw": True,
    "wall_action": "void", "wall_size": 2, "redeal_dealer": "same",
    "layoff_chain": "unlimited", "layoff_after_gin": "forbidden", "knocker_may_lay_off": False,
    "knocker_must_meld_maximally": False, "gin_compulsory": False, "game_target": 100,
    "game_bonus": 100, "box_bonus": 25, "boxes_count_toward_target": False,
    "shutout_effect": "none", "shutout_test": "loser_scored_nothing", "next_dealer": "loser",
    "first_dealer": "low_card", "extra_boxes": False, "ace_high_runs": False,
    "wraparound_runs": False, "ace_value": 1,
}


def param(params: Mapping[str, Value], name: str) -> Value:
    """The value of ``name`` in ``params``, else its catalogue default."""
    if name in params:
        return params[name]
    catalogue = parameters()
    if name in catalogue:
        return catalogue[name].default
    return _FALLBACK_DEFAULTS[name]


@dataclass(frozen=True)
class GameRules:
    """The parameters the engine reads (names as in the parameter catalogue)."""

    knock_limit: int
    oklahoma: bool
    oklahoma_ace: str
    big_gin_bonus: int
    gin_compulsory: bool
    discard_taken_card: str
    first_turn: str
    knock_on_wall_draw: bool
    wall_action: str
    wall_size: int
    redeal_dealer: str
    layoff_chain: str
    layoff_after_gin: str
    knocker_may_lay_off: bool
    knocker_must_meld_maximally: bool
    game_target: int
    next_dealer: str
    first_dealer: str
    meld_rules: MeldRules
    params: Mapping[str, Value]
    name: str = "custom"

    @property
    def eleven_card_start(self) -> bool:
        return self.first_turn == "eleven_card_start"

    def __repr__(self) -> str:
        return f"game_rules({self.name!r})"

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


def game_rules(params: Mapping[str, Value] | None = None, name: str | None = None) -> GameRules:
    """Typed engine rules from a Ruleset or a mapping (missing names default)."""
    label = name or str(getattr(params, "name", "custom"))
    params = dict(params or {})
    values: dict[str, Any] = {}
    for f in fields(GameRules):
        if f.name in ("meld_rules", "params", "name"):
            continue
        values[f.name] = param(params, f.name)
    rules = GameRules(
        **values,
        meld_rules=MeldRules.from_params({k: param(params, k) for k in
                                          ("ace_high_runs", "wraparound_runs", "ace_value")}),
        params=params,
        name=label,
    )
    if rules.oklahoma and rules.eleven_card_start:
        raise ParameterError(
            "oklahoma=true needs an upcard, which first_turn=eleven_card_start does not deal"
        )
    if rules.wall_size < 0 or rules.wall_size > 30:
        raise ParameterError(f"parameter wall_size: {rules.wall_size} is outside 0..30")
    return rules


@lru_cache(maxsize=64)
def _profile_rules(profile: str, overrides: tuple[tuple[str, Value], ...]) -> GameRules:
    try:
        from ginspec.spec.profiles import ruleset
    except ImportError:  # pragma: no cover - until the profiles module lands
        raise ParameterError("profiles are not available in this build") from None
    rs = ruleset(profile, dict(overrides))
    return game_rules(rs, name=profile)


def rules_for_profile(profile: str, overrides: Mapping[str, Value] | None = None) -> GameRules:
    """The engine rules of a named profile with overrides (via ``ginspec.spec.profiles``)."""
    return _profile_rules(profile, tuple(sorted((overrides or {}).items())))

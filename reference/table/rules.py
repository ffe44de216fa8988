"""The table game's view of a ruleset (chapter 14, TABLE.*): the parameters it reads.

Reuses the two-player engine's reading of the shared parameters (``game_rules``) and adds the
table's own: the number of players, the penalty limit and the prize-pool split.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginspec.reference.game.rules import GameRules, game_rules
from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset


@dataclass(frozen=True, eq=False)
class TableRules:
    """``base``: the two-player engine's rules (knock limit, layoffs, wall, meld rules);
    ``players``: 3 or 4; ``hand_size``: 10 for two players, 7 for three or four (TABLE.DEAL)."""

    base: GameRules
    players: int
    penalty_limit: int
    prize_winner_share: int
    prize_window: int
    gin_bonus: int
    undercut_bonus: int

    @property
    def hand_size(self) -> int:
        return 10 if self.players == 2 else 7

    @property
    def params(self) -> Mapping[str, Value]:
        return self.base.params

    @property
    def name(self) -> str:
        return self.base.name

    def __repr__(self) -> str:
        return f"TableRules(name={self.name!r}, players={self.players})"


def table_rules(params: Mapping[str, Value] | None = None, name: str | None = None) -> TableRules:
    """Typed table rules from a Ruleset or mapping; players must be 3 or 4 (two players play
    the two-player game, TABLE.PLAYERS)."""
    base = game_rules(params, name)
    values = base.params
    players = int(values["players"])
    if players not in (3, 4):
        raise ParameterError(
            f"parameter players: the table engine seats 3 or 4 players, not {players} "
            "(two players play the two-player game)"
        )
    if base.first_turn != "upcard_offer" or base.oklahoma:
        raise ParameterError("the table game has no eleven-card start and no Oklahoma rules")
    if base.wall_action not in ("reshuffle", "void"):
        raise ParameterError(
            f"parameter wall_action: the table game plays reshuffle or void, not "
            f"{base.wall_action!r} (the last chance at the wall is a two-player rule)"
        )
    if base.big_gin_bonus:
        raise ParameterError("the table game has no big gin (big_gin_bonus must be 0)")
    return TableRules(
        base=base,
        players=players,
        penalty_limit=int(values["penalty_limit"]),
        prize_winner_share=int(values["prize_winner_share"]),
        prize_window=int(values["prize_window"]),
        gin_bonus=int(values["gin_bonus"]),
        undercut_bonus=int(values["undercut_bonus"]),
    )


def table_rules_for_profile(profile: str, overrides: Mapping[str, Value] | None = None,
                            players: int | None = None) -> TableRules:
    """The table rules of a profile (e.g. serbian-online) for ``players`` players."""
    extra = dict(overrides or {})
    if players is not None:
        extra["players"] = players
    return table_rules(ruleset(profile, extra), name=profile)

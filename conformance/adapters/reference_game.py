"""The reference game engine behind the adapter interface (filled in as the engine lands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

GAME_CAPABILITIES: Final[tuple[str, ...]] = ()


def available() -> bool:
    """Whether the reference game engine and the profiles are installed."""
    return False


def profile_names() -> tuple[str, ...]:
    return ()


def profile_params(profile: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    from ginspec.spec.errors import ParameterError

    raise ParameterError(f"unknown profile {profile!r}")


class GameDriver:
    """Plays one hand or match of the reference engine."""

    @classmethod
    def hand(cls, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> Any:
        raise NotImplementedError("the reference game engine has not landed")

    @classmethod
    def match(cls, profile: str, overrides: Mapping[str, Any], deals: Any) -> Any:
        raise NotImplementedError("the reference game engine has not landed")

"""The reference implementation behind the adapter interface (``--adapter reference``).

Queries about cards and melds are answered by ``ginspec.reference.melds``; those about scoring
and the showdown by :mod:`ginspec.conformance.adapters.reference_queries`; hands and matches are played by the
reference game engine (``ginspec.reference.game``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginspec.conformance.adapters import reference_game
from ginspec.conformance.adapters.base import Adapter, Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference_queries import ANSWERS
from ginspec.conformance.adapters.reference_systems import SYSTEM_ANSWERS
from ginspec.conformance.adapters.reference_table import TABLE_CAPABILITIES, TableDriver
from ginspec.conformance.cases.model import CAPABILITIES
from ginspec.conformance.versions import package_version
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import (
    all_melds,
    analyse_discards,
    check_arrangement,
    check_meld,
    optimal_arrangements,
)
from ginspec.reference.scoring import knock_limit_for
from ginspec.spec.cards import card_str, parse_card, parse_cards
from ginspec.spec.errors import CardError, GinspecError, MeldError
from ginspec.spec.parameters import parameter, parameters

ARRANGEMENTS_CAP = 200_000
"""The reference refuses to count more optimal arrangements than this (memory)."""

QUERY_CAPABILITIES = tuple(c for c in CAPABILITIES if c.startswith("query."))


def _params(overrides: Mapping[str, Any]) -> dict[str, Any]:
    return {name: parameter(name).check(value) for name, value in overrides.items()}


class ReferenceAdapter(Adapter):
    """The executable reference, in-process."""

    automatic: tuple[bool, bool] = (False, False)
    """(melding.automatic, layoff.automatic): the showdown steps this engine plays itself."""
    explicit_spread: bool = False
    """``spread.explicit`` (with layoff.automatic): the defender spreads as an action, and the
    engine plays only the layoffs after it."""

    def __init__(self) -> None:
        self._game: Any = None

    def hello(self) -> Hello:

        game = reference_game.available()
        return Hello(
            name="ginspec-reference",
            version=package_version(),
            language="python",
            profiles=reference_game.profile_names() if game else (),
            capabilities=QUERY_CAPABILITIES + (self._game_capabilities() if game else ())
            + TABLE_CAPABILITIES,
            overrides=tuple(sorted(parameters())),
            homepage="https://github.com/ginspec/ginspec",
        )

    def _game_capabilities(self) -> tuple[str, ...]:

        caps = list(reference_game.GAME_CAPABILITIES)
        for part, auto in zip(("melding", "layoff"), self.automatic, strict=True):
            if auto:
                caps[caps.index(f"{part}.explicit")] = f"{part}.automatic"
        if self.explicit_spread:
            caps.append("spread.explicit")
        return tuple(caps)

    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:
        """The showdown steps this engine plays itself in ``state`` (none for the explicit
        reference; best play for :class:`AutomaticReference`)."""

        melding, layoffs = self.automatic
        return reference_game.best_showdown_steps(state, melding=melding, layoffs=layoffs,
                                                  spread=self.explicit_spread)

    # --- queries ---------------------------------------------------------------------------

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> JSONObject:

        if what in SYSTEM_ANSWERS:
            return SYSTEM_ANSWERS[what](args, profile, overrides)
        params = dict(overrides)
        if profile is not None:

            params = reference_game.profile_params(profile, overrides)
        rules = MeldRules.from_params(
            _params(
                {
                    k: v
                    for k, v in params.items()
                    if k in ("ace_high_runs", "wraparound_runs", "ace_value")
                }
            )
        )

        if what in ANSWERS:
            return ANSWERS[what](args, profile, overrides)
        if what == "knock-limit":
            return {"limit": knock_limit_for(params, parse_card(str(args["upcard"])))}
        if what == "card":
            try:
                return {"canonical": card_str(parse_card(str(args["token"])))}
            except CardError:
                return {"error": True}
        cards = parse_cards(args["cards"], distinct=what != "meld")
        if what == "meld":
            return {"valid": check_meld(cards, rules).valid}
        if what == "melds-count":
            return {"count": len(all_melds(cards, rules))}
        if what == "arrangements":
            found = optimal_arrangements(cards, rules, limit=ARRANGEMENTS_CAP)
            if len(found) >= ARRANGEMENTS_CAP:
                raise GinspecError(f"more than {ARRANGEMENTS_CAP} optimal arrangements: not counted")
            return {"count": len(found)}
        if what == "deadwood":
            best = optimal_arrangements(cards, rules, limit=1)[0]
            return {
                "deadwood": best.deadwood,
                "melds": [[card_str(c) for c in m.cards] for m in best.melds],
            }
        if what == "arrangement":
            try:
                arr = check_arrangement(cards, [parse_cards(m) for m in args["melds"]], rules)
            except MeldError:
                return {"valid": False}
            return {"valid": True, "deadwood": arr.deadwood}
        if what == "knock":
            upcard = parse_card(str(args["upcard"])) if "upcard" in args else None
            limit = knock_limit_for(params, upcard)
            disc = analyse_discards(cards, rules)
            return {
                "deadwood": disc.deadwood,
                "best_discards": [card_str(c) for c in disc.best_discards],
                "can_knock": disc.deadwood <= limit,
                "gin": disc.deadwood == 0,
                "big_gin": disc.big_gin,
            }
        raise GinspecError(f"unknown query {what!r}")

    # --- the game --------------------------------------------------------------------------

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:

        self._game = reference_game.GameDriver.hand_game(profile, overrides, deal)
        if any(self.automatic):
            self._game.showdown = self.showdown_steps

    def new_match(
        self, profile: str, overrides: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]
    ) -> None:

        self._game = reference_game.GameDriver.match_game(profile, overrides, deals)
        if any(self.automatic):
            self._game.showdown = self.showdown_steps

    def new_table_hand(
        self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> None:
        self._game = TableDriver.new(profile, overrides, deal)

    def legal_actions(self) -> list[str]:
        return list(self._driver().legal_actions())

    def apply(self, player: int | str, action: str) -> Verdict:
        game = self._game  # every step of a case comes here: no call more than needed
        if game is None:
            raise GinspecError("no hand or match started")
        verdict: Verdict = game.apply(player, action)
        return verdict

    def observe(self) -> JSONObject:
        return dict(self._driver().observe())

    def result(self) -> JSONObject | None:
        result: JSONObject | None = self._driver().result()
        return result

    def _driver(self) -> Any:
        if self._game is None:
            raise GinspecError("no hand or match started")
        return self._game


class AutomaticReference(ReferenceAdapter):
    """The reference as an engine that settles the showdown itself (``melding.automatic``,
    ``layoff.automatic``): the knock is the knocker's last choice, and the engine declares,
    spreads and lays off with best play (SHOWDOWN.BEST-PLAY) before the hand is scored.
    ``--adapter python:ginspec.conformance.adapters.reference:AutomaticReference``."""

    automatic = (True, True)


class MixedShowdownReference(ReferenceAdapter):
    """The reference as an engine whose players declare their melds and whose game lays off by
    itself (``melding.explicit``, ``spread.explicit``, ``layoff.automatic``): the knocker
    declares and the defender spreads as actions, then the engine makes the best layoffs
    (LAYOFF.*) before the hand is scored.
    ``--adapter python:ginspec.conformance.adapters.reference:MixedShowdownReference``."""

    automatic = (False, True)
    explicit_spread = True

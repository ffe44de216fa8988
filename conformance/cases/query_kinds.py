"""Every kind of query, defined once (conformance/PROTOCOL.md, "Query arguments and answers"
and "System queries").

A :class:`QueryKind` holds everything ginspec knows of one question: its name and capability,
the arguments a case must give, the fields of the answer and their types, which of them a case
must expect, how an answer is compared with a case's expectation, and the question the smoke
check asks. The capability list, the case loader, the runner's comparison, the smoke check and
the builders read :data:`QUERY_KINDS`; a test checks the JSON Schema and PROTOCOL.md against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

Family = Literal["rules", "showdown", "system"]
"""Which comparison module judges the kind: ``rules`` the plain fields below
(``conformance/compare.py``), ``showdown`` ``compare_showdown.py``, ``system``
``compare_systems.py``."""

Types = tuple[type, ...]
"""The types an answer field may have (a bool is never taken for an int)."""

_NONE = type(None)


@dataclass(frozen=True)
class Comparison:
    """How an answer of a ``rules`` kind is compared with its expectation.

    ``error``: the kind may expect ``{"error": true}`` (an input no hand can give), and an
    unexpected error answer fails on the first field. ``gate``: compared first; when the
    expectation is false nothing more is compared (a match that is not over, an invalid
    arrangement). ``fields``: each compared in order, when the expectation has it. ``any_order``:
    compared as sets of cards. ``arrangement``: an optional ``melds`` in the answer must be one
    of the optimal arrangements (DEADWOOD.ARRANGEMENTS).
    """

    fields: tuple[str, ...]
    per_hand: tuple[str, ...] = ()
    """Lists with an item per hand, compared before the gate item by item over the hands both
    lists have (the first wrong item is reported as ``name[i]``)."""
    error: bool = False
    error_means: str = ""
    gate: str | None = None
    any_order: tuple[str, ...] = ()
    arrangement: bool = False


@dataclass(frozen=True)
class QueryKind:
    """One question an adapter may be asked (capability ``query.<name>``)."""

    name: str
    family: Family
    describes: str
    """What an adapter declaring the capability answers (the capability's text)."""
    arguments: tuple[str, ...]
    """The arguments a case must give (more may be optional: PROTOCOL.md)."""
    answer: Mapping[str, Types]
    """Every field an answer may have, with its types, in comparison order."""
    required: tuple[str, ...]
    """The fields a case of this kind must expect (unless it expects an error)."""
    smoke_args: Mapping[str, Any]
    smoke_shape: Mapping[str, type]
    """The smoke check's question and the fields (with types) its answer must have."""
    optional: tuple[str, ...] = ()
    """Arguments a question may add (PROTOCOL.md)."""
    under_profile: bool = False
    """Asked under the adapter's profile (its scoring rules), not ``profile: null``."""
    default_profile: str | None = None
    """The profile a system query is asked under when its case names none."""
    smoke_profile: str | None = None
    """The profile of the smoke question when it is neither of the two above."""
    comparison: Comparison | None = field(default=None)
    """How a ``rules`` kind is compared (the other families have their own module)."""
    recorded: Mapping[str, Types] = field(default_factory=lambda: MappingProxyType({}))
    """Fields a case records beside the answer, never part of one: the accepted alternatives
    (every optimal arrangement, every best set of layoffs, every best play)."""

    @property
    def all_arguments(self) -> tuple[str, ...]:
        """The required arguments, then the optional ones."""
        return (*self.arguments, *self.optional)

    @property
    def may_error(self) -> bool:
        """A case may expect ``{"error": true}``: no legal hand or game gives the input."""
        return self.family == "system" or (self.comparison is not None and self.comparison.error)

    @property
    def capability(self) -> str:
        """The capability an adapter declares to be asked this kind."""
        return f"query.{self.name}"


def _kind(name: str, family: Family, describes: str, arguments: tuple[str, ...],
          answer: dict[str, Types], required: tuple[str, ...],
          smoke: tuple[dict[str, Any], dict[str, type]], *, optional: tuple[str, ...] = (),
          under_profile: bool = False, default_profile: str | None = None,
          smoke_profile: str | None = None, comparison: Comparison | None = None,
          recorded: dict[str, Types] | None = None) -> QueryKind:
    return QueryKind(name, family, describes, arguments, MappingProxyType(answer), required,
                     MappingProxyType(smoke[0]), MappingProxyType(smoke[1]), optional,
                     under_profile, default_profile, smoke_profile, comparison,
                     MappingProxyType(recorded or {}))


_SMOKE_HAND = ["7C", "7D", "7H", "AC", "2C", "3C", "4D", "5D", "6D", "2H"]

_KINDS: Final = (
    _kind("card", "rules", "parses card tokens (CARD.NOTATION)", ("token",),
          {"canonical": (str,)}, (),
          ({"token": "TS"}, {"canonical": str}),
          comparison=Comparison(("canonical",), error=True)),
    _kind("meld", "rules", "tells whether cards form one meld", ("cards",),
          {"valid": (bool,)}, ("valid",),
          ({"cards": ["7C", "7D", "7H"]}, {"valid": bool}),
          comparison=Comparison(("valid",))),
    _kind("deadwood", "rules",
          "computes the minimum deadwood of a hand (and one optimal arrangement)", ("cards",),
          {"deadwood": (int,), "melds": (list,)}, ("deadwood",),
          ({"cards": ["7C", "7D", "7H", "2S", "KD"]}, {"deadwood": int}),
          comparison=Comparison(("deadwood",), arrangement=True),
          recorded={"optimal": (list,)}),
    _kind("melds-count", "rules", "counts every meld contained in a hand", ("cards",),
          {"count": (int,)}, ("count",),
          ({"cards": ["7C", "7D", "7H"]}, {"count": int}),
          comparison=Comparison(("count",))),
    _kind("arrangements", "rules", "counts the optimal arrangements of a hand", ("cards",),
          {"count": (int,)}, ("count",),
          ({"cards": ["7C", "7D", "7H"]}, {"count": int}),
          comparison=Comparison(("count",))),
    _kind("arrangement", "rules", "validates a declared arrangement of a hand",
          ("cards", "melds"),
          {"valid": (bool,), "deadwood": (int,)}, ("valid",),
          ({"cards": ["7C", "7D", "7H"], "melds": [["7C", "7D", "7H"]]}, {"valid": bool}),
          comparison=Comparison(("deadwood",), gate="valid")),
    _kind("knock-limit", "rules",
          "gives the knock limit of a hand from its first upcard (Oklahoma)", ("upcard",),
          {"limit": (int,)}, ("limit",),
          ({"upcard": "7H"}, {"limit": int}),
          comparison=Comparison(("limit",))),
    _kind("knock", "rules", "tells knock and gin eligibility of an 11-card hand", ("cards",),
          {"deadwood": (int,), "best_discards": (list,), "can_knock": (bool,), "gin": (bool,),
           "big_gin": (bool,)},
          ("deadwood", "best_discards", "can_knock", "gin"),
          ({"cards": ["AC", "2C", "3C", "4D", "4H", "4S", "9D", "9H", "9S", "KC", "QC"]},
           {"deadwood": int, "best_discards": list, "can_knock": bool, "gin": bool}),
          comparison=Comparison(("deadwood", "can_knock", "gin", "big_gin"),
                                any_order=("best_discards",)),
          optional=("upcard",)),
    _kind("score", "rules",
          "scores one finished hand from its outcome and both deadwood counts (chapter 9; "
          "protocol 2)", ("outcome", "knocker_deadwood", "defender_deadwood"),
          {"points": (list,), "winner": (str,), "undercut": (bool,), "boxes": (list,)}, (),
          ({"outcome": "knock", "knocker_deadwood": 4, "defender_deadwood": 20},
           {"points": list}),
          under_profile=True,
          comparison=Comparison(("points", "winner", "undercut", "boxes"), error=True,
                                error_means="the input is no legal hand"),
          optional=("upcard",)),
    _kind("match", "rules",
          "totals a match from a list of hand results, with the game bonus, boxes, shutout and "
          "settlement (chapter 11; protocol 2)", ("hands",),
          {"over": (bool,), "hand_winners": (list,), "hand_points": (list,),
           "running_scores": (list,), "hands": (int,),
           "box_points": (list,), "game_bonus": (int,), "totals": (list,), "winner": (int,),
           "shutout": (bool,), "settlement": (int,), "payee": (int,)}, ("over",),
          ({"hands": [[0, "knock", 4, 20]]}, {"over": bool}),
          under_profile=True,
          comparison=Comparison(("hands", "box_points", "game_bonus", "totals", "winner",
                                 "shutout", "settlement", "payee"),
                                per_hand=("hand_winners", "hand_points", "running_scores"),
                                gate="over"),
          optional=("upcard",)),
    _kind("next-dealer", "rules",
          "says who deals the next hand after a hand result (MATCH.NEXT-DEALER, WALL.REDEAL; "
          "protocol 2)", ("dealer", "hand"),
          {"hand_winner": (int, _NONE), "next": (int,)}, ("next",),
          ({"dealer": 0, "hand": [1, "knock", 2, 9]}, {"next": int}),
          under_profile=True,
          comparison=Comparison(("hand_winner", "next"))),
    _kind("declaration", "showdown",
          "validates the knocker's declared melds (SHOWDOWN.DECLARATION; protocol 2)",
          ("cards", "melds"),
          {"valid": (bool,), "deadwood": (int,), "code": (str,)}, ("valid",),
          ({"cards": _SMOKE_HAND, "melds": [["7C", "7D", "7H"], ["AC", "2C", "3C"],
                                            ["4D", "5D", "6D"]]}, {"valid": bool})),
    _kind("layoff", "showdown",
          "tells which offered cards may be laid off now (LAYOFF.*; protocol 2)",
          ("cards", "table"),
          {"layable": (list,)}, ("layable",),
          ({"table": [["5S", "6S", "7S"]], "cards": ["4S", "9S"]}, {"layable": list}),
          optional=("laid", "defender_melds", "side", "gin")),
    _kind("defence", "showdown",
          "finds the defender's least deadwood after spreading and laying off "
          "(SHOWDOWN.DEFENDER-SPREAD; protocol 2)", ("cards", "knocker_melds"),
          {"deadwood": (int,), "layoffs": (list,)}, ("deadwood",),
          ({"knocker_melds": [["5S", "6S", "7S"]],
            "cards": ["4S", "8D", "8H", "8C", "AC", "2D", "3H", "9C", "TD", "KH"]},
           {"deadwood": int, "layoffs": list}),
          optional=("gin",),
          recorded={"layoff_sets": (list,)}),
    _kind("adjudicate", "showdown",
          "rules on a knock with both sides playing best, as `ginspec adjudicate` "
          "(SHOWDOWN.BEST-PLAY; protocol 2)", ("knocker", "defender"),
          {"outcome": (str,), "deadwood": (dict,), "points": (dict,), "declaration": (list,),
           "layoffs": (list,)}, ("outcome",),
          ({"knocker": _SMOKE_HAND,
            "defender": ["4S", "8D", "8H", "8C", "AS", "2D", "3H", "9C", "TD", "KH"]},
           {"outcome": str}),
          under_profile=True,
          optional=("knocker_melds", "upcard"),
          recorded={"best_plays": (list,)}),
    _kind("system", "system",
          "says which game system a ruleset plays and whether it is valid (SYSTEM.KIND)", (),
          {"valid": (bool,), "game_system": (str, _NONE), "players": (int, _NONE)}, ("valid",),
          ({}, {"valid": bool}), smoke_profile="partnership"),
    _kind("table-penalty", "system",
          "charges the penalty points of one table hand (TABLE.PENALTY)",
          ("knocker", "deadwood"),
          {"outcome": (str,), "winner": (int,), "penalties": (list,)}, ("penalties",),
          ({"knocker": 0, "deadwood": [2, 22, 26]}, {"outcome": str, "penalties": list}),
          default_profile="serbian-online"),
    _kind("prize", "system", "splits the table game's prize pool (TABLE.PRIZE)",
          ("pool", "totals"),
          {"winner": (int,), "shares": (list,)}, ("shares",),
          ({"pool": 100, "totals": [0, 10, 60]}, {"shares": list}),
          default_profile="serbian-online"),
    _kind("table-game", "system",
          "adds up a table game's penalties and says when it ends (TABLE.GAME-END)", ("hands",),
          {"totals": (list,), "over": (bool,), "winner": (int, _NONE)}, ("totals", "over"),
          ({"hands": [[0, 20, 24]]}, {"totals": list, "over": bool}),
          default_profile="serbian-online"),
    _kind("table-adjudicate", "system",
          "rules on a knock at the table, everyone playing best (TABLE.BEST-PLAY)",
          ("hands", "knocker"),
          {"outcome": (str,), "winner": (int, _NONE), "discard": (str, _NONE),
           "declaration": (list, _NONE), "layoffs": (list, _NONE), "deadwood": (list, _NONE),
           "penalties": (list, _NONE)}, ("outcome",),
          ({"hands": [["7H", "8H", "9H", "KC", "KD", "KS", "2C"],
                      ["6H", "4C", "4D", "4S", "TS", "JD", "2D"],
                      ["5H", "3S", "3D", "3H", "QS", "QH", "AC"]], "knocker": 0,
            "discard": "3C"}, {"outcome": str}),
          default_profile="serbian-online",
          optional=("discard", "knocker_melds")),
    _kind("three-rotation", "system",
          "seats, scores and settles three players (THREE.*, SETTLE.PAIRWISE)", ("hands",),
          {"seatings": (list,), "scores": (list,), "over": (bool,), "payments": (list,),
           "net": (list,)}, ("seatings",),
          ({"hands": [[2, 1, 10]]}, {"seatings": list, "scores": list, "over": bool}),
          default_profile="three-player"),
    _kind("partnership", "system",
          "pairs, nets and settles two partnerships (PARTNER.*)", ("deals",),
          {"tables": (list,), "dealers": (list,), "netted": (list,), "totals": (list,),
           "over": (bool,), "final": (list,), "payee": (int, _NONE), "settlement": (int,)},
          ("netted", "totals"),
          ({"deals": [[[0, 1, 30], [3, 2, 29]]]},
           {"netted": list, "totals": list, "over": bool}),
          default_profile="partnership"),
    _kind("hollywood", "system",
          "enters hand results in Hollywood's games and settles them (HOLLYWOOD.*)", ("hands",),
          {"games": (list,), "over": (bool,), "box_points": (list,), "game_bonus": (list,),
           "payee": (int, _NONE), "settlement": (int,)},
          ("games",),
          ({"hands": [[0, 25]]}, {"games": list, "over": bool}),
          default_profile="hollywood"),
)

QUERY_KINDS: Final[Mapping[str, QueryKind]] = MappingProxyType({k.name: k for k in _KINDS})
"""Every query kind by name, in the order of the capability list and the case schema."""


def answer_type_error(kind: QueryKind, name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the expected field ``name`` of ``kind`` (None when it can)."""
    types = kind.answer.get(name) or kind.recorded.get(name)
    if types is None:
        return f"not a field of a {kind.name} query"
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        return f"wrong type {type(value).__name__}"
    return None

"""The :class:`Case` model, canonical JSON and content fingerprints."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Final

from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.versions import CASE_FORMAT
from ginspec.spec.errors import GinspecError

JSON = Any
"""A JSON value (dict, list, str, int, bool or None)."""


DERIVED_PREFIX: Final = "derived."
"""The ID prefix of a case derived for rules declared by value (``generate/derive.py``):
reports count these apart."""


class CaseFormatError(GinspecError):
    """A case file is malformed; the message names the file and the field."""


CAPABILITIES: Final[dict[str, str]] = {
    **{k.capability: k.describes for k in QUERY_KINDS.values() if k.family != "system"},
    "hand": "plays single hands from an explicit deal",
    "match": "plays whole matches from a list of explicit deals",
    "legal-actions": "lists the legal actions of a position",
    "rejection-codes": "names the typed rejection code of an illegal action",
    "observe.hands": "reports the cards each player holds in the observation (`hands`)",
    "melding.explicit": "the knocker and defender declare their melds as actions",
    "layoff.explicit": "the defender lays off one card at a time as actions",
    "melding.automatic": "arranges the knocker's melds itself when the knock is applied: no "
    "`declare` step; judged on the best declaration (SHOWDOWN.BEST-PLAY)",
    "layoff.automatic": "spreads and lays off for the defender itself: no `meld`, `layoff` or "
    "`done` steps; judged on the defender's best spread (SHOWDOWN.DEFENDER-SPREAD, LAYOFF.*)",
    "spread.explicit": "with layoff.automatic: the defender spreads as an action (`meld`), then "
    "the engine lays off by itself (no `layoff` or `done` steps); judged on the best layoffs "
    "after that spread (LAYOFF.*)",
    "illegal.forfeit": "does not refuse an illegal action (it forfeits the game, or fails): is "
    "sent none; each refused step is asked from the position instead (the turn, the hand's end, "
    "or its absence from the legal actions, ACTION.REJECTION)",
    "match.scores": "in a match, reports each player's score toward the target and the last "
    "hand's points as it goes (`match_scores`, `last_points`) and the box points and game bonus "
    "of its final totals (`box_points`, `game_bonus`); a `match` query's answer adds each hand's "
    "winner, points and running scores (`hand_winners`, `hand_points`, `running_scores`) and the "
    "same bonuses, a `next-dealer` query's the hand's winner (`hand_winner`), a `hollywood` "
    "query's each game's bonuses",
    "deal.engine": "shuffles and deals for itself: `new_hand` names only the dealer and `dealt` "
    "reports the deal it made, which is checked (DEAL.*) and then played",
    **{f"table-game.{n}": f"plays hands of seed 001's table game for {n} players (TABLE.*)"
       for n in (3, 4)},
    **{k.capability: k.describes for k in QUERY_KINDS.values() if k.family == "system"},
}
"""The closed list of capabilities an adapter may declare and a case may require (the query
capabilities come from :data:`~ginspec.conformance.cases.query_kinds.QUERY_KINDS`)."""

SEMANTIC_FIELDS: Final = (
    "kind",
    "profile",
    "overrides",
    "requires",
    "query",
    "expect",
    "deals",
    "steps",
    "checkpoints",
    "result",
    "blame",
    "rulesets",
    "unplayable",
)
"""The fields a fingerprint covers: the question and its expected answer, not the prose."""

FIELD_ORDER: Final = (
    "format",
    "id",
    "fingerprint",
    "kind",
    "origin",
    "description",
    "clauses",
    "violates",
    "decides",
    "profile",
    "overrides",
    "requires",
    "source",
    "query",
    "expect",
    "deals",
    "steps",
    "checkpoints",
    "result",
    "blame",
    "rulesets",
    "unplayable",
)


def canonical_json(value: JSON) -> str:
    """Canonical JSON text: sorted keys, no spaces, UTF-8 characters kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint_of(data: dict[str, JSON]) -> str:
    """``sha256:`` and 32 hex digits of the canonical JSON of the semantic fields."""
    content = {k: data[k] for k in SEMANTIC_FIELDS if k in data}
    return "sha256:" + hashlib.sha256(canonical_json(content).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Case:
    """One conformance case. ``data`` is the JSON object exactly as stored.

    The typed properties read ``data``; build cases with :meth:`make`, which fills in the format
    tag and the fingerprint.
    """

    data: dict[str, JSON] = field(compare=False)
    path: str = field(default="", compare=False)
    id: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", str(self.data["id"]))

    @classmethod
    def make(cls, **fields: JSON) -> Case:
        """A new case from its fields (``format`` and ``fingerprint`` are computed)."""
        data: dict[str, JSON] = {"format": CASE_FORMAT, **fields}
        data.setdefault("violates", [])
        data.setdefault("overrides", {})
        data.setdefault("requires", [])
        decides = set(data.get("decides", [])) - set(data["violates"])
        data["clauses"] = sorted(set(data["clauses"]) | set(data["violates"]) | decides)
        data["violates"] = sorted(set(data["violates"]))
        if decides:
            data["decides"] = sorted(decides)
        else:
            data.pop("decides", None)
        data["requires"] = sorted(set(data["requires"]))
        data["fingerprint"] = fingerprint_of(data)
        ordered: dict[str, JSON] = {k: data[k] for k in FIELD_ORDER if k in data}
        extra = set(data) - set(FIELD_ORDER)
        if extra:
            raise CaseFormatError(f"case {data.get('id')}: unknown field(s) {sorted(extra)}")
        return cls(ordered)

    @property
    def _fields(self) -> dict[str, JSON]:
        """What the typed properties read: ``data`` (a case read from a verified suite file
        answers them without parsing its ``rulesets``; see ``cases/store.py``)."""
        return self.data

    @property
    def kind(self) -> str:
        return str(self._fields["kind"])

    @property
    def origin(self) -> str:
        return str(self._fields["origin"])

    @property
    def fingerprint(self) -> str:
        return str(self._fields["fingerprint"])

    @property
    def description(self) -> str:
        return str(self._fields["description"])

    @property
    def clauses(self) -> tuple[str, ...]:
        return tuple(self._fields["clauses"])

    @property
    def violates(self) -> tuple[str, ...]:
        return tuple(self._fields["violates"])

    @property
    def decides(self) -> tuple[str, ...]:
        """Clauses that decide this case's result (e.g. the scoring clause of its outcome)."""
        return tuple(self._fields.get("decides", ()))

    @property
    def obeys(self) -> tuple[str, ...]:
        """The clauses this case exercises without violating them (or deciding its result)."""
        return tuple(c for c in self.clauses if c not in self.violates and c not in self.decides)

    @property
    def profile(self) -> str | None:
        value = self._fields["profile"]
        return None if value is None else str(value)

    @property
    def overrides(self) -> dict[str, JSON]:
        return dict(self._fields["overrides"])

    @property
    def requires(self) -> tuple[str, ...]:
        return tuple(self._fields["requires"])

    @property
    def query(self) -> dict[str, JSON]:
        return dict(self._fields.get("query", {}))

    @property
    def expect(self) -> dict[str, JSON]:
        return dict(self._fields.get("expect", {}))

    @property
    def deals(self) -> list[dict[str, JSON]]:
        return list(self._fields.get("deals", []))

    @property
    def steps(self) -> list[dict[str, JSON]]:
        return list(self._fields.get("steps", []))

    @property
    def checkpoints(self) -> list[dict[str, JSON]]:
        return list(self._fields.get("checkpoints", []))

    @property
    def result(self) -> dict[str, JSON] | None:
        value = self._fields.get("result")
        return None if value is None else dict(value)

    @property
    def blame(self) -> dict[str, str]:
        """The clause deciding each result field (case format 2)."""
        return dict(self._fields.get("blame", {}))

    @property
    def rulesets(self) -> list[dict[str, JSON]]:
        """The expectations under each ruleset that plays the scenario (case format 2)."""
        return list(self._fields.get("rulesets", []))

    @property
    def unplayable(self) -> list[dict[str, JSON]]:
        """The profiles that cannot play the scenario, grouped by the reason (case format 2)."""
        return list(self._fields.get("unplayable", []))

    @property
    def source(self) -> dict[str, JSON]:
        """Where the case comes from (generator, spec example, ``blame.<field>``, ...)."""
        return dict(self._fields.get("source", {}))

    @property
    def ruleset_profiles(self) -> tuple[tuple[str, ...], ...]:
        """The profiles of each ``rulesets`` entry, in order."""
        return tuple(tuple(e["profiles"]) for e in self.rulesets)

    def rulesets_of(self, profile: str) -> list[dict[str, JSON]]:
        """The ``rulesets`` entries that name ``profile``, in order."""
        return [e for e in self.rulesets if profile in e["profiles"]]

    def to_json(self) -> str:
        """The stored text (see :func:`format_case`)."""
        return format_case(self.data)

    def __repr__(self) -> str:
        return f"Case(id={self.id!r}, kind={self.kind!r}, fingerprint={self.fingerprint!r})"


def _compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def format_case(data: dict[str, JSON]) -> str:
    """Readable, diff-friendly JSON: one top-level field a line, one step or checkpoint a line.

    The output is a pure function of ``data`` (keys kept in their order), so a rebuilt suite is
    byte-identical.
    """
    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            inner = ",\n".join(f"  {_compact(v)}" for v in value)
            lines.append(f"{json.dumps(key)}: [\n{inner}\n ]{comma}")
        else:
            lines.append(f"{json.dumps(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"

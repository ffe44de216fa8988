"""Rulings: disputed positions as files that anyone can write and check (the casebook).

A ruling file (TOML, format 1, documented in docs/guides/rulings.md) holds a position, the
question, who says what, and the expected ruling under one or more profiles. Its ``kind`` says
what the position is:

* ``showdown`` (the default) — the knocker's ten kept cards (eleven for big gin), the
  defender's ten, optionally the knocker's declared melds and the Oklahoma upcard.
  :func:`check_ruling` computes every expectation with the adjudicator (SHOWDOWN.BEST-PLAY);
* ``game`` — a deal and a script of actions (:mod:`ginspec.reference.ruling_scripts`);
* ``match``, ``hollywood``, ``partnership``, ``three-player`` — a sequence of hand results
  (:mod:`ginspec.reference.ruling_scores`);
* ``table`` — a knock at a table of three or four (:mod:`ginspec.reference.ruling_table`).

:func:`findings` checks a ruling of any kind and reports, per expectation, the computed answer
and each field that differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeAlias

from ginspec.reference.adjudicate import OUTCOMES, Ruling, adjudicate
from ginspec.reference.ruling_header import (
    Finding,
    RulingHeader,
    expect_items,
    need_field,
    parse_header,
    position_of,
    profile_of,
)
from ginspec.reference.ruling_scores import ScoreRuling, parse_score_ruling
from ginspec.reference.ruling_scripts import GameRuling, parse_game_ruling
from ginspec.reference.ruling_table import TableRulingCase, parse_table_ruling
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards
from ginspec.spec.clauses import SPEC_DIR, implements
from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.inputs import guard, read_toml
from ginspec.spec.parameters import Value, value_text
from ginspec.spec.profiles import ruleset

CASEBOOK_DIR: Final = SPEC_DIR / "casebook"
KINDS: Final = ("showdown", "game", "match", "hollywood", "partnership", "three-player", "table")
"""The kinds of ruling file; ``showdown`` when the file names none."""
_POSITION_KEYS: Final = {"knocker", "defender", "knocker_melds", "upcard"}
_EXPECT_KEYS: Final = {"profile", "set", "outcome", "deadwood", "points", "layoffs", "knocker_melds", "upcard", "note"}


@dataclass(frozen=True)
class Expectation:
    """The ruling expected under one profile (with optional parameter overrides)."""

    profile: str
    overrides: Mapping[str, Value]
    outcome: str
    deadwood: tuple[int, int] | None
    points: tuple[int, int] | None
    note: str = ""
    layoffs: tuple[Card, ...] | None = None
    """The cards the defender lays off (in any order), when the ruling pins them down."""
    knocker_melds: tuple[tuple[Card, ...], ...] | None = None
    """A declaration for this expectation only (else the position's, else best play)."""
    upcard: Card | None = None
    """An upcard for this expectation only (else the position's)."""

    @property
    def label(self) -> str:
        extra = [f"{k}={value_text(v)}" for k, v in self.overrides.items()]
        if self.knocker_melds is not None:
            extra.append("declared: " + " / ".join(" ".join(card_str(c) for c in m) for m in self.knocker_melds))
        if self.upcard is not None:
            extra.append(f"upcard {card_str(self.upcard)}")
        return f"{self.profile} ({', '.join(extra)})" if extra else self.profile


@dataclass(frozen=True, kw_only=True, repr=False)
class RulingCase(RulingHeader):
    """A parsed showdown ruling file."""

    knocker: tuple[Card, ...]
    defender: tuple[Card, ...]
    knocker_melds: tuple[tuple[Card, ...], ...] | None
    upcard: Card | None
    expectations: tuple[Expectation, ...]


@dataclass(frozen=True)
class RulingVerdict:
    """One expectation checked: the computed ruling and the fields that differ."""

    expectation: Expectation
    ruling: Ruling
    mismatches: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _pair(data: Mapping[str, Any], key: str, where: str) -> tuple[int, int] | None:
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, dict) or set(value) != {"knocker", "defender"}:
        raise RulingFileError(f"{where}: field '{key}' must be {{ knocker = N, defender = N }}")
    k, d = value["knocker"], value["defender"]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (k, d)):
        raise RulingFileError(f"{where}: field '{key}' must hold two integers")
    return (k, d)


def _cards(text: str, where: str) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(text))
    except GinspecError as exc:
        raise RulingFileError(f"{where}: {exc}") from None


def _melds(data: Mapping[str, Any], where: str, prefix: str) -> tuple[tuple[Card, ...], ...] | None:
    if "knocker_melds" not in data:
        return None
    text = need_field(data, "knocker_melds", str, where)
    return tuple(_cards(m, f"{where}: field '{prefix}knocker_melds'") for m in text.split("/") if m.strip())


def _upcard(data: Mapping[str, Any], where: str, prefix: str) -> Card | None:
    if "upcard" not in data:
        return None
    try:
        return parse_card(need_field(data, "upcard", str, where))
    except GinspecError as exc:
        raise RulingFileError(f"{where}: field '{prefix}upcard': {exc}") from None


def _layoffs(data: Mapping[str, Any], where: str) -> tuple[Card, ...] | None:
    if "layoffs" not in data:
        return None
    raw = data["layoffs"]
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise RulingFileError(f"{where}: field 'layoffs' must be a list of cards")
    return _cards(" ".join(raw), f"{where}: field 'layoffs'")


def parse_ruling(data: Mapping[str, Any], source: str = "<ruling>") -> AnyRuling:
    """Validate a ruling document of any kind; every error names ``source`` and the field."""
    kind = data.get("kind", "showdown")
    if kind not in KINDS:
        raise RulingFileError(f"{source}: field 'kind': {kind!r} is not one of {', '.join(KINDS)}")
    if kind == "game":

        return parse_game_ruling(data, source)
    if kind == "table":

        return parse_table_ruling(data, source)
    if kind != "showdown":

        return parse_score_ruling(data, source)
    return parse_showdown_ruling(data, source)


def parse_showdown_ruling(data: Mapping[str, Any], source: str = "<ruling>") -> RulingCase:
    """Validate a showdown ruling document; every error names ``source`` and the field."""
    head = parse_header(data, source)
    pos = position_of(data, source, _POSITION_KEYS)
    knocker = _cards(need_field(pos, "knocker", str, f"{source}: position"), f"{source}: field 'position.knocker'")
    defender = _cards(need_field(pos, "defender", str, f"{source}: position"), f"{source}: field 'position.defender'")
    melds = _melds(pos, f"{source}: position", "position.")
    upcard = _upcard(pos, f"{source}: position", "position.")
    expectations = []
    for where, item in expect_items(data, source, _EXPECT_KEYS):
        profile, overrides = profile_of(item, where)
        outcome = need_field(item, "outcome", str, where)
        if outcome not in OUTCOMES:
            raise RulingFileError(f"{where}: field 'outcome': {outcome!r} is not one of {', '.join(OUTCOMES)}")
        expectations.append(
            Expectation(
                profile,
                overrides,
                outcome,
                _pair(item, "deadwood", where),
                _pair(item, "points", where),
                str(item.get("note", "")),
                _layoffs(item, where),
                _melds(item, where, ""),
                _upcard(item, where, ""),
            )
        )
    return RulingCase(
        id=head["id"],
        title=head["title"],
        question=head["question"],
        knocker=knocker,
        defender=defender,
        knocker_melds=melds,
        upcard=upcard,
        expectations=tuple(expectations),
        sides=head["sides"],
        clauses=head["clauses"],
        digest=head["digest"],
        answer=head["answer"],
        path=source,
    )


def load_ruling(path: str | Path) -> AnyRuling:
    """Read and validate a ruling file."""
    if not isinstance(path, str | Path):
        raise RulingFileError(f"a ruling file is named by a path, not {path!r:.40}")
    p = Path(path)
    data = read_toml(p, RulingFileError)
    with guard(str(p), RulingFileError):
        return parse_ruling(data, str(p))


def casebook() -> list[AnyRuling]:
    """The rulings shipped with ginspec, in file order."""
    return [load_ruling(p) for p in sorted(CASEBOOK_DIR.glob("*.toml"))]


def find_ruling(ref: str) -> AnyRuling:
    """A ruling by file path, or a casebook ruling by its ID (e.g. ``C01``)."""
    path = Path(ref)
    try:
        exists = path.exists()
    except (OSError, ValueError):  # a name too long for a file, or with a NUL byte
        exists = False
    if path.suffix == ".toml" or exists:
        return load_ruling(path)
    for case in casebook():
        if case.id == ref:
            return case
    raise RulingFileError(f"no ruling file or casebook ID {ref!r} (see 'ginspec ruling list')")


AnyRuling: TypeAlias = "RulingCase | GameRuling | ScoreRuling | TableRulingCase"
"""A ruling file of any kind."""


def findings(case: AnyRuling) -> list[Finding]:
    """Compute every expectation of a ruling of any kind (one :class:`Finding` each)."""
    if isinstance(case, RulingCase):
        return [_finding(v) for v in check_ruling(case)]
    return case.check()


def _finding(v: RulingVerdict) -> Finding:
    r = v.ruling
    answer = [("outcome", r.outcome)]
    if r.knocker_deadwood is not None:
        answer.append(("deadwood", f"knocker {r.knocker_deadwood}, defender {r.defender_deadwood}"))
    if r.points is not None:
        answer.append(("points", f"knocker {r.points[0]}, defender {r.points[1]}"))
    e = v.expectation
    return Finding(e.label, e.profile, e.overrides, tuple(answer), v.mismatches, tuple(r.trail), e.note)


@implements("SHOWDOWN.BEST-PLAY")
def rule(case: RulingCase, expectation: Expectation) -> Ruling:
    """The adjudicator's ruling on the case's position under one expectation's ruleset."""
    melds = expectation.knocker_melds if expectation.knocker_melds is not None else case.knocker_melds
    upcard = expectation.upcard if expectation.upcard is not None else case.upcard
    return adjudicate(
        case.knocker,
        case.defender,
        ruleset(expectation.profile, expectation.overrides),
        knocker_melds=melds,
        upcard=upcard,
    )


def check_ruling(case: RulingCase) -> list[RulingVerdict]:
    """Compute every expectation of ``case`` and list the fields that differ."""
    verdicts = []
    for exp in case.expectations:
        ruling = rule(case, exp)
        bad = []
        if ruling.outcome != exp.outcome:
            bad.append(f"outcome: expected {exp.outcome}, computed {ruling.outcome}")
        got_dw = (ruling.knocker_deadwood, ruling.defender_deadwood)
        if exp.deadwood is not None and got_dw != exp.deadwood:
            bad.append(
                f"deadwood: expected knocker {exp.deadwood[0]}, defender {exp.deadwood[1]}; "
                f"computed knocker {got_dw[0]}, defender {got_dw[1]}"
            )
        if exp.points is not None and ruling.points != exp.points:
            got = ruling.points or (None, None)
            bad.append(
                f"points: expected knocker {exp.points[0]}, defender {exp.points[1]}; "
                f"computed knocker {got[0]}, defender {got[1]}"
            )
        if exp.layoffs is not None:
            laid = sorted(x.card for x in ruling.defence.layoffs) if ruling.defence else []
            if laid != sorted(exp.layoffs):
                bad.append(f"layoffs: expected {' '.join(card_str(c) for c in sorted(exp.layoffs)) or 'none'}, "
                           f"computed {' '.join(card_str(c) for c in laid) or 'none'}")
        verdicts.append(RulingVerdict(exp, ruling, tuple(bad)))
    return verdicts

"""Score-sheet rulings: a sequence of hand results and what each profile makes of it.

* ``kind = "match"`` — two players; ``position.hands`` lists each hand as
  ``[knocker, outcome, knocker_deadwood, defender_deadwood]`` (players 0 and 1, the outcome as in
  chapter 9) or ``["void"]``; ``position.dealer`` deals the first hand. Asked: the tally, whether
  the game is over, the final totals with bonuses, the shutout, the settlement, who deals each hand
  (chapters 9 and 11).
* ``kind = "hollywood"`` — hands ``[winner, points]`` or ``["void"]``; asked: each game's score,
  whether all are over, the settlement (HOLLYWOOD.*).
* ``kind = "partnership"`` — deals, each two table results ``[winner, loser, points]`` or
  ``["void"]``; asked: each deal netted, the team totals, the end (PARTNER.*).
* ``kind = "three-player"`` — hands ``[winner, loser, points]`` or ``["void"]``; asked: the seating
  of every hand, the scores, the settlement (THREE.*, SETTLE.PAIRWISE).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ginspec.reference.ruling_header import (
    Finding,
    RulingHeader,
    expect_items,
    label_of,
    parse_header,
    position_of,
    profile_of,
)
from ginspec.reference.scoring import (
    VOID_HAND,
    HandScore,
    MatchTally,
    final_scores,
    next_dealer,
    score_hand,
)
from ginspec.reference.systems.hollywood import HollywoodGame
from ginspec.reference.systems.partnership import PartnershipGame, net, tables
from ginspec.reference.systems.results import Result, Won
from ginspec.reference.systems.three import ThreeGame
from ginspec.spec.errors import GinspecError, RulingFileError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import Ruleset, ruleset

Sheet = tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]
"""A score sheet: column heads and rows, as text."""

_OUTCOMES: Final = ("knock", "gin", "big_gin")
_COMMON: Final = {"profile", "set", "note", "over"}
_EXPECT_KEYS: Final[dict[str, set[str]]] = {
    "match": _COMMON | {"scores", "hand_points", "boxes", "totals", "winner", "shutout", "settlement", "payee",
                        "dealers"},
    "hollywood": _COMMON | {"games", "payee", "settlement"},
    "partnership": _COMMON | {"netted", "totals", "final", "payee", "settlement"},
    "three-player": _COMMON | {"seatings", "scores", "payments", "net"},
}
_POSITION_KEYS: Final[dict[str, set[str]]] = {
    "match": {"hands", "dealer"},
    "hollywood": {"hands"},
    "partnership": {"deals"},
    "three-player": {"hands"},
}


@dataclass(frozen=True)
class ScoreExpectation:
    """What one profile says about the score sheet: the expected values, by field name."""

    profile: str
    overrides: Mapping[str, Value]
    expected: Mapping[str, Any]
    note: str = ""

    @property
    def label(self) -> str:
        return label_of(self.profile, self.overrides)

    def rules(self) -> Ruleset:
        return ruleset(self.profile, self.overrides)


@dataclass(frozen=True, kw_only=True, repr=False)
class ScoreRuling(RulingHeader):
    """A parsed match, Hollywood, partnership or three-player ruling."""

    entries: tuple[tuple[Any, ...], ...]
    """The hands (or, for partnerships, the deals) exactly as the file lists them."""
    dealer: int = 0
    expectations: tuple[ScoreExpectation, ...]

    def check(self) -> list[Finding]:
        return [check_expectation(self, e) for e in self.expectations]

    def sheet(self, exp: ScoreExpectation) -> Sheet:
        """The score sheet under one expectation's ruleset, computed by the reference."""
        return compute(self, exp)[1]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _entry(kind: str, raw: Any, where: str) -> tuple[Any, ...]:
    """One hand (or deal) of the position, validated."""
    if raw == ["void"]:
        return ("void",)
    if kind == "partnership":
        if not isinstance(raw, list) or len(raw) != 2:
            raise RulingFileError(f"{where}: a deal is two table results")
        return tuple(_entry("three-player", t, where) for t in raw)
    shapes = {"match": 4, "hollywood": 2, "three-player": 3}
    if not isinstance(raw, list) or len(raw) != shapes[kind]:
        raise RulingFileError(f"{where}: each hand is {_SHAPES[kind]} or [\"void\"]")
    if kind == "match":
        knocker, outcome, kd, dd = raw
        ok = knocker in (0, 1) and outcome in _OUTCOMES and _is_int(kd) and _is_int(dd)
        if not ok or isinstance(knocker, bool):
            raise RulingFileError(f"{where}: {raw!r} is not {_SHAPES[kind]}")
        return (knocker, outcome, kd, dd)
    if not all(_is_int(x) and x >= 0 for x in raw):
        raise RulingFileError(f"{where}: {raw!r} is not {_SHAPES[kind]}")
    return tuple(raw)


_SHAPES: Final = {
    "match": "[knocker, outcome, knocker_deadwood, defender_deadwood]",
    "hollywood": "[winner, points]",
    "three-player": "[winner, loser, points]",
}


def parse_score_ruling(data: Mapping[str, Any], source: str = "<ruling>") -> ScoreRuling:
    """Validate a match or systems ruling document (naming the file and the field on error)."""
    head = parse_header(data, source)
    kind = head["kind"]
    pos = position_of(data, source, _POSITION_KEYS[kind])
    key = "deals" if kind == "partnership" else "hands"
    raw = pos.get(key)
    if not isinstance(raw, list) or not raw:
        raise RulingFileError(f"{source}: field 'position.{key}' must be a non-empty list")
    entries = tuple(_entry(kind, e, f"{source}: field 'position.{key}[{i}]'") for i, e in enumerate(raw))
    dealer = pos.get("dealer", 0)
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise RulingFileError(f"{source}: field 'position.dealer' must be 0 or 1")
    expectations = []
    for where, item in expect_items(data, source, _EXPECT_KEYS[kind]):
        profile, overrides = profile_of(item, where)
        expected = {k: v for k, v in item.items() if k not in ("profile", "set", "note")}
        expectations.append(ScoreExpectation(profile, overrides, expected, str(item.get("note", ""))))
    case = ScoreRuling(**head, entries=entries, dealer=dealer, expectations=tuple(expectations))
    for exp in case.expectations:  # inputs no game of this ruleset can produce are file errors
        try:
            compute(case, exp)
        except GinspecError as exc:
            raise RulingFileError(f"{source}: {exp.label}: {exc}") from None
    return case


# --- computing --------------------------------------------------------------------------------


def _hand(rules: Ruleset, entry: tuple[Any, ...]) -> tuple[int | None, HandScore]:
    if entry == ("void",):
        return None, VOID_HAND
    knocker, outcome, kd, dd = entry
    return int(knocker), score_hand(outcome, kd, dd, rules)


def _pair(p: Sequence[int]) -> str:
    return f"{p[0]} / {p[1]}"


def _match(case: ScoreRuling, rules: Ruleset) -> tuple[dict[str, Any], Sheet, list[tuple[str, str]]]:
    tally = MatchTally()
    dealer = case.dealer
    dealers = [dealer]
    rows = []
    decided: dict[str, list[int]] = {}
    ended_after = None
    for n, entry in enumerate(case.entries, 1):
        if tally.winner(rules) is not None:
            ended_after = ended_after or n - 1
        knocker, score = _hand(rules, entry)
        tally = tally.after_hand(knocker, score)
        pts = [0, 0]
        if knocker is not None:
            pts[knocker], pts[1 - knocker] = score.knocker, score.defender
        what = "void" if knocker is None else f"{entry[1]} by {knocker}: deadwood {entry[2]} v {entry[3]}"
        rows.append((str(n), str(dealer), what, _pair(pts), _pair([tally.score(rules, 0), tally.score(rules, 1)])))
        for c in score.clauses:
            decided.setdefault(c, []).append(n)
        dealer = next_dealer(rules, dealer, score, knocker)
        dealers.append(dealer)
    got: dict[str, Any] = {
        "hand_points": list(tally.hand_points),
        "boxes": list(tally.boxes),
        "scores": [tally.score(rules, 0), tally.score(rules, 1)],
        "dealers": dealers,
        "over": tally.winner(rules) is not None,
    }
    trail = [(c, ("hand " if len(ns) == 1 else "hands ") + ", ".join(map(str, ns))) for c, ns in decided.items()]
    trail.append(("MATCH.NEXT-DEALER", f"the dealers: {', '.join(map(str, dealers))}"))
    if ended_after is not None:
        got["ended_after"] = ended_after
    if got["over"]:
        res = final_scores(rules, tally)
        got.update(totals=list(res.totals), winner=res.winner, shutout=res.shutout, settlement=res.settlement,
                   payee=res.payee)
        trail.extend((c, "the end of the game") for c in res.clauses)
        rows.append(("end", "", f"player {res.winner} wins; game bonus {res.game_bonus}"
                     + (f", shutout +{res.shutout_extra}" if res.shutout else "")
                     + f"; boxes {_pair(res.box_points)}", "", f"final {_pair(res.totals)}"))
    heads = ("hand", "dealer", "result", "hand points (0 / 1)", "toward the target (0 / 1)")
    return got, (heads, tuple(rows)), trail


def _won(entry: tuple[Any, ...], kind: str) -> Result:
    if entry == ("void",):
        return None
    if kind == "hollywood":
        return Won(entry[0], 1 - entry[0], entry[1])
    return Won(entry[0], entry[1], entry[2])


def _hollywood(case: ScoreRuling, rules: Ruleset) -> tuple[dict[str, Any], Sheet, list[tuple[str, str]]]:
    game = HollywoodGame.new(rules)
    rows = []
    for n, entry in enumerate(case.entries, 1):
        game = game.after(rules, _won(entry, "hollywood"))
        what = "void" if entry == ("void",) else f"player {entry[0]} wins {entry[1]}"
        rows.append((str(n), what, *(_pair(g.hand_points) for g in game.games)))
    got: dict[str, Any] = {"games": [list(g.hand_points) for g in game.games], "over": game.is_over(rules)}
    trail = [("HOLLYWOOD.ENTRY", "each win goes into the games its winner has opened, and opens the next")]
    if got["over"]:
        payee, amount = game.settlement(rules)
        got.update(payee=payee, settlement=amount)
        trail.append(("HOLLYWOOD.SETTLEMENT", f"player {payee} is paid {amount}"))
    heads = ("hand", "result", *(f"game {g + 1} (0 / 1)" for g in range(len(game.games))))
    return got, (heads, tuple(rows)), trail


def _partnership(case: ScoreRuling, rules: Ruleset) -> tuple[dict[str, Any], Sheet, list[tuple[str, str]]]:
    game = PartnershipGame()
    rows = []
    netted: list[list[Any]] = []
    for n, deal in enumerate(case.entries):
        results = [_won(t, "three-player") for t in deal]
        team, points = net(results)
        netted.append(["none"] if team is None else [team, points])
        game = game.after(rules, results)
        pairs = tables(n)
        cells = [
            f"seats {a}-{b}: " + ("void" if t == ("void",) else f"seat {t[0]} wins {t[2]}")
            for (a, b), t in zip(pairs, deal, strict=True)
        ]
        rows.append((str(n + 1), *cells, "none" if team is None else f"team {team} +{points}",
                     _pair(game.tally.hand_points)))
    got: dict[str, Any] = {"netted": netted, "totals": list(game.tally.hand_points), "over": game.is_over(rules)}
    trail = [("PARTNER.NETTING", "each deal's two tables are netted"), ("PARTNER.DRAW", "a void table")]
    if got["over"]:
        res = game.final(rules)
        got.update(final=list(res.totals), payee=res.payee, settlement=res.settlement)
        trail.append(("PARTNER.GAME", f"team {res.winner} wins"))
    heads = ("deal", "table 1", "table 2", "netted", "team totals (0 / 1)")
    return got, (heads, tuple(rows)), trail


def _three(case: ScoreRuling, rules: Ruleset) -> tuple[dict[str, Any], Sheet, list[tuple[str, str]]]:
    game = ThreeGame.new(rules)
    seatings = []
    rows = []
    for n, entry in enumerate(case.entries, 1):
        s = game.seating
        seatings.append([s.dealer, s.sits_out, s.first, s.second])
        game = game.after(rules, _won(entry, "three-player"))
        what = "void" if entry == ("void",) else f"seat {entry[0]} beats seat {entry[1]} for {entry[2]}"
        rows.append((str(n), str(s.dealer), str(s.sits_out), f"{s.first} v {s.second}", what,
                     " / ".join(map(str, game.tally.hand_points))))
    s = game.seating
    seatings.append([s.dealer, s.sits_out, s.first, s.second])
    rows.append(("next", str(s.dealer), str(s.sits_out), f"{s.first} v {s.second}", "", ""))
    got: dict[str, Any] = {"seatings": seatings, "scores": list(game.tally.hand_points), "over": game.is_over(rules)}
    trail = [("THREE.ROTATION", "who deals and who sits out each hand")]
    if got["over"]:
        settled = game.settlement(rules)
        got.update(payments=[list(p) for p in settled.payments], net=list(settled.net))
        trail.append(("SETTLE.PAIRWISE", "each pair settles the difference"))
    heads = ("hand", "dealer", "sits out", "plays (first v second)", "result", "scores (0 / 1 / 2)")
    return got, (heads, tuple(rows)), trail


_COMPUTE: Final[dict[str, Callable[[ScoreRuling, Ruleset], tuple[dict[str, Any], Sheet, list[tuple[str, str]]]]]] = {
    "match": _match,
    "hollywood": _hollywood,
    "partnership": _partnership,
    "three-player": _three,
}


def compute(case: ScoreRuling, exp: ScoreExpectation) -> tuple[dict[str, Any], Sheet, list[tuple[str, str]]]:
    """Everything the reference says about the sheet under ``exp``'s ruleset: the values (by
    expectation field name), the score sheet, and the clause trail."""
    return _COMPUTE[case.kind](case, exp.rules())


def check_expectation(case: ScoreRuling, exp: ScoreExpectation) -> Finding:
    """Compare every expected field with the computed one."""
    got, _, trail = compute(case, exp)
    bad = []
    if "ended_after" in got:
        bad.append(f"the game was over after hand {got['ended_after']}; later hands cannot be played")
    for key, want in exp.expected.items():
        have = got.get(key)
        if have != want:
            bad.append(f"{key}: expected {want!r}, computed {'(the game is not over)' if have is None else repr(have)}")
    answer = tuple((k, _text(v)) for k, v in got.items() if k in exp.expected or k == "over")
    return Finding(exp.label, exp.profile, exp.overrides, answer, tuple(bad), tuple(trail), exp.note)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value) if not all(isinstance(v, list) for v in value) else "; ".join(
            "[" + _text(v) + "]" for v in value
        )
    return "-" if value is None else str(value)

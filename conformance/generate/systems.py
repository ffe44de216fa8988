"""Query cases for the multi-player systems and their scoring (chapter 14): ``system``,
``table-penalty``, ``prize``, ``table-game``, ``three-rotation``, ``partnership`` and
``hollywood`` (capabilities ``query.<what>``, PROTOCOL.md "System queries").

Two families: the chapter's examples of the kinds ``table-penalty``, ``prize``,
``three-rotation``, ``partnership``, ``hollywood`` and the ``ruleset`` examples of SYSTEM.KIND
(``spec.<example id>``, the spec's own values), and scripted scenarios (``sys.<what>.<name>``)
whose expected values are worked out here from the chapter's text, each with the reasoning in a
comment. The build stops when the reference answers a scenario differently.

:func:`system_case` turns any such scenario into a case; the casebook's rulings on these
systems (C28-C30) use it too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.adapters.reference_systems import SYSTEM_ANSWERS
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.compare_systems import check_system_query
from ginspec.spec.cards import card_str, parse_cards
from ginspec.spec.clauses import Example, registry

FIELD_BLAME: Final[dict[str, dict[str, str]]] = {
    "system": {"valid": "SYSTEM.KIND", "game_system": "SYSTEM.KIND", "players": "SYSTEM.KIND"},
    "table-penalty": {"outcome": "TABLE.UNDERCUT", "winner": "TABLE.UNDERCUT",
                      "penalties": "TABLE.PENALTY"},
    "prize": {"winner": "TABLE.PRIZE", "shares": "TABLE.PRIZE"},
    "table-game": {"totals": "TABLE.GAME-END", "over": "TABLE.GAME-END",
                   "winner": "TABLE.GAME-END"},
    "table-adjudicate": {f: "TABLE.BEST-PLAY" for f in (
        "outcome", "winner", "discard", "declaration", "layoffs", "deadwood", "penalties")},
    "three-rotation": {"seatings": "THREE.ROTATION", "scores": "THREE.GAME",
                       "over": "THREE.GAME", "payments": "SETTLE.PAIRWISE",
                       "net": "SETTLE.PAIRWISE"},
    "partnership": {"tables": "PARTNER.TABLES", "dealers": "PARTNER.TABLES",
                    "netted": "PARTNER.NETTING", "totals": "PARTNER.NETTING",
                    "over": "PARTNER.GAME", "final": "PARTNER.GAME", "payee": "PARTNER.GAME",
                    "settlement": "SETTLE.PROPORTIONAL"},
    "hollywood": {"games": "HOLLYWOOD.ENTRY", "over": "HOLLYWOOD.GAME-END",
                  "payee": "HOLLYWOOD.SETTLEMENT", "settlement": "HOLLYWOOD.SETTLEMENT"},
}
"""The clause that decides each answer field: a wrong field blames it (``source.blame.*``)."""


class SystemCaseError(AssertionError):
    """A scenario's expected answer (from the spec) and the reference's answer differ."""


def decided_by(what: str, expect: Mapping[str, Any], query: Mapping[str, Any],
               overrides: Mapping[str, Any]) -> list[str]:
    """The clauses that decide the expected fields of a system query."""
    if what == "system":
        return []
    if what == "table-penalty":
        return ["TABLE.UNDERCUT", "TABLE.PENALTY"]
    if what == "prize":
        return ["TABLE.PRIZE"]
    if what == "table-game":
        return ["TABLE.GAME-END"]
    if what == "table-adjudicate":
        return ["TABLE.BEST-PLAY"]
    out: list[str] = []
    if what == "three-rotation":
        out.append("THREE.ROTATION")
        if {"scores", "over"} & set(expect):
            out.append("THREE.GAME")
        if {"payments", "net"} & set(expect):
            out.append("SETTLE.PAIRWISE")
    elif what == "partnership":
        if {"tables", "dealers"} & set(expect):
            out.append("PARTNER.TABLES")
        out.append("PARTNER.NETTING")
        if any(t == ["void"] for deal in query.get("deals", []) for t in deal):
            out.append("PARTNER.DRAW")
        if {"over", "final", "payee", "settlement"} & set(expect):
            out.append("PARTNER.GAME")
        if "settlement" in expect:
            out.append("SETTLE.PROPORTIONAL")
    elif what == "hollywood":
        out.append("HOLLYWOOD.ENTRY")
        if "over" in expect:
            out.append("HOLLYWOOD.GAME-END")
        if {"payee", "settlement"} & set(expect):
            out += ["HOLLYWOOD.SETTLEMENT", "SETTLE.PROPORTIONAL"]
    return out


def system_case(case_id: str, what: str, args: Mapping[str, Any], expect: Mapping[str, Any],
                *, description: str, origin: str = "query", profile: str | None = None,
                overrides: Mapping[str, Any] | None = None, violates: Sequence[str] = (),
                clauses: Sequence[str] = (), source: Mapping[str, Any] | None = None) -> Case:
    """A system query case. ``expect`` holds the expected answer fields (or ``error: true``
    when no legal game gives the input, with ``violates`` naming the clause it breaks); the
    reference must give the same answer, else :class:`SystemCaseError`."""
    kind = QUERY_KINDS[what]
    profile = profile if profile is not None or what == "system" else kind.default_profile
    overrides = dict(overrides or {})
    query = {"what": what, **{k: args[k] for k in kind.all_arguments if k in args}}
    missing = [] if expect.get("error") else [f for f in kind.required if f not in expect]
    unknown = [f for f in expect if f not in (*kind.answer, "error")]
    if missing or unknown:
        raise SystemCaseError(f"{case_id}: expect lacks {missing} or has unknown {unknown}")
    answer = SYSTEM_ANSWERS[what](args, profile, overrides)
    bad = check_system_query(what, expect, answer)
    if bad:
        raise SystemCaseError(f"{case_id}: {bad} (the reference's answer: {answer})")
    decides = [] if expect.get("error") else decided_by(what, expect, query, overrides)
    listed = [*clauses, *violates, *decides] or ["SYSTEM.KIND"]
    blame = {f"blame.{f}": FIELD_BLAME[what][f] for f in expect if f in FIELD_BLAME[what]}
    if violates:
        blame["blame.error"] = violates[0]
    return Case.make(
        id=case_id, kind="query", origin=origin, description=description,
        clauses=sorted(set(listed)), violates=sorted(set(violates)), decides=decides,
        profile=profile, overrides=overrides, requires=[f"query.{what}"],
        source={**(source or {"generator": "systems script"}), **blame}, query=query,
        expect=dict(expect),
    )


# --- the chapter's examples ----------------------------------------------------------------------

EXAMPLE_KINDS: Final = ("table-penalty", "prize", "three-rotation", "partnership", "hollywood",
                        "table-adjudicate")


def _example_source(ex: Example) -> dict[str, Any]:
    return {"spec": f"{registry()[ex.clause].path}#{ex.id}", "example": ex.id}


def system_example(ex: Example) -> list[Case]:
    """An example of a system kind (or a SYSTEM.KIND ``ruleset`` example) as a query case."""
    d = ex.data
    if ex.kind == "ruleset":
        expect: dict[str, Any] = {"valid": bool(d["valid"])}
        values = d.get("values", {})
        expect.update({k: values[k] for k in ("game_system", "players") if k in values})
        return [system_case(f"spec.{ex.id}", "system", {}, expect, origin="spec-example",
                            description=f"whether {d['profile']} with {d.get('overrides', {})} "
                            "is a valid game system", profile=str(d["profile"]),
                            overrides=d.get("overrides", {}), clauses=[ex.clause],
                            violates=[] if d["valid"] else [ex.clause],
                            source=_example_source(ex))]
    what = ex.kind
    if what == "table-adjudicate":
        return [_table_adjudicate_example(ex)]
    args = {k: d[k] for k in QUERY_KINDS[what].all_arguments}
    expect = {k: d[k] for k in QUERY_KINDS[what].answer if k in d}
    if what == "table-penalty" and "outcome" in d:
        expect["outcome"] = d["outcome"]
    overrides = dict(d.get("overrides", {})) | dict(d.get("params", {}))
    return [system_case(f"spec.{ex.id}", what, args, expect, origin="spec-example",
                        description=f"the {what} example {ex.id} ({ex.clause})",
                        profile=d.get("profile"), overrides=overrides, clauses=[ex.clause],
                        source=_example_source(ex))]


def _tokens(text: str) -> list[str]:
    return [card_str(c) for c in parse_cards(text)]


def _table_adjudicate_example(ex: Example) -> Case:
    d = ex.data
    args: dict[str, Any] = {"hands": [_tokens(h) for h in d["hands"]],
                            "knocker": int(d["knocker"])}
    if "discard" in d:
        args["discard"] = _tokens(str(d["discard"]))[0]
    if "knocker_melds" in d:
        args["knocker_melds"] = [_tokens(m) for m in d["knocker_melds"]]
    expect: dict[str, Any] = {k: d[k] for k in ("outcome", "winner", "deadwood", "penalties")
                              if k in d}
    if "best_discard" in d:
        expect["discard"] = _tokens(str(d["best_discard"]))[0]
    if "declaration" in d:
        expect["declaration"] = [_tokens(m) for m in d["declaration"]]
    if "layoffs" in d:
        expect["layoffs"] = [_tokens(" ".join(x)) if x else [] for x in d["layoffs"]]
    return system_case(f"spec.{ex.id}", "table-adjudicate", args, expect,
                       origin="spec-example", description=f"the table ruling {ex.id} "
                       "(TABLE.BEST-PLAY)", profile=d.get("profile"),
                       overrides=d.get("overrides", {}), clauses=[ex.clause],
                       source=_example_source(ex))


def system_examples() -> list[Case]:
    """Every chapter-14 example these queries can ask."""
    out: list[Case] = []
    for ex in registry().examples():
        if ex.kind in EXAMPLE_KINDS or (ex.kind == "ruleset" and ex.clause == "SYSTEM.KIND"):
            out.extend(system_example(ex))
    return out


# --- scripted scenarios --------------------------------------------------------------------------


def _src(clause: str) -> dict[str, Any]:
    return {"spec": "spec/chapters/14-multiplayer.md", "section": clause,
            "generator": "systems script"}


def system_kind_cases() -> Iterator[Case]:
    # SYSTEM.KIND: players must be 2 for hollywood; TABLE.PLAYERS: 2 to 4 at the table.
    yield system_case("sys.system.hollywood-needs-two", "system", {}, {"valid": False},
                      description="Hollywood is a two-player system", profile="hollywood",
                      overrides={"players": 3}, violates=["SYSTEM.KIND"], source=_src(
                          "SYSTEM.KIND"))
    yield system_case("sys.system.partnership-four", "system", {},
                      {"valid": True, "game_system": "partnership", "players": 4},
                      description="the partnership profile seats four players",
                      profile="partnership", clauses=["SYSTEM.KIND"],
                      source=_src("SYSTEM.KIND"))
    yield system_case("sys.system.table-five-players", "system", {}, {"valid": False},
                      description="seed 001's table seats at most four players",
                      profile="serbian-online", overrides={"players": 5},
                      violates=["TABLE.PLAYERS"], clauses=["SYSTEM.KIND"],
                      source=_src("TABLE.PLAYERS"))
    yield system_case("sys.system.table-four-players", "system", {},
                      {"valid": True, "game_system": "table", "players": 4},
                      description="seed 001's table game for four", profile="serbian-online",
                      overrides={"players": 4}, clauses=["SYSTEM.KIND", "TABLE.PLAYERS"],
                      source=_src("TABLE.PLAYERS"))


def table_score_cases() -> Iterator[Case]:
    # TABLE.PENALTY with other bonuses: gin charges deadwood + gin_bonus (10 + 15, 0 + 15).
    yield system_case("sys.table-penalty.gin-bonus-15", "table-penalty",
                      {"knocker": 2, "deadwood": [10, 0, 0]},
                      {"outcome": "gin", "winner": 2, "penalties": [25, 15, 0]},
                      description="gin with gin_bonus 15: every other player pays his "
                      "deadwood + 15", overrides={"gin_bonus": 15}, source=_src("TABLE.PENALTY"))
    # Undercut at four: seats 2 and 3 both have 2, under knocker 1's 6; seat 2 comes first
    # from the knocker's left and undercuts. Seat 0 pays 9 - 2 = 7, seat 3 pays 2 - 2 = 0, the
    # knocker 6 - 2 + 10 (undercut_bonus 10).
    yield system_case("sys.table-penalty.undercut-bonus-10", "table-penalty",
                      {"knocker": 1, "deadwood": [9, 6, 2, 2]},
                      {"outcome": "undercut", "winner": 2, "penalties": [7, 14, 0, 0]},
                      description="two defenders under the knocker with the same count: the "
                      "first in turn order from the knocker's left undercuts",
                      overrides={"undercut_bonus": 10}, source=_src("TABLE.UNDERCUT"))
    # TABLE.PRIZE: four players, three equal weights 40; the rest 25 splits 8 + 8 + 8 and the
    # unit left over goes to the lowest seat among equal remainders (seat 1).
    yield system_case("sys.prize.equal-remainders", "prize",
                      {"pool": 100, "totals": [0, 10, 10, 10]},
                      {"winner": 0, "shares": [75, 9, 8, 8]},
                      description="equal remainders: the spare unit goes to the lower seat",
                      source=_src("TABLE.PRIZE"))
    # prize_winner_share 100: nothing is left to share.
    yield system_case("sys.prize.winner-takes-all", "prize",
                      {"pool": 1000, "totals": [70, 40, 60]}, {"winner": 1, "shares": [0, 1000, 0]},
                      description="prize_winner_share 100: the winner takes the pool",
                      overrides={"prize_winner_share": 100}, source=_src("TABLE.PRIZE"))
    # TABLE.GAME-END, penalty_limit 100.
    yield system_case("sys.table-game.not-over-below-limit", "table-game",
                      {"hands": [[0, 20, 30], [10, 0, 45]]},
                      {"totals": [10, 20, 75], "over": False, "winner": None},
                      description="nobody has reached 100 penalty points: the game goes on",
                      source=_src("TABLE.GAME-END"))
    yield system_case("sys.table-game.not-over-at-ninety", "table-game",
                      {"hands": [[0, 20, 30], [10, 0, 45], [5, 70, 0]]},
                      {"totals": [15, 90, 75], "over": False, "winner": None},
                      description="90 is under the limit: still not over",
                      source=_src("TABLE.GAME-END"))
    yield system_case("sys.table-game.lowest-wins", "table-game",
                      {"hands": [[0, 20, 30], [10, 0, 45], [5, 70, 0], [0, 25, 5]]},
                      {"totals": [15, 115, 80], "over": True, "winner": 0},
                      description="seat 1 reaches 115: the game ends, seat 0 has the lowest "
                      "total and wins", source=_src("TABLE.GAME-END"))
    yield system_case("sys.table-game.shared-lowest-plays-on", "table-game",
                      {"hands": [[0, 0, 60], [0, 0, 45]]},
                      {"totals": [0, 0, 105], "over": False, "winner": None},
                      description="a total is over 100 but the lowest is shared: play goes on",
                      source=_src("TABLE.GAME-END"))
    yield system_case("sys.table-game.limit-50", "table-game",
                      {"hands": [[0, 20, 30], [10, 0, 25]]},
                      {"totals": [10, 20, 55], "over": True, "winner": 0},
                      description="penalty_limit 50: 55 ends the game",
                      overrides={"penalty_limit": 50}, source=_src("TABLE.GAME-END"))
    yield system_case("sys.table-game.hand-after-the-end", "table-game",
                      {"hands": [[0, 10, 100], [5, 0, 0]]}, {"error": True},
                      description="no hand is played after the game has ended",
                      violates=["TABLE.GAME-END"], source=_src("TABLE.GAME-END"))


def three_cases() -> Iterator[Case]:
    # A void first hand: the same seating again (THREE.ROTATION).
    yield system_case("sys.three-rotation.void-replays", "three-rotation",
                      {"hands": [["void"], [1, 2, 15]]},
                      {"seatings": [[0, 0, 1, 2], [0, 0, 1, 2], [2, 2, 1, 0]],
                       "scores": [0, 15, 0], "over": False},
                      description="after a void hand the same two play again; then the loser "
                      "(seat 2) sits out and deals, the winner plays first",
                      source=_src("THREE.ROTATION"))
    yield system_case("sys.three-rotation.sitting-out-cannot-win", "three-rotation",
                      {"hands": [[0, 1, 10]]}, {"error": True},
                      description="seat 0 sits out the first hand and cannot win it",
                      violates=["THREE.ROTATION"], source=_src("THREE.ROTATION"))


def partnership_cases() -> Iterator[Case]:
    # PARTNER.TABLES: deal 0 pairs 0-1 and 2-3, deal 1 pairs 0-3 and 2-1, deal 2 as deal 0.
    # Team 1 deals first (seats 1 and 3); team 0 wins deal 0 by 1, so team 1 deals again
    # (seats 3 and 1); team 1 wins deal 1 by 35, so team 0 deals deal 2 (seats 0 and 2).
    yield system_case("sys.partnership.tables-and-dealers", "partnership",
                      {"deals": [[[0, 1, 30], [3, 2, 29]], [[3, 0, 20], [1, 2, 15]],
                                 [[0, 1, 25], [3, 2, 25]]]},
                      {"tables": [[[0, 1], [2, 3]], [[0, 3], [2, 1]], [[0, 1], [2, 3]]],
                       "dealers": [[1, 3], [3, 1], [0, 2]],
                       "netted": [[0, 1], [1, 35], ["none"]], "totals": [1, 35]},
                      description="opponents alternate every deal; the team that lost the "
                      "last netted deal deals at both tables", source=_src("PARTNER.TABLES"))
    yield system_case("sys.partnership.partners-never-meet", "partnership",
                      {"deals": [[[0, 1, 10], [2, 3, 10]], [[0, 1, 10], [2, 3, 5]]]},
                      {"error": True},
                      description="in the second deal seat 0 plays seat 3, not seat 1",
                      violates=["PARTNER.TABLES"], source=_src("PARTNER.TABLES"))
    yield system_case("sys.partnership.both-tables-void", "partnership",
                      {"deals": [[["void"], ["void"]]]},
                      {"netted": [["none"]], "totals": [0, 0], "over": False},
                      description="both tables void: the deal scores nothing",
                      source=_src("PARTNER.DRAW"))
    yield system_case("sys.partnership.replay-table", "partnership",
                      {"deals": [[["void"], [2, 3, 40]]]}, {"error": True},
                      description="partnership_draw = replay_table: a void table is dealt "
                      "again, so a deal is never recorded with a void table",
                      overrides={"partnership_draw": "replay_table"}, violates=["PARTNER.DRAW"],
                      source=_src("PARTNER.DRAW"))


def hollywood_cases() -> Iterator[Case]:
    # Game 1 ends at once (100); player 0's next win opens game 2; player 1, shut out of game
    # 1, enters his first win as the first score of game 2, the lowest game still open.
    yield system_case("sys.hollywood.closed-game-takes-no-score", "hollywood",
                      {"hands": [[0, 100], [0, 10], [1, 20]]},
                      {"games": [[100, 0], [10, 20], [0, 0]], "over": False},
                      description="a game that has ended takes no more scores; a player shut "
                      "out of it starts in the next game still open",
                      source=_src("HOLLYWOOD.GAME-END"))
    over = [[0, 25], [1, 12], [0, 18], [0, 36], [0, 30], [1, 20], [0, 40]]
    yield system_case("sys.hollywood.no-hand-after-the-end", "hollywood",
                      {"hands": [*over, [1, 10]]}, {"error": True},
                      description="every game is over: no more hands are entered",
                      violates=["HOLLYWOOD.GAME-END"], source=_src("HOLLYWOOD.GAME-END"))


def table_ruling_cases() -> Iterator[Case]:
    # TABLE.BEST-PLAY: seven unmatched cards K Q J 9 8 7 6 leave 51 points of deadwood, far over
    # the knock limit: an illegal knock, nobody is charged.
    hands = ["KC QD JH 9S 8C 7D 6S", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC"]
    yield system_case("sys.table-adjudicate.illegal-knock", "table-adjudicate",
                      {"hands": [_tokens(h) for h in hands], "knocker": 0, "discard": "2C"},
                      {"outcome": "illegal_knock", "winner": None, "penalties": None},
                      description="a knock with 51 points of deadwood is ruled illegal",
                      source=_src("TABLE.BEST-PLAY"))


def system_cases() -> list[Case]:
    """The scripted scenarios (the examples come from :func:`system_examples`)."""
    return [*system_kind_cases(), *table_score_cases(), *three_cases(), *partnership_cases(),
            *hollywood_cases(), *table_ruling_cases()]

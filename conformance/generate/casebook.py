"""Casebook rulings as conformance cases (origin ``casebook``).

Every expectation of every showdown ruling in ``spec/casebook/`` becomes one hand case: a deal that gives
the knocker its kept cards plus one card to throw (taken from the stock, or the Oklahoma upcard
when the knocker holds it), then the knock, the declaration, the defender's melds and layoffs and
the knocker's layoffs exactly as the adjudicator ruled, and the hand result. Before a case is
kept, the engine's points and deadwood are checked against the ruling file's own hand-derived
expectation, so a case can never drift from the casebook. An expected illegal knock becomes a
negative case: the knock is refused with its code.

Every expectation of a game-script ruling becomes a hand case too: its deal, the script's actions
(the ``play-to-wall`` shorthand written out turn by turn), a checkpoint with what it asks (phase,
player to act, legal and illegal actions), then the disputed action, accepted or refused with its
code and clause, and the hand's result when the hand is over. A table ruling becomes a
``table-hand`` case, and a Hollywood, partnership or three-player ruling a system query case
(``generate.systems.system_case``) whose expected answer is the file's declared fields; a
match ruling becomes ``match`` and ``next-dealer`` query cases the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from ginspec.conformance.adapters.reference_game import CHANCE_PLAYER, hand_result
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.generate.games import DEAL_CLAUSES, checkpoint, deal_json, known
from ginspec.conformance.generate.systems import system_case
from ginspec.conformance.generate.table import Script, TableCaseError
from ginspec.reference.game import Deal, HandState, Rejection, parse_action, rules_for_profile
from ginspec.reference.game.state import CHANCE
from ginspec.reference.melds import min_deadwood, min_deadwood_after_discard
from ginspec.reference.ruling_scores import ScoreExpectation, ScoreRuling
from ginspec.reference.ruling_scores import check_expectation as check_score_expectation
from ginspec.reference.ruling_scripts import GameExpectation, GameRuling, check_expectation, play_script
from ginspec.reference.ruling_table import TableExpectation, TableRulingCase
from ginspec.reference.ruling_table import check_expectation as check_table
from ginspec.reference.rulings import AnyRuling, Expectation, RulingCase, casebook, rule
from ginspec.reference.table import TableDeal
from ginspec.spec.cards import Card, card_str, parse_card

REQUIRES = ["hand", "legal-actions", "melding.explicit", "layoff.explicit"]
KNOCKER, DEFENDER = 1, 0
"""The knocker is the non-dealer (player 1); the defender deals (player 0)."""


class NotPlayable(Exception):
    """This expectation cannot be reached from a deal (reported, never silently dropped)."""


def _cards(cards: Any) -> str:
    return " ".join(card_str(c) for c in cards)


def _melds(melds: list[list[str]]) -> str:
    return " / ".join(" ".join(m) for m in melds)


def _opening(case: RulingCase, exp: Expectation, discard: Card | None) -> tuple[Deal, list[tuple[int, str]], Card]:
    """The deal, the moves up to (not including) the knock, and the card the knock throws."""
    held = set(case.knocker) | set(case.defender)
    free = [c for c in range(52) if c not in held]
    upcard = exp.upcard if exp.upcard is not None else case.upcard
    rules = rules_for_profile(exp.profile, dict(exp.overrides))
    kept = list(case.knocker)
    if len(kept) == 11:  # big gin or a best discard chosen by the adjudicator: draw one of the 11
        throw = discard if discard is not None else kept[-1]
        kept.remove(throw)
    else:  # a card that does not improve the kept ten, so the ruled position is what is played
        best = min_deadwood(kept, rules.meld_rules)
        throw = next(c for c in free if min_deadwood_after_discard([*kept, c], rules.meld_rules) >= best)
        free.remove(throw)
    if rules.first_turn == "eleven_card_start":
        return Deal.from_hands(_cards([*kept, throw]), _cards(case.defender), None, dealer=DEFENDER), [], throw
    if upcard is not None and upcard in case.defender:
        raise NotPlayable("the upcard is in the defender's hand")
    if upcard is not None and upcard in kept:
        if len(case.knocker) == 11:
            raise NotPlayable("eleven cards with the upcard among them")
        hand = [c for c in kept if c != upcard] + [throw]
        deal = Deal.from_hands(_cards(hand), _cards(case.defender), card_str(upcard), dealer=DEFENDER)
        return deal, [(KNOCKER, "take-upcard" if rules.upcard_offer else "take-discard")], throw
    face_up = upcard if upcard is not None else free.pop(0)
    deal = Deal.from_hands(_cards(kept), _cards(case.defender), card_str(face_up), card_str(throw), dealer=DEFENDER)
    if not rules.upcard_offer:  # FIRST.PLAIN: no offer, the non-dealer draws at once
        return deal, [(KNOCKER, "draw-stock")], throw
    return deal, [(KNOCKER, "pass"), (DEFENDER, "pass"), (KNOCKER, "draw-stock")], throw


def _script(case: RulingCase, exp: Expectation) -> tuple[Deal, list[tuple[int, str]], bool]:
    """The deal and every move of the ruled hand; the flag says the knock or the declaration that
    follows it must be refused (an illegal knock)."""
    ruling = rule(case, exp).to_json()
    discard = ruling["discard"]
    deal, moves, throw = _opening(case, exp, None if discard is None else parse_card(discard))
    knock = f"knock {card_str(throw)}"
    if ruling["outcome"] == "illegal_knock":
        declared = exp.knocker_melds if exp.knocker_melds is not None else case.knocker_melds
        if declared is None:  # no arrangement reaches the limit: the knock itself is refused
            return deal, [*moves, (KNOCKER, knock)], True
        declare = "declare " + " / ".join(_cards(m) for m in declared)
        return deal, [*moves, (KNOCKER, knock), (KNOCKER, declare)], True
    moves.append((KNOCKER, "big-gin" if ruling["outcome"] == "big_gin" else knock))
    moves.append((KNOCKER, "declare " + _melds(ruling["declaration"]["melds"])))
    defence = ruling["defender"]
    if defence is not None:
        if defence["melds"]:
            moves.append((DEFENDER, "meld " + _melds(defence["melds"])))
        moves.extend((DEFENDER, lay["action"]) for lay in defence["layoffs"])
    if ruling["knocker_layoffs"]:
        moves.append((DEFENDER, "done"))
        moves.extend((KNOCKER, lay["action"]) for lay in ruling["knocker_layoffs"])
    return deal, moves, False


def _play(deal: Deal, moves: list[tuple[int, str]], exp: Expectation, refused_last: bool) -> tuple[Any, ...]:
    rules = rules_for_profile(exp.profile, dict(exp.overrides))
    state = start = HandState.new(deal, rules)
    steps: list[dict[str, Any]] = []
    rejection: Rejection | None = None
    knock_at = next((i for i, (_, a) in enumerate(moves) if a.startswith(("knock", "big-gin"))), len(moves))
    for i, (player, action) in enumerate(moves):
        try:
            state = state.apply(action, player)
        except Rejection as exc:
            if not (refused_last and i >= knock_at):
                raise NotPlayable(f"{action!r} refused: {exc}") from None
            rejection = exc
            steps.append(
                {"player": player, "action": action, "expect": {"rejected": exc.code.value}, "clause": exc.clause}
            )
            break
        steps.append({"player": player, "action": action, "expect": "accepted"})
    guard = 0
    while rejection is None and not state.is_over and "layoff" in state.phase.value and guard < 4:
        to_move = state.to_move
        steps.append({"player": to_move, "action": "done", "expect": "accepted"})
        state = state.apply("done", to_move)
        guard += 1
    if rejection is None and not state.is_over:
        raise NotPlayable(f"the hand did not end (phase {state.phase.value})")
    return start, state, steps, rejection


def _check(case: RulingCase, exp: Expectation, final: HandState) -> None:
    """The engine's result must be the ruling file's declared one (hand-derived)."""
    result = final.result
    assert result is not None
    if exp.points is not None:
        got = (result.points[KNOCKER], result.points[DEFENDER])
        if got != exp.points:
            raise AssertionError(f"{case.id} {exp.label}: engine points {got}, ruling {exp.points}")
    if exp.deadwood is not None:
        got = (result.deadwood[KNOCKER], result.deadwood[DEFENDER])
        if got != exp.deadwood:
            raise AssertionError(f"{case.id} {exp.label}: engine deadwood {got}, ruling {exp.deadwood}")


def _game_case(case: GameRuling, exp: GameExpectation, number: int) -> Case:
    """A game-script expectation as a hand case (the steps the engine played, then the try)."""

    finding = check_expectation(case, exp)  # the engine must agree with the file's own ruling
    if not finding.ok:
        raise AssertionError(f"{case.id} {exp.label}: {'; '.join(finding.mismatches)}")
    run = play_script(case, exp)
    steps: list[dict[str, Any]] = [
        {"player": player, "action": action, "expect": "accepted"} for player, action in run.steps
    ]
    point: dict[str, Any] = {"after": len(steps)}
    if exp.phase is not None:
        point["phase"] = run.state.phase.value
    if exp.to_move is not None:
        to_move = run.state.to_move
        point["to_act"] = CHANCE_PLAYER if to_move == CHANCE else to_move
    if exp.legal:
        point["legal_includes"] = sorted({str(parse_action(t)) for t in exp.legal})
    if exp.illegal:
        point["legal_excludes"] = sorted({str(parse_action(t)) for t in exp.illegal})
    requires = ["hand"]
    if exp.legal or exp.illegal:
        requires.append("legal-actions")
    violates: list[str] = []
    if exp.attempt is not None:
        step: dict[str, Any] = {"player": run.attempt_by, "action": str(parse_action(exp.attempt))}
        if isinstance(run.attempt, Rejection):
            step["expect"] = {"rejected": run.attempt.code.value}
            step["clause"] = run.attempt.clause
            violates.append(run.attempt.clause)
            requires.append("rejection-codes")
        else:
            step["expect"] = "accepted"
        steps.append(step)
    verbs = {s["action"].split()[0] for s in steps}
    if verbs & {"declare", "meld"}:
        requires.append("melding.explicit")
    if "layoff" in verbs:
        requires.append("layoff.explicit")
    extra: dict[str, Any] = {}
    final = run.state.result
    if final is not None and (exp.outcome is not None or exp.points is not None):
        extra["result"] = {"outcome": final.outcome.value, "points": list(final.points)}
        extra["decides"] = known(final.score.clauses)
    asked = [f"try {exp.attempt}"] if exp.attempt else []
    asked += [k for k in ("phase", "to_move", "legal", "illegal", "outcome", "points") if getattr(exp, k)]
    return Case.make(
        id=f"casebook.{case.id.lower()}.{number}",
        kind="hand",
        origin="casebook",
        description=f"casebook {case.id} ({case.title}) under {exp.label}: {', '.join(asked)}",
        clauses=known([*DEAL_CLAUSES, *case.clauses]),
        profile=exp.profile,
        overrides=dict(exp.overrides),
        requires=requires,
        source={"generator": "casebook", "ruling": f"spec/casebook/{Path(case.path).stem}.toml",
                "expectation": number},
        deals=[deal_json(run.start)],
        steps=steps,
        checkpoints=[point] if len(point) > 1 else [],
        violates=known(violates),
        **extra,
    )


def _table_case(case: TableRulingCase, exp: TableExpectation, number: int) -> Case:
    """A table ruling as a ``table-hand`` case: seat 0 draws the knock discard from the stock and
    knocks; then the declaration and every defender's melds and layoffs as the table adjudicator
    ruled, with a checkpoint listing the legal actions right after each defender spreads (which
    layoffs the rules allow him), and the file's result."""

    finding = check_table(case, exp)
    if not finding.ok:
        raise AssertionError(f"{case.id} {exp.label}: {'; '.join(finding.mismatches)}")
    if case.knocker != 0 or case.discard is None or any(len(h) != 7 for h in case.hands):
        raise NotPlayable("a table case is written for seat 0 knocking with a named discard, seven cards a seat")
    held = {c for h in case.hands for c in h} | {case.discard}
    upcard = next(c for c in range(52) if c not in held)
    script = Script(
        TableDeal.from_hands([_cards(h) for h in case.hands], card_str(upcard), card_str(case.discard)),
        dict(exp.overrides),
        exp.profile,
    )
    ruling = case.rule(exp)
    try:
        script.act("draw-stock")
        for action in ruling.actions():
            script.act(action)
            if action.split()[0] == "meld":
                script.check(legal_actions=[str(a) for a in script.state.legal_actions()])
    except TableCaseError as exc:
        raise NotPlayable(str(exc)) from None
    result: dict[str, Any] = {"outcome": exp.outcome}
    if exp.deadwood is not None:
        result["deadwood"] = list(exp.deadwood)
    if exp.penalties is not None:
        result["penalties"] = list(exp.penalties)
    return script.case(
        f"casebook.{case.id.lower()}.{number}",
        "casebook",
        f"casebook {case.id} ({case.title}) under {exp.label}: {exp.outcome}",
        {"generator": "casebook", "ruling": f"spec/casebook/{Path(case.path).stem}.toml", "expectation": number},
        result,
        extra=case.clauses,
    )


def _source(case: Any, number: int) -> dict[str, Any]:
    return {"generator": "casebook", "ruling": f"spec/casebook/{Path(case.path).stem}.toml", "expectation": number}


def _agree(case: ScoreRuling, exp: ScoreExpectation) -> None:
    """The reference must give the file's own (source-derived) answer before it becomes a case."""
    finding = check_score_expectation(case, exp)
    if not finding.ok:
        raise AssertionError(f"{case.id} {exp.label}: {'; '.join(finding.mismatches)}")


def _match_cases(case: ScoreRuling) -> list[Case]:
    """A match ruling as query cases: a ``match`` query for each expectation that asks about the
    end of the game (its declared fields are the expected answer), and a ``next-dealer`` query
    for each hand of an expectation that lists the dealers."""
    out: list[Case] = []
    hands = [list(e) for e in case.entries]
    for number, exp in enumerate(case.expectations, 1):
        _agree(case, exp)
        want = exp.expected
        base: dict[str, Any] = {
            "kind": "query",
            "origin": "casebook",
            "profile": exp.profile,
            "overrides": dict(exp.overrides),
            "clauses": known(case.clauses),
            "source": _source(case, number),
        }
        end = {k: want[k] for k in ("totals", "winner", "shutout", "settlement", "payee") if k in want}
        if "over" in want or end:
            over = bool(want.get("over", True))
            expect: dict[str, Any] = {"over": True, "hands": len(hands), **end} if over else {"over": False}
            decides = ["MATCH.TARGET", *(["MATCH.GAME-BONUS", "MATCH.BOX"] if "totals" in end else [])]
            if "shutout" in end or ("totals" in end and want.get("shutout") is not False):
                decides += ["MATCH.SHUTOUT", "MATCH.SHUTOUT-TEST"]
            if {"settlement", "payee"} & set(end):
                decides.append("MATCH.SETTLEMENT")
            out.append(Case.make(
                id=f"casebook.{case.id.lower()}.{number}",
                description=f"casebook {case.id} ({case.title}) under {exp.label}: the game after "
                f"{len(hands)} hands",
                decides=known(decides), requires=["query.match"],
                query={"what": "match", "hands": hands}, expect=expect, **base))
        dealers: list[int] = list(want.get("dealers") or [])
        for i, hand in enumerate(hands if dealers else []):
            out.append(Case.make(
                id=f"casebook.{case.id.lower()}.{number}.dealer{i + 1}",
                description=f"casebook {case.id} ({case.title}) under {exp.label}: who deals after hand {i + 1}",
                decides=known(["MATCH.NEXT-DEALER", *(["WALL.REDEAL"] if hand == ["void"] else [])]),
                requires=["query.next-dealer"],
                query={"what": "next-dealer", "dealer": dealers[i], "hand": hand},
                expect={"next": dealers[i + 1]}, **base))
    return out


SYSTEM_QUERY: Final = {"hollywood": "hollywood", "partnership": "partnership", "three-player": "three-rotation"}
"""The protocol's system query for each score-sheet ruling kind of chapter 14."""


def _plain(entry: Any) -> Any:
    return [_plain(x) for x in entry] if isinstance(entry, tuple | list) else entry


def _system_cases(case: ScoreRuling) -> list[Case]:
    """A Hollywood, partnership or three-player ruling as system query cases, one per
    expectation: the file's declared fields are the expected answer (the reference must agree)."""

    what = SYSTEM_QUERY[case.kind]
    key = "deals" if case.kind == "partnership" else "hands"
    args = {key: [_plain(e) for e in case.entries]}
    out = []
    for number, exp in enumerate(case.expectations, 1):
        _agree(case, exp)
        expect = {k: v for k, v in exp.expected.items() if k in QUERY_KINDS[what].answer}
        missing = [f for f in QUERY_KINDS[what].required if f not in expect]
        if missing:
            raise NotPlayable(f"a {what} query case needs {', '.join(missing)}")
        out.append(system_case(
            f"casebook.{case.id.lower()}.{number}", what, args, expect,
            description=f"casebook {case.id} ({case.title}) under {exp.label}",
            origin="casebook", profile=exp.profile, overrides=dict(exp.overrides),
            clauses=known(case.clauses), source=_source(case, number)))
    return out


def casebook_cases() -> tuple[list[Case], list[dict[str, str]]]:
    """One case per casebook expectation, and a note for each that no deal can reach."""
    cases: list[Case] = []
    notes: list[dict[str, str]] = []
    for case in casebook():
        more, why = ruling_cases(case)
        cases.extend(more)
        notes.extend(why)
    return cases, notes


def ruling_cases(case: AnyRuling) -> tuple[list[Case], list[dict[str, str]]]:
    """The cases of one ruling file (of any kind), and a note for each expectation that no deal
    can reach. The casebook's cases are made here, and so are those of a user's own ruling
    (``ginspec conform --suite mine.toml``)."""
    cases: list[Case] = []
    notes: list[dict[str, str]] = []
    stem = Path(case.path).stem
    if isinstance(case, GameRuling):
        cases.extend(_game_case(case, exp, n) for n, exp in enumerate(case.expectations, 1))
        return cases, notes
    if isinstance(case, TableRulingCase):
        for n, texp in enumerate(case.expectations, 1):
            try:
                cases.append(_table_case(case, texp, n))
            except NotPlayable as why:
                notes.append({"example": f"{case.id} #{n}", "kind": "casebook", "reason": str(why)})
        return cases, notes
    if isinstance(case, ScoreRuling) and case.kind == "match":
        return _match_cases(case), notes
    if isinstance(case, ScoreRuling):
        try:
            cases.extend(_system_cases(case))
        except NotPlayable as why:
            notes.append({"example": case.id, "kind": "casebook", "reason": str(why)})
        return cases, notes
    for number, exp in enumerate(case.expectations, 1):
        case_id = f"casebook.{case.id.lower()}.{number}"
        try:
            deal, moves, refused = _script(case, exp)
            start, final, steps, rejection = _play(deal, moves, exp, refused)
        except NotPlayable as why:
            notes.append({"example": f"{case.id} #{number}", "kind": "casebook", "reason": str(why)})
            continue
        if rejection is None:
            _check(case, exp, final)
        extra: dict[str, Any] = (
            {"violates": known([rejection.clause])}
            if rejection is not None
            else {
                "result": hand_result(final),
                "decides": known(final.result.score.clauses if final.result else ()),
            }
        )
        cases.append(
            Case.make(
                id=case_id,
                kind="hand",
                origin="casebook",
                description=f"casebook {case.id} ({case.title}) under {exp.label}: {exp.outcome}",
                clauses=known([*DEAL_CLAUSES, *case.clauses]),
                profile=exp.profile,
                overrides=dict(exp.overrides),
                requires=[*REQUIRES, *(["rejection-codes"] if rejection is not None else [])],
                source={"generator": "casebook", "ruling": f"spec/casebook/{stem}.toml", "expectation": number},
                deals=[deal_json(start)],
                steps=steps,
                checkpoints=[checkpoint(start, 0, legal=True), checkpoint(final, len(steps), legal=False)],
                **extra,
            )
        )
    return cases, notes

"""The clause deciding each expectation the suite builder records (ginspec suite build): for an
accepted step, the clauses that permit it against particular refusal codes (``against``); for a
refused one, the rejection's clause; for each checkpoint field and legal action, the rule that
decides it (``blame``); for a hand's result fields, the scoring trail's clauses.

The runner blames the clause recorded for the first expectation that differs (conformance/CASES.md,
"Blame"); it never calls the reference. These functions read the reference adapter the builder
replays a scenario with (:mod:`ginspec.conformance.generate.rulesets`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ginspec.conformance.adapters.reference_game import GameDriver, profile_params
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.generate.playouts import engine_player
from ginspec.conformance.mismatch import blame_key
from ginspec.reference.adjudicate import adjudicate
from ginspec.reference.game import MalformedAction, parse_action, showdown
from ginspec.reference.game.actions import Action, Kind, canonical_melds, format_action
from ginspec.reference.game.deal import split_deck
from ginspec.reference.game.state import Phase
from ginspec.reference.layoffs import ShowdownRules, best_defence
from ginspec.reference.melds import Meld, all_melds, check_meld, min_deadwood, min_deadwood_after_discard
from ginspec.reference.scoring import ScoringError, knock_limit_for, score_hand
from ginspec.reference.typed_rules import Rules, to_rules
from ginspec.spec.cards import card_str, card_value, cards_of, mask_of, parse_card
from ginspec.spec.clauses import registry
from ginspec.spec.errors import CardError, GinspecError
from ginspec.spec.parameters import complete, parameters


def _game(adapter: Any) -> GameDriver | None:
    """The reference GameDriver behind a two-player hand or match adapter (None at the table)."""
    game = adapter._driver()
    return game if isinstance(game, GameDriver) else None


def refusal_clause(adapter: Any) -> str | None:
    """The clause the reference cites for the action it just refused (a match's WRONG_DEALER
    names MATCH.NEXT-DEALER or WALL.REDEAL, which the hand alone cannot tell)."""
    game = _game(adapter)
    if game is None or game.rejection is None:
        return None
    return _run_rule_refusal(game.state(), game.rejection) or \
        _gin_only(game.state().rules, game.rejection) or game.rejection.clause


def _gin_only(rules: Any, rejection: Any) -> str | None:
    """A knock refused over a limit of 0: no knock with deadwood at all (STRAIGHT.GIN-ONLY),
    whatever the count."""
    if rejection.code.value == "KNOCK_OVER_LIMIT" and _limit_clause(rules) == "STRAIGHT.GIN-ONLY":
        return "STRAIGHT.GIN-ONLY"
    return None


def _run_rule_refusal(state: Any, rejection: Any) -> str | None:
    """A knock refused over the limit that a wider run rule would allow: the run rule decides
    (MELD.RUN.ACE-LOW when Q-K-A would rescue it, MELD.RUN.NO-WRAP when a run turning the corner
    would), not the count (KNOCK.ELIGIBLE)."""
    words = rejection.action.split()
    if rejection.code.value != "KNOCK_OVER_LIMIT" or len(words) != 2 or state.to_move not in (0, 1):
        return None
    rest = state.hands[state.to_move] & ~(1 << parse_card(words[1]))
    return _wider_run_rule(rest, state.knock_limit, state.rules.meld_rules)


def _wider_rules(rules: Any) -> list[tuple[str, Any]]:
    """The run rules wider than ``rules`` (a MeldRules), narrowest first, each with its
    parameter: Q-K-A allowed (``ace_high_runs``), then runs turning the corner as well."""
    wider = [("ace_high_runs", replace(rules, ace_high_runs=True)),
             ("wraparound_runs", replace(rules, ace_high_runs=True, wraparound_runs=True))]
    return [(parameters()[name].clause, alt) for name, alt in wider if alt != rules]


def _wider_run_rule(cards: int, limit: int, rules: Any, discard: bool = False) -> str | None:
    """The clause of the narrowest wider run rule (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP) under
    which ``cards`` (after the best discard, with ``discard``) would have deadwood within
    ``limit``, when they do not under ``rules``; None if none would."""
    least = min_deadwood_after_discard if discard else min_deadwood
    return next((clause for clause, alt in _wider_rules(rules) if least(cards, alt) <= limit),
                None)


def opens_later_hand(adapter: Any) -> str | None:
    """Before a match's second or later hand has its first action: the clause that decided
    the match goes on with this dealer (None otherwise)."""
    game = _game(adapter)
    if game is None or game.match is None or game.match.hand.history:
        return None
    return _dealer_clause(game.match)


def ended_hand(adapter: Any, before: Any) -> str | None:
    """After a match's step that ended a hand and dealt the next: the clause that chose the
    next dealer (None otherwise)."""
    game = _game(adapter)
    if game is None or game.match is None or before is None or game.match.hand is before \
            or game.match.hand.history:
        return None
    return _dealer_clause(game.match)


def _dealer_clause(match: Any) -> str | None:
    """The clause that chose the dealer of the match's current hand (after its first)."""
    if not match.results:
        return None
    return "MATCH.NEXT-DEALER" if match.results[-1].winner is not None else "WALL.REDEAL"


def match_score_blame(match: Any) -> dict[str, str]:
    """Once a hand of ``match`` is over (``match.scores``, protocol 4): the last hand's points
    are its scoring trail's (SCORE.GIN, SCORE.UNDERCUT, ... :func:`score_blame`); the scores
    toward the target, compared after them, are MATCH.CUMULATIVE's, or MATCH.BOX-TARGET's once
    boxes with points have been earned (whether they count toward the target decides)."""
    if not match.results:
        return {}
    last = match.results[-1]
    trail = score_blame([c for c in last.score.clauses if c.startswith(("SCORE.", "GIN.",
                                                                         "KNOCK."))], last.points)
    boxed = match.rules.box_bonus and any(match.tally.boxes)
    return {"last_points": trail.get("points", "SCORE.VOID"),
            "match_scores": "MATCH.BOX-TARGET" if boxed else "MATCH.CUMULATIVE"}


def final_score_blame(match: Any) -> dict[str, str]:
    """A finished match's result fields: the box points are MATCH.BOX's (MATCH.EXTRA-BOXES's
    when extra boxes were earned), the game bonus MATCH.GAME-BONUS's, the final totals (compared
    after them) MATCH.SHUTOUT's in a shutout, else MATCH.SETTLEMENT's."""
    tally, final = match.tally, match.final
    extra = tally.boxes != tally.hands_won and bool(match.rules.extra_boxes)
    return {"match_totals": match_score_blame(match).get("match_scores", "MATCH.CUMULATIVE"),
            "box_points": "MATCH.EXTRA-BOXES" if extra else "MATCH.BOX",
            "game_bonus": "MATCH.GAME-BONUS",
            "final_totals": "MATCH.SHUTOUT" if final is not None and final.shutout_extra
            else "MATCH.SETTLEMENT"}


def _dealt(state: Any, player: int) -> int:
    """The cards the deal gave ``player`` (a mask; DEAL.HANDS, ELEVEN.DEAL)."""

    non_dealer, dealer, _, _ = split_deck(state.deal, state.rules.eleven_card_start)
    return int(mask_of(dealer if player == state.deal.dealer else non_dealer))


def _first_turn_clause(rules: Any) -> str:
    """The clause of the first turn the rules play (FIRST.*, ELEVEN.*)."""
    if rules.eleven_card_start:
        return "ELEVEN.DEAL"
    return "FIRST.PLAIN" if rules.plain_first_turn else "FIRST.UPCARD-OFFER"


def _limit_clause(rules: Any) -> str:
    """The clause that sets the knock limit under ``rules`` (KNOCK.LIMIT's parameter)."""

    if rules.knock_limit_from_upcard:
        return "OKLAHOMA.KNOCK-LIMIT"
    if rules.knock_limit == 0:
        return "STRAIGHT.GIN-ONLY"  # gin only: no knock with deadwood
    return parameters()["knock_limit"].clause


def step_against(state: Any, action: str, opening: str | None, ended: str | None) -> dict[str, str]:
    """For an action the reference accepts in ``state``: refusal code -> the clause that permits
    the action against that objection, for the objections a rule (not the engine's own
    position) decides. An engine refusing the step with one of these codes applies that rule
    where the spec does not, so that clause is blamed rather than the step's generic one."""

    rules = state.rules
    words = action.split()
    verb = words[0].lower() if words else ""
    phase = state.phase
    out: dict[str, str] = {}
    if not state.history and state.to_move is not None:
        first = _first_turn_clause(rules)  # the hand's first action: the first-turn rule
        if rules.eleven_card_start and verb == "knock":
            first = "ELEVEN.FIRST-TURN"  # the opening turn may knock
        out.update(WRONG_PHASE=first, NOT_YOUR_TURN=first)
    if phase in (Phase.DRAW, Phase.DISCARD, Phase.FIRST_DRAW) and state.history:
        wall = _wall_clause(rules)
        out["HAND_OVER"] = wall  # at a turn only the wall ends a hand
        if _near_wall(state):  # an engine with another wall is already past it
            out.update(WRONG_PHASE=wall, NOT_YOUR_TURN=wall)
    if verb in ("discard", "knock") and len(words) == 2 and phase is Phase.DISCARD:
        card = parse_card(words[1])
        if state.to_move in (0, 1) and _dealt(state, state.to_move) >> card & 1:
            out["CARD_NOT_IN_HAND"] = "ELEVEN.DEAL" if rules.eleven_card_start else "DEAL.HANDS"
        if card == state.taken:
            out["DISCARD_OF_TAKEN_CARD"] = "TURN.DISCARD-TAKEN"
        if not rules.gin_compulsory and state.gin_available() \
                and (verb == "discard" or state.after_discard().get(card, 0) > 0):
            out["GIN_COMPULSORY"] = "KNOCK.OPTIONAL"
        if verb == "knock":  # the deadwood reaches the limit exactly: the limit decides
            tight = state.after_discard().get(card) == state.knock_limit
            out["KNOCK_OVER_LIMIT"] = _limit_clause(rules) if tight else "KNOCK.ELIGIBLE"
    if phase is Phase.WALL and verb == "take-discard" and rules.wall_action != "take_and_play_on" \
            and state.rejection(action, state.to_move) is None:
        taken = state.apply(action, state.to_move)  # the take must lead to a knock at once
        kept = taken.after_discard()
        least = min((kept[a.card] for a in taken.legal_actions()
                     if a.kind is Kind.KNOCK and a.card is not None), default=None)
        out["WALL_TAKE_WITHOUT_KNOCK"] = _limit_clause(rules) if least == state.knock_limit \
            else "WALL.LAST-CHANCE"  # only a knock exactly at the limit: the limit decides
    if verb == "declare" and state.knocker is not None:
        tight = _declared_deadwood(state, action) == state.knock_limit
        out["DECLARATION_OVER_LIMIT"] = _limit_clause(rules) if tight else \
            "SHOWDOWN.DECLARATION"
        if rules.gin_compulsory and not state.gin_required and state.knock_card is not None:
            held = state.hands[state.knocker] | 1 << state.knock_card  # gin at the knock would
            wider = _wider_run_rule(held, 0, rules.meld_rules, discard=True)  # force gin
            if wider:
                out["DECLARATION_OVER_LIMIT"] = wider
    if phase in (Phase.DEFENDER_MELD, Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
        if state.gin:
            out["HAND_OVER"] = out["LAYOFF_AFTER_GIN"] = "LAYOFF.AFTER-GIN"
        if phase is Phase.KNOCKER_LAYOFF:
            out["HAND_OVER"] = out["LAYOFF_BY_KNOCKER"] = "LAYOFF.KNOCKER"
        if verb == "layoff":
            out["LAYOFF_CHAINED"] = "LAYOFF.CHAIN"
    if ended is not None:
        out["WRONG_DEALER"] = ended
    if opening is not None:  # a later hand of a match: the match went on, with this dealer
        target = "OKLAHOMA.TARGET" if rules.knock_limit_from_upcard else "MATCH.TARGET"
        out.update(HAND_OVER=target, NOT_YOUR_TURN=opening, WRONG_DEALER=opening)
    return out


def refusal_against(state: Any, action: str, code: str | None,
                    opening: str | None) -> dict[str, str]:
    """For an action the reference refuses in ``state`` with ``code``: another refusal code ->
    the rule that says the action is not refused for that reason (the same rules as
    :func:`step_against`: the first-turn rule against a wrong phase or turn at a hand's first
    action, the knock limit against ``KNOCK_OVER_LIMIT`` or ``DECLARATION_OVER_LIMIT`` when the
    deadwood is exactly the limit, DEAL.HANDS against ``CARD_NOT_IN_HAND`` for a dealt card).
    An engine that refuses the action with that code applies the rule wrongly. A refusal for
    the turn or the phase keeps its own clause against another of those codes: which of them
    applies is ACTION.TURN-ORDER's and ACTION.PHASE's, not the first turn's."""
    turn = ("WRONG_PHASE", "NOT_YOUR_TURN", "HAND_OVER")
    return {k: v for k, v in step_against(state, action, opening, None).items()
            if k != code and not (code in turn and k in turn)}


def _declared_deadwood(state: Any, action: str) -> int | None:
    """The knocker's declared deadwood (SHOWDOWN.DECLARATION) if he declared ``action``: the
    value of the cards he holds in none of its melds (None for a malformed declaration)."""
    try:
        melds = parse_action(action).melds
    except MalformedAction:
        return None
    used = 0
    for group in melds:
        used |= int(mask_of(group))
    rest = state.hands[state.knocker] & ~used
    ace = state.rules.meld_rules.ace_value
    return sum(card_value(c, ace) for c in cards_of(rest))


def score_blame(trail: Sequence[str], points: Sequence[int]) -> dict[str, str]:
    """The scoring trail's clauses for ``outcome`` and ``points``: the first rule names the
    outcome; the points are counted by the last rule with a points parameter (an ``int``
    parameter of the spec, e.g. SCORE.UNDERCUT's ``undercut_bonus`` after SCORE.TIE made a tie
    an undercut), unless nobody scores (the last rule cancelled it)."""

    deciding = [c for c in trail if c != "SCORE.HAND-WINNER"]
    if not deciding:
        return {}
    counting = [c for c in deciding if c in registry() and any(
        parameters()[n].type == "int" for n in registry()[c].params if n in parameters())]
    last = counting[-1] if counting and any(points) else deciding[-1]
    return {"outcome": deciding[0], "points": last}


def _wall_clause(rules: Any) -> str:
    """The clause that ends a hand at the wall under ``rules`` (WALL.END or WALL.RESHUFFLE)."""
    return "WALL.RESHUFFLE" if rules.wall_action == "reshuffle" else "WALL.END"


def _near_wall(state: Any) -> bool:
    """The stock is within two draws of the wall (WALL.END): a wall one or two cards off
    changes what happens next."""
    return bool(len(state.stock) - state.rules.wall_size <= 2)


def _legal_blame(state: Any, point: Mapping[str, Any]) -> dict[str, str]:
    """For a checkpoint's legal actions: action -> the clause deciding whether it is legal now
    (a refused action: its rejection's clause; a legal one: the rule it is legal against, from
    :func:`step_against`, when a rule and not the position decides), and ``*`` -> the clause for
    an action the engine offers that is not listed (in the declare phase the limit, or
    KNOCK.GIN-COMPULSORY when the knocker had to go gin)."""

    listed = {a for k in ("legal_actions", "legal_includes", "legal_excludes")
              for a in point.get(k, [])}
    if not listed:
        return {}
    if point.get("legal_actions") is not None and state.phase is Phase.DISCARD \
            and state.to_move in (0, 1):

        held = cards_of(state.hands[state.to_move])  # a discard or knock the rules refuse
        listed |= {f"{verb} {card_str(c)}" for c in held for verb in ("discard", "knock")}
    out: dict[str, str] = {}
    for action in sorted(listed):
        refusal = state.rejection(action, state.to_move if state.to_move in (0, 1) else None)
        if refusal is not None:
            if refusal.clause not in ("ACTION.PHASE", "ACTION.TURN-ORDER", "ACTION.GRAMMAR"):
                out[action] = _gin_only(state.rules, refusal) or refusal.clause
            continue
        permits = step_against(state, action, None, None)
        # a knock at exactly the limit while gin is possible is permitted by both the limit and
        # optional gin: the limit is named, and optional gin by the discards the case also lists
        for code in ("KNOCK_OVER_LIMIT", "GIN_COMPULSORY", "DISCARD_OF_TAKEN_CARD",
                     "DECLARATION_OVER_LIMIT", "WALL_TAKE_WITHOUT_KNOCK"):
            if permits.get(code) not in (None, "KNOCK.ELIGIBLE", "SHOWDOWN.DECLARATION"):
                out[action] = permits[code]  # a rule, not the hand's own count, decides
                break
    if "legal_actions" in point:
        out.update({a: c for a, c in _wider_spreads(state).items() if a not in out})
    if state.phase is Phase.DECLARE and "legal_actions" in point:  # a declaration not listed
        # has too much deadwood: over the limit, or any at all when the knocker had to go gin
        out["*"] = "KNOCK.GIN-COMPULSORY" if state.gin_required else _limit_clause(state.rules)
    return out


def _wider_spreads(state: Any) -> dict[str, str]:
    """In the declare or defender-meld phase: each declaration or spread the rules refuse that
    a wider run rule would allow (a group that is a run only with Q-K-A, or turning the corner)
    -> that rule (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP), narrowest first."""
    if state.phase not in (Phase.DECLARE, Phase.DEFENDER_MELD) or state.to_move not in (0, 1):
        return {}
    hand = state.hands[state.to_move]
    rules = state.rules.meld_rules
    out: dict[str, str] = {}
    for clause, alt in _wider_rules(rules):
        if state.phase is Phase.DECLARE:
            srules = replace(state.showdown_rules(), meld_rules=alt)
            spreads = [d.melds for d in showdown.legal_declarations(hand, srules)]
            kind = Kind.DECLARE
        else:
            spreads = list(showdown.disjoint_meld_sets(hand, alt))
            kind = Kind.MELD
        for melds in spreads:
            if all(check_meld(m.cards, rules).valid for m in melds):
                continue  # no wider run in it: the rules decide it as they stand
            text = format_action(Action(kind, melds=canonical_melds(m.cards for m in melds)), alt)
            if text not in out and state.rejection(text, state.to_move) is not None:
                out[text] = clause
    return out


def _table_legal_blame(table: Any, point: Mapping[str, Any]) -> dict[str, str]:
    """At the table, in the layoff phase, for a checkpoint listing legal actions: each layoff of
    a card the defender holds onto a card on the table that the reference refuses because the
    card was laid off before (TABLE.LAYOFF-ORIGINAL) -> that clause, so an engine offering it is
    blamed on that rule."""
    if table is None or getattr(table.phase, "value", None) != "layoff" or table.to_move is None \
            or not any(k in point for k in ("legal_actions", "legal_includes", "legal_excludes")):
        return {}
    held = cards_of(table.dead[table.to_move]) if table.dead else ()
    on_table = sorted({c for m in table.table for c in cards_of(m.mask)})
    out: dict[str, str] = {}
    for card in held:
        for target in on_table:
            action = f"layoff {card_str(card)} to {card_str(target)}"
            refusal = table.rejection(action, table.to_move)
            if refusal is not None and refusal.clause == "TABLE.LAYOFF-ORIGINAL":
                out[action] = refusal.clause
    return out


def ended_by_refused(state: Any, action: str, player: Any) -> dict[str, str]:
    """For an action the reference refuses only because of the next deal's dealer
    (WRONG_DEALER: the action itself ends the hand): ``phase:<phase>`` -> the rule that ends the
    hand with it, for an engine that accepts it and plays on in that phase (:func:`still_playing`)."""
    try:
        hand = state.apply(action, engine_player(player))
    except GinspecError:
        return {}
    return still_playing(hand.result, state.rules) if hand.result is not None else {}


def still_playing(result: Any, rules: Any) -> dict[str, str]:
    """For a hand that is over (``result``): ``phase:<phase>`` -> the rule that ended it before
    that phase, for an engine still in it: the knocker does not lay off (LAYOFF.KNOCKER), nobody
    lays off onto gin (LAYOFF.AFTER-GIN)."""
    if result.knocker is None:
        return {}
    if result.outcome.value in ("gin", "big_gin"):
        if rules.layoff_after_gin == "forbidden":
            return {f"phase:{Phase.DEFENDER_LAYOFF.value}": "LAYOFF.AFTER-GIN"}
        return {}
    if not rules.knocker_may_lay_off:
        return {f"phase:{Phase.KNOCKER_LAYOFF.value}": "LAYOFF.KNOCKER"}
    return {}


def point_blame(adapter: Any, point: Mapping[str, Any]) -> dict[str, str]:
    """The clause deciding each field a checkpoint observes, where a rule decides it (the
    runner blames it when that field is the first to differ)."""
    face_down = parameters()["knock_card_face_up"].clause
    game = _game(adapter)
    state = None if game is None else game.state()
    if state is None:  # the table: its knock card lies face down too
        table = getattr(adapter._driver(), "state", None)
        out = {f"legal:{a}": c for a, c in _table_legal_blame(table, point).items()}
        if "discard_top" in point and getattr(table, "knock_card", None) is not None:
            out["discard_top"] = face_down
        return out
    blame: dict[str, str] = {}
    rules = state.rules
    if not state.history:  # the deal and the first turn
        later = opens_later_hand(adapter)
        first = later or _first_turn_clause(rules)
        eleven = rules.eleven_card_start and not later
        dealt = {"hand_sizes": "DEAL.HANDS", "hands": "DEAL.HANDS", "discard_top": "DEAL.UPCARD",
                 "stock_size": "DEAL.STOCK"}
        for name in point:
            if name.startswith("legal_"):
                blame[name] = "ELEVEN.FIRST-TURN" if eleven else first
            elif name in ("phase", "to_act"):
                blame[name] = first
            elif name in dealt and not later:
                blame[name] = "ELEVEN.DEAL" if eleven else dealt[name]
        if later and "phase" in point and game is not None and game.match is not None:
            blame.update(still_playing(game.match.results[-1], rules))
            blame[f"phase:{Phase.OVER.value}"] = _ends_clause(rules)  # the game went on
    if "discard_top" in point and state.knock_card is not None:
        blame["discard_top"] = face_down  # the knock card lies face down
    phase = point.get("phase")
    if phase == Phase.OVER.value and state.result is not None and "phase" in point:
        blame.update(still_playing(state.result, rules))
    if phase == Phase.OVER.value and state.history and state.knocker is not None:
        last = state.history[-1][1].kind.value
        if state.gin and rules.layoff_after_gin == "forbidden":
            blame["phase"] = "LAYOFF.AFTER-GIN"  # no layoffs against gin
        elif last == "done" and not rules.knocker_may_lay_off:
            blame["phase"] = "LAYOFF.KNOCKER"  # the knocker does not lay off
    elif phase in (Phase.DRAW.value, Phase.DISCARD.value) and state.history \
            and _near_wall(state):
        blame["phase"] = _wall_clause(rules)
    if game is not None and game.match is not None and game.match.results:
        blame.update(match_score_blame(game.match))
    blame = {k: v for k, v in blame.items() if k.split(":")[0] in point}
    legal = _legal_blame(state, point)
    if legal:
        blame.update({f"legal:{a}": c for a, c in legal.items()})
    return blame


def query_blame(case: Any, profile: str | None, answer: Mapping[str, Any]) -> dict[str, str]:
    """The clause deciding each field of the reference's ``answer`` to a query case under
    ``profile``: the rule the reference applied for that question (the scoring trail of a
    ``score``, the knock limit for a knock deadwood at the limit, ...), else the clause the case
    names for the field (``source`` ``blame.<field>``, its one decided clause). A field no rule
    can be named for is an error of the case, found at build time. A system game that ends with
    its last hand also names, for an engine answering an error, the clause of ``over``: the
    game ended earlier for that engine."""
    query = case.query
    what = str(query["what"])
    params: dict[str, Any] | None
    try:  # profile null: the catalogue defaults and the overrides (PROTOCOL.md)
        params = profile_params(profile, case.overrides) if profile is not None \
            else complete(dict(case.overrides))
    except GinspecError:  # a game system's question: its profile is not a two-player ruleset
        params = None
    decided = {} if params is None else _QUERY_BLAME.get(what, _no_rule)(query, params, answer)
    source = case.data.get("source", {})
    named = source.get("blame") or (case.decides[0] if len(case.decides) == 1 else None)
    out = {k: v for k, v in decided.items() if "[" in k}  # a list's items, hand by hand
    for name in answer:
        clause = decided.get(name) or source.get(f"blame.{name}") or named \
            or _FIELD_CLAUSES.get(name)
        if clause is None:
            raise GinspecError(f"case {case.id}: no clause decides query field {name!r} "
                               f"({what}): name one in source blame.{name}")
        out[name] = str(clause)
    out.update({k: v for k, v in decided.items() if ":" in k})  # one wrong answer's clause
    if QUERY_KINDS[what].family == "system" and answer.get("over") is True:
        # every listed hand was played before the game ended with the last: an engine answering
        # an error ended it earlier (the runner reports the error at the first field)
        out.setdefault(blame_key(next(iter(answer)), "error"), out["over"])
    return out


_FIELD_CLAUSES: dict[str, str] = {"deadwood": "DEADWOOD.MINIMUM", "optimal": "DEADWOOD.MINIMUM"}
"""The clause a query field answers when the question names no other: a least deadwood is
DEADWOOD.MINIMUM's."""


def _no_rule(query: Mapping[str, Any], params: Mapping[str, Any],
             answer: Mapping[str, Any]) -> dict[str, str]:
    return {}


def _knock_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                 answer: Mapping[str, Any]) -> dict[str, str]:
    """``knock``: the knock deadwood and best discards are KNOCK.ELIGIBLE's; whether the hand
    may knock is the limit's when the knock deadwood is at it or one above (the limit decides)
    or the limit is 0 (gin only, STRAIGHT.GIN-ONLY), else KNOCK.ELIGIBLE's."""
    upcard = parse_card(str(query["upcard"])) if "upcard" in query else None
    limit = knock_limit_for(params, upcard)
    deadwood = answer.get("deadwood")
    tight = isinstance(deadwood, int) and (deadwood - limit in (0, 1) or limit == 0)
    return {"deadwood": "KNOCK.ELIGIBLE", "best_discards": "KNOCK.ELIGIBLE",
            "can_knock": _limit_clause(_rules_of(params)) if tight else "KNOCK.ELIGIBLE",
            "gin": "KNOCK.GIN", "big_gin": "KNOCK.BIG-GIN"}


def _deadwood_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                    answer: Mapping[str, Any]) -> dict[str, str]:
    """``deadwood``: the answer a wider run rule would give is that rule's
    (``deadwood:<n>`` -> MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP); and when no two melds of the hand
    share a card there is one way to meld it (every meld), so the values of the cards left over
    decide it (CARD.VALUE), not a choice among arrangements (DEADWOOD.MINIMUM)."""
    try:
        cards = [parse_card(str(c)) for c in query["cards"]]
    except CardError:
        return {}
    rules = _rules_of(params).meld_rules
    least = min_deadwood(cards, rules)
    out: dict[str, str] = {}
    for clause, alt in _wider_rules(rules):
        other = min_deadwood(cards, alt)
        if other != least:
            out.setdefault(blame_key("deadwood", other), clause)
    used = 0
    for meld in all_melds(cards, rules):
        mask = int(mask_of(meld.cards))
        if used & mask:
            return out
        used |= mask
    return {**out, "deadwood": "CARD.VALUE"}


def _declaration_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                       answer: Mapping[str, Any]) -> dict[str, str]:
    """``declaration``: a group that is a run only under a wider run rule is that rule's
    (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP); a declared deadwood exactly at the knock limit makes
    the limit decide an answer that it is over the limit (``valid:false``,
    ``code:DECLARATION_OVER_LIMIT``)."""
    rules = _rules_of(params)
    try:
        groups = [[parse_card(str(c)) for c in g] for g in query["melds"]]
        held = int(mask_of([parse_card(str(c)) for c in query["cards"]]))
        limit = knock_limit_for(params, parse_card(str(query["upcard"]))
                                if query.get("upcard") is not None else None)
    except GinspecError:
        return {}
    for group in groups:
        if not check_meld(group, rules.meld_rules).valid:
            wider = next((c for c, alt in _wider_rules(rules.meld_rules)
                          if check_meld(group, alt).valid), None)
            return {"valid": wider, "code": wider} if wider else {}
    used = 0
    for group in groups:
        used |= int(mask_of(group))
    deadwood = sum(card_value(c, rules.meld_rules.ace_value) for c in cards_of(held & ~used))
    if deadwood != limit:
        return {}
    clause = _limit_clause(rules)
    return {"valid:false": clause, "code:DECLARATION_OVER_LIMIT": clause}


def _hand_score(query: Mapping[str, Any], params: Mapping[str, Any], item: Sequence[Any]) -> Any:
    """The reference's score of a ``match``/``next-dealer`` hand item (None for a void hand)."""
    if list(item) == ["void"]:
        return None
    upcard = parse_card(str(query["upcard"])) if query.get("upcard") is not None else None
    _, outcome, kd, dd = item
    return score_hand(str(outcome), int(kd), int(dd), params, upcard=upcard)  # type: ignore[arg-type]


def _next_dealer_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                       answer: Mapping[str, Any]) -> dict[str, str]:
    """``next-dealer``: the hand's winner (``match.scores``, compared first) is its scoring
    trail's outcome rule (SCORE.TIE for a tie, ...); the next dealer MATCH.NEXT-DEALER's after
    a hand somebody won, WALL.REDEAL's otherwise."""
    hand = _hand_score(query, params, query["hand"])
    won = hand is not None and hand.winner is not None
    winner = "SCORE.VOID" if hand is None else score_blame(
        [c for c in hand.clauses if c.startswith(("SCORE.", "GIN.", "KNOCK."))],
        (hand.knocker, hand.defender)).get("outcome", "SCORE.HAND-WINNER")
    return {"hand_winner": winner, "next": "MATCH.NEXT-DEALER" if won else "WALL.REDEAL"}


def _scored(query: Mapping[str, Any], params: Mapping[str, Any], outcome: str,
            knocker: int, defender: int) -> dict[str, str]:
    """The scoring trail (:func:`score_blame`) of a hand going out by ``outcome`` (``knock``,
    ``gin``, ``big_gin``) with these deadwoods after layoffs ({} for no legal hand)."""
    upcard = parse_card(str(query["upcard"])) if query.get("upcard") is not None else None
    try:
        hand = score_hand(outcome, knocker, defender, params, upcard=upcard)  # type: ignore[arg-type]
    except ScoringError:
        return {}
    return score_blame([c for c in hand.clauses if c.startswith(("SCORE.", "GIN.", "KNOCK."))],
                       (hand.knocker, hand.defender))


def _score_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                 answer: Mapping[str, Any]) -> dict[str, str]:
    """``score``: the scoring trail (:func:`score_blame`): the outcome's rule decides the
    winner and the undercut, the counting rule the points; boxes are MATCH.BOX's (with extra
    boxes, MATCH.EXTRA-BOXES's). A knock with no deadwood is no legal hand because the knocker
    may not lay off (LAYOFF.KNOCKER: only his own layoffs could bring a knock to 0)."""
    if query.get("outcome") == "knock" and query.get("knocker_deadwood") == 0 \
            and answer.get("error") and not _rules_of(params).knocker_may_lay_off:
        return {"error": "LAYOFF.KNOCKER"}
    trail = _scored(query, params, str(query["outcome"]), int(query["knocker_deadwood"]),
                    int(query["defender_deadwood"]))
    if not trail:
        return {}
    boxes = "MATCH.EXTRA-BOXES" if _rules_of(params).extra_boxes else "MATCH.BOX"
    return {"points": trail["points"], "winner": trail["outcome"], "undercut": trail["outcome"],
            "boxes": boxes}


_GOING_OUT: dict[str, str] = {"knock": "knock", "undercut": "knock", "tie": "knock",
                              "gin": "gin", "gin_cancelled": "gin", "big_gin": "big_gin"}
"""How the knocker went out, by the outcome of a ruling (``score_hand``'s ``outcome``)."""


def _adjudicate_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                      answer: Mapping[str, Any]) -> dict[str, str]:
    """``adjudicate``: SHOWDOWN.COMPARE decides the outcome when the defender's layoffs turn
    the comparison (his deadwood before them would give another outcome); LAYOFF.CHAIN the
    deadwood when the other chain rule would leave the defender other deadwood against the
    ruled declaration; the points, compared after the deadwood and the outcome, are the scoring
    trail's (SCORE.GIN, SCORE.UNDERCUT, ...)."""
    out: dict[str, str] = {}
    deadwood, outcome = answer.get("deadwood"), answer.get("outcome")
    ruling = _ruling(query, params)
    if ruling is not None and ruling.declaration is not None and ruling.defence is not None \
            and ruling.defender_deadwood is not None and _chain_decides(
                ruling.declaration.melds, [parse_card(str(c)) for c in query["defender"]],
                params, ruling.knocker_deadwood == 0, ruling.defender_deadwood):
        out["deadwood"] = "LAYOFF.CHAIN"  # the chain rule decides the defender's deadwood
    elif ruling is not None and ruling.declaration is not None:
        out.update(_ruling_run_rule(query, params, ruling))  # a wider run rule's deadwood
        out.update(_ruling_limit(query, params, ruling))  # the next limit's deadwood
    if ruling is not None:
        out.update(_legality_blame(query, params, ruling))
    if isinstance(deadwood, Mapping) and outcome in _GOING_OUT:
        points = _scored(query, params, _GOING_OUT[str(outcome)], int(deadwood["knocker"]),
                         int(deadwood["defender"])).get("points")
        if points is not None:
            out["points"] = points
    laid = answer.get("layoffs") if "layoffs" in answer else _ruled_layoffs(query, params)
    if isinstance(deadwood, Mapping) and outcome in ("knock", "undercut", "tie") and laid:
        ace = _rules_of(params).ace_value
        before = deadwood["defender"] + sum(card_value(parse_card(c), ace) for c in laid)
        knocker = deadwood["knocker"]
        if (knocker < before) != (knocker < deadwood["defender"]) or \
                (knocker == before) != (knocker == deadwood["defender"]):
            out["outcome"] = "SHOWDOWN.COMPARE"
    return out


def _ruling(query: Mapping[str, Any], params: Mapping[str, Any]) -> Any:
    """The reference's ruling on an ``adjudicate`` question (None for an input error)."""
    def cards(tokens: Any) -> list[int]:
        return [parse_card(str(t)) for t in tokens]

    try:
        melds = query.get("knocker_melds")
        return adjudicate(cards(query["knocker"]), cards(query["defender"]), params,
                          knocker_melds=None if melds is None else [cards(m) for m in melds],
                          upcard=None if query.get("upcard") is None
                          else parse_card(str(query["upcard"])))
    except GinspecError:
        return None


def _ruled_layoffs(query: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """The defender's layoffs in the reference's ruling on an ``adjudicate`` question (for an
    expectation that does not list them): what turns the comparison (SHOWDOWN.COMPARE)."""
    ruling = _ruling(query, params)
    defence = (None if ruling is None else ruling.to_json().get("defender")) or {}
    return [str(lay["card"]) for lay in defence.get("layoffs", [])]


def _ruling_run_rule(query: Mapping[str, Any], params: Mapping[str, Any],
                     ruling: Any) -> dict[str, str]:
    """``deadwood:<answer>`` -> the wider run rule (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP) under
    which the ruling on an ``adjudicate`` question would give that other deadwood (only where a
    suit of the two hands holds its king and ace: no other hand has a run a wider rule adds)."""
    cards = [parse_card(str(c)) for c in (*query["knocker"], *query["defender"])]
    if not any(13 * s + 12 in cards and 13 * s in cards for s in range(4)):
        return {}
    out: dict[str, str] = {}
    for clause, alt in _wider_rules(_rules_of(params).meld_rules):
        other = _ruling(query, {**params, "ace_high_runs": True,
                                "wraparound_runs": alt.wraparound_runs})
        if other is not None and other.knocker_deadwood is not None and (
                other.knocker_deadwood, other.defender_deadwood) != (
                ruling.knocker_deadwood, ruling.defender_deadwood):
            deadwood = {"knocker": other.knocker_deadwood, "defender": other.defender_deadwood}
            out.setdefault(blame_key("deadwood", deadwood), clause)
    return out


def _ruling_limit(query: Mapping[str, Any], params: Mapping[str, Any],
                  ruling: Any) -> dict[str, str]:
    """``deadwood:<answer>`` -> the knock limit (KNOCK.LIMIT), where the ruled declaration keeps
    exactly the limit: the deadwood the ruling would give under the limit one lower or one
    higher, when there the knocker keeps other deadwood (SHOWDOWN.BEST-PLAY plays the
    declaration the limit allows)."""
    rules = _rules_of(params)
    if rules.knock_limit_from_upcard or ruling.knocker_deadwood != ruling.knock_limit:
        return {}
    out: dict[str, str] = {}
    for limit in (ruling.knock_limit - 1, ruling.knock_limit + 1):
        highest = parameters()["knock_limit"].max
        if limit < 0 or (highest is not None and limit > highest):
            continue
        other = _ruling(query, {**params, "knock_limit": limit})
        # only a declaration keeping other deadwood is the limit's doing: among declarations
        # that keep the same, the limit does not choose
        if other is not None and other.knocker_deadwood is not None and \
                other.knocker_deadwood != ruling.knocker_deadwood:
            deadwood = {"knocker": other.knocker_deadwood, "defender": other.defender_deadwood}
            out.setdefault(blame_key("deadwood", deadwood), _limit_clause(rules))
    return out


def _legality_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                    ruling: Any) -> dict[str, str]:
    """Whether the knock is legal at all (``adjudicate``): for a legal knock whose declared
    deadwood is exactly the limit, the limit decides an answer ``illegal_knock``; for an illegal
    one, a wider run rule that would make it legal (MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP), else the
    limit when the knocker's least deadwood is one above it, decides the outcome."""
    limit_clause = _limit_clause(_rules_of(params))
    if ruling.outcome != "illegal_knock":
        if ruling.knocker_deadwood == ruling.knock_limit:
            return {"outcome:illegal_knock": limit_clause}
        return {}
    if query.get("knocker_melds") is not None:
        return {}
    knocker = int(mask_of([parse_card(str(c)) for c in query["knocker"]]))
    eleven = len(query["knocker"]) == 11
    meld_rules = _rules_of(params).meld_rules
    wider = _wider_run_rule(knocker, ruling.knock_limit, meld_rules, discard=eleven)
    if wider:
        return {"outcome": wider}

    least = (min_deadwood_after_discard if eleven else min_deadwood)(knocker, meld_rules)
    return {"outcome": limit_clause} if least == ruling.knock_limit + 1 else {}


def _chain_decides(melds: Sequence[Any], defender: Sequence[int], params: Mapping[str, Any],
                   gin: bool, deadwood: int) -> bool:
    """Whether the chain rule decides the defender's least ``deadwood`` against the knocker's
    ``melds``: with the other ``layoff_chain`` (LAYOFF.CHAIN) his best defence keeps another."""
    rules = ShowdownRules.from_params(dict(params))
    other = replace(rules, layoff_chain="unlimited") if rules.layoff_chain == "original_melds_only" \
        else replace(rules, layoff_chain="original_melds_only")
    return bool(best_defence(melds, defender, other, gin=gin).deadwood != deadwood)


def _defence_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                   answer: Mapping[str, Any]) -> dict[str, str]:
    """``defence``: LAYOFF.CHAIN decides the deadwood and the layoffs when the other chain rule
    would leave the defender other deadwood (a layoff onto a laid-off card, or one refused)."""
    deadwood = answer.get("deadwood")
    if not isinstance(deadwood, int):
        return {}
    try:
        melds = [Meld.parse(" ".join(str(c) for c in m), _rules_of(params).meld_rules)
                 for m in query["knocker_melds"]]
        cards = [parse_card(str(c)) for c in query["cards"]]
    except GinspecError:
        return {}
    if not _chain_decides(melds, cards, params, bool(query.get("gin", False)), deadwood):
        return {}
    return {"deadwood": "LAYOFF.CHAIN", "layoffs": "LAYOFF.CHAIN", "layoff_sets": "LAYOFF.CHAIN"}


def _meld_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                answer: Mapping[str, Any]) -> dict[str, str]:
    """``meld``: cards of one suit are judged as a run (MELD.RUN), others as a set (MELD.SET)."""
    try:
        suits = {parse_card(str(c)) // 13 for c in query["cards"]}
    except CardError:
        return {}
    return {"valid": "MELD.RUN" if len(suits) == 1 else "MELD.SET"}


def _ends_clause(rules: Any) -> str:
    """The clause deciding whether a game is over: the running score reaching the target
    (MATCH.CUMULATIVE), or Oklahoma's target (OKLAHOMA.TARGET)."""
    return "OKLAHOMA.TARGET" if rules.knock_limit_from_upcard else "MATCH.CUMULATIVE"


def _match_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                 answer: Mapping[str, Any]) -> dict[str, str]:
    """``match``: each hand's points (``hand_points[i]``) are its scoring trail's, each running
    score (``running_scores[i]``) MATCH.CUMULATIVE's, or MATCH.BOX-TARGET's once boxes with
    points were earned; whether and when the game ends is :func:`_ends_clause`'s; the box points
    MATCH.BOX's (MATCH.EXTRA-BOXES's with extra boxes earned), the game bonus
    MATCH.GAME-BONUS's; the totals, settlement and payee MATCH.SETTLEMENT's (the final total:
    hand points, game bonus, boxes, shutout), the shutout MATCH.SHUTOUT-TEST's."""
    rules = _rules_of(params)
    ends = _ends_clause(rules)
    out = {"over": ends, "hands": ends, "winner": ends, "totals": "MATCH.SETTLEMENT",
           "settlement": "MATCH.SETTLEMENT", "payee": "MATCH.SETTLEMENT",
           "shutout": "MATCH.SHUTOUT-TEST", "hand_points": "MATCH.CUMULATIVE",
           "running_scores": "MATCH.CUMULATIVE", "box_points": "MATCH.BOX",
           "hand_winners": "SCORE.HAND-WINNER",
           "game_bonus": "MATCH.GAME-BONUS"}
    boxes = won = 0
    for i, item in enumerate(query["hands"][:len(answer.get("hand_points", ()))]):
        hand = _hand_score(query, params, item)
        if hand is None:  # a void hand scores nothing
            out[f"hand_points[{i}]"] = out[f"hand_winners[{i}]"] = "SCORE.VOID"
        else:
            trail = score_blame([c for c in hand.clauses
                                 if c.startswith(("SCORE.", "GIN.", "KNOCK."))],
                                (hand.knocker, hand.defender))
            out[f"hand_points[{i}]"] = trail.get("points", "SCORE.HAND-WINNER")
            out[f"hand_winners[{i}]"] = trail.get("outcome", "SCORE.HAND-WINNER")
            boxes += hand.knocker_boxes + hand.defender_boxes
            won += hand.winner is not None
        out[f"running_scores[{i}]"] = "MATCH.BOX-TARGET" if rules.box_bonus and boxes \
            else "MATCH.CUMULATIVE"
    if boxes != won and rules.extra_boxes:
        out["box_points"] = "MATCH.EXTRA-BOXES"
    return out


def _table_adjudicate_blame(query: Mapping[str, Any], params: Mapping[str, Any],
                            answer: Mapping[str, Any]) -> dict[str, str]:
    """``table-adjudicate``: the penalties, compared after the outcome, the winner and every
    seat's deadwood, are TABLE.PENALTY's charges on them."""
    return {"penalties": "TABLE.PENALTY"} if answer.get("penalties") else {}


_QUERY_BLAME: dict[str, Any] = {
    "hollywood": lambda q, p, a: {"box_points": "MATCH.BOX", "game_bonus": "MATCH.GAME-BONUS"},
    "table-adjudicate": _table_adjudicate_blame,
    "match": _match_blame,
    "knock": _knock_blame,
    "deadwood": _deadwood_blame,
    "meld": _meld_blame,
    "card": lambda q, p, a: {"canonical": "CARD.NOTATION", "error": "CARD.NOTATION"},
    "arrangement": lambda q, p, a: {"valid": "DEADWOOD.ARRANGEMENT", "deadwood": "DEADWOOD.VALUE"},
    "melds-count": lambda q, p, a: {"count": "MELD.COUNT"},
    "arrangements": lambda q, p, a: {"count": "DEADWOOD.ARRANGEMENTS"},
    "knock-limit": lambda q, p, a: {"limit": _limit_clause(_rules_of(p))},
    "next-dealer": _next_dealer_blame,
    "score": _score_blame,
    "adjudicate": _adjudicate_blame,
    "defence": _defence_blame,
    "declaration": _declaration_blame,
}
"""The rule the reference applies to each field of a query kind's answer, by ``what``."""


def _rules_of(params: Mapping[str, Any]) -> Rules:
    return to_rules(params)

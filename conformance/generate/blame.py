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
from typing import Any

from ginspec.conformance.adapters.reference_game import GameDriver
from ginspec.reference.game.deal import split_deck
from ginspec.reference.game.state import Phase
from ginspec.reference.melds import min_deadwood
from ginspec.spec.cards import card_str, cards_of, mask_of, parse_card
from ginspec.spec.clauses import registry
from ginspec.spec.parameters import parameters


def _game(adapter: Any) -> GameDriver | None:
    """The reference GameDriver behind a two-player hand or match adapter (None at the table)."""
    game = adapter._driver()
    return game if isinstance(game, GameDriver) else None


def refusal_clause(adapter: Any) -> str | None:
    """The clause the reference cites for the action it just refused (a match's WRONG_DEALER
    names MATCH.NEXT-DEALER or WALL.REDEAL, which the hand alone cannot tell)."""
    game = _game(adapter)
    return None if game is None or game.rejection is None else game.rejection.clause


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
    if verb == "declare" and state.knocker is not None:

        tight = min_deadwood(state.hands[state.knocker], rules.meld_rules) == state.knock_limit
        out["DECLARATION_OVER_LIMIT"] = _limit_clause(rules) if tight else \
            "SHOWDOWN.DECLARATION"
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
    an action the engine offers that is not listed (the limit, in the declare phase)."""

    listed = {a for k in ("legal_actions", "legal_includes", "legal_excludes")
              for a in point.get(k, [])}
    if not listed:
        return {}
    if point.get("legal_actions") is not None and state.phase is Phase.DISCARD \
            and state.to_move in (0, 1):

        listed |= {f"knock {card_str(c)}" for c in cards_of(state.hands[state.to_move])}
    out: dict[str, str] = {}
    for action in sorted(listed):
        refusal = state.rejection(action, state.to_move if state.to_move in (0, 1) else None)
        if refusal is not None:
            if refusal.clause not in ("ACTION.PHASE", "ACTION.TURN-ORDER", "ACTION.GRAMMAR"):
                out[action] = refusal.clause
            continue
        permits = step_against(state, action, None, None)
        for code in ("GIN_COMPULSORY", "KNOCK_OVER_LIMIT", "DISCARD_OF_TAKEN_CARD",
                     "DECLARATION_OVER_LIMIT"):
            if permits.get(code) not in (None, "KNOCK.ELIGIBLE", "SHOWDOWN.DECLARATION"):
                out[action] = permits[code]  # a rule, not the hand's own count, decides
                break
    if state.phase is Phase.DECLARE and "legal_actions" in point:
        out["*"] = _limit_clause(state.rules)
    return out


def point_blame(adapter: Any, point: Mapping[str, Any]) -> dict[str, str]:
    """The clause deciding each field a checkpoint observes, where a rule decides it (the
    runner blames it when that field is the first to differ)."""
    face_down = parameters()["knock_card_face_up"].clause
    game = _game(adapter)
    state = None if game is None else game.state()
    if state is None:  # the table: its knock card lies face down too
        table = getattr(adapter._driver(), "state", None)
        if "discard_top" in point and getattr(table, "knock_card", None) is not None:
            return {"discard_top": face_down}
        return {}
    blame: dict[str, str] = {}
    rules = state.rules
    if not state.history:  # the deal and the first turn
        later = opens_later_hand(adapter)
        first = later or _first_turn_clause(rules)
        eleven = rules.eleven_card_start and not later
        dealt = {"hand_sizes": "DEAL.HANDS", "discard_top": "DEAL.UPCARD",
                 "stock_size": "DEAL.STOCK"}
        for name in point:
            if name.startswith("legal_"):
                blame[name] = "ELEVEN.FIRST-TURN" if eleven else first
            elif name in ("phase", "to_act"):
                blame[name] = first
            elif name in dealt and not later:
                blame[name] = "ELEVEN.DEAL" if eleven else dealt[name]
    if "discard_top" in point and state.knock_card is not None:
        blame["discard_top"] = face_down  # the knock card lies face down
    phase = point.get("phase")
    if phase == Phase.OVER.value and state.history and state.knocker is not None:
        last = state.history[-1][1].kind.value
        if state.gin and rules.layoff_after_gin == "forbidden":
            blame["phase"] = "LAYOFF.AFTER-GIN"  # no layoffs against gin
        elif last == "done" and not rules.knocker_may_lay_off:
            blame["phase"] = "LAYOFF.KNOCKER"  # the knocker does not lay off
    elif phase in (Phase.DRAW.value, Phase.DISCARD.value) and state.history \
            and _near_wall(state):
        blame["phase"] = _wall_clause(rules)
    blame = {k: v for k, v in blame.items() if k in point}
    legal = _legal_blame(state, point)
    if legal:
        blame.update({f"legal:{a}": c for a, c in legal.items()})
    return blame

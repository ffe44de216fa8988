"""The adapter of RLCard's gin rummy (package ``rlcard``, extra ``ginspec[rlcard]``):
``ginspec conform --adapter rlcard``.

How RLCard plays a hand (read from rlcard/games/gin_rummy/*.py and checked by running it; see
docs/conformance/peer-rules.md):

* The dealer deals 11 cards to the non-dealer and 10 to itself from the end of a shuffled list;
  there is no upcard. The driver replaces the game's random generator by one whose shuffle puts
  the deck in the order our deal asks for, and sets ``settings.dealer_for_round``.
* Actions are events: draw_card, pick_up_discard, declare_dead_hand, gin, discard C, knock C,
  and two bookkeeping events (score N, score S) that the driver applies itself.
* Going out is automatic: RLCard melds both hands itself (best arrangement), has no layoffs and
  no points — its payoffs are training rewards. ``gin`` carries no card: RLCard picks the
  discard; the adapter shows it as ``knock XX`` with the card RLCard will discard. So it
  declares ``melding.automatic`` and ``layoff.automatic`` (it settles the showdown itself, with
  no layoffs at all: a rule difference the live runs show) and its results carry no points.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from ginspec.conformance.adapters.action_text import ActionTextError, Canonical, canonical, format_action
from ginspec.conformance.adapters.base import JSONObject, Unsupported
from ginspec.conformance.adapters.deal_layout import layout
from ginspec.conformance.adapters.peer import (
    Params,
    PeerAdapter,
    PeerUnavailable,
    knock_result,
    void_result,
)
from ginspec.spec.cards import Card, card_str, parse_card, parse_cards
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset


class RLCardError(GinspecError):
    """RLCard did something its adapter cannot follow (another deck, an unknown event)."""


FIXED_RULES: Final[Mapping[str, Value]] = {
    "first_turn": "eleven_card_start",
    "gin_compulsory": True,
    "big_gin_bonus": 0,
    "knock_on_wall_draw": True,
    "take_and_return_void": False,
    "discard_take_cap": 0,
    "wall_action": "take_and_play_on",
    "knocker_may_lay_off": False,
    "ace_high_runs": False,
    "wraparound_runs": False,
    "ace_value": 1,
}
"""The rule choices RLCard makes with no setting (our parameter names and values)."""


class _ForcedShuffle:
    """Stands in for RLCard's ``np_random``: its shuffle puts the deck in a given order."""

    def __init__(self, order: list[Any]) -> None:
        self._order = order

    def shuffle(self, deck: list[Any]) -> None:
        if sorted(map(str, deck)) != sorted(map(str, self._order)):
            raise RLCardError("RLCard's deck is not the 52 cards the deal names")
        deck[:] = self._order

    def choice(self, options: Sequence[Any]) -> Any:
        return options[0]


def _load() -> tuple[Any, ...]:
    try:
        game_mod = importlib.import_module("rlcard.games.gin_rummy.game")
        events = importlib.import_module("rlcard.games.gin_rummy.utils.action_event")
        settings = importlib.import_module("rlcard.games.gin_rummy.utils.settings")
        judge = importlib.import_module("rlcard.games.gin_rummy.judge")
        moves = importlib.import_module("rlcard.games.gin_rummy.utils.move")
        base = importlib.import_module("rlcard.games.base")
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise PeerUnavailable(
            f"RLCard is not installed ({exc}); install it with pip install 'ginspec[rlcard]'"
        ) from exc
    return game_mod, events, settings, judge, moves, base


class RLCardAdapter(PeerAdapter):
    """Plays single hands on ``rlcard.games.gin_rummy.game.GinRummyGame``."""

    name = "rlcard"
    homepage = "https://github.com/datamllab/rlcard"
    capabilities: ClassVar[tuple[str, ...]] = (
        "hand", "legal-actions", "melding.automatic", "layoff.automatic", "query.knock",
        "query.deadwood", "query.meld", "query.melds-count", "query.arrangements")
    overridable = ("knock_limit", "discard_taken_card", "wall_size")
    limitations = (
        "single hands only: no match scoring",
        "no points: payoffs are training rewards (gin 1, knock 0.2, else -deadwood/100)",
        "automatic melding: no declarations, the best arrangement is taken",
        "no layoffs: the defender's deadwood is counted before any layoff",
        "gin names no discard: RLCard picks the card itself",
        "after 200 moves (max_move_count) the only action is a dead hand; no parameter "
        "models the cap",
        "no rejection codes: an illegal action is refused as 'not among RLCard's "
        "legal actions'",
        "deadwood and arrangements queries: RLCard counts deadwood of 10-card hands only; "
        "other hands are declined",
        "meld and melds-count queries of cards repeating a card are declined: RLCard's "
        "meld functions take a hand, which never holds a card twice",
        "no function answers the card, arrangement, layoff, declaration, defence, "
        "adjudicate, score, match or next-dealer queries (utils.card_from_text checks "
        "nothing; there are no layoffs and no points): those capabilities are not declared",
    )

    def __init__(self) -> None:
        (self._game_mod, self._ev, self._settings_mod, self._judge_mod, self._moves,
         base) = _load()
        self._Card = base.Card
        from importlib.metadata import version as dist_version

        self.version = dist_version("rlcard")
        self._game: Any = None

    # -- conversions ----------------------------------------------------------------------

    def _rl(self, card: Card) -> Any:
        text = card_str(card)
        return self._Card(suit=text[1], rank=text[0])

    @staticmethod
    def _ours(card: Any) -> Card:
        return parse_card(f"{card.rank}{card.suit}")

    # -- set-up ---------------------------------------------------------------------------

    def engine_reasons(self, params: Params) -> list[str]:
        reasons = []
        for name, value in FIXED_RULES.items():
            if name in params and params[name] != value:
                reasons.append(f"{name}={params[name]!r}: RLCard always plays {value!r}")
        if params.get("discard_taken_card", "never") not in ("never", "always"):
            reasons.append("discard_taken_card: RLCard's setting is on or off (never/always)")
        if params.get("oklahoma", False):
            reasons.append("oklahoma=True: RLCard has no Oklahoma knock card")
        limit = params.get("knock_limit", 10)
        if not isinstance(limit, int) or not 0 <= limit <= 10:
            reasons.append(f"knock_limit={limit!r}: RLCard plays 0..10")
        return reasons

    def start(self, deck: Sequence[Card], dealer: int, params: Params) -> None:
        lay = layout(deck, dealer, "eleven_card_start")
        pops = [*lay.hands[lay.non_dealer], *lay.hands[dealer], *lay.stock]
        self._deal(dealer, params, _ForcedShuffle([self._rl(c) for c in reversed(pops)]))

    def _deal(self, dealer: int, params: Params, np_random: Any) -> None:
        """A new GinRummyGame with our settings, dealt by RLCard with ``np_random``'s shuffle."""
        game = self._game_mod.GinRummyGame()
        s = self._settings_mod
        game.settings.change_settings({
            s.Setting.dealer_for_round: s.DealerForRound(dealer),
            s.Setting.going_out_deadwood_count: int(params.get("knock_limit", 10)),
            s.Setting.is_allowed_to_discard_picked_up_card:
                params.get("discard_taken_card", "never") == "always",
            s.Setting.stockpile_dead_card_count: int(params.get("wall_size", 2)),
        })
        game.np_random = np_random
        game.init_game()
        self._game = game
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._auto()

    # -- helpers --------------------------------------------------------------------------

    def _require(self) -> Any:
        if self._game is None:
            raise RLCardError("no hand in progress: call new_hand first")
        return self._game

    def _auto(self) -> None:
        """Apply RLCard's bookkeeping events (score N, score S) nobody chooses."""
        game = self._game
        ev = self._ev
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            if len(legal) == 1 and isinstance(
                    legal[0], ev.ScoreNorthPlayerAction | ev.ScoreSouthPlayerAction):
                game.step(legal[0])
            else:
                return

    def _gin_card(self) -> Card:
        game = self._game
        hand = game.get_current_player().hand
        _, gin_cards = self._judge_mod.get_going_out_cards(
            hand, game.settings.going_out_deadwood_count)
        return self._ours(gin_cards[0])

    def _table(self) -> dict[str, Any]:
        game = self._require()
        key = len(game.actions)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        ev = self._ev
        plan: dict[str, Any] = {}
        if not game.is_over():
            for a in game.judge.get_legal_actions():
                if isinstance(a, ev.DrawCardAction):
                    plan["draw-stock"] = a
                elif isinstance(a, ev.PickUpDiscardAction):
                    plan["take-discard"] = a
                elif isinstance(a, ev.DeclareDeadHandAction):
                    plan["pass"] = a
                elif isinstance(a, ev.DiscardAction):
                    plan[format_action("discard", self._ours(a.card))] = a
                elif isinstance(a, ev.KnockAction):
                    plan[format_action("knock", self._ours(a.card))] = a
                elif isinstance(a, ev.GinAction):
                    plan[format_action("knock", self._gin_card())] = a
                else:  # pragma: no cover - a new RLCard event
                    raise RLCardError(f"unknown RLCard action {a}")
        self._cache = (key, plan)
        return plan

    def _phase(self) -> str:
        game = self._require()
        if game.is_over():
            return "over"
        last = game.get_last_action()
        ev = self._ev
        if last is None or isinstance(last, ev.DrawCardAction | ev.PickUpDiscardAction):
            return "discard"
        if len(game.round.dealer.stock_pile) <= game.settings.stockpile_dead_card_count:
            return "wall"
        return "draw"

    # -- queries, answered by RLCard's own melding and judge functions -----------------------

    def _melding(self) -> Any:
        return importlib.import_module("rlcard.games.gin_rummy.utils.melding")

    def _best_clusters(self, hand: list[Any]) -> list[Any]:
        """get_best_meld_clusters (10 cards): every meld cluster of least deadwood. With no meld
        it lists none, and RLCard's scorer then counts the empty cluster (utils/scorers.py:
        ``[] if not best_meld_clusters``), so the empty cluster stands for it here too."""
        return self._melding().get_best_meld_clusters(hand=hand) or [[]]

    def _deadwood10(self, hand: list[Any]) -> int:
        utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
        return int(utils.get_deadwood_count(hand, self._best_clusters(hand)[0]))

    def _melds_in(self, hand: list[Any]) -> list[list[Any]]:
        """get_all_run_melds + get_all_set_melds: every meld RLCard finds in ``hand``."""
        melding = self._melding()
        return [*melding.get_all_run_melds(hand), *melding.get_all_set_melds(hand)]

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        """RLCard's own melding and judge functions answer; other questions are declined."""
        params = dict(ruleset(profile, dict(overrides))) if profile else dict(overrides)
        return self._answer(what, args, params)

    def _answer(self, what: str, args: Mapping[str, object], params: Params) -> JSONObject:
        """``deadwood`` (10 cards only): get_best_meld_clusters; ``arrangements`` (10 cards
        only): how many clusters get_best_meld_clusters lists; ``meld``: whether the cards are
        one of the melds RLCard finds in them (a meld found in a group is the group itself
        exactly when the group is one meld); ``melds-count``: how many melds it finds (MELD.COUNT);
        ``knock`` (11 cards): the judge's get_going_out_cards (RLCard's knock and gin test)
        and, for the deadwood and the best discards, the 10-card deadwood after each discard."""
        if any(params.get(k, False) for k in ("ace_high_runs", "wraparound_runs")) or \
                params.get("ace_value", 1) != 1 or params.get("oklahoma", False):
            raise Unsupported("RLCard plays ace-low runs, no wraparound, ace = 1, no Oklahoma")
        raw = args.get("cards", [])
        assert isinstance(raw, list)
        cards = parse_cards([str(t) for t in raw], distinct=what != "meld")
        if len(set(cards)) != len(cards):
            raise Unsupported("RLCard's meld functions take a hand: no card twice")
        hand = [self._rl(c) for c in cards]
        if what == "meld":
            whole = sorted(cards)
            return {"valid": any(sorted(map(self._ours, m)) == whole
                                 for m in self._melds_in(hand))}
        if what == "melds-count":
            return {"count": len(self._melds_in(hand))}
        if what == "deadwood" and len(hand) == 10:
            return {"deadwood": self._deadwood10(hand)}
        if what == "arrangements" and len(hand) == 10:
            return {"count": len(self._best_clusters(hand))}
        if what == "knock" and len(hand) == 11:
            limit = int(params.get("knock_limit", 10))
            knock_cards, gin_cards = self._judge_mod.get_going_out_cards(hand, limit)
            after = {c: self._deadwood10([h for h in hand if h != self._rl(c)]) for c in cards}
            best = min(after.values())
            return {"deadwood": best, "can_knock": bool(knock_cards or gin_cards),
                    "gin": bool(gin_cards), "big_gin": False,
                    "best_discards": [card_str(c) for c in cards if after[c] == best]}
        if what in ("deadwood", "arrangements"):
            raise Unsupported(f"RLCard's deadwood functions (get_best_meld_clusters, "
                              f"get_deadwood_count) take 10 cards, not {len(hand)}")
        raise Unsupported(f"RLCard answers no {what!r} query on {len(hand)} cards")

    # -- the adapter interface -------------------------------------------------------------

    def legal_actions(self) -> list[str]:
        return sorted(self._table())

    def phase(self) -> str:
        return self._phase()

    def to_act(self) -> int | None:
        game = self._require()
        return None if self._phase() == "over" else int(game.round.current_player_id)

    def play(self, action: str) -> bool:
        try:
            canon: Canonical = canonical(action)
        except ActionTextError:
            return False
        plan = {canonical(k): v for k, v in self._table().items()}
        if canon not in plan:
            return False  # not among RLCard's legal actions in this phase
        self._game.step(plan[canon])
        self._cache = None
        self._auto()
        return True

    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        game = self._require()
        p0, p1 = (tuple(sorted(self._ours(c) for c in p.hand)) for p in game.round.players)
        return p0, p1

    def discard_top(self) -> Card | None:
        pile = self._require().round.dealer.discard_pile
        return self._ours(pile[-1]) if pile else None

    def stock_size(self) -> int:
        return len(self._require().round.dealer.stock_pile)

    def hand_result(self) -> JSONObject:
        game = self._require()
        rnd = game.round
        dw = [0, 0]
        for move in rnd.move_sheet[-2:]:
            if isinstance(move, self._moves.ScoreNorthMove):
                dw[0] = int(move.deadwood_count)
            elif isinstance(move, self._moves.ScoreSouthMove):
                dw[1] = int(move.deadwood_count)
        going_out = rnd.going_out_action
        ev = self._ev
        if not isinstance(going_out, ev.GinAction | ev.KnockAction):
            return void_result(scored=False)
        return knock_result(int(rnd.going_out_player_id), dw, None,
                            isinstance(going_out, ev.GinAction))

    def void_reason(self) -> str:
        """Why RLCard ended the hand with nobody out (a dead hand, in its own words)."""
        game = self._require()
        moves = len(game.round.move_sheet)
        return ("dead hand: declared at the wall" if moves < game.settings.max_move_count
                else f"dead hand: RLCard's move cap ({game.settings.max_move_count})")

    def payoffs(self) -> Any:
        """RLCard's payoffs of the finished hand (training rewards, not points)."""
        game = self._require()
        return game.judge.scorer.get_payoffs(game)


class RLCardOwnDeal(RLCardAdapter):
    """RLCard shuffling and dealing for itself (capability ``deal.engine``):
    ``ginspec conform --live --adapter python:ginspec.conformance.adapters.rlcard:RLCardOwnDeal``.

    ``new_hand`` names the dealer and a ``seed``; RLCard's own dealer shuffles
    ``utils.get_deck()`` with a generator made from it by RLCard's own ``utils.seeding.np_random``
    (what ``Env.seed`` gives the game), and deals from the end of it: eleven cards to the
    non-dealer, ten to the dealer, no upcard (ELEVEN.DEAL). :meth:`dealt` reports the position
    RLCard made; the caller checks it against DEAL.* (PROTOCOL.md, "Automatic showdowns and
    engine deals"). The committed suite's cases carry their own decks and are not sent to it."""

    capabilities = (*RLCardAdapter.capabilities, "deal.engine")

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        params = ruleset(profile, dict(overrides))
        reasons = self.check_params(params)
        if reasons:
            raise Unsupported("; ".join(reasons))
        if "seed" not in deal:
            raise RLCardError("new_hand: a deal.engine deal names its 'seed' (PROTOCOL.md)")
        seeding = importlib.import_module("rlcard.utils.seeding")
        np_random, _ = seeding.np_random(int(deal["seed"]))
        self._deal(int(deal["dealer"]), params, np_random)

    def dealt(self) -> JSONObject:
        """RLCard's deal as it stands before the first action: both hands, no upcard, the stock
        top first (RLCard draws from the end of its stock pile)."""
        rnd = self._require().round
        return {"dealer": int(rnd.dealer_id),
                "hands": [[card_str(self._ours(c)) for c in p.hand] for p in rnd.players],
                "upcard": None,
                "stock": [card_str(self._ours(c)) for c in reversed(rnd.dealer.stock_pile)]}

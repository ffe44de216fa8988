"""One hand of two-player gin rummy as an immutable state machine.

``HandState.new(deal, rules)`` starts a hand; ``state.apply(action, player=None)`` returns the next
state, or raises :class:`~ginspec.reference.game.rejections.Rejection` (the state object is
immutable, so a refused action changes nothing). ``state.legal_actions()`` is a view: iterating it
generates the legal actions, and ``action in view`` is the same predicate ``apply`` uses.

Conventions: players are 0 and 1; ``to_move`` is the player to act, :data:`CHANCE` during a
reshuffle, ``None`` when the hand is over. Hands are card masks (CARD.ENCODING); the stock is a
tuple, top card first; the discard pile a tuple, top card last.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

from ginspec.reference.adjudicate import Ruling, adjudicate
from ginspec.reference.game import actions as A
from ginspec.reference.game import showdown as S
from ginspec.reference.game.actions import Action, Kind
from ginspec.reference.game.deal import Deal, DealError, split_deck
from ginspec.reference.game.points import outcome_of
from ginspec.reference.game.rejections import Code, Rejection
from ginspec.reference.melds import Arrangement, min_deadwood, min_deadwood_after_discard
from ginspec.reference.scoring import VOID_HAND, HandScore, knock_limit_for, score_hand
from ginspec.reference.typed_rules import Rules
from ginspec.reference.vocabulary import Outcome, Side
from ginspec.spec.cards import (
    FULL_DECK,
    Card,
    CardMask,
    card_str,
    card_value,
    cards_of,
    format_cards,
    mask_of,
)
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError, ParameterError, shown

CHANCE: Final = -1
"""``to_move`` while the referee must act (the reshuffle of WALL.RESHUFFLE)."""


class Phase(Enum):
    """What the hand is waiting for (ACTION.PHASE)."""

    __hash__ = object.__hash__
    """Members are equal only to themselves: hashing by identity keeps every set and dict of
    phases as it is, and costs no Python call on each action's check."""

    OFFER_NON_DEALER = "offer-non-dealer"
    """FIRST.UPCARD-OFFER: the non-dealer may take the upcard or pass."""
    OFFER_DEALER = "offer-dealer"
    """FIRST.DEALER-OFFER: the non-dealer passed; the dealer may take the upcard or pass."""
    FIRST_DRAW = "first-draw"
    """FIRST.BOTH-PASS: both passed; the non-dealer must draw from the stock."""
    DRAW = "draw"
    """TURN.DRAW: draw from the stock or take the top discard."""
    DISCARD = "discard"
    """TURN.DISCARD: 11 cards in hand; discard, knock or go big gin."""
    WALL = "wall"
    """WALL.LAST-CHANCE: after the wall discard the other player may take it (to knock, or under
    take_and_play_on to play an ordinary turn), or pass."""
    WALL_KNOCK = "wall-knock"
    """WALL.LAST-CHANCE: the wall discard was taken; the player must knock."""
    RESHUFFLE = "reshuffle"
    """WALL.RESHUFFLE: the referee forms a new stock."""
    DECLARE = "declare"
    """SHOWDOWN.DECLARATION: the knocker declares its melds."""
    DEFENDER_MELD = "defender-meld"
    """SHOWDOWN.DEFENDER-SPREAD: the defender spreads its melds."""
    DEFENDER_LAYOFF = "defender-layoff"
    """LAYOFF.TARGET: the defender lays off onto the knocker's melds, then says done."""
    KNOCKER_LAYOFF = "knocker-layoff"
    """LAYOFF.KNOCKER: the knocker lays off onto the defender's melds, then says done."""
    OVER = "over"
    """The hand has ended."""


_PHASE_KINDS: Final[dict[Phase, frozenset[Kind]]] = {
    Phase.OFFER_NON_DEALER: frozenset({Kind.TAKE_UPCARD, Kind.PASS}),
    Phase.OFFER_DEALER: frozenset({Kind.TAKE_UPCARD, Kind.PASS}),
    Phase.FIRST_DRAW: frozenset({Kind.DRAW_STOCK}),
    Phase.DRAW: frozenset({Kind.DRAW_STOCK, Kind.TAKE_DISCARD}),
    Phase.DISCARD: frozenset({Kind.DISCARD, Kind.KNOCK, Kind.BIG_GIN}),
    Phase.WALL: frozenset({Kind.TAKE_DISCARD, Kind.PASS}),
    Phase.WALL_KNOCK: frozenset({Kind.KNOCK, Kind.BIG_GIN}),
    Phase.RESHUFFLE: frozenset({Kind.RESHUFFLE}),
    Phase.DECLARE: frozenset({Kind.DECLARE}),
    Phase.DEFENDER_MELD: frozenset({Kind.MELD}),
    Phase.DEFENDER_LAYOFF: frozenset({Kind.LAYOFF, Kind.DONE}),
    Phase.KNOCKER_LAYOFF: frozenset({Kind.LAYOFF, Kind.DONE}),
    Phase.OVER: frozenset(),
}


@dataclass(frozen=True)
class HandResult:
    """How a hand ended, for players 0 and 1: the outcome, the knocker and the winner (None if
    nobody), the deadwood after layoffs, points, boxes, and scoring's own :class:`HandScore`
    (with its clause trail)."""

    outcome: Outcome
    knocker: int | None
    winner: int | None
    deadwood: tuple[int, int]
    points: tuple[int, int]
    boxes: tuple[int, int]
    score: HandScore

    def to_json(self) -> dict[str, object]:
        return {"outcome": self.outcome.value, "knocker": self.knocker, "winner": self.winner,
                "deadwood": list(self.deadwood), "points": list(self.points),
                "boxes": list(self.boxes)}


VOID_RESULT: Final = HandResult(Outcome.VOID, None, None, (0, 0), (0, 0), (0, 0), VOID_HAND)


class HandState:
    """An immutable hand position. Build with :meth:`new`; advance with :meth:`apply`."""

    __slots__ = (
        "_after",
        "_gin_ok",
        "big_gin",
        "dead",
        "deal",
        "declaration",
        "gin_required",
        "hands",
        "history",
        "knock_card",
        "knock_limit",
        "knocker",
        "known",
        "phase",
        "pile",
        "reshuffles",
        "result",
        "returned",
        "rules",
        "stock",
        "table",
        "taken",
        "takes",
        "to_move",
        "upcard",
        "wall_draw",
    )

    rules: Rules
    deal: Deal
    hands: tuple[CardMask, CardMask]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    phase: Phase
    to_move: int | None
    taken: Card | None
    takes: int
    returned: Card | None
    wall_draw: bool
    upcard: Card | None
    knock_limit: int
    knocker: int | None
    known: tuple[CardMask, CardMask]
    knock_card: Card | None
    big_gin: bool
    gin_required: bool
    declaration: S.Declaration | None
    table: S.Table
    dead: tuple[CardMask, CardMask]
    result: HandResult | None
    reshuffles: int
    history: tuple[tuple[int, Action], ...]
    _after: dict[Card, int] | None
    _gin_ok: bool | None

    # --- construction ------------------------------------------------------------------------

    @classmethod
    @implements("DEAL.HANDS", "DEAL.UPCARD", "DEAL.STOCK", "FIRST.UPCARD-OFFER", "FIRST.PLAIN",
                "ELEVEN.DEAL", "ELEVEN.FIRST-TURN")
    def new(cls, deal: Deal, rules: Rules) -> HandState:
        """The position right after ``deal`` under ``rules``."""
        if not isinstance(deal, Deal):
            raise DealError(f"deal: expected a Deal (Deal(deck, dealer), Deal.from_hands or "
                            f"deal_from_seed), got {type(deal).__name__} {deal!r}")
        if not isinstance(rules, Rules):
            raise ParameterError(f"rules: expected Rules such as rules_for_profile('pagat'), "
                                 f"got {type(rules).__name__} {rules!r}")
        eleven = rules.eleven_card_start
        nd_cards, d_cards, upcard, stock = split_deck(deal, eleven)
        s = object.__new__(cls)
        s.rules = rules
        s.deal = deal
        hands = [0, 0]
        hands[deal.non_dealer] = mask_of(nd_cards)
        hands[deal.dealer] = mask_of(d_cards)
        s.hands = (hands[0], hands[1])
        s.stock = stock
        s.pile = () if upcard is None else (upcard,)
        s.upcard = upcard
        s.phase = Phase.DISCARD if eleven else (
            Phase.OFFER_NON_DEALER if rules.upcard_offer else Phase.DRAW)  # FIRST.PLAIN
        s.to_move = deal.non_dealer
        s.taken = None
        s.takes = 0
        s.returned = None
        s.wall_draw = False
        s.knock_limit = knock_limit_for(rules, upcard)
        s.knocker = None
        s.known = (0, 0)
        s.knock_card = None
        s.big_gin = False
        s.gin_required = False
        s.declaration = None
        s.table = ()
        s.dead = (0, 0)
        s.result = None
        s.reshuffles = 0
        s.history = ()
        s._after = None
        s._gin_ok = None
        return s

    def _copy(self) -> HandState:
        """A fresh object with the same fields (every slot but the caches; keep in step with
        ``__slots__``: tests/test_game_engine.py checks it)."""
        s = object.__new__(HandState)
        s.big_gin = self.big_gin
        s.dead = self.dead
        s.deal = self.deal
        s.declaration = self.declaration
        s.gin_required = self.gin_required
        s.hands = self.hands
        s.history = self.history
        s.knock_card = self.knock_card
        s.knock_limit = self.knock_limit
        s.knocker = self.knocker
        s.known = self.known
        s.phase = self.phase
        s.pile = self.pile
        s.reshuffles = self.reshuffles
        s.result = self.result
        s.returned = self.returned
        s.rules = self.rules
        s.stock = self.stock
        s.table = self.table
        s.taken = self.taken
        s.takes = self.takes
        s.to_move = self.to_move
        s.upcard = self.upcard
        s.wall_draw = self.wall_draw
        s._after = None
        s._gin_ok = None
        return s

    def copy(self) -> HandState:
        """States are immutable; a copy is the state itself."""
        return self

    # --- simple queries ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else 1 - self.knocker

    @property
    def discard_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def hand(self, player: int) -> list[Card]:
        return cards_of(self.hands[player])

    @property
    def gin(self) -> bool:
        return self.declaration is not None and self.declaration.deadwood == 0

    def best_ruling(self) -> Ruling:
        """SHOWDOWN.BEST-PLAY from this hand's knock: the knocker's declaration as made (else the
        best one; only big gin's after big gin) and the defender's best reply."""
        k = self.knocker
        if k is None:
            raise GinspecError("nobody has knocked: there is no showdown to rule on")
        declared = None if self.declaration is None else \
            [list(m.cards) for m in self.declaration.melds]
        return adjudicate(self.hand(k), self.hand(1 - k), self.rules,
                          knocker_melds=declared, upcard=self.upcard, big_gin=self.big_gin)

    def __repr__(self) -> str:
        moves = " ".join(f"{p}:{a}" for p, a in self.history[-3:])
        return (f"<HandState {self.phase.value} to_move={self.to_move} "
                f"stock={len(self.stock)} top={card_str(self.pile[-1]) if self.pile else '-'}"
                f"{' last=' + moves if moves else ''}>")

    def showdown_rules(self) -> S.ShowdownRules:
        """The showdown rules of this hand: the hand's knock limit, 0 under compulsory gin."""
        return self.rules.showdown.with_limit(0 if self.gin_required else self.knock_limit)

    # --- knock arithmetic (cached per state) ----------------------------------------------------

    def _may_discard_taken(self) -> bool:
        if self.phase is Phase.WALL_KNOCK:
            return self.rules.wall_action == "take_and_knock_any_discard"
        return self.rules.discard_taken_card == "always"

    def _discardable(self, card: Card) -> bool:
        return card != self.taken or self._may_discard_taken()

    def after_discard(self) -> dict[Card, int]:
        """Min deadwood of the ten cards kept after each discard (KNOCK.ELIGIBLE); only
        computed for hands that might knock (the best discard within the limit)."""
        if self._after is None:
            assert self.to_move is not None and self.to_move >= 0
            hand = self.hands[self.to_move]
            mr = self.rules.meld_rules
            if min_deadwood_after_discard(hand, mr) > self.knock_limit:
                self._after = {}
            else:
                self._after = {c: min_deadwood(hand ^ (1 << c), mr) for c in cards_of(hand)}
        return self._after

    def _big_gin_shape(self) -> bool:
        assert self.to_move is not None
        return min_deadwood(self.hands[self.to_move], self.rules.meld_rules) == 0

    @implements("KNOCK.GIN-COMPULSORY")
    def gin_available(self) -> bool:
        """True when the player to discard could go gin (or big gin) now."""
        if self._gin_ok is None:
            after = self.after_discard()
            ok = any(d == 0 and self._discardable(c) for c, d in after.items())
            if not ok and after and self._big_gin_shape():
                ok = self.rules.big_gin_bonus > 0  # read only where the hand is big gin
            self._gin_ok = ok
        return self._gin_ok

    @property
    def knock_card_public(self) -> bool:
        """Whether both players see the knock card (KNOCK.PROCEDURE: face up, or face down and
        seen by the knocker only)."""
        return self.knock_card is not None and self.rules.knock_card_face_up

    # --- legality ----------------------------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """The legal actions: iterate to generate, ``in`` to test (same predicate as apply)."""
        return LegalActions(self)

    def is_legal(self, action: Action | str, player: int | None = None) -> bool:
        return self.rejection(action, player) is None

    def rejection(self, action: Action | str, player: int | None = None) -> Rejection | None:
        """The :class:`Rejection` ``apply`` would raise, or None if the action is legal."""
        try:
            self._check(action if isinstance(action, Action) else Action.parse(action), player)
        except Rejection as exc:
            return exc
        return None

    def _reject(self, code: Code, message: str, action: Action, clause: str | None = None) -> None:
        raise Rejection(code, message, action=A.format_action(action), clause=clause)

    @implements("ACTION.REJECTION", "ACTION.TURN-ORDER", "ACTION.PHASE")
    def _check(self, action: Action, player: int | None) -> object:
        """Raise the rejection for ``action``; return phase-specific data needed by apply."""
        phase = self.phase
        if phase is Phase.OVER:
            self._reject(Code.HAND_OVER, "the hand is over", action)
        if player is not None and player != self.to_move:
            who = "the referee" if self.to_move == CHANCE else f"player {self.to_move}"
            self._reject(Code.NOT_YOUR_TURN, f"it is {who}'s turn, not player {player}'s", action)
        kind = action.kind
        if kind not in _PHASE_KINDS[phase]:
            if phase is Phase.FIRST_DRAW and kind in (Kind.TAKE_DISCARD, Kind.TAKE_UPCARD):
                self._reject(Code.UPCARD_REFUSED, "both players refused the upcard: the "
                             "non-dealer must draw from the stock", action)
            if phase is Phase.WALL_KNOCK and kind is Kind.DISCARD:
                self._reject(Code.WALL_MUST_KNOCK, "the wall discard was taken to knock", action)
            offered = ", ".join(sorted(k.value for k in _PHASE_KINDS[phase]))
            self._reject(Code.WRONG_PHASE, f"{kind.value} is not possible now (phase "
                         f"{phase.value}; expected {offered})", action)
        p = self.to_move
        assert p is not None
        if kind is Kind.TAKE_DISCARD and phase is Phase.WALL:
            if self.rules.wall_action != "take_and_play_on" and not self._wall_take_ok():
                self._reject(Code.WALL_TAKE_WITHOUT_KNOCK, "taking the wall discard must lead "
                             "to a knock, and no knock is possible with it", action)
            return None
        if kind in (Kind.DISCARD, Kind.KNOCK):
            card = action.card
            assert card is not None
            if not self.hands[p] >> card & 1:
                self._reject(Code.CARD_NOT_IN_HAND, f"{card_str(card)} is not in player {p}'s "
                             "hand", action)
            if not self._discardable(card):
                self._reject(Code.DISCARD_OF_TAKEN_CARD, f"{card_str(card)} was just taken "
                             "from the discard pile", action,
                             "WALL.LAST-CHANCE" if phase is Phase.WALL_KNOCK else None)
            if kind is Kind.DISCARD:
                if self.rules.gin_compulsory and self.gin_available():
                    self._reject(Code.GIN_COMPULSORY, "gin is possible and compulsory", action)
                return None
            after = self.after_discard()
            if card not in after or after[card] > self.knock_limit:
                best = min_deadwood(self.hands[p] ^ (1 << card), self.rules.meld_rules)
                self._reject(Code.KNOCK_OVER_LIMIT, f"after discarding {card_str(card)} the "
                             f"best deadwood is {best}, above the knock limit {self.knock_limit}",
                             action, "OKLAHOMA.KNOCK-LIMIT" if self.rules.knock_limit_from_upcard else None)
            if self.rules.gin_compulsory and after[card] > 0 and self.gin_available():
                self._reject(Code.GIN_COMPULSORY, "gin is possible and compulsory: knock with a "
                             "card that leaves no deadwood", action)
            return None
        if kind is Kind.BIG_GIN:
            if self.rules.big_gin_bonus <= 0:
                self._reject(Code.BIG_GIN_NOT_PLAYED, "big gin is not played (big_gin_bonus = 0)",
                             action)
            if not self._big_gin_shape():
                self._reject(Code.BIG_GIN_NOT_MELDED, "not all eleven cards are in melds", action)
            return None
        if kind is Kind.RESHUFFLE:
            expected = self._reshuffle_pool()
            if len(action.cards) != expected.bit_count() or mask_of(action.cards) != expected:
                self._reject(Code.RESHUFFLE_NOT_A_PERMUTATION, "a reshuffle orders exactly the "
                             f"discard pile below its top card: {format_cards(expected)}", action)
            return None
        if kind is Kind.DECLARE:
            try:
                return S.check_declaration(self.hands[p], action.melds, self.showdown_rules())
            except S.ShowdownError as exc:
                self._reject(Code(exc.code), str(exc), action, exc.clause)
        if kind is Kind.MELD:
            try:
                return S.check_defender_melds(self.hands[p], action.melds, self.rules.meld_rules)
            except S.ShowdownError as exc:
                self._reject(Code(exc.code), str(exc), action, exc.clause)
        if kind is Kind.LAYOFF:
            side: Side = "defender" if phase is Phase.DEFENDER_LAYOFF else "knocker"
            owner: Side = "knocker" if side == "defender" else "defender"
            assert action.card is not None and action.target is not None
            index = S.find_meld(self.table, action.target, owner)
            if index is None:
                self._reject(Code.LAYOFF_NO_SUCH_MELD, f"no {owner}'s meld on the table holds "
                             f"{card_str(action.target)}", action)
            assert index is not None
            layoff = S.Layoff(action.card, index, min(self.table[index].original.cards))
            try:
                return S.apply_layoff(self.table, layoff, self.showdown_rules(), side, self.gin,
                                      hand=self.dead[p])
            except S.ShowdownError as exc:
                self._reject(Code(exc.code), str(exc), action, exc.clause)
        return None

    @implements("TURN.TAKE-CAP")
    def _take_capped(self) -> bool:
        """TURN.TAKE-CAP: would this take of the top discard reach discard_take_cap?"""
        cap = self.rules.discard_take_cap
        return cap > 0 and self.takes + 1 >= cap

    def _wall_take_ok(self) -> bool:
        """At the wall: could the player knock after taking the top discard?"""
        p = self.to_move
        assert p is not None and self.pile
        top = self.pile[-1]
        hand = self.hands[p] | 1 << top
        mr = self.rules.meld_rules
        any_discard = self.rules.wall_action == "take_and_knock_any_discard"
        for c in cards_of(hand):
            if (c != top or any_discard) and min_deadwood(hand ^ (1 << c), mr) <= self.knock_limit:
                return True
        return self.rules.big_gin_bonus > 0 and min_deadwood(hand, mr) == 0

    def _reshuffle_pool(self) -> CardMask:
        """The cards a reshuffle orders: the discard pile below its top card (WALL.RESHUFFLE)."""
        return mask_of(self.pile[:-1])

    @implements("WALL.RESHUFFLE")
    def chance_action(self) -> Action:
        """The referee's reshuffle: the discard pile below its top card in a seeded order
        (the deal's seed), to go beneath the cards left in the stock."""
        if self.phase is not Phase.RESHUFFLE:
            raise Rejection(Code.WRONG_PHASE, "no chance action is due", action="reshuffle")
        cards = cards_of(self._reshuffle_pool())
        random.Random(f"ginspec-reshuffle:{self.deal.seed}:{self.reshuffles}").shuffle(cards)
        return Action(Kind.RESHUFFLE, cards=tuple(cards))

    # --- transitions -------------------------------------------------------------------------

    @implements("FIRST.DEALER-OFFER")
    def apply(self, action: Action | str, player: int | None = None) -> HandState:
        """The state after ``action`` (by ``player`` if given); raises Rejection if illegal, and
        GinspecError if ``player`` is not a player number (``True`` is not player 1)."""
        if player is not None and type(player) is not int:
            raise GinspecError(f"player: expected a player number such as 0 or 1, not "
                               f"{type(player).__name__} {shown(player)}")
        act = action if isinstance(action, Action) else Action.parse(action)
        data = self._check(act, player)
        s = self._copy()
        p = self.to_move
        assert p is not None
        s.history = (*self.history, (p, act))
        kind = act.kind
        if kind is Kind.TAKE_DISCARD and self.phase is Phase.DRAW and self._take_capped():
            s._end_void()  # TURN.TAKE-CAP: the capped take is not carried out
        elif kind is Kind.TAKE_UPCARD or kind is Kind.TAKE_DISCARD:
            s._take_top(p)
            if self.phase is Phase.DRAW:
                s.takes += 1
            play_on = self.rules.wall_action == "take_and_play_on"
            s.phase = Phase.WALL_KNOCK if self.phase is Phase.WALL and not play_on \
                else Phase.DISCARD
        elif kind is Kind.PASS:
            if self.phase is Phase.OFFER_NON_DEALER:
                s.phase, s.to_move = Phase.OFFER_DEALER, self.deal.dealer
            elif self.phase is Phase.OFFER_DEALER:  # FIRST.BOTH-PASS
                s.phase = Phase.DRAW if self.rules.both_pass_free_draw else Phase.FIRST_DRAW
                s.to_move = self.deal.non_dealer
            else:  # the wall: refusing ends the hand
                s._end_void()
        elif kind is Kind.DRAW_STOCK:
            s._draw_stock(p)
        elif kind is Kind.DISCARD:
            s._discard(p, act.card)  # type: ignore[arg-type]
        elif kind is Kind.KNOCK or kind is Kind.BIG_GIN:
            s.gin_required = self.rules.gin_compulsory and self.gin_available()
            s._knock(p, act.card)
        elif kind is Kind.RESHUFFLE:
            s._reshuffle(act.cards)
        elif kind is Kind.DECLARE:
            assert isinstance(data, S.Declaration)
            s.declaration = data
            s.table = S.table_of(data.melds)
            dead = [0, 0]
            dead[p] = mask_of(data.deadwood_cards)
            s.dead = (dead[0], dead[1])
            s.phase, s.to_move = Phase.DEFENDER_MELD, 1 - p
        elif kind is Kind.MELD:
            s._defender_meld(p, data)
        elif kind is Kind.LAYOFF:
            assert isinstance(data, tuple) and act.card is not None
            s.table = data
            dead = list(self.dead)
            dead[p] &= ~(1 << act.card)
            s.dead = (dead[0], dead[1])
        elif kind is Kind.DONE:
            if self.phase is Phase.DEFENDER_LAYOFF and self.rules.knocker_may_lay_off \
                    and not self.gin:
                s.phase, s.to_move = Phase.KNOCKER_LAYOFF, self.knocker
            else:
                s._finish()
        return s

    def push(self, action: Action | str, player: int | None = None) -> HandState:
        """Alias of :meth:`apply` (states are immutable; there is nothing to pop)."""
        return self.apply(action, player)

    # transition helpers mutate the fresh copy only

    @implements("FIRST.AFTER-TAKE", "TURN.HAND-SIZE")
    def _take_top(self, p: int) -> None:
        """Player ``p`` takes the top discard (or the upcard): eleven cards, then a discard or a
        knock like after any take."""
        card = self.pile[-1]
        self.pile = self.pile[:-1]
        self.hands = _with(self.hands, p, self.hands[p] | 1 << card)
        self.known = _with(self.known, p, self.known[p] | 1 << card)
        self.taken = card
        self.wall_draw = False

    @implements("TURN.DRAW", "WALL.END", "WALL.LAST-DRAW")
    def _draw_stock(self, p: int) -> None:
        card = self.stock[0]
        self.stock = self.stock[1:]
        self.hands = _with(self.hands, p, self.hands[p] | 1 << card)
        self.taken = None
        self.wall_draw = len(self.stock) <= self.rules.wall_size
        self.phase = Phase.DISCARD
        if self.wall_draw and not self.rules.knock_on_wall_draw:
            self._end_void()  # WALL.LAST-DRAW: void at once, no knock and no discard

    @implements("TURN.DISCARD", "TURN.ALTERNATE", "WALL.END", "WALL.LAST-CHANCE",
                "TURN.TAKE-AND-RETURN")
    def _discard(self, p: int, card: Card) -> None:
        self.hands = _with(self.hands, p, self.hands[p] & ~(1 << card))
        self.known = _with(self.known, p, self.known[p] & ~(1 << card))
        self.pile = (*self.pile, card)
        returned = card if self.taken == card else None
        self.taken = None
        if returned is not None and returned == self.returned and self.rules.take_and_return_void:
            self._end_void()  # TURN.TAKE-AND-RETURN: both players returned the same card
            return
        self.returned = returned
        if len(self.stock) <= self.rules.wall_size:
            action = self.rules.wall_action
            if action == "void":
                self._end_void()
                return
            if action == "reshuffle" and self.reshuffles == 0:
                self.phase, self.to_move = Phase.RESHUFFLE, CHANCE
                self.wall_draw = False
                return
            if action == "reshuffle":  # WALL.RESHUFFLE: a second wall voids the hand
                self._end_void()
                return
            self.phase, self.to_move = Phase.WALL, 1 - p
            return
        self.phase, self.to_move = Phase.DRAW, 1 - p

    def _reshuffle(self, cards: tuple[Card, ...]) -> None:
        self.stock = self.stock + cards
        self.pile = self.pile[-1:]
        self.reshuffles += 1
        self.wall_draw = False
        last = self.history[-2][0] if len(self.history) >= 2 else self.deal.dealer
        if len(self.stock) <= self.rules.wall_size:
            self._end_void()
            return
        self.phase, self.to_move = Phase.DRAW, 1 - last

    @implements("KNOCK.PROCEDURE", "KNOCK.ANY-TURN", "KNOCK.BIG-GIN")
    def _knock(self, p: int, card: Card | None) -> None:
        if card is None:
            self.big_gin = True
        else:
            self.hands = _with(self.hands, p, self.hands[p] & ~(1 << card))
            self.known = _with(self.known, p, self.known[p] & ~(1 << card))
            self.knock_card = card
            if self.knock_card_public:  # KNOCK.PROCEDURE: an ordinary face-up discard
                self.pile = (*self.pile, card)
        self.knocker = p
        self.taken = None
        self.phase = Phase.DECLARE

    def _defender_meld(self, p: int, arrangement: object) -> None:
        assert isinstance(arrangement, Arrangement)
        self.table = self.table + tuple(S.TableMeld("defender", m) for m in arrangement.melds)
        dead = list(self.dead)
        dead[p] = mask_of(arrangement.deadwood_cards)
        self.dead = (dead[0], dead[1])
        if self.gin and self.rules.showdown.layoff_after_gin == "forbidden":
            self._finish()
        else:
            self.phase = Phase.DEFENDER_LAYOFF

    def _end_void(self) -> None:
        self.phase, self.to_move = Phase.OVER, None
        self.result = VOID_RESULT

    @implements("SHOWDOWN.COMPARE", "SHOWDOWN.ORDER", "KNOCK.ENDS-HAND")
    def _finish(self) -> None:
        k = self.knocker
        assert k is not None
        ace = self.rules.meld_rules.ace_value
        kd = sum(card_value(c, ace) for c in cards_of(self.dead[k]))
        dd = sum(card_value(c, ace) for c in cards_of(self.dead[1 - k]))
        kind: Literal["knock", "gin", "big_gin"] = (
            "big_gin" if self.big_gin else "gin" if self.gin else "knock")
        score = score_hand(kind, kd, dd, self.rules, upcard=self.upcard)
        d = 1 - k
        winner = None if score.winner is None else (k if score.winner == "knocker" else d)
        self.result = HandResult(
            outcome_of(score), k, winner,
            _pair(k, kd, dd), _pair(k, score.knocker, score.defender),
            _pair(k, score.knocker_boxes, score.defender_boxes), score)
        self.phase, self.to_move = Phase.OVER, None

    # --- generation --------------------------------------------------------------------------

    @implements("KNOCK.OPTIONAL")
    def _generate(self) -> Iterator[Action]:
        """The legal actions; a player who may knock may always discard instead, unless gin is
        compulsory and he holds it."""
        phase = self.phase
        p = self.to_move
        if phase is Phase.OVER or p is None:
            return
        if phase is Phase.OFFER_NON_DEALER or phase is Phase.OFFER_DEALER:
            yield A.TAKE_UPCARD
            yield A.PASS
        elif phase is Phase.FIRST_DRAW:
            yield A.DRAW_STOCK
        elif phase is Phase.DRAW:
            yield A.DRAW_STOCK
            if self.pile:
                yield A.TAKE_DISCARD
        elif phase is Phase.WALL:
            if self.rules.wall_action == "take_and_play_on" or self._wall_take_ok():
                yield A.TAKE_DISCARD
            yield A.PASS
        elif phase is Phase.DISCARD or phase is Phase.WALL_KNOCK:
            hand = cards_of(self.hands[p])
            forced = self.rules.gin_compulsory and self.gin_available()
            if phase is Phase.DISCARD and not forced:
                for c in hand:
                    if self._discardable(c):
                        yield A.DISCARDS[c]
            after = self.after_discard()
            for c in hand:
                d = after.get(c)
                if d is not None and d <= self.knock_limit and self._discardable(c) \
                        and (not forced or d == 0):
                    yield A.KNOCKS[c]
            if self.rules.big_gin_bonus > 0 and after and self._big_gin_shape():
                yield A.BIG_GIN
        elif phase is Phase.RESHUFFLE:
            yield self.chance_action()
        elif phase is Phase.DECLARE:
            for decl in S.legal_declarations(self.hands[p], self.showdown_rules()):
                yield Action(Kind.DECLARE, melds=A.canonical_melds(m.cards for m in decl.melds))
        elif phase is Phase.DEFENDER_MELD:
            for chosen in S.disjoint_meld_sets(self.hands[p], self.rules.meld_rules):
                yield Action(Kind.MELD, melds=A.canonical_melds(m.cards for m in chosen))
        elif phase is Phase.DEFENDER_LAYOFF or phase is Phase.KNOCKER_LAYOFF:
            layer: Side = "defender" if phase is Phase.DEFENDER_LAYOFF else "knocker"
            for lay in S.legal_layoffs(self.table, self.dead[p], self.showdown_rules(), layer,
                                       self.gin):
                yield Action(Kind.LAYOFF, card=lay.card, target=lay.anchor)
            yield A.DONE

    # --- accounting --------------------------------------------------------------------------

    def zones(self) -> dict[str, CardMask]:
        """Where every card is: both hands, stock, discard pile, the face-down knock card (a
        face-up knock card is in the pile, KNOCK.PROCEDURE)."""
        face_down = self.knock_card is not None and not self.knock_card_public
        return {
            "hand0": self.hands[0],
            "hand1": self.hands[1],
            "stock": mask_of(self.stock),
            "pile": mask_of(self.pile),
            "knock": 1 << self.knock_card if face_down and self.knock_card is not None else 0,
        }

    def check_accounting(self) -> None:
        """Assert the 52 cards are each in exactly one zone (a bug if not)."""
        total = 0
        count = 0
        for mask in self.zones().values():
            assert not total & mask, "a card is in two zones"
            total |= mask
            count += mask.bit_count()
        assert total == FULL_DECK and count == 52, "cards missing"
        assert len(self.stock) == mask_of(self.stock).bit_count()
        assert len(self.pile) == mask_of(self.pile).bit_count()


def _pair(knocker: int, knocker_value: int, defender_value: int) -> tuple[int, int]:
    """A (player 0, player 1) pair from knocker and defender values."""
    return (knocker_value, defender_value) if knocker == 0 else (defender_value, knocker_value)


def _with(pair: tuple[int, int], index: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


class LegalActions:
    """A lazy view of the legal actions of a state (python-chess style).

    ``list(view)`` generates them; ``action in view`` is :meth:`HandState.is_legal` (a layoff
    naming any card of its target meld is legal, while generation names the meld's anchor).
    """

    __slots__ = ("_state",)

    def __init__(self, state: HandState):
        self._state = state

    def __iter__(self) -> Iterator[Action]:
        return self._state._generate()

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action | str):
            return False
        return self._state.is_legal(action)

    def __bool__(self) -> bool:
        return any(True for _ in self._state._generate())

    def count(self) -> int:
        """How many actions are generated (no ``__len__``: ``list(view)`` would generate twice)."""
        return sum(1 for _ in self._state._generate())

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"

"""One hand of seed 001's table game for three or four players, as an immutable state machine
(chapter 14: TABLE.DEAL, TABLE.TURN-ORDER, TABLE.TURN, TABLE.KNOCK, TABLE.SHOWDOWN,
TABLE.LAYOFF-ORIGINAL, TABLE.WALL, TABLE.REJECTION).

Actions use the two-player engine's grammar (``draw-stock``, ``take-discard``, ``discard XX``,
``knock XX``, ``declare ...``, ``meld ...``, ``layoff XX to YY``, ``done``). A refused action
raises :class:`~ginspec.reference.game.Rejection` (a code and a TABLE.* clause) and, states being
immutable, changes nothing.

>>> from ginspec.reference.table import TableDeal, TableState, table_rules_for_profile
>>> rules = table_rules_for_profile("serbian-online", players=3)
>>> s = TableState.new(TableDeal.from_seed(5, players=3, dealer=2), rules)
>>> s.to_move, s.phase.value, [len(s.hand(p)) for p in range(3)]
(0, 'draw', [7, 7, 7])
>>> sorted(str(a) for a in s.legal_actions())
['draw-stock', 'take-discard']
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from ginspec.reference import layoffs as S
from ginspec.reference.game.actions import Action, Kind, canonical_melds, parse_action
from ginspec.reference.game.deal import deal_from_seed
from ginspec.reference.game.rejections import Code, Rejection
from ginspec.reference.melds import Meld, all_melds, check_meld, make_meld, min_deadwood
from ginspec.reference.table.penalties import TablePenalties, table_penalties, void_penalties
from ginspec.reference.typed_rules import Engine, Rules, game_rules
from ginspec.reference.vocabulary import DEFENDER
from ginspec.spec.cards import (
    FULL_DECK,
    NUM_CARDS,
    Card,
    CardMask,
    card_str,
    card_value,
    cards_of,
    mask_of,
    parse_cards,
)
from ginspec.spec.clauses import implements
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset

TABLE_ENGINE = Engine(
    "table",
    honours=frozenset({
        "ace_high_runs", "wraparound_runs", "ace_value", "knock_limit", "gin_compulsory",
        "big_gin_bonus", "knocker_must_meld_maximally", "layoff_chain", "layoff_after_gin",
        "knocker_may_lay_off", "first_turn", "discard_taken_card", "take_and_return_void",
        "discard_take_cap", "wall_size", "knock_on_wall_draw", "wall_action", "gin_bonus",
        "undercut_bonus", "undercut_on_tie", "oklahoma", "game_system", "players",
        "penalty_limit", "prize_winner_share", "prize_window",
    }),
    plays={
        "gin_compulsory": frozenset({False}), "big_gin_bonus": frozenset({0}),
        "knocker_may_lay_off": frozenset({False}), "first_turn": frozenset({"plain"}),
        "discard_taken_card": frozenset({"never", "always"}),
        "take_and_return_void": frozenset({False}), "discard_take_cap": frozenset({0}),
        "knock_on_wall_draw": frozenset({True}), "wall_action": frozenset({"void", "reshuffle"}),
        "undercut_on_tie": frozenset({"undercut", "knocker_scores_zero"}),
        "oklahoma": frozenset({False}), "game_system": frozenset({"table"}),
        "players": frozenset({2, 3, 4}),
    },
)
"""Seed 001's table game (SYSTEM.KIND, TABLE.*): the parameters it reads, and the values of
those whose rule it fixes."""


@implements("TABLE.PLAYERS")
def table_rules(params: Mapping[str, Value] | None = None, name: str | None = None) -> Rules:
    """The typed rules of a ruleset for the table game, or ParameterError naming the first
    parameter the table engine does not play (TABLE.PLAYERS)."""
    return TABLE_ENGINE.check(game_rules(params, name))


def table_rules_for_profile(profile: str, overrides: Mapping[str, Value] | None = None,
                            players: int | None = None) -> Rules:
    """The table rules of a profile (e.g. serbian-online) for ``players`` players."""
    extra = dict(overrides or {})
    if players is not None:
        extra["players"] = players
    return table_rules(ruleset(profile, extra), name=profile)


class TableDealError(GinspecError):
    """A table deal is not a permutation of the 52 cards, or its seats are wrong."""


@dataclass(frozen=True, slots=True)
class TableDeal:
    """A deck order (first card dealt first), the number of players and the dealer's seat."""

    deck: tuple[Card, ...]
    players: int
    dealer: int
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.deck) != NUM_CARDS or mask_of(
                c for c in self.deck if 0 <= c < NUM_CARDS) != FULL_DECK:
            raise TableDealError("a deal lists each of the 52 cards exactly once")
        if self.players not in (2, 3, 4):
            raise TableDealError(f"the table engine seats 2 to 4 players, not {self.players}")
        if not 0 <= self.dealer < self.players:
            raise TableDealError(f"dealer {self.dealer} is not a seat of {self.players}")

    @classmethod
    def from_seed(cls, seed: int, players: int, dealer: int = 0) -> TableDeal:
        """The seeded shuffle of the two-player engine (DEAL.SHUFFLE), for ``players`` seats."""
        return cls(deal_from_seed(seed).deck, players, dealer, seed)

    @classmethod
    def from_hands(cls, hands: Sequence[str], upcard: str, stock_top: str = "",
                   dealer: int | None = None) -> TableDeal:
        """The deal giving these hands (seat order), upcard and top of stock; the rest of the
        stock follows in card-number order. ``dealer`` defaults to the last seat, so seat 0
        plays first."""
        n = len(hands)
        dealer = n - 1 if dealer is None else dealer
        cards = [parse_cards(h) for h in hands]
        size = 10 if n == 2 else 7  # TABLE.DEAL
        if n not in (2, 3, 4) or any(len(c) != size for c in cards):
            raise TableDealError("from_hands takes 2 hands of 10 cards, or 3 or 4 hands of 7")
        deck: list[Card] = []
        for k in range(size):
            for j in range(1, n + 1):
                deck.append(cards[(dealer + j) % n][k])
        deck += parse_cards(upcard) + parse_cards(stock_top)
        used = mask_of(deck) if len(set(deck)) == len(deck) else -1
        if used < 0:
            raise TableDealError("a card is given twice")
        deck += [c for c in range(NUM_CARDS) if not used >> c & 1]
        return cls(tuple(deck), n, dealer)

    def split(self, hand_size: int) -> tuple[list[CardMask], Card, tuple[Card, ...]]:
        """``(hands by seat, upcard, stock top first)`` (TABLE.DEAL)."""
        n = self.players
        hands = [0] * n
        for k in range(hand_size * n):
            seat = (self.dealer + 1 + k) % n
            hands[seat] |= 1 << self.deck[k]
        cut = hand_size * n
        return hands, self.deck[cut], self.deck[cut + 1:]


class TablePhase(Enum):
    """What the player to move at a table of 3 or 4 does next (ACTION.PHASE; the two-player
    phases are :class:`ginspec.reference.game.state.Phase`)."""

    DRAW = "draw"
    DISCARD = "discard"
    DECLARE = "declare"
    MELD = "meld"
    LAYOFF = "layoff"
    OVER = "over"


@dataclass(frozen=True)
class TableResult:
    """How a hand ended: penalties per seat, the deadwood each was charged from, the knocker's
    declared melds, the melds each defender spread and what each laid off."""

    penalties: TablePenalties
    deadwood: tuple[int, ...]

    @property
    def kind(self) -> str:
        return self.penalties.kind

    def to_json(self) -> dict[str, Any]:
        p = self.penalties
        return {"outcome": p.kind, "knocker": p.knocker, "winner": p.winner,
                "deadwood": list(self.deadwood), "penalties": list(p.penalties)}


@dataclass(frozen=True)
class TableState:
    """One hand of the table game. ``hands[seat]``: the cards a player holds (the knocker's and
    defenders' melded cards stay in their hands; laid-off cards move to ``table``)."""

    deal: TableDeal
    rules: Rules
    hands: tuple[CardMask, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    phase: TablePhase
    to_move: int | None
    taken: Card | None = None
    knocker: int | None = None
    knock_card: Card | None = None
    declared: tuple[Meld, ...] = ()
    knocker_deadwood: int = 0
    table: S.Table = ()
    spreads: tuple[tuple[Meld, ...], ...] = ()
    dead: tuple[CardMask, ...] = ()
    reshuffles: int = 0
    history: tuple[tuple[int, str], ...] = ()
    result: TableResult | None = None
    _legal: tuple[Action, ...] | None = field(default=None, compare=False, repr=False)

    # --- construction and views --------------------------------------------------------------

    @classmethod
    @implements("TABLE.DEAL", "TABLE.TURN-ORDER")
    def new(cls, deal: TableDeal, rules: Rules) -> TableState:
        """The state after the deal: the player left of the dealer moves first."""
        if deal.players != rules.players:
            raise TableDealError(f"a deal for {deal.players} players under rules for "
                                 f"{rules.players}")
        hands, upcard, stock = deal.split(rules.hand_size)
        n = deal.players
        return cls(deal, rules, tuple(hands), stock, (upcard,), TablePhase.DRAW,
                   (deal.dealer + 1) % n, dead=(0,) * n, spreads=((),) * n)

    @property
    def players(self) -> int:
        return self.deal.players

    def is_over(self) -> bool:
        return self.phase is TablePhase.OVER

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    @property
    def gin(self) -> bool:
        return self.knocker is not None and self.knocker_deadwood == 0 \
            and self.phase in (TablePhase.MELD, TablePhase.LAYOFF, TablePhase.OVER)

    def next_seat(self, seat: int) -> int:
        """The player to the left (TABLE.TURN-ORDER)."""
        return (seat + 1) % self.players

    def __repr__(self) -> str:
        return (f"TableState(phase={self.phase.value!r}, to_move={self.to_move}, "
                f"history={len(self.history)} actions)")

    # --- checking ------------------------------------------------------------------------------

    def _srules(self) -> S.ShowdownRules:
        return self.rules.showdown

    def _reject(self, code: Code, message: str, action: Action, clause: str) -> Rejection:
        return Rejection(code, message, action=str(action), clause=clause)

    @implements("TABLE.REJECTION")
    def rejection(self, action: Action | str, player: int | None = None) -> Rejection | None:
        """Why ``action`` is refused now (None when it is legal)."""
        try:
            self._check(action if isinstance(action, Action) else parse_action(action), player)
        except Rejection as exc:
            return exc
        return None

    def is_legal(self, action: Action | str, player: int | None = None) -> bool:
        return self.rejection(action, player) is None

    def _check(self, act: Action, player: int | None) -> Any:
        ph = self.phase
        if ph is TablePhase.OVER:
            raise self._reject(Code.HAND_OVER, "the hand is over", act, "TABLE.REJECTION")
        p = self.to_move
        assert p is not None
        if player is not None and player != p:
            raise self._reject(Code.NOT_YOUR_TURN, f"player {p} is to move, not {player}", act,
                               "TABLE.TURN-ORDER")
        kind = act.kind
        allowed = {
            TablePhase.DRAW: (Kind.DRAW_STOCK, Kind.TAKE_DISCARD),
            TablePhase.DISCARD: (Kind.DISCARD, Kind.KNOCK),
            TablePhase.DECLARE: (Kind.DECLARE,),
            TablePhase.MELD: (Kind.MELD,),
            TablePhase.LAYOFF: (Kind.LAYOFF, Kind.DONE),
        }[ph]
        if kind not in allowed:
            raise self._reject(Code.WRONG_PHASE, f"{kind.value} is not possible in phase "
                               f"{ph.value}", act, "TABLE.REJECTION")
        hand = self.hands[p]
        if kind in (Kind.DISCARD, Kind.KNOCK):
            card = act.card
            assert card is not None
            if not hand >> card & 1:
                raise self._reject(Code.CARD_NOT_IN_HAND, f"{card_str(card)} is not in the hand",
                                   act, "TABLE.TURN")
            if card == self.taken and self.rules.discard_taken_card != "always":
                raise self._reject(Code.DISCARD_OF_TAKEN_CARD, f"{card_str(card)} was just "
                                   "taken from the discard pile", act, "TABLE.TURN")
            if kind is Kind.KNOCK:
                rest = hand & ~(1 << card)
                least = min_deadwood(rest, self.rules.meld_rules)
                if least > self.rules.knock_limit:
                    raise self._reject(Code.KNOCK_OVER_LIMIT, f"deadwood {least} after "
                                       f"discarding {card_str(card)} is above the knock limit "
                                       f"{self.rules.knock_limit}", act, "TABLE.KNOCK")
            return None
        if kind is Kind.DECLARE:
            return self._check_melds(act, hand, knocker=True)
        if kind is Kind.MELD:
            return self._check_melds(act, hand, knocker=False)
        if kind is Kind.LAYOFF:
            assert act.card is not None and act.target is not None
            index = next((i for i, m in enumerate(self.table) if m.mask >> act.target & 1), None)
            if index is None:
                raise self._reject(Code.LAYOFF_NO_SUCH_MELD, f"no meld of the knocker holds "
                                   f"{card_str(act.target)}", act, "TABLE.SHOWDOWN")
            layoff = S.Layoff(act.card, index, min(self.table[index].original.cards))
            try:
                return S.apply_layoff(self.table, layoff, self._srules(), DEFENDER,
                                      gin=self.knocker_deadwood == 0, hand=self.dead[p])
            except S.ShowdownError as exc:
                clause = "TABLE.LAYOFF-ORIGINAL" if exc.code == "LAYOFF_CHAINED" \
                    else "TABLE.SHOWDOWN"
                raise self._reject(Code(exc.code), str(exc), act, clause) from None
        return None

    def _check_melds(self, act: Action, hand: CardMask, knocker: bool) -> tuple[Meld, ...]:
        mrules = self.rules.meld_rules
        used = 0
        melds: list[Meld] = []
        for group in act.melds:
            check = check_meld(group, mrules)
            if not check.valid:
                code = Code.DECLARATION_NOT_A_MELD if knocker else Code.DEFENDER_MELD_INVALID
                raise self._reject(code, f"not a meld: {' '.join(map(card_str, group))}: "
                                   f"{check.reason}", act, "TABLE.KNOCK" if knocker
                                   else "TABLE.SHOWDOWN")
            meld = make_meld(group, mrules)
            if meld.mask & ~hand:
                code = Code.DECLARATION_CARD_NOT_HELD if knocker else Code.DEFENDER_MELD_INVALID
                raise self._reject(code, f"meld {meld} uses a card not held", act,
                                   "TABLE.KNOCK" if knocker else "TABLE.SHOWDOWN")
            if meld.mask & used:
                code = Code.DECLARATION_CARD_TWICE if knocker else Code.DEFENDER_MELD_INVALID
                raise self._reject(code, f"meld {meld} shares a card with another meld", act,
                                   "TABLE.KNOCK" if knocker else "TABLE.SHOWDOWN")
            used |= meld.mask
            melds.append(meld)
        if knocker:
            dead = sum(card_value(c, mrules.ace_value) for c in cards_of(hand & ~used))
            if dead > self.rules.knock_limit:
                raise self._reject(Code.DECLARATION_OVER_LIMIT, f"declared deadwood {dead} is "
                                   f"above the knock limit", act, "TABLE.KNOCK")
            if self.rules.showdown.knocker_must_meld_maximally and \
                    dead > min_deadwood(hand, mrules):
                raise self._reject(Code.DECLARATION_NOT_MAXIMAL, f"declared deadwood {dead} is "
                                   "more than the hand's least", act, "TABLE.KNOCK")
        return tuple(melds)

    # --- legal actions -------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action now, in a fixed order (empty when the hand is over)."""
        return tuple(a for a in self._candidates() if self.is_legal(a))

    def _candidates(self) -> Iterator[Action]:
        ph, p = self.phase, self.to_move
        if ph is TablePhase.OVER or p is None:
            return
        if ph is TablePhase.DRAW:
            yield Action(Kind.DRAW_STOCK)
            yield Action(Kind.TAKE_DISCARD)
        elif ph is TablePhase.DISCARD:
            for c in cards_of(self.hands[p]):
                yield Action(Kind.DISCARD, card=c)
            for c in cards_of(self.hands[p]):
                yield Action(Kind.KNOCK, card=c)
        elif ph in (TablePhase.DECLARE, TablePhase.MELD):
            kind = Kind.DECLARE if ph is TablePhase.DECLARE else Kind.MELD
            for chosen in S.disjoint_collections(all_melds(self.hands[p],
                                                         self.rules.meld_rules)):
                yield Action(kind, melds=canonical_melds(m.cards for m in chosen))
        else:
            for c in cards_of(self.dead[p]):
                for m in self.table:
                    yield Action(Kind.LAYOFF, card=c, target=min(m.original.cards))
            yield Action(Kind.DONE)

    # --- transitions ---------------------------------------------------------------------------

    @implements("TABLE.TURN", "TABLE.KNOCK", "TABLE.SHOWDOWN", "TABLE.WALL")
    def apply(self, action: Action | str, player: int | None = None) -> TableState:
        """The state after ``action`` (by ``player`` if given); raises Rejection if illegal."""
        act = action if isinstance(action, Action) else parse_action(action)
        data = self._check(act, player)
        p = self.to_move
        assert p is not None
        hist = (*self.history, (p, str(act)))
        kind = act.kind
        hands = list(self.hands)
        if kind is Kind.DRAW_STOCK:
            card = self.stock[0]
            hands[p] |= 1 << card
            return replace(self, hands=tuple(hands), stock=self.stock[1:], taken=None,
                           phase=TablePhase.DISCARD, history=hist)
        if kind is Kind.TAKE_DISCARD:
            card = self.pile[-1]
            hands[p] |= 1 << card
            return replace(self, hands=tuple(hands), pile=self.pile[:-1], taken=card,
                           phase=TablePhase.DISCARD, history=hist)
        if kind is Kind.DISCARD:
            assert act.card is not None
            hands[p] &= ~(1 << act.card)
            s = replace(self, hands=tuple(hands), pile=(*self.pile, act.card), taken=None,
                        history=hist)
            return s._after_discard(p)
        if kind is Kind.KNOCK:
            assert act.card is not None
            hands[p] &= ~(1 << act.card)
            return replace(self, hands=tuple(hands), knock_card=act.card, knocker=p, taken=None,
                           phase=TablePhase.DECLARE, history=hist)
        if kind is Kind.DECLARE:
            melds: tuple[Meld, ...] = data
            used = mask_of(c for m in melds for c in m.cards)
            dead = list(self.dead)
            dead[p] = self.hands[p] & ~used
            dw = sum(card_value(c, self.rules.meld_rules.ace_value) for c in cards_of(dead[p]))
            spreads = list(self.spreads)
            spreads[p] = melds
            return replace(self, declared=melds, knocker_deadwood=dw, table=S.table_of(melds),
                           dead=tuple(dead), spreads=tuple(spreads), phase=TablePhase.MELD,
                           to_move=self.next_seat(p), history=hist)
        if kind is Kind.MELD:
            melds = data
            used = mask_of(c for m in melds for c in m.cards)
            dead = list(self.dead)
            dead[p] = self.hands[p] & ~used
            spreads = list(self.spreads)
            spreads[p] = melds
            return replace(self, dead=tuple(dead), spreads=tuple(spreads), phase=TablePhase.LAYOFF,
                           history=hist)
        if kind is Kind.LAYOFF:
            assert act.card is not None
            hands[p] &= ~(1 << act.card)
            dead = list(self.dead)
            dead[p] &= ~(1 << act.card)
            return replace(self, hands=tuple(hands), dead=tuple(dead), table=data, history=hist)
        # done: the next defender, or the end of the showdown
        nxt = self.next_seat(p)
        s = replace(self, history=hist)
        if nxt == self.knocker:
            return s._finish()
        return replace(s, phase=TablePhase.MELD, to_move=nxt)

    def _after_discard(self, p: int) -> TableState:
        if len(self.stock) > self.rules.wall_size:
            return replace(self, phase=TablePhase.DRAW, to_move=self.next_seat(p))
        if self.reshuffles == 0 and self.rules.wall_action == "reshuffle":
            below = list(self.pile[:-1])
            # seeded by the deal's deck order alone, so a trace (deck + actions) replays it
            random.Random("ginspec-table-reshuffle:" + ",".join(map(str, self.deal.deck))
                          ).shuffle(below)
            s = replace(self, stock=self.stock + tuple(below), pile=self.pile[-1:],
                        reshuffles=1)
            if len(s.stock) > self.rules.wall_size:
                return replace(s, phase=TablePhase.DRAW, to_move=self.next_seat(p))
            self = s
        return replace(self, phase=TablePhase.OVER, to_move=None,
                       result=TableResult(void_penalties(self.players), (0,) * self.players))

    def _finish(self) -> TableState:
        assert self.knocker is not None
        mrules = self.rules.meld_rules
        dw = [sum(card_value(c, mrules.ace_value) for c in cards_of(d)) for d in self.dead]
        pens = table_penalties(self.knocker, dw, self.rules.gin_bonus, self.rules.undercut_bonus,
                              self.rules.undercut_on_tie == "undercut")
        return replace(self, phase=TablePhase.OVER, to_move=None,
                       result=TableResult(pens, tuple(dw)))

    # --- accounting and observations -----------------------------------------------------------

    def zones(self) -> dict[str, CardMask]:
        """Where every card is: each hand, the stock, the pile, the knock card, laid-off cards."""
        laid = 0
        for m in self.table:
            laid |= mask_of(m.added)
        z = {f"hand{s}": h for s, h in enumerate(self.hands)}
        z.update(stock=mask_of(self.stock), pile=mask_of(self.pile),
                 knock=0 if self.knock_card is None else 1 << self.knock_card, laid=laid)
        return z

    @implements("TABLE.OBSERVATION")
    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: his own cards, the pile, every count, the table after a
        knock, and the public history (a card drawn from the stock is shown only to its
        drawer)."""
        if not 0 <= seat < self.players:
            raise TableDealError(f"no seat {seat} at a table of {self.players}")
        showdown = self.knocker is not None and self.phase is not TablePhase.DECLARE
        hist = []
        for who, text in self.history:
            if text.startswith("knock ") and who != seat:
                text = "knock"  # the knock discard is face down (TABLE.KNOCK)
            hist.append({"player": who, "action": text})
        return {
            "seat": seat,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "dealer": self.deal.dealer,
            "hand": [card_str(c) for c in self.hand(seat)],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "stock_size": len(self.stock),
            "pile": [card_str(c) for c in self.pile],
            "knocker": self.knocker,
            "knock_card": card_str(self.knock_card) if self.knock_card is not None
            and seat == self.knocker else None,
            "table": [str(m) for m in self.table] if showdown else [],
            "spreads": [[str(m) for m in sp] for sp in self.spreads] if showdown else [],
            "history": hist,
            "result": None if self.result is None else self.result.to_json(),
        }

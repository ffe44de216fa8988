"""Melds, arrangements and deadwood (chapters 2 and 3 of the spec).

The public functions take cards as a list of :data:`Card` ints or a :data:`CardMask`:

* :func:`classify_meld` / :func:`check_meld` — is this group of cards one meld? (MELD.*)
* :func:`all_melds` — every meld contained in a hand (MELD.COUNT).
* :func:`min_deadwood` — the least deadwood over all arrangements (DEADWOOD.MINIMUM).
* :func:`optimal_arrangements` — every arrangement reaching it, in canonical order
  (DEADWOOD.ARRANGEMENTS).
* :func:`check_arrangement` — validate a declared arrangement (DEADWOOD.ARRANGEMENT).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product

from ginspec.reference.meld_rules import STANDARD, MeldRules
from ginspec.reference.suit_tables import SuitTables, rank_value, run_partitions, suit_tables
from ginspec.spec.cards import (
    NUM_RANKS,
    SUIT_BITS,
    Card,
    CardMask,
    card_str,
    card_value,
    cards_of,
    mask_of,
    parse_cards,
    rank_of,
    suit_of,
)
from ginspec.spec.clauses import implements
from ginspec.spec.errors import CardError, DuplicateCardError, MeldError, shown

Cards = Iterable[Card] | CardMask


_BIT_OF: dict[Card, int] = {c: 1 << c for c in range(52)}
_BIT_LOOKUP = _BIT_OF.__getitem__
_LIST_OR_TUPLE = (list, tuple)  # isinstance with a tuple of types is faster than with list | tuple


def to_mask(cards: Cards) -> CardMask:
    """A mask from a mask or from distinct cards (a repeat raises DuplicateCardError).

    The mask is ``sum(map(_BIT_LOOKUP, cards))`` (the fastest general way in CPython); a repeat
    makes a carry, so the bit count then falls short of the number of cards. ``True``, ``False``
    and integral floats pass as the equal card number (see :func:`min_deadwood`).
    """
    if isinstance(cards, int):
        if not 0 <= cards < 1 << 52:
            raise CardError(f"not a set of cards: {cards:#x}")
        return cards
    if isinstance(cards, _LIST_OR_TUPLE):
        items = cards
    else:
        try:
            items = list(cards)
        except TypeError:
            raise CardError(f"not cards (a list of card numbers or a mask): {cards!r}") from None
    try:
        mask: int = sum(map(_BIT_LOOKUP, items))
    except (KeyError, TypeError):
        bad = next(c for c in items if isinstance(c, bool) or not isinstance(c, int) or c not in _BIT_OF)
        raise CardError(f"no card with number {bad!r}") from None
    if mask.bit_count() != len(items):
        seen: set[Card] = set()
        for card in items:
            if card in seen:
                raise DuplicateCardError(f"duplicate card {card_str(card)}")
            seen.add(card)
    return mask


class MeldKind(Enum):
    """The two kinds of meld (MELD.SET, MELD.RUN)."""

    SET = "set"
    RUN = "run"


@dataclass(frozen=True, order=True)
class Meld:
    """A meld: its cards in display order (sets by suit C D H S, runs in rank order)."""

    cards: tuple[Card, ...]
    kind: MeldKind

    @property
    def mask(self) -> CardMask:
        return mask_of(self.cards)

    @property
    def key(self) -> tuple[Card, ...]:
        """Canonical sort key: the cards in ascending card number."""
        return tuple(sorted(self.cards))

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, rules: MeldRules = STANDARD) -> Meld:
        """Parse a meld such as ``'7H 7D 7S'``; raises MeldError when it is not one."""
        return make_meld(parse_cards(text), rules)


@dataclass(frozen=True)
class MeldCheck:
    """Whether some cards form one meld, and why not when they do not."""

    kind: MeldKind | None
    reason: str

    @property
    def valid(self) -> bool:
        return self.kind is not None


@implements("MELD.SET", "MELD.RUN", "MELD.RUN.ACE-LOW", "MELD.RUN.NO-WRAP")
def check_meld(cards: Sequence[Card], rules: MeldRules = STANDARD) -> MeldCheck:
    """Classify ``cards`` as a set, a run, or not a meld (with the reason); a number that is no
    card raises :class:`CardError`."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        raise CardError(f"a meld is a list of cards, not {type(cards).__name__}")
    for card in cards:
        try:
            known = card in _BIT_OF
        except TypeError:  # unhashable
            known = False
        if not known:
            raise CardError(f"no card with number {shown(card)}")
    if len(set(cards)) != len(cards):
        return MeldCheck(None, "a card appears twice")
    if len(cards) < 3:
        return MeldCheck(None, f"a meld has at least 3 cards, not {len(cards)}")
    ranks = {rank_of(c) for c in cards}
    suits = {suit_of(c) for c in cards}
    if len(ranks) == 1:
        return MeldCheck(MeldKind.SET, "")
    if len(suits) != 1:
        return MeldCheck(None, "neither one rank (a set) nor one suit (a run)")
    rank_mask = sum(1 << r for r in ranks)
    tables = suit_tables(rules)
    if rank_mask in tables.run_masks:
        return MeldCheck(MeldKind.RUN, "")
    if rank_mask in suit_tables(MeldRules(ace_high_runs=True, wraparound_runs=True)).run_masks:
        if 0 in ranks and 12 in ranks and 1 in ranks:
            return MeldCheck(None, "runs do not turn the corner from king to ace to two")
        return MeldCheck(None, "the ace is low: it does not follow the king in a run")
    return MeldCheck(None, "the ranks are not consecutive")


def _run_order(cards: Sequence[Card], rules: MeldRules) -> tuple[Card, ...]:
    """Cards of a run in playing order (Q K A when the ace is high)."""
    suit = suit_of(cards[0])
    rank_mask = sum(1 << rank_of(c) for c in cards)
    tables = suit_tables(rules)
    ranks = tables.runs[tables.run_masks.index(rank_mask)]
    return tuple(suit * NUM_RANKS + r for r in ranks)


def make_meld(cards: Sequence[Card], rules: MeldRules = STANDARD) -> Meld:
    """Build a :class:`Meld` from cards in any order; raises MeldError with the reason."""
    check = check_meld(cards, rules)
    if check.kind is None:
        raise MeldError(f"not a meld: {' '.join(card_str(c) for c in cards)}: {check.reason}")
    if check.kind is MeldKind.SET:
        return Meld(tuple(sorted(cards, key=suit_of)), MeldKind.SET)
    return Meld(_run_order(cards, rules), MeldKind.RUN)


def _set_meld(rank: int, suits: Iterable[int]) -> Meld:
    return Meld(tuple(s * NUM_RANKS + rank for s in sorted(suits)), MeldKind.SET)


@implements("MELD.COUNT")
def all_melds(cards: Cards, rules: MeldRules = STANDARD) -> list[Meld]:
    """Every meld contained in the hand, sorted by :attr:`Meld.key` (MELD.COUNT)."""
    mask = to_mask(cards)
    tables = suit_tables(rules)
    melds: list[Meld] = []
    for rank in range(NUM_RANKS):
        suits = [s for s in range(4) if mask >> (s * NUM_RANKS + rank) & 1]
        for size in (3, 4):
            melds.extend(_set_meld(rank, combo) for combo in combinations(suits, size))
    for suit in range(4):
        suit_mask = mask >> (suit * NUM_RANKS) & SUIT_BITS
        for ranks, rm in zip(tables.runs, tables.run_masks, strict=True):
            if rm & suit_mask == rm:
                melds.append(Meld(tuple(suit * NUM_RANKS + r for r in ranks), MeldKind.RUN))
    melds.sort(key=lambda m: (m.key, m.kind.value))
    return melds


# --- minimum deadwood ------------------------------------------------------------------------


def _suits(mask: CardMask) -> tuple[int, int, int, int]:
    return (
        mask & SUIT_BITS,
        mask >> 13 & SUIT_BITS,
        mask >> 26 & SUIT_BITS,
        mask >> 39 & SUIT_BITS,
    )


def _ranks_with_three(s: Sequence[int]) -> int:
    """Rank mask of the ranks held in at least three suits."""
    a, b, c, d = s
    return (a & b & (c | d)) | ((a | b) & c & d)


def _set_options(rank: int, suit_masks: Sequence[int]) -> list[tuple[int, ...]]:
    """The suits a set of this rank may use: none, all present, or any three of four."""
    present = tuple(s for s in range(4) if suit_masks[s] >> rank & 1)
    options: list[tuple[int, ...]] = [()]
    if len(present) >= 3:
        options.append(present)
    if len(present) == 4:
        options.extend(combinations(present, 3))
    return options


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


MAX_ENUMERATED_SET_RANKS = 5
"""Above this many ranks held three or four times, standard rules use the rank DP."""

_STANDARD_TABLES = suit_tables(STANDARD)


def _tables(rules: MeldRules) -> SuitTables:
    return _STANDARD_TABLES if rules is STANDARD else suit_tables(rules)


_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""One bit per suit at rank 0: ``mask >> r & _COLUMN`` shows which suits hold rank ``r``."""


def _build_set_removals() -> tuple[dict[int, tuple[CardMask, ...]], ...]:
    """Table: ``_SET_REMOVALS[r][mask >> r & _COLUMN]`` lists the ways to take the set cards of
    rank ``r`` out of a hand holding that rank in three or four suits, as masks to XOR away: no
    set, all the cards of the rank, and (with four) each three of the four (MELD.SET). A rank
    holds at most one set, since two would need six cards.
    """
    tables = []
    for rank in range(NUM_RANKS):
        options: dict[int, tuple[CardMask, ...]] = {}
        for held in range(16):
            suits = [q for q in range(4) if held >> q & 1]
            if len(suits) < 3:
                continue
            column = sum(1 << (NUM_RANKS * q) for q in suits)
            choices = [0, column]
            if len(suits) == 4:
                choices.extend(column ^ 1 << (NUM_RANKS * q) for q in suits)
            options[column] = tuple(c << rank for c in choices)
        tables.append(options)
    return tuple(tables)


_SET_REMOVALS = _build_set_removals()
_STANDARD_DEAD = _STANDARD_TABLES.dead
_STANDARD_GAIN = _STANDARD_TABLES.gain


def _set_card_choices(mask: CardMask, ranks: int) -> list[CardMask]:
    """The hand minus its set cards, for every choice of sets at the ranks in ``ranks``.

    Set cards are always covered, so only what stays in the suits matters for the runs.
    """
    choices = [mask]
    while ranks:
        low = ranks & -ranks
        rank = low.bit_length() - 1
        options = _SET_REMOVALS[rank][mask >> rank & _COLUMN]
        choices = [m ^ o for m in choices for o in options]
        ranks ^= low
    return choices


def _min_deadwood_with_sets(mask: CardMask, three: int, quads: int, dead: Sequence[int]) -> int:
    """Least deadwood when some ranks are held three or four times (``three``; ``quads`` of them
    four times): every choice of set cards, the last rank's choice worked out in closed form.

    At the last rank ``r``, taking the card of suit ``q`` out changes only suit ``q``'s run
    deadwood, by ``e[q]`` (0 for a suit without rank ``r``). No set adds 0; a set of every card
    of the rank adds ``sum(e)``; with four, leaving suit ``q``'s card out adds ``sum(e) - e[q]``,
    least for the largest ``e[q]``. The rank with four cards, if any, is taken last: it has the
    most choices (six).
    """
    last = (quads or three) & -(quads or three)
    four = bool(quads & last)
    keep = SUIT_BITS ^ last
    best = 1 << 30
    head = three ^ last
    for m in _set_card_choices(mask, head) if head else (mask,):
        a, b, c, e = m & SUIT_BITS, m >> 13 & SUIT_BITS, m >> 26 & SUIT_BITS, m >> 39
        da, db, dc, de = dead[a], dead[b], dead[c], dead[e]
        ea, eb, ec, ee = dead[a & keep] - da, dead[b & keep] - db, dead[c & keep] - dc, dead[e & keep] - de
        total = ea + eb + ec + ee
        if four:
            total = min(0, total, total - max(ea, eb, ec, ee))
        elif total > 0:
            total = 0
        total += da + db + dc + de
        if total < best:
            best = total
    return best


# --- ten and eleven cards under standard rules: the hand code --------------------------------
#
# The two hand sizes of the game take a fast path. It adds up, two cards per dictionary look-up,
# one Python integer per hand, the *hand code*, made of four fields:
#
#   bits   0..8    the sum of the card values (CARD.VALUE, standard: ace 1)
#   bits   9..60   13 rank counters, 4 bits each: how many of the cards have that rank
#   bits  61..236  44 stretch counters, 4 bits each: for each three ranks in a row of one suit
#                  (A-2-3 up to J-Q-K, MELD.RUN: ace low, no wrap), how many of them are held
#   bits 237..288  the card mask (CARD.ENCODING)
#
# Up to eleven numbers, repeats included, nothing carries from one field into the next (values
# at most 11 x 10 < 2**9, a counter at most 11 < 16), so the mask field is the sum of the cards'
# bits: it has as many bits as there are cards exactly when no card is repeated.
#
# Every meld contains a meld of three cards: a set of four contains sets of three (MELD.SET), a
# run contains its first three cards (MELD.RUN). So a hand of distinct cards holds a meld exactly
# when one of its counters reaches 3. Adding 5 to every counter (at most 4 + 5 = 9, no carry)
# sets a counter's top bit exactly then. With no meld every card is deadwood; with no rank held
# three times no card can be in a set and the per-suit tables give the answer.
#
# The tables derive from the card encoding, the run rule and the standard values, and are built
# once at import (52 card codes and 52 x 52 pair codes: under a millisecond, about 0.3 MB;
# docs/performance.md).

_STRETCH_STARTS: tuple[Card, ...] = tuple(
    q * NUM_RANKS + r for q in range(4) for r in range(NUM_RANKS - 2)
)
"""The lowest card of every three cards in a row of one suit (ace low, no wrap)."""
_CODE_RANKS_AT = 9
_CODE_STRETCHES_AT = _CODE_RANKS_AT + 4 * NUM_RANKS
_CODE_MASK_AT = _CODE_STRETCHES_AT + 4 * len(_STRETCH_STARTS)
_CODE_VALUE = (1 << _CODE_RANKS_AT) - 1
_CODE_RANK_COUNTERS = (1 << _CODE_STRETCHES_AT) - 1 - _CODE_VALUE
_CODE_FIVES = sum(5 << k for k in range(_CODE_RANKS_AT, _CODE_MASK_AT, 4))
_CODE_EIGHTS = sum(8 << k for k in range(_CODE_RANKS_AT, _CODE_MASK_AT, 4))
"""``(code + _CODE_FIVES) & _CODE_EIGHTS``: the top bits of the counters that reached 3."""
_CODE_RANK_EIGHTS = _CODE_EIGHTS & _CODE_RANK_COUNTERS


def _card_code(card: Card) -> int:
    """One card's hand code: its value, a one in its rank's counter and in the counter of each
    stretch it belongs to, and its bit."""
    rank = rank_of(card)
    code = rank_value(rank, STANDARD) + (1 << (_CODE_RANKS_AT + 4 * rank)) + (1 << (_CODE_MASK_AT + card))
    for i, low in enumerate(_STRETCH_STARTS):
        if low <= card <= low + 2:
            code += 1 << (_CODE_STRETCHES_AT + 4 * i)
    return code


_CARD_CODES: dict[Card, int] = {c: _card_code(c) for c in range(52)}
_PAIR_CODES: dict[Card, dict[Card, int]] = {
    a: {b: _CARD_CODES[a] + _CARD_CODES[b] for b in range(52)} for a in range(52)
}
"""``_PAIR_CODES[a][b]``: the hand code of cards ``a`` and ``b``; a number that is not a card
raises KeyError (or TypeError), and :func:`to_mask` then names it."""
_TOP_VALUE: tuple[int, ...] = tuple(
    rank_value(max(0, (length - 1 - _CODE_RANKS_AT) // 4), STANDARD) for length in range(_CODE_STRETCHES_AT + 1)
)
"""``_TOP_VALUE[(code & _CODE_RANK_COUNTERS).bit_length()]``: the value of the highest rank held."""


@implements("DEADWOOD.MINIMUM")
def min_deadwood(cards: Cards, rules: MeldRules = STANDARD) -> int:
    """The least deadwood of the hand over all arrangements into disjoint melds.

    Without a rank held three times, no card can be in a set, so the answer is the sum of the
    four suits' run deadwood, read from :attr:`SuitTables.dead` (lemma SUIT-INDEPENDENCE). Ten
    cards under standard rules first go through the hand code (above): with no meld possible at
    all, the deadwood is the value of every card.

    Cards are ``int`` 0..51 or a mask; anything else raises :class:`CardError` naming it, except
    values equal to a card number: ``True``/``False`` and integral floats such as ``1.0`` pass as
    that card (1.0 and True are 2C), because the look-up tables find them as the equal ``int``;
    refusing them would cost a type test per card on this hot path (about 0.3 µs a hand, most of
    the margin over OpenSpiel). :func:`ginspec.spec.cards.check_card` refuses them.
    """
    match cards:
        case [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9] if rules is STANDARD:
            pairs = _PAIR_CODES
            try:
                code = pairs[c0][c1] + pairs[c2][c3] + pairs[c4][c5] + pairs[c6][c7] + pairs[c8][c9]
            except (KeyError, TypeError):
                code = 0  # a number that is not a card: to_mask below names it
            mask = code >> _CODE_MASK_AT
            if mask.bit_count() == 10:  # ten distinct cards
                full = (code + _CODE_FIVES) & _CODE_EIGHTS
                if not full:  # no meld possible: every card is deadwood
                    return code & _CODE_VALUE
                if not full & _CODE_RANK_EIGHTS:  # no set possible: runs only, suit by suit
                    dead = _STANDARD_DEAD
                    return (dead[mask & 0x1FFF] + dead[mask >> 13 & 0x1FFF]
                            + dead[mask >> 26 & 0x1FFF] + dead[mask >> 39])
                return _min_deadwood_of_mask(mask, rules)
    return _min_deadwood_of_mask(to_mask(cards), rules)


def _min_deadwood_of_mask(mask: CardMask, rules: MeldRules) -> int:
    """:func:`min_deadwood` of a valid card mask."""
    dead = _STANDARD_DEAD if rules is STANDARD else suit_tables(rules).dead
    a = mask & 0x1FFF  # the four suits' rank masks (SUIT_BITS, as a literal: hot path)
    b = mask >> 13 & 0x1FFF
    c = mask >> 26 & 0x1FFF
    e = mask >> 39
    if not (a & b & (c | e) | (a | b) & c & e):  # no rank held three times: no set
        return dead[a] + dead[b] + dead[c] + dead[e]
    three = a & b & (c | e) | (a | b) & c & e
    if three.bit_count() > MAX_ENUMERATED_SET_RANKS:
        return _min_deadwood_rank_dp((a, b, c, e), rules)
    return _min_deadwood_with_sets(mask, three, three & a & b & c & e, dead)


@implements("KNOCK.ELIGIBLE")
def min_deadwood_after_discard(cards: Cards, rules: MeldRules = STANDARD) -> int:
    """The least deadwood of the cards kept after the best discard (KNOCK.ELIGIBLE).

    For a fixed choice of set cards, discarding a card of suit q changes only that suit's run
    deadwood, by ``gain``; so the best discard is the best suit's gain (lemma DISCARD-BY-SUIT).
    Eleven cards under standard rules first go through the hand code (see :func:`min_deadwood`):
    with no meld possible, every card is deadwood and the best discard is the highest card.
    """
    match cards:
        case [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10] if rules is STANDARD:
            pairs = _PAIR_CODES
            try:
                code = (pairs[c0][c1] + pairs[c2][c3] + pairs[c4][c5] + pairs[c6][c7] + pairs[c8][c9]
                        + _CARD_CODES[c10])
            except (KeyError, TypeError):
                code = 0  # a number that is not a card: to_mask below names it
            mask = code >> _CODE_MASK_AT
            if mask.bit_count() == 11:  # eleven distinct cards
                full = (code + _CODE_FIVES) & _CODE_EIGHTS
                if not full:  # no meld possible: discard the highest card
                    return (code & _CODE_VALUE) - _TOP_VALUE[(code & _CODE_RANK_COUNTERS).bit_length()]
                if not full & _CODE_RANK_EIGHTS:  # no set possible
                    return _runs_after_discard(mask, _STANDARD_DEAD, _STANDARD_GAIN)
                return _after_discard_of_mask(mask, rules)
    return _after_discard_of_mask(to_mask(cards), rules)


def _after_discard_of_mask(mask: CardMask, rules: MeldRules) -> int:
    """:func:`min_deadwood_after_discard` of a valid card mask."""
    if not mask:
        raise MeldError("a hand needs at least one card to discard")
    if rules is STANDARD:
        dead, gain = _STANDARD_DEAD, _STANDARD_GAIN
    else:
        t = suit_tables(rules)
        dead, gain = t.dead, t.gain
    a = mask & 0x1FFF  # the four suits' rank masks (SUIT_BITS, as a literal: hot path)
    b = mask >> 13 & 0x1FFF
    c = mask >> 26 & 0x1FFF
    e = mask >> 39
    if not (a & b & (c | e) | (a | b) & c & e):  # no rank held three times: no set
        return _runs_after_discard(mask, dead, gain)
    three = a & b & (c | e) | (a | b) & c & e
    if three.bit_count() > MAX_ENUMERATED_SET_RANKS:
        return min(_min_deadwood_of_mask(mask ^ (1 << card), rules) for card in cards_of(mask))
    best = 1 << 30
    for m in _set_card_choices(mask, three):
        total = _runs_after_discard(m, dead, gain)
        if total < best:
            best = total
    return best


def _runs_after_discard(mask: CardMask, dead: Sequence[int], gain: Sequence[int]) -> int:
    """The best discard's deadwood when no card can be in a set: the four suits' run deadwood
    minus the largest of the four gains (found by comparisons; a call to max() costs more)."""
    a = mask & 0x1FFF
    b = mask >> 13 & 0x1FFF
    c = mask >> 26 & 0x1FFF
    e = mask >> 39
    g = gain[a]
    h = gain[b]
    if h > g:
        g = h
    h = gain[c]
    if h > g:
        g = h
    h = gain[e]
    if h > g:
        g = h
    return dead[a] + dead[b] + dead[c] + dead[e] - g


State = tuple[int, int, int, int]
"""Rank DP state: per suit, the length of the current stretch of run candidates (3 = 3 or more)."""


def _rank_dp(
    s: Sequence[int], values: Sequence[int], start: State, set_ranks: int
) -> dict[State, int]:
    """Dynamic programme over the positions ``0 .. len(values) - 1`` of the suit masks ``s``.

    A card is a *run candidate* when it is not put in a set. State: for each suit, the length
    (0, 1, 2 or 3 meaning "3 or more") of the stretch of consecutive run candidates ending at the
    previous position. A stretch that ends shorter than 3 is deadwood; a stretch of 3 or more is
    covered by runs (lemma LONG-RUNS-SPLIT). Sets may be formed only at the positions in
    ``set_ranks``. Returns the cost of every reachable final state, stretches still open at the
    end not yet paid; their cards are the last positions, read cyclically (``pending``).
    """
    size = len(values)

    def pending(position: int, length: int) -> int:
        return sum(values[(position - k) % size] for k in range(1, length + 1))

    states: dict[State, int] = {start: 0}
    for position in range(size):
        present = [bool(s[q] >> position & 1) for q in range(4)]
        options = _set_options(position, s) if set_ranks >> position & 1 else [()]
        nxt: dict[State, int] = {}
        for state, cost in states.items():
            for option in options:
                new_state = [0, 0, 0, 0]
                c = cost
                for q in range(4):
                    if present[q] and q not in option:
                        new_state[q] = min(state[q] + 1, 3)
                    elif state[q] in (1, 2):
                        c += pending(position, state[q])
                key = (new_state[0], new_state[1], new_state[2], new_state[3])
                if c < nxt.get(key, 1 << 30):
                    nxt[key] = c
        states = nxt
    return states


def _min_deadwood_rank_dp(s: Sequence[int], rules: MeldRules) -> int:
    """Minimum deadwood by dynamic programming over ranks (:func:`_rank_dp`), for hands with
    many ranks held three or four times, under any run rules:

    * standard: the ranks A..K in a line; stretches still open after the king are paid.
    * ace high: each suit's ace sits either below the two or above the king (position 13, where
      no set is formed); every placement of the aces is tried (at most 16).
    * turning the corner: the ranks form a circle. Guess, for each suit holding a king, the
      length ``g`` of the stretch that ends at the king and goes on into the ace; start the line at
      the ace with that stretch open (its cards paid, cyclically, if it ends short) and keep the
      runs whose stretch at the king has length ``g`` again.
    """
    values = [rank_value(r, rules) for r in range(NUM_RANKS)]
    all_ranks = SUIT_BITS
    zero: State = (0, 0, 0, 0)
    if rules.wraparound_runs:
        guesses = [(0, 1, 2, 3) if s[q] >> (NUM_RANKS - 1) & 1 else (0,) for q in range(4)]
        best = 1 << 30
        for g in product(*guesses):
            start: State = (g[0], g[1], g[2], g[3])
            for state, cost in _rank_dp(s, values, start, all_ranks).items():
                if state == start and cost < best:
                    best = cost
        return best

    def closed(states: dict[State, int], size: int) -> int:
        extra = [0, values[(size - 1) % NUM_RANKS]]
        extra.append(extra[1] + values[(size - 2) % NUM_RANKS])
        return min(cost + sum(extra[x] for x in st if x < 3) for st, cost in states.items())

    if not rules.ace_high_runs:
        return closed(_rank_dp(s, values, zero, all_ranks), NUM_RANKS)
    best = 1 << 30
    aces = [q for q in range(4) if s[q] & 1]
    line = [*values, rules.ace_value]  # position 13: an ace above the king
    for k in range(len(aces) + 1):
        for high in combinations(aces, k):
            moved = [m ^ 1 ^ 1 << NUM_RANKS if q in high else m for q, m in enumerate(s)]
            states = _rank_dp(moved, line, zero, all_ranks)
            best = min(best, closed(states, NUM_RANKS + 1))
    return best


# --- arrangements ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Arrangement:
    """A partition of a hand into disjoint melds and deadwood (DEADWOOD.ARRANGEMENT)."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    @property
    def key(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(m.key for m in self.melds)

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        dead = " ".join(card_str(c) for c in self.deadwood_cards)
        return " / ".join(parts) + (f" | {dead}" if dead else "")

    def __repr__(self) -> str:
        return f"Arrangement.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, rules: MeldRules = STANDARD) -> Arrangement:
        """Parse ``'7H 7D 7S / 8C 9C TC | 2S 3D'``: melds split by ``/``, deadwood after ``|``."""
        meld_part, _, dead_part = text.partition("|")
        melds = [Meld.parse(m, rules) for m in meld_part.split("/") if m.strip()]
        dead = parse_cards(dead_part)
        return arrangement_of(melds, dead, rules)


@implements("DEADWOOD.VALUE")
def arrangement_of(
    melds: Iterable[Meld], deadwood_cards: Iterable[Card], rules: MeldRules = STANDARD
) -> Arrangement:
    """An :class:`Arrangement` in canonical order (melds by key, deadwood by card number)."""
    ordered = tuple(sorted(melds, key=lambda m: m.key))
    dead = tuple(sorted(deadwood_cards))
    return Arrangement(ordered, dead, sum(card_value(c, rules.ace_value) for c in dead))


@implements("DEADWOOD.ARRANGEMENT", "MELD.DISJOINT")
def check_arrangement(
    hand: Cards, melds: Iterable[Sequence[Card]], rules: MeldRules = STANDARD
) -> Arrangement:
    """Validate a declared arrangement of ``hand``; raise MeldError naming the first fault.

    Every meld must be a meld under ``rules``, use only cards of the hand, and share no card
    with another meld. The cards of the hand in no meld are the deadwood.
    """
    hand_mask = to_mask(hand)
    used = 0
    built: list[Meld] = []
    for cards in melds:
        meld = make_meld(list(cards), rules)
        text = str(meld)
        if meld.mask & ~hand_mask:
            missing = " ".join(card_str(c) for c in cards_of(meld.mask & ~hand_mask))
            raise MeldError(f"meld {text} uses {missing}, not in the hand")
        if meld.mask & used:
            shared = " ".join(card_str(c) for c in cards_of(meld.mask & used))
            raise MeldError(f"meld {text} shares {shared} with another meld")
        used |= meld.mask
        built.append(meld)
    return arrangement_of(built, cards_of(hand_mask & ~used), rules)


def _arrangements_for_masks(
    s: Sequence[int], sets: list[Meld], tables: SuitTables
) -> Iterator[list[Meld]]:
    """All run partitions of the four suit masks reaching the per-suit optimum, plus ``sets``."""
    per_suit: list[list[list[Meld]]] = []
    for q in range(4):
        parts = []
        for partition in run_partitions(s[q], tables):
            parts.append(
                [
                    Meld(tuple(q * NUM_RANKS + r for r in tables.runs[i]), MeldKind.RUN)
                    for i in partition
                ]
            )
        per_suit.append(parts)
    for p0 in per_suit[0]:
        for p1 in per_suit[1]:
            for p2 in per_suit[2]:
                for p3 in per_suit[3]:
                    yield [*sets, *p0, *p1, *p2, *p3]


@implements("DEADWOOD.ARRANGEMENTS")
def optimal_arrangements(
    cards: Cards, rules: MeldRules = STANDARD, limit: int | None = None
) -> list[Arrangement]:
    """Every arrangement with minimum deadwood, in canonical order (by their melds' keys).

    ``limit`` stops after that many arrangements have been found (before sorting), for hands so
    large that the list explodes; with no limit the list is complete.
    """
    mask = to_mask(cards)
    tables = _tables(rules)
    best = min_deadwood(mask, rules)
    s0 = list(_suits(mask))
    ranks = _bits(_ranks_with_three(s0))
    found: list[Arrangement] = []

    def walk(i: int, s: list[int], sets: list[Meld]) -> bool:
        if i == len(ranks):
            dead = sum(tables.dead[x] for x in s)
            if dead != best:
                return True
            for melds in _arrangements_for_masks(s, sets, tables):
                covered = 0
                for m in melds:
                    covered |= m.mask
                found.append(arrangement_of(melds, cards_of(mask & ~covered), rules))
                if limit is not None and len(found) >= limit:
                    return False
            return True
        rank = ranks[i]
        for option in _set_options(rank, s):
            for q in option:
                s[q] ^= 1 << rank
            go_on = walk(i + 1, s, [*sets, _set_meld(rank, option)] if option else sets)
            for q in option:
                s[q] ^= 1 << rank
            if not go_on:
                return False
        return True

    walk(0, s0, [])
    found.sort(key=lambda a: a.key)
    return found


# --- eleven cards: the best discard ---------------------------------------------------------


@dataclass(frozen=True)
class DiscardAnalysis:
    """For an 11-card hand: the deadwood after each discard and the best discards (KNOCK.ELIGIBLE)."""

    after_discard: tuple[tuple[Card, int], ...]
    deadwood: int
    best_discards: tuple[Card, ...]
    big_gin: bool

    def __repr__(self) -> str:
        return (
            f"DiscardAnalysis(deadwood={self.deadwood}, best_discards="
            f"{tuple(card_str(c) for c in self.best_discards)!r}, big_gin={self.big_gin})"
        )


@implements("KNOCK.ELIGIBLE", "KNOCK.BIG-GIN-SHAPE")
def analyse_discards(cards: Cards, rules: MeldRules = STANDARD) -> DiscardAnalysis:
    """Minimum over every possible discard of the optimum of the cards kept.

    This — not "meld all the cards and drop the highest leftover" — decides knock and gin
    eligibility (KNOCK.ELIGIBLE). ``big_gin`` is true when all the cards together have no
    deadwood (KNOCK.BIG-GIN-SHAPE).
    """
    mask = to_mask(cards)
    if mask == 0:
        raise MeldError("a hand needs at least one card to discard")
    results = tuple((c, min_deadwood(mask ^ (1 << c), rules)) for c in cards_of(mask))
    best = min(d for _, d in results)
    return DiscardAnalysis(
        after_discard=results,
        deadwood=best,
        best_discards=tuple(c for c, d in results if d == best),
        big_gin=min_deadwood(mask, rules) == 0,
    )

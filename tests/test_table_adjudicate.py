"""The table adjudicator (chapter 14, TABLE.BEST-PLAY): seed 001's worked examples, an independent
brute force of the best play, a replay of every ruling through the table engine, and an
enumeration of every defender's legal showdown actions in the engine.

The brute force shares no code with the adjudicator: melds and packings come from
tests/meld_oracle.py (written from the meld clauses alone), a layoff under
``original_melds_only`` is "the declared meld plus this one card is a meld" (TABLE.LAYOFF-ORIGINAL),
and penalties are worked out from TABLE.UNDERCUT and TABLE.PENALTY as the spec words them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from ginspec.reference.table import (
    TableDeal,
    TableRuling,
    TableSeatError,
    TableState,
    adjudicate_table,
    table_rules_for_profile,
)
from ginspec.reference.table.table_state import TablePhase
from ginspec.spec.cards import card_str, parse_card, parse_cards
from ginspec.spec.errors import DuplicateCardError, GinspecError, HandSizeError, ParameterError
from ginspec.spec.profiles import ruleset
from hypothesis import given, settings
from hypothesis import strategies as st
from meld_oracle import Rules, deadwood_of, meld_kind, oracle_min_deadwood, oracle_partitions

STD = Rules()
SIX_HEARTS = ["7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC"]


def rules_for(players: int, **overrides: object) -> object:
    return ruleset("serbian-online", {**overrides, "players": players})


def rule(hands: Sequence[str], knocker: int = 0, discard: str | None = None,
         **overrides: object) -> TableRuling:
    return adjudicate_table([parse_cards(h) for h in hands], knocker,
                            ruleset("serbian-online", {**overrides, "players": len(hands)}),
                            discard=parse_card(discard) if discard else None)


# --- seed 001's examples ---------------------------------------------------------------------


def test_six_hearts_blocks_five_hearts_with_the_reason_in_the_trail() -> None:
    # Seed 001: "the player added 6H, so the player who plays third cannot add 5H".
    r = rule(SIX_HEARTS, 0, "3C")
    assert [(p.seat, [card_str(x.card) for x in p.layoffs]) for p in r.defenders] == \
        [(1, ["6H"]), (2, [])]
    assert r.penalties == (0, 20, 24)
    texts = [t for c, t in r.trail if c == "TABLE.LAYOFF-ORIGINAL"]
    assert len(texts) == 1 and "5H" in texts[0] and "6H" in texts[0] and "seat 1" in texts[0]
    clauses = [c for c, _ in r.trail]
    assert clauses.index("TABLE.UNDERCUT") < clauses.index("TABLE.PENALTY")


def test_turn_order_starts_left_of_the_knocker() -> None:
    # Seat 2 knocks: seat 0 then seat 1 spread. Seat 1 holds 6H, seat 0 5H: under
    # original_melds_only neither can lay off below 7H 8H 9H except the 6H.
    hands = ["5H 3S 3D 3H QS QH AC", "6H 4C 4D 4S TS JD 2D", "7H 8H 9H KC KD KS 2C"]
    r = rule(hands, 2, "3C")
    assert [p.seat for p in r.defenders] == [0, 1]
    assert r.deadwood == (26, 22, 2)
    chained = rule(hands, 2, "3C", layoff_chain="unlimited")
    # seat 0 spreads before seat 1 has laid off 6H, so the 5H cannot follow it
    assert chained.deadwood == (26, 22, 2)


def test_a_card_laid_off_in_turn_enables_the_next_only_with_chains() -> None:
    r = rule(SIX_HEARTS, 0, "3C", layoff_chain="unlimited")
    assert r.deadwood == (2, 22, 21)
    assert ("LAYOFF.CHAIN", "seat 2 lays off 5H onto 7H 8H 9H") in r.trail


def test_gin_at_the_table_still_takes_layoffs_unless_forbidden() -> None:
    hands = ["7H 8H 9H TH KC KD KS", "6H 4C 4D 4S TS JD 2D", "JH 3S 3D 3H QS QH AC"]
    assert rule(hands, 0, "2C").penalties == (0, 47, 46)
    strict = rule(hands, 0, "2C", layoff_after_gin="forbidden")
    assert strict.deadwood == (0, 28, 31)
    assert strict.penalties == (0, 53, 56)
    assert any(c == "LAYOFF.AFTER-GIN" and "6H" in t for c, t in strict.trail)


def test_an_illegal_knock_is_a_verdict_with_no_penalties() -> None:
    hands = ["7H 8H KC KD KS 2C 4S", "6H 4C 4D 5S TS JD 2D", "5H 3S 3D 3H QS QH AC"]
    r = rule(hands, 0, "3C")
    assert r.outcome == "illegal_knock"
    assert r.penalties is None and r.deadwood is None and r.defenders == ()
    assert r.trail[0][0] == "TABLE.KNOCK" and "above the knock limit 10" in r.trail[0][1]


def test_fixed_declaration_is_ruled_as_given_or_refused() -> None:
    hands = [parse_cards(h) for h in SIX_HEARTS]
    rs = rules_for(3)
    given_ = adjudicate_table(hands, 0, rs, discard=parse_card("3C"),
                              knocker_melds=[parse_cards("KC KD KS"), parse_cards("7H 8H 9H")])
    assert given_.penalties == (0, 20, 24) and given_.declarations_considered == 1
    refused = adjudicate_table(hands, 0, rs, knocker_melds=[parse_cards("KC KD KS")])
    assert refused.outcome == "illegal_knock"
    assert "above the knock limit" in refused.trail[0][1]
    with pytest.raises(GinspecError, match="5H is not among the knocker's kept cards"):
        adjudicate_table(hands, 0, rs, knocker_melds=[parse_cards("5H 6H 7H")])


def test_json_and_repr() -> None:
    r = rule(SIX_HEARTS, 0, "3C")
    data = r.to_json()
    assert data["penalties"] == [0, 20, 24] and data["winner"] == 0
    assert data["undercutter"] is None
    assert data["defenders"][0]["layoffs"] == [
        {"card": "6H", "onto": ["7H", "8H", "9H"], "action": "layoff 6H to 7H"}]
    assert sorted(data["table"]) == [["6H", "7H", "8H", "9H"], ["KC", "KD", "KS"]]
    from ginspec.reference.layoffs import Declaration, Layoff, TableMeld  # noqa: F401
    from ginspec.reference.melds import Meld  # noqa: F401
    from ginspec.reference.table import DefenderPlay  # noqa: F401

    assert eval(repr(r)) == r


@pytest.mark.parametrize(
    ("hands", "knocker", "discard", "error", "needle"),
    [
        (SIX_HEARTS, 3, "3C", TableSeatError, "seat 3 is not a seat"),
        (SIX_HEARTS, -1, "3C", TableSeatError, "seat -1"),
        ([SIX_HEARTS[0], SIX_HEARTS[1].replace("2D", "2C"), SIX_HEARTS[2]], 0, "3C",
         DuplicateCardError, "2C given to both seat 0 and seat 1"),
        (SIX_HEARTS, 0, "5H", DuplicateCardError, "discard: 5H"),
        ([SIX_HEARTS[0], SIX_HEARTS[1] + " 9C", SIX_HEARTS[2]], 0, "3C", HandSizeError,
         "seat 1 holds 8 cards"),
        ([SIX_HEARTS[0] + " 3C", *SIX_HEARTS[1:]], 0, "9C", HandSizeError,
         r"seat 0 \(the knocker\) has 8 cards"),
        (SIX_HEARTS[:2], 0, "3C", TableSeatError, "3 or 4 players, not 2"),
    ],
)
def test_bad_positions_name_the_fault(hands: list[str], knocker: int, discard: str,
                                      error: type[Exception], needle: str) -> None:
    with pytest.raises(error, match=needle):
        rule(hands, knocker, discard)


def test_a_ruleset_that_is_not_the_table_game_is_refused() -> None:
    with pytest.raises(ParameterError, match="game_system"):
        adjudicate_table([parse_cards(h) for h in SIX_HEARTS], 0, ruleset("pagat"))


# --- the independent brute force ---------------------------------------------------------------


def _fits(meld: frozenset[int], card: int) -> bool:
    """TABLE.LAYOFF-ORIGINAL: the declared meld with this one card added is still a meld."""
    return card not in meld and meld_kind(sorted(meld | {card}), STD) is not None


def _defender_least(hand: Sequence[int], declared: Sequence[frozenset[int]]) -> int:
    """The least deadwood a defender can keep: try every subset of the cards that fit a
    declared meld as laid off, meld the rest as well as possible."""
    layable = [c for c in hand if any(_fits(m, c) for m in declared)]
    best = 1 << 30
    for k in range(len(layable) + 1):
        for laid in combinations(layable, k):
            rest = [c for c in hand if c not in laid]
            best = min(best, oracle_min_deadwood(rest, STD))
    return best


def _penalties(knocker: int, deadwood: Sequence[int]) -> list[int]:
    """TABLE.UNDERCUT and TABLE.PENALTY, from their wording (gin and undercut bonus 25)."""
    n = len(deadwood)
    dk = deadwood[knocker]
    if dk == 0:
        return [0 if s == knocker else deadwood[s] + 25 for s in range(n)]
    order = [(knocker + i) % n for i in range(1, n)]
    under = [s for s in order if deadwood[s] < dk]
    if not under:
        return [0 if s == knocker else deadwood[s] - dk for s in range(n)]
    low = min(deadwood[s] for s in under)
    winner = next(s for s in order if deadwood[s] == low)
    out = [0 if s == winner else deadwood[s] - low for s in range(n)]
    out[knocker] += 25
    return out


def _net(knocker: int, pens: Sequence[int]) -> int:
    return sum(p - pens[knocker] for s, p in enumerate(pens) if s != knocker)


def brute_force(hands: Sequence[Sequence[int]], knocker: int) -> tuple[int | None, int]:
    """(the knocker's best net, or None when he has no legal knock; the least declared deadwood
    among the declarations reaching it) under serbian-online."""
    n = len(hands)
    khand = list(hands[knocker])
    kept_options = [khand] if len(khand) == 7 else [
        [c for c in khand if c != d] for d in khand]
    best: tuple[int, int] | None = None
    for kept in kept_options:
        for packing in oracle_partitions(kept, STD):
            dk = deadwood_of(kept, packing, STD)
            if dk > 10:
                continue
            deadwood = [0] * n
            deadwood[knocker] = dk
            for s in range(n):
                if s != knocker:
                    deadwood[s] = _defender_least(hands[s], packing)
            key = (_net(knocker, _penalties(knocker, deadwood)), -dk)
            if best is None or key > best:
                best = key
    if best is None:
        return None, 0
    return best[0], -best[1]


def _melds_as_sets(r: TableRuling) -> list[frozenset[int]]:
    assert r.declaration is not None
    return [frozenset(m.cards) for m in r.declaration.melds]


RUN_OR_SET = st.tuples(st.booleans(), st.integers(0, 3), st.integers(0, 12), st.integers(3, 4))


def _meld(kind_set: bool, suit: int, rank: int, size: int, rnd: random.Random) -> list[int]:
    if kind_set:
        suits = rnd.sample(range(4), size)
        return [s * 13 + rank for s in suits]
    start = min(rank, 13 - size)
    return [suit * 13 + r for r in range(start, start + size)]


@st.composite
def table_positions(draw: st.DrawFn) -> tuple[list[list[int]], int]:
    """3 or 4 hands; the knocker's 8 cards hold two melds when they do not clash; the defenders
    are dealt the cards next to the knocker's melds first, so that layoffs are common."""
    rnd = draw(st.randoms(use_true_random=False))
    players = draw(st.sampled_from([3, 4]))
    knocker = draw(st.integers(0, players - 1))
    first, second = draw(RUN_OR_SET), draw(RUN_OR_SET)
    kept = _meld(*first, rnd)
    more = [c for c in _meld(*second, rnd) if c not in kept]
    kept += more[: 7 - len(kept)] if len(more) >= 3 else []
    rest = [c for c in range(52) if c not in kept]
    low = [c for c in rest if c % 13 < 5]
    rnd.shuffle(low)
    while len(kept) < 8:
        kept.append(low.pop())
    rest = [c for c in range(52) if c not in kept]
    near = [c for c in rest if any((abs(c - k) <= 2 and c // 13 == k // 13) or c % 13 == k % 13
                                   for k in kept)]
    rnd.shuffle(near)
    far = [c for c in rest if c not in near]
    rnd.shuffle(far)
    pool = near[: rnd.randint(2, 8)]
    pool += [c for c in far + near if c not in pool]
    hands: list[list[int]] = []
    for s in range(players):
        if s == knocker:
            hands.append(sorted(kept))
        else:
            hands.append(sorted(pool[:7]))
            pool = pool[7:]
    return hands, knocker


@settings(max_examples=60, deadline=None)
@given(table_positions())
def test_rulings_match_the_brute_force(position: tuple[list[list[int]], int]) -> None:
    hands, knocker = position
    r = adjudicate_table(hands, knocker, rules_for(len(hands)))
    net, least_dk = brute_force(hands, knocker)
    if net is None:
        assert r.outcome == "illegal_knock"
        return
    assert r.penalties is not None and r.deadwood is not None and r.declaration is not None
    assert _net(knocker, r.penalties) == net
    assert r.declaration.deadwood == least_dk
    declared = _melds_as_sets(r)
    for s in range(len(hands)):
        if s != knocker:
            assert r.deadwood[s] == _defender_least(hands[s], declared), s
    assert list(r.penalties) == _penalties(knocker, r.deadwood)


# --- the engine: replay, and every defender's legal choices -------------------------------------


def _engine_at_knock(hands: Sequence[Sequence[int]], r: TableRuling,
                     overrides: dict[str, object]) -> TableState:
    """The table engine just before the knock, seats rotated so that the knocker is seat 0:
    he was dealt his kept cards but one, with the discard, and draws the missing card."""
    n = len(hands)
    k = r.knocker
    assert r.discard is not None
    kept = [c for c in hands[k] if c != r.discard]
    drawn = kept[-1]
    dealt = [*kept[:-1], r.discard]
    rotated = [dealt if s == 0 else list(hands[(k + s) % n]) for s in range(n)]
    used = {c for h in rotated for c in h} | {drawn}
    upcard = next(c for c in range(52) if c not in used)
    deal = TableDeal.from_hands([" ".join(card_str(c) for c in h) for h in rotated],
                                card_str(upcard), card_str(drawn))
    state = TableState.new(deal, table_rules_for_profile("serbian-online", overrides, players=n))
    return state.apply("draw-stock")


def _best_over_engine_choices(state: TableState) -> int:
    """The least deadwood the defender to move can keep, over every legal sequence of his
    showdown actions (meld, layoffs, done) that the engine accepts."""
    seat = state.to_move
    best = 1 << 30
    stack = [state]
    while stack:
        s = stack.pop()
        if s.to_move != seat or s.phase is TablePhase.OVER:
            ace = 1
            dead = s.dead[seat]
            best = min(best, sum(min(10, c % 13 + 1) if c % 13 else ace
                                 for c in range(52) if dead >> c & 1))
            continue
        for action in s.legal_actions():
            stack.append(s.apply(action))
    return best


@pytest.mark.parametrize("chain", ["original_melds_only", "unlimited"])
@settings(max_examples=25, deadline=None)
@given(position=table_positions())
def test_rulings_replay_in_the_engine_and_no_defender_can_do_better(
        chain: str, position: tuple[list[list[int]], int]) -> None:
    hands, knocker = position
    overrides: dict[str, object] = {"layoff_chain": chain}
    r = adjudicate_table(hands, knocker, rules_for(len(hands), **overrides))
    if r.outcome == "illegal_knock":
        return
    state = _engine_at_knock(hands, r, overrides)
    n = len(hands)
    actions = r.actions()
    state = state.apply(actions[0]).apply(actions[1])  # knock, declare
    rest = list(actions[2:])
    for play in r.defenders:
        # no sequence of legal showdown actions leaves this defender less deadwood
        assert _best_over_engine_choices(state) == play.deadwood
        for text in play.actions():
            state = state.apply(text)
        assert rest[: len(play.actions())] == list(play.actions())
        rest = rest[len(play.actions()):]
    assert state.result is not None
    engine = [state.result.deadwood[(s - knocker) % n] for s in range(n)]
    assert tuple(engine) == r.deadwood
    assert tuple(state.result.penalties.penalties[(s - knocker) % n] for s in range(n)) == \
        r.penalties

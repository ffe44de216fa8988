"""The adapter of OpenSpiel's ``gin_rummy`` (module ``pyspiel``, extra ``ginspec[openspiel]``):
``ginspec conform --adapter openspiel``.

How OpenSpiel plays a hand (read from open_spiel/games/gin_rummy/gin_rummy.{h,cc} and checked by
running it; see docs/conformance/peer-rules.md):

* Players are 0 and 1 and player 0 always acts first, so OpenSpiel's player 0 is our
  non-dealer. The deal and every stock draw are chance nodes; this driver answers each chance
  node with the card our deal puts there, so the hand follows the case's deal exactly.
* Action ids: 0..51 a card (deal, discard, the discard after a knock, a layoff), 52 draw the
  upcard, 53 draw from the stock, 54 pass, 55 knock, 56..240 lay one meld of 3..5 cards.
* A knock is two actions (55, then the discard); the declaration is one meld action each, then
  pass. The defender first lays off single cards, passes, lays melds, passes. Our grammar has
  one action for each of these choices, so one of our actions becomes several of OpenSpiel's.
* A run of six or more cards has no meld id; it is laid as several runs of 3..5 cards.

OpenSpiel does not score matches: each hand is a game (``returns()`` are the hand's points).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.adapters.action_text import (
    ActionTextError,
    Canonical,
    canonical,
    format_action,
    merge_runs,
    parse_melds,
)
from ginspec.conformance.adapters.base import JSONObject, Unsupported
from ginspec.conformance.adapters.deal_layout import DealLayout, layout
from ginspec.conformance.adapters.peer import (
    Params,
    PeerAdapter,
    PeerUnavailable,
    knock_result,
    void_result,
)
from ginspec.spec.cards import Card, card_str, parse_cards
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import Value
from ginspec.spec.profiles import ruleset

DRAW_UPCARD: Final = 52
DRAW_STOCK: Final = 53
PASS: Final = 54
KNOCK: Final = 55
MELD_BASE: Final = 56

FIXED_RULES: Final[Mapping[str, Value]] = {
    "first_turn": "upcard_offer",
    "discard_taken_card": "always",
    "take_and_return_void": True,
    "discard_take_cap": 50,
    "undercut_on_tie": "no_score",
    "big_gin_bonus": 0,
    "knock_on_wall_draw": True,
    "wall_action": "take_and_knock_any_discard",
    "wall_size": 2,
    "layoff_chain": "unlimited",
    "layoff_after_gin": "forbidden",
    "knocker_may_lay_off": False,
    "knocker_must_meld_maximally": False,
    "gin_compulsory": False,
    "spade_double": "off",
    "ace_high_runs": False,
    "wraparound_runs": False,
    "ace_value": 1,
}
"""The rule choices OpenSpiel makes with no parameter (our parameter names and values)."""

TUNABLE: Final[Mapping[str, str]] = {
    "knock_limit": "knock_card",
    "oklahoma": "oklahoma",
    "gin_bonus": "gin_bonus",
    "undercut_bonus": "undercut_bonus",
}
"""Our parameter -> OpenSpiel game parameter."""


MELD_GROUPS_MAX_CARDS: Final = 13
"""AllMeldGroups walks every path of disjoint melds (exponential in the hand): arrangements of
more cards than a hand and a few draws are declined rather than left to run for minutes."""

MIN_DEADWOOD_MAX_CARDS: Final = 10
"""OpenSpiel's MinDeadwood answers the deadwood question for at most 10 cards: for 11 it gives the
deadwood left after a discard (another question, used by its knock test) and above that it
enumerates every meld group. Larger deadwood questions are declined (protocol 2)."""


def to_os(card: Card) -> int:
    """Our card number -> OpenSpiel's (suits s c d h, ranks ace low)."""
    return ((card // 13 + 1) % 4) * 13 + card % 13


def from_os(card: int) -> Card:
    """OpenSpiel's card number -> ours (suits C D H S)."""
    return ((card // 13 + 3) % 4) * 13 + card % 13


def _load_pyspiel() -> Any:
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise PeerUnavailable(
            f"OpenSpiel is not installed ({exc}); install it with pip install 'ginspec[openspiel]'"
        ) from exc


def _fits(meld: frozenset[Card], card: Card) -> bool:
    """Whether ``card`` extends ``meld`` as it lies (LAYOFF.SET, LAYOFF.RUN)."""
    ranks = {c % 13 for c in meld}
    suits = {c // 13 for c in meld}
    if len(ranks) == 1:
        return len(meld) == 3 and card % 13 in ranks and card not in meld
    return suits == {card // 13} and card % 13 in (min(ranks) - 1, max(ranks) + 1)


def _splits(run: list[Card]) -> list[list[list[Card]]]:
    """Every way to write a run as consecutive runs of three or more cards."""
    out: list[list[list[Card]]] = [[run]]
    for cut in range(3, len(run) - 2):
        out += [[run[:cut], *rest] for rest in _splits(run[cut:])]
    return out


def _spellings(melds: Iterable[frozenset[Card]]) -> list[list[frozenset[Card]]]:
    """The ways to write a spread whose runs of six or more may be written in parts."""
    ways: list[list[frozenset[Card]]] = [[]]
    for meld in sorted(melds, key=min):
        cards = sorted(meld)
        is_run = len({c // 13 for c in cards}) == 1 and len(cards) >= 6
        options = _splits(cards) if is_run else [[cards]]
        ways = [[*w, *(frozenset(p) for p in opt)] for w in ways for opt in options]
    return ways


def _pieces(run: Sequence[Card]) -> list[list[Card]]:
    """A run split into runs of 3..5 cards (OpenSpiel has no id for longer ones)."""
    cards = sorted(run)
    out: list[list[Card]] = []
    while len(cards) > 5:
        out.append(cards[:3])
        cards = cards[3:]
    out.append(cards)
    return out


class OpenSpielError(GinspecError):
    """OpenSpiel did something its adapter cannot follow (a deal it refuses, a meld it cannot
    name)."""


class OpenSpielAdapter(PeerAdapter):
    """Plays single hands on ``pyspiel.load_game("gin_rummy", ...)``."""

    name = "openspiel"
    homepage = "https://github.com/google-deepmind/open_spiel"
    capabilities = ("hand", "legal-actions", "melding.explicit", "layoff.explicit", "query.meld",
                    "query.knock", "query.melds-count", "query.knock-limit", "query.layoff",
                    "query.deadwood", "query.arrangements")
    overridable = ("knock_limit", "oklahoma", "gin_bonus", "undercut_bonus")  # OKLAHOMA.ACE: gin only
    limitations = (
        "single hands only: no match scoring",
        "no rejection codes: an illegal action is refused as 'not among OpenSpiel's "
        "legal actions'",
        "layoffs name no target meld; the adapter names the knocker's meld the card fits",
        "melds of more than five cards are laid as several runs",
        "deadwood queries: MinDeadwood answers for at most 10 cards (for 11 it gives "
        "the deadwood after a discard; above that it enumerates every meld group): "
        "larger hands are declined",
        "layoff queries: AllLayoffs is the defender's layoffs after a knock; knocker "
        "and after-gin layoffs are declined",
        "arrangements queries: AllMeldGroups is made of melds of 3..5 cards, so a run of six "
        "or more is only ever split (never counted whole)",
        "meld and melds-count queries of cards repeating a card are declined: IsRankMeld "
        "and AllMelds take a hand, which never holds a card twice",
        "no function answers the card, arrangement, declaration, defence, adjudicate, score, "
        "match or next-dealer queries (CardInt reads OpenSpiel's own 'As' spelling and checks "
        "nothing; scoring lives inside the game state): those capabilities are not declared",
    )

    def __init__(self) -> None:
        self._pyspiel = _load_pyspiel()
        gr = importlib.import_module("pyspiel.gin_rummy")
        self._utils = gr.GinRummyUtils(13, 4, 10)
        self._phase = gr.Phase
        self._meld_of: dict[int, frozenset[Card]] = {
            i: frozenset(from_os(c) for c in self._utils.int_to_meld[i]) for i in range(185)}
        self._id_of: dict[frozenset[Card], int] = {v: k for k, v in self._meld_of.items()}
        version = getattr(self._pyspiel, "__version__", "")
        if not version:
            from importlib.metadata import version as dist_version
            version = dist_version("open-spiel")
        self.version = version
        self._state: Any = None
        self._games: dict[tuple[tuple[str, Value], ...], Any] = {}

    # -- set-up ---------------------------------------------------------------------------

    def engine_reasons(self, params: Params) -> list[str]:
        reasons = []
        for name, value in FIXED_RULES.items():
            if name in params and params[name] != value:
                reasons.append(f"{name}={params[name]!r}: OpenSpiel always plays {value!r}")
        if params.get("oklahoma") and params.get("oklahoma_ace", "gin_only") != "gin_only":
            reasons.append("oklahoma_ace: OpenSpiel's ace knock card means gin only")
        limit = params.get("knock_limit", 10)
        if not isinstance(limit, int) or not 0 <= limit <= 10:
            reasons.append(f"knock_limit={limit!r}: OpenSpiel accepts 0..10")
        return reasons

    def start(self, deck: Sequence[Card], dealer: int, params: Params) -> None:
        lay = layout(deck, dealer, "upcard_offer")
        game_params = tuple(sorted(
            (os_name, params[ours]) for ours, os_name in TUNABLE.items() if ours in params))
        game = self._games.get(game_params)
        if game is None:
            game = self._pyspiel.load_game("gin_rummy", dict(game_params))
            self._games[game_params] = game
        self._layout: DealLayout = lay
        self._state = game.new_initial_state()
        nd, d = lay.non_dealer, lay.dealer
        assert lay.upcard is not None
        self._chance: list[Card] = [*lay.hands[nd], *lay.hands[d], lay.upcard, *lay.stock]
        self._next_chance = 0
        self._declared: list[frozenset[Card]] = []
        self._defender_melds: list[frozenset[Card]] | None = None
        self._laid: dict[Card, frozenset[Card]] = {}
        self._knock_card: int | None = None
        self._cache: tuple[int, list[str], dict[Canonical, list[int]]] | None = None
        self._resolve_chance()

    # -- helpers --------------------------------------------------------------------------

    def _ours(self, os_player: int) -> int:
        """Our player number of OpenSpiel's player (its player 0 is our non-dealer)."""
        return self._layout.non_dealer if os_player == 0 else self._layout.dealer

    def _resolve_chance(self) -> None:
        state = self._state
        while state.is_chance_node():
            if self._next_chance >= len(self._chance):
                raise OpenSpielError("OpenSpiel asked for more cards than the deal holds")
            card = to_os(self._chance[self._next_chance])
            self._next_chance += 1
            if card not in {a for a, _ in state.chance_outcomes()}:
                raise OpenSpielError(f"OpenSpiel refused the dealt card {card}")
            state.apply_action(card)

    def _require(self) -> Any:
        if self._state is None:
            raise OpenSpielError("no hand in progress: call new_hand first")
        return self._state

    def _phase_name(self) -> str:
        state = self._require()
        p = state.current_phase()
        ph = self._phase
        if p == ph.GAME_OVER or state.is_terminal():
            return "over"
        if p == ph.FIRST_UPCARD:
            passed = state.pass_on_first_upcard()
            if passed[0] and passed[1]:
                return "first-draw"
            return "offer-non-dealer" if state.current_player() == 0 else "offer-dealer"
        if p == ph.DRAW:
            return "draw"
        if p == ph.DISCARD:
            return "discard"
        if p == ph.WALL:
            return "wall"
        if p == ph.KNOCK:
            hand = state.hands()[state.current_player()]
            return "wall-knock" if len(hand) == 11 else "declare"
        if p == ph.LAYOFF:
            return "defender-meld" if self._defender_melds is None else "defender-layoff"
        raise OpenSpielError(f"unexpected OpenSpiel phase {p}")  # pragma: no cover

    def _meld_sets(self, state: Any, done_allowed: bool) -> list[tuple[int, ...]]:
        """Every set of meld ids OpenSpiel lets the player lay from ``state`` (laid in
        increasing id order, which reaches every set: legality does not depend on order).
        ``done_allowed``: a set counts only where OpenSpiel then accepts pass."""
        found: list[tuple[int, ...]] = []

        def walk(s: Any, laid: tuple[int, ...]) -> None:
            legal = s.legal_actions()
            if PASS in legal or not done_allowed:
                found.append(laid)
            last = laid[-1] if laid else MELD_BASE - 1
            for a in legal:
                if a > last and a >= MELD_BASE:
                    child = s.clone()
                    child.apply_action(a)
                    walk(child, (*laid, a))

        walk(state, ())
        return found

    def _meld_cards(self, ids: Iterable[int]) -> frozenset[frozenset[Card]]:
        return merge_runs(self._meld_of[a - MELD_BASE] for a in ids)

    def _os_meld_actions(self, melds: Iterable[frozenset[Card]]) -> list[int]:
        out: list[int] = []
        for meld in melds:
            pieces = _pieces(sorted(meld)) if len(meld) > 5 else [sorted(meld)]
            for piece in pieces:
                key = frozenset(piece)
                if key not in self._id_of:
                    raise OpenSpielError(f"OpenSpiel has no meld id for {sorted(piece)}")
                out.append(self._id_of[key] + MELD_BASE)
        return out

    def _layoff_targets(self, card: Card) -> list[Card]:
        """Anchors (lowest card of the declared meld) of the knocker's melds ``card`` fits.

        OpenSpiel's layoffs name no meld: it counts a laid-off card as extending every meld
        it fits. The driver keeps the targets our actions named and offers a card on each meld
        it fits as laid out (a set of three takes its fourth card, a run a card at either end).
        Only when a card OpenSpiel offers fits none of them is the target taken from
        OpenSpiel's own per-meld judgement, so that offer stays visible as a difference."""
        anchors = []
        for meld in self._declared:
            on_table = meld | self._laid.get(min(meld), frozenset())
            if _fits(on_table, card):
                anchors.append(min(meld))
        if anchors:
            return anchors
        done = list(self._state.layoffs())
        for meld in self._declared:
            ids = [a - MELD_BASE for a in self._os_meld_actions([meld])]
            if to_os(card) in self._utils.all_layoffs(ids, done):
                anchors.append(min(meld))
        return anchors

    def _table(self) -> tuple[list[str], dict[Canonical, list[int]]]:
        """Legal actions as our strings, and for each its OpenSpiel action sequence."""
        state = self._require()
        key = len(state.history())
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        phase = self._phase_name()
        legal = [] if phase == "over" else list(state.legal_actions())
        plan: dict[str, list[int]] = {}
        if phase in ("offer-non-dealer", "offer-dealer", "first-draw"):
            names = {DRAW_UPCARD: "take-upcard", PASS: "pass", DRAW_STOCK: "draw-stock"}
            plan = {names[a]: [a] for a in legal}
        elif phase == "draw":
            names = {DRAW_UPCARD: "take-discard", DRAW_STOCK: "draw-stock"}
            plan = {names[a]: [a] for a in legal}
        elif phase == "wall":
            names = {PASS: "pass", KNOCK: "take-discard"}
            plan = {names[a]: [a] for a in legal}
        elif phase in ("discard", "wall-knock"):
            knocking = phase == "wall-knock"
            for a in legal:
                if a < 52:
                    verb = "knock" if knocking else "discard"
                    plan[format_action(verb, from_os(a))] = [a]
                elif a == KNOCK:
                    child = state.clone()
                    child.apply_action(KNOCK)
                    for c in child.legal_actions():
                        plan[format_action("knock", from_os(c))] = [KNOCK, c]
        elif phase == "declare":
            for ids in self._meld_sets(state, done_allowed=True):
                melds = self._meld_cards(ids)
                for spelling in _spellings(melds):
                    plan[format_action("declare", spelling)] = [
                        *self._os_meld_actions(spelling), PASS]
        elif phase == "defender-meld":
            start = state
            if not state.finished_layoffs():
                start = state.clone()
                start.apply_action(PASS)
            gin = state.finished_layoffs()
            for ids in self._meld_sets(start, done_allowed=False):
                melds = self._meld_cards(ids)
                # After gin there is nothing to lay off: the spread ends the hand at once.
                for spelling in _spellings(melds):
                    plan[format_action("meld", spelling)] = (
                        [*self._os_meld_actions(spelling), PASS] if gin else [])
        elif phase == "defender-layoff":
            assert self._defender_melds is not None
            held = frozenset().union(*self._defender_melds) if self._defender_melds else frozenset()
            if not state.finished_layoffs():
                for a in legal:
                    if a < 52 and from_os(a) not in held:
                        for anchor in self._layoff_targets(from_os(a)):
                            plan[format_action("layoff", from_os(a), anchor)] = [a]
            finish = [] if state.finished_layoffs() else [PASS]
            plan["done"] = [*finish, *self._os_meld_actions(self._defender_melds), PASS]
        strings = sorted(plan)
        by_canon = {canonical(s): plan[s] for s in strings}
        self._cache = (key, strings, by_canon)
        return strings, by_canon

    # -- queries, answered by OpenSpiel's own GinRummyUtils ---------------------------------

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        """OpenSpiel's own GinRummyUtils answer; a question they cannot ask is declined."""
        params = dict(ruleset(profile, dict(overrides))) if profile else dict(overrides)
        return self._answer(what, args, params)

    def _answer(self, what: str, args: Mapping[str, object], params: Params) -> JSONObject:
        """``meld``: IsRankMeld/IsSuitMeld; ``arrangements``: AllMeldGroups (see
        :meth:`_optimal_groups`); ``melds-count``: AllMelds (melds of 3..5 cards —
        OpenSpiel writes a longer run as several); ``deadwood``: MinDeadwood; ``knock``:
        MinDeadwood of the 11 cards (what OpenSpiel's knock test uses), the discards whose
        10-card MinDeadwood is least; ``knock-limit``: the knock card of a deal with that
        upcard under the rules asked about (``oklahoma``, ``knock_limit``)."""
        if any(params.get(k, False) for k in ("ace_high_runs", "wraparound_runs")) or \
                params.get("ace_value", 1) != 1:
            raise Unsupported("OpenSpiel plays ace-low runs, no wraparound, ace = 1")
        u = self._utils
        if what == "knock-limit":
            upcard = parse_cards([str(args["upcard"])])[0]
            return {"limit": self._oklahoma_limit(upcard, params)}
        if what == "layoff":
            return self._layoffs(args, params)
        raw = args.get("cards", [])
        assert isinstance(raw, list)
        cards = [to_os(c) for c in parse_cards([str(t) for t in raw], distinct=what != "meld")]
        if len(set(cards)) != len(cards):
            raise Unsupported("OpenSpiel's meld functions take a hand: no card twice")
        if what == "meld":
            return {"valid": bool(u.is_rank_meld(cards) or u.is_suit_meld(cards))}
        if what == "arrangements":
            return {"count": self._optimal_groups(cards)}
        if what == "melds-count":
            return {"count": len(u.all_melds(cards))}
        if what == "deadwood":
            if len(cards) > MIN_DEADWOOD_MAX_CARDS:
                raise Unsupported(f"MinDeadwood answers the deadwood of at most 10 cards, "
                                       f"not {len(cards)}")
            return {"deadwood": int(u.min_deadwood(cards))}
        if what == "knock":
            limit = int(params.get("knock_limit", 10))
            if params.get("oklahoma") and "upcard" in args:
                limit = self._oklahoma_limit(parse_cards([str(args["upcard"])])[0], params)
            eleven = int(u.min_deadwood(cards))
            after = {c: int(u.min_deadwood([x for x in cards if x != c])) for c in cards}
            best = min(after.values())
            return {"deadwood": eleven, "can_knock": eleven <= limit, "gin": eleven == 0,
                    "big_gin": False,
                    "best_discards": [card_str(from_os(c)) for c in cards if after[c] == best]}
        raise Unsupported(f"OpenSpiel answers no {what!r} query")

    def _optimal_groups(self, cards: list[int]) -> int:
        """``arrangements``: the distinct meld groups of AllMeldGroups (it lists each group once
        per order of its melds) whose TotalCardValue is that of BestMeldGroup, the value
        OpenSpiel's MinDeadwood keeps (DEADWOOD.ARRANGEMENTS). With no meld at all AllMeldGroups
        is empty and BestMeldGroup the empty group: one arrangement."""
        if len(cards) > MELD_GROUPS_MAX_CARDS:
            raise Unsupported(f"AllMeldGroups enumerates every path of melds: at most "
                              f"{MELD_GROUPS_MAX_CARDS} cards, not {len(cards)}")
        u = self._utils
        best = int(u.total_card_value(u.best_meld_group(cards)))
        groups = {frozenset(frozenset(m) for m in g) for g in u.all_meld_groups(cards)}
        return max(1, sum(1 for g in groups
                          if int(u.total_card_value([sorted(m) for m in g])) == best))

    def _layoffs(self, args: Mapping[str, object], params: Params) -> JSONObject:
        """``layoff``: AllLayoffs(knocker's melds, cards laid off before), which OpenSpiel's
        layoff phase uses for the defender after a knock. A question it cannot express (the
        knocker laying off, layoffs against gin, original-melds-only chains, a meld of more
        than five cards) is declined."""
        if args.get("side", "defender") != "defender" or args.get("gin"):
            raise Unsupported("AllLayoffs is the defender's layoffs after a knock: no "
                                   "knocker or after-gin layoffs")
        if params.get("layoff_chain", "unlimited") != "unlimited":
            raise Unsupported("OpenSpiel always lets laid-off cards be built on")
        table = args["table"]
        assert isinstance(table, list)
        melds = [self._id_of.get(frozenset(parse_cards([str(t) for t in m]))) for m in table]
        if None in melds:
            raise Unsupported("OpenSpiel's melds have 3 to 5 cards")
        laid = args.get("laid", [])
        assert isinstance(laid, list)
        before = [to_os(parse_cards([str(x).split()[0]])[0]) for x in laid]
        fits = set(self._utils.all_layoffs(melds, before))
        offered = args["cards"]
        assert isinstance(offered, list)
        return {"layable": [str(t) for t in offered
                            if to_os(parse_cards([str(t)])[0]) in fits]}

    def _oklahoma_limit(self, upcard: Card, params: Params) -> int:
        game = self._pyspiel.load_game("gin_rummy", {  # the rules asked about, not Oklahoma's
            "oklahoma": bool(params.get("oklahoma", False)),
            "knock_card": int(params.get("knock_limit", 10))})
        state = game.new_initial_state()
        rest = [c for c in range(52) if c != upcard]
        for c in [*rest[:20], upcard]:
            state.apply_action(to_os(c))
        return int(state.knock_card())

    # -- the adapter interface -------------------------------------------------------------

    def legal_actions(self) -> list[str]:
        return list(self._table()[0])

    def phase(self) -> str:
        return self._phase_name()

    def to_act(self) -> int | None:
        state = self._require()
        return None if self._phase_name() == "over" else self._ours(state.current_player())

    def play(self, action: str) -> bool:
        phase = self._phase_name()
        try:
            canon = canonical(action)
        except ActionTextError:
            return False
        _, by_canon = self._table()
        if canon not in by_canon:
            return False  # not among OpenSpiel's legal actions in this phase
        if phase == "defender-meld" and not self._state.finished_layoffs():
            melds = canon[1]
            assert isinstance(melds, frozenset)
            self._defender_melds = sorted(melds, key=min)
            self._cache = None
            return True
        if phase == "declare":
            # Keep the melds as written: a layoff names its target by the declared meld.
            self._declared = sorted((frozenset(m) for m in parse_melds(action.split(None, 1)[1])),
                                    key=min)
        if phase == "defender-layoff" and canon[0] == "layoff":
            card, anchor = canon[1], canon[2]
            assert isinstance(card, int) and isinstance(anchor, int)
            key = next(min(m) for m in self._declared if anchor in m
                       or anchor in self._laid.get(min(m), frozenset()))
            self._laid[key] = self._laid.get(key, frozenset()) | {card}
        if canon[0] == "knock" and isinstance(canon[1], int):
            self._knock_card = to_os(canon[1])
        for a in by_canon[canon]:
            self._state.apply_action(a)
            self._resolve_chance()
        self._cache = None
        return True

    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        state = self._require()
        hands_os = state.hands()
        laid = state.layed_melds()
        knocked = state.knocked()
        hands: list[tuple[Card, ...]] = [(), ()]
        for p in (0, 1):
            # Our hands keep the cards a player has spread or laid off (they stay his until
            # the count); OpenSpiel removes them from its hand lists.
            held = {from_os(c) for c in hands_os[p]}
            for meld_id in laid[p]:
                held |= self._meld_of[meld_id]
            if knocked[1 - p]:
                held |= {from_os(c) for c in state.layoffs()}
            hands[self._ours(p)] = tuple(sorted(held))
        return hands[0], hands[1]

    def discard_top(self) -> Card | None:
        state = self._require()
        up = state.upcard()
        # OpenSpiel keeps face-up discards under its upcard and puts the knock card (face down,
        # KNOCK.PROCEDURE) on the same pile; the top discard is the last face-up card.
        pile = [c for c in state.discard_pile() if c != self._knock_card]
        return from_os(up) if up is not None else (from_os(pile[-1]) if pile else None)

    def stock_size(self) -> int:
        return int(self._require().stock_size())

    def hand_result(self) -> JSONObject:
        state = self._require()
        returns = state.returns()
        # OpenSpiel's returns are zero-sum (the loser's is negative); points are what each
        # player scores, so the loser scores 0.
        points = [0, 0]
        for p in (0, 1):
            points[self._ours(p)] = max(0, int(returns[p]))
        knocked = state.knocked()
        if not any(knocked):
            return void_result(scored=True)
        os_knocker = 0 if knocked[0] else 1
        dw_os = state.deadwood()
        deadwood = [0, 0]
        for p in (0, 1):
            deadwood[self._ours(p)] = int(dw_os[p])
        return knock_result(self._ours(os_knocker), deadwood, points, dw_os[os_knocker] == 0)

    def void_reason(self) -> str:
        """Why OpenSpiel ended the hand with nobody out (its own rule, in words)."""
        state = self._state
        hist = [a for a in state.history()]
        if state.stock_size() == 2 and hist and hist[-1] == PASS:
            return "wall: the player at the wall passed"
        if sum(1 for a in hist if a == DRAW_UPCARD) >= 50:
            return "50 upcard draws: OpenSpiel ends the hand (kMaxNumDrawUpcardActions)"
        return "both players took the upcard and discarded it again in succession"

"""One typed view of a ruleset, read by every engine, and the parameters each engine honours.

:class:`Rules` has one typed field per parameter of ``spec/parameters.toml`` (same names), named
predicates for the questions engines ask (``knock_limit_from_upcard``, ``upcard_offer``,
``hand_size`` ...), and the two projections the meld and showdown functions take
(``meld_rules``, ``showdown``). Build it with :func:`game_rules` (a ``Ruleset`` or any mapping;
missing names take their catalogue default) or :func:`rules_for_profile`.

An :class:`Engine` names the parameters it honours (and, for some, the values it plays). A
ruleset that sets any other parameter away from its catalogue default is refused by
:meth:`Engine.check` with one line naming the parameter and the engine (SYSTEM.KIND): nothing is
accepted and ignored.

    >>> rules = rules_for_profile("oklahoma")
    >>> rules.knock_limit_from_upcard, rules.game_target
    (True, 150)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any, cast

from ginspec.reference.layoffs import LayoffAfterGin, LayoffChain, ShowdownRules
from ginspec.reference.meld_rules import MeldRules
from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import Value, check_combination, complete, parameters, value_text
from ginspec.spec.profiles import Ruleset, ruleset


class RuleValues(dict[str, Value]):
    """:attr:`Rules.params`: every parameter's value of one :class:`Rules`, which it names
    (``rules``), so that a function given the values need not check and type them again."""

    __slots__ = ("rules",)

    def __init__(self, rules: Rules) -> None:
        super().__init__((f.name, getattr(rules, f.name)) for f in fields(rules) if f.name != "name")
        self.rules = rules


@dataclass(frozen=True, eq=False)
class Rules:
    """Every parameter of a ruleset as a typed field (names as in the catalogue), and ``name``:
    the profile it came from ("custom" for a bare mapping)."""

    ace_high_runs: bool
    wraparound_runs: bool
    ace_value: int
    knock_limit: int
    gin_compulsory: bool
    big_gin_bonus: int
    knock_card_face_up: bool
    knocker_must_meld_maximally: bool
    layoff_chain: str
    layoff_after_gin: str
    knocker_may_lay_off: bool
    first_turn: str
    both_pass_free_draw: bool
    discard_taken_card: str
    take_and_return_void: bool
    discard_take_cap: int
    wall_size: int
    knock_on_wall_draw: bool
    wall_action: str
    redeal_dealer: str
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: str
    oklahoma: bool
    oklahoma_ace: str
    spade_double: str
    game_target: int
    game_bonus: int
    box_bonus: int
    boxes_count_toward_target: bool
    extra_boxes: bool
    shutout_effect: str
    shutout_bonus: int
    shutout_test: str
    first_dealer: str
    next_dealer: str
    game_system: str
    players: int
    penalty_limit: int
    prize_winner_share: int
    prize_window: int
    three_player_mode: str
    partnership_draw: str
    hollywood_games: int
    hollywood_settlement: str
    name: str = field(default="custom", kw_only=True)

    # --- named predicates ------------------------------------------------------------------

    @property
    def knock_limit_from_upcard(self) -> bool:
        """OKLAHOMA.KNOCK-LIMIT: the hand's first upcard sets the knock limit (not knock_limit)."""
        return self.oklahoma

    @property
    def spade_upcard_doubles(self) -> bool:
        """OKLAHOMA.SPADES: a spade upcard doubles the hand's score."""
        return self.oklahoma and self.spade_double != "off"

    @property
    def eleven_card_start(self) -> bool:
        """ELEVEN.DEAL: the non-dealer is dealt eleven cards and no upcard is turned."""
        return self.first_turn == "eleven_card_start"

    @property
    def upcard_offer(self) -> bool:
        """FIRST.UPCARD-OFFER: the upcard is offered to the non-dealer, then the dealer."""
        return self.first_turn == "upcard_offer"

    @property
    def plain_first_turn(self) -> bool:
        """FIRST.PLAIN: the first player draws from the stock or takes the upcard like any
        discard; nobody is offered it."""
        return self.first_turn == "plain"

    @property
    def hand_size(self) -> int:
        """TABLE.DEAL: ten cards each for two players, seven for three or four."""
        return 10 if self.players == 2 else 7

    # --- views for the meld and showdown functions and for scoring -------------------------

    @cached_property
    def params(self) -> RuleValues:
        """Every parameter's value, in catalogue order (for the scoring functions)."""
        return RuleValues(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The meld legality and card values ("MELD.RUN.ACE-LOW", "MELD.RUN.NO-WRAP")."""
        return MeldRules(ace_high_runs=self.ace_high_runs, wraparound_runs=self.wraparound_runs,
                         ace_value=self.ace_value)

    @cached_property
    def showdown(self) -> ShowdownRules:
        """The showdown rules with limit 10: an engine replaces the limit per hand."""
        return ShowdownRules(
            knock_limit=10,
            layoff_chain=cast(LayoffChain, self.layoff_chain),
            layoff_after_gin=cast(LayoffAfterGin, self.layoff_after_gin),
            knocker_may_lay_off=self.knocker_may_lay_off,
            knocker_must_meld_maximally=self.knocker_must_meld_maximally,
            big_gin=self.big_gin_bonus > 0,
            meld_rules=self.meld_rules,
        )

    def __repr__(self) -> str:
        return f"Rules(name={self.name!r})"

# --- which parameters a computation reads (conformance/CASES.md, "What a case depends on") ---

_READS: list[set[str]] = []
"""The read logs of the :func:`recording_reads` blocks now open (innermost last)."""


@contextmanager
def recording_reads() -> Iterator[set[str]]:
    """A block that collects the names of the parameters the reference reads.

    Inside it, :func:`game_rules` and :func:`rules_for_profile` return rules that log every
    parameter read (a field, a named predicate's fields, the ``params`` values, the meld and
    showdown projections); the set yielded holds them when the block ends. Whatever the rules say
    outside that set, the computation goes the same way, so a case's expectations depend on
    those parameters only."""
    reads: set[str] = set()
    _READS.append(reads)
    try:
        yield reads
    finally:
        _READS.pop()


@contextmanager
def reads_paused() -> Iterator[None]:
    """A block whose parameter reads are not logged (checking a whole declaration is no rule
    being applied)."""
    saved = _READS[:]
    _READS.clear()
    try:
        yield
    finally:
        _READS[:] = saved


def note_reads(*names: str) -> None:
    """Log ``names`` as read in every open :func:`recording_reads` block."""
    for log in _READS:
        log.update(names)


_PARAMETER_NAMES: frozenset[str] = frozenset(parameters())


class _LoggedValues(RuleValues):
    """:class:`RuleValues` that log each value read (a whole-mapping read logs every name)."""

    __slots__ = ()

    def __init__(self, rules: Rules) -> None:
        dict.__init__(self, ((f.name, object.__getattribute__(rules, f.name)) for f in fields(rules)
                             if f.name != "name"))
        self.rules = rules

    def __getitem__(self, name: str) -> Value:
        note_reads(name)
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        if name in self:
            note_reads(name)
        return dict.get(self, name, default)

    def __iter__(self) -> Iterator[str]:
        note_reads(*dict.keys(self))
        return dict.__iter__(self)

    def keys(self) -> Any:
        note_reads(*dict.keys(self))
        return dict.keys(self)

    def values(self) -> Any:
        note_reads(*dict.keys(self))
        return dict.values(self)

    def items(self) -> Any:
        note_reads(*dict.keys(self))
        return dict.items(self)


class _LoggedRules(Rules):
    """:class:`Rules` that log each parameter field read (see :func:`recording_reads`)."""

    def __getattribute__(self, name: str) -> Any:
        if name in _PARAMETER_NAMES:
            note_reads(name)
        return object.__getattribute__(self, name)

    @cached_property
    def params(self) -> RuleValues:
        return _LoggedValues(self)


def _logged(rules: Rules) -> Rules:
    """``rules`` as fresh :class:`_LoggedRules` (nothing cached from an earlier read) inside a
    :func:`recording_reads` block; outside one, ``rules`` itself."""
    if not _READS:
        return rules
    values = {f.name: object.__getattribute__(rules, f.name) for f in fields(rules)}
    return _LoggedRules(**values)


def game_rules(params: Mapping[str, Value] | None = None, name: str | None = None) -> Rules:
    """The typed rules of a Ruleset or a mapping (missing names default; unknown names, bad
    values and impossible combinations raise ParameterError)."""
    if isinstance(params, RuleValues) and name in (None, params.rules.name):
        return params.rules  # already typed and checked
    label = name or str(getattr(params, "name", "custom"))
    values = complete(params or {})
    check_combination(values)
    rules = Rules(**values, name=label)  # type: ignore[arg-type]
    return _logged(rules)


def to_rules(rules: Rules | Mapping[str, Value]) -> Rules:
    """``rules`` typed, converted once at a function's boundary: :class:`Rules` as they are, the
    values of typed rules (:attr:`Rules.params`) their rules, a Ruleset or a mapping through
    :func:`game_rules` (a Ruleset's typed rules are cached)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, RuleValues):
        return rules.rules
    if isinstance(rules, Ruleset):
        typed = _ruleset_rules(rules)
        return _logged(typed)
    return game_rules(rules)


@lru_cache(maxsize=64)
def _ruleset_rules(rules: Ruleset) -> Rules:
    with reads_paused():  # the cache keeps plain rules
        return game_rules(rules)


@lru_cache(maxsize=64)
def _profile_rules(profile: str, overrides: tuple[tuple[str, Value], ...]) -> Rules:
    with reads_paused():  # the cache keeps plain rules
        return game_rules(ruleset(profile, dict(overrides)), name=profile)


def rules_for_profile(profile: str, overrides: Mapping[str, Value] | None = None) -> Rules:
    """The typed rules of a named profile with overrides (``ginspec.spec.profiles``); a profile
    that is not a name or overrides that are not a mapping of checked values raise
    :class:`~ginspec.spec.errors.ParameterError`."""
    key = _checked_key(profile, overrides)
    known = _CHECKED.get(key) if key is not None else None
    if known is None:
        checked = ruleset(profile, overrides)  # validates names, types and values first
        known = (checked.name, tuple(sorted(checked.overrides.items())))
        if key is not None:
            if len(_CHECKED) >= _CHECKED_MAX:
                _CHECKED.clear()
            _CHECKED[key] = known
    rules = _profile_rules(*known)
    return _logged(rules)


_CHECKED: dict[tuple[object, ...], tuple[str, tuple[tuple[str, Value], ...]]] = {}
"""A profile and overrides that :func:`ruleset` accepted -> what it made of them (checking the
same ones again is most of the cost of a hand's start)."""
_CHECKED_MAX = 4096


def _checked_key(profile: object, overrides: Mapping[str, Value] | None) -> tuple[object, ...] | None:
    """``profile`` and ``overrides`` as a key that tells ``True`` from ``1`` (None: not a name
    and plain values, which :func:`ruleset` checks every time)."""
    if type(profile) is not str:
        return None
    if overrides is None:
        return (profile,)
    if type(overrides) is not dict:
        return None
    key: list[object] = [profile]
    for name, value in overrides.items():
        if type(value) not in (bool, int, str) or type(name) is not str:
            return None
        key += (name, type(value), value)
    return tuple(key)


HAND_PARAMETERS: frozenset[str] = frozenset({
    "ace_high_runs", "wraparound_runs", "ace_value", "knock_limit", "gin_compulsory",
    "big_gin_bonus", "knock_card_face_up", "knocker_must_meld_maximally", "layoff_chain",
    "layoff_after_gin", "knocker_may_lay_off", "first_turn", "both_pass_free_draw",
    "discard_taken_card", "take_and_return_void", "discard_take_cap", "wall_size",
    "knock_on_wall_draw", "wall_action",
    "gin_bonus", "undercut_bonus", "undercut_on_tie", "oklahoma", "oklahoma_ace", "spade_double",
})
"""The parameters of one two-player hand (chapters 01-10, 12, 13): what ``HandState`` reads."""

GAME_SCORE_PARAMETERS: frozenset[str] = frozenset({
    "game_target", "game_bonus", "box_bonus", "boxes_count_toward_target", "extra_boxes",
    "shutout_effect", "shutout_bonus", "shutout_test",
})
"""The parameters of a game's score (chapter 11: MATCH.*): ``scoring.final_scores`` reads them."""

DEALER_PARAMETERS: frozenset[str] = frozenset({"first_dealer", "next_dealer", "redeal_dealer"})
"""Who deals the first hand, the hand after a scored hand, and after a void hand."""


@dataclass(frozen=True)
class Engine:
    """An engine's declaration: the parameters it honours; for some, the only values it plays.

    ``check`` refuses a ruleset that moves any other parameter away from its catalogue default,
    or gives a restricted parameter a value the engine does not play.
    """

    name: str
    honours: frozenset[str]
    plays: Mapping[str, frozenset[Value]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        known = parameters()
        for pname in (*self.honours, *self.plays):
            if pname not in known:
                raise ParameterError(f"engine {self.name}: unknown parameter {pname!r}")
        for pname in self.plays:
            if pname not in self.honours:
                raise ParameterError(f"engine {self.name}: {pname} restricted but not honoured")

    def refusal(self, rules: Rules) -> str | None:
        """The one-line reason ``rules`` is refused, or None if the engine plays it."""
        with reads_paused():
            return self._refusal(rules)

    def _refusal(self, rules: Rules) -> str | None:
        for pname, param in parameters().items():
            value = rules.params[pname]
            shown = value_text(value)
            if pname not in self.honours:
                if value != param.default:
                    return (f"parameter {pname}={shown}: the {self.name} engine does not play "
                            f"this parameter (it must keep its default)")
            elif pname in self.plays and value not in self.plays[pname]:
                allowed = "|".join(sorted(value_text(v) for v in self.plays[pname]))
                return (f"parameter {pname}={shown}: the {self.name} engine plays only "
                        f"{allowed}")
        return None

    def check(self, rules: Rules) -> Rules:
        """``rules`` if the engine plays them, else ParameterError (one line)."""
        reason = self.refusal(rules)
        if reason is not None:
            raise ParameterError(reason)
        return rules

    def applies(self, pname: str) -> bool:
        """Whether ``pname`` means anything to this engine (``ginspec rules`` shows only
        these)."""
        return pname in self.honours

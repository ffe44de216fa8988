"""Conformance cases for seed 001's table game (chapter 14, TABLE.*): hands of three and four
players (case kind ``table-hand``, capabilities ``table-game.3`` / ``table-game.4``).

Four families, in this order:

* the chapter's ``table-play`` examples (``spec.<example id>``), with the spec's own values;
* scripted positions (``table.<name>``): the deal itself, one refused action per rejection code
  the table can give, the walls, the seed's worked examples; every expected value here is
  written from the chapter's text, and the build stops if the reference disagrees;
* seeded playouts of whole hands between the built-in table strategies (``table.play.*``), kept
  only when they add coverage (a players-by-outcome pair, a layoff, a reshuffle not yet seen);
  their expected values are the reference engine's, as for the two-player full hands;
* the two-player form of the seed's "24 down to 4" layoff example, as an ordinary ``hand`` case
  under ``serbian-online`` (TABLE.PLAYERS: two players play the two-player game).

A refused step names the clause the chapter ties to its code (TABLE.REJECTION), and a checkpoint
right after it checks that the refusal changed nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ginspec.conformance.adapters.reference_table import table_observation
from ginspec.conformance.cases import Case
from ginspec.conformance.generate.games import DEAL_CLAUSES, known
from ginspec.reference.game import Deal, HandState, Rejection, parse_action, rules_for_profile
from ginspec.reference.table import TableDeal, TableState, table_rules_for_profile
from ginspec.reference.table.table_strategies import GreedyTableStrategy, RandomTableStrategy
from ginspec.spec.cards import card_str
from ginspec.spec.clauses import Example, registry

PROFILE: Final = "serbian-online"

CODE_CLAUSE: Final[dict[str, str]] = {
    "NOT_YOUR_TURN": "TABLE.TURN-ORDER",
    "CARD_NOT_IN_HAND": "TABLE.TURN",
    "DISCARD_OF_TAKEN_CARD": "TABLE.TURN",
    "KNOCK_OVER_LIMIT": "TABLE.KNOCK",
    "DECLARATION_NOT_A_MELD": "TABLE.KNOCK",
    "DECLARATION_CARD_NOT_HELD": "TABLE.KNOCK",
    "DECLARATION_CARD_TWICE": "TABLE.KNOCK",
    "DECLARATION_OVER_LIMIT": "TABLE.KNOCK",
    "DECLARATION_NOT_MAXIMAL": "TABLE.KNOCK",
    "DEFENDER_MELD_INVALID": "TABLE.SHOWDOWN",
    "LAYOFF_NO_SUCH_MELD": "TABLE.SHOWDOWN",
    "LAYOFF_DOES_NOT_FIT": "TABLE.SHOWDOWN",
    "LAYOFF_CARD_NOT_HELD": "TABLE.SHOWDOWN",
    "LAYOFF_AFTER_GIN": "TABLE.SHOWDOWN",
    "LAYOFF_CHAINED": "TABLE.LAYOFF-ORIGINAL",
    "WRONG_PHASE": "TABLE.REJECTION",
    "HAND_OVER": "TABLE.REJECTION",
    "MALFORMED_ACTION": "ACTION.GRAMMAR",
}
"""The clause each refusal breaks, as TABLE.REJECTION lists them (a malformed action breaks the
shared grammar, ACTION.GRAMMAR)."""

VERB_CLAUSES: Final[dict[str, tuple[str, ...]]] = {
    "draw-stock": ("TABLE.TURN",),
    "take-discard": ("TABLE.TURN",),
    "discard": ("TABLE.TURN",),
    "knock": ("TABLE.TURN", "TABLE.KNOCK"),
    "declare": ("TABLE.KNOCK",),
    "meld": ("TABLE.SHOWDOWN",),
    "layoff": ("TABLE.SHOWDOWN", "TABLE.LAYOFF-ORIGINAL"),
    "done": ("TABLE.SHOWDOWN",),
}
BASE_CLAUSES: Final = ("TABLE.PLAYERS", "TABLE.DEAL", "TABLE.TURN-ORDER", "TABLE.REJECTION")
OUTCOME_DECIDES: Final[dict[str, tuple[str, ...]]] = {
    "knock": ("TABLE.UNDERCUT", "TABLE.PENALTY"),
    "gin": ("TABLE.UNDERCUT", "TABLE.PENALTY"),
    "undercut": ("TABLE.UNDERCUT", "TABLE.PENALTY"),
    "void": ("TABLE.WALL",),
}
"""The clauses that decide a finished hand's result: who wins (TABLE.UNDERCUT) and what each
player is charged (TABLE.PENALTY); a void hand is decided by the wall (TABLE.WALL)."""

RESULT_BLAME: Final[dict[str, dict[str, str]]] = {
    o: {"blame.outcome": "TABLE.UNDERCUT", "blame.winner": "TABLE.UNDERCUT",
        "blame.deadwood": "TABLE.SHOWDOWN", "blame.penalties": "TABLE.PENALTY",
        "blame.knocker": "TABLE.KNOCK"}
    for o in ("knock", "gin", "undercut")
}
"""The clause blamed for each wrong result field (the runner reads ``source.blame.<field>``)."""


class TableCaseError(AssertionError):
    """A scripted expectation (written from the spec) and the reference disagree: the build
    stops, so that either the script or the engine gets fixed."""


@dataclass
class Script:
    """A table hand being written: the deal, the steps so far and their checkpoints."""

    deal: TableDeal
    overrides: dict[str, Any] = field(default_factory=dict)
    profile: str = PROFILE
    steps: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    clauses: set[str] = field(default_factory=lambda: set(BASE_CLAUSES))
    violates: set[str] = field(default_factory=set)
    state: TableState = field(init=False)

    def __post_init__(self) -> None:
        rules = table_rules_for_profile(self.profile, self.overrides, players=self.deal.players)
        self.state = TableState.new(self.deal, rules)

    @classmethod
    def of_hands(cls, hands: Sequence[str], upcard: str, stock: str = "",
                 dealer: int | None = None, **overrides: Any) -> Script:
        return cls(TableDeal.from_hands(hands, upcard, stock, dealer), dict(overrides))

    def act(self, *texts: str) -> Script:
        """Each action made by the player to move, accepted."""
        for text in texts:
            p = self.state.to_move
            assert p is not None, f"{text!r}: the hand is over"
            try:
                self.state = self.state.apply(text, p)
            except Rejection as exc:
                raise TableCaseError(f"{text!r} by seat {p} refused: {exc}") from None
            self.steps.append({"player": p, "action": text, "expect": "accepted"})
            self.clauses.update(VERB_CLAUSES[text.split()[0]])
            if self.state.reshuffles:
                self.clauses.add("TABLE.WALL")
        return self

    def refuse(self, text: str, code: str, player: int | None = None) -> Script:
        """``text`` (by ``player``, default the player to move) must be refused with ``code``;
        then the observation must be what it was."""
        who = player if player is not None else self.state.to_move
        if who is None:  # the hand is over: the last mover tries again
            who = int(self.steps[-1]["player"])
        why = self.state.rejection(text, who)
        if why is None or why.code.value != code:
            got = "accepted" if why is None else why.code.value
            raise TableCaseError(f"{text!r} by seat {who}: the spec says {code}, "
                                 f"the reference {got}")
        clause = CODE_CLAUSE[code]
        self.steps.append({"player": who, "action": text, "expect": {"rejected": code},
                           "clause": clause})
        self.violates.add(clause)
        self.checkpoints.append({"after": len(self.steps), **table_observation(self.state)})
        return self

    def check(self, **expected: Any) -> Script:
        """A checkpoint with hand-written expectations (``legal`` and ``illegal`` become
        ``legal_includes`` / ``legal_excludes``; ``legal_actions`` is the exact set)."""
        point: dict[str, Any] = {"after": len(self.steps)}
        obs = table_observation(self.state)
        legal = {str(a) for a in self.state.legal_actions()}
        for name, want in expected.items():
            if name in ("legal", "illegal", "legal_actions"):
                texts = sorted({str(parse_action(t)) for t in want})
                ok = (set(texts) <= legal if name == "legal" else
                      not set(texts) & legal if name == "illegal" else set(texts) == legal)
                key = {"legal": "legal_includes", "illegal": "legal_excludes"}.get(name, name)
                point[key] = texts
            else:
                ok = obs[name] == want
                point[name] = want
            if not ok:
                raise TableCaseError(f"checkpoint {name}: the spec says {want!r}, the reference "
                                     f"{sorted(legal) if name.startswith(('legal', 'illegal')) else obs[name]!r}")
        self.checkpoints.append(point)
        return self

    def observe(self) -> Script:
        """A checkpoint with the reference's observation (recorded playouts only)."""
        self.checkpoints.append({"after": len(self.steps), **table_observation(self.state)})
        return self

    def requires(self) -> list[str]:
        req = {f"table-game.{self.deal.players}"}
        # the explicit showdown is needed by the steps it accepts, and by the refusals that
        # only an engine with explicit declarations and layoffs can be asked about
        showdown = {"TABLE.KNOCK", "TABLE.SHOWDOWN", "TABLE.LAYOFF-ORIGINAL"}
        verbs = {str(s["action"]).split()[0] for s in self.steps
                 if s["expect"] == "accepted" or s.get("clause") in showdown}
        if verbs & {"declare", "meld"}:
            req.add("melding.explicit")
        if verbs & {"layoff", "done"}:
            req.add("layoff.explicit")
        if any(s["expect"] != "accepted" for s in self.steps):
            req.add("rejection-codes")
        if any(k.startswith("legal") for p in self.checkpoints for k in p):
            req.add("legal-actions")
        return sorted(req)

    def case(self, case_id: str, origin: str, description: str, source: Mapping[str, Any],
             result: Mapping[str, Any] | None = None, extra: Sequence[str] = ()) -> Case:
        """The case; ``result`` (hand-written) is checked against the reference's."""
        fields: dict[str, Any] = {}
        decides: list[str] = []
        if result is not None:
            ours = self.state.result.to_json() if self.state.result is not None else None
            if ours is None or any(ours[k] != v for k, v in result.items()):
                raise TableCaseError(f"{case_id}: the result should be {dict(result)}, the "
                                     f"reference gives {ours}")
            fields["result"] = dict(result)
            outcome = ours["outcome"]
            decides = list(OUTCOME_DECIDES[outcome])
            source = {**source, **RESULT_BLAME.get(outcome, {"blame": "TABLE.WALL"})}
        reg = registry()
        return Case.make(
            id=case_id, kind="table-hand", origin=origin, description=description,
            clauses=sorted(c for c in {*self.clauses, *extra} if c in reg),
            violates=sorted(self.violates), decides=decides, profile=self.profile,
            overrides=dict(self.overrides), requires=self.requires(), source=dict(source),
            deals=[{"players": self.deal.players, "dealer": self.deal.dealer,
                    "deck": [card_str(c) for c in self.deal.deck]}],
            steps=self.steps, checkpoints=self.checkpoints, **fields,
        )


# --- the chapter's examples ----------------------------------------------------------------------


def table_play_example(ex: Example) -> list[Case]:
    """A ``table-play`` example as a case: its actions, then what the example says of the
    position (observation, legal and illegal actions, a refused action, the result)."""
    d = ex.data
    overrides = dict(d.get("overrides", {}))
    deal = TableDeal.from_hands(d["hands"], d["upcard"], d.get("stock", ""), d.get("dealer"))
    script = Script(deal, overrides, str(d.get("profile", PROFILE)))
    script.act(*d["actions"])
    script.clauses.add(ex.clause)
    wanted = {"phase": d.get("phase"), "to_act": d.get("to_move"),
              "hand_sizes": d.get("hand_sizes"), "stock_size": d.get("stock_size"),
              "legal": d.get("legal"), "illegal": d.get("illegal")}
    script.check(**{k: v for k, v in wanted.items() if v is not None})
    if "illegal" in d and "code" in d and "rejected" not in d:
        for text in d["illegal"]:
            script.refuse(text, str(d["code"]))
    if "rejected" in d:
        script.refuse(str(d["rejected"]), str(d["code"]), d.get("rejected_by"))
    result: dict[str, Any] = {k: d[k] for k in ("outcome", "deadwood", "penalties") if k in d}
    clause = registry()[ex.clause]
    return [script.case(f"spec.{ex.id}", "spec-example",
                        f"a table position of {len(d['hands'])} players after "
                        f"{len(d['actions'])} actions ({ex.clause})",
                        {"spec": f"{clause.path}#{ex.id}", "example": ex.id},
                        result or None)]


# --- scripted positions --------------------------------------------------------------------------

THREE: Final = ("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D", "5H 3S 3D 3H QS QH AC")
"""Chapter 14's three-player hands (upcard QD, stock 3C first)."""
FOUR: Final = ("7H 8H 9H KC KD KS 4C", "2S 3S 4S AD AH AS 5C", "6D 7D 8D QC QH QS 3H",
               "TC JC QD 9S TS JS 2H")
"""Chapter 14's four-player hands (upcard 2D, stock 5D first)."""
SPEC_SOURCE: Final = {"spec": "spec/chapters/14-multiplayer.md", "generator": "table script"}


def _src(section: str) -> dict[str, Any]:
    return {**SPEC_SOURCE, "section": section}


def _three() -> Script:
    return Script.of_hands(THREE, "QD", "3C")


def _three_knocked() -> Script:
    return _three().act("draw-stock", "knock 3C")


def _three_showdown() -> Script:
    return _three_knocked().act("declare 7H 8H 9H / KC KD KS", "meld 4C 4D 4S")


def deal_cases() -> Iterator[Case]:
    """TABLE.DEAL decides who holds which card: after the first draw the legal discards name
    the first player's eight cards exactly; the stock and the upcard are as dealt."""
    s = _three().check(phase="draw", to_act=0, hand_sizes=[7, 7, 7], discard_top="QD",
                       stock_size=30)
    s.act("draw-stock").check(hand_sizes=[8, 7, 7], stock_size=29, legal_actions=[
        "discard 2C", "discard 3C", "discard 7H", "discard 8H", "discard 9H", "discard KC",
        "discard KD", "discard KS", "knock 2C", "knock 3C"])
    s.act("discard 2C").check(phase="draw", to_act=1, discard_top="2C", hand_sizes=[7, 7, 7])
    s.act("take-discard").check(to_act=1, phase="discard", hand_sizes=[7, 8, 7],
                                discard_top="QD")
    yield _decided(s, "table.deal.three-players", "the deal of three hands of 7 cards from the "
                   "dealer's left, the upcard and 30 stock cards; play passes to the left",
                   "TABLE.DEAL")
    s = Script.of_hands(FOUR, "2D", "5D").check(phase="draw", to_act=0, hand_sizes=[7] * 4,
                                                 discard_top="2D", stock_size=23)
    s.act("draw-stock").check(legal_actions=[
        "discard 4C", "discard 5D", "discard 7H", "discard 8H", "discard 9H", "discard KC",
        "discard KD", "discard KS", "knock 4C", "knock 5D"])
    s.act("discard 5D", "draw-stock", "discard 5C", "take-discard", "discard 3H").check(
        to_act=3, phase="draw", hand_sizes=[7] * 4, stock_size=21, discard_top="3H")
    yield _decided(s, "table.deal.four-players", "the deal of four hands of 7 cards, the "
                   "upcard and 23 stock cards; the turn goes round the four seats", "TABLE.DEAL")
    # The dealer need not be the last seat: seat 1 deals, so seat 2 plays first.
    deal = TableDeal.from_hands(THREE, "QD", "3C", dealer=1)
    s = Script(deal).check(to_act=2, hand_sizes=[7, 7, 7], stock_size=30)
    s.act("draw-stock").check(legal=["discard 5H", "discard 3C", "discard AC"])
    s.refuse("draw-stock", "NOT_YOUR_TURN", 0)
    yield _decided(s, "table.deal.dealer-seat-one", "seat 1 deals three hands: seat 2, on the "
                   "dealer's left, gets the first card and plays first", "TABLE.DEAL")


def _decided(s: Script, case_id: str, description: str, clause: str) -> Case:
    """A case whose checkpoints are decided by ``clause`` (a deal or a turn order)."""
    case = s.case(case_id, "endgame", description, _src(clause))
    data = dict(case.data)
    data.pop("fingerprint")
    data.pop("format")
    data["decides"] = sorted({*data.get("decides", []), clause})
    data["source"] = {**data["source"], "blame": clause}
    return Case.make(**data)


def negative_cases() -> Iterator[Case]:
    """One refused action for every rejection code a table hand can give (TABLE.REJECTION)."""
    yield _three().refuse("draw-stack", "MALFORMED_ACTION").case(
        "table.reject.malformed-action", "negative", "an action outside the grammar",
        _src("TABLE.REJECTION"))
    yield _three().refuse("discard 2C", "WRONG_PHASE").case(
        "table.reject.wrong-phase", "negative", "a discard before drawing",
        _src("TABLE.REJECTION"))
    yield _three().refuse("draw-stock", "NOT_YOUR_TURN", 2).case(
        "table.reject.not-your-turn", "negative", "the third seat draws in the first seat's "
        "turn", _src("TABLE.TURN-ORDER"))
    yield _three().act("draw-stock").refuse("discard 4C", "CARD_NOT_IN_HAND").case(
        "table.reject.card-not-in-hand", "negative", "a discard of another player's card",
        _src("TABLE.TURN"))
    yield _three().act("take-discard").refuse("knock QD", "DISCARD_OF_TAKEN_CARD").case(
        "table.reject.knock-with-taken-card", "negative", "a knock with the card just taken "
        "from the discard pile", _src("TABLE.TURN"))
    yield _three().act("draw-stock").refuse("knock 7H", "KNOCK_OVER_LIMIT").check(
        legal=["knock 3C", "knock 2C"], illegal=["knock 7H", "knock KS"]).case(
        "table.reject.knock-over-limit", "negative", "a knock leaving 22 points of deadwood",
        _src("TABLE.KNOCK"))
    for code, text in (("DECLARATION_NOT_A_MELD", "declare 7H 8H 9H / KC KD 2C"),
                       ("DECLARATION_CARD_NOT_HELD", "declare 7H 8H 9H / KC KD KH"),
                       ("DECLARATION_CARD_TWICE", "declare 7H 8H 9H / KC KD KS / KC KD KS"),
                       ("DECLARATION_OVER_LIMIT", "declare 7H 8H 9H")):
        yield _three_knocked().refuse(text, code).case(
            f"table.reject.{code.lower().replace('_', '-')}", "negative",
            f"the knocker's declaration {text[8:]!r}", _src("TABLE.KNOCK"))
    # With knocker_must_meld_maximally the knocker may not leave the three clubs unmelded.
    s = Script.of_hands(("AC 2C 3C KC KD KS 4D", "6H 4C 8D 4S TS JD 2D",
                         "5H 3S 3D 3H QS QH 9C"), "QD", "7S", knocker_must_meld_maximally=True)
    s.act("draw-stock", "knock 7S").refuse("declare KC KD KS", "DECLARATION_NOT_MAXIMAL")
    s.act("declare AC 2C 3C / KC KD KS").check(phase="meld", to_act=1)
    yield s.case("table.reject.declaration-not-maximal", "negative", "under "
                 "knocker_must_meld_maximally, a declaration leaving 10 where 4 is possible",
                 _src("TABLE.KNOCK"))
    yield _three_knocked().act("declare 7H 8H 9H / KC KD KS").refuse(
        "meld 4C 4D 4H", "DEFENDER_MELD_INVALID").case(
        "table.reject.defender-meld-invalid", "negative", "a defender spreads a card he does "
        "not hold", _src("TABLE.SHOWDOWN"))
    for code, text in (("LAYOFF_NO_SUCH_MELD", "layoff 6H to 5H"),
                       ("LAYOFF_DOES_NOT_FIT", "layoff TS to 7H"),
                       ("LAYOFF_CARD_NOT_HELD", "layoff 4C to 7H")):
        yield _three_showdown().refuse(text, code).case(
            f"table.reject.{code.lower().replace('_', '-')}", "negative",
            f"the first defender tries {text!r}", _src("TABLE.SHOWDOWN"))
    yield _three_showdown().act("done", "meld").refuse("layoff 6H to 7H", "LAYOFF_CARD_NOT_HELD",
                                                        ).case(
        "table.reject.layoff-of-another-defenders-card", "negative", "the second defender "
        "lays off a card the first defender holds", _src("TABLE.SHOWDOWN"))
    s = Script.of_hands(("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D",
                         "JH 3S 3D 3H QS QH AC"), "QD", "TH", layoff_after_gin="forbidden")
    s.act("draw-stock", "knock 2C", "declare 7H 8H 9H TH / KC KD KS", "meld 4C 4D 4S")
    yield s.refuse("layoff 6H to 7H", "LAYOFF_AFTER_GIN").case(
        "table.reject.layoff-after-gin", "negative", "a layoff onto gin under "
        "layoff_after_gin = forbidden", _src("TABLE.SHOWDOWN"))
    s = _three_showdown().act("done", "meld 3S 3D 3H", "done")
    yield s.refuse("draw-stock", "HAND_OVER").case(
        "table.reject.hand-over", "negative", "an action after the showdown",
        _src("TABLE.REJECTION"), {"outcome": "knock", "penalties": [0, 26, 24]})


def showdown_cases() -> Iterator[Case]:
    """Whole showdowns whose results are worked out from TABLE.UNDERCUT and TABLE.PENALTY."""
    # Seed 001's 6H/5H example, laid off the other way round: 5H first is refused, 6H then
    # fits, and the next defender may still not add 5H; the 10H would have been accepted.
    s = _three_showdown().refuse("layoff 5H to 7H", "LAYOFF_CARD_NOT_HELD")
    s.act("layoff 6H to 9H").check(legal_actions=["done"], phase="layoff", to_act=1)
    s.act("done", "meld 3S 3D 3H").refuse("layoff 5H to 6H", "LAYOFF_CHAINED")
    s.refuse("layoff 5H to 8H", "LAYOFF_CHAINED").act("done")
    yield s.case("table.six-hearts-then-five-hearts", "endgame", "seed 001's example: after "
                 "6H is laid off on 7H 8H 9H, the next defender may not add 5H (neither onto "
                 "the 6H nor onto the run)", _src("TABLE.LAYOFF-ORIGINAL"),
                 {"outcome": "knock", "knocker": 0, "winner": 0, "deadwood": [2, 22, 26],
                  "penalties": [0, 20, 24]})
    # Ten of hearts: it extends the run as declared, so the second defender may add it even
    # after the first laid off 6H.
    s = Script.of_hands(("7H 8H 9H KC KD KS 2C", "6H 4C 4D 4S TS JD 2D",
                         "TH 3S 3D 3H QS QH AC"), "QD", "3C")
    s.act("draw-stock", "knock 3C", "declare 7H 8H 9H / KC KD KS", "meld 4C 4D 4S",
          "layoff 6H to 7H", "done", "meld 3S 3D 3H").check(
        legal_actions=["layoff TH to 7H", "done"])
    s.act("layoff TH to 9H", "done")
    yield s.case("table.ten-hearts-extends-declared-run", "endgame", "after 6H is laid off, "
                 "10H still extends the declared 7H 8H 9H", _src("TABLE.LAYOFF-ORIGINAL"),
                 {"outcome": "knock", "knocker": 0, "winner": 0, "deadwood": [2, 22, 21],
                  "penalties": [0, 20, 19]})
    # A tie with the knocker is no undercut; the penalties are the differences.
    s = Script.of_hands(("7H 8H 9H KC KD KS 2C", "4C 4D 4S 9S TS JS 2D",
                         "5H 3S 3D 3H QS QH AC"), "QD", "9C")
    s.act("draw-stock", "knock 9C", "declare 7H 8H 9H / KC KD KS", "meld 4C 4D 4S / 9S TS JS",
          "done", "meld 3S 3D 3H", "done")
    yield s.case("table.tie-is-no-undercut", "endgame", "the first defender's deadwood equals "
                 "the knocker's 2: no undercut, he is charged 0", _src("TABLE.UNDERCUT"),
                 {"outcome": "knock", "knocker": 0, "winner": 0, "deadwood": [2, 2, 26],
                  "penalties": [0, 0, 24]})
    # Four players: one defender undercuts the knocker by one point; the knocker pays 25 more.
    s = Script.of_hands(FOUR, "2D", "5D")
    s.act("draw-stock", "knock 5D", "declare 7H 8H 9H / KC KD KS", "meld 2S 3S 4S / AD AH AS",
          "done", "meld 6D 7D 8D / QC QH QS", "done", "meld 9S TS JS", "done")
    yield s.case("table.undercut-four-players", "endgame", "four players: the knocker has 4, "
                 "the second defender 3 and undercuts; the knocker is charged 1 + 25",
                 _src("TABLE.UNDERCUT"),
                 {"outcome": "undercut", "knocker": 0, "winner": 2, "deadwood": [4, 5, 3, 32],
                  "penalties": [26, 2, 0, 29]})


# --- the wall ------------------------------------------------------------------------------------


def _drain(s: Script, stop_at: int) -> Script:
    """Each player in turn draws from the stock and throws the drawn card away, until the
    stock holds ``stop_at`` cards (or a wall has come): every card drawn is known from the
    deck order, and the pile grows by one card a turn."""
    while len(s.state.stock) > stop_at and not s.state.reshuffles:
        card = card_str(s.state.stock[0])
        s.act("draw-stock", f"discard {card}")
    return s


def wall_cases() -> Iterator[Case]:
    """TABLE.WALL. No case depends on the order of a reshuffled stock: after a reshuffle the
    players discard only cards they were dealt, whatever they draw."""
    # wall_action = void: the first time two cards are left, the hand ends void.
    s = _drain(Script.of_hands(THREE, "QD", "3C", wall_action="void"), 3)
    last = card_str(s.state.stock[0])
    s.act("draw-stock").check(stock_size=2, phase="discard", to_act=0)
    s.act(f"discard {last}").check(phase="over", to_act=None)
    yield s.case("table.wall.void-at-first-wall", "endgame", "three players, wall_action = "
                 "void: the discard that leaves two stock cards ends the hand, nobody is "
                 "charged", _src("TABLE.WALL"), {"outcome": "void", "penalties": [0, 0, 0]},
                 extra=("TABLE.WALL",))
    # Reshuffle (serbian-online): 28 draws leave 2 cards; the 28 discards below the top of the
    # pile go under them, so the stock has 30 cards again and play goes on to the left.
    s = _drain(Script.of_hands(THREE, "QD", "3C"), 2)
    s.check(phase="draw", stock_size=30, hand_sizes=[7, 7, 7], to_act=1)
    yield s.case("table.wall.reshuffle-three-players", "endgame", "three players: at the "
                 "wall the discard pile but its top becomes the stock (2 + 28 cards)",
                 _src("TABLE.WALL"), extra=("TABLE.WALL",))
    # Four players: the first wall reshuffles 21 cards under the last 2; at the second wall
    # the hand is void. After the reshuffle everyone discards the cards he was dealt.
    s = _drain(Script.of_hands(FOUR, "2D", "5D"), 2)
    s.check(phase="draw", stock_size=23, to_act=1)
    dealt = {seat: list(FOUR[seat].split()) for seat in range(4)}
    while s.state.result is None:
        seat = s.state.to_move
        assert seat is not None
        s.act("draw-stock", f"discard {dealt[seat].pop(0)}")
        if len(s.state.stock) == 3:
            s.check(stock_size=3, phase="draw")
    s.check(phase="over", to_act=None)
    yield s.case("table.wall.second-wall-void", "endgame", "four players: the second time "
                 "two stock cards are left, the hand ends void", _src("TABLE.WALL"),
                 {"outcome": "void", "penalties": [0, 0, 0, 0]}, extra=("TABLE.WALL",))


# --- seeded playouts -----------------------------------------------------------------------------

PLAYOUT_SEEDS: Final = tuple(range(1, 41))
LEGAL_LIST_MAX: Final = 40


def _playout(players: int, seed: int, mix: str) -> Script | None:
    """One hand between built-in strategies from a seeded deal; None if it reached a wall
    (a reshuffled stock's order is the engine's own, so such a trace is not a case)."""
    deal = TableDeal.from_seed(seed, players, dealer=seed % players)
    s = Script(deal)
    rng = random.Random(f"ginspec-table-case:{players}:{seed}:{mix}")
    strategies = [RandomTableStrategy() if mix[k % len(mix)] == "r" else GreedyTableStrategy()
                  for k in range(players)]
    s.observe()
    while s.state.result is None:
        p = s.state.to_move
        assert p is not None
        before = s.state.phase
        s.act(str(strategies[p].choose(s.state, rng)))
        if s.state.reshuffles:
            return None
        if s.state.phase is not before or s.state.result is not None or len(s.steps) % 6 == 0:
            s.observe()
            if s.state.result is None and s.state.phase.value not in ("discard",):
                legal = sorted(str(a) for a in s.state.legal_actions())
                key = "legal_actions" if len(legal) <= LEGAL_LIST_MAX else "legal_count"
                s.checkpoints[-1][key] = legal if key == "legal_actions" else len(legal)
    return s


def _coverage_key(s: Script) -> frozenset[tuple[Any, ...]]:
    assert s.state.result is not None
    n = s.deal.players
    out = s.state.result.kind
    keys: set[tuple[Any, ...]] = {(n, out)}
    verbs = [str(st["action"]).split()[0] for st in s.steps]
    if "layoff" in verbs:
        keys.add((n, out, "layoff"))
    if out == "undercut" and s.state.result.penalties.winner != s.state.next_seat(
            s.state.knocker or 0):
        keys.add((n, "undercut-by-later-defender"))
    return frozenset(keys)


def playout_cases() -> Iterator[Case]:
    """Whole hands of 3 and 4 players, kept when they add a players-by-outcome pair, a layoff
    after that outcome or an undercut by a later defender (expected values: the reference)."""
    seen: set[tuple[Any, ...]] = set()
    for players in (3, 4):
        for mix in ("g", "gr"):
            for seed in PLAYOUT_SEEDS:
                s = _playout(players, seed, mix)
                if s is None:
                    continue
                keys = _coverage_key(s)
                if keys <= seen:
                    continue
                seen |= keys
                assert s.state.result is not None
                result = s.state.result.to_json()
                yield s.case(f"table.play.p{players}.{mix}.s{seed}", "generated",
                             f"a whole {players}-player hand (seeded deal {seed}, strategies "
                             f"{mix}): {result['outcome']}",
                             {"generator": "table playout", "seed": seed, "strategies": mix},
                             result)


def table_cases() -> list[Case]:
    """Every table case but the spec's examples (those come with the other examples)."""
    return [*deal_cases(), *negative_cases(), *showdown_cases(), *wall_cases(),
            *playout_cases(), *two_player_cases()]


# --- two players at the table --------------------------------------------------------------------


def two_player_cases() -> Iterator[Case]:
    """TABLE.PLAYERS: two players at seed 001's table play the two-player game. The seed's
    "24 down to 4" example (chapter 14's position): after gin, the defender's loose J♥ 6♥ 4♠ 4♦
    (24) come down to 4 by laying off J♥ and 6♥ at the two ends of the declared heart run and
    4♠ below the spade run; gin scores 25 + 4 (SCORE.GIN under serbian-online)."""

    deal = Deal.from_hands("7H 8H 9H TH 5S 6S 7S QC QD 2C", "KC KD KS 8C 9C TC JH 6H 4S 4D",
                           "QH", "", 0)
    state = HandState.new(deal, rules_for_profile(PROFILE))
    script = [(1, "take-discard"), (1, "knock 2C"),  # FIRST.PLAIN: no upcard offer
              (1, "declare 7H 8H 9H TH / 5S 6S 7S / QC QD QH"), (0, "meld KC KD KS / 8C 9C TC"),
              (0, "layoff JH to 7H"), (0, "layoff 6H to 7H"), (0, "layoff 4S to 5S")]
    steps: list[dict[str, Any]] = []
    for player, text in script:
        state = state.apply(text, player)
        steps.append({"player": player, "action": text, "expect": "accepted"})
    legal = sorted(str(a) for a in state.legal_actions())
    if legal != ["done"]:
        raise TableCaseError(f"24 down to 4: only 'done' is left, the reference gives {legal}")
    state = state.apply("done", 0)
    steps.append({"player": 0, "action": "done", "expect": "accepted"})
    result = {"outcome": "gin", "knocker": 1, "winner": 1, "deadwood": [4, 0],
              "points": [0, 29]}
    ours = state.result
    if ours is None or (ours.outcome.value, list(ours.deadwood), list(ours.points)) != (
            "gin", [4, 0], [0, 29]):
        raise TableCaseError(f"24 down to 4: the reference gives {ours}")
    yield Case.make(
        id="table.two-players.twenty-four-down-to-four", kind="hand", origin="endgame",
        description="seed 001's '24 down to 4' as a two-player hand under serbian-online: "
        "after gin the defender lays off JH, 6H and 4S and keeps 4",
        clauses=known([*DEAL_CLAUSES, "TABLE.PLAYERS", "TABLE.LAYOFF-ORIGINAL", "LAYOFF.CHAIN",
                       "LAYOFF.AFTER-GIN", "SHOWDOWN.DEFENDER-SPREAD"]),
        decides=["SCORE.GIN"], profile=PROFILE,
        requires=["hand", "legal-actions", "melding.explicit", "layoff.explicit"],
        source={**_src("TABLE.LAYOFF-ORIGINAL"), "example": "table-twenty-four-down-to-four",
                "blame": "SCORE.GIN"},
        deals=[{"dealer": 0, "deck": deal.tokens()}], steps=steps,
        checkpoints=[{"after": len(steps) - 1, "phase": "defender-layoff", "to_act": 0,
                      "legal_actions": ["done"]}],
        result=result,
    )

"""Deliberately broken engines for the mutation check.

Each mutant is the reference with ONE rule changed, behind the ordinary adapter interface, so the
suite must tell it from a conforming engine and name the clause it breaks. Try one with::

    ginspec conform --adapter python:ginspec.conformance.mutants:GinBonusWrong

:data:`MUTANTS` maps each mutant class to the clause its change breaks; ``tests/test_mutants.py``
runs the suite against every one and checks that a failing case blames that clause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ginspec.conformance.adapters.base import Hello, JSONObject, Verdict
from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.reference_game import best_showdown_steps, legal_texts
from ginspec.reference.adjudicate import outcome_of
from ginspec.reference.game import Deal, Rejection
from ginspec.reference.game.state import Phase
from ginspec.reference.meld_rules import MeldRules
from ginspec.reference.melds import all_melds, min_deadwood, optimal_arrangements
from ginspec.reference.scoring import score_hand
from ginspec.reference.typed_rules import Rules, rules_for_profile
from ginspec.spec.cards import card_str, card_value, cards_of, parse_card, parse_cards
from ginspec.spec.errors import CardError

BIG_HAND = 13
"""The run-rule mutants leave queries about more cards than this alone: the reference's minimum
deadwood search is exponential in the set ranks once the ace may be high (a whole pack)."""


class Mutant(ReferenceAdapter):
    """The reference, renamed; subclasses change one rule."""

    breaks: ClassVar[str] = ""

    def hello(self) -> Hello:
        h = super().hello()
        return Hello(name=f"mutant-{type(self).__name__}", version=h.version,
                     language=h.language, profiles=h.profiles, capabilities=h.capabilities,
                     overrides=h.overrides)


class ParameterMutant(Mutant):
    """Plays every profile with one parameter forced to a wrong value (as an engine that
    hard-codes the rule would)."""

    name: ClassVar[str] = ""

    def wrong(self, right: Any) -> Any:
        raise NotImplementedError

    def applies(self, rules: Rules) -> bool:
        """Whether the engine plays the wrong value under these rules (everywhere, unless a
        mutant says otherwise)."""
        return True

    def _mutate(self, profile: str | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        rules = rules_for_profile(profile or "pagat", dict(overrides))
        if not self.applies(rules):
            return dict(overrides)
        return {**overrides, self.name: self.wrong(getattr(rules, self.name))}

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        return super().query(what, args, profile, self._mutate(profile, overrides))

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        super().new_hand(profile, self._mutate(profile, overrides), deal)

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        super().new_match(profile, self._mutate(profile, overrides), deals)


class TiesNotUndercut(ParameterMutant):
    """Equal deadwood: nobody scores, where the profile says the defender undercuts."""

    breaks = "SCORE.TIE"
    name = "undercut_on_tie"

    def wrong(self, right: Any) -> Any:
        return "no_score" if right != "no_score" else "undercut"


class DiscardRestrictionOff(ParameterMutant):
    """The card just taken from the discard pile may be thrown straight back."""

    breaks = "TURN.DISCARD-TAKEN"
    name = "discard_taken_card"

    def wrong(self, right: Any) -> Any:
        return "always" if right != "always" else "never"


class ChainedLayoffsWrong(ParameterMutant):
    """Layoffs onto laid-off cards handled the other way round."""

    breaks = "LAYOFF.CHAIN"
    name = "layoff_chain"

    def wrong(self, right: Any) -> Any:
        return "original_melds_only" if right == "unlimited" else "unlimited"


class GinBonusWrong(ParameterMutant):
    breaks = "SCORE.GIN"
    name = "gin_bonus"

    def wrong(self, right: Any) -> Any:
        return int(right) + 5


class UndercutBonusWrong(ParameterMutant):
    breaks = "SCORE.UNDERCUT"
    name = "undercut_bonus"

    def wrong(self, right: Any) -> Any:
        return int(right) + 5


class AceHighRunsAllowed(ParameterMutant):
    """Q-K-A counts as a run."""

    breaks = "MELD.RUN.ACE-LOW"
    name = "ace_high_runs"

    def wrong(self, right: Any) -> Any:
        return True

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if len(args.get("cards", ())) > BIG_HAND:
            return ReferenceAdapter.query(self, what, args, profile, overrides)
        return super().query(what, args, profile, overrides)


class WallWrong(ParameterMutant):
    """The hand ends with three cards left in the stock instead of the profile's wall."""

    breaks = "WALL.END"
    name = "wall_size"

    def wrong(self, right: Any) -> Any:
        return int(right) + 1


class KnockLimitOffByOne(ParameterMutant):
    breaks = "KNOCK.LIMIT"
    name = "knock_limit"

    def wrong(self, right: Any) -> Any:
        return int(right) - 1 if int(right) > 0 else 1


class KnockerMayLayOffFlipped(ParameterMutant):
    breaks = "LAYOFF.KNOCKER"
    name = "knocker_may_lay_off"

    def wrong(self, right: Any) -> Any:
        return not right


class GameBonusWrong(ParameterMutant):
    breaks = "MATCH.GAME-BONUS"
    name = "game_bonus"

    def wrong(self, right: Any) -> Any:
        return int(right) + 50


class BoxBonusWrong(ParameterMutant):
    breaks = "MATCH.BOX"
    name = "box_bonus"

    def wrong(self, right: Any) -> Any:
        return int(right) + 5


class EligibilityOnElevenCards(Mutant):
    """Knock eligibility from the 11-card optimum minus its highest deadwood card, instead of
    the best over every discard (KNOCK.ELIGIBLE's classic mistake)."""

    breaks = "KNOCK.ELIGIBLE"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        answer = super().query(what, args, profile, overrides)
        if what != "knock":
            return answer

        cards = parse_cards(args["cards"])
        rules = MeldRules.from_params({k: v for k, v in overrides.items()
                                       if k in ("ace_high_runs", "wraparound_runs", "ace_value")})
        best = optimal_arrangements(cards, rules, limit=1)[0]
        dead = sorted(best.deadwood_cards, key=lambda c: card_value(c, rules.ace_value))
        if dead:
            top = dead[-1]
            deadwood = best.deadwood - card_value(top, rules.ace_value)
            discards = [card_str(top)]
        else:
            deadwood, discards = 0, answer["best_discards"]
        limit = answer["deadwood"] if answer["can_knock"] else -1
        return {**answer, "deadwood": deadwood, "best_discards": discards,
                "can_knock": deadwood <= max(limit, 10 if answer["can_knock"] else -1),
                "gin": deadwood == 0}


class FirstTurnOrderWrong(Mutant):
    """The dealer, not the non-dealer, is offered the upcard first."""

    breaks = "FIRST.UPCARD-OFFER"

    def observe(self) -> JSONObject:
        obs = super().observe()
        if obs.get("phase") == "offer-non-dealer" and obs.get("to_act") in (0, 1):
            obs["to_act"] = 1 - int(obs["to_act"])
        return obs

    def apply(self, player: int | str, action: str) -> Verdict:
        obs = super().observe()
        if obs.get("phase") == "offer-non-dealer" and player == obs.get("to_act"):
            return Verdict.rejected("NOT_YOUR_TURN")
        if obs.get("phase") == "offer-non-dealer" and player in (0, 1):
            return super().apply(1 - int(player), action)
        return super().apply(player, action)


class LayoffOntoDeadwood(Mutant):
    """Accepts a layoff onto a card that is in no meld on the table (the knocker's deadwood)."""

    breaks = "LAYOFF.TARGET"

    def apply(self, player: int | str, action: str) -> Verdict:
        verdict = super().apply(player, action)
        if not verdict.accepted and verdict.code == "LAYOFF_NO_SUCH_MELD":
            return Verdict.ok()
        return verdict


class WrapAroundRuns(ParameterMutant):
    """Where the ace may follow the king (``ace_high_runs``), also lets runs turn the corner
    (K-A-2): an engine that makes the ace high by making runs circular. Under ace-low rules it
    plays right: a corner-turning run there is also an ace-high one (Q-K-A), and the engine
    would break MELD.RUN.ACE-LOW as well, not the one rule this mutant names."""

    breaks = "MELD.RUN.NO-WRAP"
    name = "wraparound_runs"

    def wrong(self, right: Any) -> Any:
        return True

    def applies(self, rules: Rules) -> bool:
        return rules.ace_high_runs

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if len(args.get("cards", ())) > BIG_HAND:
            return ReferenceAdapter.query(self, what, args, profile, overrides)
        return super().query(what, args, profile, overrides)


class TwoCardMelds(Mutant):
    """Calls any two cards of one rank a meld."""

    breaks = "MELD.SET"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "meld":
            cards = parse_cards(args["cards"], distinct=False)
            if len(cards) == 2 and cards[0] % 13 == cards[1] % 13 and cards[0] != cards[1]:
                return {"valid": True}
        return super().query(what, args, profile, overrides)  # the ruleset's run rules kept


class MeldsCountLargestOnly(Mutant):
    """Counts only the melds no larger meld of the hand contains (a set of four as one meld)."""

    breaks = "MELD.COUNT"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "melds-count":

            melds = [frozenset(m.cards) for m in all_melds(parse_cards(args["cards"]))]
            return {"count": sum(1 for m in melds if not any(m < other for other in melds))}
        return super().query(what, args, profile, overrides)


class OneArrangementOnly(Mutant):
    """Reports one optimal arrangement, never the others (DEADWOOD.ARRANGEMENTS asks for all)."""

    breaks = "DEADWOOD.ARRANGEMENTS"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "arrangements":
            return {"count": 1}
        return super().query(what, args, profile, overrides)


class FaceCardsAtRank(Mutant):
    """Counts J, Q, K as 11, 12, 13 in deadwood."""

    breaks = "CARD.VALUE"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        answer = super().query(what, args, profile, overrides)
        if what == "deadwood":

            best = optimal_arrangements(parse_cards(args["cards"]), limit=1)[0]
            extra = sum(max(0, c % 13 - 9) for c in best.deadwood_cards)
            return {"deadwood": answer["deadwood"] + extra}
        return answer


class AceIsOne(Mutant):
    """Accepts ``1S`` as the ace of spades."""

    breaks = "CARD.NOTATION"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "card" and str(args["token"]).upper().startswith("1") \
                and not str(args["token"]).startswith("10"):
            try:
                return {"canonical": card_str(parse_card("A" + str(args["token"])[1:]))}
            except CardError:
                return {"error": True}
        return super().query(what, args, profile, overrides)


class WrongRejectionCode(Mutant):
    """Refuses out-of-turn actions with WRONG_PHASE instead of NOT_YOUR_TURN."""

    breaks = "ACTION.TURN-ORDER"

    def apply(self, player: int | str, action: str) -> Verdict:
        verdict = super().apply(player, action)
        if verdict.code == "NOT_YOUR_TURN":
            return Verdict.rejected("WRONG_PHASE")
        return verdict


class MinDeadwoodGreedy(Mutant):
    """Finds melds greedily (sets first) instead of the minimum over all arrangements."""

    breaks = "DEADWOOD.MINIMUM"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what != "deadwood":
            return super().query(what, args, profile, overrides)
        cards = set(parse_cards(args["cards"]))
        for rank in range(13):
            group = [c for c in cards if c % 13 == rank]
            if len(group) >= 3:
                cards -= set(group)
        return {"deadwood": min_deadwood(list(cards))}


class GinCompulsoryIgnored(ParameterMutant):
    """A player who can go gin may still discard and play on, where the ruleset forbids it."""

    breaks = "KNOCK.GIN-COMPULSORY"
    name = "gin_compulsory"

    def wrong(self, right: Any) -> Any:
        return False


class GinAlwaysCompulsory(ParameterMutant):
    """A player who can go gin must (as RLCard plays), where the ruleset lets him play on."""

    breaks = "KNOCK.OPTIONAL"
    name = "gin_compulsory"

    def wrong(self, right: Any) -> Any:
        return True


class StraightGinAllowsKnock(ParameterMutant):
    """Straight gin played with the ordinary knock limit of 10."""

    breaks = "STRAIGHT.GIN-ONLY"
    name = "knock_limit"

    def wrong(self, right: Any) -> Any:
        return 10 if int(right) == 0 else right


class ReshuffleVoids(ParameterMutant):
    """The reshuffle variant played as a void hand at the first wall."""

    breaks = "WALL.RESHUFFLE"
    name = "wall_action"

    def wrong(self, right: Any) -> Any:
        return "void" if right == "reshuffle" else right


class RedealDealerFlipped(ParameterMutant):
    """After a void hand the other player deals (or the same one, where the deal passes)."""

    breaks = "WALL.REDEAL"
    name = "redeal_dealer"

    def wrong(self, right: Any) -> Any:
        return "passes" if right == "same" else "same"


class ElevenCardStartIgnored(ParameterMutant):
    """The eleven-card start dealt as ten cards each and an upcard."""

    breaks = "ELEVEN.DEAL"
    name = "first_turn"

    def wrong(self, right: Any) -> Any:
        return "upcard_offer" if right == "eleven_card_start" else right


class ElevenOpeningNoKnock(Mutant):
    """In the eleven-card start the non-dealer may only discard on his opening turn, not knock."""

    breaks = "ELEVEN.FIRST-TURN"

    def __init__(self) -> None:
        super().__init__()
        self.opening = False

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        super().new_hand(profile, overrides, deal)
        self.opening = rules_for_profile(profile, dict(overrides)).eleven_card_start

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        super().new_match(profile, overrides, deals)
        self.opening = False

    def legal_actions(self) -> list[str]:
        actions = super().legal_actions()
        return [a for a in actions if not a.startswith("knock")] if self.opening else actions

    def apply(self, player: int | str, action: str) -> Verdict:
        if self.opening and action.strip().lower().startswith("knock"):
            return Verdict.rejected("WRONG_PHASE")
        verdict = super().apply(player, action)
        if verdict.accepted:
            self.opening = False
        return verdict


SHOWDOWN_PHASES = ("declare", "defender-meld", "defender-layoff", "knocker-layoff", "over")


class KnockCardFaceUp(Mutant):
    """The knock card is put face up on the discard pile (and so shows as its top)."""

    breaks = "KNOCK.PROCEDURE"

    def __init__(self) -> None:
        super().__init__()
        self.knock_card: str | None = None

    def apply(self, player: int | str, action: str) -> Verdict:
        verdict = super().apply(player, action)
        words = action.split()
        if verdict.accepted and words[0].lower() == "knock" and len(words) == 2:
            self.knock_card = card_str(parse_card(words[1]))
        elif verdict.accepted and super().observe().get("phase") not in SHOWDOWN_PHASES:
            self.knock_card = None
        return verdict

    def observe(self) -> JSONObject:
        obs = super().observe()
        if self.knock_card is not None and obs.get("phase") in SHOWDOWN_PHASES:
            obs["discard_top"] = self.knock_card
        return obs


class TableMutant(Mutant):
    """Plays the table game (chapter 14) with one parameter forced to a wrong value; two-player
    hands and queries are the reference's."""

    name: ClassVar[str] = ""
    value: ClassVar[Any] = None

    def new_table_hand(self, profile: str, overrides: Mapping[str, Any],
                       deal: Mapping[str, Any]) -> None:
        super().new_table_hand(profile, {**overrides, self.name: self.value}, deal)


class TableLayoffOntoLaidOffCards(TableMutant):
    """A defender may extend a card laid off by an earlier defender (seed 001's 6H/5H rule
    broken: layoffs chain at the table)."""

    breaks = "TABLE.LAYOFF-ORIGINAL"
    name = "layoff_chain"
    value = "unlimited"


class TableUndercutPenaltyNotCharged(TableMutant):
    """An undercut knocker is charged only his difference, not the 25 extra points."""

    breaks = "TABLE.PENALTY"
    name = "undercut_bonus"
    value = 0


class TableTieUndercuts(Mutant):
    """A defender whose deadwood equals the knocker's undercuts him (TABLE.UNDERCUT says only a
    strictly lower count does). The hand is played as the reference plays it; the result is
    rescored with the wrong comparison."""

    breaks = "TABLE.UNDERCUT"

    def result(self) -> JSONObject | None:
        res = super().result()
        if res is None or "penalties" not in res or res["outcome"] != "knock":
            return res
        knocker, dw = int(res["knocker"]), list(res["deadwood"])
        n = len(dw)
        order = [(knocker + k) % n for k in range(1, n)]
        under = next((s for s in order if dw[s] <= dw[knocker] and dw[s] == min(
            dw[t] for t in order)), None)
        if under is None:
            return res
        pens = [dw[s] - dw[under] for s in range(n)]
        pens[under] = 0
        pens[knocker] += 25
        return {**res, "outcome": "undercut", "winner": under, "penalties": pens}


class DealInBlocks(Mutant):
    """Deals the first ten cards to the non-dealer and the next ten to the dealer (as OpenSpiel's
    chance nodes do), instead of one at a time."""

    breaks = "DEAL.HANDS"

    @staticmethod
    def _blocks(profile: str, overrides: Mapping[str, Any],
                deal: Mapping[str, Any]) -> dict[str, Any]:

        deck = [str(c) for c in deal["deck"]]
        if rules_for_profile(profile, dict(overrides)).eleven_card_start:
            rebuilt = Deal.from_hands(" ".join(deck[:11]), " ".join(deck[11:21]), None,
                                      " ".join(deck[21:]))
        else:
            rebuilt = Deal.from_hands(" ".join(deck[:10]), " ".join(deck[10:20]), deck[20],
                                      " ".join(deck[21:]))
        return {"dealer": deal["dealer"], "deck": rebuilt.tokens()}

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        super().new_hand(profile, overrides, self._blocks(profile, overrides, deal))

    def new_match(self, profile: str, overrides: Mapping[str, Any],
                  deals: Sequence[Mapping[str, Any]]) -> None:
        super().new_match(profile, overrides, [self._blocks(profile, overrides, d) for d in deals])


class PartnerNettingSummed(Mutant):
    """Partnerships: a deal split between the teams scores the winning team's points, not the
    difference of the two hands (PARTNER.NETTING)."""

    breaks = "PARTNER.NETTING"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        answer = super().query(what, args, profile, overrides)
        if what != "partnership" or "netted" not in answer:
            return answer
        for k, deal in enumerate(args["deals"]):
            won = [t for t in deal if t != ["void"]]
            if len(won) == 2 and won[0][0] % 2 != won[1][0] % 2 and answer["netted"][k] != [
                    "none"]:
                team = answer["netted"][k][0]
                answer["netted"][k] = [team, sum(t[2] for t in won if t[0] % 2 == team)]
        return answer


class HollywoodEveryWinInAllGames(Mutant):
    """Hollywood: every win is entered in all three games at once (HOLLYWOOD.ENTRY's opening
    of the games one by one ignored); a hand after every game is over is refused, as the
    reference refuses it (HOLLYWOOD.GAME-END is kept)."""

    breaks = "HOLLYWOOD.ENTRY"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what != "hollywood":
            return super().query(what, args, profile, overrides)
        rules = rules_for_profile(profile or "hollywood", dict(overrides))
        target = rules.game_target
        games = [[0, 0] for _ in range(3)]
        boxes = [[0, 0] for _ in range(3)]
        for entry in args["hands"]:
            if all(max(g) >= target for g in games):  # HOLLYWOOD.GAME-END, as the reference
                return {"error": True, "message": "every game is over"}
            if entry == ["void"]:
                continue
            for g, b in zip(games, boxes, strict=True):
                if max(g) < target:
                    g[int(entry[0])] += int(entry[1])
                    b[int(entry[0])] += 1
        over = all(max(g) >= target for g in games)
        if not over:
            return {"games": games, "over": False}
        return {"games": games, "over": True,  # match.scores: each game's bonuses
                "box_points": [[n * rules.box_bonus for n in b] for b in boxes],
                "game_bonus": [rules.game_bonus] * 3}


class NextDealerWrong(ParameterMutant):
    """The winner of a hand deals the next one where the loser should, and the other way round."""

    breaks = "MATCH.NEXT-DEALER"
    name = "next_dealer"

    def wrong(self, right: Any) -> Any:
        return "winner" if right != "winner" else "loser"


class BoxesTowardTargetFlipped(ParameterMutant):
    """Box points count toward the target where they should not (and the other way round)."""

    breaks = "MATCH.BOX-TARGET"
    name = "boxes_count_toward_target"

    def _mutate(self, profile: str | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        rules = rules_for_profile(profile or "pagat", dict(overrides))
        if not rules.box_bonus:  # no box points: nothing to count (and the flip is invalid)
            return dict(overrides)
        return {**overrides, self.name: not rules.boxes_count_toward_target}


class ExtraBoxesIgnored(ParameterMutant):
    """Never gives the extra boxes for an undercut or gin."""

    breaks = "MATCH.EXTRA-BOXES"
    name = "extra_boxes"

    def wrong(self, right: Any) -> Any:
        return False


class OklahomaPlayedTo100(ParameterMutant):
    """Plays Oklahoma to the ordinary target of 100."""

    breaks = "OKLAHOMA.TARGET"
    name = "game_target"

    def _mutate(self, profile: str | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        rules = rules_for_profile(profile or "pagat", dict(overrides))
        return {**overrides, "game_target": 100} if rules.oklahoma else dict(overrides)


class LayoffsAgainstGinFlipped(ParameterMutant):
    """Lets the defender lay off against gin where he may not (and forbids it where he may)."""

    breaks = "LAYOFF.AFTER-GIN"
    name = "layoff_after_gin"

    def wrong(self, right: Any) -> Any:
        return "allowed" if right == "forbidden" else "forbidden"


class LayoffFitIgnoresMeldRules(Mutant):
    """Decides whether a card fits a meld on the table with the standard meld rules, ignoring
    the ruleset's ace-high and wraparound runs."""

    breaks = "LAYOFF.FIT"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "layoff":
            overrides = {k: v for k, v in overrides.items()
                         if k not in ("ace_high_runs", "wraparound_runs")}
        return super().query(what, args, profile, overrides)


class CompareBeforeLayoffs(Mutant):
    """Decides a knock (and scores it) on the defender's deadwood before his layoffs."""

    breaks = "SHOWDOWN.COMPARE"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        answer = super().query(what, args, profile, overrides)
        if what != "adjudicate" or answer["outcome"] not in ("knock", "undercut", "tie") \
                or not answer.get("layoffs"):
            return answer

        rules = rules_for_profile(profile or "pagat", dict(overrides))
        laid = sum(card_value(parse_card(t)) for t in answer["layoffs"])
        knocker, defender = answer["deadwood"]["knocker"], answer["deadwood"]["defender"] + laid
        outcome = outcome_of("knock", knocker, defender, rules.undercut_on_tie)
        hand = score_hand("knock", knocker, defender, rules)
        return {**answer, "outcome": outcome,
                "points": {"knocker": hand.knocker, "defender": hand.defender}}


class DeclaresAnyOptimalArrangement(Mutant):
    """The knocker declares the first least-deadwood arrangement of his hand, never weighing
    what the defender could lay off on it (nor melding less to stop layoffs)."""

    breaks = "SHOWDOWN.BEST-PLAY"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "adjudicate" and "knocker_melds" not in args and len(args["knocker"]) == 10:

            best = optimal_arrangements(parse_cards(args["knocker"]), limit=1)[0]
            melds = [[card_str(c) for c in m.cards] for m in best.melds]
            return super().query(what, {**args, "knocker_melds": melds}, profile, overrides)
        return super().query(what, args, profile, overrides)


class VoidHandRestartsTheGame(Mutant):
    """Starts the running scores again from zero after a void hand, where a void hand should
    change nothing."""

    breaks = "MATCH.CUMULATIVE"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "match" and ["void"] in list(args["hands"]):
            hands = list(args["hands"])
            last_void = max(i for i, h in enumerate(hands) if list(h) == ["void"])
            answer = super().query(what, {**args, "hands": hands[last_void + 1:]}, profile,
                                   overrides)
            before = super().query(what, {**args, "hands": hands[:last_void + 1]}, profile,
                                   overrides)  # match.scores: the hands up to the void, as kept
            for name in ("hand_points", "running_scores"):
                if name in answer and name in before:
                    answer[name] = [*before[name], *answer[name]]
            return answer
        return super().query(what, args, profile, overrides)


MUTANTS: dict[type[Mutant], str] = {
    cls: cls.breaks for cls in (
        TiesNotUndercut, DiscardRestrictionOff, ChainedLayoffsWrong, GinBonusWrong,
        UndercutBonusWrong, AceHighRunsAllowed, WallWrong, KnockLimitOffByOne,
        KnockerMayLayOffFlipped, GameBonusWrong, BoxBonusWrong, EligibilityOnElevenCards,
        FirstTurnOrderWrong, LayoffOntoDeadwood, WrapAroundRuns, TwoCardMelds, FaceCardsAtRank,
        AceIsOne, WrongRejectionCode, MinDeadwoodGreedy, MeldsCountLargestOnly, OneArrangementOnly,
        GinCompulsoryIgnored,
        GinAlwaysCompulsory, StraightGinAllowsKnock, ReshuffleVoids, RedealDealerFlipped,
        ElevenCardStartIgnored, ElevenOpeningNoKnock, KnockCardFaceUp,
        TableLayoffOntoLaidOffCards, TableUndercutPenaltyNotCharged, TableTieUndercuts, DealInBlocks,
        PartnerNettingSummed, HollywoodEveryWinInAllGames,
        NextDealerWrong, BoxesTowardTargetFlipped, ExtraBoxesIgnored, OklahomaPlayedTo100,
        LayoffsAgainstGinFlipped, LayoffFitIgnoresMeldRules, CompareBeforeLayoffs,
        DeclaresAnyOptimalArrangement, VoidHandRestartsTheGame,
    )
}
"""Every mutant and the clause it breaks."""


class GreedyLayoffs(Mutant):
    """An engine that settles the showdown itself (melding.automatic, layoff.automatic) but lays
    off greedily: the defender spreads his own least-deadwood arrangement, then lays off the first
    card that fits, in meld order, until none does — never keeping a meld back to lay its cards
    off, never choosing the order of a chain (SHOWDOWN.DEFENDER-SPREAD asks for the least
    deadwood after spreading and laying off)."""

    breaks = "SHOWDOWN.DEFENDER-SPREAD"
    automatic = (True, True)

    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:

        steps = best_showdown_steps(state, melding=True, layoffs=False)
        for who, action in steps:
            state = state.apply(action, who)
        if state.phase is Phase.DEFENDER_MELD:
            d = state.to_move
            best = optimal_arrangements(cards_of(state.hands[d]), state.rules.meld_rules, limit=1)[0]
            melds = " / ".join(" ".join(card_str(c) for c in m.cards) for m in best.melds)
            steps.append((d, f"meld {melds}" if melds else "meld"))
            state = state.apply(steps[-1][1], d)
        while state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
            layoffs = [a for a in legal_texts(state) if a.startswith("layoff ")]
            steps.append((state.to_move, layoffs[0] if layoffs else "done"))
            state = state.apply(steps[-1][1], state.to_move)
        return steps


class MixedGreedyLayoffs(Mutant):
    """An engine whose players declare and spread (melding.explicit, spread.explicit) but whose
    game lays off by itself (layoff.automatic), greedily: each layoff is the first legal one in
    listed order, card by card, until none fits — so a card may take the place another needed
    (a 7H onto a set of sevens where it would have carried the 8H onto a run)."""

    breaks = "LAYOFF.TARGET"
    automatic = (False, True)
    explicit_spread = True

    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:

        steps: list[tuple[int, str]] = []
        while state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
            layoffs = [a for a in legal_texts(state) if a.startswith("layoff ")]
            steps.append((state.to_move, layoffs[0] if layoffs else "done"))
            state = state.apply(steps[-1][1], state.to_move)
        return steps


class LayoffsWithoutChaining(Mutant):
    """An engine that settles the showdown itself and lays off best play's cards, but only onto
    the knocker's melds as declared: a card that fits only a meld already lengthened by a layoff
    stays in the defender's deadwood (LAYOFF.CHAIN)."""

    breaks = "LAYOFF.CHAIN"
    automatic = (True, True)

    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:

        best = best_showdown_steps(state, melding=True, layoffs=True)
        steps: list[tuple[int, str]] = []
        first_fits: set[str] | None = None
        for who, action in best:
            if action.startswith("layoff "):
                if state.phase is Phase.DEFENDER_LAYOFF:
                    if first_fits is None:  # the cards that fit the melds as declared
                        first_fits = {a.split()[1] for a in legal_texts(state)
                                      if a.startswith("layoff ")}
                    if action.split()[1] not in first_fits:
                        continue  # it fits only through an earlier layoff: kept as deadwood
                if action not in legal_texts(state):
                    continue
            steps.append((who, action))
            state = state.apply(action, who)
        while state.phase in (Phase.DEFENDER_LAYOFF, Phase.KNOCKER_LAYOFF):
            steps.append((state.to_move, "done"))
            state = state.apply("done", state.to_move)
        return steps


class MostCardsMelded(Mutant):
    """An engine that arranges the knocker's melds itself by melding as many cards as it can
    (fewest deadwood cards, then least deadwood), where best play declares the least deadwood
    (SHOWDOWN.BEST-PLAY); the defender then plays best."""

    breaks = "SHOWDOWN.BEST-PLAY"
    automatic = (True, True)

    def showdown_steps(self, state: Any) -> list[tuple[int, str]]:

        if state.phase is not Phase.DECLARE:
            return best_showdown_steps(state, melding=True, layoffs=True)
        k = state.knocker
        hand = cards_of(state.hands[k])
        rules = state.rules.meld_rules
        melds = all_melds(hand, rules)
        ranked: list[tuple[int, int, str]] = []
        for chosen in _disjoint(melds, 0, 0):
            melded = sum(len(m.cards) for m in chosen)
            dead = sum(card_value(c, rules.ace_value) for c in hand
                       if not any(c in m.cards for m in chosen))
            text = " / ".join(" ".join(card_str(c) for c in m.cards) for m in chosen)
            ranked.append((-melded, dead, f"declare {text}" if text else "declare"))
        for _, _, action in sorted(ranked):
            try:
                after = state.apply(action, k)
            except Rejection:
                continue  # above the knock limit (or not gin where gin is required)
            return [(k, action), *best_showdown_steps(after, melding=True, layoffs=True)]
        return best_showdown_steps(state, melding=True, layoffs=True)


def _disjoint(melds: Sequence[Any], start: int, used: int) -> list[list[Any]]:
    """Every set of pairwise disjoint melds among ``melds[start:]`` (the empty set included)."""
    found: list[list[Any]] = [[]]
    for i in range(start, len(melds)):
        if melds[i].mask & used == 0:
            found.extend([melds[i], *rest] for rest in _disjoint(melds, i + 1, used | melds[i].mask))
    return found


AUTOMATIC_MUTANTS: dict[type[Mutant], str] = {
    cls: cls.breaks for cls in (GreedyLayoffs, LayoffsWithoutChaining, MostCardsMelded)
}
"""Engines that settle the showdown themselves (melding.automatic, layoff.automatic) but not with
best play: the committed suite's automatic-showdown expectations must catch each
(tests/test_automatic_mutants.py)."""


class GameTargetWrong(ParameterMutant):
    """Plays every match to a target 50 points higher than the ruleset's."""

    breaks = "MATCH.TARGET"
    name = "game_target"

    def wrong(self, right: Any) -> Any:
        return int(right) + 50


LIVE_MUTANTS: dict[type[Mutant], str] = {
    cls: cls.breaks for cls in (
        GreedyLayoffs, TiesNotUndercut, GinBonusWrong, WallWrong, GameTargetWrong, NextDealerWrong)
}
"""The mutants ``ginspec conform --live`` must find within 1,000 hands and shrink to a case
failing for the clause each breaks (docs/conformance/live.md)."""


class TableKnockPenaltyNotReduced(Mutant):
    """After a knock at the table each defender is charged his whole deadwood, where
    TABLE.PENALTY charges his deadwood minus the knocker's. The hand is played as the reference
    plays it; only the penalties of the result are wrong."""

    breaks = "TABLE.PENALTY"

    def result(self) -> JSONObject | None:
        res = super().result()
        if res is None or "penalties" not in res or res["outcome"] != "knock":
            return res
        knocker = int(res["knocker"])
        return {**res, "penalties": [0 if s == knocker else int(d)
                                     for s, d in enumerate(res["deadwood"])]}


class TablePrizeWindowHalved(Mutant):
    """Splits a table game's prize pool with a window of 25 points behind the winner instead of
    the ruleset's prize_window (TABLE.PRIZE: 50 under serbian-online)."""

    breaks = "TABLE.PRIZE"

    def query(self, what: str, args: Mapping[str, Any], profile: str | None,
              overrides: Mapping[str, Any]) -> JSONObject:
        if what == "prize":
            window = rules_for_profile(profile or "serbian-online", dict(overrides)).prize_window
            overrides = {**overrides, "prize_window": window // 2}
        return super().query(what, args, profile, overrides)


TABLE_LIVE_MUTANTS: dict[type[Mutant], str] = {
    cls: cls.breaks for cls in (TableKnockPenaltyNotReduced, TablePrizeWindowHalved)
}
"""The table mutants ``ginspec conform --live --players N`` must find and shrink to a case
failing for the clause each breaks (docs/conformance/live.md, tests/test_live_table.py)."""

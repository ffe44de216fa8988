"""The conformance runner: sends each case to an adapter and compares the answers.

Statuses (skips are never passes):

* ``pass`` — every verdict, checkpoint and the result matched;
* ``fail`` — the engine answered, and an answer was wrong (a rules failure);
* ``error`` — the adapter crashed, hung, printed garbage or broke the protocol (not a verdict on
  the rules; the adapter is restarted and the run goes on);
* ``skip`` — not sent: the adapter did not declare the case's profile, a capability or an
  override, or the run's filters left it out;
* ``declined`` — sent, and the adapter declined it at the opening request (protocol 2:
  :class:`~ginspec.conformance.adapters.base.Unsupported`), with a reason. Like a skip it is
  not a pass and does not change the exit code; a declined case listed in ``--expect-fail``
  stays ``declined`` (neither an expected failure nor a stale entry: it was not played);
* ``xfail`` — failed (or errored) and listed in ``--expect-fail``: fine;
* ``xpass`` — passed although listed in ``--expect-fail``: the list is stale, the run fails.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.adapters.base import (
    Adapter,
    AdapterError,
    AdapterFault,
    Hello,
    Unsupported,
)
from ginspec.conformance.cases import Case, CaseFormatError
from ginspec.conformance.cases.expectations import (
    MATCH_SCORES,
    SCORED_QUERIES,
    Plan,
    QueryPlan,
    ask,
    choose,
    unscored,
)
from ginspec.conformance.cases.unsent_refusals import BY_OBSERVATION, FORFEIT, check_unsent, refused_code
from ginspec.conformance.compare import (
    check_checkpoint,
    check_query,
    check_result,
    check_verdict,
)
from ginspec.conformance.engine_deal import engine_request, read_engine_deal
from ginspec.conformance.mismatch import Mismatch, blame_key
from ginspec.reference.game import MalformedAction, parse_action, rules_for_profile
from ginspec.reference.game.rejections import CLAUSE_OF, Code
from ginspec.spec.inputs import parse_json, read_text

STATUSES: Final = ("pass", "fail", "error", "skip", "declined", "xfail", "xpass")

MAX_RESTARTS: Final = 3
"""Default ``--max-restarts``: restarts in a row (no case finishing in between) before the
runner gives up on the adapter and reports the remaining cases as adapter errors."""

RESULT_CLAUSES: Final[dict[str, str]] = {
    "deadwood": "DEADWOOD.MINIMUM",
    "outcome": "SHOWDOWN.COMPARE",
    "winner": "SHOWDOWN.COMPARE",
}
"""The clause blamed for a wrong result field when the case names no better one."""


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case."""

    case: Case
    status: str
    culprit: str | None = None
    """The clause that caught the failure."""
    step: int | None = None
    """Index of the step (or checkpoint ``after`` count) where the run diverged."""
    where: str = ""
    """``query``, ``step``, ``checkpoint``, ``result``, ``setup`` (the first deal of an engine
    that deals itself) or ``deal`` (a later deal of its match)."""
    mismatch: Mismatch | None = None
    suspects: tuple[str, ...] = ()
    """Other clauses that may explain the failure (the clauses deciding a wrong result, the
    clauses of the expected and the actual rejection code)."""
    message: str = ""
    seconds: float = 0.0
    actual: Any = None
    profile: str | None = None
    """The ruleset the case was played under (a game case: one of its ``rulesets``)."""
    automatic: bool = False
    """Played to the knock, the engine settling the showdown (``melding.automatic``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.case.id,
            "status": self.status,
            "kind": self.case.kind,
            "profile": self.profile or self.case.profile,
            "clauses": list(self.case.clauses),
            "fingerprint": self.case.fingerprint,
            "seconds": round(self.seconds, 6),
        }
        if self.automatic:
            out["showdown"] = "automatic"
        if self.culprit:
            out["culprit"] = self.culprit
        if self.suspects:
            out["suspects"] = list(self.suspects)
        if self.where:
            out["where"] = self.where
        if self.step is not None:
            out["step"] = self.step
        if self.mismatch is not None:
            out["expected"] = self.mismatch.expected
            out["actual"] = self.mismatch.actual
            out["field"] = self.mismatch.field
        if self.message:
            out["message"] = self.message
        return out


@dataclass
class RunSummary:
    """All outcomes of a run and the adapter's hello."""

    hello: Hello
    outcomes: list[CaseResult] = field(default_factory=list)
    seconds: float = 0.0
    gave_up: str = ""
    """Why the run stopped sending cases to the adapter (restart budget spent), or empty."""
    interrupted: str = ""
    """The signal that ended the run early (``SIGINT``, ``SIGTERM``), or empty."""
    not_run: int = 0
    """When interrupted: how many selected cases were never run."""
    refused: str = ""
    """Why the adapter was refused at hello (no case was sent; the run's one error), or empty."""

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def warning(self) -> str:
        """One line when the run did not play its selection (every report shows it): interrupted,
        or refused at hello; else empty."""
        return stop_warning(self.interrupted, self.not_run, self.refused)

    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in STATUSES}

    @property
    def exit_code(self) -> int:
        """0 all ran cases pass; 1 failures or unexpected passes; 2 adapter errors or an adapter
        refused at hello; 130 or 143 interrupted by SIGINT or SIGTERM (as the process exits)."""
        if self.interrupted:
            return signal_exit_code(self.interrupted)
        if self.refused or self.count("error"):
            return 2
        if self.count("fail") or self.count("xpass"):
            return 1
        return 0


SIGNAL_EXIT_CODES: Final[dict[str, int]] = {"SIGINT": 130, "SIGTERM": 143}
"""The exit code of a run ended by each signal (128 + the signal's number)."""


def stop_warning(interrupted: str, not_run: int, refused: str) -> str:
    """The line every report shows for a run cut short by a signal or refused at hello."""
    if interrupted:
        return (f"INTERRUPTED by {interrupted}: {not_run} selected case(s) not run; the counts "
                "are of the cases that ran")
    if refused:
        return f"REFUSED at hello: {refused}"
    return ""


def signal_exit_code(name: str) -> int:
    """The exit code of a run interrupted by signal ``name`` (an unknown name: as SIGINT)."""
    return SIGNAL_EXIT_CODES.get(name, SIGNAL_EXIT_CODES["SIGINT"])


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` with 1 <= I <= N."""
    try:
        i, n = (int(p) for p in text.split("/"))
    except ValueError:
        raise CaseFormatError(f"--shard: expected I/N such as 2/4, got {text!r}") from None
    if not 1 <= i <= n:
        raise CaseFormatError(f"--shard: {text!r}: I must be between 1 and N")
    return i, n


def in_shard(case_id: str, shard: tuple[int, int]) -> bool:
    """Deterministic, stable under additions: a case's shard depends on its ID only."""
    i, n = shard
    digest = int(hashlib.sha256(case_id.encode()).hexdigest()[:8], 16)
    return digest % n == i - 1


def read_expect_fail(path: Path) -> dict[str, str]:
    """An expected-failure list: JSON ``{id: reason}``, or text lines ``ID  # reason``."""
    text = read_text(path, CaseFormatError)
    if path.suffix == ".json":
        data = parse_json(text, str(path), CaseFormatError)
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise CaseFormatError(f"{path}: (top level): expected an object of id -> reason")
        return {str(k): v for k, v in data.items()}
    out = {}
    for line in text.splitlines():
        body, _, reason = line.partition("#")
        if body.strip():
            out[body.strip()] = reason.strip()
    return out


def skip_reason(case: Case, hello: Hello) -> str | None:
    """Why ``case`` may not be sent to this adapter (None when it may)."""
    chosen = resolve(case, hello)
    return chosen if isinstance(chosen, str) else None


def resolve(case: Case, hello: Hello, profiles: Iterable[str] | None = None
            ) -> Plan | QueryPlan | str | None:
    """The plan a game case is played by under the adapter's declarations, the profile a query
    case with ``rulesets`` is asked under (None for another query the adapter may answer), or
    why it is skipped. ``profiles`` (``--profile``) narrows the rulesets a case may be played
    or asked under."""
    if case.deals and "deal.engine" in hello.capabilities and not engine_dealt(case):
        return "deal.engine: the engine deals itself, the case has a fixed deal (PROTOCOL.md)"
    wanted = None if profiles is None else set(profiles)

    def allowed(profile: str, depends: Sequence[str] | None = None) -> str | None:
        if wanted is not None and profile not in wanted:
            return f"profile {profile} not selected"
        return hello.rules_reason(profile, case.overrides, depends)

    if case.kind != "query":
        return choose(case, hello.profiles, hello.capabilities, allowed)
    if case.ruleset_profiles:
        return ask(case, hello.profiles, hello.capabilities, allowed)
    rules = hello.rules_reason(case.profile, case.overrides)  # profile + values (base.Hello)
    missing = [c for c in case.requires if c not in hello.capabilities]
    if rules is not None and (not missing or not rules.startswith("override")):
        return rules
    if missing:
        return f"capability {', '.join(missing)} not declared"
    return rules


def engine_dealt(case: Case) -> bool:
    """A hand or match whose first deal has a ``seed``: one the live mode wrote from an engine's
    own deal (the seed the engine dealt it from), or a deal check of the suite (the seed alone):
    an engine that declares ``deal.engine`` plays it, dealing itself."""
    return case.kind in ("hand", "match") and "seed" in case.deals[0]


def select(
    cases: Iterable[Case],
    *,
    profiles: Iterable[str] = (),
    pattern: str | None = None,
    shard: tuple[int, int] | None = None,
) -> list[Case]:
    """The cases a run covers: ``--profile`` keeps profile-independent cases too."""
    wanted = set(profiles)
    out = []
    for case in cases:
        if wanted and case.profile is not None and not wanted & playable_profiles(case):
            continue
        if pattern and not fnmatch.fnmatchcase(case.id, pattern):
            continue
        if shard and not in_shard(case.id, shard):
            continue
        out.append(case)
    return out


def playable_profiles(case: Case) -> set[str]:
    """Every profile the case has expectations for (its own, and its ``rulesets``)."""
    out = {p for names in case.ruleset_profiles for p in names}
    if case.profile is not None:
        out.add(case.profile)
    return out


class Runner:
    """Runs cases against one adapter."""

    def __init__(
        self, adapter: Adapter, hello: Hello, expect_fail: Mapping[str, str] | None = None,
        profiles: Iterable[str] | None = None, *, max_restarts: int = MAX_RESTARTS,
    ):
        self.adapter = adapter
        self.max_restarts = max_restarts
        self._failures = 0
        """Cases in a row that ended in a fault needing a restart."""
        self.gave_up = ""
        self.hello = hello
        self.profiles = None if profiles is None else tuple(profiles)
        """``--profile``: play game cases under these of the declared profiles only."""
        self.expect_fail = dict(expect_fail or {})
        self.codes = "rejection-codes" in hello.capabilities
        self.legal = "legal-actions" in hello.capabilities
        self.forfeits = FORFEIT in hello.capabilities
        """The engine is sent no illegal action: refused steps are asked from the position."""
        self.hands = "observe.hands" in hello.capabilities
        """Checkpoints compare the players' cards (``hands``) only for an engine that reports them."""
        self.scores = "match.scores" in hello.capabilities
        self._opened = False
        """Whether the current case's opening request was answered (after it, declining is a
        protocol error)."""

    def run(
        self, cases: Iterable[Case], progress: Callable[[CaseResult], None] | None = None
    ) -> RunSummary:
        summary = RunSummary(self.hello)
        start = time.perf_counter()
        try:
            for case in cases:
                outcome = self.run_case(case)
                summary.outcomes.append(outcome)
                if progress:
                    progress(outcome)
        except KeyboardInterrupt as stop:  # SIGINT, or SIGTERM turned into it: keep what ran
            summary.interrupted = str(stop) or "SIGINT"
        summary.seconds = time.perf_counter() - start
        summary.gave_up = self.gave_up
        return summary

    def run_case(self, case: Case) -> CaseResult:
        chosen = resolve(case, self.hello, self.profiles or None)
        if isinstance(chosen, str):
            return CaseResult(case, "skip", message=chosen)
        if self.gave_up:
            return self._expected(CaseResult(case, "error", where="adapter",
                                          message=f"not run: {self.gave_up}"))
        start = time.perf_counter()
        self._opened = False
        try:
            outcome = self._play_game(case, chosen) if isinstance(chosen, Plan) \
                else self._play(case, chosen)
            self.adapter.end_case()
            self._failures = 0
        except Unsupported as declined:
            if self._opened:
                outcome = CaseResult(case, "error", where="adapter",
                                  message="protocol: declined after the opening request "
                                  f"(only query, new_hand, new_match or new_table_hand may decline): {declined}")
                self._restart(f"protocol: declined late: {declined}")
            else:
                outcome = CaseResult(case, "declined", message=declined.reason)
                self._failures = 0
        except AdapterFault as fault:
            outcome = CaseResult(
                case,
                "error",
                where="adapter",
                message=f"{fault.kind}: {fault}"
                + (f"\nstderr: {fault.stderr[-2000:]}" if fault.stderr else ""),
            )
            if fault.kind != "error":  # a well-formed error reply: the process is fine
                self._restart(f"{fault.kind}: {fault}")
        except Exception as exc:  # an in-process adapter raised: an adapter error, not a verdict
            tb = traceback.format_exc(limit=-3)
            outcome = CaseResult(
                case, "error", where="adapter", message=f"{type(exc).__name__}: {exc}\n{tb}"
            )
            with contextlib.suppress(Exception):  # not counted: the adapter answered, badly
                self.adapter.restart()
        seconds = time.perf_counter() - start
        return self._expected(CaseResult(**{**outcome.__dict__, "seconds": seconds}))

    def _expected(self, outcome: CaseResult) -> CaseResult:
        """``xfail``/``xpass`` for cases listed in ``--expect-fail``."""
        case = outcome.case
        if case.id in self.expect_fail:
            if outcome.status in ("fail", "error"):
                outcome = CaseResult(**{**outcome.__dict__, "status": "xfail"})
            elif outcome.status == "pass":
                outcome = CaseResult(
                    **{
                        **outcome.__dict__,
                        "status": "xpass",
                        "message": "listed in --expect-fail but passed: "
                        + self.expect_fail[case.id],
                    }
                )
        return outcome

    def _restart(self, why: str) -> None:
        """Restart after a fault, unless ``max_restarts`` restarts in a row were spent."""
        self._failures += 1
        if self._failures > self.max_restarts:
            self.gave_up = (f"the adapter failed {self._failures} cases in a row "
                            f"(--max-restarts {self.max_restarts}); last: {why.splitlines()[0]}")
            return
        try:
            self.adapter.restart()
        except (AdapterFault, AdapterError) as exc:  # a slow hello: the process is kept
            if isinstance(exc, AdapterError):  # it cannot even start: give up now
                self._failures = self.max_restarts
                self._restart(str(exc))

    def _culprit(self, case: Case, preferred: str | None = None) -> str | None:
        if preferred:
            return preferred
        return _first_clause(case)

    def _play(self, case: Case, question: QueryPlan | None = None) -> CaseResult:
        if case.kind == "query":
            q = case.query
            args = {k: v for k, v in q.items() if k != "what"}
            profile = case.profile if question is None else question.profile
            expect = case.expect if question is None else question.expect
            if q["what"] in SCORED_QUERIES and not self.scores:  # judged on the rest
                expect = {k: v for k, v in expect.items() if k not in MATCH_SCORES}
            answer = self.adapter.query(str(q["what"]), args, profile, case.overrides)
            self._opened = True
            if not isinstance(answer, Mapping):
                raise AdapterFault(f"query answer is not an object: {answer!r}", kind="protocol")
            bad = check_query(str(q["what"]), q, expect, case.overrides, answer,
                              profile=profile, codes=self.codes)
            if bad:
                recorded = case.blame if question is None else question.blame
                blame = recorded.get(blame_key(bad.field, bad.actual)) or \
                    recorded.get(bad.field) or _result_blame(case, bad.field) or \
                    (case.decides[0] if len(case.decides) == 1 else None) or \
                    RESULT_CLAUSES.get(bad.field)
                return CaseResult(case, "fail", self._culprit(case, blame), where="query",
                               mismatch=bad, actual=dict(answer),
                               suspects=tuple(c for c in case.clauses if c != blame),
                               profile=profile)
            return CaseResult(case, "pass", profile=profile)
        raise AdapterFault(f"case {case.id}: a game case without a plan", kind="internal")

    def _play_game(self, case: Case, plan: Plan) -> CaseResult:
        """Play ``plan`` (the case under one ruleset) and judge it from its data alone; the
        clause blamed is the one recorded for the first expectation that differs."""
        profile = plan.profile
        if case.kind == "match" and not self.scores:
            plan = unscored(plan)
        # an engine of rules declared by value is sent those rules (the plan agrees with them
        # on every parameter it depends on); any other, the case's profile and overrides
        sent, overrides = (profile, case.overrides) if self.hello.rules is None else \
            (self.hello.rules.name, self.hello.rules.overrides)
        later: dict[int, Mapping[str, Any]] = {}
        if engine_dealt(case):
            dealt = self._engine_deal(case, sent, overrides)
            if dealt is not None:
                return dealt
            if "deal.engine" in self.hello.capabilities:  # the later deals the engine makes
                later = {int(d["after"]): d for d in case.deals[1:] if "after" in d}
        elif case.kind == "hand":
            self.adapter.new_hand(sent, overrides, case.deals[0])
        elif case.kind == "table-hand":
            self.adapter.new_table_hand(sent, overrides, case.deals[0])
        else:
            self.adapter.new_match(sent, overrides, case.deals)
        self._opened = True
        points: dict[int, list[dict[str, Any]]] = {}
        for point in plan.checkpoints:
            points.setdefault(int(point["after"]), []).append(point)
        steps = plan.steps
        apply = self.adapter.apply
        for i in range(len(steps) + 1):
            for point in points.get(i, ()) if points else ():
                bad = self._checkpoint(point)
                if bad:
                    last = steps[i - 1].get("clause") if i > 0 else None
                    suspects = phase_clauses(bad.expected, bad.actual) \
                        if bad.field == "phase" else ()
                    return CaseResult(case, "fail", _legal_blame(point, bad)
                                   or point.get("blame", {}).get(f"{bad.field}:{bad.actual}")
                                   or point.get("blame", {}).get(bad.field)
                                   or point.get("clause") or _phase_blame(bad) or last
                                   or _first_clause(case), step=i, where="checkpoint",
                                   mismatch=bad, suspects=suspects, profile=profile, automatic=plan.automatic)
            if i == len(steps):
                break
            step = steps[i]
            player = step["player"]
            if self.forfeits and step["expect"] != "accepted":
                bad = self._unsent(step)
                if bad:
                    return CaseResult(case, "fail", step.get("clause") or _first_clause(case),
                                      step=i, where="step", mismatch=bad, profile=profile,
                                      automatic=plan.automatic)
                continue
            verdict = apply(player if player == "chance" else int(player), str(step["action"]))
            if not hasattr(verdict, "accepted"):
                raise AdapterFault(f"apply returned {verdict!r}, not a Verdict", kind="protocol")
            if verdict.accepted is True and step["expect"] == "accepted":
                if later and i + 1 in later:  # the engine dealt the next hand of the match
                    wrong = self._deal_checked(case, later[i + 1], sent, overrides, first=False)
                    if wrong is not None:
                        return replace(wrong, step=i + 1, profile=profile)
                continue  # the common step: accepted as expected (check_verdict's first case)
            bad = check_verdict(step["expect"], verdict.accepted, verdict.code, self.codes)
            if bad:
                want = step["expect"]
                expected_code = None if want == "accepted" else str(want["rejected"])
                # the rule the engine applies wrongly: the one permitting the step against its
                # refusal code, or saying a refusal is not for that code; else the step's clause
                against = step.get("against", {}).get(verdict.code or "")
                if verdict.accepted and want != "accepted" and step.get("against"):
                    against = step["against"].get(f"phase:{self._phase()}")  # played on
                return CaseResult(case, "fail", against or step.get("clause") or _first_clause(case),
                               step=i,
                               where="step", mismatch=bad,
                               suspects=code_clauses(expected_code, verdict.code)
                               + self._phase_suspects(), profile=profile, automatic=plan.automatic)
        expected = plan.result
        if expected is not None:
            actual = self.adapter.result()
            bad = check_result(expected, actual)
            if bad:
                name = bad.field.removeprefix("result.")
                ended = None
                if name == "result":  # no result at all: the rule that ended the hand before
                    name = "outcome"  # the phase the engine is in, else how it ends
                    if any(k.startswith("phase:") for k in plan.blame):
                        ended = plan.blame.get(f"phase:{self._phase()}")
                blame = ended or plan.blame.get(name) or _result_blame(case, name) \
                    or RESULT_CLAUSES.get(name) or _first_clause(case)
                return CaseResult(case, "fail", blame, where="result", mismatch=bad,
                               actual=actual, suspects=case.decides, profile=profile, automatic=plan.automatic)
        return CaseResult(case, "pass", profile=profile, automatic=plan.automatic)

    def _engine_deal(self, case: Case, profile: str,
                     overrides: Mapping[str, Any]) -> CaseResult | None:
        """Open a hand or a match whose first deal has a ``seed`` (written by the live mode from
        an engine's deal, or a deal check of the suite). An engine that deals itself is sent the
        dealer and the seed (``new_hand``, or ``new_match`` with that one deal: it deals every
        hand of the match itself); the first deal it reports must pass the deal checks (a
        failure blames the clause it breaks) and be the case's deck when the case has one (else
        it deals otherwise from the same seed: an error, not a verdict). Any other engine is
        sent the decks."""
        deal = case.deals[0]
        match = case.kind == "match"
        if "deal.engine" not in self.hello.capabilities:
            decks = [{"dealer": d["dealer"], "deck": d["deck"]} for d in case.deals]
            if match:
                self.adapter.new_match(profile, overrides, decks)
            else:
                self.adapter.new_hand(profile, overrides, decks[0])
            return None
        if match:
            self.adapter.new_match(profile, overrides, [engine_request(deal)])
        else:
            self.adapter.new_hand(profile, overrides, engine_request(deal))
        self._opened = True
        return self._deal_checked(case, deal, profile, overrides, first=True)

    def _deal_checked(self, case: Case, deal: Mapping[str, Any], profile: str,
                      overrides: Mapping[str, Any], *, first: bool) -> CaseResult | None:
        """Ask an engine that deals itself for the deal it made (``dealt``): a failure of the
        clause it breaks, an error when it is not the case's deck (the engine deals otherwise
        from the same seed), else None. A later deal of a match (``first`` False) is
        ``where="deal"``, its dealer the one the rules name (MATCH.NEXT-DEALER)."""
        eleven = rules_for_profile(profile, overrides).eleven_card_start
        made, clause, message = read_engine_deal(self.adapter.dealt(), int(deal["dealer"]),
                                                 eleven, first=first)
        where = "setup" if first else "deal"
        if made is None:
            return CaseResult(case, "fail", clause, step=0, where=where,
                              mismatch=Mismatch("deal", "a deal the rules allow", message),
                              profile=profile)
        if "deck" in deal and made.tokens() != list(deal["deck"]):
            seed = case.deals[0]["seed"]
            return CaseResult(case, "error", where="adapter", profile=profile,
                              message=f"deal.engine: from seed {seed} the engine dealt "
                              "other cards than it did when the case was written (its deal is "
                              "not a function of the seed)")
        return None

    def _unsent(self, step: Mapping[str, Any]) -> Mismatch | None:
        """A refused step asked without sending it (``illegal.forfeit``): the observation shows
        the turn or the hand's end, else the legal actions leave the action out."""
        if refused_code(step) in BY_OBSERVATION:
            return check_unsent(step, self.adapter.observe(), None)
        legal = self.adapter.legal_actions()
        check_action_texts(legal)
        return check_unsent(step, None, legal)

    def _phase_suspects(self) -> tuple[str, ...]:
        """The clause of the phase the adapter is in after a diverging step (best effort)."""
        return phase_clauses(self._phase())

    def _phase(self) -> Any:
        """The phase the adapter shows now, after a divergence (best effort: None if it cannot
        say)."""
        try:
            return self.adapter.observe().get("phase")
        except Exception:
            return None

    def _checkpoint(self, point: Mapping[str, Any]) -> Mismatch | None:
        if "hands" in point and not self.hands:
            point = {k: v for k, v in point.items() if k != "hands"}
        wants_legal = any(k in point for k in ("legal_actions", "legal_count", "legal_includes",
                                                "legal_excludes"))
        legal = self.adapter.legal_actions() if wants_legal else None
        if legal is not None:
            check_action_texts(legal)
        others = {k for k in point if k not in ("after", "legal_actions", "legal_count", "clause",
                                                "blame", "legal_includes", "legal_excludes")}
        observation = self.adapter.observe() if others else {}
        return check_checkpoint(
            {k: v for k, v in point.items() if k not in ("clause", "blame")}, observation, legal
        )


def _first_clause(case: Case) -> str | None:
    """The clause a failing case is about when no expectation names one: the one it violates
    or decides, or its only clause; never a guess among several."""
    for group in (case.violates, case.decides):
        if len(group) == 1:
            return group[0]
    return case.clauses[0] if len(case.clauses) == 1 else None


def _legal_blame(point: Mapping[str, Any], bad: Mismatch) -> str | None:
    """Wrong legal actions: the clause the case records for the first action the engine gets
    wrong (``blame`` key ``legal:<action>``; ``legal:*`` for an action the case does not list).
    None, so the field's own clause is blamed, when the engine also gets wrong an action the
    case records no clause for: only the field's rule decides that one, so it is that rule the
    engine breaks (a knock at the limit among missing knocks well below it is not the limit's)."""
    if not bad.field.startswith("legal_") or bad.field == "legal_count":
        return None
    want, got = set(bad.expected), set(bad.actual)
    wrong = sorted(want & got) if bad.field == "legal_excludes" else sorted(want - got)
    if bad.field == "legal_actions":  # the exact list: missing first, then extra
        wrong += sorted(got - want)
    blame = point.get("blame", {})
    named = [blame.get(f"legal:{action}") or
             (blame.get("legal:*") if action not in want else None) for action in wrong]
    if not named or None in named:
        return None
    return str(named[0])


def _phase_blame(bad: Mismatch) -> str | None:
    """A wrong phase: the clause of the phase the engine is in, which the spec does not reach
    here; or, when the engine's hand is over, the clause of the phase it left out."""
    if bad.field != "phase":
        return None
    shown = bad.expected if str(bad.actual) == "over" else bad.actual
    return next(iter(phase_clauses(shown)), None)


def _result_blame(case: Case, name: str) -> str | None:
    """Cases may name the clause deciding each result field in ``source`` as ``blame.<field>``."""
    source = case.source
    value = source.get(f"blame.{name}") or source.get("blame")
    return str(value) if value else None


PHASE_CLAUSES: Final[dict[str, str]] = {
    "offer-non-dealer": "FIRST.UPCARD-OFFER",
    "offer-dealer": "FIRST.DEALER-OFFER",
    "first-draw": "FIRST.BOTH-PASS",
    "draw": "TURN.DRAW",
    "discard": "TURN.DISCARD",
    "wall": "WALL.END",
    "wall-knock": "WALL.LAST-CHANCE",
    "reshuffle": "WALL.RESHUFFLE",
    "declare": "SHOWDOWN.DECLARATION",
    "defender-meld": "SHOWDOWN.DEFENDER-SPREAD",
    "defender-layoff": "LAYOFF.TARGET",
    "knocker-layoff": "LAYOFF.KNOCKER",
    "over": "KNOCK.ENDS-HAND",
}
"""The clause that puts a hand in each phase (ACTION.PHASE): suspects when phases differ."""


def check_action_texts(legal: Any) -> None:
    """Legal actions must be strings of the action grammar (ACTION.GRAMMAR): an adapter that
    invents an action has broken the protocol, which is an adapter error, not a rules verdict."""
    if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
        raise AdapterFault(f"legal_actions returned {legal!r}, not a list of strings",
                           kind="protocol")
    for text in legal:
        try:
            parse_action(text)
        except MalformedAction as exc:
            raise AdapterFault(f"legal action {text!r} is not in the action grammar: {exc}",
                               kind="protocol") from None


def phase_clauses(*phases: Any) -> tuple[str, ...]:
    out: list[str] = []
    for phase in phases:
        clause = PHASE_CLAUSES.get(str(phase))
        if clause and clause not in out:
            out.append(clause)
    return tuple(out)


def code_clauses(*codes: str | None) -> tuple[str, ...]:
    """The clauses the reference ties to these rejection codes (ACTION.REJECTION)."""
    out = []
    for code in codes:
        member = Code.__members__.get(code or "")
        if member is not None and CLAUSE_OF[member] not in out:
            out.append(CLAUSE_OF[member])
    return tuple(out)

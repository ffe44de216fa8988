"""Live differential mode: ``ginspec conform --live --adapter SPEC --profile P --seed S --hands N``.

A Hypothesis-driven player plays seeded hands on the adapter and on the reference in lockstep:
at each position it picks a legal action of the reference (now and then an illegal probe), applies
it to both, and compares the verdicts, the observations, the legal actions and the result. The
first divergence is shrunk by Hypothesis (fewer moves, earlier deals, simpler choices) and written
as an ordinary case file (origin ``generated``), ready for ``ginspec conform --suite FILE`` or a
bug report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ginspec.conformance.adapters.base import (
    Adapter,
    AdapterError,
    AdapterFault,
    Hello,
    Unsupported,
)
from ginspec.conformance.adapters.reference_game import (
    hand_result,
    legal_texts,
    observation,
)
from ginspec.conformance.cases import Case, CaseFormatError
from ginspec.conformance.generate.games import DEAL_CLAUSES, deal_json, known
from ginspec.conformance.generate.playouts import (
    action_clause,
    actor,
    engine_player,
    probes,
    rejection_of,
)
from ginspec.reference.game import HandState, deal_from_seed, rules_for_profile
from ginspec.spec.clauses import registry
from ginspec.spec.profiles import profiles
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

MAX_MOVES = 300
COMPARED = ("phase", "to_act", "hand_sizes", "discard_top", "stock_size")


class Divergence(AssertionError):
    """The adapter and the reference disagree."""


@dataclass
class Trace:
    seed: int = 0
    deal: dict[str, Any] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    checkpoint: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    message: str = ""


def run_live(adapter: Adapter, hello: Hello, profile: str, seed: int, hands: int, out: Path,
             stdout: TextIO) -> int:
    """Play up to ``hands`` hands; 0 no divergence, 1 a divergence (case written), 2 faults."""
    if profile not in profiles():
        raise CaseFormatError(f"--profile: unknown profile {profile!r}")
    if profile not in hello.profiles or "hand" not in hello.capabilities:
        raise AdapterError(f"--live: the adapter does not declare profile {profile} and 'hand'")
    if hands < 1:
        raise CaseFormatError("--hands: must be at least 1")
    rules = rules_for_profile(profile)
    legal_cap = "legal-actions" in hello.capabilities
    codes = "rejection-codes" in hello.capabilities
    last = Trace()
    declined = 0

    @settings(max_examples=hands, database=None, deadline=None, derandomize=False, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.generate, Phase.shrink])
    @hypothesis_seed(seed)  # the player's choices follow --seed too: a rerun replays the same play
    @given(st.integers(seed, seed + max(hands, 1) * 4), st.data())
    def play(deal_seed: int, data: st.DataObject) -> None:
        nonlocal last
        deal = deal_from_seed(deal_seed, deal_seed % 2)
        state = HandState.new(deal, rules)
        trace = Trace(seed=deal_seed, deal=deal_json(state))
        last = trace
        try:
            adapter.new_hand(profile, {}, trace.deal)
        except Unsupported:  # the adapter declines this deal (protocol 2): play another one
            nonlocal declined
            declined += 1
            reject()
        _compare(trace, state, adapter, legal_cap)
        for _ in range(MAX_MOVES):
            if state.is_over:
                break
            if data.draw(st.integers(0, 9), label="probe?") == 0:
                candidates = list(probes(state))
                player, action = candidates[data.draw(st.integers(0, len(candidates) - 1),
                                                       label="probe")]
            else:
                legal = legal_texts(state)
                action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
                player = actor(state)
            rejection = rejection_of(state, player, action)
            expect: Any = "accepted" if rejection is None else {"rejected": rejection.code.value}
            clause = rejection.clause if rejection is not None else action_clause(state, action)
            trace.steps.append({"player": player, "action": action, "expect": expect,
                                "clause": clause})
            verdict = adapter.apply(player, action)
            want_ok = rejection is None
            want_code = None if rejection is None else rejection.code.value
            if verdict.accepted != want_ok or (codes and not want_ok and verdict.code != want_code):
                got = "accepted" if verdict.accepted else f"rejected {verdict.code}"
                trace.message = f"step {len(trace.steps) - 1} {action!r}: expected {expect}, got {got}"
                raise Divergence(trace.message)
            if want_ok:
                state = state.apply(action, engine_player(player))
            _compare(trace, state, adapter, legal_cap)
        expected = hand_result(state)
        if expected is not None:
            actual = adapter.result()
            trace.result = expected
            if actual is None or any(actual.get(k) != v for k, v in expected.items()):
                trace.message = f"result: expected {expected}, got {actual}"
                raise Divergence(trace.message)

    try:
        play()
    except Divergence:
        path = _write_case(last, profile, hello, out)
        print(f"divergence: {last.message}", file=stdout)
        print(f"minimal case ({len(last.steps)} steps) written to {path}", file=stdout)
        print(f"reproduce: ginspec conform --adapter ... --suite {path}", file=stdout)
        return 1
    except AdapterFault as fault:
        print(f"adapter error: {fault.kind}: {fault}", file=stdout)
        return 2
    except Unsupported as exc:
        print(f"adapter error: protocol: declined after new_hand (only the opening request may "
              f"decline): {exc}", file=stdout)
        return 2
    except Unsatisfiable:
        print(f"the adapter declined every deal of {profile} from seed {seed}: nothing compared",
              file=stdout)
        return 2
    played = f" ({declined} deal(s) declined by the adapter and replaced)" if declined else ""
    print(f"no divergence in {hands} hand(s) of {profile} from seed {seed}{played}", file=stdout)
    return 0


def _compare(trace: Trace, state: HandState, adapter: Adapter, legal_cap: bool) -> None:
    want = observation(state)
    got = adapter.observe()
    point: dict[str, Any] = {"after": len(trace.steps), **want}
    trace.checkpoint = point
    for key in COMPARED:
        if got.get(key) != want[key]:
            trace.message = f"after step {len(trace.steps)}: {key}: expected {want[key]!r}, " \
                            f"got {got.get(key)!r}"
            raise Divergence(trace.message)
    if legal_cap and not state.is_over:
        want_legal = sorted(legal_texts(state))
        got_legal = sorted(adapter.legal_actions())
        point["legal_actions"] = want_legal
        if got_legal != want_legal:
            trace.message = (f"after step {len(trace.steps)}: legal actions: missing "
                             f"{sorted(set(want_legal) - set(got_legal))}, extra "
                             f"{sorted(set(got_legal) - set(want_legal))}")
            raise Divergence(trace.message)


def _write_case(trace: Trace, profile: str, hello: Hello, out: Path) -> Path:
    requires = ["hand"]
    if "legal_actions" in trace.checkpoint:
        requires.append("legal-actions")
    if any(s["expect"] != "accepted" for s in trace.steps):
        requires.append("rejection-codes")
    if any(s["action"].split()[0] in ("declare", "meld") for s in trace.steps):
        requires.append("melding.explicit")
    if any(s["action"].split()[0] == "layoff" for s in trace.steps):
        requires.append("layoff.explicit")
    fields: dict[str, Any] = {}
    if trace.result is not None and trace.message.startswith("result"):
        fields["result"] = trace.result
    steps = [{k: v for k, v in s.items() if k != "clause" or v in registry()}
             for s in trace.steps]
    point = dict(trace.checkpoint)
    point["after"] = min(point["after"], len(trace.steps))
    case = Case.make(
        id=f"live.{profile}.s{trace.seed}.n{len(trace.steps)}", kind="hand", origin="generated",
        description=f"live divergence against {hello.name} {hello.version}: {trace.message}",
        clauses=known([*DEAL_CLAUSES, *(s["clause"] for s in trace.steps)]) or ["ACTION.PHASE"],
        violates=known(s["clause"] for s in trace.steps if s["expect"] != "accepted"),
        profile=profile, requires=requires,
        source={"generator": "ginspec conform --live", "seed": trace.seed},
        deals=[trace.deal], steps=steps, checkpoints=[point], **fields,
    )
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{case.id}.json"
    path.write_text(case.to_json(), encoding="utf-8")
    json.loads(path.read_text(encoding="utf-8"))
    return path

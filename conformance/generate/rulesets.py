"""Scenarios under every ruleset (``ginspec suite build``): the expectations of a hand, match or
table case for each profile that can play it, and the best-play result for engines that settle
the showdown themselves.

A game case is a *scenario* (its deals and its actions) plus the expectations of the ruleset it
was written for. The builder replays the scenario with the reference under every profile (with
the case's overrides) and records, where the profile plays it, that ruleset's expectations: the
verdict of every step (with the clause that decides it), the observations at the case's
checkpoints, and the result (with the clause deciding each field). Rulesets that agree share one
entry of the case's ``rulesets`` list; the runner picks the entry of a profile the engine
declares and judges from that data alone (it never calls the reference).

Where a ruleset parts from the scenario (a step accepted under the case's own profile is refused
under it, or the other way round) the entry *stops* at that step: it expects the step's verdict
under the ruleset and nothing after it. A scenario whose very first step parts is not playable
under that ruleset and gets no entry.

For engines that meld and lay off by themselves (``melding.automatic`` and
``layoff.automatic``) the scenario stops at the knock and the entry's ``automatic`` result is the
spec's best play (SHOWDOWN.BEST-PLAY, SHOWDOWN.DEFENDER-SPREAD, LAYOFF.*), found by
:func:`ginspec.reference.adjudicate.adjudicate` and played out by the reference engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.adapters.reference_game import GameDriver, hand_result
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.expectations import (
    SAME_SCENARIO,
    translated_checkpoints,
    translated_steps,
)
from ginspec.conformance.generate.blame import (
    ended_by_refused,
    ended_hand,
    final_score_blame,
    opens_later_hand,
    point_blame,
    refusal_against,
    refusal_clause,
    score_blame,
    step_against,
    still_playing,
)
from ginspec.conformance.generate.openings import Opening, translate
from ginspec.conformance.generate.playouts import action_clause, engine_player
from ginspec.reference.game.strategies import best_layoff_steps
from ginspec.reference.typed_rules import reads_paused, recording_reads, to_rules
from ginspec.spec.clauses import registry
from ginspec.spec.errors import GinspecError
from ginspec.spec.parameters import parameters, value_text
from ginspec.spec.profiles import ruleset

GAME_KINDS: Final = ("hand", "match", "table-hand")
SHOWDOWN_PHASES: Final = frozenset({"declare", "defender-meld", "defender-layoff",
                                    "knocker-layoff"})
LAYOFF_PHASES: Final = frozenset({"defender-meld", "defender-layoff", "knocker-layoff"})
EXPLICIT_CAPABILITIES: Final = frozenset({"melding.explicit", "layoff.explicit", "legal-actions",
                                          "rejection-codes"})
"""Capabilities the builder decides from a case's steps and checkpoints, not from its family."""
AUTOMATIC: Final = ("layoff.automatic", "melding.automatic")
DEPENDS_KINDS: Final = ("hand", "match")
"""The kinds whose entries record the parameters they depend on (``depends``): the reference
reads every rule of a two-player hand and match through the typed rules, whose reads it logs."""


class NotReplayable(GinspecError):
    """The reference does not reproduce a case's own expectations (a builder bug: fail the
    build rather than record two truths)."""


@dataclass(frozen=True)
class Played:
    """A scenario replayed under one ruleset: what the reference answered."""

    verdicts: tuple[Any, ...]
    """Per step played: ``"accepted"`` or ``{"rejected": CODE}``."""
    clauses: tuple[str | None, ...]
    """Per step played: the clause that permits or refuses it."""
    checkpoints: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None
    blame: dict[str, str]
    stop: int | None
    """Steps played when the ruleset parted from the scenario (None: all of them)."""
    kept: Any = None
    """The reference HandState right after the step :func:`replay` was asked to keep."""
    against: tuple[dict[str, str], ...] = ()
    """Per step played: for an accepted step, rejection code -> the clause that permits the
    step against that objection (see :func:`~ginspec.conformance.generate.blame.step_against`);
    empty for a refused one."""
    kept_spread: Any = None
    """The reference HandState right after the step :func:`replay` was asked to keep as the
    defender's spread (``keep_spread``)."""


def values_of(profile: str, overrides: Mapping[str, Any]) -> Mapping[str, Any]:
    """``ruleset(profile, overrides)``, computed once per build for each pair (read only)."""
    import json

    return _values(profile, json.dumps(dict(overrides), sort_keys=True))


@cache
def _values(profile: str, overrides: str) -> Mapping[str, Any]:
    import json


    return ruleset(profile, json.loads(overrides))


def _driver(case: Case, profile: str) -> Any:

    adapter = ReferenceAdapter()
    if case.kind == "hand":
        adapter.new_hand(profile, case.overrides, case.deals[0])
    elif case.kind == "match":
        adapter.new_match(profile, case.overrides, case.deals)
    else:
        adapter.new_table_hand(profile, case.overrides, case.deals[0])
    return adapter


def _hand_state(adapter: Any) -> Any:
    """The reference HandState behind a two-player hand or match adapter (None at the table)."""

    game = adapter._driver()
    return game.state() if isinstance(game, GameDriver) else None


def _observe(adapter: Any, point: Mapping[str, Any]) -> dict[str, Any]:
    """The fields ``point`` checks, as the reference answers them now."""
    fields = [k for k in point if k not in ("after", "clause", "blame")]
    legal_keys = ("legal_actions", "legal_count", "legal_includes", "legal_excludes")
    legal = adapter.legal_actions() if any(k in legal_keys for k in fields) else []
    obs = adapter.observe()
    out: dict[str, Any] = {"after": point["after"]}
    for name in fields:
        if name == "legal_actions":
            out[name] = sorted(legal)
        elif name == "legal_count":
            out[name] = len(legal)
        elif name == "legal_includes":
            out[name] = [a for a in point[name] if a in legal]
        elif name == "legal_excludes":
            out[name] = [a for a in point[name] if a not in legal]
        else:
            out[name] = obs.get(name)
    if "clause" in point:
        out["clause"] = point["clause"]
    blame = point_blame(adapter, out)
    if blame:
        out["blame"] = blame
    return out


def _step_clause(state: Any, player: Any, action: str, accepted: bool) -> str | None:
    """The clause permitting an accepted action, or the one its refusal names."""

    if state is None:
        return None
    if accepted:
        return action_clause(state, action)
    rejection = state.rejection(action, engine_player(player))
    return None if rejection is None else rejection.clause


def _result_blame(adapter: Any, case: Case) -> dict[str, str]:
    """The clause deciding each result field: the scoring trail of the finished hand."""
    state = _hand_state(adapter)
    blame: dict[str, str] = {}
    if state is not None and case.kind == "hand" and state.result is not None:
        trail = [c for c in state.result.score.clauses if c.startswith(("SCORE.", "GIN.",
                                                                          "KNOCK."))]
        blame.update(score_blame(trail, state.result.points))
        if "SCORE.HAND-WINNER" in state.result.score.clauses:
            blame["winner"] = "SCORE.HAND-WINNER"
        if any(s.get("action", "").startswith("layoff") for s in case.steps):
            blame["deadwood"] = "LAYOFF.TARGET"
        if state.result.boxes != (0, 0):
            blame["boxes"] = "MATCH.BOX"
        blame.update(still_playing(state.result, state.rules))  # an engine whose hand goes on
    source = case.data.get("source", {})
    for key, value in source.items():
        if key.startswith("blame.") and case.kind != "hand":
            blame[key.removeprefix("blame.")] = str(value)
    game = adapter._driver()
    if case.kind == "match" and getattr(game, "match", None) is not None:
        blame.update(final_score_blame(game.match))  # the running score, bonuses, final total
    return blame


def replay(case: Case, profile: str, keep: int | None = None,
           keep_spread: int | None = None) -> Played | None:
    """``case``'s scenario under ``profile`` (and the case's overrides); None when the profile
    cannot deal it or parts from it at the first step. ``keep``: a step index whose resulting
    hand position, if the step is accepted, is returned too (``Played.kept``); ``keep_spread``
    likewise (``Played.kept_spread``). A deal with no deck (one an engine makes itself,
    deal.engine) is none the reference can deal: None."""
    if not all("deck" in d for d in case.deals):
        return None
    try:
        adapter = _driver(case, profile)
    except GinspecError:
        return None
    points: dict[int, list[dict[str, Any]]] = {}
    for point in case.checkpoints:
        points.setdefault(int(point["after"]), []).append(point)
    verdicts: list[Any] = []
    clauses: list[str | None] = []
    against: list[dict[str, str]] = []
    seen: list[dict[str, Any]] = []
    steps = case.steps
    stop: int | None = None
    kept = kept_spread = None
    for i in range(len(steps) + 1):
        seen.extend(_observe(adapter, p) for p in points.get(i, []))
        if i == len(steps):
            break
        step = steps[i]
        state = _hand_state(adapter)
        opening = opens_later_hand(adapter)
        player = step["player"]
        verdict = adapter.apply(player if player == "chance" else int(player), step["action"])
        clause = _step_clause(state, player, str(step["action"]), verdict.accepted)
        if not verdict.accepted:
            clause = refusal_clause(adapter) or clause
        verdicts.append("accepted" if verdict.accepted else {"rejected": verdict.code})
        clauses.append(clause or step.get("clause"))
        if i == keep and verdict.accepted:
            kept = _hand_state(adapter)
        if i == keep_spread and verdict.accepted:
            kept_spread = _hand_state(adapter)
        if state is None:
            against.append({})
        elif verdict.accepted:
            against.append(step_against(state, str(step["action"]), opening,
                                        ended_hand(adapter, state)))
        else:  # a refusal: the rules that rule out other codes, and for one refused for the
            # next dealer the rule that ends the hand with it (an engine playing on)
            against.append({**refusal_against(state, str(step["action"]), verdict.code, opening),
                            **(ended_by_refused(state, str(step["action"]), player)
                               if verdict.code == "WRONG_DEALER" else {})})
        if verdict.accepted != (step["expect"] == "accepted"):
            if i == 0:
                return None
            stop = i + 1
            break
    result = adapter.result() if stop is None and case.result is not None else None
    if stop is None and case.result is not None and result is None:
        stop = len(steps)  # every step plays, but the hand goes on: no result to expect
    if result is not None and case.result is not None:  # the fields the case checks
        result = {k: v for k, v in result.items() if k in case.result}
    result = _drop_boxes(result, profile, case.overrides)
    blame = {k: v for k, v in _result_blame(adapter, case).items()
             if k in (result or {}) or (result is not None and k.startswith("phase:"))}
    return Played(tuple(verdicts), tuple(clauses), tuple(seen), result, blame, stop, kept,
                  tuple(against), kept_spread)


def _drop_boxes(result: dict[str, Any] | None, profile: str,
                overrides: Mapping[str, Any]) -> dict[str, Any] | None:
    """A ruleset without a box bonus has no boxes (PROTOCOL.md, result fields): not expected."""

    if result is None or "boxes" not in result:
        return result
    if to_rules(values_of(profile, overrides)).box_bonus:
        return result
    return {k: v for k, v in result.items() if k != "boxes"}


def knock_index(case: Case) -> int | None:
    """The step of the case's accepted knock (or big gin), where an automatic showdown starts."""
    if case.kind != "hand":
        return None
    return next((i for i, s in enumerate(case.steps)
                 if str(s["action"]).startswith(("knock", "big-gin"))
                 and s["expect"] == "accepted"), None)


def spread_index(case: Case) -> int | None:
    """The step of the case's accepted defender's spread (``meld ...``), after which an engine
    that lays off by itself (``spread.explicit``, ``layoff.automatic``) plays on alone."""
    if case.kind != "hand":
        return None
    return next((i for i, s in enumerate(case.steps)
                 if _verb(s) == "meld" and s["expect"] == "accepted"), None)


def _verb(step: Mapping[str, Any]) -> str:
    """A step's action word, as the grammar reads it (case-insensitive)."""
    return str(step["action"]).split(" ", 1)[0].lower()


def layoffs_after_spread(case: Case, profile: str, played: Played | None) -> Played | None:
    """The scenario up to the defender's spread, then the best layoffs after it
    (:func:`~ginspec.reference.game.strategies.best_layoff_steps`, LAYOFF.*): what an
    engine whose players declare and spread but whose game lays off by itself must reach.
    ``played`` is the replay that kept the position after the spread; None without one."""
    at = spread_index(case)
    if at is None or played is None or played.kept_spread is None:
        return None
    state = played.kept_spread
    clauses = []
    for who, action in best_layoff_steps(state):
        if action.startswith("layoff"):
            clauses.append(action_clause(state, action))
        state = state.apply(action, who)
    deadwood = next((c for c in clauses if c.startswith("LAYOFF.")), "LAYOFF.TARGET")
    return _settled(case, profile, played, at, state, {"deadwood": deadwood},
                    "the layoffs after the spread")


def _settled(case: Case, profile: str, played: Played, last: int, state: Any,
             blame: dict[str, str], how: str) -> Played:
    """``played`` cut after step ``last``, the hand then finished by the engine's own showdown
    (``how``) as ``state``: the result and its blame (``blame`` first, then the scoring trail)."""
    result = _drop_boxes(hand_result(state), profile, case.overrides)
    if result is None:
        raise NotReplayable(f"{case.id}: {how} under {profile} did not end the hand")
    if state.result:
        blame.update(score_blame([c for c in state.result.score.clauses
                                   if c.startswith("SCORE.")], state.result.points))
    blame["winner"] = "SCORE.HAND-WINNER"
    blame = {k: v for k, v in blame.items() if k in result}
    points = tuple(p for p in played.checkpoints if p["after"] <= last)
    return Played(played.verdicts[:last + 1], played.clauses[:last + 1], points, result, blame,
                  None, against=played.against[:last + 1])


def automatic(case: Case, profile: str, played: Played | None) -> Played | None:
    """The scenario up to its knock, then the spec's best play (SHOWDOWN.BEST-PLAY): what an
    engine that melds and lays off by itself must reach. ``played`` is the scenario's replay
    under ``profile`` that kept the position after the knock (:func:`replay`); None without
    an accepted knock."""

    knock = knock_index(case)
    if knock is None or played is None or played.kept is None:
        return None
    state = played.kept
    if state.phase.value != "declare" or state.knocker is None:
        return None
    state, ruling = best_play(state)
    trail = [t["clause"] for t in ruling["trail"]]
    deadwood = next((c for c in trail if c.startswith("LAYOFF.")), "SHOWDOWN.DEFENDER-SPREAD")
    return _settled(case, profile, played, knock, state,
                    {"outcome": "SHOWDOWN.BEST-PLAY", "deadwood": deadwood}, "best play")


def best_play(state: Any) -> tuple[Any, dict[str, Any]]:
    """The hand finished from its ``declare`` phase by the spec's best play (SHOWDOWN.BEST-PLAY):
    the reference's adjudication of the two hands, played out as actions; and the ruling."""

    k, d = state.knocker, 1 - state.knocker
    ruling = state.best_ruling().to_json()
    moves: list[tuple[int, str]] = [
        (k, "declare " + " / ".join(" ".join(m) for m in ruling["declaration"]["melds"]))]
    defence = ruling["defender"]
    if defence is not None:
        moves.append((d, " ".join(["meld", " / ".join(" ".join(m) for m in defence["melds"])])
                       .strip()))
        moves.extend((d, lay["action"]) for lay in defence["layoffs"])
    if ruling["knocker_layoffs"]:
        moves.append((d, "done"))
        moves.extend((k, lay["action"]) for lay in ruling["knocker_layoffs"])
    for player, action in moves:
        if action.startswith("meld") and state.phase.value != "defender-meld":
            continue  # gin: the defender lays off or spreads without the meld step
        state = state.apply(action, player)
    guard = 0
    while not state.is_over and guard < 4:
        state = state.apply("done", state.to_move)
        guard += 1
    return state, ruling


# --- requirements ---------------------------------------------------------------------------


def requirements(case: Case, steps: Sequence[Mapping[str, Any]],
                 checkpoints: Sequence[Mapping[str, Any]], *, auto: bool = False,
                 layoffs: bool = False) -> list[str]:
    """The capabilities the steps and checkpoints really exercise (plus the case's others);
    ``auto``: an automatic showdown's entry; ``layoffs``: the entry of an engine that lays off
    by itself after an explicit spread (``spread.explicit``, ``layoff.automatic``)."""
    need = {c for c in case.requires if c not in EXPLICIT_CAPABILITIES}
    if any(k.startswith("legal_") for p in checkpoints for k in p):
        need.add("legal-actions")
    if auto:
        need.update(AUTOMATIC)
        return sorted(need)
    for step in steps:
        verb = _verb(step)
        if verb == "declare":
            need.add("melding.explicit")
        elif verb == "meld" and layoffs:
            need.update(("spread.explicit", "layoff.automatic"))
        elif verb in ("meld", "layoff", "done"):
            need.add("layoff.explicit")
    phases = {p.get("phase") for p in checkpoints}
    if "declare" in phases:
        need.add("melding.explicit")
    if phases & LAYOFF_PHASES:
        need.add("layoff.explicit")
    return sorted(need)


# --- the case's rulesets field ---------------------------------------------------------------


def _entry(case: Case, played: Played, *, showdown: str | None) -> dict[str, Any]:
    n = len(played.verdicts)
    steps = case.steps[:n]
    points = [p for p in played.checkpoints if played.stop is None or p["after"] <= n]
    entry: dict[str, Any] = {}
    if showdown is not None:
        entry["showdown"] = showdown
    if played.stop is not None or showdown is not None:
        entry["stop"] = n
    entry["requires"] = requirements(case, steps, points, auto=showdown == "automatic",
                                     layoffs=showdown == "layoffs")
    entry["verdicts"] = [_verdict(v, c, a) for v, c, a in
                         zip(played.verdicts, played.clauses, played.against, strict=True)]
    entry["checkpoints"] = points
    if played.result is not None:
        entry["result"] = played.result
        entry["blame"] = played.blame
    return entry


def _verdict(verdict: Any, clause: str | None, against: Mapping[str, str] | None = None) -> Any:
    """A step's expectation: the verdict, with the clause deciding it when known (and the
    clauses that permit the step, or rule out its refusal, against particular refusal codes; for
    a step refused for the next dealer, ``phase:<phase>`` -> the rule that ends the hand with it)."""
    if clause is None:
        return verdict
    out = {"expect": verdict, "clause": clause}
    if against:
        out["against"] = dict(against)
    return out


def _known(clause: str | None) -> str | None:

    return clause if clause in registry() else None


def rulesets_of(case: Case, profiles: Iterable[str]) -> list[dict[str, Any]]:
    """The case's ``rulesets`` entries: one per distinct expectation, naming its profiles."""

    groups: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    import json

    for profile in profiles:
        try:
            values_of(profile, case.overrides)
        except GinspecError:
            continue
        with recording_reads() as reads:
            opening = opening_for(case, profile)
            scenario = case if opening is None else translated_case(case, opening)
            explicit = replay(scenario, profile, keep=knock_index(scenario),
                              keep_spread=spread_index(scenario))
            found = {None: explicit, "automatic": automatic(scenario, profile, explicit),
                     "layoffs": layoffs_after_spread(scenario, profile, explicit)}
        for showdown, played in found.items():
            if played is None:
                continue
            played = Played(played.verdicts, tuple(_known(c) for c in played.clauses),
                            played.checkpoints, played.result, played.blame, played.stop,
                            against=played.against)
            entry = _entry(scenario, played, showdown=showdown)
            if opening is not None:
                entry = {"opening": _with_clauses(opening, played.clauses, played.against),
                         **entry}
            key = json.dumps(entry, sort_keys=True)
            if key not in groups:
                groups[key] = {"profiles": [], **entry, "depends": set()}
                order.append(key)
            groups[key]["profiles"].append(profile)
            groups[key]["depends"] |= reads
    if case.kind not in DEPENDS_KINDS:  # (the table reads rule values of its own)
        return [{k: v for k, v in groups[k].items() if k != "depends"} for k in order]
    return [{**groups[k], "depends": sorted(groups[k]["depends"])} for k in order]


def opening_for(case: Case, profile: str,
                overrides: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The case's opening rewritten for the first turn of ``profile`` (with ``overrides``,
    by default the case's own; see :mod:`~ginspec.conformance.generate.openings`); None when
    the first turns agree or no equivalent opening exists."""
    found = _translation(case, profile, overrides)
    return found.to_json() if isinstance(found, Opening) else None


def _translation(case: Case, profile: str,
                 overrides: Mapping[str, Any] | None = None) -> Opening | str | None:
    with reads_paused():  # the case's own rules: only the target's reads are its dependencies
        source = to_rules(values_of(str(case.profile), case.overrides))
    target = to_rules(values_of(profile, case.overrides if overrides is None else overrides))
    if source.first_turn == target.first_turn:
        return None
    if case.kind != "hand":
        return "the openings of a match's hands are not rewritten"
    deal = case.deals[0]
    if "deck" not in deal:
        return "a deal the engine makes itself (deal.engine) has no cards to rewrite"
    return translate(case.steps, [str(c) for c in deal["deck"]], int(deal["dealer"]), source,
                     target)


def translated_case(case: Case, opening: Mapping[str, Any]) -> Case:
    """``case`` with its opening replaced (its checkpoints counted in the new steps)."""
    data = {k: v for k, v in case.data.items()
            if k not in ("format", "fingerprint", "rulesets", "unplayable")}
    data["steps"] = translated_steps(case.steps, opening)
    data["checkpoints"] = translated_checkpoints(case.checkpoints, opening)
    return Case.make(**data)


def _with_clauses(opening: Mapping[str, Any], clauses: Sequence[str | None],
                  against: Sequence[Mapping[str, str]] = ()) -> dict[str, Any]:
    """The opening's steps with the clause the reference recorded for each (and the clauses
    permitting it against refusal codes, :func:`~ginspec.conformance.generate.blame.step_against`)."""
    steps = [{**s, **({"clause": c} if c else {}), **({"against": dict(a)} if c and a else {})}
             for s, c, a in zip(opening["steps"], clauses, [*against, *([{}] * len(clauses))],
                                strict=False)]
    return {"replaces": opening["replaces"], "steps": steps}


def check_home(case: Case, entries: Sequence[Mapping[str, Any]]) -> None:
    """The replay under the case's own profile must give the case's own expectations."""
    home = next((e for e in entries if case.profile in e["profiles"]
                 and "showdown" not in e), None)
    if home is None or "stop" in home:
        raise NotReplayable(f"{case.id}: the reference does not replay it under {case.profile}")
    for i, (step, verdict) in enumerate(zip(case.steps, home["verdicts"], strict=True)):
        got = verdict["expect"] if isinstance(verdict, dict) and "expect" in verdict else verdict
        if got != step["expect"]:
            raise NotReplayable(f"{case.id}: step {i}: {step['expect']} but replayed {got}")
    want = case.result
    got_result = home.get("result")
    if want is not None and got_result is not None:
        differ = [k for k in got_result if want.get(k) != got_result[k]]
        if differ:
            raise NotReplayable(f"{case.id}: result {differ} differ on replay")
    for mine, theirs in zip(case.checkpoints, home["checkpoints"], strict=True):
        differ = [k for k in theirs if k not in ("after", "clause", "blame")
                  and mine.get(k) != theirs[k]]
        if differ:
            raise NotReplayable(f"{case.id}: checkpoint after {mine['after']}: {differ} differ")


def _main_verdict(step: Mapping[str, Any]) -> Any:
    return _verdict(step["expect"], step.get("clause"), step.get("against"))


def _sparse(entry: Mapping[str, Any], main: Mapping[str, Any]) -> dict[str, Any]:
    """``entry`` with what it shares with the case's own expectations left out."""
    out: dict[str, Any] = {"profiles": list(entry["profiles"])}
    if "opening" in entry:
        opening = entry["opening"]
        out["opening"] = opening
        main = {**main, "checkpoints": translated_checkpoints(main["checkpoints"], opening),
                "verdicts": [*(_main_verdict(s) for s in opening["steps"]),
                             *main["verdicts"][int(opening["replaces"]):]]}
    for key in ("showdown", "stop", "depends"):
        if key in entry:
            out[key] = entry[key]
    if entry["requires"] != main["requires"]:
        out["requires"] = entry["requires"]
    differ = {str(i): v for i, (v, m) in enumerate(zip(entry["verdicts"], main["verdicts"], strict=False))
              if v != m}
    if differ:
        out["verdicts"] = differ
    n = len(entry["verdicts"])
    mine = [p for p in main["checkpoints"] if "stop" not in entry or p["after"] <= n]
    if entry["checkpoints"] != mine:
        out["checkpoints"] = entry["checkpoints"]
    truncated = "stop" in entry
    for key in ("result", "blame"):
        if key in entry and (truncated or entry[key] != main.get(key)):
            out[key] = entry[key]
    return out


def _unplayable_reason(case: Case, profile: str) -> str:
    """Why ``profile`` cannot play the scenario: its first step, and the rule values behind it."""

    try:
        mine = values_of(profile, case.overrides)
    except GinspecError as exc:
        return f"the case's overrides do not apply: {exc}"
    home = values_of(str(case.profile), case.overrides)
    try:
        adapter = _driver(case, profile)
    except GinspecError as exc:
        return f"cannot deal it: {exc}"
    step = case.steps[0]
    state = _hand_state(adapter)
    verdict = adapter.apply(step["player"] if step["player"] == "chance" else int(step["player"]),
                            str(step["action"]))
    clause = _known(_step_clause(state, step["player"], str(step["action"]), verdict.accepted))
    differ = {k: v for k, v in mine.items() if home.get(k) != v}
    # the first step is the first turn's: a different first turn (FIRST.*) explains it first
    named: dict[str, Any] = {k: v for k, v in differ.items() if k == "first_turn"}
    for decider in (clause, step.get("clause")):  # the refusal's clause, then the step's own
        family = str(decider).split(".")[0] + "."
        named = named or {k: v for k, v in differ.items() if parameters()[k].clause == decider} \
            or {k: v for k, v in differ.items() if parameters()[k].clause.startswith(family)}
    named = named or differ
    values = ", ".join(f"{k}={value_text(v)}" for k, v in sorted(named.items()))
    what = "accepted" if verdict.accepted else f"refused {verdict.code}"
    why = _translation(case, profile) if "first_turn" in named else None
    return f"{values} (its first step {step['action']!r} is {what}" + \
        (f", {clause}" if clause else "") + (f"; no equivalent opening: {why})"
                                             if isinstance(why, str) else ")")


def with_dealt_hands(case: Case) -> Case:
    """A hand or match case with the cards the deal gives each player observed before the
    first action (``hands``, blamed on DEAL.HANDS or ELEVEN.DEAL): an engine that deals the
    deck otherwise fails where its deal first shows, not at a later step its hands decide."""
    if case.kind not in ("hand", "match") or not case.deals or "deck" not in case.deals[0] \
            or any("hands" in p for p in case.checkpoints):
        return case
    try:
        hands = _driver(case, str(case.profile)).observe().get("hands")
    except GinspecError:
        return case
    if hands is None:
        return case
    points = [dict(p) for p in case.checkpoints]
    at = next((i for i, p in enumerate(points) if int(p["after"]) == 0), None)
    if at is None:
        points.insert(0, {"after": 0, "hands": hands})
    else:  # compared first: the deal comes before anything else the checkpoint observes
        points[at] = {"after": 0, "hands": hands, **points[at]}
    data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
    data["checkpoints"] = points
    return Case.make(**data)


def with_rulesets(case: Case, owner: Mapping[str, str]) -> Case:
    """``case`` with its expectations under every profile it owns (``owner``: profile -> the
    ID of the case that plays the scenario under it; see :func:`owners`), and the dealt hands
    observed (:func:`with_dealt_hands`)."""
    if case.kind not in GAME_KINDS or case.profile is None:
        return case
    case = with_dealt_hands(case)
    profiles = [p for p, who in owner.items() if who == case.id]
    entries = rulesets_of(case, profiles)
    check_home(case, entries)
    home = next(e for e in entries if case.profile in e["profiles"]
                and "showdown" not in e)
    steps = []
    for step, verdict in zip(case.steps, home["verdicts"], strict=True):
        clause = verdict.get("clause") if isinstance(verdict, dict) else None
        against = verdict.get("against") if isinstance(verdict, dict) else None
        steps.append({**{k: v for k, v in step.items() if k != "against"},
                      **({"clause": clause} if clause else {}),
                      **({"against": against} if against else {})})
    main = {"requires": home["requires"], "verdicts": [_main_verdict(s) for s in steps],
            "checkpoints": home["checkpoints"], "result": home.get("result"),
            "blame": home.get("blame")}
    listed = {p for e in entries for p in e["profiles"] if "showdown" not in e}
    unplayable: dict[str, list[str]] = {}
    for profile, who in owner.items():
        if who != case.id:
            unplayable.setdefault(f"{SAME_SCENARIO}{who}", []).append(profile)
        elif profile not in listed:
            unplayable.setdefault(_unplayable_reason(case, profile), []).append(profile)
    data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
    data.update(requires=home["requires"], steps=steps, checkpoints=home["checkpoints"])
    if home.get("result") is not None:
        data["result"] = home["result"]
        data["blame"] = home["blame"]
    data["rulesets"] = [_sparse(e, main) for e in entries]
    if unplayable:
        data["unplayable"] = [{"profiles": v, "reason": k} for k, v in unplayable.items()]
    return Case.make(**data)



def inherit_reasons(cases: Sequence[Case]) -> list[Case]:
    """Each case with the reason of the case that owns a profile, where that case does not
    play the scenario under it either (so no skip points at a case that is skipped too)."""
    by_id = {c.id: c for c in cases}
    out = []
    for case in cases:
        groups = case.unplayable
        if not any(str(g["reason"]).startswith(SAME_SCENARIO) for g in groups):
            out.append(case)
            continue
        reasons: dict[str, list[str]] = {}
        for group in groups:
            reason = str(group["reason"])
            theirs: dict[str, str] = {}
            if reason.startswith(SAME_SCENARIO):
                owner = by_id[reason.removeprefix(SAME_SCENARIO)]
                theirs = {str(p): str(g["reason"]) for g in owner.unplayable for p in g["profiles"]}
            for profile in group["profiles"]:
                reasons.setdefault(theirs.get(str(profile), reason), []).append(str(profile))
        data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
        data["unplayable"] = [{"profiles": v, "reason": k} for k, v in reasons.items()]
        out.append(Case.make(**data))
    return out


def scenario_key(case: Case) -> str:
    """What makes two game cases one scenario: kind, overrides, deals and actions."""
    import json

    return json.dumps([case.kind, case.overrides, case.deals,
                       [[s["player"], s["action"]] for s in case.steps]], sort_keys=True)


def owners(cases: Sequence[Case], profiles: Sequence[str]) -> dict[str, dict[str, str]]:
    """Case ID -> the profiles it carries expectations for. Cases that play one scenario (the
    same ruling under several profiles, say) share it out: each keeps its own profile, the
    first keeps the rest, so an engine plays one scenario once. A case with no deck (an
    engine's own deal, ``deal.engine``) is no scenario the reference can replay: it keeps the
    rulesets it was written with."""
    groups: dict[str, list[Case]] = {}
    for case in cases:
        if case.kind in GAME_KINDS and case.profile is not None and "deck" in case.deals[0]:
            groups.setdefault(scenario_key(case), []).append(case)
    out: dict[str, dict[str, str]] = {}
    for group in groups.values():
        first = min(group, key=lambda c: c.id)
        home: dict[str, str] = {}
        for case in sorted(group, key=lambda c: c.id):
            home.setdefault(str(case.profile), case.id)
        owner = {p: home.get(p, first.id) for p in profiles}
        for case in group:  # a case always plays its own profile (even a repeated one)
            out[case.id] = {**owner, str(case.profile): case.id}
    return out

"""Query cases under every ruleset (``ginspec suite build``): a question asked under one profile
(a hand's score, a match total, the next dealer, a knock's ruling, a knock limit, ...) answered
by the reference under every other profile where it has an answer.

Each answer field records the clause deciding it (``blame``, from
:func:`~ginspec.conformance.generate.blame.query_blame`): the runner blames it when that field
is the first to differ. The case's own ``expect`` stays the answer under its own profile (from the spec, the casebook or
the generator). Every other profile gets the reference's answer, cut to the fields the case
compares; profiles that answer alike share one ``rulesets`` entry, and an entry without
``expect`` agrees with the case's own. A profile the question has no answer under (a multi-player
system's question under a two-player ruleset, overrides that do not apply) is listed in
``unplayable`` with the reference's reason. The runner asks an engine the question under one of
its declared profiles and compares the answer with that profile's entry (CASES.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ginspec.conformance.adapters.reference import ReferenceAdapter
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.expectations import MATCH_SCORES, SCORED_QUERIES
from ginspec.conformance.compare import check_query
from ginspec.conformance.generate.blame import query_blame
from ginspec.conformance.generate.showdown_answers import RECORDED, with_showdown_answers
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import ruleset


def answer(case: Case, profile: str) -> dict[str, Any] | str:
    """The reference's answer to ``case``'s question under ``profile`` (the fields the case
    compares), or why there is none."""

    try:
        ruleset(profile, dict(case.overrides))
    except GinspecError as exc:
        return f"the case's overrides do not apply: {exc}"
    query = case.query
    what = str(query["what"])
    args = {k: v for k, v in query.items() if k != "what"}
    try:
        got = ReferenceAdapter().query(what, args, profile, case.overrides)
    except GinspecError as exc:
        return str(exc).splitlines()[0]
    if got.get("error") is True and not case.expect.get("error"):
        return str(got.get("message") or "the reference refuses the input under it")
    if case.expect.get("error") and got.get("error") is not True:
        return "the case checks a refused input, which the reference answers under it"
    # the fields the case compares that the answer has (a match that is not over has no
    # totals, a refused knock no deadwood): the comparison must accept the answer itself
    expect = {"error": True} if got.get("error") is True else \
        {k: got[k] for k in case.expect if k in got}
    expect = with_showdown_answers(query, expect, profile, case.overrides)  # every right one
    try:
        judged = check_query(what, query, expect, case.overrides, got, profile=profile) is None
    except (KeyError, TypeError):
        judged = False
    if not judged or not expect:
        missing = [k for k in case.expect if k not in got and k not in RECORDED]
        return f"the reference gives no {', '.join(missing)} under it"
    return expect


def _with_match_scores(case: Case) -> Case:
    """A ``match``, ``hollywood`` or ``next-dealer`` question's own answer with the fields an
    engine declaring ``match.scores`` adds (each hand's winner, points and running scores; at the
    end, the box points and the game bonus: PROTOCOL.md, "Match scores"), as the reference scores
    the hands; only where the reference gives every field the case states itself (the spec's or
    the casebook's answer)."""
    what = case.query.get("what")
    if what not in SCORED_QUERIES or case.expect.get("error") or case.profile is None:
        return case
    args = {k: v for k, v in case.query.items() if k != "what"}
    try:
        got = ReferenceAdapter().query(str(what), args, case.profile, case.overrides)
    except GinspecError:
        return case
    if any(got.get(k) != v for k, v in case.expect.items()):
        return case  # the case's own answer stands alone (the build's checks report it)
    added = {k: got[k] for k in MATCH_SCORES if k in got and k not in case.expect}
    data: dict[str, Any] = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
    data["expect"] = {**case.expect, **added}
    return Case.make(**data)


def with_query_rulesets(case: Case, profiles: Iterable[str]) -> Case:
    """``case`` with the answers under every other profile (see the module docstring)."""
    if case.kind != "query":
        return case
    if case.profile is None:  # asked under profile null only: its own answer's clauses
        data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
        return Case.make(**{**data, "blame": query_blame(case, None, case.expect)})
    groups: dict[str, dict[str, Any]] = {}
    unplayable: dict[str, list[str]] = {}
    import json

    case = _with_match_scores(case)
    own_blame = query_blame(case, case.profile, case.expect)
    for profile in profiles:
        if profile == case.profile:
            continue
        got = answer(case, profile)
        if isinstance(got, str):
            unplayable.setdefault(got, []).append(profile)
            continue
        entry: dict[str, Any] = {} if got == case.expect else {"expect": got}
        blame = query_blame(case, profile, got)
        if blame != own_blame:
            entry["blame"] = blame
        key = json.dumps(entry, sort_keys=True)
        groups.setdefault(key, {"profiles": [], **entry})["profiles"].append(profile)
    home = json.dumps({})
    own = groups.pop(home, {"profiles": []})
    entries = [{"profiles": [case.profile, *own["profiles"]]}, *groups.values()]
    data = {k: v for k, v in case.data.items() if k not in ("format", "fingerprint")}
    data["rulesets"] = entries
    data["blame"] = own_blame
    if unplayable:
        data["unplayable"] = [{"profiles": v, "reason": k} for k, v in unplayable.items()]
    return Case.make(**data)

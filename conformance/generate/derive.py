"""Cases for a ruleset declared by value (``ginspec suite derive``): the committed scenarios,
replayed by the reference under exactly that ruleset, written as ordinary case files.

An engine whose rules are a profile with other values (``profile = "wikipedia"`` and
``[set] undercut_bonus = 20``) matches none of the committed rulesets. Every committed hand and
match scenario (each once) is replayed under the declared ruleset; where it plays, the derived
case expects what the reference answered (verdicts with their clauses, observations, result with
its clauses, and the automatic-showdown entry), with ``profile`` and ``overrides`` naming the
declared ruleset; a scenario of another first turn plays its opening rewritten for the declared
one where an equivalent exists (:mod:`.openings`). The committed suite itself stays judged from its own data.

``ginspec conform`` does the same by itself for an engine that declares its rules by value
(:func:`derived_for`): every scenario no committed case plays under those rules is derived, the
derived cases are kept in a cache (keyed by the scenarios' fingerprints, the rules and the code
that derives them) and judged like any case; ``--write-derived DIR`` writes them out.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.cases import Case, CaseFormatError, load_cases
from ginspec.conformance.cases.expectations import translated_checkpoints, translated_steps
from ginspec.conformance.cases.model import DERIVED_PREFIX
from ginspec.conformance.cases.store import dump_case
from ginspec.conformance.generate.rulesets import opening_for, replay, scenario_key, with_rulesets
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import Ruleset

DERIVED_KINDS: Final = ("hand", "match")
SKIPPED_FIELDS: Final = ("format", "fingerprint", "rulesets", "unplayable", "blame")


def derive(cases: Iterable[Case], profile: str, values: Mapping[str, Any]) -> list[Case]:
    """The cases of ``profile`` with ``values`` set, one per committed scenario that plays.

    A scenario with overrides of its own is left out unless they agree with ``values``: the
    derived case must be a game of exactly the declared ruleset."""
    out: list[Case] = []
    seen: set[str] = set()
    for case in sorted(cases, key=lambda c: c.id):
        if case.kind not in DERIVED_KINDS or case.profile is None or not _has_decks(case):
            continue
        if any(values.get(k, v) != v for k, v in case.overrides.items()) or \
                set(case.overrides) - set(values):
            continue
        key = scenario_key(case)
        if key in seen:
            continue
        seen.add(key)
        derived = _derived(case, profile, dict(values))
        if derived is not None:
            out.append(derived)
    return out


def _derived(case: Case, profile: str, values: dict[str, Any]) -> Case | None:
    data = {k: v for k, v in case.data.items() if k not in SKIPPED_FIELDS}
    data.update(id=f"{DERIVED_PREFIX}{case.id}", profile=profile, overrides=values)
    try:
        opening = opening_for(case, profile, values)  # another first turn (openings.py)
    except GinspecError:
        return None
    if opening is not None:
        data.update(steps=translated_steps(case.steps, opening),
                    checkpoints=translated_checkpoints(case.checkpoints, opening))
    base = Case.make(**data)
    played = replay(base, profile)
    if played is None:
        return None
    n = len(played.verdicts)
    steps = []
    for step, verdict, clause in zip(base.steps[:n], played.verdicts, played.clauses,
                                     strict=True):
        new = {k: v for k, v in step.items() if k not in ("expect", "clause")}
        new["expect"] = verdict
        if clause:
            new["clause"] = clause
        steps.append(new)
    settings = ", ".join(f"{k}={v}" for k, v in sorted(values.items()))
    data.update(steps=steps, checkpoints=list(played.checkpoints),
                description=f"{case.description} (derived for {profile}"
                + (f" with {settings})" if settings else ")"),
                source={**case.data.get("source", {}), "derived_from": case.id})
    data.pop("result", None)
    if played.result is not None:
        data["result"] = played.result
    derived = Case.make(**data)
    return with_rulesets(derived, {profile: derived.id})


CACHE_ENV: Final = "GINSPEC_CACHE_DIR"
"""Where derived cases are cached (default ``~/.cache/ginspec``); an empty value caches nothing."""

_DERIVING_CODE: Final = ("reference", "conformance/generate", "conformance/cases", "spec")
"""The folders whose source decides a derived case: the cache key hashes them."""


def _has_decks(case: Case) -> bool:
    """Every deal of the case is a deck the reference can replay (not a deal an engine makes
    itself from a seed, deal.engine: the suite's deal checks need no derivation, their
    expectations depend on first_turn only)."""
    return all("deck" in d for d in case.deals)


def derived_for(cases: Sequence[Case], rules: Ruleset,
                plays: Callable[[Case], bool]) -> list[Case]:
    """The derived cases an engine of ``rules`` (declared by value) is judged on besides the
    committed ones: one for every hand and match scenario of ``cases`` that no case it
    ``plays`` covers, replayed by the reference under ``rules`` (cached, see :data:`CACHE_ENV`)."""
    played = {scenario_key(c) for c in cases if c.kind in DERIVED_KINDS and plays(c)}
    todo = [c for c in cases if c.kind in DERIVED_KINDS and c.profile is not None
            and _has_decks(c) and scenario_key(c) not in played]
    if not todo:
        return []
    key = _cache_key(todo, rules)
    folder = _cache_dir()
    stored = None if folder is None else folder / f"derived-{key}"
    if stored is not None and (stored / "complete").is_file():
        try:
            return sorted(load_cases([stored]), key=lambda c: c.id)
        except CaseFormatError:
            pass  # a damaged cache entry is derived again
    made = derive(todo, rules.name, dict(rules.overrides))
    if stored is not None:
        _store(made, stored)
    return made


def superseded(cases: Sequence[Case], derived: Sequence[Case]) -> set[str]:
    """The IDs of the hand and match cases whose scenario a derived case plays (the committed
    ones an engine of the declared rules would skip): a run sends the derived case instead."""
    by_id = {c.id: c for c in cases}
    origins = {str((d.data.get("source") or {}).get("derived_from", "")) for d in derived}
    keys = {scenario_key(by_id[o]) for o in origins if o in by_id}
    return {c.id for c in cases if c.kind in DERIVED_KINDS and scenario_key(c) in keys}


def write_derived(cases: Iterable[Case], folder: Path) -> int:
    """``--write-derived DIR``: the derived cases as ordinary case files (``DIR/<kind>/<id>.json``),
    which ``ginspec conform --suite DIR`` and ``ginspec prove --verify-suite`` read."""
    n = 0
    for case in cases:
        dump_case(case, folder)
        n += 1
    return n


def _cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV)
    if value == "":
        return None
    return Path(value) if value else Path.home() / ".cache" / "ginspec"


def _cache_key(cases: Sequence[Case], rules: Ruleset) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([rules.name, rules.overrides], sort_keys=True).encode())
    for case in sorted(cases, key=lambda c: c.id):
        digest.update(f"{case.id} {case.fingerprint}\n".encode())
    root = Path(__file__).resolve().parent.parent.parent
    for part in _DERIVING_CODE:
        for path in sorted((root / part).rglob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def _store(cases: Sequence[Case], folder: Path) -> None:
    """Write ``cases`` to the cache folder whole or not at all (a cache that cannot be written
    is no error: the next run derives them again)."""
    work: Path | None = None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".derived-"))
        for case in cases:
            dump_case(case, work)
        (work / "complete").write_text(f"{len(cases)}\n", encoding="utf-8")
        work.rename(folder)
    except OSError:  # (another run stored the same entry first, or the disk is full)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

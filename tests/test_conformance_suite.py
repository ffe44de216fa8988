"""The committed suite: rebuilt byte-identically, valid, and independently checked."""

from __future__ import annotations

import json

from ginspec.conformance.cases import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR, build, read_manifest, stale_files
from ginspec.conformance.versions import PROTOCOL_VERSION, RULES_VERSION, SUITE_VERSION
from ginspec.spec.clauses import registry


def test_committed_suite_is_a_fresh_build() -> None:
    """`ginspec suite build` is deterministic and the committed tree is up to date; the build
    reports each step as it ends (what `suite build --check` prints on stderr)."""
    steps: list[tuple[str, int]] = []
    built = build(SUITE_DIR, lambda step, n: steps.append((step, n)))
    assert [s for s, _ in steps] == ["spec examples", "queries", "games", "engine deal checks",
                                     "casebook", "table games", "game systems", "mutation corners",
                                     "replayed under every ruleset", "checked against the schema"]
    assert steps[-1][1] == len(built.cases) <= sum(n for _, n in steps[:-2])
    stale = stale_files(built, SUITE_DIR)
    assert stale == [], (
        f"{len(stale)} suite file(s) differ from a fresh build (first: {stale[:3]}): the spec, "
        "the reference or a generator changed. Run `ginspec suite build` and commit "
        "conformance/suite/ (check `git diff` that the changed answers are intended)."
    )


def test_manifest_states_versions_and_fingerprints() -> None:
    manifest = read_manifest()
    assert manifest["versions"]["rules"] == RULES_VERSION
    assert manifest["versions"]["suite"] == SUITE_VERSION
    assert manifest["versions"]["protocol"] == PROTOCOL_VERSION
    cases = load_cases([SUITE_DIR])
    assert manifest["counts"]["total"] == len(cases)
    assert {c.id: c.fingerprint for c in cases} == {
        k: v["fingerprint"] for k, v in manifest["cases"].items()
    }


def test_retired_ids_are_not_reused() -> None:
    path = SUITE_DIR / "retired.json"
    retired = json.loads(path.read_text()) if path.exists() else {}
    assert not set(retired) & set(read_manifest()["cases"])


def test_every_cited_clause_exists() -> None:
    reg = registry()
    cited = {c for case in load_cases([SUITE_DIR]) for c in case.clauses}
    missing = sorted(c for c in cited if c not in reg)
    assert missing == []


def test_full_deck_meld_count_matches_hand_count() -> None:
    """329 melds in a full deck: 13 ranks x 5 sets + 4 suits x 66 runs (counted by hand)."""
    cases = {c.id: c for c in load_cases([SUITE_DIR])}
    assert cases["q.melds-count.n52"].expect == {"count": 13 * 5 + 4 * sum(range(1, 12))}

"""A verified suite's cases are parsed without their ``rulesets`` entries until asked for
(the fast start): each such case still reads exactly as its file says."""

from __future__ import annotations

import json
from pathlib import Path

from ginspec.conformance.cases import load_cases
from ginspec.conformance.generate.suite import SUITE_DIR


def test_every_lazily_read_case_is_its_file() -> None:
    cases = load_cases([SUITE_DIR])
    assert cases and any(c.ruleset_profiles for c in cases)
    for case in cases:
        text = Path(case.path).read_text(encoding="utf-8")
        data = json.loads(text)
        entries = data.get("rulesets", [])
        assert case.ruleset_profiles == tuple(tuple(e["profiles"]) for e in entries), case.id
        for profile in ("pagat", "openspiel", "rlcard", "oklahoma"):
            assert case.rulesets_of(profile) == [e for e in entries if profile in e["profiles"]]
        assert case.data == data and list(case.data) == list(data), case.id
        assert case.to_json() == text, case.id

"""Every skip names what excludes the case: a capability, an override, a rule value, or the case
that plays the same deals and actions under the engine's profile ("covered by case X")."""

from __future__ import annotations

from functools import cache

import pytest
from ginspec.conformance.adapters.base import Hello
from ginspec.conformance.cases import Case
from ginspec.conformance.cases.expectations import SAME_SCENARIO
from ginspec.conformance.runner import skip_reason
from ginspec.conformance.selection import load_run_cases

CAPABILITIES = ("hand", "match", "legal-actions", "rejection-codes", "melding.explicit",
                "layoff.explicit")


@cache
def cases() -> tuple[Case, ...]:
    return tuple(load_run_cases(["committed", "regressions"]))


def hello(profile: str) -> Hello:
    """An engine of one profile, with every capability a hand or match needs and no override."""
    return Hello(name="one-profile", version="0", profiles=(profile,), capabilities=CAPABILITIES)


@pytest.mark.parametrize("profile", ["openspiel", "rlcard", "hoyle"])
def test_duplicates_name_the_case_that_covers_them(profile: str) -> None:
    engine = hello(profile)
    by_id = {c.id: c for c in cases()}
    covered = 0
    for case in cases():
        reason = skip_reason(case, engine) or ""
        assert SAME_SCENARIO not in reason, (case.id, reason)
        if reason.startswith("covered by case "):
            covered += 1
            other = reason.removeprefix("covered by case ").split(":")[0]
            assert other in by_id and other != case.id, (case.id, reason)
            assert skip_reason(by_id[other], engine) is None, (case.id, other)  # it is played
            assert f"played under {profile} as {other}" in reason
    assert covered, f"no duplicate scenario under {profile}"


def test_a_case_of_one_profile_names_the_rule_values() -> None:
    """A case with expectations under its own profile alone (a peer's regression case) says so
    and names parameters whose values differ under the engine's profile."""
    peer = next(c for c in cases() if c.id.startswith("peer.rlcard.") and not c.overrides)
    reason = skip_reason(peer, hello("openspiel"))
    assert reason is not None
    assert reason.startswith("profile rlcard not declared (the case has expectations under it alone): "
                             "openspiel plays "), reason
    assert "first_turn=upcard_offer, not eleven_card_start" in reason


def test_no_bare_profile_reason() -> None:
    """Under a single profile no skip is just ``profile P not declared``."""
    engine = hello("openspiel")
    bare = [c.id for c in cases() if (r := skip_reason(c, engine)) is not None
            and r.startswith("profile ") and r.endswith(" not declared")]
    assert not bare, bare

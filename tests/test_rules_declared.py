"""Rules declared by value: hello ``rules`` and ``--rules FILE`` (PROTOCOL.md, "Rules declared
by value")."""

from __future__ import annotations

from pathlib import Path

import pytest
from ginspec.conformance.adapters.base import AdapterFault, Hello
from ginspec.conformance.adapters.rules_file import RulesFileError, load_rules, rules_from_json
from ginspec.conformance.cases import Case
from ginspec.conformance.runner import skip_reason
from ginspec.spec.errors import ParameterError
from ginspec.spec.profiles import profile, ruleset


def test_rules_file_loads_profile_and_values(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('profile = "pagat"\n\n[set]\nknock_limit = 7\ngin_bonus = 20\n')
    rules = load_rules(path)
    assert rules.name == "pagat" and rules["knock_limit"] == 7 and rules["gin_bonus"] == 20
    assert rules == ruleset("pagat", {"knock_limit": 7, "gin_bonus": 20})


@pytest.mark.parametrize(("text", "named"), [
    ('profile = "pagat"\n[set]\nknock_limit = 11\n', "knock_limit"),
    ('profile = "pagat"\n[set]\nknock_limt = 7\n', "knock_limt"),
    ('profile = "pagat"\n[set]\ngin_bonus = "many"\n', "gin_bonus"),
    ('profile = "nowhere"\n', "nowhere"),
    ('[set]\nknock_limit = 7\n', "profile"),
    ('profile = "pagat"\nextra = 1\n', "extra"),
    ('profile = "pagat"\nset = 3\n', "set"),
    ('profile = "pagat"\n[set\n', "TOML"),
])
def test_a_bad_rules_file_is_one_line_naming_the_fault(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesFileError) as err:
        load_rules(path)
    message = str(err.value)
    assert named in message and "\n" not in message and str(path) in message
    assert isinstance(err.value, ParameterError)


def test_missing_rules_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RulesFileError, match="cannot read"):
        load_rules(tmp_path / "absent.toml")


def test_hello_rules_round_trip_and_validation() -> None:
    hello = Hello(name="x", version="1", rules=ruleset("pagat", {"knock_limit": 7}))
    data = hello.to_json()
    assert data["rules"] == {"profile": "pagat", "set": {"knock_limit": 7}}
    assert Hello.from_json(data).rules == hello.rules
    assert Hello(name="x", version="1").to_json()["rules"] is None
    with pytest.raises(AdapterFault, match="knock_limit") as err:
        Hello.from_json({**data, "rules": {"profile": "pagat", "set": {"knock_limit": 99}}})
    assert err.value.kind == "protocol"


def test_old_hellos_without_rules_still_select_by_profiles_and_overrides() -> None:
    hello = Hello.from_json({"name": "old", "version": "1", "protocol": 2,
                             "profiles": ["pagat"], "capabilities": [], "overrides": ["gin_bonus"]})
    assert hello.rules is None
    assert hello.rules_reason("pagat", {"gin_bonus": 20}) is None
    assert hello.rules_reason("hoyle", {}) == "profile hoyle not declared"
    assert hello.rules_reason("pagat", {"knock_limit": 7}) == "override knock_limit not declared"


def _hand_case(profile_name: str, overrides: dict[str, object]) -> Case:
    return Case.make(id="t.rules", kind="hand", origin="spec", description="d", clauses=["DEAL.HANDS"],
                     profile=profile_name, overrides=overrides, requires=["hand"],
                     deals=[{"dealer": 0, "deck": []}], steps=[])


def test_declared_rules_select_cases_by_value() -> None:
    pagat = profile("pagat").values()
    hello = Hello(name="x", version="1", capabilities=("hand",),
                  rules=ruleset("pagat", {"gin_bonus": 30}))
    assert skip_reason(_hand_case("pagat", {"gin_bonus": 30}), hello) is None
    reason = skip_reason(_hand_case("pagat", {}), hello)
    assert reason == f"rules: gin_bonus=30 declared, the case plays {pagat['gin_bonus']!r}"
    # The same values under another profile's name run too: the rules are compared by value.
    other = next(name for name in ("hoyle", "wikipedia", "openspiel")
                 if name != "pagat" and ruleset(name) != ruleset("pagat"))
    overrides = {k: v for k, v in ruleset("pagat", {"gin_bonus": 30}).items()
                 if ruleset(other)[k] != v}
    assert skip_reason(_hand_case(other, overrides), hello) is None


def test_an_engine_that_deals_itself_skips_fixed_deals() -> None:
    hello = Hello(name="x", version="1", profiles=("pagat",), capabilities=("hand", "deal.engine"))
    reason = skip_reason(_hand_case("pagat", {}), hello)
    assert reason is not None and reason.startswith("deal.engine")


def test_rules_from_json_needs_an_object() -> None:
    with pytest.raises(RulesFileError, match="expected an object"):
        rules_from_json(["pagat"])

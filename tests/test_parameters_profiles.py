"""The parameter catalogue, its constraints, the profiles and ``ginspec rules``.

Expected profile values below are read from the seeds and the peers' code by hand (see the
locators), not from profiles.toml.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from ginspec.conformance.cli import main
from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import (
    check_combination,
    complete,
    constraints,
    load_constraints,
    load_parameters,
    parameter,
    parameters,
)
from ginspec.spec.profiles import Ruleset, parse_overrides, profile, profiles, ruleset

SPEC = Path(__file__).resolve().parents[1] / "spec"
SOURCE_KEYS = set(tomllib.loads((SPEC / "sources.toml").read_text(encoding="utf-8")))
TEAM_NAMES = [
    "knock_limit", "oklahoma", "oklahoma_ace", "spade_double", "gin_bonus", "big_gin_bonus",
    "undercut_bonus", "undercut_on_tie", "discard_taken_card", "first_turn", "knock_on_wall_draw",
    "wall_action", "wall_size", "redeal_dealer", "layoff_chain", "layoff_after_gin",
    "knocker_may_lay_off", "knocker_must_meld_maximally", "gin_compulsory", "game_target",
    "game_bonus", "box_bonus", "boxes_count_toward_target", "shutout_effect", "shutout_test",
    "next_dealer", "first_dealer", "extra_boxes", "ace_high_runs", "wraparound_runs", "ace_value",
]


def _key(source: str) -> str:
    return source.split(":", 1)[0].strip()


def test_catalogue_has_every_agreed_parameter() -> None:
    assert set(TEAM_NAMES) <= set(parameters())


def test_every_parameter_is_documented_and_sourced() -> None:
    for param in parameters().values():
        assert param.description and param.default_reason and param.clause, param.name
        assert param.values, param.name
        for attested in param.values:
            assert attested.note and attested.sources, (param.name, attested.value)
            for source in attested.sources:
                assert _key(source) in SOURCE_KEYS, (param.name, source)
                assert ":" in source, (param.name, source)


def test_profile_sources_use_known_keys() -> None:
    for name in profiles():
        for pname, entry in profile(name).entries.items():
            if entry.stated:
                keys = re.findall(r"(?:^|; )([A-Z][A-Z0-9-]+):", entry.source)
                assert keys and set(keys) <= SOURCE_KEYS, (name, pname, entry.source)
            else:
                assert entry.source.startswith("not stated; "), (name, pname)


def test_stated_profile_values_are_attested_in_the_catalogue() -> None:
    for name in profiles():
        for pname, entry in profile(name).entries.items():
            if entry.stated:
                assert parameter(pname).attested(entry.value) is not None, (name, pname, entry.value)


# Values read by hand from the sources (seed sections and peer files named in the comments).
EXPECTED = {
    "pagat": dict(  # seed 000: Scoring, Deal, Knocking
        gin_bonus=20, undercut_bonus=10, undercut_on_tie="undercut", game_target=100,
        game_bonus=100, box_bonus=20, boxes_count_toward_target=False,
        shutout_effect="game_bonus_doubled", next_dealer="loser", first_dealer="low_card",
        redeal_dealer="same", wall_action="void", discard_taken_card="never", oklahoma=False,
        layoff_after_gin="forbidden", knocker_may_lay_off=False, big_gin_bonus=0,
    ),
    "oklahoma": dict(  # seed 000: Oklahoma Gin
        oklahoma=True, oklahoma_ace="one", spade_double="hand", game_target=150, gin_bonus=20,
    ),
    "hoyle": dict(  # seed 004: Going Gin, Scoring, Setup, Draws, Winning
        gin_bonus=25, undercut_bonus=10, undercut_on_tie="undercut", next_dealer="winner",
        first_dealer="random", redeal_dealer="same", wall_action="void", game_target=100,
    ),
    "wikipedia": dict(  # seed 002: Gin, Undercut
        gin_bonus=25, undercut_bonus=25, undercut_on_tie="undercut", wall_action="void",
        first_dealer="random", big_gin_bonus=0,
    ),
    "serbian-online": dict(  # seed 001
        gin_bonus=25, undercut_bonus=25, layoff_after_gin="allowed",
        layoff_chain="original_melds_only", wall_action="reshuffle", knock_limit=10,
        undercut_on_tie="knocker_scores_zero",
    ),
    "eaai": dict(  # GinRummyGame.java / GinRummyUtil.java
        gin_bonus=25, undercut_bonus=25, undercut_on_tie="undercut", game_target=100,
        game_bonus=0, box_bonus=0, next_dealer="alternate", wall_action="void",
        discard_taken_card="never",
    ),
    "openspiel": dict(  # gin_rummy.h / gin_rummy.cc
        gin_bonus=25, undercut_bonus=25, undercut_on_tie="no_score", knock_limit=10,
        discard_taken_card="always", wall_action="take_and_knock_any_discard", oklahoma=False,
        oklahoma_ace="gin_only", take_and_return_void=True, discard_take_cap=50,
    ),
    "rlcard": dict(  # settings.py / judge.py / guidelines
        first_turn="eleven_card_start", gin_compulsory=True, discard_taken_card="never",
        undercut_bonus=25, undercut_on_tie="undercut", wall_action="take_and_play_on",
    ),
    "straight": dict(knock_limit=0, gin_bonus=25),
    "round-the-corner": dict(
        ace_high_runs=True, wraparound_runs=True, ace_value=15, undercut_bonus=20,
        layoff_after_gin="allowed_zero_cancels", game_target=125,
    ),
    "colony": dict(wall_action="take_and_knock_any_discard", discard_taken_card="only_at_wall"),
}


def test_required_profiles_exist() -> None:
    assert set(EXPECTED) <= set(profiles())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_profile_values_match_the_sources(name: str) -> None:
    rules = ruleset(name)
    for pname, value in EXPECTED[name].items():
        assert rules[pname] == value and type(rules[pname]) is type(value), (name, pname)


def test_every_profile_is_complete_and_valid() -> None:
    for name in profiles():
        rules = ruleset(name)
        assert set(rules) == set(parameters())
        check_combination(dict(rules))


def test_ruleset_behaves_like_a_frozen_mapping() -> None:
    rules = ruleset("pagat", {"gin_bonus": 25})
    assert rules.name == "pagat" and rules.overrides == {"gin_bonus": 25}
    assert rules["gin_bonus"] == 25 and rules.get("undercut_bonus") == 10
    assert rules.get("no_such_thing", "x") == "x"
    assert rules.source("gin_bonus") == "override (--set)"
    assert rules.source("undercut_bonus").startswith("SEED-RO")
    with pytest.raises(AttributeError):
        rules.name = "x"  # type: ignore[misc]
    with pytest.raises(ParameterError):
        rules["no_such_thing"]
    assert isinstance(rules, Ruleset)
    assert rules == ruleset("pagat", {"gin_bonus": 25})
    assert hash(rules) == hash(ruleset("pagat", {"gin_bonus": 25}))
    assert rules != ruleset("pagat")
    assert rules.with_overrides({"undercut_bonus": 25})["undercut_bonus"] == 25
    assert rules.number("gin_bonus") == 25 and rules.flag("oklahoma") is False
    assert rules.choice("next_dealer") == "loser"


@pytest.mark.parametrize(
    "rules",
    [ruleset("pagat"), ruleset("oklahoma", {"oklahoma_ace": "gin_only"}),
     ruleset("hoyle", {"gin_bonus": 20, "next_dealer": "loser"})],
)
def test_repr_is_valid_python(rules: Ruleset) -> None:
    assert eval(repr(rules), {"ruleset": ruleset}) == rules


@pytest.mark.parametrize(
    ("name", "overrides", "needle"),
    [
        ("nope", {}, "unknown profile"),
        ("pagat", {"nope": 1}, "unknown parameter"),
        ("pagat", {"gin_bonus": "20"}, "expected an integer"),
        ("pagat", {"gin_bonus": True}, "expected an integer"),
        ("pagat", {"knock_limit": 11}, "outside"),
        ("pagat", {"oklahoma": 1}, "true or false"),
        ("pagat", {"wall_action": "explode"}, "not one of"),
        ("pagat", {"wraparound_runs": True}, "ace_high_runs"),
        ("pagat", {"spade_double": "hand"}, "oklahoma=true"),
        ("oklahoma", {"knock_limit": 7}, "knock_limit has no effect"),
        ("oklahoma", {"first_turn": "eleven_card_start"}, "eleven-card start"),
        ("eaai", {"extra_boxes": True}, "box_bonus > 0"),
        ("eaai", {"boxes_count_toward_target": True}, "box_bonus > 0"),
        ("eaai", {"shutout_effect": "game_bonus_doubled"}, "game_bonus > 0"),
        ("pagat", {"shutout_bonus": 50}, "flat_bonus"),
        ("pagat", {"discard_taken_card": "only_at_wall"}, "take_and_knock_any_discard"),
        ("pagat", {"wall_action": "take_and_knock_any_discard"}, "cannot be never"),
        ("pagat", {"knock_on_wall_draw": False, "wall_action": "reshuffle"}, "wall_action=void"),
        ("pagat", {"take_and_return_void": True}, "discard_taken_card other than never"),
        ("pagat", {"discard_take_cap": 101}, "outside"),
    ],
)
def test_bad_rulesets_are_errors(name: str, overrides: dict[str, object], needle: str) -> None:
    with pytest.raises(ParameterError, match=needle):
        ruleset(name, overrides)  # type: ignore[arg-type]


def test_allowed_combinations_from_the_constraints() -> None:
    ruleset("pagat", {"ace_high_runs": True, "wraparound_runs": True})
    ruleset("pagat", {"oklahoma": True, "spade_double": "hand_and_boxes"})
    ruleset("pagat", {"shutout_effect": "flat_bonus", "shutout_bonus": 50})
    ruleset("pagat", {"knock_on_wall_draw": False})
    ruleset("pagat", {"oklahoma_ace": "gin_only"})  # recorded but ignored without oklahoma


def test_every_constraint_can_fire() -> None:
    """Each constraint is violated by some combination and met by the defaults."""
    defaults = complete({})
    for rule in constraints():
        assert not rule.violated(defaults)
    assert len(constraints()) >= 10


def test_parse_overrides() -> None:
    assert parse_overrides(["gin_bonus=20", "oklahoma=true", "wall_action=void"]) == {
        "gin_bonus": 20, "oklahoma": True, "wall_action": "void"}
    with pytest.raises(ParameterError, match="twice"):
        parse_overrides(["gin_bonus=20", "gin_bonus=25"])
    with pytest.raises(ParameterError, match="NAME=VALUE"):
        parse_overrides(["gin_bonus"])


def test_malformed_catalogue_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "p.toml"
    bad.write_text(
        '[x]\ntype = "int"\nmin = 0\nmax = 3\ndefault = 1\nclause = "A.B"\ndescription = "d"\n'
        '[[constraints]]\nwhen = "y == 1"\nrequire = "x == 1"\nmessage = "m"\n'
    )
    params = load_parameters(bad)
    with pytest.raises(ParameterError, match="unknown parameter 'y'"):
        load_constraints(bad, params)
    bad.write_text(bad.read_text().replace('when = "y == 1"', 'when = "x ~ 1"'))
    with pytest.raises(ParameterError, match="cannot read"):
        load_constraints(bad, params)


# --- the command line ----------------------------------------------------------------------------

def test_cli_lists_profiles_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    rows = {line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()}
    for name in profiles():  # a row of the profiles table
        assert name in rows
    for pname in TEAM_NAMES:  # a row of the parameters table
        assert pname in rows
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["profiles"]] == list(profiles())
    assert {p["name"] for p in data["parameters"]} == set(parameters())
    assert len(data["constraints"]) == len(constraints())
    assert {"when": ["spade_double != off"], "require": ["oklahoma == true"]}.items() <= next(
        c for c in data["constraints"] if c["when"] == ["spade_double != off"]).items()


def test_cli_prints_one_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "hoyle", "--set", "gin_bonus=20"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("gin_bonus "))
    assert " 20 " in line and "override" in line
    line = next(x for x in out.splitlines() if x.startswith("undercut_bonus "))
    assert " 10 " in line and "SEED-SQ" in line
    assert main(["rules", "openspiel", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["values"]["undercut_on_tie"] == "no_score"
    assert data["sources"]["discard_taken_card"].startswith("OPENSPIEL:")
    assert data["repr"] == "ruleset('openspiel')"


@pytest.mark.parametrize(
    "argv",
    [["rules", "nope"], ["rules", "pagat", "--set", "nope=1"],
     ["rules", "pagat", "--set", "gin_bonus=lots"], ["rules", "pagat", "--set", "gin_bonus"],
     ["rules", "pagat", "--set", "spade_double=hand"], ["rules", "--set", "gin_bonus=3"]],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ginspec: error: ")


def test_cli_explains_one_parameter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--param", "undercut_on_tie"]) == 0
    out = capsys.readouterr().out
    assert "decides SCORE.TIE" in out and "profiles: openspiel" in out
    assert main(["rules", "--param", "gin_bonus", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_value = {item["value"]: set(item["profiles"]) for item in data["values"]}
    assert "pagat" in by_value[20] and "wikipedia" in by_value[25]
    assert set().union(*by_value.values()) == set(profiles())
    assert main(["rules", "--param", "nope"]) == 2
    assert main(["rules", "pagat", "--param", "gin_bonus"]) == 2
    assert capsys.readouterr().err.count("\n") == 2

"""The typed rules and the engines' declarations: every catalogue parameter is a typed field of
``Rules``; every parameter is honoured by some engine, and refused (one line naming it and the
engine) by every engine that does not honour it; a peer adapter declares as overridable only what
its engine really varies; the table engine honours what it says (a change changes the game)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from ginspec.conformance.cli import main
from ginspec.reference.engines import ENGINES
from ginspec.reference.game.match import first_dealer
from ginspec.reference.game.observation import observe
from ginspec.reference.typed_rules import Engine, Rules, game_rules, rules_for_profile
from ginspec.spec.cards import NUM_RANKS, card_str
from ginspec.spec.errors import GinspecError, ParameterError
from ginspec.spec.parameters import Parameter, Value, check_combination, parameters
from ginspec.spec.profiles import ruleset

PYTHON_TYPE = {"bool": bool, "int": int, "enum": str}

BASE_PROFILE = {"single": "pagat", "table": "serbian-online", "three_player": "three-player",
                "partnership": "partnership", "hollywood": "hollywood"}
"""A profile each engine plays, to change one parameter of."""


def test_rules_has_one_typed_field_per_parameter() -> None:
    declared = {f.name: f.type for f in fields(Rules) if f.name != "name"}
    catalogue = parameters()
    assert list(declared) == list(catalogue)
    for name, param in catalogue.items():
        assert declared[name] == PYTHON_TYPE[param.type].__name__, name
    rules = rules_for_profile("oklahoma", {"game_target": 120})
    assert rules.game_target == 120 and rules.knock_limit_from_upcard and rules.name == "oklahoma"
    assert rules.params == dict(ruleset("oklahoma", {"game_target": 120}))


def _other_values(param: Parameter, current: Value) -> Iterator[Value]:
    """Values of ``param`` other than ``current``: attested ones first, then the rest of the range."""
    seen: list[Value] = []
    candidates: list[Value] = [a.value for a in param.values]
    if param.type == "bool":
        candidates += [True, False]
    elif param.type == "int":
        assert param.min is not None and param.max is not None
        candidates += [param.min, param.max, param.min + 1]
    else:
        candidates += list(param.choices)
    for value in candidates:
        if value != current and value not in seen:
            seen.append(value)
            yield value


def _valid_change(profile: str, name: str, value: Value) -> dict[str, Value] | None:
    values = {**dict(ruleset(profile)), name: value}
    try:
        check_combination(values)
    except ParameterError:
        return None
    return values


def test_every_parameter_is_honoured_by_some_engine() -> None:
    honoured = set().union(*(e.honours for e in ENGINES.values()))
    assert set(parameters()) <= honoured, sorted(set(parameters()) - honoured)
    assert set(ENGINES) == set(parameters()["game_system"].choices)


@pytest.mark.parametrize("system", sorted(BASE_PROFILE))
def test_each_engine_refuses_what_it_does_not_play(system: str) -> None:
    """Walk the catalogue: a parameter the engine does not honour, moved off its default (or a
    restricted one given a value the engine does not play), is refused in one line naming the
    parameter and the engine; its own profile is played."""
    engine = ENGINES[system]
    profile = BASE_PROFILE[system]
    engine.check(rules_for_profile(profile))
    walked = 0
    for name, param in parameters().items():
        restricted = engine.plays.get(name)
        if name in engine.honours and restricted is None:
            continue
        for value in _other_values(param, ruleset(profile)[name]):
            if restricted is not None and value in restricted:
                continue
            values = _valid_change(profile, name, value)
            if values is None:
                continue
            reason = engine.refusal(game_rules(values))
            assert reason is not None, f"{engine.name} accepts {name}={value!r}"
            assert reason.startswith(f"parameter {name}=") and f"the {engine.name} engine" in reason
            assert "\n" not in reason
            walked += 1
            break
    # every engine leaves some parameters alone; a walk that refused nothing tested nothing
    assert walked >= 5


def test_an_engine_declaration_names_only_catalogue_parameters() -> None:
    with pytest.raises(ParameterError, match="unknown parameter 'no_such'"):
        Engine("x", frozenset({"no_such"}))
    with pytest.raises(ParameterError, match="restricted but not honoured"):
        Engine("x", frozenset(), {"gin_bonus": frozenset({25})})


def _peer_adapters() -> Iterator[Any]:
    from ginspec.conformance.adapters.loader import PEERS, open_peer
    from ginspec.conformance.adapters.peer import PeerUnavailable

    for name in PEERS:
        try:
            yield name, open_peer(name)
        except PeerUnavailable as exc:
            pytest.skip(f"{name}: {exc}")


def test_peer_adapters_declare_only_what_their_engine_varies() -> None:
    """Each parameter a peer adapter declares overridable (Hello.overrides) is one the peer
    really plays at more than one value: some other catalogue value, starting from the peer's own
    profile, is accepted by the peer (not refused as unsupported)."""
    for name, adapter in _peer_adapters():
        assert set(adapter.overridable) <= set(parameters()), name
        for pname in adapter.overridable:
            base = dict(ruleset(name))
            others = [v for v in _other_values(parameters()[pname], base[pname])
                      if _valid_change(name, pname, v) is not None]
            accepted = [v for v in others
                        if not adapter.check_params({**base, pname: v})]
            if pname == "oklahoma_ace":  # only meaningful with oklahoma=true
                accepted = [v for v in others if not adapter.check_params(
                    {**base, "oklahoma": True, pname: v})]
            assert accepted, f"{name} declares {pname} overridable but plays only {base[pname]!r}"


def _engine_settings(adapter: Any) -> dict[str, str]:
    """The settings the peer's own engine was started with (read from the engine, not from us)."""
    if adapter.name == "openspiel":
        return {k: str(v) for k, v in adapter._state.get_game().get_parameters().items()}
    return {k: str(v) for k, v in vars(adapter._game.settings).items()}


def test_each_declared_override_reaches_the_peer_engine() -> None:
    """A parameter a peer adapter declares overridable changes the settings its engine really
    plays under: a hand started with another accepted value has other engine settings."""
    for name, adapter in _peer_adapters():
        base = dict(ruleset(name))
        adapter.start(list(range(52)), 0, base)
        plain = _engine_settings(adapter)
        for pname in adapter.overridable:
            extra = {"oklahoma": True} if pname == "oklahoma_ace" else {}
            others = [v for v in _other_values(parameters()[pname], base[pname])
                      if not adapter.check_params({**base, **extra, pname: v})]
            assert others, f"{name} declares {pname} overridable but plays only {base[pname]!r}"
            adapter.start(list(range(52)), 0, {**base, pname: others[0]})
            assert _engine_settings(adapter) != plain, f"{name}: {pname}={others[0]!r} changes nothing"


def test_peer_adapters_refuse_every_parameter_they_do_not_declare() -> None:
    """Walk the catalogue: from the peer's own profile, a parameter the adapter does not declare
    overridable, moved to any other valid value, is refused with a reason naming it."""
    for name, adapter in _peer_adapters():
        base = dict(ruleset(name))
        walked = 0
        for pname, param in parameters().items():
            if pname in adapter.overridable:
                continue
            for value in _other_values(param, base[pname]):
                if _valid_change(name, pname, value) is None:
                    continue
                reasons = adapter.check_params({**base, pname: value})
                assert any(r.startswith(pname) for r in reasons), f"{name} accepts {pname}={value!r}"
                walked += 1
        assert walked > len(parameters()), name


# --- the table game: refused, honoured, and the same at every size -------------------------------


def _play(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("setting", ["game_target=20", "next_dealer=winner", "first_dealer=random",
                                     "redeal_dealer=passes", "gin_compulsory=true",
                                     "knocker_may_lay_off=true", "undercut_on_tie=no_score",
                                     "discard_take_cap=50", "box_bonus=25"])
def test_table_play_refuses_what_it_does_not_play(players: int, setting: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _play(["play", "--profile", "serbian-online", "--players", str(players),
                            "--seed", "1", "--set", setting], capsys)
    name = setting.split("=")[0]
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"parameter {name}=" in lines[0] and "table engine" in lines[0]


@pytest.mark.parametrize("setting", ["undercut_on_tie=undercut", "gin_bonus=10",
                                     "penalty_limit=50"])
def test_table_play_honours_what_it_plays(setting: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Within a few seeds the setting changes some game (a tie, a gin, a shorter game)."""
    for players, seed in [(n, s) for s in range(1, 6) for n in (2, 3)]:
        argv = ["play", "--profile", "serbian-online", "--players", str(players), "--seed",
                str(seed), "--json"]
        assert main(argv) == 0
        plain = json.loads(capsys.readouterr().out)
        assert main([*argv, "--set", setting]) == 0
        changed = json.loads(capsys.readouterr().out)
        if changed["hands"] != plain["hands"] or changed["result"] != plain["result"]:
            return
    raise AssertionError(f"--set {setting} changed none of ten games")


def test_table_tie_rule_decides_a_tied_knock() -> None:
    from ginspec.reference.table import table_penalties

    # knocker seat 0 with 5, seat 1 also 5, seat 2 with 9 (SCORE.TIE)
    assert table_penalties(0, [5, 5, 9]).kind == "knock"  # knocker_scores_zero
    tied = table_penalties(0, [5, 5, 9], tie_undercuts=True)
    assert (tied.kind, tied.winner, tied.penalties) == ("undercut", 1, (25, 0, 4))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_serbian_online_is_one_game_at_every_size(players: int,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 001: penalty totals and the prize split at 2, 3 and 4 players, and the first turn is
    an ordinary draw (no upcard offer, FIRST.PLAIN) at each."""
    from ginspec.reference.table import TableDeal, TableState, table_rules_for_profile

    assert main(["play", "--profile", "serbian-online", "--players", str(players), "--seed", "1",
                 "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    result = trace["result"]
    assert trace["system"] == "table" and trace["players"] == players
    totals = [0] * players
    for hand in trace["hands"]:
        totals = [t + p for t, p in zip(totals, hand["result"]["penalties"], strict=True)]
    assert result["totals"] == totals and max(totals) >= 100
    assert sum(result["shares"]) == result["pool"]
    winner = result["winner"]
    assert totals[winner] == min(totals) and result["shares"][winner] >= result["pool"] * 75 // 100
    rules = table_rules_for_profile("serbian-online", players=players)
    state = TableState.new(TableDeal.from_seed(1, players, 0), rules)
    assert sorted(str(a) for a in state.legal_actions()) == ["draw-stock", "take-discard"]
    assert [len(state.hand(s)) for s in range(players)] == [10 if players == 2 else 7] * players


def test_the_table_trace_names_the_knocker_and_the_seat_that_undercut(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The readable line of each hand says who knocked and who won, as the JSON record has them
    (TABLE.UNDERCUT): the undercut knocker is never named as the one who undercut."""
    argv = ["play", "--profile", "serbian-online", "--players", "4", "--seed", "1"]
    assert main([*argv, "--json"]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert main(argv) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  hand ")]
    assert len(lines) == len(hands)
    undercuts = 0
    for line, hand in zip(lines, hands, strict=True):
        r = hand["result"]
        if r["outcome"] == "undercut":
            undercuts += 1
            assert r["knocker"] != r["winner"]
            assert f"seat {r['knocker']} knocked and was undercut by seat {r['winner']};" in line
        elif r["outcome"] in ("knock", "gin"):
            assert f"seat {r['knocker']} " in line and r["knocker"] == r["winner"]
    assert undercuts  # seed 1 at four players has an undercut (hand 2: seat 2 by seat 0)


def test_the_table_engine_refuses_a_ruleset_it_does_not_play() -> None:
    from ginspec.reference.table import table_rules

    with pytest.raises(GinspecError, match=r"^parameter first_turn=upcard_offer: the table engine"):
        table_rules(ruleset("serbian-online", {"first_turn": "upcard_offer"}))


# --- the first dealer: a tied cut is cut again (DEAL.FIRST-DEALER) ------------------------------


def test_a_tied_cut_is_cut_again() -> None:
    import random

    rules = rules_for_profile("pagat")
    tied = []
    for seed in range(200):
        deck = list(range(52))
        random.Random(f"ginspec-first-dealer:{seed}").shuffle(deck)
        if deck[0] % NUM_RANKS == deck[1] % NUM_RANKS:
            tied.append(seed)
    assert 57 in tied  # the seeds whose first two cut cards have the same rank (57: TD and TC)
    for seed in tied:
        dealer, cut = first_dealer(rules, seed)
        assert cut is not None and cut[0] % NUM_RANKS != cut[1] % NUM_RANKS
        assert dealer == (0 if cut[0] % NUM_RANKS < cut[1] % NUM_RANKS else 1)  # low card deals
    dealer, cut = first_dealer(rules, 57)
    assert cut is not None and [card_str(c) for c in cut] == ["QH", "AC"] and dealer == 1  # cut again


# --- KNOCK.PROCEDURE: the knock card face up (EAAI) ------------------------------------------


def test_a_face_up_knock_card_is_seen_by_both_and_changes_nothing_else() -> None:
    from ginspec.reference.game import Deal, HandState

    deal = Deal.from_hands("2C 3C 4C 7D 7H 7S JS QS KS QD", "8C 8D 8H 9D 9H 9S AS 2S 3S 5H", "5D",
                           "", 0)
    ends = []
    for face_up in (False, True):
        rules = rules_for_profile("pagat", {"knock_card_face_up": face_up})
        s = HandState.new(deal, rules).apply("take-upcard").apply("knock QD")
        defender = observe(s, 0)
        s.check_accounting()
        if face_up:
            assert defender.knock_card == s.knock_card and s.pile[-1] == s.knock_card
            assert defender.history[-1].action == "knock QD"
        else:
            assert defender.knock_card is None and s.knock_card not in s.pile
            assert defender.history[-1].action == "knock"
        s = s.apply("declare 2C 3C 4C / 7D 7H 7S / JS QS KS").apply(
            "meld 8C 8D 8H / 9D 9H 9S / AS 2S 3S").apply("done")
        s.check_accounting()
        assert s.result is not None
        ends.append(s.result.to_json())
    assert ends[0] == ends[1]

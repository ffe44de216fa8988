"""The two independent checkers check every field they claim to, and agree.

A tampered corpus is built from genuine deadwood certificates of the committed suite: well over 100
kinds of tampering (each field removed, retyped, set to null, off by one, flipped, swapped, cards
moved, fields added), each applied to a few certificates chosen with a fixed seed. Every kind is
wrong on its face — it breaks the certificate's shape or a number the checkers recount from the
chapter-2 definition — by construction, not by asking a checker: an off-by-one touches a number
that must equal another, a flipped rule is applied only where the witness itself uses it, a swap
only where the swapped things differ. ``spec/formal/checker.py`` and
``conformance/examples/node/check-certificate.mjs`` read the same JSON lines; both must reject every
tampered certificate, accept every genuine one, and give the same first problem word for word.

JSON numbers: JavaScript cannot tell ``37.0`` from ``37`` (the Python checker rejects the first), so
the corpus retypes integers to ``37.5``, never to an integral float.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ginspec.spec.formal import checker

ROOT = Path(__file__).resolve().parents[1]
SUITE_CERTIFICATES = ROOT / "conformance" / "suite" / "certificates.jsonl"
NODE_CHECKER = ROOT / "conformance" / "examples" / "node" / "check-certificate.mjs"
SEED = 30
PER_KIND = 3

Cert = dict[str, Any]
Applies = Callable[[Cert], bool]
Mutate = Callable[[Cert, random.Random], Any]
"""Changes the certificate in place (returns None) or returns what replaces it."""


def _genuine() -> list[Cert]:
    out = []
    for line in SUITE_CERTIFICATES.read_text(encoding="utf-8").splitlines():
        cert = json.loads(line)["certificate"]
        if cert.get("question") in ("deadwood", "deadwood-after-discard") and cert["lower_bound"] is not None:
            out.append(cert)
    return out


GENUINE = _genuine()


def _after(c: Cert) -> bool:
    return bool(c["question"] == "deadwood-after-discard")


def _value(card: str, rules: Cert) -> int:
    """CARD.VALUE: ace ``ace_value``, 2-9 their pips, ten and court cards 10."""
    rank = "A23456789TJQK".index(card[0])
    return int(rules["ace_value"]) if rank == 0 else min(rank + 1, 10)


def _other_card(c: Cert, rng: random.Random) -> str:
    """A card not in the hand."""
    held = set(c["hand"])
    return rng.choice(sorted(r + s for r in "A23456789TJQK" for s in "CDHS" if r + s not in held))


def _ranks(meld: list[str]) -> set[str]:
    return {card[0] for card in meld}


# --- where a value lives, and how to change it ----------------------------------------------------

Path_ = tuple[str | int, ...]


def _get(c: Any, path: Path_) -> Any:
    for step in path:
        c = c[step]
    return c


def _has(c: Any, path: Path_) -> bool:
    try:
        _get(c, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _set(c: Any, path: Path_, value: Any) -> None:
    _get(c, path[:-1])[path[-1]] = value


def _drop(c: Any, path: Path_) -> None:
    del _get(c, path[:-1])[path[-1]]


Kind = tuple[str, Applies, Mutate]
KINDS: list[Kind] = []


def kind(name: str, applies: Applies = lambda c: True) -> Callable[[Mutate], Mutate]:
    def register(mutate: Mutate) -> Mutate:
        KINDS.append((name, applies, mutate))
        return mutate
    return register


def _at(path: Path_) -> Applies:
    return lambda c: _has(c, path)


def _card_at(path: Path_) -> Applies:
    return lambda c: _has(c, path) and isinstance(_get(c, path), str)


def _drop_at(path: Path_) -> Mutate:
    return lambda c, _r: _drop(c, path)


def _change_at(path: Path_, change: Callable[[Any], Any]) -> Mutate:
    return lambda c, _r: _set(c, path, change(_get(c, path)))


def _put(path: Path_, value: Any) -> Mutate:
    return lambda c, _r: _set(c, path, value)


def _shift(paths: list[Path_], delta: int) -> Mutate:
    def mutate(c: Cert, _r: random.Random) -> None:
        for path in paths:
            _set(c, path, _get(c, path) + delta)
    return mutate


def _stays_natural(path: Path_, delta: int, proved: bool = False) -> Applies:
    """The number stays at least 0 (and, with ``proved``, the certificate's claim is its optimum)."""
    return lambda c: _get(c, path) + delta >= 0 and (not proved or c["outcome"] == "proved")


def _name(path: Path_) -> str:
    return ".".join(map(str, path))


def _path_kinds() -> None:
    """Each field removed, set to null (where null is not its value) or retyped."""
    ints: list[Path_] = [("claim",), ("optimum",), ("unsat_below",), ("knock_limit",), ("witness", "deadwood"),
                         ("rules", "ace_value"), ("lower_bound", "cases", 0, "suits", 0)]
    bools: list[Path_] = [("gin",), ("can_knock",), ("big_gin",), ("rules", "ace_high_runs"),
                          ("rules", "wraparound_runs")]
    strings: list[Path_] = [("question",), ("outcome",), ("encoding",), ("witness", "checked_against"),
                            ("lower_bound", "method"), ("solver", "name")]
    lists: list[Path_] = [("hand",), ("witness", "melds"), ("witness", "deadwood_cards"), ("lower_bound", "cases"),
                          ("lower_bound", "cases", 0, "sets"), ("lower_bound", "cases", 0, "suits"),
                          ("lower_bound", "cases", 0, "after_discard")]
    objects: list[Path_] = [("rules",), ("witness",), ("solver",), ("lower_bound",), ("big_gin_proof",)]
    removable = [*ints, *bools, *strings, *lists, *objects, ("witness", "discard"), ("lower_bound", "cases", 0)]
    for path in removable:
        if path[-1] == 0:  # a list item: removing the only case leaves none; removing suits[0] leaves 3
            continue
        KINDS.append((f"remove {_name(path)}", _at(path), _drop_at(path)))
    retypes: list[tuple[list[Path_], str, Callable[[Any], Any]]] = [
        (ints, "as a string", str), (ints, "as a fraction", lambda v: v + 0.5), (ints, "as true", lambda v: True),
        (ints, "as null", lambda v: None), (ints, "negative", lambda v: -1 - v),
        (bools, "as 0/1", int), (bools, "as a string", lambda v: "true" if v else "false"),
        (bools, "as null", lambda v: None),
        (strings, "as a number", lambda v: 7), (strings, "as null", lambda v: None),
        (lists, "as an object", lambda v: {}), (lists, "as a string", lambda v: "all"),
        (lists, "as null", lambda v: None),
        (objects, "as a list", lambda v: []),
    ]
    for paths, how, change in retypes:
        for path in paths:
            if how == "as null" and path == ("lower_bound",):
                continue  # null is its value for hands with too many set choices (rejected anyway)
            KINDS.append((f"{_name(path)} {how}", _at(path), _change_at(path, change)))
    cards = [("hand", 0), ("witness", "deadwood_cards", 0), ("witness", "melds", 0, 0), ("witness", "discard"),
             ("lower_bound", "cases", -1, "sets", 0, 0), ("big_gin_proof", "melds", 0, 0)]
    for path in cards:
        for how, change in (("in lower case", str.lower), ("as a number", lambda v: 7),
                            ("as 10 for T", lambda v: v.replace("T", "10") if v[0] == "T" else "1" + v)):
            KINDS.append((f"{_name(path)} {how}", _card_at(path), _change_at(path, change)))


_path_kinds()


# --- off by one: a number that must equal (or be at most) another -------------------------------

for _field in ("claim", "optimum", "unsat_below"):
    for _delta in (1, -1):
        # A claim off by one from a proved optimum makes another outcome (a claim already below
        # the optimum and moved further is another true certificate: not used).
        kind(f"{_field} {_delta:+d}", _stays_natural((_field,), _delta, _field == "claim"))(
            _shift([(_field,)], _delta))


def _ace_dead(delta: int) -> Applies:
    """An ace the witness leaves unmelded changes the deadwood's value with ace_value."""
    return lambda c: any(x[0] == "A" for x in c["witness"]["deadwood_cards"]) and c["rules"]["ace_value"] + delta >= 1


for _delta in (1, -1):
    kind(f"witness.deadwood {_delta:+d}", _stays_natural(("witness", "deadwood"), _delta))(
        _shift([("witness", "deadwood")], _delta))
    kind(f"optimum, unsat_below, witness.deadwood and claim all {_delta:+d}", _stays_natural(("optimum",), _delta))(
        _shift([("optimum",), ("unsat_below",), ("claim",), ("witness", "deadwood")], _delta))
    kind(f"rules.ace_value {_delta:+d} (an ace in the deadwood)", _ace_dead(_delta))(
        _shift([("rules", "ace_value")], _delta))


@kind("knock_limit off by one across the optimum", lambda c: "knock_limit" in c and c["optimum"] > 0)
def _limit(c: Cert, _r: random.Random) -> None:
    c["knock_limit"] = c["optimum"] - 1 if c["can_knock"] else c["optimum"]


@kind("a suit's run deadwood +1")
def _suit_up(c: Cert, r: random.Random) -> None:  # the stored numbers are each suit's exact run deadwood
    case = r.choice(c["lower_bound"]["cases"])
    case["suits"][r.randrange(4)] += 1


@kind("a suit's run deadwood after a discard +1", lambda c: _after(c))
def _after_up(c: Cert, r: random.Random) -> None:
    case = r.choice(c["lower_bound"]["cases"])
    q = r.choice([q for q in range(4) if case["after_discard"][q] is not None])
    case["after_discard"][q] += 1


@kind("a suit's run deadwood after a discard null where the suit has cards", lambda c: _after(c))
def _after_null(c: Cert, r: random.Random) -> None:
    case = r.choice(c["lower_bound"]["cases"])
    case["after_discard"][r.choice([q for q in range(4) if case["after_discard"][q] is not None])] = None


@kind("a number for a suit with no card left", lambda c: _after(c) and any(
    None in case["after_discard"] for case in c["lower_bound"]["cases"]))
def _empty_suit(c: Cert, r: random.Random) -> None:
    case = next(case for case in c["lower_bound"]["cases"] if None in case["after_discard"])
    case["after_discard"][case["after_discard"].index(None)] = 0


def _tight(c: Cert) -> Cert | None:
    """The case of the deadwood question whose suits add up to the optimum, with a suit above 0."""
    return next((case for case in c["lower_bound"]["cases"] if sum(case["suits"]) == c["optimum"]
                 and any(case["suits"])), None)


@kind("the tight case's suit -1 (below the optimum)", lambda c: not _after(c) and _tight(c) is not None)
def _tight_down(c: Cert, r: random.Random) -> None:
    case = _tight(c)
    assert case is not None
    case["suits"][r.choice([q for q in range(4) if case["suits"][q] > 0])] -= 1


@kind("a suit list of 3 numbers")
def _three(c: Cert, r: random.Random) -> None:
    r.choice(c["lower_bound"]["cases"])["suits"].pop()


@kind("a suit list of 5 numbers")
def _five(c: Cert, r: random.Random) -> None:
    r.choice(c["lower_bound"]["cases"])["suits"].append(0)


@kind("an after-discard list of 3 numbers", _after)
def _three_after(c: Cert, r: random.Random) -> None:
    r.choice(c["lower_bound"]["cases"])["after_discard"].pop()


# --- flips: a Boolean or a choice set to another value --------------------------------------------

kind("gin flipped", _after)(lambda c, _r: _set(c, ("gin",), not c["gin"]))
kind("can_knock flipped", lambda c: "can_knock" in c)(lambda c, _r: _set(c, ("can_knock",), not c["can_knock"]))
kind("big_gin flipped", lambda c: "big_gin" in c)(lambda c, _r: _set(c, ("big_gin",), not c["big_gin"]))


@kind("big_gin true with the witness's melds on optimum above 0", lambda c: _after(c) and c["optimum"] > 0)
def _big_gin_true(c: Cert, _r: random.Random) -> None:
    c["big_gin"], c["big_gin_proof"] = True, {"melds": copy.deepcopy(c["witness"]["melds"])}


@kind("big_gin false with the lower bound on optimum above 0", lambda c: _after(c) and c["optimum"] > 0)
def _big_gin_false(c: Cert, _r: random.Random) -> None:
    bound = {"method": "set-choices/suit-runs",
             "cases": [{"sets": case["sets"], "suits": case["suits"]} for case in c["lower_bound"]["cases"]]}
    c["big_gin"], c["big_gin_proof"] = False, {"lower_bound": bound}


@kind("big_gin present on the deadwood question", lambda c: not _after(c))
def _big_gin_deadwood(c: Cert, _r: random.Random) -> None:
    c["big_gin"], c["big_gin_proof"] = False, {"lower_bound": copy.deepcopy(c["lower_bound"])}


@kind("big gin proved by the witness's melds (the discard left out)", lambda c: c.get("big_gin") is True)
def _big_gin_witness(c: Cert, _r: random.Random) -> None:
    c["big_gin_proof"] = {"melds": copy.deepcopy(c["witness"]["melds"])}


@kind("big gin's absence proved by melds", lambda c: c.get("big_gin") is False)
def _no_big_gin_melds(c: Cert, _r: random.Random) -> None:
    c["big_gin_proof"] = {"melds": copy.deepcopy(c["witness"]["melds"])}


@kind("big_gin_proof with both melds and a lower bound", lambda c: "big_gin_proof" in c)
def _both_proofs(c: Cert, _r: random.Random) -> None:
    c["big_gin_proof"] = {"melds": copy.deepcopy(c["witness"]["melds"]),
                          "lower_bound": copy.deepcopy(c["lower_bound"])}


@kind("big_gin_proof without big_gin", lambda c: "big_gin" in c)
def _proof_alone(c: Cert, _r: random.Random) -> None:
    del c["big_gin"]


@kind("gin and knock fields on the deadwood question", lambda c: not _after(c))
def _gin_on_deadwood(c: Cert, _r: random.Random) -> None:
    c["gin"] = c["optimum"] == 0


@kind("knock_limit and can_knock on the deadwood question", lambda c: not _after(c))
def _limit_on_deadwood(c: Cert, _r: random.Random) -> None:
    c["knock_limit"], c["can_knock"] = 10, c["optimum"] <= 10


@kind("can_knock without knock_limit", lambda c: "knock_limit" in c)
def _can_alone(c: Cert, _r: random.Random) -> None:
    del c["knock_limit"]


for _q in ("foo", "", "Deadwood"):
    kind(f"question {_q!r}")(_put(("question",), _q))
kind("question swapped to the other", lambda c: True)(
    lambda c, _r: _set(c, ("question",), "deadwood" if _after(c) else "deadwood-after-discard"))
def _not_outcome(outcome: str) -> Applies:
    return lambda c: bool(c["outcome"] != outcome)


for _o in ("proved", "claim-too-high", "claim-too-low", "PROVED"):
    kind(f"outcome {_o!r} where it is not", _not_outcome(_o))(_put(("outcome",), _o))
kind("lower_bound.method another")(lambda c, _r: _set(c, ("lower_bound", "method"), "set-choices"))
kind("witness.checked_against another")(lambda c, _r: _set(c, ("witness", "checked_against"), "z3"))
for _value_ in (0, 16):
    kind(f"rules.ace_value {_value_} (out of range)")(_put(("rules", "ace_value"), _value_))
kind("wraparound runs without ace-high runs", lambda c: not c["rules"]["ace_high_runs"])(
    lambda c, _r: _set(c, ("rules", "wraparound_runs"), True))


def _uses_ace_high(c: Cert) -> bool:  # a run of the witness holds both the ace and the king
    return any(_ranks(m) >= {"A", "K"} for m in c["witness"]["melds"])


kind("ace-high runs turned off where the witness has Q-K-A",
     lambda c: c["rules"]["ace_high_runs"] and not c["rules"]["wraparound_runs"] and _uses_ace_high(c))(
    lambda c, _r: _set(c, ("rules", "ace_high_runs"), False))
kind("wraparound runs turned off where the witness has K-A-2",
     lambda c: c["rules"]["wraparound_runs"] and any(_ranks(m) >= {"A", "K", "2"} for m in c["witness"]["melds"]))(
    lambda c, _r: _set(c, ("rules", "wraparound_runs"), False))


# --- cards moved, added, removed, swapped ---------------------------------------------------------

@kind("a card added to the hand")
def _add_card(c: Cert, r: random.Random) -> None:
    c["hand"].append(_other_card(c, r))


@kind("a card of the hand duplicated")
def _dup_card(c: Cert, r: random.Random) -> None:
    c["hand"].append(r.choice(c["hand"]))


@kind("a card removed from the hand")
def _drop_card(c: Cert, r: random.Random) -> None:
    c["hand"].remove(r.choice(c["hand"]))


@kind("a hand card replaced by another card")
def _replace_card(c: Cert, r: random.Random) -> None:
    c["hand"][r.randrange(len(c["hand"]))] = _other_card(c, r)


@kind("a deadwood card dropped", lambda c: bool(c["witness"]["deadwood_cards"]))
def _drop_dead(c: Cert, r: random.Random) -> None:
    c["witness"]["deadwood_cards"].pop(r.randrange(len(c["witness"]["deadwood_cards"])))


@kind("a melded card listed as deadwood too", lambda c: bool(c["witness"]["melds"]))
def _dead_twice(c: Cert, r: random.Random) -> None:
    c["witness"]["deadwood_cards"].append(r.choice(r.choice(c["witness"]["melds"])))


@kind("a melded card moved to the deadwood", lambda c: bool(c["witness"]["melds"]))
def _unmeld(c: Cert, r: random.Random) -> None:  # every card is worth at least 1: the deadwood grows
    meld = r.choice(c["witness"]["melds"])
    c["witness"]["deadwood_cards"].append(meld.pop(r.randrange(len(meld))))


@kind("a meld dropped to the deadwood", lambda c: bool(c["witness"]["melds"]))
def _drop_meld(c: Cert, r: random.Random) -> None:
    c["witness"]["deadwood_cards"] += c["witness"]["melds"].pop(r.randrange(len(c["witness"]["melds"])))


@kind("a card not in the hand melded", lambda c: bool(c["witness"]["melds"]))
def _foreign_meld(c: Cert, r: random.Random) -> None:
    r.choice(c["witness"]["melds"]).append(_other_card(c, r))


@kind("two melds merged", lambda c: len(c["witness"]["melds"]) >= 2)
def _merge(c: Cert, _r: random.Random) -> None:  # one set or run never holds two whole melds' cards
    melds = c["witness"]["melds"]
    melds[0] += melds.pop(1)


def _swappable(c: Cert) -> list[tuple[int, int, int]]:
    """(meld, position, deadwood position) with cards of different values."""
    w, rules = c["witness"], c["rules"]
    return [(i, j, k) for i, m in enumerate(w["melds"]) for j, x in enumerate(m)
            for k, y in enumerate(w["deadwood_cards"]) if _value(x, rules) != _value(y, rules)]


@kind("a melded card swapped with a deadwood card of another value", lambda c: bool(_swappable(c)))
def _swap_meld_dead(c: Cert, r: random.Random) -> None:
    i, j, k = r.choice(_swappable(c))
    w = c["witness"]
    w["melds"][i][j], w["deadwood_cards"][k] = w["deadwood_cards"][k], w["melds"][i][j]


def _discard_swaps(c: Cert) -> list[int]:
    w, rules = c["witness"], c["rules"]
    return [k for k, y in enumerate(w["deadwood_cards"]) if _value(y, rules) != _value(w["discard"], rules)]


@kind("the discard swapped with a deadwood card of another value", lambda c: _after(c) and bool(_discard_swaps(c)))
def _swap_discard(c: Cert, r: random.Random) -> None:
    w = c["witness"]
    k = r.choice(_discard_swaps(c))
    w["discard"], w["deadwood_cards"][k] = w["deadwood_cards"][k], w["discard"]


kind("a discard on the deadwood question", lambda c: not _after(c))(
    lambda c, r: _set(c, ("witness", "discard"), r.choice(c["hand"])))
kind("no discard on the after-discard question", _after)(lambda c, _r: _set(c, ("witness", "discard"), None))
kind("a discard not in the hand", _after)(lambda c, r: _set(c, ("witness", "discard"), _other_card(c, r)))


@kind("claim and optimum swapped", lambda c: c["claim"] != c["optimum"])
def _swap_claim(c: Cert, _r: random.Random) -> None:
    c["claim"], c["optimum"] = c["optimum"], c["claim"]


@kind("gin and can_knock swapped", lambda c: "can_knock" in c and c["gin"] != c["can_knock"])
def _swap_flags(c: Cert, _r: random.Random) -> None:
    c["gin"], c["can_knock"] = c["can_knock"], c["gin"]


def _suit_pairs(c: Cert) -> list[tuple[int, int, int]]:
    return [(i, a, b) for i, case in enumerate(c["lower_bound"]["cases"]) for a in range(4) for b in range(a + 1, 4)
            if case["suits"][a] != case["suits"][b]]


@kind("two suits' run deadwood swapped", lambda c: bool(_suit_pairs(c)))
def _swap_suits(c: Cert, r: random.Random) -> None:  # the larger lands on a suit whose exact value is smaller
    i, a, b = r.choice(_suit_pairs(c))
    suits = c["lower_bound"]["cases"][i]["suits"]
    suits[a], suits[b] = suits[b], suits[a]


def _case_pairs(c: Cert) -> list[tuple[int, int]]:
    cases = c["lower_bound"]["cases"]
    return [(i, j) for i in range(len(cases)) for j in range(i + 1, len(cases))
            if cases[i]["suits"] != cases[j]["suits"]]


@kind("two cases' set choices swapped", lambda c: bool(_case_pairs(c)))
def _swap_cases(c: Cert, r: random.Random) -> None:
    i, j = r.choice(_case_pairs(c))
    cases = c["lower_bound"]["cases"]
    cases[i]["sets"], cases[j]["sets"] = cases[j]["sets"], cases[i]["sets"]


kind("a lower-bound case dropped", lambda c: len(c["lower_bound"]["cases"]) >= 2)(
    lambda c, r: c["lower_bound"]["cases"].pop(r.randrange(len(c["lower_bound"]["cases"]))) and None)
kind("a lower-bound case listed twice")(
    lambda c, r: c["lower_bound"]["cases"].append(copy.deepcopy(r.choice(c["lower_bound"]["cases"]))))
kind("no lower-bound case")(lambda c, _r: _set(c, ("lower_bound", "cases"), []))


@kind("a set of a case with a card added from another rank",
      lambda c: any(case["sets"] for case in c["lower_bound"]["cases"]))
def _set_grows(c: Cert, r: random.Random) -> None:
    case = next(case for case in c["lower_bound"]["cases"] if case["sets"])
    group = case["sets"][0]
    group.append(next(x for x in c["hand"] if x[0] != group[0][0] and all(x not in s for s in case["sets"])))


@kind("a set of a case with a card listed twice", lambda c: any(case["sets"] for case in c["lower_bound"]["cases"]))
def _set_dup(c: Cert, _r: random.Random) -> None:
    case = next(case for case in c["lower_bound"]["cases"] if case["sets"])
    case["sets"][0][-1] = case["sets"][0][0]


for _where in ((), ("rules",), ("witness",), ("lower_bound",), ("lower_bound", "cases", 0), ("solver",)):
    kind(f"an unknown field in {_name(_where) or 'the certificate'}")(_put((*_where, "extra"), 1))
kind("solver.checks negative")(lambda c, _r: _set(c, ("solver", "checks"), -1))
kind("solver.seconds as a string")(lambda c, _r: _set(c, ("solver", "seconds"), "1"))
kind("a list instead of the certificate")(lambda c, _r: [c])
kind("a string instead of the certificate")(lambda c, _r: json.dumps(c))


def corpus() -> tuple[list[Cert], list[tuple[str, Any]]]:
    """The genuine certificates used and the tampered ones (kind, certificate), from ``SEED``."""
    rng = random.Random(SEED)
    bases: list[Cert] = []
    tampered: list[tuple[str, Any]] = []
    for name, applies, mutate in KINDS:
        fitting = [c for c in GENUINE if applies(c)]
        for base in rng.sample(fitting, min(PER_KIND, len(fitting))):
            cert = copy.deepcopy(base)
            replaced = mutate(cert, rng)
            tampered.append((name, cert if replaced is None else replaced))
            if base not in bases:
                bases.append(base)
    return bases, tampered


BASES, TAMPERED = corpus()


def test_the_corpus_has_100_kinds_each_used() -> None:
    names = [name for name, _, _ in KINDS]
    assert len(set(names)) == len(names) >= 100
    used = {name for name, _ in TAMPERED}
    assert used == set(names), sorted(set(names) - used)
    assert {c["question"] for c in BASES} == {"deadwood", "deadwood-after-discard"}


def _python(certs: list[Any]) -> list[str]:
    """The Python checker's verdicts on the JSON lines the JavaScript one reads."""
    return [checker.check(json.loads(json.dumps(c))) or "ok" for c in certs]


def test_the_python_checker_rejects_every_tampered_certificate() -> None:
    assert _python(BASES) == ["ok"] * len(BASES)
    accepted = [name for (name, _), verdict in zip(TAMPERED, _python([c for _, c in TAMPERED]), strict=True)
                if verdict == "ok"]
    assert not accepted, accepted


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_both_checkers_give_the_same_verdicts(tmp_path: Path) -> None:
    certs = [*BASES, *(c for _, c in TAMPERED)]
    lines = tmp_path / "corpus.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in certs), encoding="utf-8")
    run = subprocess.run(["node", str(NODE_CHECKER), "--lines", str(lines)], capture_output=True, text=True,
                         timeout=600)
    js = run.stdout.splitlines()
    py = _python(certs)
    assert len(js) == len(py), run.stderr
    names = ["genuine"] * len(BASES) + [name for name, _ in TAMPERED]
    differ = [(name, p, j) for name, p, j in zip(names, py, js, strict=True) if p != j]
    assert not differ, differ[:10]
    assert js[:len(BASES)] == ["ok"] * len(BASES)
    assert "ok" not in js[len(BASES):]
    assert run.returncode == 1

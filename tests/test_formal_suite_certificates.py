"""The suite's numbers carry certificates (FORMAL.CERTIFICATE): every deadwood, best-discard and
knock/gin verdict of a query case (a defence's least deadwood, a declaration's verdict, an
adjudicate ruling's deadwood and knock verdict included), every knock verdict of a hand case and
every deadwood of a hand case's result (a showdown certificate: as recorded, or the best play's
least defender deadwood) has its certificate in conformance/suite/certificates.jsonl.
CI re-checks a deterministic sample plus every case this branch changed against main (its file, or
a certificate it uses) and every showdown query answer (strict fields, a Z3 re-proof, the
independent checker), and runs the JavaScript checker on a sample."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ginspec.reference.proofs.suite_certificates import (
    CERTIFICATES,
    SUITE_DIR,
    Question,
    answer_claims,
    certificate,
    certified_cases,
    check_case,
    knock_claims,
    questions,
    read_certificates,
    showdown_claims,
    used_keys,
    verify_suite,
)
from ginspec.spec.cards import parse_cards
from ginspec.spec.formal import checker
from ginspec.spec.formal.answers import answer_key, answered
from ginspec.spec.formal.rules import FormalRules
from ginspec.spec.formal.showdown_certificates import check_showdown
from ginspec.spec.formal.verify import verify

ROOT = Path(__file__).resolve().parents[1]
NODE_CHECKER = ROOT / "conformance" / "examples" / "node" / "check-certificate.mjs"
CASES = certified_cases(SUITE_DIR)
CERTS = read_certificates(SUITE_DIR)


def _changed_case_ids() -> list[str]:
    """IDs of the query and hand cases this branch changed against main (none outside a git
    checkout)."""
    try:
        out = subprocess.run(["git", "diff", "--name-only", "main", "--", "conformance/suite/cases/query",
                              "conformance/suite/cases/hand"],
                             cwd=ROOT, capture_output=True, text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    ids = []
    for name in out.split():
        path = ROOT / name
        if path.exists():
            ids.append(json.loads(path.read_text(encoding="utf-8"))["id"])
    return ids


def _cases_of_changed_certificates() -> list[str]:
    """IDs of the cases that use a certificate this branch added, removed or changed against main
    in the certificates file (none outside a git checkout)."""
    try:
        out = subprocess.run(["git", "diff", "-U0", "main", "--", f"conformance/suite/{CERTIFICATES}"],
                             cwd=ROOT, capture_output=True, text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    keys = {json.loads(line[1:])["key"] for line in out.splitlines() if line[:2] in ("+{", "-{")}
    return [c["id"] for c in CASES if used_keys(c) & keys] if keys else []


def test_every_certified_number_has_its_certificate() -> None:
    assert len(CASES) > 200
    missing = [q.key for case in CASES for q in questions(case) if q.key not in CERTS]
    assert not missing, missing[:5]
    shown = [claim for case in CASES for claim in showdown_claims(case)]
    assert all(claim.certificate is not None for claim in shown)
    assert {claim.automatic for claim in shown} == {True, False}
    used = {key for case in CASES for key in used_keys(case)}
    assert set(CERTS) == used, sorted(set(CERTS) - used)[:5]


def test_every_result_deadwood_of_a_hand_case_is_claimed() -> None:
    """Each result with ``deadwood`` — the case's own and each ``rulesets`` entry's, per profile
    the reference plays it under — has one showdown claim."""
    hands = [c for c in CASES if c["kind"] == "hand"]
    expected = 0
    for case in hands:
        for entry in case.get("rulesets") or [{"profiles": [case["profile"]]}]:
            result = entry.get("result", case.get("result") if entry.get("stop") is None else None)
            if result is not None and "deadwood" in result:
                expected += len(entry["profiles"])
    claimed = sum(len(showdown_claims(c)) for c in hands)
    assert 4000 < claimed <= expected  # a profile the two-player engine does not play has none
    assert expected - claimed < expected // 10


def _showdown_case(automatic: bool) -> dict[str, Any]:
    """A hand case whose showdown has a layoff (recorded, or in the best play)."""
    return next(c for c in CASES if c["kind"] == "hand" and any(
        s.automatic == automatic and any(t["added"] for t in CERTS[s.key]["table"]) for s in showdown_claims(c)))


@pytest.mark.parametrize("automatic", [False, True], ids=["recorded", "best-play"])
def test_a_changed_result_deadwood_is_caught(automatic: bool) -> None:
    case = _showdown_case(automatic)
    assert check_case(case, CERTS) == []
    entries = case.get("rulesets") or [{"profiles": [case["profile"]]}]
    wrong = copy.deepcopy(case)
    if automatic:
        entry = next(e for e in wrong["rulesets"] if e.get("showdown") == "automatic")
        wrong["rulesets"] = [entry]
    else:
        wrong["rulesets"] = [e for e in entries if "result" not in e and e.get("stop") is None][:1] or None
        entry = wrong
    entry["result"]["deadwood"][1] += 1
    problems = check_case(wrong, CERTS)
    assert problems and all("the case expects deadwood" in p for p in problems), problems[:3]


def _best_play_certificate() -> dict[str, Any]:
    """A best-play showdown whose defender lays off and keeps some deadwood."""
    return copy.deepcopy(next(c for k, c in sorted(CERTS.items()) if k.startswith("showdown|best")
                              and any(t["added"] for t in c["table"] if t["owner"] == "knocker")
                              and c["deadwood"]["defender"] > 0 and c["defender_least"]))


def _stands(key: str, cert: Any) -> tuple[bool, str | None]:
    return verify(cert)


def test_a_tampered_showdown_certificate_is_rejected() -> None:
    good = _best_play_certificate()
    assert check_showdown(good, CERTS, _stands) is None
    fewer = copy.deepcopy(good)  # one layoff option left out of the lower bound
    fewer["defender_least"] = fewer["defender_least"][:-1]
    assert "is possible and not covered" in str(check_showdown(fewer, CERTS, _stands))
    more = copy.deepcopy(good)  # a number the cards left do not add up to
    more["deadwood"]["defender"] += 1
    assert "deadwood.defender" in str(check_showdown(more, CERTS, _stands))
    meld = next(t for t in good["table"] if t["added"])
    stolen = copy.deepcopy(good)  # a card of the knocker's own hand laid off
    next(t for t in stolen["table"] if t["added"])["added"].append(good["knocker"][0])
    assert check_showdown(stolen, CERTS, _stands) is not None
    foreign = copy.deepcopy(good)  # a layoff onto a meld it does not fit
    other = next((t for t in foreign["table"] if t["owner"] == "knocker" and t["meld"] != meld["meld"]), None)
    if other is not None:
        card = next(t for t in foreign["table"] if t["added"])["added"].pop()
        other["added"].append(card)
        assert "cannot be laid off" in str(check_showdown(foreign, CERTS, _stands)) or \
            "is not the deadwood question" in str(check_showdown(foreign, CERTS, _stands))
    typed = copy.deepcopy(good)
    typed["deadwood"]["defender"] = str(good["deadwood"]["defender"])
    assert "must be an integer" in str(check_showdown(typed, CERTS, _stands))


def test_a_defender_deadwood_that_is_not_the_least_is_rejected() -> None:
    """Best play claims the defender's least deadwood: a worse reply (one layoff kept back) with
    certificates for its number fails, because another layoff choice reaches less."""
    good = _best_play_certificate()
    worse = copy.deepcopy(good)
    meld = next(t for t in worse["table"] if t["owner"] == "knocker" and t["added"])
    kept_back = meld["added"].pop()
    rules = FormalRules(**good["rules"])
    value = checker.value(checker.parse_card(kept_back)[0], good["rules"])
    worse["deadwood"]["defender"] += value
    certs = dict(CERTS)
    for item in worse["defender_least"]:
        rest = [c for c in parse_cards(good["defender"]) if c not in set(parse_cards(item["laid_off"]))]
        q = Question(tuple(rest), rules, False, None, worse["deadwood"]["defender"])
        certs[q.key] = certificate(q)
        item["certificate"] = q.key
    problem = str(check_showdown(worse, certs, _stands))
    assert "below the claimed" in problem, problem


def test_a_sample_and_every_changed_case_are_re_checked() -> None:
    """A deterministic sample, every case this branch changed or whose certificates it changed,
    and every showdown query answer (defence, declaration, adjudicate: few, and checked in about
    a second)."""
    answers = [c["id"] for c in CASES if answered(c)]
    changed = [*_changed_case_ids(), *_cases_of_changed_certificates()]
    result = verify_suite(SUITE_DIR, sample=25, seed=16, also=[*changed, *answers])
    assert result.ok, result.problems[:5]
    assert result.cases >= 25 + len(answers) - 2 and len(answers) >= 24


def test_a_wrong_expectation_is_caught() -> None:
    knock = next(c for c in CASES if c["kind"] == "query" and c["query"]["what"] == "knock")
    wrong = copy.deepcopy(knock)
    wrong["expect"]["best_discards"] = [knock["query"]["cards"][0]] if knock["query"]["cards"][0] not in \
        knock["expect"]["best_discards"] else []
    assert check_case(knock, CERTS) == []
    assert check_case(wrong, CERTS), "a changed best-discard list must not pass"
    cert = copy.deepcopy(CERTS[questions(knock)[0].key])
    cert["can_knock"] = not cert["can_knock"]
    assert check_case(knock, {questions(knock)[0].key: cert, **{q.key: CERTS[q.key] for q in questions(knock)[1:]}})


def test_hand_cases_carry_their_knock_verdicts() -> None:
    hands = [c for c in CASES if c["kind"] == "hand"]
    assert len(hands) > 200
    claims = [claim for case in hands for claim in knock_claims(case)]
    assert {c.verdict for c in claims} == {"within", "over", "all-melded", "not-all-melded",
                                           "declared-within", "declared-over", "not-maximal"}
    case = next(c for c in hands if any(k.verdict == "within" and k.step < len(c["steps"])
                                        for k in knock_claims(c)))
    assert check_case(case, CERTS) == []
    step = next(k.step for k in knock_claims(case) if k.verdict == "within")
    wrong = copy.deepcopy(case)  # the same knock, expected to be refused as over the limit
    wrong["steps"][step]["expect"] = {"rejected": "KNOCK_OVER_LIMIT"}
    wrong.pop("rulesets", None)
    assert any("over the limit" in p for p in check_case(wrong, CERTS))


def test_hand_cases_carry_their_declaration_verdicts() -> None:
    """An accepted declaration leaving the least deadwood, expected refused as over the limit or
    as not maximal, is caught."""
    def own(case: dict[str, Any]) -> dict[str, Any]:  # the case's own profile only
        return {k: v for k, v in case.items() if k != "rulesets"}

    case = next(own(c) for c in CASES if c["kind"] == "hand" and any(
        k.verdict == "declared-within" and k.declared == k.question.claim for k in knock_claims(own(c))))
    assert check_case(case, CERTS) == []
    step = next(k.step for k in knock_claims(case) if k.verdict == "declared-within")
    for code, reason in (("DECLARATION_OVER_LIMIT", "refused as over the limit"),
                         ("DECLARATION_NOT_MAXIMAL", "refused as not maximal")):
        wrong = copy.deepcopy(case)
        wrong["steps"][step]["expect"] = {"rejected": code}
        assert any(reason in p for p in check_case(wrong, CERTS)), code


def _sample(n: int) -> list[dict[str, Any]]:
    """Every certificate with a solver-free bound (all but hands with thousands of set choices)."""
    keys = sorted(k for k, c in CERTS.items() if c["question"] in ("deadwood", "deadwood-after-discard")
                  and c["lower_bound"] is not None)
    return [CERTS[k] for k in keys[:: max(1, len(keys) // n)]]


def test_the_python_checker_accepts_a_sample() -> None:
    for cert in _sample(60):
        assert checker.check(cert) is None, cert["hand"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_checker_agrees(tmp_path: Path) -> None:
    sample = _sample(60)
    bad = copy.deepcopy(sample[0])
    bad["lower_bound"]["cases"][0]["suits"] = [s + 1 for s in bad["lower_bound"]["cases"][0]["suits"]]
    lines = tmp_path / "certs.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in [*sample, bad]), encoding="utf-8")
    run = subprocess.run(["node", str(NODE_CHECKER), "--lines", str(lines)], capture_output=True,
                         text=True, timeout=300)
    verdicts = run.stdout.splitlines()
    assert verdicts[:-1] == ["ok"] * len(sample), run.stdout + run.stderr
    assert verdicts[-1].startswith("lower_bound:") and run.returncode == 1
    assert checker.check(bad) is not None


def test_verify_suite_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from ginspec.conformance.cli import main

    assert main(["prove", "--verify-suite", "--sample", "3"]) == 0
    assert "all stand" in capsys.readouterr().out
    assert main(["prove", "--verify-suite", "/nonexistent"]) == 2
    assert main(["prove", "--sample", "3", "7H"]) == 2
    capsys.readouterr()
    assert (SUITE_DIR / CERTIFICATES).is_file()


# --- showdown queries: defence, declaration, adjudicate ------------------------------------------

SHOWDOWN_QUERIES = ("defence", "declaration", "adjudicate")


def _suite_query_cases(what: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((SUITE_DIR / "cases" / "query").glob("*.json"))
            if json.loads(p.read_text(encoding="utf-8"))["query"]["what"] == what]


def test_every_showdown_query_number_is_certified() -> None:
    """Every defence deadwood, every adjudicate ruling and every declaration verdict about
    deadwood (accepted, over the limit, not maximal, not a meld) has an answer certificate per
    profile, and the certified cases include them all."""
    ids = {c["id"] for c in CASES}
    counts = {}
    for what in SHOWDOWN_QUERIES:
        cases = _suite_query_cases(what)
        claimed = [c for c in cases if answered(c)]
        counts[what] = len(claimed)
        assert {c["id"] for c in claimed} <= ids
        for case in claimed:
            for profile, _ in answered(case):
                assert answer_key(case["id"], profile) in CERTS
        if what != "declaration":  # a declaration refused for its size states no deadwood
            assert claimed == cases
    assert counts["defence"] >= 7 and counts["adjudicate"] >= 11 and counts["declaration"] >= 6
    profiles = sum(len({p for p, _ in answered(c)}) for c in CASES)
    assert profiles == sum(len(answer_claims(c)) for c in CASES) > 100


def _case(case_id: str) -> dict[str, Any]:
    return copy.deepcopy(next(c for c in CASES if c["id"] == case_id))


def _own(case: dict[str, Any]) -> dict[str, Any]:
    """The case under its own profile only (a changed expectation is then read once)."""
    return {k: v for k, v in case.items() if k != "rulesets"}


def _rejected(case: dict[str, Any], reason: str, certs: dict[str, Any] | None = None) -> None:
    problems = check_case(case, CERTS if certs is None else certs)
    assert problems and all(reason in p for p in problems), problems[:3]


@pytest.mark.parametrize("case_id", ["spec.defence-breaks-its-own-set", "spec.table-twenty-four-down-to-four",
                                     "spec.no-layoffs-against-gin"])
def test_a_changed_defence_number_is_rejected(case_id: str) -> None:
    case = _case(case_id)
    assert check_case(case, CERTS) == []
    for delta in (1, -1):
        wrong = copy.deepcopy(case)
        wrong["expect"]["deadwood"] += delta
        _rejected(wrong, "the case expects deadwood")
    other = copy.deepcopy(case)  # a layoff choice that leaves more
    other["expect"]["layoffs"] = case["expect"]["layoffs"][:-1] if case["expect"]["layoffs"] else ["8H"]
    other["expect"].pop("layoff_sets")
    _rejected(other, "do not leave the least deadwood")
    sets = copy.deepcopy(case)
    sets["expect"]["layoff_sets"] = [*case["expect"]["layoff_sets"], []]
    _rejected(sets, "layoff_sets:")


def test_a_tampered_defence_certificate_is_rejected() -> None:
    case = _case("spec.table-twenty-four-down-to-four")
    key = answer_key(case["id"], None)
    good = CERTS[key]
    fewer = copy.deepcopy(good)
    fewer["options"] = fewer["options"][1:]
    _rejected(case, "is possible and not covered", {**CERTS, key: fewer})
    swapped = copy.deepcopy(good)  # a certificate of other cards
    swapped["options"][0]["certificate"] = swapped["options"][1]["certificate"]
    _rejected(case, "is not the deadwood question of", {**CERTS, key: swapped})
    foreign = copy.deepcopy(good)
    foreign["options"][0]["laid_off"] = ["KS"]
    _rejected(case, "cannot be laid off onto the knocker's melds", {**CERTS, key: foreign})
    typed = copy.deepcopy(good)
    typed["options"] = "all"
    _rejected(case, "options must be a list", {**CERTS, key: typed})


def test_a_changed_declaration_verdict_is_rejected() -> None:
    free = _case("spec.declaration-under-meld-free")  # 10 declared, least 1, no maximal rule
    three = _case("spec.declaration-three-runs-or-three-sets")
    for case in (free, three, _case("spec.declaration-over-the-limit"), _case("spec.declaration-under-meld-forbidden"),
                 _case("spec.declaration-ace-high-run"), _case("spec.declaration-big-gin")):
        assert check_case(case, CERTS) == [], case["id"]
    wrong = copy.deepcopy(three)
    wrong["expect"]["deadwood"] = 2
    _rejected(wrong, "the case expects deadwood 2, the declared melds leave 1")
    over = _case("spec.declaration-over-the-limit")  # refused as over the limit: now accepted
    over["expect"] = {"valid": True, "deadwood": 40}
    _rejected(over, "is over the limit 10")
    within = copy.deepcopy(three)  # accepted: now refused as over the limit
    within["expect"] = {"valid": False, "code": "DECLARATION_OVER_LIMIT"}
    _rejected(within, "refused as over the limit 10, but its deadwood is 1")
    forbidden = _case("spec.declaration-under-meld-forbidden")  # refused as not maximal: now accepted
    forbidden["expect"] = {"valid": True, "deadwood": 10}
    _rejected(forbidden, "is not the least, 1")
    maximal = copy.deepcopy(three)  # accepted with the least: now refused as not maximal
    maximal["overrides"] = {"knocker_must_meld_maximally": True}
    maximal["expect"] = {"valid": False, "code": "DECLARATION_NOT_MAXIMAL"}
    certs = dict(CERTS)
    q = Question(tuple(parse_cards(three["query"]["cards"])), FormalRules(), False, None, 1)
    certs[q.key] = certificate(q)
    certs[answer_key(three["id"], None)] = {"question": "answer", "what": "declaration", "least": q.key}
    _rejected(maximal, "refused as not maximal, but its deadwood 1 is the least", certs)
    melded = _case("spec.declaration-ace-high-run-allowed")  # accepted under ace-high runs: not a meld without
    melded["overrides"] = {}
    melded["expect"] = {"valid": True, "deadwood": 4}
    _rejected(melded, "not an arrangement of the cards")
    not_a_meld = copy.deepcopy(three)
    not_a_meld["expect"] = {"valid": False, "code": "DECLARATION_NOT_A_MELD"}
    _rejected(not_a_meld, "every declared group is a meld")
    big = _case("spec.declaration-big-gin")
    big["expect"]["deadwood"] = 1
    _rejected(big, "the case expects deadwood 1")


def test_a_changed_adjudicate_number_is_rejected() -> None:
    case = _own(_case("spec.chain-forbidden-ruling"))  # serbian-online: knock 10 against 17
    assert check_case(case, CERTS) == []
    for side in ("knocker", "defender"):
        wrong = copy.deepcopy(case)
        wrong["expect"]["deadwood"][side] += 1
        _rejected(wrong, "the case expects deadwood")
    flipped = copy.deepcopy(case)
    flipped["expect"]["outcome"] = "undercut"
    _rejected(flipped, "the case expects outcome undercut, the certified deadwood gives knock")
    for side in ("knocker", "defender"):  # the points chapter 9 gives for the certified numbers
        points = copy.deepcopy(case)
        points["expect"]["points"][side] += 1
        _rejected(points, "the case expects points")
    illegal = copy.deepcopy(case)
    illegal["expect"] = {"outcome": "illegal_knock"}
    _rejected(illegal, "ruled illegal, but the knocker's least deadwood 10 is within the limit 10")
    lays = _own(_case("spec.compare-after-layoffs"))  # the defender lays off 9C
    assert check_case(lays, CERTS) == []
    kept = copy.deepcopy(lays)
    kept["expect"]["layoffs"] = []
    _rejected(kept, "do not leave the defender's least deadwood")
    sets = copy.deepcopy(lays)
    sets["expect"]["best_plays"][0]["layoff_sets"] = [[]]
    _rejected(sets, "best_plays: the layoff sets")
    legal = _own(_case("spec.best-play-no-legal-knock"))
    assert check_case(legal, CERTS) == []
    legal["expect"] = {"outcome": "knock"}
    _rejected(legal, "ruled legal, but the knocker's least deadwood")
    gin = _own(_case("spec.gin-no-layoffs-pagat"))
    assert check_case(gin, CERTS) == []
    gin_points = copy.deepcopy(gin)
    gin_points["expect"]["points"]["knocker"] -= 8  # gin bonus without the defender's deadwood
    _rejected(gin_points, "chapter 9 gives {'knocker': 28, 'defender': 0}")
    gin["expect"]["outcome"] = "knock"
    _rejected(gin, "the case expects outcome knock, the certified deadwood gives gin")
    eleven = _own(_case("q.adjudicate.eleven-cards.serbian-online"))  # the knocker discards QD
    assert check_case(eleven, CERTS) == []
    eleven["expect"]["deadwood"]["knocker"] = 15
    _rejected(eleven, "the case expects deadwood")
    given = _own(_case("spec.best-play-declared-runs"))  # the knocker's melds are given
    assert check_case(given, CERTS) == []
    given["expect"]["deadwood"] = {"knocker": 1, "defender": 3}
    _rejected(given, "the case expects deadwood")


def test_a_tampered_adjudicate_certificate_is_rejected() -> None:
    case = _own(_case("spec.chain-forbidden-ruling"))
    key = answer_key(case["id"], case["profile"])
    good = CERTS[key]
    other = next(k for k, c in sorted(CERTS.items()) if k.startswith("showdown|best") and k != good["showdown"])
    moved = copy.deepcopy(good)
    moved["showdown"] = other
    _rejected(case, "is not the best play of these hands", {**CERTS, key: moved})
    least = copy.deepcopy(good)
    least["knocker_least"] = next(k for k in sorted(CERTS) if k.startswith("deadwood|"))
    _rejected(case, "is not the deadwood question of", {**CERTS, key: least})
    discard = copy.deepcopy(good)
    discard["discard"] = "2C"
    _rejected(case, "is not a card of the knocker's eleven", {**CERTS, key: discard})
    table = copy.deepcopy(CERTS[good["showdown"]])  # the showdown's own numbers
    table["deadwood"]["defender"] += 1
    _rejected(case, "does not stand: deadwood.defender", {**CERTS, good["showdown"]: table})
    unknown = copy.deepcopy(good)
    unknown["extra"] = 1
    _rejected(case, "unknown field 'extra'", {**CERTS, key: unknown})
    del_cert = dict(CERTS)
    del del_cert[key]
    _rejected(case, "no certificate", del_cert)

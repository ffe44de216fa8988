"""An independent checker of deadwood certificates (FORMAL.CERTIFICATE, "The lower-bound proof").

This file uses nothing of ginspec (only the standard library) and no solver: it reads the
meld rules as chapter 2 states them and checks a certificate's numbers by counting. It is meant to
be read in one sitting; ``conformance/examples/node/check-certificate.mjs`` is the same checker in
JavaScript. It checks:

1. the witness: every meld is a set (3 or 4 cards of one rank) or a run (3 or more cards of one
   suit at adjacent positions of the rank line), the melds are disjoint and made of the kept
   cards, the deadwood cards are exactly the other kept cards, and their value is the optimum;
2. the lower bound: the certificate lists one *case* per way of choosing the set cards (for each
   rank held 3 or 4 times: no set, all its cards, or, with 4, any 3). The checker makes the list
   itself and requires the same list. For each case it computes, by trying every subset, the
   least deadwood of each suit's remaining cards when only runs may cover them ("run deadwood"),
   and after the best discard from that suit; the case's bound must not exceed those, and the
   least bound over the cases must reach the optimum;
3. the verdicts: ``outcome`` against ``claim``; ``witness.deadwood`` and ``unsat_below`` equal to
   ``optimum``; after a discard ``gin``, ``can_knock`` against ``knock_limit`` and ``big_gin``,
   which a certificate carries exactly when the optimum after the discard is 0 (all eleven cards in
   melds leave no deadwood after some discard, so big gin with any other optimum is false on its
   face) and whose proof is checked whether it says true or false.

Before any of that it checks the certificate's shape (:func:`shape_problem`): a known
``question``, the fields that question has and no other, each of its type (integers are integers,
Booleans Booleans, cards canonical), the rules within chapter 2's range. ``encoding`` and
``solver`` are read for their type only: they name the run that made the proof, which this
checker does not use.

Why the bound is sound: in any arrangement the set cards of one rank are none or one set (two
disjoint sets would need 6 cards of a rank), so the arrangement's set cards are one of the cases;
its runs lie in the suits' remaining cards and cover at most what the best runs cover in each suit,
so its deadwood is at least the sum of the run deadwood. After a discard from suit q, suit q's part
is at least its run deadwood after the best discard from it.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
Problem = str | None


def parse_card(text: Any) -> tuple[int, int]:
    """``'7H'`` -> (rank 6, suit 2); raises ValueError for anything else."""
    if not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return RANKS.index(text[0]), SUITS.index(text[1])


def value(rank: int, rules: dict[str, Any]) -> int:
    """Deadwood value (CARD.VALUE): ace ``ace_value``, 2-9 their pips, ten and court cards 10."""
    return int(rules["ace_value"]) if rank == 0 else min(rank + 1, 10)


def _stretches_ok(positions: list[int], size: int, circle: bool) -> bool:
    """Do these distinct positions split into maximal stretches of 3 or more adjacent positions?"""
    held = set(positions)
    if circle and len(held) == size:
        return True
    starts = [p for p in held if (p - 1) % size not in held] if circle else \
        [p for p in held if p - 1 not in held]
    for start in starts:
        length = 0
        while (start + length) % size in held if circle else start + length in held:
            length += 1
        if length < 3:
            return False
    return True


def is_run_cover(ranks: list[int], rules: dict[str, Any]) -> bool:
    """Can these ranks of one suit be split into disjoint runs (MELD.RUN)? The empty set can."""
    if rules["wraparound_runs"]:
        return _stretches_ok(ranks, 13, circle=True)
    if rules["ace_high_runs"] and 0 in ranks:  # the ace stands below the two or above the king
        high = [13 if r == 0 else r for r in ranks]
        return _stretches_ok(ranks, 14, False) or _stretches_ok(high, 14, False)
    return _stretches_ok(ranks, 14, circle=False)


def run_deadwood(ranks: list[int], rules: dict[str, Any]) -> int:
    """Least deadwood of one suit's cards covered by runs only: every subset is tried."""
    total = sum(value(r, rules) for r in ranks)
    best = total
    for k in range(3, len(ranks) + 1):
        for sub in combinations(ranks, k):
            if is_run_cover(list(sub), rules):
                best = min(best, total - sum(value(r, rules) for r in sub))
    return best


def is_meld(cards: list[tuple[int, int]], rules: dict[str, Any]) -> bool:
    """A set (MELD.SET) or a run (MELD.RUN, MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP)."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if len({r for r, _ in cards}) == 1:
        return len(cards) <= 4
    if len({s for _, s in cards}) != 1:
        return False
    return _one_run([r for r, _ in cards], rules)


def _one_run(ranks: list[int], rules: dict[str, Any]) -> bool:
    """The ranks are one run, not several: some placement has no gap (or one gap on the circle)."""
    held = set(ranks)
    if rules["wraparound_runs"]:
        gaps = [p for p in range(13) if p not in held and (p + 1) % 13 in held]
        return len(gaps) <= 1
    lines = [sorted(ranks)]
    if rules["ace_high_runs"] and 0 in held:
        lines.append(sorted(13 if r == 0 else r for r in ranks))
    return any(line[-1] - line[0] + 1 == len(line) for line in lines)


def set_choices(cards: list[tuple[int, int]]) -> list[frozenset[frozenset[tuple[int, int]]]]:
    """Every way to choose the set cards: per rank held 3+ times none, all, or any 3 of 4."""
    per_rank = []
    for rank in range(13):
        held = [c for c in cards if c[0] == rank]
        if len(held) >= 3:
            options = [frozenset(), frozenset(held)]
            if len(held) == 4:
                options += [frozenset(t) for t in combinations(held, 3)]
            per_rank.append(options)
    return [frozenset(s for s in pick if s) for pick in product(*per_rank)]


QUESTIONS = ("deadwood", "deadwood-after-discard")
OUTCOMES = ("proved", "claim-too-high", "claim-too-low")
FIELDS = ("hand", "rules", "question", "claim", "outcome", "optimum", "witness", "unsat_below",
          "encoding", "lower_bound", "solver")
AFTER_FIELDS = ("gin", "knock_limit", "can_knock", "big_gin", "big_gin_proof")


def check(cert: Any) -> Problem:
    """The first problem found in a certificate, or None when it stands."""
    try:
        return shape_problem(cert) or _check(cert)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return f"malformed certificate: {type(exc).__name__} {exc}"


def _is_int(x: Any, low: int = 0, high: int | None = None) -> bool:
    return type(x) is int and x >= low and (high is None or x <= high)


def _is_card(x: Any) -> bool:
    return isinstance(x, str) and len(x) == 2 and x[0] in RANKS and x[1] in SUITS


def _cards_problem(x: Any, where: str) -> Problem:
    if not isinstance(x, list) or not all(_is_card(c) for c in x):
        return f"{where}: not a list of cards"
    return f"{where}: a card appears twice" if len(set(x)) != len(x) else None


def _melds_problem(x: Any, where: str) -> Problem:
    if not isinstance(x, list):
        return f"{where}: not a list of melds"
    for i, meld in enumerate(x):
        problem = _cards_problem(meld, f"{where}[{i}]")
        if problem:
            return problem
    return _cards_problem([c for meld in x for c in meld], where)


def _fields_problem(x: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> Problem:
    """``x`` is an object with every required field and no field outside both lists."""
    if not isinstance(x, dict):
        return f"{where}: not an object"
    for name in required:
        if name not in x:
            return f"{where}.{name}: missing"
    for name in sorted(x):
        if name not in required and name not in optional:
            return f"{where}.{name}: unknown field"
    return None


def _bound_shape(b: Any, where: str, after: bool) -> Problem:
    if b is None:
        return None
    problem = _fields_problem(b, where, ("method", "cases"))
    if problem:
        return problem
    if b["method"] != "set-choices/suit-runs":
        return f"{where}.method: unknown method"
    if not isinstance(b["cases"], list) or not b["cases"]:
        return f"{where}.cases: not a non-empty list"
    keys = ("sets", "suits", "after_discard") if after else ("sets", "suits")
    for i, case in enumerate(b["cases"]):
        at = f"{where}.cases[{i}]"
        problem = _fields_problem(case, at, keys) or _melds_problem(case["sets"], f"{at}.sets")
        if problem:
            return problem
        for key in keys[1:]:
            numbers = case[key]
            if not isinstance(numbers, list) or len(numbers) != 4 or not all(
                    _is_int(n) or (key == "after_discard" and n is None) for n in numbers):
                return f"{at}.{key}: not a list of 4 numbers (one per suit)"
    return None


def shape_problem(cert: Any) -> Problem:
    """The first field that is missing, unknown or of the wrong type, or None."""
    if not isinstance(cert, dict):
        return "certificate: not an object"
    if cert.get("question") not in QUESTIONS:
        return "question: not one of deadwood, deadwood-after-discard"
    after = cert["question"] == "deadwood-after-discard"
    problem = _fields_problem(cert, "certificate", FIELDS + (("gin",) if after else ()),
                              AFTER_FIELDS if after else ())
    if problem:
        return problem
    if ("knock_limit" in cert) != ("can_knock" in cert):
        return "can_knock: comes with knock_limit, and only with it"
    if ("big_gin" in cert) != ("big_gin_proof" in cert):
        return "big_gin_proof: comes with big_gin, and only with it"
    problem = _cards_problem(cert["hand"], "hand") or _fields_problem(
        cert["rules"], "rules", ("ace_high_runs", "wraparound_runs", "ace_value"))
    if problem:
        return problem
    rules = cert["rules"]
    if type(rules["ace_high_runs"]) is not bool or type(rules["wraparound_runs"]) is not bool:
        return "rules: ace_high_runs and wraparound_runs are true or false"
    if rules["wraparound_runs"] and not rules["ace_high_runs"]:
        return "rules.wraparound_runs: needs ace_high_runs"
    if not _is_int(rules["ace_value"], 1, 15):
        return "rules.ace_value: not an integer from 1 to 15"
    for name in ("claim", "optimum", "unsat_below", "knock_limit"):
        if name in cert and not _is_int(cert[name]):
            return f"{name}: not an integer of at least 0"
    if cert["outcome"] not in OUTCOMES:
        return "outcome: not one of proved, claim-too-high, claim-too-low"
    w = cert["witness"]
    problem = _fields_problem(w, "witness", ("melds", "deadwood_cards", "deadwood", "discard", "checked_against")) \
        or _melds_problem(w["melds"], "witness.melds") or _cards_problem(w["deadwood_cards"], "witness.deadwood_cards")
    if problem:
        return problem
    if not _is_int(w["deadwood"]):
        return "witness.deadwood: not an integer of at least 0"
    if w["discard"] is not None and not _is_card(w["discard"]):
        return "witness.discard: not a card or null"
    if w["checked_against"] != "definition":
        return "witness.checked_against: not definition"
    if not isinstance(cert["encoding"], str):
        return "encoding: not a string"
    problem = _fields_problem(cert["solver"], "solver", ("name",), ("version", "checks", "seconds"))
    if problem:
        return problem
    s = cert["solver"]
    if not isinstance(s["name"], str) or not isinstance(s.get("version", ""), str) or not _is_int(s.get("checks", 0)) \
            or not (type(s.get("seconds", 0)) in (int, float) and s.get("seconds", 0) >= 0):
        return "solver: name and version are strings, checks and seconds numbers of at least 0"
    problem = _bound_shape(cert["lower_bound"], "lower_bound", after)
    if problem:
        return problem
    for name in ("gin", "can_knock", "big_gin"):
        if name in cert and type(cert[name]) is not bool:
            return f"{name}: not true or false"
    if "big_gin_proof" in cert:
        proof = cert["big_gin_proof"]
        problem = _fields_problem(proof, "big_gin_proof", (), ("melds", "lower_bound"))
        if problem:
            return problem
        if len(proof) != 1:
            return "big_gin_proof: holds either melds or a lower_bound"
        if "melds" in proof:
            return _melds_problem(proof["melds"], "big_gin_proof.melds")
        if proof["lower_bound"] is None:
            return "big_gin_proof.lower_bound: null"
        return _bound_shape(proof["lower_bound"], "big_gin_proof.lower_bound", False)
    return None


def _check(cert: dict[str, Any]) -> Problem:
    rules = cert["rules"]
    hand = [parse_card(c) for c in cert["hand"]]
    after = cert["question"] == "deadwood-after-discard"
    w = cert["witness"]
    discard = None if w["discard"] is None else parse_card(w["discard"])
    if after != (discard is not None) or (discard is not None and discard not in hand):
        return "witness.discard: does not fit the question"
    kept = [c for c in hand if c != discard]
    optimum = cert["optimum"]
    if w["deadwood"] != optimum:
        return f"witness.deadwood: {w['deadwood']}, but the optimum is {optimum}"
    if cert["unsat_below"] != optimum:
        return f"unsat_below: {cert['unsat_below']}, but the optimum is {optimum}"
    problem = check_arrangement(kept, w["melds"], w["deadwood_cards"], optimum, rules)
    if problem:
        return f"witness: {problem}"
    problem = check_bound(hand, cert["lower_bound"], optimum, after, rules)
    if problem:
        return f"lower_bound: {problem}"
    claim = cert["claim"]
    outcome = "proved" if claim == optimum else "claim-too-high" if claim > optimum else "claim-too-low"
    if cert["outcome"] != outcome:
        return f"outcome: {cert['outcome']}, but claim {claim} and optimum {optimum} make it {outcome}"
    if after:
        if cert["gin"] != (optimum == 0):
            return f"gin: {_bool_text(cert['gin'])}, but the optimum is {optimum}"
        if "knock_limit" in cert and cert["can_knock"] != (optimum <= cert["knock_limit"]):
            return (f"can_knock: {_bool_text(cert['can_knock'])}, but {optimum} against knock limit "
                    f"{cert['knock_limit']}")
        if ("big_gin" in cert) != (optimum == 0):
            return f"big_gin: {'present' if 'big_gin' in cert else 'missing'}, but the optimum is {optimum}"
        if optimum == 0:
            proof = cert["big_gin_proof"]
            if cert["big_gin"] != ("melds" in proof):
                return "big_gin_proof: melds prove big gin, a lower bound its absence"
            if cert["big_gin"]:
                problem = check_arrangement(hand, proof["melds"], [], 0, rules)
            else:
                problem = check_bound(hand, proof["lower_bound"], 1, False, rules)
            if problem:
                return f"big_gin_proof: {problem}"
    return None


def _bool_text(x: bool) -> str:
    return "true" if x else "false"


def check_arrangement(kept: list[tuple[int, int]], melds: list[list[str]], dead: list[str],
                      deadwood: int, rules: dict[str, Any]) -> Problem:
    """The melds are legal, disjoint, of the kept cards; the rest is ``dead`` worth ``deadwood``."""
    used: list[tuple[int, int]] = []
    for meld in melds:
        cards = [parse_card(c) for c in meld]
        if not is_meld(cards, rules):
            return f"not a meld: {' '.join(meld)}"
        if any(c not in kept or c in used for c in cards):
            return f"meld {' '.join(meld)} uses a card not kept or already used"
        used += cards
    rest = [c for c in kept if c not in used]
    listed = [parse_card(c) for c in dead]
    if sorted(listed) != sorted(rest):
        return "the deadwood cards are not the kept cards outside the melds"
    worth = sum(value(r, rules) for r, _ in rest)
    return None if worth == deadwood else f"the deadwood is worth {worth}, not {deadwood}"


def check_bound(hand: list[tuple[int, int]], bound: dict[str, Any] | None, target: int, after: bool,
                rules: dict[str, Any]) -> Problem:
    """Every arrangement (after any discard when ``after``) has deadwood >= ``target``."""
    if bound is None:
        return "no lower-bound proof (too many choices of set cards to list): only the Z3 proof"
    listed = {}
    for case in bound["cases"]:
        key = frozenset(frozenset(parse_card(c) for c in s) for s in case["sets"])
        if key in listed:
            return "a set choice is listed twice"
        listed[key] = case
    if set(listed) != set(set_choices(hand)):
        return "the cases are not exactly the possible choices of set cards"
    for i, (key, case) in enumerate(listed.items()):
        in_sets = {c for s in key for c in s}
        suits = [sorted(r for r, s in hand if s == q and (r, s) not in in_sets) for q in range(4)]
        for q, ranks in enumerate(suits):
            dead = run_deadwood(ranks, rules)
            if case["suits"][q] > dead:
                return f"case {i}: suit {SUITS[q]} has run deadwood {dead}, the case says {case['suits'][q]}"
        totals = [sum(case["suits"])]
        if after:
            totals = []
            for q, ranks in enumerate(suits):
                claimed = case["after_discard"][q]
                if not ranks:
                    if claimed is not None:
                        return f"case {i}: suit {SUITS[q]} has no card to discard, the case says {claimed}"
                    continue
                best = min(run_deadwood([r for r in ranks if r != x], rules) for x in ranks)
                if claimed is None or claimed > best:
                    shown = "null" if claimed is None else claimed
                    return f"case {i}: suit {SUITS[q]} after a discard is {best}, the case says {shown}"
                totals.append(sum(case["suits"]) - case["suits"][q] + claimed)
        if totals and min(totals) < target:
            return f"case {i} allows deadwood {min(totals)}, below {target}"
    return None

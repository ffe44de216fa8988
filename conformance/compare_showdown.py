"""Comparing answers to the showdown queries (``declaration``, ``layoff``, ``defence``,
``adjudicate``; protocol 2) with a case's expectations.

Where several answers are right every one is accepted: a best defence may lay off
other cards than the spec's example names, and a best declaration may use other melds, as long as
the result is the same (SHOWDOWN.BEST-PLAY, LAYOFF.TARGET). The judgement is data only: the
build records every right answer in the case (``layoff_sets``, ``best_plays``; see
:mod:`ginspec.conformance.generate.showdown_answers`), and an answer that is neither the
example's nor one of those is wrong. A case without them (a user's own) accepts the example's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginspec.conformance.mismatch import Mismatch, arrangement_key, canonical_cards, same


def check_showdown_query(
    what: str,
    query: Mapping[str, Any],
    expect: Mapping[str, Any],
    answer: Mapping[str, Any],
    *,
    codes: bool = True,
) -> Mismatch | None:
    if what == "declaration":
        bad = same("valid", expect["valid"], answer)
        if bad:
            return bad
        if expect["valid"] and "deadwood" in expect:
            return same("deadwood", expect["deadwood"], answer)
        if not expect["valid"] and "code" in expect and codes:
            return same("code", expect["code"], answer)
        return None
    if what == "layoff":
        got = canonical_cards(answer.get("layable"))
        want = sorted(canonical_cards(expect["layable"]) or [])
        if got is None or sorted(got) != want:
            return Mismatch("layable", want, answer.get("layable"), "any order")
        return None
    if what == "defence":
        bad = same("deadwood", expect["deadwood"], answer)
        if bad or "layoffs" not in expect:
            return bad
        return _check_layoffs(expect["layoffs"], answer.get("layoffs"),
                              expect.get("layoff_sets", ()), int(expect["deadwood"]))
    if what == "adjudicate":
        return _check_ruling(query, expect, answer)
    return Mismatch("query", what, None, "unknown query")


def _check_layoffs(want: Sequence[str], got: Any, accepted: Sequence[Sequence[str]],
                   deadwood: int) -> Mismatch | None:
    """The answered laid-off cards: the example's, or another set recorded as just as good."""
    cards = canonical_cards(got)
    expected = sorted(canonical_cards(list(want)) or [])
    if cards is None:
        return Mismatch("layoffs", expected, got, "a list of card tokens")
    if sorted(cards) == expected or sorted(cards) in [sorted(a) for a in accepted]:
        return None
    return Mismatch("layoffs", expected, cards,
                    f"not a set of cards the defender can lay off leaving {deadwood}"
                    + (f" (the {len(accepted)} that do are recorded in the case)"
                       if len(accepted) > 1 else ""))


def _check_ruling(
    query: Mapping[str, Any], expect: Mapping[str, Any], answer: Mapping[str, Any],
) -> Mismatch | None:
    illegal = "illegal_knock"  # whether the knock is legal at all comes before its deadwood
    if "outcome" in expect and (expect["outcome"] == illegal) != (answer.get("outcome") == illegal):
        return same("outcome", expect["outcome"], answer)
    for name in ("deadwood", "outcome", "points"):  # the outcome compares the deadwood
        if name in expect:
            bad = same(name, expect[name], answer)
            if bad:
                return bad
    if "declaration" not in expect and "layoffs" not in expect:
        return None
    plays = {_key(arrangement_key(list(p["declaration"]))): p
             for p in expect.get("best_plays", ())}
    default = next(iter(plays), None)
    got = arrangement_key(answer.get("declaration"))
    want = arrangement_key(list(expect["declaration"])) if "declaration" in expect else None
    if "declaration" in expect:
        if got is None:
            return Mismatch("declaration", want, answer.get("declaration"), "lists of card tokens")
        if got != want and _key(got) not in plays:
            return Mismatch("declaration", want, got,
                            "not a declaration that gives this ruling with best play"
                            if plays else "not the example's (the case records no other)")
        chosen: str | None = _key(got)
    elif "knocker_melds" in query or got is None:
        chosen = default  # the declaration the query fixes, else best play's
    elif _key(got) in plays or not plays:  # a case of the user's own records no others
        chosen = _key(got)
    else:
        return Mismatch("declaration", plays[default]["declaration"] if default else None, got,
                        "not a declaration that gives this ruling with best play")
    dead = expect.get("deadwood", {}).get("defender")
    if "layoffs" not in expect or dead is None:
        return None
    play = plays.get(chosen or "", {})
    return _check_layoffs(expect["layoffs"], answer.get("layoffs"), play.get("layoff_sets", ()),
                          int(dead))


def _key(declaration: list[list[str]] | None) -> str:
    """One declaration (an :func:`arrangement_key`) as a dictionary key."""
    return "" if declaration is None else "/".join(" ".join(m) for m in declaration)

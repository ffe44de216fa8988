"""Spec examples about scoring and the showdown as query cases (protocol 2).

The kinds ``score``, ``match``, ``next-dealer`` (chapters 9 and 11) and ``declaration``,
``layoff``, ``defence``, ``adjudicate`` (chapter 13) each become one ``query`` case asking the
same question; the expected answer is the example's, as written in the spec. The example's
clause *decides* the answer (an engine that ignores the rule gets it wrong), so each case counts
for that clause both as obeying it and as deciding by it in the coverage report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ginspec.conformance.cases import Case
from ginspec.conformance.generate.common import card_list, text_cards
from ginspec.spec.cards import card_str, parse_card
from ginspec.spec.clauses import Example, registry


def _base(ex: Example, what: str, description: str) -> dict[str, Any]:
    d = ex.data
    clause = registry()[ex.clause]
    return {
        "id": f"spec.{ex.id}",
        "kind": "query",
        "origin": "spec-example",
        "description": description,
        "clauses": [ex.clause],
        "decides": [ex.clause],
        "profile": d.get("profile"),
        "overrides": dict(d.get("overrides", {})) | dict(d.get("params", {})),
        "requires": [f"query.{what}"],
        "source": {"spec": f"{clause.path}#{ex.id}", "example": ex.id},
    }


def _cards(value: Any) -> list[str]:
    return text_cards(card_list(value))


def _melds(groups: Any) -> list[list[str]]:
    """Meld strings (a list, or one string with ``/`` between melds) as token lists."""
    if isinstance(groups, str):
        groups = groups.split("/")
    return [_cards(g) for g in groups]


def _upcard(query: dict[str, Any], d: dict[str, Any]) -> None:
    if "upcard" in d:
        query["upcard"] = card_str(parse_card(str(d["upcard"])))


def _hand_item(item: Any) -> list[Any]:
    return ["void"] if list(item) == ["void"] else [int(item[0]), str(item[1]), int(item[2]),
                                                      int(item[3])]


def _score(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query: dict[str, Any] = {"what": "score", "outcome": d["outcome"],
                             "knocker_deadwood": int(d["knocker_deadwood"]),
                             "defender_deadwood": int(d["defender_deadwood"])}
    _upcard(query, d)
    expect: dict[str, Any] = {"error": True} if "error" in d else {
        k: d[k] for k in ("points", "winner", "undercut", "boxes") if k in d}
    text = (f"the score of a {d['outcome']} with deadwood {d['knocker_deadwood']} against "
            f"{d['defender_deadwood']} under {d['profile']}")
    return [Case.make(**_base(ex, "score", text), query=query, expect=expect)]


def _match(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query: dict[str, Any] = {"what": "match", "hands": [_hand_item(h) for h in d["hands"]]}
    _upcard(query, d)
    if d.get("over") is False:
        expect: dict[str, Any] = {"over": False}
    else:
        # The spec's check makes sure the game ends with the example's last hand, not before.
        expect = {"over": True, "hands": len(d["hands"])}
        expect.update({k: d[k] for k in ("totals", "winner", "shutout", "settlement", "payee")
                       if k in d})
    text = f"the match totals after {len(d['hands'])} hands under {d['profile']}"
    return [Case.make(**_base(ex, "match", text), query=query, expect=expect)]


def _next_dealer(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query = {"what": "next-dealer", "dealer": int(d["dealer"]), "hand": _hand_item(d["hand"])}
    text = f"who deals after {query['hand']} dealt by player {d['dealer']} under {d['profile']}"
    return [Case.make(**_base(ex, "next-dealer", text), query=query,
                      expect={"next": int(d["next"])})]


def _declaration(ex: Example) -> list[Case]:
    d = dict(ex.data)
    melds = _melds(d["melds"])
    query = {"what": "declaration", "cards": _cards(d["hand"]), "melds": melds}
    expect: dict[str, Any] = {"valid": bool(d["valid"])}
    for key in ("deadwood", "code"):
        if key in d:
            expect[key] = d[key]
    text = (f"whether {' / '.join(' '.join(m) for m in melds)} is a legal declaration "
            f"of {' '.join(_cards(d['hand']))}")
    return [Case.make(**_base(ex, "declaration", text), query=query, expect=expect)]


def _layoff(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query: dict[str, Any] = {"what": "layoff", "table": _melds(d["table"]),
                             "cards": _cards(d["cards"])}
    if d.get("laid"):
        query["laid"] = [str(x) for x in d["laid"]]
    if d.get("defender_melds"):
        query["defender_melds"] = _melds(d["defender_melds"])
    if d.get("side", "defender") != "defender":
        query["side"] = d["side"]
    if d.get("gin"):
        query["gin"] = True
    text = f"which of {' '.join(query['cards'])} may be laid off"
    return [Case.make(**_base(ex, "layoff", text), query=query,
                      expect={"layable": _cards(" ".join(d["layable"]))})]


def _defence(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query: dict[str, Any] = {"what": "defence", "knocker_melds": _melds(d["knocker_melds"]),
                             "cards": _cards(d["defender"])}
    if d.get("gin"):
        query["gin"] = True
    expect: dict[str, Any] = {"deadwood": int(d["deadwood"])}
    if "layoffs" in d:
        expect["layoffs"] = _cards(" ".join(d["layoffs"]))
    text = f"the defender's best spread of {' '.join(query['cards'])}"
    return [Case.make(**_base(ex, "defence", text), query=query, expect=expect)]


def _adjudicate(ex: Example) -> list[Case]:
    d = dict(ex.data)
    query: dict[str, Any] = {"what": "adjudicate", "knocker": _cards(d["knocker"]),
                             "defender": _cards(d["defender"])}
    if "knocker_melds" in d:
        query["knocker_melds"] = _melds(d["knocker_melds"])
    _upcard(query, d)
    expect: dict[str, Any] = {"outcome": d["outcome"]}
    for key in ("deadwood", "points"):
        if key in d:
            expect[key] = dict(d[key])
    if "declaration" in d:
        expect["declaration"] = _melds(d["declaration"])
    if "layoffs" in d:
        expect["layoffs"] = _cards(" ".join(d["layoffs"]))
    text = f"the ruling on a knock with {' '.join(query['knocker'])} under {d['profile']}"
    return [Case.make(**_base(ex, "adjudicate", text), query=query, expect=expect)]


CONVERTERS: Final[dict[str, Callable[[Example], list[Case]]]] = {
    "score": _score,
    "match": _match,
    "next-dealer": _next_dealer,
    "declaration": _declaration,
    "layoff": _layoff,
    "defence": _defence,
    "adjudicate": _adjudicate,
}
"""The converters of this module, merged into ``examples.CONVERTERS``."""

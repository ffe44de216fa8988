"""``ginspec conform --smoke``: does the adapter speak the protocol at all?

The smoke check asks one question of each kind the adapter declared and checks only the *shape*
of each answer (types and required fields), never whether it is right. A failure here means a
broken adapter (exit 2), not a non-conforming engine; a pass means the full run's failures are
about the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from ginspec.conformance.adapters.base import Adapter, AdapterFault, Hello, Unsupported
from ginspec.conformance.cases.model import CAPABILITIES

SMOKE_QUERIES: dict[str, tuple[dict[str, Any], dict[str, type]]] = {
    "card": ({"token": "TS"}, {"canonical": str}),
    "meld": ({"cards": ["7C", "7D", "7H"]}, {"valid": bool}),
    "deadwood": ({"cards": ["7C", "7D", "7H", "2S", "KD"]}, {"deadwood": int}),
    "melds-count": ({"cards": ["7C", "7D", "7H"]}, {"count": int}),
    "arrangements": ({"cards": ["7C", "7D", "7H"]}, {"count": int}),
    "arrangement": ({"cards": ["7C", "7D", "7H"], "melds": [["7C", "7D", "7H"]]}, {"valid": bool}),
    "knock": (
        {"cards": ["AC", "2C", "3C", "4D", "4H", "4S", "9D", "9H", "9S", "KC", "QC"]},
        {"deadwood": int, "best_discards": list, "can_knock": bool, "gin": bool},
    ),
    "score": ({"outcome": "knock", "knocker_deadwood": 4, "defender_deadwood": 20},
              {"points": list}),
    "match": ({"hands": [[0, "knock", 4, 20]]}, {"over": bool}),
    "next-dealer": ({"dealer": 0, "hand": [1, "knock", 2, 9]}, {"next": int}),
    "declaration": ({"cards": ["7C", "7D", "7H", "AC", "2C", "3C", "4D", "5D", "6D", "2H"],
                     "melds": [["7C", "7D", "7H"], ["AC", "2C", "3C"], ["4D", "5D", "6D"]]},
                    {"valid": bool}),
    "layoff": ({"table": [["5S", "6S", "7S"]], "cards": ["4S", "9S"]}, {"layable": list}),
    "defence": ({"knocker_melds": [["5S", "6S", "7S"]],
                 "cards": ["4S", "8D", "8H", "8C", "AC", "2D", "3H", "9C", "TD", "KH"]},
                {"deadwood": int, "layoffs": list}),
    "adjudicate": ({"knocker": ["7C", "7D", "7H", "AC", "2C", "3C", "4D", "5D", "6D", "2H"],
                    "defender": ["4S", "8D", "8H", "8C", "AS", "2D", "3H", "9C", "TD", "KH"]},
                   {"outcome": str}),
}
PROFILE_QUERIES = frozenset({"score", "match", "next-dealer", "adjudicate"})
"""Queries that are asked under a profile (the smoke check uses the adapter's first)."""

SMOKE_SYSTEM_QUERIES: dict[str, tuple[str, dict[str, Any], dict[str, type]]] = {
    "system": ("partnership", {}, {"valid": bool}),
    "table-penalty": ("serbian-online", {"knocker": 0, "deadwood": [2, 22, 26]},
                      {"outcome": str, "penalties": list}),
    "prize": ("serbian-online", {"pool": 100, "totals": [0, 10, 60]}, {"shares": list}),
    "table-game": ("serbian-online", {"hands": [[0, 20, 24]]}, {"totals": list, "over": bool}),
    "table-adjudicate": ("serbian-online", {
        "hands": [["7H", "8H", "9H", "KC", "KD", "KS", "2C"],
                  ["6H", "4C", "4D", "4S", "TS", "JD", "2D"],
                  ["5H", "3S", "3D", "3H", "QS", "QH", "AC"]], "knocker": 0, "discard": "3C"},
        {"outcome": str}),
    "three-rotation": ("three-player", {"hands": [[2, 1, 10]]},
                       {"seatings": list, "scores": list, "over": bool}),
    "partnership": ("partnership", {"deals": [[[0, 1, 30], [3, 2, 29]]]},
                    {"netted": list, "totals": list, "over": bool}),
    "hollywood": ("hollywood", {"hands": [[0, 25]]}, {"games": list, "over": bool}),
}
"""One question of each system query (chapter 14), under the profile it is asked with."""

SMOKE_DEAL = {"dealer": 0, "deck": [r + s for s in "CDHS" for r in "A23456789TJQK"]}


def smoke(adapter: Adapter, hello: Hello, out: TextIO) -> int:
    """Run the smoke check; 0 when the adapter is well-formed, 2 when it is broken."""
    problems: list[str] = []
    checks = 0
    unknown = [c for c in hello.capabilities if c not in CAPABILITIES]
    if unknown:
        problems.append(f"hello: unknown capabilities {unknown}")

    def attempt(label: str, call: Callable[[], Any], shape: Callable[[Any], str | None]) -> Any:
        nonlocal checks
        checks += 1
        try:
            value = call()
        except Unsupported:  # a well-formed answer: the adapter declines this question
            return None
        except AdapterFault as fault:
            problems.append(f"{label}: {fault.kind}: {fault}")
            adapter.restart()
            return None
        except Exception as exc:
            problems.append(f"{label}: {type(exc).__name__}: {exc}")
            return None
        bad = shape(value)
        if bad:
            problems.append(f"{label}: {bad}")
        return value

    for what, (args, fields) in SMOKE_QUERIES.items():
        if f"query.{what}" not in hello.capabilities:
            continue
        profile = hello.profiles[0] if what in PROFILE_QUERIES and hello.profiles else None
        if what in PROFILE_QUERIES and profile is None:
            problems.append(f"query {what}: declared, but no profile to ask it under")
            continue

        def shape(answer: Any, fields: dict[str, type] = fields) -> str | None:
            if not isinstance(answer, dict):
                return f"answer is {type(answer).__name__}, not an object"
            for name, typ in fields.items():
                if not isinstance(answer.get(name), typ):
                    return f"answer field {name!r} should be {typ.__name__}: {answer.get(name)!r}"
            return None

        def ask(w: str = what, a: dict[str, Any] = args, p: str | None = profile) -> Any:
            return adapter.query(w, a, p, {})

        attempt(f"query {what}", ask, shape)
    for what, (profile, args, fields) in SMOKE_SYSTEM_QUERIES.items():
        if f"query.{what}" not in hello.capabilities:
            continue

        def system_shape(answer: Any, fields: dict[str, type] = fields) -> str | None:
            if not isinstance(answer, dict):
                return f"answer is {type(answer).__name__}, not an object"
            bad = [n for n, typ in fields.items() if not isinstance(answer.get(n), typ)]
            return f"answer fields {bad} missing or of the wrong type: {answer!r}" if bad else None

        def ask_system(w: str = what, p: str = profile, a: dict[str, Any] = args) -> Any:
            return adapter.query(w, a, p, {})

        attempt(f"query {what}", ask_system, system_shape)
    if "hand" in hello.capabilities and hello.profiles:
        profile = hello.profiles[0]
        attempt("new_hand", lambda: adapter.new_hand(profile, {}, SMOKE_DEAL), lambda _: None)
        obs = attempt(
            "observe",
            adapter.observe,
            lambda o: (
                None
                if isinstance(o, dict) and "to_act" in o and "phase" in o
                else f"observation needs phase and to_act: {o!r}"
            ),
        )
        legal: Any = None
        if "legal-actions" in hello.capabilities:
            legal = attempt(
                "legal_actions",
                adapter.legal_actions,
                lambda a: (
                    None
                    if isinstance(a, list) and a and all(isinstance(x, str) for x in a)
                    else f"expected a non-empty list of action strings: {a!r}"
                ),
            )
        if isinstance(obs, dict) and obs.get("to_act") in (0, 1):
            action = legal[0] if legal else "draw-stock"
            attempt(
                f"apply {action}",
                lambda: adapter.apply(int(obs["to_act"]), action),
                lambda v: (
                    None
                    if isinstance(getattr(v, "accepted", None), bool)
                    else f"not a verdict: {v!r}"
                ),
            )
        attempt(
            "result",
            adapter.result,
            lambda r: None if r is None or isinstance(r, dict) else f"not an object: {r!r}",
        )
    tables = [c for c in hello.capabilities if c.startswith("table-game.")]
    if tables and "serbian-online" in hello.profiles:
        deal = {**SMOKE_DEAL, "players": int(tables[0].rsplit(".", 1)[1]), "dealer": 0}
        attempt("new_table_hand", lambda: adapter.new_table_hand("serbian-online", {}, deal),
                lambda _: None)
        attempt("observe (table)", adapter.observe, lambda o: (
            None if isinstance(o, dict) and o.get("to_act") == 1 and o.get("phase") == "draw"
            else f"a table hand dealt by seat 0 starts with seat 1 to draw: {o!r}"))
    print(
        f"adapter {hello.name} {hello.version}: protocol {hello.protocol}, "
        f"{len(hello.profiles)} profile(s), {len(hello.capabilities)} capabilities",
        file=out,
    )
    for p in problems:
        print(f"BROKEN: {p}", file=out)
    if problems:
        print(
            f"smoke: the adapter is broken ({len(problems)} of {checks} checks): fix it before "
            "reading conformance results",
            file=out,
        )
        return 2
    print(
        f"smoke: {checks} checks passed: the adapter speaks the protocol; run without --smoke "
        "to check the rules",
        file=out,
    )
    return 0

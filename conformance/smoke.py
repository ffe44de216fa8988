"""``ginspec conform --smoke``: does the adapter speak the protocol at all?

The smoke check asks one question of each kind the adapter declared and checks only the *shape*
of each answer (types and required fields), never whether it is right. A failure here means a
broken adapter (exit 2), not a non-conforming engine; a pass means the full run's failures are
about the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TextIO

from ginspec.conformance.adapters.base import Adapter, AdapterFault, Hello, Unsupported
from ginspec.conformance.cases.model import CAPABILITIES
from ginspec.conformance.cases.query_kinds import QUERY_KINDS
from ginspec.conformance.cases.unsent_refusals import FORFEIT

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

    # the rules to play and ask under: the rules declared by value, else the first profile
    mine: tuple[str, dict[str, Any]] | None = \
        (hello.rules.name, dict(hello.rules.overrides)) if hello.rules is not None else \
        (hello.profiles[0], {}) if hello.profiles else None
    checked: list[str] = []
    for kind in QUERY_KINDS.values():
        if kind.capability not in hello.capabilities:
            continue
        profile = kind.smoke_profile or kind.default_profile
        values: dict[str, Any] = {}
        if kind.under_profile:
            if mine is None:
                problems.append(f"query {kind.name}: declared, but no profile to ask it under")
                continue
            profile, values = mine
        checked.append(f"query {kind.name}")

        def shape(answer: Any, fields: Mapping[str, type] = kind.smoke_shape) -> str | None:
            if not isinstance(answer, dict):
                return f"answer is {type(answer).__name__}, not an object"
            for name, typ in fields.items():
                if not isinstance(answer.get(name), typ):
                    return f"answer field {name!r} should be {typ.__name__}: {answer.get(name)!r}"
            return None

        def ask(w: str = kind.name, a: Mapping[str, Any] = kind.smoke_args,
                p: str | None = profile, v: Mapping[str, Any] = values) -> Any:
            return adapter.query(w, dict(a), p, dict(v))

        attempt(f"query {kind.name}", ask, shape)
    if "hand" in hello.capabilities and mine is not None:
        played, overrides = mine
        checked.append(f"a hand under {_rules_text(hello)}")
        attempt("new_hand", lambda: adapter.new_hand(played, overrides, SMOKE_DEAL),
                lambda _: None)
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
        if isinstance(obs, dict) and obs.get("to_act") in (0, 1) and \
                (legal or FORFEIT not in hello.capabilities):  # never an illegal try for it
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
        + (f"rules {_rules_text(hello)} by value" if hello.rules is not None
           else f"{len(hello.profiles)} profile(s)")
        + f", {len(hello.capabilities)} capabilities",
        file=out,
    )
    if checked:
        print(f"smoke: checked {', '.join(checked)}", file=out)
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


def _rules_text(hello: Hello) -> str:
    """The rules the smoke check plays: ``profile`` or ``profile + name=value, ...``."""
    if hello.rules is None:
        return hello.profiles[0]
    values = ", ".join(f"{k}={v}" for k, v in sorted(hello.rules.overrides.items()))
    return hello.rules.name + (f" + {values}" if values else "")

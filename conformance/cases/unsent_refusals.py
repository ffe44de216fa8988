"""How a case's refused steps are judged for an engine that does not refuse illegal actions.

Some engines never refuse a move: an illegal one forfeits the game (EAAI's framework), raises, or
leaves the engine unusable. Such an engine declares the capability ``illegal.forfeit`` and is
sent no illegal action at all (PROTOCOL.md, "Engines that forfeit"). Each refused step of a case
is then asked without sending it, from what the position shows (ACTION.REJECTION):

* ``NOT_YOUR_TURN``: the observation's ``to_act`` is another party (ACTION.TURN-ORDER);
* ``HAND_OVER``: the observation's phase is ``over`` (ACTION.PHASE);
* any other code: the action is not among the engine's legal actions (needs ``legal-actions``).
  By the refusal order of ACTION.REJECTION every such code is checked after the turn, so the
  player is the one to act and the legal actions listed are his;
* ``MALFORMED_ACTION``, ``RESHUFFLE_NOT_A_PERMUTATION`` and ``WRONG_DEALER`` can be asked only
  by sending the action (text outside the grammar; a referee's order, which no list of legal
  actions spells out; the deal of a match's next hand), so a case holding one is skipped.

The step is not sent, so the engine's position stays as it was, as after a refusal; the case's
later steps and checkpoints are played and compared as usual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ginspec.conformance.mismatch import Mismatch

FORFEIT: Final = "illegal.forfeit"
"""The capability of an engine that is sent no illegal action."""

SENT_ONLY: Final = ("MALFORMED_ACTION", "RESHUFFLE_NOT_A_PERMUTATION", "WRONG_DEALER")
"""Refusal codes a position cannot show: asked only by sending the action."""

BY_OBSERVATION: Final = ("NOT_YOUR_TURN", "HAND_OVER")
"""Refusal codes the observation alone shows (``to_act``, ``phase``)."""


def refused_code(step: Mapping[str, Any]) -> str | None:
    """The code a step expects to be refused with (None for an accepted step)."""
    expect = step.get("expect")
    return str(expect["rejected"]) if isinstance(expect, Mapping) else None


def unsent_needs(steps: Sequence[Mapping[str, Any]], capabilities: Sequence[str]
                 ) -> tuple[list[str], str | None]:
    """For an engine declaring ``illegal.forfeit``: the capabilities it lacks to be asked the
    refused ``steps`` without them being sent, and why none of them can be (a step whose code
    only sending asks), or ``([], None)`` when every refused step can be asked."""
    if FORFEIT not in capabilities:
        return [], None
    lacking: list[str] = []
    for i, step in enumerate(steps):
        code = refused_code(step)
        if code is None or code in BY_OBSERVATION:
            continue
        if code in SENT_ONLY or step.get("player") == "chance":
            return [], (f"{FORFEIT}: step {i} ({step.get('action')!s}, refused {code}) can be "
                        "asked only by sending it")
        if "legal-actions" not in capabilities and "legal-actions" not in lacking:
            lacking.append("legal-actions")
    return lacking, None


def check_unsent(step: Mapping[str, Any], observation: Mapping[str, Any] | None,
                 legal: Sequence[str] | None) -> Mismatch | None:
    """Whether the position shows the refusal ``step`` expects: for ``NOT_YOUR_TURN`` and
    ``HAND_OVER`` from ``observation``, else from the ``legal`` actions (see the module)."""
    code = refused_code(step)
    action = str(step.get("action"))
    if code == "NOT_YOUR_TURN":
        assert observation is not None
        if observation.get("to_act") == step.get("player"):
            return Mismatch("to_act", f"not {step.get('player')}", observation.get("to_act"),
                            f"{action!r} must be refused NOT_YOUR_TURN; the engine shows this "
                            "player to act")
        return None
    if code == "HAND_OVER":
        assert observation is not None
        if observation.get("phase") != "over":
            return Mismatch("phase", "over", observation.get("phase"),
                            f"{action!r} must be refused HAND_OVER")
        return None
    assert legal is not None
    if action in legal:
        return Mismatch("verdict", {"rejected": code}, "listed among the legal actions",
                        f"{action!r} must be refused {code}; the engine lists it as legal")
    return None

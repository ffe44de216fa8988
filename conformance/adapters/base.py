"""The adapter interface: the abstract base class an implementation under test implements.

An adapter wraps one gin rummy engine. The runner calls :meth:`Adapter.hello` once, then per case
either :meth:`Adapter.query` (meld, deadwood and knock questions) or :meth:`Adapter.new_hand` /
:meth:`Adapter.new_match` followed by :meth:`Adapter.apply`, :meth:`Adapter.legal_actions`,
:meth:`Adapter.observe` and :meth:`Adapter.result`. The same calls exist as the JSON-lines
protocol (``conformance/PROTOCOL.md``);
:class:`~ginspec.conformance.adapters.subprocess_adapter.CommandAdapter`
speaks it to a subprocess and ``ginspec serve`` serves any adapter over it.

Vocabulary: players are 0 and 1; cards are canonical tokens (``TS``, ``7H``); actions are the
strings of ACTION.GRAMMAR (``draw-stock``, ``discard 7H``, ``knock 2C``, ``declare 7D 7H 7S``,
``layoff 9S to 8S``, ``done`` ...); rejection codes are those of ACTION.REJECTION.

Engines differ in how they work, and say so through capabilities (see
:data:`ginspec.conformance.cases.CAPABILITIES`): an engine that melds automatically does not
declare ``melding.explicit`` and is never sent a case that needs ``declare`` actions; one that
lays off automatically does not declare ``layoff.explicit``; one that plays single hands only does
not declare ``match``. The runner never sends a case whose profile, capabilities or parameter
overrides the adapter did not declare.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ginspec.conformance.adapters.rules_file import rules_from_json, rules_json, rules_reason
from ginspec.conformance.versions import PROTOCOL_VERSION
from ginspec.spec.errors import GinspecError
from ginspec.spec.profiles import Ruleset

JSONObject = dict[str, Any]


class AdapterError(GinspecError):
    """The adapter cannot be set up at all (bad SPEC, import error, failed hello): exit 2."""


class AdapterFault(Exception):
    """The adapter misbehaved on one case (crash, timeout, garbage, protocol violation).

    Recorded as an adapter error on that case; the runner restarts the adapter and goes on.
    """

    def __init__(self, message: str, *, kind: str = "error", stderr: str = ""):
        super().__init__(message)
        self.kind = kind
        self.stderr = stderr


class Unsupported(Exception):
    """Raised by an adapter to decline ONE case it cannot play (protocol 2).

    Only the case's opening call may raise it: :meth:`Adapter.query`, :meth:`Adapter.new_hand`,
    :meth:`Adapter.new_match` or :meth:`Adapter.new_table_hand` (over the protocol: the reply
    ``{"seq": N, "unsupported": REASON}`` to ``query``, ``new_hand``, ``new_match`` or
    ``new_table_hand``). The runner records the case as ``declined``
    with the reason: never a pass, never a failure. Raised later in a case, it is an adapter
    error (kind ``protocol``). Use it for a question the engine cannot express even though it
    declared the capability (an 11-card hand to an engine that always deals 10, a parameter
    value it does not support); declare only the capabilities you mostly answer.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Hello:
    """What an adapter says about itself at the start of a run."""

    name: str
    version: str
    protocol: int = PROTOCOL_VERSION
    language: str = "python"
    profiles: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()
    """The parameter names the adapter accepts as overrides on top of a profile."""
    homepage: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    rules: Ruleset | None = None
    """The one ruleset the engine plays, declared by value (a profile plus parameter values);
    when given, a case runs if its ruleset has exactly these values (``profiles`` and
    ``overrides`` are then not consulted)."""

    def rules_reason(self, profile: str | None, overrides: Mapping[str, Any],
                     depends: Sequence[str] | None = None) -> str | None:
        """Why a case of ``profile`` + ``overrides`` is not for this adapter's rules (None: it
        is). Profile-free cases (queries) always are. ``depends``: compare rules declared by
        value on these parameters only (the expectations depend on no other)."""
        if self.rules is not None:
            return rules_reason(self.rules, profile, overrides, depends)
        if profile is not None and profile not in self.profiles:
            return f"profile {profile} not declared"
        extra = sorted(k for k in overrides if k not in self.overrides)
        if extra:
            return f"override {', '.join(extra)} not declared"
        return None

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "version": self.version,
            "protocol": self.protocol,
            "language": self.language,
            "profiles": list(self.profiles),
            "capabilities": list(self.capabilities),
            "overrides": list(self.overrides),
            "homepage": self.homepage,
            "rules": None if self.rules is None else rules_json(self.rules),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Hello:
        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise AdapterFault(f"hello: {key} must be a list of strings", kind="protocol")
            return tuple(value)

        protocol = data.get("protocol")
        if not isinstance(protocol, int) or isinstance(protocol, bool):
            raise AdapterFault("hello: protocol must be an integer", kind="protocol")
        name, version = data.get("name"), data.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            raise AdapterFault("hello: name and version must be strings", kind="protocol")
        rules = None
        if data.get("rules") is not None:
            try:
                rules = rules_from_json(data["rules"], "hello: rules")
            except GinspecError as exc:
                raise AdapterFault(str(exc), kind="protocol") from None
        return cls(
            name=name,
            version=version,
            protocol=protocol,
            language=str(data.get("language", "")),
            profiles=strings("profiles"),
            capabilities=strings("capabilities"),
            overrides=strings("overrides"),
            homepage=str(data.get("homepage", "")),
            rules=rules,
        )


@dataclass(frozen=True)
class Verdict:
    """The answer to :meth:`Adapter.apply`: accepted, or rejected with a code."""

    accepted: bool
    code: str | None = None

    @classmethod
    def ok(cls) -> Verdict:
        return cls(True)

    @classmethod
    def rejected(cls, code: str) -> Verdict:
        return cls(False, code)

    def to_json(self) -> JSONObject:
        return {"accepted": True} if self.accepted else {"accepted": False, "code": self.code}

    def __str__(self) -> str:
        return "accepted" if self.accepted else f"rejected {self.code}"


class Adapter(ABC):
    """Implement this to put an engine through the suite (see the module documentation).

    Methods for capabilities the adapter does not declare are never called; their default
    implementations raise :class:`NotImplementedError` (not supported: never a made-up answer),
    which the runner records as an adapter error if it is ever called. To decline one case the
    engine cannot play, raise :class:`Unsupported` from the opening call (``query``,
    ``new_hand``, ``new_match``, ``new_table_hand``): the case is recorded as ``declined``. Any other exception is an
    adapter error on that case (not a rules failure).
    """

    @abstractmethod
    def hello(self) -> Hello:
        """Name, version, protocol version, supported profiles, capabilities and overrides."""

    def query(
        self, what: str, args: Mapping[str, Any], profile: str | None, overrides: Mapping[str, Any]
    ) -> JSONObject:
        """Answer a ``query.*`` question; see PROTOCOL.md for each ``what`` and its answer.

        ``profile`` is ``None`` for the catalogue defaults; ``overrides`` change single
        parameters. Raise :class:`Unsupported` to decline this one question."""
        raise NotImplementedError(f"query {what}")

    def new_hand(self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]) -> None:
        """Start one hand from ``deal`` = ``{"dealer": 0|1, "deck": [52 tokens]}``.

        Never shuffle: the deck order is the deal. An engine with capability ``deal.engine`` is
        sent ``{"dealer": 0|1}`` only: it shuffles and deals itself, and :meth:`dealt` says how."""
        raise NotImplementedError("new_hand")

    def new_match(
        self, profile: str, overrides: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]
    ) -> None:
        """Start a match; hand ``k`` (redeals included) uses ``deals[k]``."""
        raise NotImplementedError("new_match")

    def new_table_hand(
        self, profile: str, overrides: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> None:
        """Start one hand of seed 001's table game (capability ``table-game.N``) from ``deal`` =
        ``{"players": 3|4, "dealer": seat, "deck": [52 tokens]}``, dealt as TABLE.DEAL says.

        Then :meth:`apply`, :meth:`legal_actions`, :meth:`observe` and :meth:`result` work as
        for a two-player hand, with seats ``0 .. players-1`` (PROTOCOL.md, "Table hands").
        Never shuffle: the deck order is the deal."""
        raise NotImplementedError("new_table_hand")

    def dealt(self) -> JSONObject:
        """The deal the engine made itself (capability ``deal.engine``): ``{"dealer": 0|1,
        "hands": [[player 0's cards], [player 1's]], "upcard": token or None, "stock": [tokens,
        top first]}``, asked after ``new_hand`` and, in a match, after each hand-ending action.
        The caller checks it (DEAL.SHUFFLE, DEAL.HANDS, DEAL.UPCARD, DEAL.STOCK)."""
        raise NotImplementedError("dealt")

    def legal_actions(self) -> list[str]:
        """Every legal action of the player to act, as canonical action strings."""
        raise NotImplementedError("legal_actions")

    @abstractmethod
    def apply(self, player: int | str, action: str) -> Verdict:
        """Apply ``action`` for ``player`` (0, 1, or ``"chance"`` for the referee's reshuffle);
        a refused action leaves the state unchanged."""

    @abstractmethod
    def observe(self) -> JSONObject:
        """The referee's view: ``phase``, ``to_act``, ``hand_sizes``, ``discard_top``,
        ``stock_size``."""

    @abstractmethod
    def result(self) -> JSONObject | None:
        """The result once the hand (or match) is over, else ``None``; see PROTOCOL.md."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (the runner calls it once at the end, and before a restart)."""

    def restart(self) -> None:  # noqa: B027 - optional hook
        """Get ready for the next case after a fault (a subprocess adapter respawns)."""

    def end_case(self) -> None:  # noqa: B027 - optional hook
        """Called after each case the adapter played; raise :class:`AdapterFault` to make a
        fault seen only now (a duplicate reply to the case's last request) that case's error."""

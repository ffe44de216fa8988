"""Turning an ``--adapter SPEC`` into an :class:`Adapter`.

* ``reference`` — the reference implementation, in-process;
* ``openspiel``, ``rlcard`` — the peer engines (extras ``ginspec[openspiel]``, ``ginspec[rlcard]``;
  ``ginspec.conformance.adapters.openspiel``, ``ginspec.conformance.adapters.rlcard``);
* ``python:MODULE:CLASS`` — an in-process adapter class (a subclass of :class:`Adapter`, built with
  no arguments), each call with the per-request timeout (:mod:`~ginspec.conformance.adapters.timed`);
* ``cmd:COMMAND ARGS`` — a subprocess speaking the JSON-lines protocol (``PROTOCOL.md``).
"""

from __future__ import annotations

import importlib
import shlex
from typing import TYPE_CHECKING, Final

from ginspec.conformance.adapters.base import Adapter, AdapterError

if TYPE_CHECKING:
    from ginspec.conformance.adapters.peer import PeerAdapter


def open_adapter(spec: str, *, timeout: float = 10.0, startup: float | None = None) -> Adapter:
    """The adapter named by ``spec``; bad specs raise AdapterError (exit 2)."""
    if spec == "reference":
        from ginspec.conformance.adapters.reference import ReferenceAdapter

        return ReferenceAdapter()
    if spec in ("openspiel", "rlcard"):
        from ginspec.conformance.adapters.peer import PeerUnavailable

        try:
            return open_peer(spec)
        except PeerUnavailable as exc:
            raise AdapterError(f"--adapter {spec}: {exc}") from None
    if spec.startswith("python:"):
        parts = spec.split(":")
        if len(parts) != 3 or not all(parts[1:]):
            raise AdapterError(f"--adapter: {spec!r}: expected python:MODULE:CLASS")
        _, module_name, class_name = parts
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AdapterError(f"--adapter: cannot import {module_name!r}: {exc}") from None
        cls = getattr(module, class_name, None)
        if not isinstance(cls, type) or not issubclass(cls, Adapter):
            raise AdapterError(
                f"--adapter: {module_name}.{class_name} is not a subclass of "
                "ginspec.conformance.adapters.Adapter"
            )
        adapter_class: type[Adapter] = cls

        def build() -> Adapter:
            try:
                return adapter_class()
            except Exception as exc:
                raise AdapterError(f"--adapter: {module_name}.{class_name}() failed: {exc}") \
                    from None

        from ginspec.conformance.adapters.timed import TimedAdapter

        return TimedAdapter(build, timeout=timeout)
    if spec.startswith("cmd:"):
        from ginspec.conformance.adapters.subprocess_adapter import CommandAdapter

        try:
            argv = shlex.split(spec[4:])
        except ValueError as exc:
            raise AdapterError(f"--adapter: {spec!r}: {exc}") from None
        if not argv:
            raise AdapterError("--adapter: cmd: needs a command, e.g. cmd:'./my-engine --serve'")
        return CommandAdapter(argv, timeout=timeout, startup=startup)
    raise AdapterError(
        f"--adapter: unknown adapter {spec!r}: expected reference, openspiel, rlcard, python:MODULE:CLASS "
        "or cmd:COMMAND"
    )


PEERS: Final = ("openspiel", "rlcard")
"""The named peer adapter SPECs (``--adapter openspiel``, ``--adapter rlcard``)."""


def open_peer(name: str) -> PeerAdapter:
    """The named peer's adapter; :class:`PeerUnavailable` with the reason when its library is
    not installed."""
    if name == "openspiel":
        from ginspec.conformance.adapters.openspiel import OpenSpielAdapter

        return OpenSpielAdapter()
    if name == "rlcard":
        from ginspec.conformance.adapters.rlcard import RLCardAdapter

        return RLCardAdapter()
    from ginspec.conformance.adapters.peer import PeerUnavailable

    raise PeerUnavailable(f"unknown peer {name!r}: expected one of {', '.join(PEERS)}")

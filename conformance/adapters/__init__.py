"""Adapters: how the runner talks to an implementation (in-process or over the protocol)."""

from ginspec.conformance.adapters.base import (
    Adapter,
    AdapterError,
    AdapterFault,
    Hello,
    Unsupported,
    Verdict,
)

__all__ = ["Adapter", "AdapterError", "AdapterFault", "Hello", "Unsupported", "Verdict"]

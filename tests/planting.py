"""Plant a bug in a copy of a module: its source with one piece of text replaced, compiled as a
new module (the original is untouched). Tests use it to show that a proof of the code itself
fails when the code is wrong."""

from __future__ import annotations

import inspect
import sys
from types import ModuleType


def plant(module: ModuleType, old: str, new: str) -> ModuleType:
    """A copy of ``module`` whose source has ``old`` (which must occur exactly once) replaced."""
    source = inspect.getsource(module)
    if source.count(old) != 1:
        raise ValueError(f"{old!r} occurs {source.count(old)} times in {module.__name__}")
    name = f"{module.__name__}_planted"
    copy = ModuleType(name)
    copy.__file__ = module.__file__
    sys.modules[name] = copy
    try:
        exec(compile(source.replace(old, new), f"<planted {module.__name__}>", "exec"), copy.__dict__)
    finally:
        del sys.modules[name]
    return copy

"""ginspec.reference: the executable reference implementation of every clause.

Each rule function names the clause it implements with ``@implements(...)``.
"""

import importlib
import pkgutil


def implemented_modules() -> list[str]:
    """Import every module of the reference so that all ``@implements`` marks are registered."""
    names = []
    for info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
        importlib.import_module(info.name)
        names.append(info.name)
    return names

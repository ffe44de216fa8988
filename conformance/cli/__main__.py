"""``python -m ginspec.conformance.cli``: the ginspec command."""

from ginspec.conformance.cli import run

run()

"""The three versions a conformance run states.

* ``RULES_VERSION`` — the version of the rules text (the spec chapters); a change of a rule that
  changes an expected answer bumps it.
* ``SUITE_VERSION`` — the version of the committed case set; adding cases bumps the minor part,
  changing the expected answer of an existing case (its fingerprint) bumps the major part.
* ``PROTOCOL_VERSION`` — the version of the adapter protocol (``conformance/PROTOCOL.md``). Every
  change to the messages bumps it; a change that only adds (a capability, a query, an optional
  reply) keeps the older versions in ``ACCEPTED_PROTOCOLS``, one that changes or removes a message
  drops them. An adapter whose ``hello`` names a version not accepted is refused.
* ``CASE_FORMAT`` — the tag every case file carries in its ``format`` field.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Final

RULES_VERSION: Final = "0.1.0"
SUITE_VERSION: Final = "7.0.0"
PROTOCOL_VERSION: Final = 5
ACCEPTED_PROTOCOLS: Final = (1, 2, 3, 4, 5)
"""Protocol 2 only added to protocol 1 (the table game; the query kinds score, match,
next-dealer, declaration, layoff, defence, adjudicate; declining a case), and protocol 3 to
protocol 2 (rules declared by value; melding.automatic, layoff.automatic, deal.engine and the
``dealt`` request), and protocol 4 to protocol 3 (the capabilities illegal.forfeit and
observe.hands; ``match.scores``: a match's scores as it goes and the parts of its final totals,
in play and in the ``match``, ``next-dealer`` and ``hollywood`` queries), and protocol 5 to
protocol 4 (the capability spread.explicit: the defender spreads as an action, the engine lays
off by itself), so adapters of every earlier protocol still run."""
CASE_FORMAT: Final = "ginspec-case/2"



def package_version() -> str:
    """The installed ``ginspec`` distribution's version (what a run report states)."""
    try:
        return version("ginspec")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"

"""The three versions a conformance run states (lesson L13 of the conformance research).

* ``RULES_VERSION`` — the version of the rules text (the spec chapters); a change of a rule that
  changes an expected answer bumps it.
* ``SUITE_VERSION`` — the version of the committed case set; adding cases bumps the minor part,
  changing the expected answer of an existing case (its fingerprint) bumps the major part.
* ``PROTOCOL_VERSION`` — the version of the adapter protocol (``conformance/PROTOCOL.md``); an
  adapter that speaks another version is refused at ``hello``.
* ``CASE_FORMAT`` — the tag every case file carries in its ``format`` field.
"""

from __future__ import annotations

from typing import Final

RULES_VERSION: Final = "0.1.0"
SUITE_VERSION: Final = "1.0.0"
PROTOCOL_VERSION: Final = 2
CASE_FORMAT: Final = "ginspec-case/1"


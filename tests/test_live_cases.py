"""The cases the live mode writes (conformance/stateful.py, ``case_of``): their IDs pass the
case loader's rules whatever the divergence, the profile or the length."""

from __future__ import annotations

import re

from ginspec.conformance.stateful import case_id

ID_RULE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
"""The case format's ID rule (conformance/schema/case.schema.json, ``case_id``)."""


def test_a_deal_divergence_id_is_lower_case() -> None:
    assert case_id("live.oklahoma.deal.DEAL.SHUFFLE.s0.n0") == \
        "live.oklahoma.deal.deal.shuffle.s0.n0"


def test_every_name_becomes_a_valid_id() -> None:
    for name in ("live.pagat.result.big_gin.gin.s7.n3", "live.My Rules.deal.DEAL.HANDS.s1",
                 "live." + "x" * 200, "live." + "y" * 200, "__", "live.a/b\\c.s0"):
        ident = case_id(name)
        assert ID_RULE.match(ident) and len(ident) <= 120, (name, ident)
    assert case_id("live." + "x" * 200) != case_id("live." + "x" * 199)

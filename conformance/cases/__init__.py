"""Conformance cases: the data model, the JSON Schema check, loading and saving.

The format is described in ``conformance/CASES.md`` and ``conformance/schema/case.schema.json``.
"""

from ginspec.conformance.cases.model import (
    CAPABILITIES,
    Case,
    CaseFormatError,
    canonical_json,
    fingerprint_of,
)
from ginspec.conformance.cases.query_kinds import QUERY_KINDS, QueryKind
from ginspec.conformance.cases.store import dump_case, load_case, load_cases, parse_case

__all__ = [
    "CAPABILITIES",
    "QUERY_KINDS",
    "Case",
    "CaseFormatError",
    "QueryKind",
    "canonical_json",
    "dump_case",
    "fingerprint_of",
    "load_case",
    "load_cases",
    "parse_case",
]

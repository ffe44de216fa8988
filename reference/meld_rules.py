"""Which card groups are melds under a ruleset (MELD.SET, MELD.RUN, MELD.RUN.ACE-LOW,
MELD.RUN.NO-WRAP, CARD.VALUE)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginspec.spec.clauses import implements
from ginspec.spec.errors import ParameterError
from ginspec.spec.parameters import Value, parameter, rules_repr


@dataclass(frozen=True)
class MeldRules:
    """The parameters that change meld legality and card values.

    ``ace_high_runs``: Q-K-A is a run (the ace may sit above the king, but never in the middle).
    ``wraparound_runs``: runs may turn the corner (K-A-2); implies ``ace_high_runs``.
    ``ace_value``: deadwood value of an ace.
    """

    ace_high_runs: bool = False
    wraparound_runs: bool = False
    ace_value: int = 1

    def __post_init__(self) -> None:
        if self.wraparound_runs and not self.ace_high_runs:
            raise ParameterError(
                "wraparound_runs=true needs ace_high_runs=true: a run that turns the corner "
                "(K-A-2) already ranks the ace above the king"
            )
        parameter("ace_value").check(self.ace_value)

    @classmethod
    @implements("MELD.RUN.ACE-LOW", "MELD.RUN.NO-WRAP")
    def from_params(cls, params: Mapping[str, Value]) -> MeldRules:
        """The meld rules of a ruleset given as parameter values (missing ones default)."""
        if not isinstance(params, Mapping):
            raise ParameterError(f"meld rules: expected a mapping of parameter values, not "
                                 f"{type(params).__name__}")

        def get(name: str) -> Value:
            return parameter(name).check(params.get(name, parameter(name).default))

        return cls(
            ace_high_runs=bool(get("ace_high_runs")),
            wraparound_runs=bool(get("wraparound_runs")),
            ace_value=int(get("ace_value")),
        )

    def __repr__(self) -> str:
        return rules_repr("MeldRules", self, ("ace_high_runs", "wraparound_runs", "ace_value"))


STANDARD = MeldRules()

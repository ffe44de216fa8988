"""Systematic mutants of the reference, beside the hand-written ones of
:mod:`ginspec.conformance.mutants`.

:mod:`~ginspec.conformance.mutation.operators` enumerates and applies the mutation operators on
a function's syntax tree; :mod:`~ginspec.conformance.mutation.targets` says which functions of
the reference are mutated and switches one mutant on and off;
:mod:`~ginspec.conformance.mutation.run` runs mutants through the suite against single-profile
adapters; :mod:`~ginspec.conformance.mutation.witness` looks for a random hand or question that
tells a survivor from the reference; :mod:`~ginspec.conformance.mutation.command` is
``ginspec bench mutants``. Results: docs/conformance/mutation.md.
"""

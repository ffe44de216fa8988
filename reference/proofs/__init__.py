"""Proofs that touch the reference: certificates whose claim is the reference's answer
(:mod:`.certify`), and the theorems the reference's optimiser relies on (:mod:`.theorems`).

The formal model itself lives in :mod:`ginspec.spec.formal` and never imports the reference.
"""

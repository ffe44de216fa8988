"""Building the committed conformance suite (``ginspec suite build``).

Each module contributes one family of cases; :mod:`.suite` gathers them, checks them, and writes
the suite folder and its manifest deterministically.
"""

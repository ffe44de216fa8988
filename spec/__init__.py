"""ginspec.spec: the rules of Gin Rummy as data.

The clause registry (loaded from the Markdown chapters beside this file), the card notation,
the ruleset parameters and the formal (SMT) model live here. Nothing in this package imports
``ginspec.reference`` or ``ginspec.conformance``.
"""

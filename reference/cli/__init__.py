"""The rules commands of ``ginspec``: ask the reference about hands, rulesets, games and rulings.

Each module here adds sub-commands through ``register(subparsers)``; none of them imports
``ginspec.conformance``, so settling a knock or checking a ruling needs only the rules
(``reference/`` and ``spec/``). The suite commands (``conform``, ``suite``, ``serve``, ``bench``,
``clause``) live in ``ginspec.conformance.cli``, whose dispatcher is the ``ginspec`` command.
"""

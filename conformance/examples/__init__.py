"""Worked adapter examples for the guide "Verify your implementation in ten minutes".

``hand_adapter`` is a complete in-process adapter (``python:MODULE:CLASS``); ``node/adapter.mjs``
is an adapter in JavaScript over the JSON-lines protocol (``cmd:node .../adapter.mjs``).
tests/test_guides.py runs both against the suite.
"""

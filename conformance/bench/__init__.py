"""Benchmarks, run with ``ginspec bench NAME`` (results and reproducing commands in
docs/performance.md). Speed targets are checked by these commands, never by timed tests."""

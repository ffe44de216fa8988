"""Run reports: terminal summary, JSON lines, JUnit XML and a self-contained HTML page."""

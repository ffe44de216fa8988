"""ginspec.conformance: the conformance suite, its runner, adapters and the command line."""

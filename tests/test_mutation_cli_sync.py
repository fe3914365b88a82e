"""Mutation tests for records/cli_sync.py (venue sync's command line)."""

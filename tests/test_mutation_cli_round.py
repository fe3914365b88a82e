"""Mutation tests for records/cli_round.py (the round clock's command line)."""

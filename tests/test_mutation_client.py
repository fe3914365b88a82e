"""Mutation tests for records/sync/client.py (a joiner's requests)."""

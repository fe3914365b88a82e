"""Mutation tests for records/store.py (LogStore, the log's front)."""

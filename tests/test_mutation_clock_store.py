"""Mutation tests for records/clock_store.py (the round clock's store)."""

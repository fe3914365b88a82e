"""Mutation tests for records/sync/server.py (the host's listener), request by request."""

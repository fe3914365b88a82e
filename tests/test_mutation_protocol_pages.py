"""Mutation tests for records/sync/protocol.py (the wire format), page by page."""

"""Mutation tests for records/sync/service.py (what the host answers), page by page."""

"""Mutation tests for records/cli.py (the log's command line), its commands one by one."""

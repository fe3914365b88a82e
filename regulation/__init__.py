"""The penalty guidelines as a domain: model, loading, catalogs, search. No Flet here."""

APP_VERSION = "1.0.0"  # also in pyproject.toml; tests/test_packaging.py keeps them equal

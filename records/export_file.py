"""Writing an export (CSV or JSON) to a file whole or not at all (records/csv_export.py,
records/exchange.py make the bytes)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .faults import describe_fault


def write_file(path: Path, data: bytes) -> None:
    """Writes `data` to `path` whole or not at all (a temporary file, synced, then renamed)."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as exc:
        raise describe_fault(exc, path, "export not written") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise describe_fault(exc, path, "export not written") from None

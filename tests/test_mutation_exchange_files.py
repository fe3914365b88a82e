"""The import's reading of a file (records/exchange.py, `read_limited`, `read_export`), pinned
where its mutants survived the module's own tests (tests/test_mutation_exchange.py holds the
rest): only a regular file is read, and never more than one byte past the limit; a folder, a pipe
without a writer, a missing file or a read that fails is one line naming the file and the fault,
at once, with the handle closed."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from records_support import synthetic_export

from records import exchange
from records.errors import InvalidInput, LogError
from records.exchange import read_limited
from regulation.model import Regulation


def test_only_a_regular_file_within_the_limit_is_read(tmp_path: Path) -> None:
    file = tmp_path / "log.json"
    file.write_bytes(b"x" * 10)
    assert read_limited(file, 10) == b"x" * 10
    with pytest.raises(LogError) as caught:
        read_limited(file, 9)
    assert str(caught.value) == (
        f"import refused: {file}: larger than 9 bytes; nothing was imported"
    )
    with pytest.raises(LogError) as caught:
        read_limited(tmp_path)
    assert str(caught.value) == (
        f"import refused: {tmp_path}: not a file (a folder, a device or a pipe); "
        "nothing was imported"
    )
    missing = tmp_path / "missing.json"
    with pytest.raises(LogError) as caught:
        read_limited(missing)
    assert str(caught.value) == (
        f"import refused: cannot read the file: No such file or directory — {missing}"
    )


def test_a_huge_file_is_refused_after_reading_one_byte_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound holds whatever the file: a 4 GB file is not read into memory to be refused."""
    file = tmp_path / "huge.json"
    file.write_bytes(b" " * 1000)
    asked: list[int | None] = []
    real_open = open

    class Counting:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.file = real_open(*args, **kwargs)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def read(self, size: int | None = -1) -> bytes:
            asked.append(size)
            return self.file.read(size)

    monkeypatch.setattr(exchange, "open", Counting, raising=False)
    with pytest.raises(LogError, match="larger than 100 bytes"):
        read_limited(file, 100)
    # never the whole file (None or -1), never more than one byte past the limit
    sizes = [size for size in asked if size is not None and size >= 0]
    assert sizes == asked and 0 < sum(sizes) <= 101


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_a_pipe_without_a_writer_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException | bytes] = []

    def read() -> None:
        try:
            outcome.append(read_limited(fifo))
        except BaseException as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)  # microseconds when the open does not block
    if reader.is_alive():  # blocked in open(): a writer lets it go, then the test fails
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join()
        pytest.fail("the import waited for a writer on a pipe")
    (fault,) = outcome
    assert isinstance(fault, LogError) and "not a file (a folder, a device or a pipe)" in str(fault)


def test_a_read_that_fails_is_one_line_naming_the_file_and_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory card pulled out while the file is read: the fault, the file, nothing else."""
    file = tmp_path / "log.json"
    file.write_bytes(b"{}")
    open_before = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None

    def failing_fstat(handle: int) -> os.stat_result:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(exchange.os, "fstat", failing_fstat)
    with pytest.raises(LogError) as caught:
        read_limited(file)
    monkeypatch.undo()
    assert str(caught.value) == (
        f"import refused: cannot read the file: Input/output error — {file}"
    )
    if open_before is not None:
        assert len(os.listdir("/proc/self/fd")) == open_before  # the handle was closed


def test_read_export_names_the_file(regulation: Regulation, tmp_path: Path) -> None:
    file = tmp_path / "from-b.json"
    file.write_bytes(b"{}")
    with pytest.raises(InvalidInput) as caught:
        exchange.read_export(file, regulation)
    assert str(caught.value).startswith(f"import refused: {file}: not a penalty log export")
    file.write_bytes(payload_bytes(synthetic_export(3)))
    assert len(exchange.read_export(file, regulation).records) == 3


def payload_bytes(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")

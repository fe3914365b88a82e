"""Mutation tests for records/store.py (LogStore, the log's front), at the edge mutation testing
found untested: a log whose one-time backfill of versions (records made before sync, clock rows
made before clock versions) never ran is still opened to be read where it cannot be written,
unchanged, so that the judge can still list and export it. The backfill is a write: it waits for
an opening that can write.

The read-only opening is provoked as in test_mutation_opening.py: the writable opening fails as
in a read-only folder (the process tests of test_records_read_only.py do it for real)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from records_support import entry, open_store

from records import clock_merge, opening
from records.errors import Unwritable
from records.paths import DATABASE_NAME
from records.store import LogStore
from records.sync import local
from regulation.model import Regulation

READ_ONLY = "cannot open the penalty log: the folder or the file is read-only or not accessible"


@pytest.mark.parametrize(
    "mark",
    [local._BACKFILLED, clock_merge._BACKFILLED],
    ids=["records' versions", "clock rows' versions"],
)
def test_a_log_whose_backfill_never_ran_is_opened_to_be_read_where_it_cannot_be_written(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mark: str
) -> None:
    with open_store(regulation, tmp_path) as store:
        event = store.current_event()
        saved = store.add_record(event.id, entry("山田太郎"))
        store.round_clock.start(event.id, 1)
        clock = store.round_clock.rows(event.id)
    path = tmp_path / DATABASE_NAME
    # As an opening leaves it that migrated the log and was stopped before this backfill.
    with sqlite3.connect(path) as db:
        assert db.execute("DELETE FROM settings WHERE key = ?", (mark,)).rowcount == 1
    db.close()
    before = path.read_bytes()
    cause = Unwritable(f"{READ_ONLY} (SQLITE_READONLY)")

    def refuse(*args: object) -> None:
        raise cause

    monkeypatch.setattr(opening, "_open_checked", refuse)
    with LogStore.open(regulation, path) as reader:
        assert reader.read_only == str(cause)
        assert reader.records(event.id) == (saved,)
        assert reader.round_clock.rows(event.id) == clock
    assert path.read_bytes() == before  # nothing written, the backfill still to do

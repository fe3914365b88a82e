"""The small modules of the log at the edges mutation testing found untested: the round
clock's rows as stored and merged (records/clock_tables.py, records/clock_merge.py), the tiers
a repeat is measured by (records/tiers.py), the match-slip line (records/slip.py) and the one
line a failed database or file operation is told in (records/faults.py)."""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import datetime, timedelta, timezone
from itertools import pairwise
from pathlib import Path

import pytest

from records.clock_tables import iso_or_none, parse_or_none
from records.errors import LogError, Unwritable
from records.faults import describe_fault
from records.slip import ordinal
from records.tiers import next_tier_up
from regulation.model import Regulation

JST = timezone(timedelta(hours=9))
LOG = Path("/data/penalty-log.sqlite3")


def test_a_clock_moment_is_stored_to_the_microsecond_and_read_back_the_same() -> None:
    moment = datetime(2026, 12, 2, 13, 5, 0, tzinfo=JST)
    text = iso_or_none(moment)
    assert text == "2026-12-02T13:05:00.000000+09:00"  # whole seconds keep their digits
    assert parse_or_none(text) == moment
    assert iso_or_none(None) is None and parse_or_none(None) is None


def test_each_tier_is_followed_by_the_next_more_severe_one(regulation: Regulation) -> None:
    tiers = sorted(regulation.tiers, key=lambda tier: tier.severity)
    for lower, higher in pairwise(tiers):
        assert next_tier_up(regulation, lower.id) == higher
    assert next_tier_up(regulation, tiers[-1].id) is None
    assert next_tier_up(regulation, "no-such-tier") is None


def test_ordinals_of_the_teens_and_beyond_a_hundred() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 20, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "20th",
        "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("number", "why"),
    [
        (errno.ENOSPC, "the disk is full (No space left on device)"),
        (errno.EFBIG, "the disk is full (File too large)"),
        (errno.EROFS, "the folder is read-only or not accessible (Read-only file system)"),
        (errno.EACCES, "the folder is read-only or not accessible (Permission denied)"),
    ],
)
def test_a_file_that_cannot_be_written_is_told_in_one_line(number: int, why: str) -> None:
    fault = describe_fault(OSError(number, os.strerror(number)), LOG, "saving")
    assert type(fault) is Unwritable
    assert str(fault) == f"saving: {why} — {LOG}"


def test_a_damaged_file_is_not_called_unwritable() -> None:
    damaged = sqlite3.DatabaseError("file is not a database")
    damaged.sqlite_errorcode = 26
    damaged.sqlite_errorname = "SQLITE_NOTADB"
    fault = describe_fault(damaged, LOG, "opening")
    assert type(fault) is LogError
    assert str(fault) == (
        f"opening: the file is damaged (SQLITE_NOTADB); restart the app to set it aside — {LOG}"
    )

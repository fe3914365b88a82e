"""A record's evidence (issue 20, item 5) travels in a sync version's body, and a record without
any keeps the body it had before the evidence existed (versions already stored stay equal)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.model import Player, Record
from records.sync.items import RECORD, ItemVersion, check_record_body, record_body, record_from
from regulation.model import Regulation

AT = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
PLAIN = Record(
    "5f0c0c8e-1111-4c1e-9f4e-000000000001",
    "5f0c0c8e-1111-4c1e-9f4e-0000000000e1",
    AT,
    AT,
    2,
    "9",
    Player("遅刻 次郎"),
    "not-seated-5-minutes",
    "duel-forfeiture",
    None,
)
LATE = replace(
    PLAIN, arrived_at=AT + timedelta(minutes=8, seconds=26), late_seconds=506, occurrence=2
)


def version(record: Record) -> ItemVersion:
    return ItemVersion(RECORD, record.id, record.event_id, 1, "dev", None, AT, record_body(record))


def test_the_evidence_travels_in_a_versions_body(regulation: Regulation) -> None:
    body = json.loads(record_body(LATE))
    assert (body["arrived_at"], body["late_seconds"], body["occurrence"]) == (
        "2026-11-28T13:08:26.000000+09:00",
        506,
        2,
    )
    assert record_from(version(LATE)) == LATE
    assert check_record_body(body, "body", regulation) == body


def test_a_record_without_evidence_keeps_its_old_body(regulation: Regulation) -> None:
    body = json.loads(record_body(PLAIN))
    assert not {"arrived_at", "late_seconds", "occurrence"} & set(body)
    assert record_from(version(PLAIN)) == PLAIN
    bad = {**body, "late_seconds": "eight"}
    with pytest.raises(InvalidInput, match="late_seconds"):
        check_record_body(bad, "body", regulation)

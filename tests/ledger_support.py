"""What the ledger's mutation tests share (tests/test_mutation_ledger*.py): the devices, the
events, a record saved on another device, the kinds and ids of a page's items."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.model import Player, Record, RecordedBy
from records.sync.hlc import stamp_of
from records.sync.items import RECORD, ItemVersion, record_body

BASE = datetime(2026, 11, 28, 10, 0, tzinfo=JST)
OTHER = "b2" * 16  # another device
THIRD = "c3" * 16
EVENT_IDS = ("6f1d2a9c-0000-4000-8000-0000000000e1", "6f1d2a9c-0000-4000-8000-0000000000e2")
MOVED_COPY = "e0decba6-1e44-51d8-a96a-276932e49328"  # uuid5 of both ids


def refused(call, *args: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        call(*args)
    return caught.value


def foreign(event_id: str, n: int, device: str = OTHER, name: str = "田中") -> ItemVersion:
    """Record number `n`'s first version, saved on another device."""
    record = Record(
        id=f"6f1d2a9c-0000-4000-8000-{n:012d}",
        event_id=event_id,
        created_at=BASE,
        updated_at=BASE,
        round=1,
        table="3",
        player=Player(name, None),
        infraction_id="drew-extra-cards",
        tier_id="warning",
        note=None,
        recorded_by=RecordedBy("高橋", device),
    )
    body = record_body(record)
    return ItemVersion(RECORD, record.id, event_id, stamp_of(BASE) + n, device, "高橋", BASE, body)


def kinds_and_ids(items: list[str]) -> list[tuple[str, str]]:
    return [(item["kind"], item["id"]) for item in map(json.loads, items)]

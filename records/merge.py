"""The merge of versions from elsewhere into this log: what file import (records/exchange.py) and
venue sync (records/sync/) share, so that a file and sync never disagree.

The rule (records/sync/hlc.py): every version of a record, of an event's settings or of a round
clock row is kept (table `item_versions`); the current one — the row in `records`, `events`,
`rounds`, the clock tables (records/clock_merge.py) — is the version with the largest (stamp,
device id), the same on every device whatever arrived in what order or how often. A deletion and
a restoration are versions like any edit. A version-1 export (no versions) gives each record one
version stamped from its `updated_at` (`legacy_version`); clock rows without versions likewise.

An imported event is matched by its UUID, else by its name, else created; from a version-1 file
its date and the rounds' assembly times fill only what is missing here. A record whose UUID
already lives in another event of this log stays in that event (a merge never moves a record
between events): its versions are merged there by the same rule, and the report counts it apart
(`elsewhere`, with the events' names), not as added or updated here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date

from .clock_merge import apply_clock, legacy_versions
from .clock_rows import ClockData
from .database import Database, iso
from .events import Events
from .history import RECORD_COLUMNS, History
from .model import MergeReport, Record, Round
from .sync import items, versions
from .sync.clock_items import CLOCK_KINDS, derived_id
from .sync.items import EVENT, RECORD, ItemVersion
from .sync.local import legacy_version


@dataclass(frozen=True, slots=True)
class ImportedEvent:
    """Another device's export, validated (records/exchange.py): its event and records, whose
    `event_id` is the exporting device's event UUID; from a version-2 file, every version of
    each record and of the event's settings too."""

    id: str
    name: str
    date: date | None
    rounds: tuple[Round, ...]
    records: tuple[Record, ...]
    versions: tuple[ItemVersion, ...] = ()  # empty: a version-1 file
    clock: ClockData = field(default_factory=ClockData)  # the round clock's rows (version 2)


@dataclass(frozen=True, slots=True)
class Applied:
    added: int
    updated: int
    unchanged: int
    new_versions: int
    clock: tuple[int, int, int] = (0, 0, 0)  # clock rows added, updated, unchanged


def merge(
    database: Database, events: Events, history: History, incoming: ImportedEvent
) -> MergeReport:
    """Merges `incoming` in one transaction (all of it or, on any fault, nothing)."""
    with database.write("nothing imported") as db:
        found = db.execute("SELECT id, uuid FROM events WHERE uuid = ?", (incoming.id,)).fetchone()
        if found is None:
            found = db.execute(
                "SELECT id, uuid FROM events WHERE name = ?", (incoming.name,)
            ).fetchone()
        created = found is None
        if found is None:
            rowid = events.insert(db, incoming.id, incoming.name, incoming.date)
            local_uuid = incoming.id
        else:
            rowid, local_uuid = int(found[0]), str(found[1])
            if incoming.date:
                db.execute(
                    "UPDATE events SET date = ? WHERE id = ? AND date IS NULL",
                    (incoming.date.isoformat(), rowid),
                )
        for entry in incoming.rounds:
            at = iso(entry.assembly_at) if entry.assembly_at else None
            db.execute(
                "INSERT INTO rounds (event_id, number, assembly_at) VALUES (?, ?, ?)"
                " ON CONFLICT (event_id, number) DO UPDATE"
                " SET assembly_at = excluded.assembly_at WHERE rounds.assembly_at IS NULL",
                (rowid, entry.number, at),
            )
        given = list(incoming.versions or (legacy_version(r) for r in incoming.records))
        have = {(v.kind, v.item_id) for v in given}
        given += [
            v
            for v in legacy_versions(incoming.id, incoming.clock)
            if (v.kind, v.item_id) not in have
        ]
        moved = [
            _moved(v, local_uuid)
            for v in given
            if v.kind in (RECORD, *CLOCK_KINDS) or (v.kind == EVENT and v.item_id == local_uuid)
        ]
        homes = _homes(db, sorted({v.item_id for v in moved if v.kind == RECORD}))
        away = {record_id for record_id, home in homes.items() if home != local_uuid}
        applied = apply(db, events, history, [v for v in moved if not _is_away(v, away)])
        apply(db, events, history, [v for v in moved if _is_away(v, away)])  # counted apart
    event = events.or_fail(local_uuid)
    names = tuple(sorted({events.or_fail(homes[record_id]).name for record_id in away}))
    return MergeReport(
        event,
        applied.added,
        applied.updated,
        applied.unchanged,
        created,
        len(away),
        names,
        applied.clock,
    )


def _moved(version: ItemVersion, event_id: str) -> ItemVersion:
    """A version from a file, in the event it is merged into here: a clock row of an event
    matched by name gets the id that event's round (or settings) row has here."""
    moved = replace(version, event_id=event_id)
    if version.kind in CLOCK_KINDS:
        derived = derived_id(version.kind, event_id, json.loads(version.body))
        moved = replace(moved, item_id=derived or version.item_id)
    return moved


def _is_away(version: ItemVersion, away: set[str]) -> bool:
    return version.kind == RECORD and version.item_id in away


def _homes(db: sqlite3.Connection, ids: list[str]) -> dict[str, str]:
    """Record UUID → the UUID of the event it lives in here, for the records already here."""
    found: dict[str, str] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            "SELECT records.uuid, events.uuid FROM records JOIN events"
            f" ON events.id = records.event_id WHERE records.uuid IN ({marks})",
            chunk,
        )
        found.update((str(record), str(event)) for record, event in rows)
    return found


def apply(
    db: sqlite3.Connection,
    events: Events,
    history: History,
    given: Iterable[ItemVersion],
    *,
    from_host: bool = False,
) -> Applied:
    """Stores the versions (a set union) and makes each touched thing's current version the
    row here; inside the caller's write. Events first, so that their records find them."""
    given = list(given)
    stored = versions.store(db, given, from_host=from_host)
    touched = stored.touched
    for _kind, _event, item in sorted(t for t in touched if t[0] == EVENT):
        _apply_event(db, events, stored.current[(EVENT, item)])
    ids = sorted({item for kind, _event, item in touched if kind == RECORD})
    here = _records_here(db, history, ids)
    added = updated = 0
    rowids: dict[str, int] = {}
    new: list[tuple[int, Record]] = []
    for record_id in ids:
        record = items.record_from(stored.current[(RECORD, record_id)])
        found = here.get(record_id)
        if found is None:
            rowid = rowids.get(record.event_id) or _event_rowid(db, events, record.event_id)
            new.append((rowids.setdefault(record.event_id, rowid), record))
            continue
        record = replace(record, event_id=found.event_id)  # a record never changes event
        if found != record:
            history.update(db, record)
            updated += 1
    history.insert_many(db, new)
    added = len(new)
    records = {v.item_id for v in given if v.kind == RECORD}
    clock = apply_clock(db, given, touched, lambda event_id: _event_rowid(db, events, event_id))
    return Applied(added, updated, len(records) - added - updated, len(touched), clock)


def _records_here(db: sqlite3.Connection, history: History, ids: list[str]) -> dict[str, Record]:
    """The rows here of these records (a few queries, not one each)."""
    found: dict[str, Record] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT {RECORD_COLUMNS} FROM records WHERE uuid IN ({marks})", chunk)
        found.update((r.id, r) for r in history.build(rows.fetchall(), db))
    return found


def _event_rowid(db: sqlite3.Connection, events: Events, event_id: str) -> int:
    """The event's row; a placeholder named by its UUID if its settings have not come yet."""
    found = db.execute("SELECT id FROM events WHERE uuid = ?", (event_id,)).fetchone()
    if found:
        return int(found[0])
    return events.insert(db, event_id, _free_name(db, event_id, None), None)


def _free_name(db: sqlite3.Connection, name: str, rowid: int | None) -> str:
    """`name`, or `name (2)`, `name (3)`… when another event here already has it."""
    candidate, counter = name, 1
    while db.execute(
        "SELECT 1 FROM events WHERE name = ? AND id IS NOT ?", (candidate, rowid)
    ).fetchone():
        counter += 1
        candidate = f"{name} ({counter})"
    return candidate


def _apply_event(db: sqlite3.Connection, events: Events, winner: ItemVersion) -> None:
    event = items.event_from(winner)
    rowid = _event_rowid(db, events, event.id)
    db.execute(
        "UPDATE events SET name = ?, date = ? WHERE id = ?",
        (_free_name(db, event.name, rowid), event.date.isoformat() if event.date else None, rowid),
    )
    db.execute("DELETE FROM rounds WHERE event_id = ?", (rowid,))
    db.executemany(
        "INSERT INTO rounds (event_id, number, assembly_at) VALUES (?, ?, ?)",
        [(rowid, r.number, iso(r.assembly_at) if r.assembly_at else None) for r in event.rounds],
    )

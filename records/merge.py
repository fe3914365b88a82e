"""The merge of another device's event into this log: what file import (records/exchange.py)
and venue sync share. The rule, in one place (`incoming_wins`):

- a record counts once, by its UUID; a new one is added as it is;
- of two versions, the later `updated_at` wins; at the same instant with different contents
  (two devices' clocks colliding), a tombstone wins, then the larger content — so every device
  converges on the same log whatever the order of the merges;
- a tombstone stays a tombstone unless a later edit or restore beats it;
- the event is matched by its UUID, else by its name, else created; its date and the rounds'
  assembly times fill only what is missing here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from .database import Database, iso, to_us
from .events import Events
from .history import RECORD_COLUMNS, History
from .model import MergeReport, Record, Round


@dataclass(frozen=True, slots=True)
class ImportedEvent:
    """Another device's export, validated (records/exchange.py): its event and records, whose
    `event_id` is the exporting device's event UUID."""

    id: str
    name: str
    date: date | None
    rounds: tuple[Round, ...]
    records: tuple[Record, ...]


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
        added = updated = unchanged = 0
        for record in incoming.records:
            record = replace(record, event_id=local_uuid)
            rows = db.execute(
                f"SELECT {RECORD_COLUMNS} FROM records WHERE uuid = ?", (record.id,)
            ).fetchall()
            if not rows:
                history.insert(db, rowid, record)
                added += 1
                continue
            local = history.build(rows, db)[0]
            if incoming_wins(local, replace(record, event_id=local.event_id)):
                history.update(db, record)
                updated += 1
            else:
                unchanged += 1
    event = events.or_fail(local_uuid)
    return MergeReport(event, added, updated, unchanged, created)


def incoming_wins(local: Record, incoming: Record) -> bool:
    """The later updated_at wins. At the same instant with different contents (two devices'
    clocks colliding), a tombstone wins, then the larger content: every device converges."""
    if incoming == local:
        return False
    local_us, incoming_us = to_us(local.updated_at), to_us(incoming.updated_at)
    if incoming_us != local_us:
        return incoming_us > local_us
    if incoming.deleted != local.deleted:
        return incoming.deleted
    return _content(incoming) > _content(local)


def _content(record: Record) -> tuple[str, ...]:
    return (
        record.player.name,
        record.player.player_id or "",
        str(record.round or 0),
        record.table or "",
        record.infraction_id,
        record.tier_id,
        record.note or "",
        iso(record.updated_at),
    )

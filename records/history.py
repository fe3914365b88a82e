"""Records (table `records`): saved, edited, deleted as tombstones and restored; read by event,
round and player, a page at a time; the earlier records of a repeat; the tardiness entry."""

from __future__ import annotations

import gc
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from regulation.model import Regulation

from . import validate
from .database import Database, iso, to_us
from .errors import InvalidInput
from .events import Events
from .model import Player, Record, RecordedBy, RecordInput, RepeatCheck
from .players import Players
from .sync import local
from .tardiness import TardinessSuggestion, suggest_tardiness
from .tiers import suggested_tier_up

# A player's records, through the index that starts with the player. Left to itself, the planner
# prefers the event's time index because it saves the sort, and reads the whole event.
_BY_PLAYER = "records INDEXED BY records_by_player"
# Players and events are mapped from in-memory caches (their rows never change once written):
# joining them on every row cost as much again as reading the records.
RECORD_COLUMNS = (
    "uuid, event_id, created_at, updated_at, round, table_label, player_ref, infraction, tier,"
    " note, deleted, recorded_judge, recorded_device, arrived_at, late_seconds, occurrence"
)


class History:
    def __init__(
        self, database: Database, events: Events, players: Players, regulation: Regulation
    ) -> None:
        self._database = database
        self._events = events
        self._players = players
        self.regulation = regulation

    # -- writing ------------------------------------------------------------------------------

    def add(self, event_id: str, entry: RecordInput) -> Record:
        """Saves a new record; when this returns, the record is on disk."""
        entry = validate.record_input(self.regulation, entry)
        created = self._database.clock()
        repeat = self.check_repeat(event_id, entry.player, entry.infraction_id, entry.tier_id)
        record = Record(
            id=str(uuid.uuid4()),
            event_id=event_id,
            created_at=created,
            updated_at=created,
            round=entry.round,
            table=entry.table,
            player=entry.player,
            infraction_id=entry.infraction_id,
            tier_id=entry.tier_id or "",
            note=entry.note,
            arrived_at=entry.arrived_at,
            late_seconds=entry.late_seconds,
            occurrence=repeat.occurrence,
        )
        with self._database.write() as db:
            record = replace(record, recorded_by=local.who(db))
            self.insert(db, self._events.rowid(db, event_id), record)
            local.save_record(self._database, db, record)
        return record

    def insert(self, db: sqlite3.Connection, event_rowid: int, record: Record) -> None:
        """A record's row, as it is (inside the caller's write)."""
        self.insert_many(db, [(event_rowid, record)])

    def insert_many(self, db: sqlite3.Connection, rows: list[tuple[int, Record]]) -> None:
        """Records' rows (event row id, record) by one executemany, inside the caller's write."""
        refs = self._players.refs(db, [(r.player, to_us(r.updated_at)) for _rowid, r in rows])
        db.executemany(
            "INSERT INTO records (uuid, event_id, player_ref, round, table_label, infraction,"
            " tier, note, created_at, updated_at, created_us, updated_us, deleted,"
            " recorded_judge, recorded_device, arrived_at, late_seconds, occurrence)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    record.id,
                    event_rowid,
                    refs[record.player],
                    *_form_fields(record),
                    iso(record.created_at),
                    iso(record.updated_at),
                    to_us(record.created_at),
                    to_us(record.updated_at),
                    int(record.deleted),
                    *_by(record),
                    *_evidence(record),
                )
                for event_rowid, record in rows
            ],
        )

    def update(self, db: sqlite3.Connection, record: Record) -> None:
        """A record's row replaced by `record`, as it is (inside the caller's write)."""
        player_ref = self._players.ref(db, record.player, to_us(record.updated_at))
        db.execute(
            "UPDATE records SET player_ref = ?, round = ?, table_label = ?, infraction = ?,"
            " tier = ?, note = ?, updated_at = ?, updated_us = ?, deleted = ?, recorded_judge = ?,"
            " recorded_device = ?, arrived_at = ?, late_seconds = ?, occurrence = ?"
            " WHERE uuid = ?",
            (
                player_ref,
                *_form_fields(record),
                iso(record.updated_at),
                to_us(record.updated_at),
                int(record.deleted),
                *_by(record),
                *_evidence(record),
                record.id,
            ),
        )

    def edit(self, record_id: str, entry: RecordInput) -> Record:
        """Replaces a live record's fields with `entry` (the whole form)."""
        entry = validate.record_input(self.regulation, entry)
        database = self._database
        with database.lock:
            old = self._or_fail(record_id)
            if old.deleted:
                raise InvalidInput("this record was deleted; restore it first", "record", "format")
            new = replace(
                old,
                updated_at=database.next_time(old.updated_at),
                round=entry.round,
                table=entry.table,
                player=entry.player,
                infraction_id=entry.infraction_id,
                tier_id=entry.tier_id or "",
                note=entry.note,
                arrived_at=entry.arrived_at,
                late_seconds=entry.late_seconds,
            )
            if (new.player, new.infraction_id) != (old.player, old.infraction_id):
                # Reclassified, or another player: the count is that of the new pair.
                new = replace(new, occurrence=self.repeats_of(new).occurrence)
            with database.write() as db:
                self.update(db, new)
                local.save_record(database, db, new)
        return new

    def set_deleted(self, record_id: str, deleted: bool) -> Record:
        """Deleted: a tombstone, kept so that a merge never revives it; restored: newer than
        the tombstone, so it wins a merge too."""
        database = self._database
        with database.lock:
            old = self._or_fail(record_id)
            if old.deleted == deleted:
                return old
            new = replace(old, deleted=deleted, updated_at=database.next_time(old.updated_at))
            with database.write() as db:
                self.update(db, new)
                local.save_record(database, db, new)
        return new

    # -- reading ------------------------------------------------------------------------------

    def without_versions(self) -> list[Record]:
        """Records with no saved version (made before venue sync), tombstones included."""
        rows = self._database.read(
            f"SELECT {RECORD_COLUMNS} FROM records r WHERE NOT EXISTS (SELECT 1 FROM"
            " item_versions v WHERE v.kind = 'record' AND v.item_uuid = r.uuid)"
        )
        return list(self.build(rows))

    def get(self, record_id: str) -> Record | None:
        """A record by id, a tombstone included."""
        rows = self._database.read(
            f"SELECT {RECORD_COLUMNS} FROM records WHERE uuid = ?", (record_id,)
        )
        return self.build(rows)[0] if rows else None

    def _or_fail(self, record_id: str) -> Record:
        found = self.get(record_id)
        if found is None:
            raise InvalidInput(f"no record with id {record_id!r}", "record", "unknown_id")
        return found

    def of_event(
        self,
        event_id: str,
        *,
        round_number: int | None = None,
        table: str | None = None,
        player: Player | None = None,
        player_id: str | None = None,
        newest_first: bool = True,
        include_deleted: bool = False,
        only_deleted: bool = False,
        limit: int | None = None,
        after: Record | None = None,
    ) -> tuple[Record, ...]:
        """See LogStore.records."""
        where = ["event_id = ?"]
        parameters: list[object] = [self._events.rowid(None, event_id)]
        source = "records"
        if round_number is not None:
            where.append("round = ?")
            parameters.append(round_number)
        if table is not None:
            where.append("table_label = ?")
            parameters.append(validate.table_label(table))
        if player is not None or player_id is not None:
            refs = self._players.matching(
                player.name if player else None, player.player_id if player else player_id
            )
            if not refs:
                return ()
            where.append(f"player_ref IN ({','.join('?' * len(refs))})")
            parameters.extend(refs)
            source = _BY_PLAYER
        if only_deleted:
            where.append("deleted = 1")
        elif not include_deleted:
            where.append("deleted = 0")
        order = "DESC" if newest_first else "ASC"
        if after is not None:
            beyond = "<" if newest_first else ">"
            # A row-value range: the index on (event_id, created_us, id) starts right there.
            where.append(f"(created_us, id) {beyond} (?, (SELECT id FROM records WHERE uuid = ?))")
            parameters.extend((to_us(after.created_at), after.id))
        sql = (
            f"SELECT {RECORD_COLUMNS} FROM {source} WHERE {' AND '.join(where)}"
            f" ORDER BY created_us {order}, id {order}"
        )
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(max(0, limit))
        return self.build(self._database.read(sql, parameters))

    # -- repeats and tardiness ----------------------------------------------------------------

    def check_repeat(
        self, event_id: str, player: Player, infraction_id: str, tier_id: str | None = None
    ) -> RepeatCheck:
        """See LogStore.check_repeat."""
        infraction = self.regulation.infraction(
            validate.infraction_id(self.regulation, infraction_id)
        )
        assert infraction is not None
        tier = validate.tier_id(self.regulation, tier_id or infraction.penalty.id)
        return self._check(event_id, player, infraction_id, tier, None)

    def repeats_of(self, record: Record) -> RepeatCheck:
        """See LogStore.repeats_of."""
        return self._check(
            record.event_id, record.player, record.infraction_id, record.tier_id, record
        )

    def _check(
        self,
        event_id: str,
        player: Player,
        infraction_id: str,
        tier_id: str,
        before: Record | None,
    ) -> RepeatCheck:
        previous = self._same_infraction(event_id, player, (infraction_id,), before)
        infraction = self.regulation.infraction(infraction_id)
        siblings = (
            tuple(
                other.id
                for other in self.regulation.infractions_in_section(infraction.section_id)
                if other.id != infraction_id
            )
            if infraction is not None
            else ()
        )
        related = self._same_infraction(event_id, player, siblings, before) if siblings else ()
        found, higher_chosen = suggested_tier_up(self.regulation, infraction_id, tier_id)
        return RepeatCheck(previous, found.id if found else None, related, higher_chosen)

    def _same_infraction(
        self, event_id: str, player: Player, infraction_ids: tuple[str, ...], before: Record | None
    ) -> tuple[Record, ...]:
        refs = self._players.matching(player.name, player.player_id)
        if not refs:
            return ()
        sql = (
            f"SELECT {RECORD_COLUMNS} FROM {_BY_PLAYER}"
            f" WHERE player_ref IN ({','.join('?' * len(refs))}) AND event_id = ?"
            f" AND infraction IN ({','.join('?' * len(infraction_ids))}) AND deleted = 0"
        )
        parameters: list[object] = [*refs, self._events.rowid(None, event_id), *infraction_ids]
        if before is not None:
            sql += " AND uuid != ? AND created_us <= ?"
            parameters += [before.id, to_us(before.created_at)]
        sql += " ORDER BY created_us, id"
        return self.build(self._database.read(sql, parameters))

    def suggest_tardiness(
        self, event_id: str, round_number: int, arrived_at: datetime | None = None
    ) -> TardinessSuggestion:
        """See LogStore.suggest_tardiness."""
        event = self._events.or_fail(event_id)
        found = event.round(round_number)
        if found is None or found.assembly_at is None:
            raise InvalidInput(
                f"round {round_number} of {event.name!r} has no assembly time",
                "round",
                "required",
            )
        return suggest_tardiness(found.assembly_at, arrived_at or self._database.clock())

    # -- rows to records ----------------------------------------------------------------------

    def build(self, rows: list[tuple], db: sqlite3.Connection | None = None) -> tuple[Record, ...]:
        """Records from rows of `RECORD_COLUMNS` (inside a write, pass its `db`)."""
        database = self._database
        players, events = database.players, database.event_uuids
        if any(row[6] not in players for row in rows):
            found = database.read_in(db, "SELECT id, name, player_id FROM players")
            players.update((ref, Player(name, player_id)) for ref, name, player_id in found)
        if any(row[1] not in events for row in rows):
            found = database.read_in(db, "SELECT id, uuid FROM events")
            events.update(found)
            database.event_rowids.update((event_uuid, rowid) for rowid, event_uuid in found)
        parse = datetime.fromisoformat
        # Thousands of new objects (a whole event) would set off the cyclic garbage collector
        # over and over, doubling the time; records hold no cycles, so it waits till the end.
        pause_gc = len(rows) > 1000 and gc.isenabled()
        if pause_gc:
            gc.disable()
        try:
            return _records(rows, players, events, parse)
        finally:
            if pause_gc:
                gc.enable()


def _form_fields(record: Record) -> tuple[int | None, str | None, str, str, str | None]:
    """The columns the record form sets, in the order both writes list them."""
    return (record.round, record.table, record.infraction_id, record.tier_id, record.note)


def _by(record: Record) -> tuple[str | None, str | None]:
    by = record.recorded_by
    return (by.judge, by.device) if by else (None, None)


def _records(
    rows: list[tuple],
    players: dict[int, Player],
    events: dict[int, str],
    parse: Callable[[str], datetime],
) -> tuple[Record, ...]:
    return tuple(
        [
            Record(
                record_uuid,
                events[event_rowid],
                parse(created_at),
                parse(updated_at),
                round_number,
                table,
                players[player_ref],
                infraction,
                tier,
                note,
                bool(deleted),
                RecordedBy(judge or "", device) if device else None,
                None if arrived_at is None else parse(arrived_at),
                late_seconds,
                occurrence,
            )
            for (
                record_uuid,
                event_rowid,
                created_at,
                updated_at,
                round_number,
                table,
                player_ref,
                infraction,
                tier,
                note,
                deleted,
                judge,
                device,
                arrived_at,
                late_seconds,
                occurrence,
            ) in rows
        ]
    )


def _evidence(record: Record) -> tuple[str | None, int | None, int | None]:
    """The evidence columns of a record's row (schema version 2)."""
    arrived = None if record.arrived_at is None else iso(record.arrived_at)
    return arrived, record.late_seconds, record.occurrence

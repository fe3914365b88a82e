"""The penalty log on SQLite: one file, durable writes, nothing lost, nothing silently replaced.

`LogStore.open()` is the one way in. It finds the data directory (records/paths.py), sets a
damaged or foreign file aside (renamed with a timestamp, never deleted; `store.recovery` says
so in one line), turns on WAL, foreign keys and fully synchronous commits, and migrates the
schema (records/opening.py, records/schema.py, with a backup copy first).

Every method is synchronous and thread-safe (one connection behind a lock; Flet runs handlers
in threads) and returns frozen dataclasses of records/model.py. A write either commits before
the method returns (then it survives a kill or a power cut) or raises `LogError` with one line
and changes nothing.

`LogStore` is the front: each job lives in a module of its own (see records/__init__.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TypeVar

from regulation.model import Regulation

from . import clock_merge
from . import players as _players
from .clock_store import ClockStore
from .database import Database, iso, now_local, to_us
from .events import Events
from .faults import BUSY_TIMEOUT_S, describe_fault
from .history import History
from .merge import ImportedEvent, merge
from .model import (
    Event,
    MergeReport,
    Player,
    PlayerSummary,
    Record,
    RecordInput,
    RecordVersion,
    Recovery,
    RepeatCheck,
    Round,
)
from .opening import SQLITE_HEADER, open_connection
from .paths import database_path
from .schema import MIGRATIONS, Migration
from .sync import local, versions
from .sync.items import RECORD, ItemVersion, record_from
from .sync.ledger import Ledger
from .tardiness import TardinessSuggestion

_T = TypeVar("_T")

# Re-exported: the names the screens, the exchange and the tests have always imported from here.
__all__ = [
    "BUSY_TIMEOUT_S",
    "SQLITE_HEADER",
    "ImportedEvent",
    "LogStore",
    "describe_fault",
    "iso",
    "now_local",
    "to_us",
]


class LogStore:
    """The penalty log. Open with `LogStore.open(regulation)`; close when done."""

    def __init__(
        self,
        database: Database,
        regulation: Regulation,
        recovery: Recovery | None,
        migration_backup: Path | None,
    ) -> None:
        self._database = database
        self._events = Events(database)
        self._players = _players.Players(database)
        self._history = History(database, self._events, self._players, regulation)
        self.round_clock = ClockStore(database, self._events, self._notify_saved)  # clock_store.py
        self._save_listeners: list[Callable[[], None]] = []
        self.path = database.path
        self.regulation = regulation
        self.recovery = recovery  # set when a damaged or foreign file was moved aside
        self.migration_backup = migration_backup  # the copy taken before a schema upgrade

    @classmethod
    def open(
        cls,
        regulation: Regulation,
        path: Path | None = None,
        *,
        clock: Callable[[], datetime] = now_local,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> LogStore:
        """Opens (creating if needed) the log at `path` (default: records.paths). Raises
        LogError with one line when the data directory is unusable or the file is from a newer
        app; a damaged file is set aside instead (see `recovery`)."""
        path = path or database_path()
        opened = open_connection(path, clock, migrations)
        database = Database(opened.connection, path, clock, opened.users_lock)
        database.read_only = opened.read_only
        store = cls(database, regulation, opened.recovery, opened.migration_backup)
        try:
            store._players.refresh_keys()
            if not database.read_only and local.needs_backfill(database):  # made before sync
                local.backfill(database, store._history.without_versions())
            if not database.read_only and clock_merge.needs_backfill(database):
                clock_merge.backfill(database)  # clock rows made before clock versions
        except BaseException:
            store.close()
            raise
        return store

    @property
    def read_only(self) -> str | None:
        """Why the log could only be opened for reading (a read-only folder, a full disk), in
        one line; None when it can be written. Every write then refuses in one line."""
        return self._database.read_only

    @property
    def clock(self) -> Callable[[], datetime]:
        """Where every time the log writes comes from (a test may set its own)."""
        return self._database.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self._database.clock = clock

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection itself (tests and benchmarks read its settings)."""
        return self._database.connection

    def close(self) -> None:
        self._database.close()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- events and rounds (records/events.py) ------------------------------------------------

    def events(self) -> tuple[Event, ...]:
        """Every event, newest first."""
        return self._events.all()

    def event(self, event_id: str) -> Event | None:
        return self._events.get(event_id)

    def event_by_name(self, name: str) -> Event | None:
        return self._events.by_name(name)

    def create_event(
        self, name: str, day: date | None = None, *, existing_ok: bool = False
    ) -> Event:
        """A new event (refused when the name is taken, unless `existing_ok`: then that one)."""
        return self._events.create(name, day, existing_ok=existing_ok)

    def update_event(self, event_id: str, name: str, day: date | None) -> Event:
        """Renames an event and sets its date (None: no date)."""
        return self._saved(self._events.update(event_id, name, day))

    def set_rounds(self, event_id: str, rounds: Sequence[Round]) -> Event:
        """Replaces the event's rounds (numbers and optional assembly times)."""
        return self._saved(self._events.set_rounds(event_id, rounds))

    def set_round(self, event_id: str, number: int, assembly_at: datetime | None) -> Event:
        """Adds a round or changes its assembly time, leaving the others as they are."""
        return self._events.set_round(event_id, number, assembly_at)

    def current_event(self) -> Event:
        """The event records go to by default; created on first use, named by today's date."""
        return self._events.current()

    def set_current_event(self, event_id: str) -> Event:
        return self._events.set_current(event_id)

    # -- players (records/players.py) ---------------------------------------------------------

    def recent_players(
        self, prefix: str = "", *, event_id: str | None = None, limit: int = 8
    ) -> tuple[Player, ...]:
        """Names for type-ahead: players whose name (any word of it, or the whole name typed
        without spaces) or player ID starts with `prefix`, folded like search (width, case,
        kana: ゆき offers ユキ). Players of `event_id` first, then the most recently used."""
        return self._players.recent(prefix, event_id=event_id, limit=limit)

    def player_summaries(self, event_id: str) -> tuple[PlayerSummary, ...]:
        """The players of an event with their number of (live) records and highest tier, most
        recently penalised first. Forms of one player (identity rule) are one line, shown as
        most recently written."""
        return _players.summaries(self.records(event_id), self.regulation.tiers)

    # -- records, history, repeats (records/history.py) ---------------------------------------

    def add_record(self, event_id: str, entry: RecordInput) -> Record:
        """Saves a new record; when this returns, the record is on disk."""
        return self._saved(self._history.add(event_id, entry))

    def record(self, record_id: str) -> Record | None:
        """A record by id, a tombstone included."""
        return self._history.get(record_id)

    def edit_record(self, record_id: str, entry: RecordInput) -> Record:
        """Replaces a live record's fields with `entry` (the whole form)."""
        return self._saved(self._history.edit(record_id, entry))

    def delete_record(self, record_id: str) -> Record:
        """Marks a record deleted (a tombstone: kept, so that a merge never revives it)."""
        return self._saved(self._history.set_deleted(record_id, True))

    def restore_record(self, record_id: str) -> Record:
        """Undoes a deletion (newer than the tombstone, so it wins a merge too)."""
        return self._saved(self._history.set_deleted(record_id, False))

    def records(
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
        """An event's records, newest first (the log screen) or oldest first; optionally of one
        round, one table (as written, width-folded) and/or one player (`player` by the identity
        rule; `player_id` alone: by ID);
        deleted ones with `include_deleted`, or only those (`only_deleted`, the deleted list).

        Paging: `limit` records that come after `after` in this order; a screen shows the first
        page at once (`limit=100`) and asks for the next with `after=page[-1]`."""
        return self._history.of_event(
            event_id,
            round_number=round_number,
            table=table,
            player=player,
            player_id=player_id,
            newest_first=newest_first,
            include_deleted=include_deleted,
            only_deleted=only_deleted,
            limit=limit,
            after=after,
        )

    def player_history(self, event_id: str, player: Player) -> tuple[Record, ...]:
        """Everything recorded about one player in an event, oldest first."""
        return self.records(event_id, player=player, newest_first=False)

    def check_repeat(
        self, event_id: str, player: Player, infraction_id: str, tier_id: str | None = None
    ) -> RepeatCheck:
        """Before saving: the player's live records of this infraction in this event, and the
        app's suggestion, the tier one above the infraction's own penalty (none when `tier_id`,
        the form's choice, is already above it: records/tiers.py). Never changes anything."""
        return self._history.check_repeat(event_id, player, infraction_id, tier_id)

    def repeats_of(self, record: Record) -> RepeatCheck:
        """For a saved record: the live records of the same player and infraction in its event
        created before it, and the tier one above its own."""
        return self._history.repeats_of(record)

    def suggest_tardiness(
        self, event_id: str, round_number: int, arrived_at: datetime | None = None
    ) -> TardinessSuggestion:
        """The tardiness entry for a player arriving at `arrived_at` (default: now) in a round
        with an assembly time. Raises InvalidInput when the round has none."""
        return self._history.suggest_tardiness(event_id, round_number, arrived_at)

    def record_versions(self, record_id: str) -> tuple[RecordVersion, ...]:
        """Every saved version of a record, oldest first (the last is the current one), each
        with who saved it and when (records/sync/hlc.py: the rule)."""
        with self._database.lock:
            found = versions.history(self._database.connection, RECORD, record_id)
        return tuple(
            RecordVersion(record_from(v), v.saved_by, v.saved_at, i == len(found) - 1)
            for i, v in enumerate(found)
        )

    # -- exchange and sync (records/merge.py, records/exchange.py, records/sync/) --------------

    def merge(self, incoming: ImportedEvent) -> MergeReport:
        """Merges another device's export in one transaction (the rule: records/merge.py)."""
        return self._saved(merge(self._database, self._events, self._history, incoming))

    def export_versions(self, event_id: str) -> tuple[ItemVersion, ...]:
        """Every saved version of an event's settings and records (for JSON exports)."""
        with self._database.lock:
            return versions.of_event(self._database.connection, event_id)

    def ledger(self) -> Ledger:
        """What venue sync reads and writes here (records/sync/ledger.py)."""
        return Ledger(
            self._database, self._events, self._history, self.regulation, self._notify_saved
        )

    def add_save_listener(self, listener: Callable[[], None]) -> None:
        """`listener()` after each change saved here (venue sync sends it soon)."""
        self._save_listeners.append(listener)

    def _saved(self, result: _T) -> _T:
        self._notify_saved()
        return result

    def _notify_saved(self) -> None:
        for listener in list(self._save_listeners):
            listener()

    def export_records(self, event_id: str) -> tuple[Event, tuple[Record, ...]]:
        """An event and all its records, tombstones included, oldest first (for exports)."""
        event = self._events.or_fail(event_id)
        return event, self.records(event_id, newest_first=False, include_deleted=True)

    # -- maintenance ----------------------------------------------------------------------------

    def integrity_check(self) -> str:
        """'ok', or SQLite's first complaint."""
        return self._database.integrity_check()

"""The round clock, computed from stored instants: never a ticking counter.

A round has a length, a start (correctable), pause and resume marks, and per-table extensions.
Everything a screen or the command line shows is a function of those and of the instant asked
about (`at`), so a phone that slept, a reload, a restart or another device with the same data
shows the same time. Instants are timezone-aware: a device whose clock changed zone since the
start, or a round crossing midnight, computes the same durations; only the display converts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from .errors import InvalidInput

DEFAULT_ROUND_MINUTES = 50
MAX_ROUND_MINUTES = 24 * 60  # a longer "round" is a typing mistake
MAX_EXTENSION_MINUTES = 24 * 60
WARNING_MARKS_S = (600, 300, 0)  # 10 minutes, 5 minutes, time: the screen changes there

MarkKind = Literal["pause", "resume"]


@dataclass(frozen=True, slots=True)
class PauseMark:
    """A judge paused or resumed a round at `at` (a venue announcement, a power cut)."""

    id: str  # UUID
    kind: MarkKind
    at: datetime


@dataclass(frozen=True, slots=True)
class Extension:
    """Extra time owed to one table: a judge call's duration, a deck check, by hand."""

    id: str  # UUID
    table: str
    minutes: int
    record_id: str | None  # the record this call produced, if linked
    finished: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TableEnd:
    """One table of the end-of-round list: its extensions added up and when it ends."""

    table: str
    minutes: int
    ends_at: datetime
    finished: bool
    record_ids: tuple[str, ...]
    extension_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundClock:
    """One round's clock as stored. `started_at` None: not started yet."""

    number: int
    minutes: int
    started_at: datetime | None
    marks: tuple[PauseMark, ...] = ()  # any order; see `pauses`
    extensions: tuple[Extension, ...] = ()

    @property
    def started(self) -> bool:
        return self.started_at is not None

    def pauses(self) -> tuple[tuple[datetime, datetime | None], ...]:
        """The pauses after the start, as (from, to) with `to` None while still paused.

        Marks from two devices may not alternate: a pause while paused and a resume while
        running are ignored, so every device reads the same intervals from the same marks."""
        if self.started_at is None:
            return ()
        intervals: list[tuple[datetime, datetime | None]] = []
        since: datetime | None = None
        for mark in sorted(self.marks, key=lambda m: (m.at, m.kind == "pause", m.id)):
            at = max(mark.at, self.started_at)
            if mark.kind == "pause" and since is None:
                since = at
            elif mark.kind == "resume" and since is not None:
                intervals.append((since, at))
                since = None
        if since is not None:
            intervals.append((since, None))
        return tuple(intervals)

    def paused_at(self, at: datetime) -> bool:
        return any(start <= at and (end is None or at < end) for start, end in self.pauses())

    def paused_seconds(self, at: datetime) -> float:
        """Time spent paused between the start and `at`."""
        total = 0.0
        for start, end in self.pauses():
            stop = at if end is None else min(end, at)
            if stop > start:
                total += (stop - start).total_seconds()
        return total

    def ends_at(self, at: datetime) -> datetime | None:
        """The round's end as known at `at` (a running pause pushes it on as it lasts)."""
        if self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.minutes, seconds=self.paused_seconds(at))

    def remaining_seconds(self, at: datetime) -> float | None:
        """Seconds left at `at`; negative once time is called (the overtime)."""
        end = self.ends_at(at)
        return None if end is None else (end - at).total_seconds()

    def tables(self, at: datetime) -> tuple[TableEnd, ...]:
        """The end-of-round list: each table with extensions (two of one table add up), by
        the time it ends, then by table (numbers in number order)."""
        end = self.ends_at(at)
        if end is None:
            return ()
        grouped: dict[str, list[Extension]] = {}
        for extension in sorted(self.extensions, key=lambda e: (e.created_at, e.id)):
            grouped.setdefault(extension.table, []).append(extension)
        rows = []
        for table, extensions in grouped.items():
            minutes = sum(e.minutes for e in extensions)
            rows.append(
                TableEnd(
                    table=table,
                    minutes=minutes,
                    ends_at=end + timedelta(minutes=minutes),
                    finished=all(e.finished for e in extensions),
                    record_ids=tuple(e.record_id for e in extensions if e.record_id),
                    extension_ids=tuple(e.id for e in extensions),
                )
            )
        return tuple(sorted(rows, key=lambda r: (r.ends_at, _table_order(r.table))))

    def real_end(self, at: datetime) -> datetime | None:
        """When the last table ends: the round's real end."""
        end = self.ends_at(at)
        if end is None:
            return None
        return max([end, *(row.ends_at for row in self.tables(at))])


def _table_order(table: str) -> tuple[int, int, str]:
    return (0, int(table), "") if table.isdigit() else (1, 0, table)


def stopwatch_minutes(started: datetime, stopped: datetime) -> int:
    """A judge call's extension: its length rounded up to the whole minute, at least one."""
    seconds = (stopped - started).total_seconds()
    return max(1, math.ceil(seconds / 60 - 1e-9))


def countdown(seconds: float) -> str:
    """What the clock shows: 49:59 while time remains, +3:05 in overtime, 1:02:03 past an hour.

    Remaining time is rounded up (at 49:59.4 the round still has its 50th minute's second), so
    0:00 appears exactly at time; overtime is rounded down."""
    over = seconds < 0
    whole = math.floor(-seconds) if over else math.ceil(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
    return f"+{text}" if over else text


def warning_level(seconds: float | None) -> int:
    """0 with more than 10 minutes left (or not started), 1 under 10, 2 under 5, 3 at time."""
    if seconds is None:
        return 0
    return sum(1 for mark in WARNING_MARKS_S if seconds <= mark)


def round_minutes(value: object, field: str = "minutes") -> int:
    """A round's length: 1 minute to 24 hours."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{field}: must be a whole number of minutes", field, "format")
    if not 1 <= value <= MAX_ROUND_MINUTES:
        raise InvalidInput(
            f"{field}: a round lasts 1 to {MAX_ROUND_MINUTES} minutes, not {value}",
            field,
            "out_of_range",
        )
    return value


def extension_minutes(value: object, field: str = "minutes") -> int:
    """An extension: 1 minute to 24 hours."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{field}: must be a whole number of minutes", field, "format")
    if not 1 <= value <= MAX_EXTENSION_MINUTES:
        raise InvalidInput(
            f"{field}: an extension is 1 to {MAX_EXTENSION_MINUTES} minutes, not {value}",
            field,
            "out_of_range",
        )
    return value


def parse_instant(text: str, now: datetime, field: str = "time") -> datetime:
    """A typed time: ISO 8601 with offset; without one, the device's local time; "HH:MM" (or
    "H:MM:SS") is today, in the zone of `now`. Raises InvalidInput with one line."""
    value = text.strip()
    if not value:
        raise InvalidInput(f"{field}: required", field, "required")
    try:
        if len(value) <= 8 and ":" in value and "-" not in value:
            clock = datetime.strptime(value, "%H:%M:%S" if value.count(":") == 2 else "%H:%M")
            return now.replace(
                hour=clock.hour, minute=clock.minute, second=clock.second, microsecond=0
            )
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            f"{field}: not a time: {text!r} (e.g. 13:05 or 2026-11-28T13:05+09:00)",
            field,
            "format",
        ) from None
    return parsed if parsed.tzinfo is not None else parsed.astimezone()

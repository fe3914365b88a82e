"""The penalty log as typed, immutable values: what the store returns and the screens show.

Times are timezone-aware `datetime`s (ISO 8601 with offset when written out); ids of events and
records are UUID strings, stable across devices so that exports merge.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from .identity import id_key, name_key


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the judge wrote them: a name and, when known, a player ID."""

    name: str
    player_id: str | None = None

    @property
    def name_key(self) -> str:
        return name_key(self.name)

    @property
    def id_key(self) -> str | None:
        return id_key(self.player_id)


@dataclass(frozen=True, slots=True)
class Round:
    """A round of an event; its assembly time (集合時間) turns "arrived now" into minutes late."""

    number: int  # 1-based
    assembly_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament: records belong to exactly one."""

    id: str  # UUID
    name: str  # unique on this device
    date: date | None
    rounds: tuple[Round, ...] = ()

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)


@dataclass(frozen=True, slots=True)
class RecordInput:
    """What the record form collects. `tier_id` None means the infraction's own tier."""

    player: Player
    infraction_id: str
    tier_id: str | None = None
    round: int | None = None
    table: str | None = None
    note: str | None = None
    # Evidence of a tardiness (issue 20, item 5): when the player arrived, and how late that
    # was after the round's assembly time, in whole seconds (8 min 26 s: 506).
    arrived_at: datetime | None = None
    late_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class RecordedBy:
    """Who saved something: the judge's name and the device's id (records/sync)."""

    judge: str
    device: str


@dataclass(frozen=True, slots=True)
class Record:
    """One penalty the judge recorded. A deleted record stays as a tombstone (`deleted`).

    `recorded_by` is who first recorded it (None for records made before venue sync)."""

    id: str  # UUID
    event_id: str  # the event's UUID
    created_at: datetime
    updated_at: datetime
    round: int | None
    table: str | None
    player: Player
    infraction_id: str
    tier_id: str
    note: str | None
    deleted: bool = False
    recorded_by: RecordedBy | None = None
    arrived_at: datetime | None = None  # tardiness evidence (RecordInput)
    late_seconds: int | None = None
    # The repeat count when the record was saved (1: a first infraction, 2: the first repeat),
    # as the judge was told it; None for records saved before it was kept.
    occurrence: int | None = None


@dataclass(frozen=True, slots=True)
class RecordVersion:
    """One saved version of a record (its history, oldest first): who saved it and when (the
    saving device's clock). `current` marks the version every device shows (records/sync/rule)."""

    record: Record
    recorded_by: RecordedBy | None
    saved_at: datetime
    current: bool


@dataclass(frozen=True, slots=True)
class RepeatCheck:
    """Earlier records of the same player with the same infraction in the same event, and of
    other infractions of the same section (related: 3 minutes late, then 7; the judge decides
    whether they are the same infraction).

    The regulation lets the judge apply "a higher penalty" to a repeated infraction (同一の違反を
    繰り返した場合、ジャッジはより上位の罰則を適用できる) and names no tier; the log only says so
    and, as the app's suggestion, names the tier one above the infraction's own
    (records.tiers.suggested_tier_up). It never changes a tier itself.
    """

    previous: tuple[Record, ...]  # oldest first
    # The suggestion; None above Total Disqualification or once a higher tier is chosen.
    next_tier_id: str | None
    related: tuple[Record, ...] = ()  # same section, another infraction; oldest first
    higher_chosen: bool = False  # a tier above the infraction's own is already chosen

    @property
    def is_repeat(self) -> bool:
        return bool(self.previous)

    @property
    def has_related(self) -> bool:
        return bool(self.related)

    @property
    def occurrence(self) -> int:
        """1 for a first infraction, 2 for the first repeat, …"""
        return len(self.previous) + 1


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's line in an event's player list."""

    player: Player
    records: int
    highest_tier_id: str
    last_at: datetime


@dataclass(frozen=True, slots=True)
class MergeReport:
    """What importing another device's export did."""

    event: Event
    added: int
    updated: int
    unchanged: int
    event_created: bool = False
    # Records whose UUID already lives in another event of this log: merged there by the same
    # rule, never moved (records/merge.py); the names of those events, in the report's words.
    elsewhere: int = 0
    elsewhere_events: tuple[str, ...] = ()
    clock: tuple[int, int, int] = (0, 0, 0)  # round clock rows added, updated, unchanged

    def as_dict(self) -> dict[str, object]:
        """The command line's JSON report; `elsewhere` (and those events' names) only when
        there are any, so that the usual report keeps the contract's three counts."""
        counts: dict[str, object] = {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
        }
        if self.elsewhere:
            counts |= {"elsewhere": self.elsewhere, "elsewhere_events": list(self.elsewhere_events)}
        return counts


@dataclass(frozen=True, slots=True)
class Recovery:
    """A damaged or foreign database file found at start-up, moved aside (never deleted)."""

    original: Path
    moved_to: Path
    fault: str

    @property
    def message(self) -> str:
        return (
            f"the penalty log {self.original} could not be read ({self.fault}); "
            f"it was kept as {self.moved_to.name} and a new log was started"
        )

"""The rules every value obeys before it reaches the database, wherever it came from (the
record form, the command line, another device's export)."""

from __future__ import annotations

import unicodedata
from datetime import UTC, date, datetime, timedelta
from typing import Any

from regulation.model import Regulation

from .errors import InvalidInput
from .identity import visible
from .model import Player, RecordInput

MAX_NAME = 100
MAX_PLAYER_ID = 64
MAX_TABLE = 32
MAX_NOTE = 2000
MAX_EVENT_NAME = 100
MAX_ROUND = 999
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)  # the times a record, a round or an event may carry
LATEST = datetime(2100, 1, 1, tzinfo=UTC)
_EARLIEST_UTC, _LATEST_UTC = EARLIEST.replace(tzinfo=None), LATEST.replace(tzinfo=None)
MAX_UTC_OFFSET = timedelta(hours=14)  # Kiribati's +14:00; the most negative is -12:00
_LINE_BREAKS = frozenset("\n\t")  # allowed in names and notes; every other control refused


def text(
    value: Any, field: str, limit: int, *, required: bool = False, multiline: bool = False
) -> str | None:
    """Stripped text, None when empty and not required. Refuses other types, over-long text
    and control characters (line breaks, as \n, and tabs only where `multiline`)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(f"{field}: must be text", field, "format")
    if multiline:  # one kind of line break, whatever the keyboard or the paste sent
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    value = value.strip()
    if not value:
        if required:
            raise InvalidInput(f"{field}: required", field, "required")
        return None
    if len(value) > limit:
        raise InvalidInput(f"{field}: longer than {limit} characters", field, "too_long")
    # Printable text holds no control character (Cc) and no surrogate (Cs): the loop only
    # for the rest.
    for char in "" if value.isprintable() else value:
        category = unicodedata.category(char)
        if category == "Cc" and not (multiline and char in _LINE_BREAKS):
            raise InvalidInput(
                f"{field}: contains a control character (U+{ord(char):04X})",
                field,
                "control_character",
            )
        if category == "Cs":  # half a UTF-16 pair (JSON's \ud800), or bytes that were not UTF-8
            raise InvalidInput(
                f"{field}: not valid text (a lone surrogate U+{ord(char):04X}, or bytes that "
                "are not UTF-8)",
                field,
                "format",
            )
    return value


def round_number(value: Any, field: str = "round") -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{field}: must be a whole number", field, "format")
    if not 1 <= value <= MAX_ROUND:
        raise InvalidInput(f"{field}: must be 1 to {MAX_ROUND}", field, "out_of_range")
    return value


def player(value: Player, field: str = "player") -> Player:
    return player_from(value.name, value.player_id, field)


def player_from(name: Any, player_id: Any, field: str = "player") -> Player:
    """A Player from raw values (a form's, a file's), checked. A name or an ID of invisible
    characters only (zero width spaces, bidi controls: records/identity.py) is refused."""
    cleaned = text(name, f"{field}.name", MAX_NAME, required=True, multiline=True)
    assert cleaned is not None  # required
    cleaned_id = text(player_id, f"{field}.id", MAX_PLAYER_ID)
    for where, value in ((f"{field}.name", cleaned), (f"{field}.id", cleaned_id)):
        if value is not None and not visible(value).strip():
            raise InvalidInput(
                f"{where}: only invisible characters (U+{ord(value[0]):04X}…)", where, "required"
            )
    return Player(cleaned, cleaned_id)


def infraction_id(regulation: Regulation, value: Any, field: str = "infraction") -> str:
    if not isinstance(value, str) or regulation.infraction(value) is None:
        raise InvalidInput(f"{field}: unknown infraction id {value!r}", field, "unknown_id")
    return value


def tier_id(regulation: Regulation, value: Any, field: str = "tier") -> str:
    if not isinstance(value, str) or regulation.tier(value) is None:
        raise InvalidInput(f"{field}: unknown tier id {value!r}", field, "unknown_id")
    return value


def record_input(regulation: Regulation, entry: RecordInput) -> RecordInput:
    """`entry` cleaned, with the tier filled in from the infraction when not chosen."""
    infraction = infraction_id(regulation, entry.infraction_id)
    tier = entry.tier_id
    if tier is None or (isinstance(tier, str) and not tier.strip()):
        found = regulation.infraction(infraction)
        assert found is not None
        tier = found.penalty.id
    return RecordInput(
        player=player(entry.player),
        infraction_id=infraction,
        tier_id=tier_id(regulation, tier),
        round=round_number(entry.round),
        table=table_label(entry.table),
        note=text(entry.note, "note", MAX_NOTE, multiline=True),
        arrived_at=None if entry.arrived_at is None else aware(entry.arrived_at, "arrived_at"),
        late_seconds=late_seconds(entry.late_seconds),
    )


def late_seconds(value: Any, field: str = "late_seconds") -> int | None:
    """Seconds late after the assembly time: a whole number ≥ 0, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"{field}: must be a whole number of seconds ≥ 0", field)
    return value


def occurrence(value: Any, field: str = "occurrence") -> int | None:
    """A repeat count: a whole number ≥ 1, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"{field}: must be a whole number ≥ 1", field)
    return value


def table_label(value: Any, field: str = "table") -> str | None:
    """A table number or label; width-folded (１２ → 12) so that one table has one spelling."""
    cleaned = text(value, field, MAX_TABLE)
    return unicodedata.normalize("NFKC", cleaned) if cleaned else None


def event_name(value: Any, field: str = "event.name") -> str:
    name = text(value, field, MAX_EVENT_NAME, required=True)
    assert name is not None
    if not visible(name).strip():
        raise InvalidInput(f"{field}: only invisible characters", field, "required")
    return name


def aware(value: datetime, field: str) -> datetime:
    """A date and time with a UTC offset, within the bounds every screen can show: the years
    2000-2099 and a real offset (±14:00). Far outside them (9999-12-31, an offset of -23:59)
    a time cannot be shown in the device's time zone, or moved a microsecond on for an edit,
    without overflowing."""
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(f"{field}: must be a date and time with a UTC offset", field, "format")
    offset = value.utcoffset()
    assert offset is not None
    if abs(offset) > MAX_UTC_OFFSET:
        raise InvalidInput(
            f"{field}: UTC offset {value.isoformat()[-6:]} out of range (-12:00 to +14:00 exist)",
            field,
            "out_of_range",
        )
    try:  # the instant in UTC without a time zone: compared several times faster than aware
        within = _EARLIEST_UTC <= value.replace(tzinfo=None) - offset < _LATEST_UTC
    except OverflowError:  # year 1 at +01:00, year 9999 at -01:00
        within = False
    if not within:
        raise InvalidInput(
            f"{field}: {value.isoformat()} is not between {EARLIEST.year} and {LATEST.year - 1}",
            field,
            "out_of_range",
        )
    return value


def iso_datetime(value: Any, field: str) -> datetime:
    """An ISO 8601 date and time with offset, as written in an export."""
    if not isinstance(value, str):
        raise InvalidInput(f"{field}: must be an ISO 8601 date and time", field, "format")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            f"{field}: not an ISO 8601 date and time: {value!r}", field, "format"
        ) from None
    return aware(parsed, field)


def iso_date(value: Any, field: str) -> date | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{field}: must be a date (YYYY-MM-DD)", field, "format")
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            f"{field}: not a date (YYYY-MM-DD): {value!r}", field, "format"
        ) from None
    if not EARLIEST.year <= day.year < LATEST.year:
        raise InvalidInput(
            f"{field}: {day} is not between {EARLIEST.year} and {LATEST.year - 1}",
            field,
            "out_of_range",
        )
    return day

"""The JSON export of an event (for other devices) and reading an export back (the CSV for
spreadsheets is records/csv_export.py).

JSON export, format version 2 (`FORMAT`, `FORMAT_VERSION`; version 1 is still read)::

    {"format": "ocg-penalty-guide/penalty-log", "version": 2,
     "exported_at": ISO, "app_version": "1.0.0",
     "event": {"id": UUID, "name": STR, "date": "YYYY-MM-DD"|null,
               "rounds": [{"number": N, "assembly_at": ISO|null}…], "versions": [ITEM…]},
     "records": [RECORD + {"deleted": BOOL, "versions": [ITEM…]}…],
     "clock": CLOCK}

RECORD is the command line's (docs): {"id", "event" (the event's name), "created_at",
"updated_at" (ISO 8601 with offset), "round", "table", "player": {"name", "id"},
"infraction", "tier", "note", "recorded_by": {"judge", "device"}|null}. Records are oldest
first and include deletions (`"deleted": true`, kept so that a merge never brings a deleted
record back). Readers ignore keys they do not know; a change that an older reader would misread
gets a new `version`.

Version 2 adds (all optional when reading): `recorded_by`, and `versions`, every saved version of
the record or of the event's settings as venue sync sends them (ITEM: records/sync/protocol.py),
so that a file and sync merge by the same rule (records/merge.py). Without `versions` a record
counts as one version stamped from its `updated_at`. CLOCK (version 2, optional) is the event's
round clock (lengths, starts, pauses, extensions), every row with its UUID, instants and
tombstone (records/clock_rows.py), and `versions`, every version of those rows (ITEM, kinds
"clock.*": records/sync/clock_items.py); an import merges them by the records' rule, a row
without versions counting as one version stamped from its `updated_at`.

Also since version 2, each record's evidence: "arrived_at" (ISO or null: when a late player
arrived), "late_seconds" (whole seconds after the assembly time, or null) and "occurrence" (the
repeat count when it was recorded: 1 a first infraction, 2 the first repeat; null when unknown).

`parse_export` refuses anything else (not JSON, no or another `format`, another version, a
missing or ill-typed field, an unknown infraction or tier id, a repeated record id) with one line
naming the file, the place and the fault.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regulation import APP_VERSION
from regulation.model import Regulation

from . import validate
from .clock_rows import ClockData, clock_json, parse_clock
from .database import iso, now_local
from .errors import InvalidInput, LogError
from .faults import describe_fault
from .merge import ImportedEvent
from .model import Event, Record, Round
from .record_check import checked_fields
from .sync.clock_items import CLOCK_KINDS
from .sync.hlc import orderable
from .sync.items import EVENT, RECORD, ItemVersion
from .sync.local import legacy_version
from .sync.protocol import item_json, parse_item

if TYPE_CHECKING:
    from .store import LogStore

FORMAT = "ocg-penalty-guide/penalty-log"
FORMAT_VERSION = 2  # 2: recorded_by, versions, each record's evidence
MAX_IMPORT_BYTES = 50 * 1024 * 1024
# The parser's work and memory are bounded before it starts: a file of 50 MB holds at most
# about 170,000 records (300 bytes each at the least), two objects each, so a million objects
# and lists is far above any export, while 50 MB of `[{},{},…]` (17 million of them, 1.4 GB
# in memory) is refused unread. Counted as bytes, so braces inside text count too: a file
# would need 800,000 of them in its notes to be refused wrongly.
MAX_CONTAINERS = 1_000_000
MAX_DIGITS = 18  # a number in an export is a round or a version: nothing needs more


# -- out ---------------------------------------------------------------------------------------


def record_json(record: Record, event_name: str) -> dict[str, Any]:
    """RECORD of the command-line contract."""
    return {
        "id": record.id,
        "event": event_name,
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
        "round": record.round,
        "table": record.table,
        "player": {"name": record.player.name, "id": record.player.player_id},
        "infraction": record.infraction_id,
        "tier": record.tier_id,
        "note": record.note,
        "recorded_by": (
            {"judge": record.recorded_by.judge, "device": record.recorded_by.device}
            if record.recorded_by
            else None
        ),
    }


def evidence_json(record: Record) -> dict[str, Any]:
    """The record's evidence in an export (format version 2)."""
    return {
        "arrived_at": iso(record.arrived_at) if record.arrived_at else None,
        "late_seconds": record.late_seconds,
        "occurrence": record.occurrence,
    }


def export_json(
    event: Event,
    records: tuple[Record, ...],
    versions: Sequence[ItemVersion] = (),
    clock: ClockData | None = None,
) -> dict[str, Any]:
    """The export; with `versions` (LogStore.export_versions), each thing's history too."""
    by_item: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for version in versions:
        by_item.setdefault((version.kind, version.item_id), []).append(item_json(version))
    payload: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": iso(now_local()),
        "app_version": APP_VERSION,
        "event": {
            "id": event.id,
            "name": event.name,
            "date": event.date.isoformat() if event.date else None,
            "rounds": [
                {
                    "number": r.number,
                    "assembly_at": iso(r.assembly_at) if r.assembly_at else None,
                }
                for r in event.rounds
            ],
        },
        "records": [
            {**record_json(r, event.name), **evidence_json(r), "deleted": r.deleted}
            for r in records
        ],
        "clock": clock_json(clock or ClockData()),
    }
    if versions:
        payload["event"]["versions"] = by_item.get((EVENT, event.id), [])
        for entry in payload["records"]:
            entry["versions"] = by_item.get((RECORD, entry["id"]), [])
        payload["clock"]["versions"] = [item_json(v) for v in versions if v.kind in CLOCK_KINDS]
    return payload


def event_export(store: LogStore, event_id: str) -> tuple[dict[str, Any], int]:
    """The JSON export of an event, round clock included, and how many live records it holds."""
    event, records = store.export_records(event_id)
    payload = export_json(
        event, records, store.export_versions(event_id), store.round_clock.rows(event_id)
    )
    return payload, sum(not r.deleted for r in records)


def json_bytes(payload: dict[str, Any]) -> bytes:
    return (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# -- in ----------------------------------------------------------------------------------------


def read_export(path: Path, regulation: Regulation) -> ImportedEvent:
    """Reads and validates an export file. Raises LogError with one line; changes nothing."""
    return parse_export(read_limited(path), regulation, str(path))


def read_limited(path: Path, limit: int = MAX_IMPORT_BYTES) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them (else LogError).

    Only a regular file is read: a device (/dev/zero never ends) or a pipe (a FIFO with no
    writer would block for ever) is refused at once. The open does not block (O_NONBLOCK), and
    the read stops one byte past the limit, whatever the file's size says (a device's is 0)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except OSError as exc:
        raise describe_fault(exc, path, "import refused: cannot read the file") from None
    try:
        regular = stat.S_ISREG(os.fstat(handle).st_mode)
        if regular:
            with open(handle, "rb", closefd=False) as file:
                data = file.read(limit + 1)
    except OSError as exc:
        raise describe_fault(exc, path, "import refused: cannot read the file") from None
    finally:
        os.close(handle)
    if not regular:
        raise LogError(
            f"import refused: {path}: not a file (a folder, a device or a pipe); "
            "nothing was imported"
        )
    if len(data) > limit:
        raise LogError(f"import refused: {path}: larger than {limit} bytes; nothing was imported")
    return data


def parse_export(data: bytes, regulation: Regulation, source: str = "import") -> ImportedEvent:
    """Validates an export's bytes (a file's, a paste's). Raises InvalidInput with one line
    naming `source`, whatever the bytes: nothing here ends in a traceback."""
    try:
        if len(data) > MAX_IMPORT_BYTES:
            raise InvalidInput(f"larger than {MAX_IMPORT_BYTES} bytes", None, "too_long")
        return _parse(data, regulation)
    except InvalidInput as exc:
        raise InvalidInput(
            f"import refused: {source}: {exc}; nothing was imported", exc.field, exc.reason
        ) from None


def _parse(data: bytes, regulation: Regulation) -> ImportedEvent:
    containers = data.count(b"{") + data.count(b"[")  # before a decoded copy is made
    if containers > MAX_CONTAINERS:
        raise InvalidInput(
            f"not a penalty log export (more than {MAX_CONTAINERS:,} objects and lists)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("not a penalty log export (not UTF-8 text)") from None
    try:
        payload = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"not a penalty log export (not JSON: line {exc.lineno} column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:  # 100,000 nested [: an export nests four deep
        raise InvalidInput("not a penalty log export (nested too deeply)") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise InvalidInput(f'not a penalty log export (no "format": "{FORMAT}")')
    version = payload.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidInput(f"version: not a format version: {version!r}", "version")
    if version > FORMAT_VERSION:
        raise InvalidInput(
            f"made by a newer version of the app (format version {version}; "
            f"this app reads {FORMAT_VERSION}): update the app",
            "version",
        )
    event = _object(payload, "event", "event")
    event_id = _uuid(event.get("id"), "event.id")
    event_name = validate.event_name(event.get("name"), "event.name")
    event_date = validate.iso_date(event.get("date"), "event.date")
    rounds = []
    numbers: set[int] = set()
    for index, entry in enumerate(_list(event, "rounds", "event.rounds", required=False)):
        where = f"event.rounds[{index}]"
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where}: must be an object", where)
        number = validate.round_number(entry.get("number"), f"{where}.number")
        if number is None:
            raise InvalidInput(f"{where}.number: required", f"{where}.number", "required")
        if number in numbers:
            raise InvalidInput(f"{where}: round {number} given twice", where, "duplicate")
        numbers.add(number)
        at = entry.get("assembly_at")
        rounds.append(
            Round(number, None if at is None else validate.iso_datetime(at, f"{where}.assembly_at"))
        )
    records = []
    found = _versions(event, "event", (EVENT,), event_id, event_id, regulation)
    seen: set[str] = set()
    for index, entry in enumerate(_list(payload, "records", "records")):
        record = _record(entry, f"records[{index}]", event_id, event_name, regulation)
        if record.id in seen:
            raise InvalidInput(
                f"records[{index}].id: {record.id} appears twice",
                f"records[{index}].id",
                "duplicate",
            )
        seen.add(record.id)
        found += _versions(entry, f"records[{index}]", (RECORD,), record.id, event_id, regulation)
        records.append(record)
    clock = parse_clock(payload.get("clock"))
    found += _versions(payload.get("clock"), "clock", CLOCK_KINDS, None, event_id, regulation)
    if found:  # a record without versions counts as one (as from a version-1 file)
        have = {v.item_id for v in found if v.kind == RECORD}
        found += [legacy_version(r) for r in records if r.id not in have]
    return ImportedEvent(
        event_id, event_name, event_date, tuple(rounds), tuple(records), tuple(found), clock
    )


def _versions(
    entry: Any,
    where: str,
    kinds: tuple[str, ...],
    item_id: str | None,
    event_id: str,
    regulation: Regulation,
) -> list[ItemVersion]:
    """A thing's `versions` (format 2; item_id None: the clock's rows), each checked as venue
    sync checks it."""
    given = entry.get("versions", []) if isinstance(entry, dict) else []
    if not isinstance(given, list):
        raise InvalidInput(f"{where}.versions: must be a list", f"{where}.versions")
    found = []
    for index, item in enumerate(given):
        at = f"{where}.versions[{index}]"
        version = parse_item(item, at, event_id, regulation)
        if version.kind not in kinds or item_id not in (None, version.item_id):
            raise InvalidInput(f"{at}: a version of something else", at)
        found.append(version)
    return found


def _bounded_int(digits: str) -> int:
    """An integer of the JSON text; refuses a number no export holds before converting it
    (a 5000-digit number would otherwise cost quadratic time, then a ValueError)."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise InvalidInput(f"not a penalty log export (a number of {len(digits):,} digits)")
    return int(digits)


def _record(
    entry: Any, where: str, event_id: str, event_name: str, regulation: Regulation
) -> Record:
    if not isinstance(entry, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    if entry.get("event") != event_name:
        raise InvalidInput(
            f"{where}.event: {entry.get('event')!r} is not the exported event {event_name!r}",
            f"{where}.event",
        )
    player = _object(entry, "player", f"{where}.player")
    for key in ("round", "table", "note"):
        if key not in entry:
            raise InvalidInput(
                f"{where}.{key}: missing (null when empty)", f"{where}.{key}", "required"
            )
    for key in ("created_at", "updated_at"):
        moment = validate.iso_datetime(entry.get(key), f"{where}.{key}")
        if not orderable(moment):
            raise InvalidInput(
                f"{where}.{key}: {moment.year} is outside the years the log can order",
                f"{where}.{key}",
                "out_of_range",
            )
    deleted = entry.get("deleted", False)
    if not isinstance(deleted, bool):
        raise InvalidInput(f"{where}.deleted: must be true or false", f"{where}.deleted")
    record_id = _uuid(entry.get("id"), f"{where}.id")
    fields = checked_fields(entry, player, where, regulation)
    return Record(
        id=record_id,
        event_id=event_id,
        created_at=validate.iso_datetime(entry.get("created_at"), f"{where}.created_at"),
        updated_at=validate.iso_datetime(entry.get("updated_at"), f"{where}.updated_at"),
        round=fields.round,
        table=fields.table,
        player=fields.player,
        infraction_id=fields.infraction_id,
        tier_id=fields.tier_id,
        note=fields.note,
        deleted=deleted,
        recorded_by=fields.recorded_by,
        arrived_at=fields.arrived_at,
        late_seconds=fields.late_seconds,
        occurrence=fields.occurrence,
    )


def _object(parent: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = parent.get(key)
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: missing or not an object", where, "required")
    return value


def _list(parent: dict[str, Any], key: str, where: str, *, required: bool = True) -> list[Any]:
    value = parent.get(key, None if required else [])
    if not isinstance(value, list):
        raise InvalidInput(f"{where}: missing or not a list", where, "required")
    return value


def _uuid(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: missing or not a UUID", where, "required")
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise InvalidInput(f"{where}: not a UUID: {value!r}", where) from None

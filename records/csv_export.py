"""The CSV export of an event, for spreadsheets (the JSON export is records/exchange.py).

UTF-8 with a BOM (a Japanese spreadsheet then reads it as UTF-8), one row a live record, oldest
first, columns `CSV_COLUMNS`. A text cell that a spreadsheet would take for a formula (starting
with = + - @) gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import unicodedata

from regulation.model import Regulation

from .database import iso
from .model import Event, Record

CSV_COLUMNS = (
    "record_id",
    "event",
    "created_at",
    "updated_at",
    "round",
    "table",
    "player_name",
    "player_id",
    "infraction_id",
    "infraction_ja",
    "infraction_en",
    "tier_id",
    "tier_ja",
    "tier_en",
    "note",
    "recorded_by_judge",
    "recorded_by_device",
    "arrived_at",  # a late player's arrival (ISO 8601)
    "late_minutes",  # how late after the assembly time: whole minutes…
    "late_seconds",  # …and the seconds beyond them (8 min 26 s: 8 and 26)
    "occurrence",  # the repeat count when recorded (2: the first repeat)
)
# A cell a spreadsheet may run as a formula: starting with = + - @ (or a tab or CR, which
# move to the next cell), in any width: ＝ ＋ － ＠ and their small forms (NFKC folds them
# to these). LibreOffice 7.4, checked here, keeps "＝1+1" as text; Excel, which turns formula
# characters typed full-width on a Japanese keyboard into a formula, could not be checked
# offline; a leading apostrophe costs nothing where it was not needed.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: str | None) -> str:
    if not value:
        return ""
    first = unicodedata.normalize("NFKC", value[0])
    return "'" + value if first.startswith(_FORMULA_STARTS) else value


def _late_cells(late_seconds: int | None) -> tuple[str, str]:
    if late_seconds is None:
        return "", ""
    return str(late_seconds // 60), str(late_seconds % 60)


def export_csv(event: Event, records: tuple[Record, ...], regulation: Regulation) -> bytes:
    """The live records of an event as CSV bytes (UTF-8 with BOM, CRLF rows)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for record in records:
        if record.deleted:
            continue
        infraction = regulation.infraction(record.infraction_id)
        standalone = regulation.standalone_title(infraction) if infraction else None
        tier = regulation.tier(record.tier_id)
        writer.writerow(
            (
                record.id,
                _cell(event.name),
                iso(record.created_at),
                iso(record.updated_at),
                "" if record.round is None else str(record.round),
                _cell(record.table),
                _cell(record.player.name),
                _cell(record.player.player_id),
                record.infraction_id,
                standalone.ja if standalone else "",
                standalone.en if standalone else "",
                record.tier_id,
                tier.title.ja if tier else "",
                tier.title.en if tier else "",
                _cell(record.note),
                _cell(record.recorded_by.judge if record.recorded_by else None),
                record.recorded_by.device if record.recorded_by else "",
                iso(record.arrived_at) if record.arrived_at else "",
                *_late_cells(record.late_seconds),
                "" if record.occurrence is None else str(record.occurrence),
            )
        )
    return out.getvalue().encode("utf-8-sig")

"""`main.py log add | list | export | import | edit | delete | restore`: the penalty log on the
command line.

Argument parsing lives in main.py; the contract is in docs/architecture.md. Every
fault is one line on stderr and a non-zero exit: 2 for a bad value, 1 for anything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from regulation.model import Regulation

from .csv_export import export_csv
from .errors import InvalidInput, LogError
from .exchange import event_export, json_bytes, read_export, record_json
from .export_file import write_file
from .model import Event, Player, Record, RecordInput
from .slip import slip_line
from .store import LogStore
from .tiers import REPEAT_PRINCIPLE_ID


def log_command(
    args: argparse.Namespace,
    regulation: Regulation,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr

    def run(store: LogStore) -> int:
        if store.read_only and args.log_command in READ_COMMANDS:
            err.write(
                "note: the penalty log is read-only here, so it can be listed and exported "
                f"but not changed ({store.read_only})\n"
            )
        command = {
            "add": _add,
            "list": _list,
            "export": _export,
            "import": _import,
            "edit": _edit,
            "delete": _delete,
            "restore": _restore,
        }
        return command[args.log_command](store, args, out)

    return run_on_log(regulation, err, run, before=lambda: _check_text_options(args))


def run_on_log(
    regulation: Regulation,
    err: TextIO,
    run: Callable[[LogStore], int],
    before: Callable[[], None] | None = None,
) -> int:
    """What every command on the log shares (`log`, `round`, `sync`): `before` (checks that need
    no log), then the log opened, what opening it found said in one line each, and `run`; a
    refusal is one line on stderr and exit 2 for a bad value, 1 for anything else."""
    try:
        if before:
            before()
        with LogStore.open(regulation) as store:
            if store.recovery:
                err.write(f"warning: {store.recovery.message}\n")
            if store.migration_backup:
                err.write(
                    f"note: the penalty log was upgraded; the old file was kept as "
                    f"{store.migration_backup}\n"
                )
            return run(store)
    except InvalidInput as exc:
        err.write(f"error: {exc}\n")
        return 2
    except LogError as exc:
        err.write(f"error: {exc}\n")
        return 1


# What still works where the log cannot be written, or without the guideline's data.
READ_COMMANDS = ("list", "export")


def bare_regulation() -> Regulation:
    """A guideline with no entries: with the bundled data damaged, `log list` and `log export`
    still show every record, with its infraction and tier ids in place of their titles."""
    from regulation.model import Document, Text

    empty = Text("", "")
    document = Document(label=empty, text_as_of="", source_sha256="", penalty_label=empty)
    return Regulation(document, (), empty, (), (), (), ())


# Options whose value is text the log stores or looks up (FILE and -o are paths: any bytes).
_TEXT_OPTIONS = ("player", "player_id", "infraction", "tier", "table", "note", "event")


def _check_text_options(args: argparse.Namespace) -> None:
    """Bytes that are not UTF-8 in an argument reach Python as lone surrogates (\udcff),
    which no database or file can hold: refused by name, before the log is opened."""
    for name in _TEXT_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, str) and any("\ud800" <= char <= "\udfff" for char in value):
            option = "--" + name.replace("_", "-")
            raise InvalidInput(f"{option}: not valid text (bytes that are not UTF-8)", name)


def _print_json(payload: dict[str, Any], out: TextIO) -> None:
    json.dump(payload, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _event(store: LogStore, name: str | None, *, create: bool) -> Event:
    """--event NAME (created by `add` when new), else the current event."""
    if name is None:
        return store.current_event()
    if create:  # found or made in one transaction: another process may be making it too
        return store.create_event(name, existing_ok=True)
    found = store.event_by_name(name)
    if found:
        return found
    known = ", ".join(repr(e.name) for e in store.events()[:5]) or "none yet"
    raise InvalidInput(f"no event named {name!r} (events: {known})", "event", "unknown_id")


def _add(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    event = _event(store, args.event, create=True)
    entry = RecordInput(
        player=Player(args.player, args.player_id),
        infraction_id=args.infraction,
        tier_id=args.tier,
        round=args.round,
        table=args.table,
        note=args.note,
    )
    record = store.add_record(event.id, entry)
    repeat = store.repeats_of(record)
    if args.json:
        _print_json(
            {
                "record": record_json(record, event.name),
                "repeat_of": [r.id for r in repeat.previous],
            },
            out,
        )
        return 0
    regulation = store.regulation
    out.write(f"saved in {event.name!r}: {record.id}\n")
    out.write(f"  {slip_line(record, regulation, 'ja', repeat.occurrence)}\n")
    out.write(f"  {slip_line(record, regulation, 'en', repeat.occurrence)}\n")
    if repeat.is_repeat:
        principle = regulation.principle(REPEAT_PRINCIPLE_ID)
        higher = regulation.tier(repeat.next_tier_id) if repeat.next_tier_id else None
        out.write(
            f"repeat: {len(repeat.previous)} earlier record(s) of this infraction for this "
            f"player in this event ({', '.join(r.id for r in repeat.previous)})\n"
        )
        if principle:
            out.write(f"  {principle.text.ja}\n  {principle.text.en}\n")
        if higher:
            out.write(
                f"  the judge may apply a higher penalty; one tier up (the app's suggestion, the "
                f"regulations name no tier): {higher.title.en} ({higher.title.ja}); "
                f"the tier recorded is {record.tier_id}, unchanged\n"
            )
    return 0


def _changed(store: LogStore, record: Record, args: argparse.Namespace, out: TextIO) -> int:
    event = store.event(record.event_id)
    name = event.name if event else record.event_id
    if args.json:
        _print_json({"record": record_json(record, name), "deleted": record.deleted}, out)
    else:
        state = "deleted" if record.deleted else "saved"
        out.write(f"{state} in {name!r}: {record.id}\n")
    return 0


def _record(store: LogStore, record_id: str) -> Record:
    found = store.record(record_id.strip())
    if found is None:
        raise InvalidInput(f"no record with id {record_id!r}", "record", "unknown_id")
    return found


def _edit(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    """Changes the fields given; the others stay as they are."""
    old = _record(store, args.record_id)
    entry = RecordInput(
        player=old.player,
        infraction_id=old.infraction_id,
        tier_id=args.tier if args.tier is not None else old.tier_id,
        round=args.round if args.round is not None else old.round,
        table=args.table if args.table is not None else old.table,
        note=args.note if args.note is not None else old.note,
    )
    return _changed(store, store.edit_record(old.id, entry), args, out)


def _delete(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    return _changed(store, store.delete_record(_record(store, args.record_id).id), args, out)


def _restore(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    return _changed(store, store.restore_record(_record(store, args.record_id).id), args, out)


def _list(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    event = _event(store, args.event, create=False)
    player = Player(args.player) if args.player is not None else None
    if player is not None and not player.name.strip():
        raise InvalidInput("--player: required", "player.name", "required")
    records = store.records(event.id, player=player, player_id=args.player_id, newest_first=False)
    if args.json:
        _print_json({"records": [record_json(r, event.name) for r in records]}, out)
        return 0
    out.write(f"{event.name}: {len(records)} record(s)\n")
    for record in records:
        _write_line(store, record, out)
    return 0


def _write_line(store: LogStore, record: Record, out: TextIO) -> None:
    when = record.created_at.strftime("%Y-%m-%d %H:%M")
    out.write(f"{when}  {slip_line(record, store.regulation, 'ja')}\n")
    out.write(f"{'':16}  {slip_line(record, store.regulation, 'en')}  [{record.id}]\n")


def _export(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    event, records = store.export_records(_event(store, args.event, create=False).id)
    if args.format == "csv":
        data = export_csv(event, records, store.regulation)
    else:
        data = json_bytes(event_export(store, event.id)[0])
    if args.output:
        write_file(Path(args.output), data)
        live = sum(not r.deleted for r in records)
        out.write(f"exported {live} record(s) of {event.name!r} to {args.output}\n")
        return 0
    out.flush()
    binary = getattr(out, "buffer", None)
    if binary is not None:
        binary.write(data)
        binary.flush()
    else:  # a text stream without bytes (tests): the same text
        out.write(data.decode("utf-8"))
    return 0


def _import(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    imported = read_export(Path(args.file), store.regulation)
    report = store.merge(imported)
    if args.json:
        _print_json(report.as_dict(), out)
        return 0
    created = " (new event)" if report.event_created else ""
    elsewhere = ""
    if report.elsewhere:
        names = ", ".join(repr(name) for name in report.elsewhere_events)
        elsewhere = (
            f"; {report.elsewhere} more already belong to another event here ({names}): "
            "merged there, not moved"
        )
    out.write(
        f"imported {args.file} into {report.event.name!r}{created}: added {report.added}, "
        f"updated {report.updated}, unchanged {report.unchanged}{elsewhere}\n"
    )
    return 0

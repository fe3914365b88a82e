"""`main.py round start | pause | resume | extend | status`: the round clock on the command line.

Argument parsing lives in main.py; the contract is in docs/architecture.md. Every command prints
the round's status (`--json`: `status_json`) evaluated now, or at `--at` for `status`. A fault is
one line on stderr and changes nothing: exit 2 for a bad value, 1 for anything else.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from datetime import datetime
from typing import Any, TextIO

from regulation.model import Regulation

from .cli import _event, run_on_log
from .clock import RoundClock, countdown, parse_instant, round_minutes
from .errors import InvalidInput
from .model import Event
from .store import LogStore, iso


def round_command(
    args: argparse.Namespace,
    regulation: Regulation,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    return run_on_log(regulation, err or sys.stderr, lambda store: _run(store, args, out))


def _number(text: str | None) -> int | None:
    """N as typed: a whole number 1-999 (checked here, so that the line says what is wrong)."""
    if text is None:
        return None
    try:
        number = int(text)
    except ValueError:
        raise InvalidInput(f"round: {text!r} is not a round number", "round") from None
    if not 1 <= number <= 999:
        raise InvalidInput(f"round: must be 1 to 999, not {number}", "round", "out_of_range")
    return number


def _run(store: LogStore, args: argparse.Namespace, out: TextIO) -> int:
    command = args.round_command
    number = _number(args.number)
    now = store.clock()
    at = parse_instant(args.at, now, "--at") if getattr(args, "at", None) else None
    clocks = store.round_clock
    # Checked before anything is written or created.
    if command == "start" and args.minutes is not None:
        round_minutes(args.minutes, "--minutes")
    event = _event(store, args.event, create=command == "start")
    if command == "status":
        clock = clocks.round(event.id, number) if number else clocks.current(event.id)
        if clock is None:
            raise InvalidInput(
                f"no round of {event.name!r} has started yet", "round", "not_started"
            )
    elif command == "start":
        assert number is not None
        clock = clocks.start(event.id, number, at or now, args.minutes)
    elif command == "pause":
        assert number is not None
        clock = clocks.pause(event.id, number, at or now)
    elif command == "resume":
        assert number is not None
        clock = clocks.resume(event.id, number, at or now)
    else:
        assert number is not None
        clocks.extend(event.id, number, args.table, args.minutes, args.record)
        clock = clocks.round(event.id, number)
    moment = at if command == "status" and at else store.clock()
    if args.json:
        json.dump(status_json(clock, moment), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        _write_status(event, clock, moment, out)
    return 0


def _seconds(value: float) -> int:
    return math.ceil(value - 1e-6)


def status_json(clock: RoundClock, at: datetime) -> dict[str, Any]:
    """The contract's shape (docs/architecture.md), plus `paused` and `real_end`."""
    ends = clock.ends_at(at)
    remaining = clock.remaining_seconds(at)
    real_end = clock.real_end(at)
    return {
        "round": clock.number,
        "started_at": iso(clock.started_at) if clock.started_at else None,
        "minutes": clock.minutes,
        "paused_s": round(clock.paused_seconds(at)),
        "paused": clock.paused_at(at),
        "ends_at": iso(ends) if ends else None,
        "remaining_s": None if remaining is None else _seconds(remaining),
        "real_end": iso(real_end) if real_end else None,
        "extensions": [
            {
                "table": row.table,
                "minutes": row.minutes,
                "ends_at": iso(row.ends_at),
                "record": row.record_ids[0] if row.record_ids else None,
                "records": list(row.record_ids),
                "finished": row.finished,
            }
            for row in clock.tables(at)
        ],
    }


def _local(moment: datetime) -> str:
    return moment.astimezone().strftime("%H:%M:%S")


def _write_status(event: Event, clock: RoundClock, at: datetime, out: TextIO) -> None:
    head = f"{event.name}: round {clock.number}, {clock.minutes} min"
    if clock.started_at is None:
        out.write(f"{head}, not started\n")
        return
    remaining = clock.remaining_seconds(at)
    ends = clock.ends_at(at)
    assert remaining is not None and ends is not None
    state = " (paused)" if clock.paused_at(at) else ""
    shown = countdown(remaining)
    left = f"overtime {shown}" if remaining < 0 else f"{shown} left"
    out.write(f"{head}, started {_local(clock.started_at)}, ends {_local(ends)}: {left}{state}\n")
    for row in clock.tables(at):
        done = ", finished" if row.finished else ""
        out.write(f"  table {row.table}: +{row.minutes} min, ends {_local(row.ends_at)}{done}\n")

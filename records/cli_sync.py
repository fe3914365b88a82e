"""`main.py sync host | join | now | status | leave`: venue sync on the command line.

Argument parsing lives in main.py; the contract is issue 17's (docs/sync.md). Every fault is
one line on stderr and a non-zero exit: 2 for a bad value, 1 for anything else (the host cannot
be reached or refused). Codes are printed only by `sync host` and `sync status` on the host
itself (the judge shows them to the team); never in an error.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from typing import Any, TextIO

from regulation.model import Regulation

from .cli import run_on_log
from .store import LogStore
from .sync.service import SyncResult, SyncService, SyncStatus


def sync_command(
    args: argparse.Namespace,
    regulation: Regulation,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr

    def run(store: LogStore) -> int:
        service = SyncService.for_store(store)
        try:
            if getattr(args, "judge", None) is not None:
                service.set_judge(args.judge)
            command = {
                "host": _host,
                "join": _join,
                "now": _now,
                "status": _status,
                "leave": _leave,
            }
            return command[args.sync_command](service, args, out, err)
        finally:
            service.close()

    return run_on_log(regulation, err, run)


def _print(payload: dict[str, Any], out: TextIO) -> None:
    out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    out.flush()


def _host(service: SyncService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    store = service.store
    state = service.ledger.state()
    event = None
    if args.event is not None:
        event = store.event_by_name(args.event) or store.create_event(args.event)
    elif state.event_id:
        event = store.event(state.event_id)  # resume the event hosted last
    event = event or store.current_event()
    assert event is not None
    status = service.host(
        event.id, bind=args.bind, port=args.port, new_code=args.new_code, code=args.code
    )
    if args.json:
        _print(
            {
                "addresses": list(status.addresses),
                "port": status.port,
                "code": status.code,
                "event": status.event_id,
            },
            out,
        )
    else:
        out.write(f"hosting {status.event_name!r}; join with the code {status.code} at:\n")
        for url in status.addresses:
            out.write(f"  {url}\n")
        out.write("Ctrl+C ends hosting.\n")
        out.flush()
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    return 0


def _result(result: SyncResult, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.json:
        _print(
            {
                "ok": result.ok,
                "pushed": result.pushed,
                "pulled": result.pulled,
                "host": result.host,
            },
            out,
        )
    elif result.ok:
        out.write(f"synced with {result.host}: sent {result.pushed}, received {result.pulled}\n")
    if not result.ok:
        err.write(f"error: {result.problem}\n")
        return 1
    return 0


def _join(service: SyncService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return _result(service.join(args.address, args.code), args, out, err)


def _now(service: SyncService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return _result(service.sync_now(), args, out, err)


def status_json(status: SyncStatus) -> dict[str, Any]:
    return {
        "role": status.role,
        "event": status.event_id,
        "event_name": status.event_name,
        "judge": status.judge,
        "device": status.device_id,
        "addresses": list(status.addresses),
        "port": status.port,
        "code": status.code,
        "host": status.host_url,
        "devices": [
            {"device": d.device_id, "judge": d.judge, "last_seen": d.last_seen.isoformat()}
            for d in status.devices
        ],
        "last_synced_at": status.last_synced_at.isoformat() if status.last_synced_at else None,
        "waiting": status.waiting,
        "problem": status.problem,
    }


def _status(service: SyncService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = service.status(stored=True)
    if args.json:
        _print(status_json(status), out)
        return 0
    if status.role == "joined":
        when = status.last_synced_at.isoformat() if status.last_synced_at else "never"
        out.write(
            f"joined to the host at {status.host_url} ({status.event_name!r}); last synced "
            f"{when}; {status.waiting} change(s) waiting to be sent\n"
        )
    elif status.role == "host":
        out.write(f"hosting {status.event_name!r} ({len(status.devices)} device(s) joined)\n")
        for device in status.devices:
            out.write(f"  {device.judge or '?'}  {device.device_id}  {device.last_seen}\n")
    else:
        out.write("sync is off\n")
    if status.problem:
        out.write(f"problem: {status.problem}\n")
    return 0


def _leave(service: SyncService, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    role = service.ledger.state().role
    if role == "host":
        service.stop_hosting()
        out.write("hosting ended; the join code no longer works until hosting again\n")
    else:
        service.leave()
        out.write("left the host; this device's log stays as it is\n")
    return 0

"""Helpers for the penalty-log tests: a controllable clock and a store in a temporary folder."""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from records.model import Player, RecordInput
from records.store import LogStore
from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent
JST = timezone(timedelta(hours=9))
WORKER = ROOT / "tests" / "records_worker.py"
# The round the clock tests start: 13:00 JST on the event's day.
ROUND_START = datetime(2026, 11, 28, 13, 0, tzinfo=JST)


def at(minutes: float) -> datetime:
    """`minutes` after ROUND_START."""
    return ROUND_START + timedelta(minutes=minutes)


class Clock:
    """Starts at 2026-11-28 10:00 JST and moves one second each time it is read, so that
    records made one after the other have distinct, increasing times."""

    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)):
        self.now = start or datetime(2026, 11, 28, 10, 0, tzinfo=JST)
        self.step = step

    def __call__(self) -> datetime:
        current = self.now
        self.now += self.step
        return current


def open_store(regulation: Regulation, folder: Path, clock: Clock | None = None) -> LogStore:
    return LogStore.open(regulation, folder / "penalty-log.sqlite3", clock=clock or Clock())


def entry(
    name: str,
    infraction: str = "drew-extra-cards",
    *,
    player_id: str | None = None,
    tier: str | None = None,
    round_number: int | None = 1,
    table: str | None = None,
    note: str | None = None,
) -> RecordInput:
    return RecordInput(Player(name, player_id), infraction, tier, round_number, table, note)


def child_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PENALTY_GUIDE_DATA_DIR=str(data_dir), PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


def run_main(
    args: Sequence[str],
    data_dir: Path,
    preexec_fn: Callable[[], None] | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python main.py ARGS` with the log in `data_dir`."""
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        env=env or child_env(data_dir),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=preexec_fn,
    )


def synthetic_export(count: int, event_name: str = "合成の大会") -> dict[str, Any]:
    """A valid JSON export of `count` records, built without a database (fast to make)."""
    event_id = str(uuid.uuid4())
    start = datetime(2026, 11, 28, 10, 0, tzinfo=JST)
    infractions = ("drew-extra-cards", "unintentional-slow-play", "marked-no-pattern", "bribery")
    tiers = ("warning", "caution", "warning", "total-disqualification")
    records = []
    for index in range(count):
        moment = (start + timedelta(seconds=index)).isoformat(timespec="microseconds")
        kind = index % len(infractions)
        records.append(
            {
                "id": str(uuid.uuid4()),
                "event": event_name,
                "created_at": moment,
                "updated_at": moment,
                "round": index % 8 + 1,
                "table": str(index % 150 + 1),
                "player": {"name": f"選手{index % 300:03d}", "id": None},
                "infraction": infractions[kind],
                "tier": tiers[kind],
                "note": 'メモ, "引用"\n二行目' if index % 10 == 0 else None,
                "deleted": False,
            }
        )
    return {
        "format": "ocg-penalty-guide/penalty-log",
        "version": 1,
        "event": {"id": event_id, "name": event_name, "date": "2026-11-28", "rounds": []},
        "records": records,
    }


def without_dac_override() -> None:
    """preexec_fn: the child, even as root, obeys file permissions (a read-only folder is
    read-only to it). Drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set,
    so the program exec'd next never has them; a non-root user needs nothing."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2
    for capability in (cap_dac_override, cap_dac_read_search):
        if libc.prctl(pr_capbset_drop, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def file_size_limit(limit: int) -> Callable[[], None]:
    """preexec_fn: files may not grow past `limit` bytes, as on a full disk (RLIMIT_FSIZE)."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply

"""Helpers for the penalty-log tests: a controllable clock and a store in a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

from records.model import Player, RecordInput
from records.store import LogStore
from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent
JST = timezone(timedelta(hours=9))
WORKER = ROOT / "tests" / "records_worker.py"


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

"""What the sync service's mutation tests share (tests/test_mutation_service*.py): two judges'
devices, each a log and its sync service."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from records.store import LogStore
from records.sync.service import SyncService
from records.sync.state import SyncState
from regulation.model import Regulation


@dataclass
class Device:
    store: LogStore
    sync: SyncService

    def state(self) -> SyncState:
        return self.sync.ledger.state()


def two_devices(regulation: Regulation, tmp_path: Path) -> Iterator[list[Device]]:
    """Two devices (佐藤's and 鈴木's), for a fixture: closed after the test."""
    made = []
    for name in ("佐藤", "鈴木"):
        store = LogStore.open(regulation, tmp_path / name / "log.sqlite3")
        sync = SyncService.for_store(store)
        sync.set_judge(name)
        made.append(Device(store, sync))
    yield made
    for device in made:
        device.sync.close()
        device.store.close()

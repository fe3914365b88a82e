"""What a device remembers about sync, in the log's settings table (keys `sync.*`, `judge`,
`device_id`): its role, the shared event, the host's address, the join code, the cursors.

The join code is kept here (the app's private data folder) so that a restarted host resumes with
the same code and a joined device keeps syncing; it never leaves in exports, logs or messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from .codes import Secret

Role = Literal["off", "host", "joined"]
KEYS = (
    "sync.role",
    "sync.event",
    "sync.code",
    "sync.retired",
    "sync.host_url",
    "sync.bind",
    "sync.port",
    "sync.cursor",
    "sync.pushed",
    "sync.last_synced",
)


@dataclass(frozen=True, slots=True)
class SyncState:
    role: Role = "off"
    event_id: str | None = None
    code: Secret | None = field(default=None, repr=False)
    retired: tuple[str, ...] = ()  # host: key ids of replaced codes (newest last)
    host_url: str | None = None  # joined
    bind: tuple[str, ...] = ()  # host: --bind addresses (empty: the local network's)
    port: int | None = None  # host: the port last served on
    cursor: int = 0  # joined: the host's seq pulled up to
    pushed: int = 0  # joined: this device's seq pushed up to
    last_synced: datetime | None = None

    def to_settings(self) -> dict[str, str | None]:
        return {
            "sync.role": self.role,
            "sync.event": self.event_id,
            "sync.code": self.code.value if self.code else None,
            "sync.retired": " ".join(self.retired) or None,
            "sync.host_url": self.host_url,
            "sync.bind": " ".join(self.bind) or None,
            "sync.port": str(self.port) if self.port is not None else None,
            "sync.cursor": str(self.cursor),
            "sync.pushed": str(self.pushed),
            "sync.last_synced": self.last_synced.isoformat() if self.last_synced else None,
        }

    def replaced(self, **changes: object) -> SyncState:
        return replace(self, **changes)  # type: ignore[arg-type]


def _int(text: str | None) -> int:
    try:
        return max(0, int(text or "0"))
    except ValueError:
        return 0


def from_settings(values: Mapping[str, str]) -> SyncState:
    """The state from stored settings; anything unreadable counts as not set."""
    role = values.get("sync.role")
    last = values.get("sync.last_synced")
    try:
        last_synced = datetime.fromisoformat(last) if last else None
    except ValueError:
        last_synced = None
    port = values.get("sync.port")
    return SyncState(
        role=role if role in ("host", "joined") else "off",  # type: ignore[arg-type]
        event_id=values.get("sync.event") or None,
        code=Secret(values["sync.code"]) if values.get("sync.code") else None,
        retired=tuple((values.get("sync.retired") or "").split()),
        host_url=values.get("sync.host_url") or None,
        bind=tuple((values.get("sync.bind") or "").split()),
        port=_int(port) if port else None,
        cursor=_int(values.get("sync.cursor")),
        pushed=_int(values.get("sync.pushed")),
        last_synced=last_synced,
    )


Reader = Callable[[], Mapping[str, str]]

"""What sync looks like from a screen: the status, the result of a sync, a device seen (the
contract with the views; re-exported by records/sync/service.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .state import Role


@dataclass(frozen=True, slots=True)
class DeviceSeen:
    """A device that synced with this host: its id, its judge's name, when it last synced."""

    device_id: str
    judge: str
    last_seen: datetime


@dataclass(frozen=True, slots=True)
class SyncStatus:
    role: Role
    event_id: str | None  # the shared event's UUID
    event_name: str | None
    judge: str | None  # this device's judge name (None until asked)
    device_id: str  # this device's id (stable, random, stored in the log)
    addresses: tuple[str, ...]  # host: the URLs a joining judge types (large text)
    port: int | None
    code: str | None  # host only: the join code, grouped (K7QF-2MXD-9PLA…)
    host_url: str | None  # joined: the host's URL
    devices: tuple[DeviceSeen, ...]  # host: joined devices, newest first
    last_synced_at: datetime | None
    waiting: int  # local changes not yet sent to the host
    problem: str | None  # one line for the judge, e.g. the code was replaced
    # What the problem is, for a screen to say in the judge's language: a refusal's code
    # (protocol.REFUSALS), "unreachable", "bad_answer", "bad_data" or "not_joined".
    problem_code: str | None = None


@dataclass(frozen=True, slots=True)
class SyncResult:
    ok: bool
    pushed: int
    pulled: int
    host: str | None
    problem: str | None  # one line when not ok
    problem_code: str | None = None  # as SyncStatus.problem_code

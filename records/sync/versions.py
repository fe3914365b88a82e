"""The table of saved versions (item_versions, schema 4): adding versions (a set union), the
current version of a thing, a thing's history, and the pages a host sends.

Every function takes the open connection; writes must run inside the caller's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from .items import ItemVersion

_COLUMNS = "kind, item_uuid, event_uuid, stamp, device, judge, saved_at, body"
_CHUNK = 500  # ids in one IN (…): under SQLite's limit of variables


def _version(row: tuple) -> ItemVersion:
    kind, item, event, stamp, device, judge, saved_at, body = row
    return ItemVersion(
        kind, item, event, stamp, device, judge, datetime.fromisoformat(saved_at), body
    )


@dataclass(frozen=True, slots=True)
class Stored:
    """What `store` did: the (kind, event, item) of the things that got a new version, and the
    current version of every thing given, (kind, item) → version."""

    touched: set[tuple[str, str, str]]
    current: dict[tuple[str, str], ItemVersion]


def add(
    db: sqlite3.Connection, versions: Iterable[ItemVersion], *, from_host: bool = False
) -> set[tuple[str, str, str]]:
    """Stores the versions not yet here; returns the (kind, event, item) of those that were new."""
    return store(db, versions, from_host=from_host).touched


def store(
    db: sqlite3.Connection, versions: Iterable[ItemVersion], *, from_host: bool = False
) -> Stored:
    """Stores the versions not yet here, in their order of arrival, a page in a few statements
    (what is here already read once, the new rows written by one executemany).

    Two different versions under one key (kind, item, stamp, device) can only come from a broken
    device; the one later in `ItemVersion.order` is kept (and gets a new seq, so that it is
    sent on), so that every device keeps the same one whatever the order of arrival."""
    offered: dict[tuple[str, str, int, str], ItemVersion] = {}
    for version in versions:
        key = version.key
        best = offered.get(key)
        if best is None or version.order > best.order:
            offered[key] = version
    current: dict[tuple[str, str], ItemVersion] = {}
    here: dict[tuple[str, str, int, str], ItemVersion] = {}
    by_kind: dict[str, list[str]] = {}
    for kind, item, _stamp, _device in offered:
        by_kind.setdefault(kind, []).append(item)
    for kind, items in by_kind.items():
        for version in _all_of(db, kind, dict.fromkeys(items)):
            here[version.key] = version
            _keep_best(current, version)
    touched: set[tuple[str, str, str]] = set()
    written: list[ItemVersion] = []
    for key, version in offered.items():
        before = here.get(key)
        if before is not None:
            if before.order >= version.order:
                continue
            db.execute(
                "DELETE FROM item_versions"
                " WHERE kind = ? AND item_uuid = ? AND stamp = ? AND device = ?",
                key,
            )
        written.append(version)
        _keep_best(current, version)
        touched.add((version.kind, version.event_id, version.item_id))
    db.executemany(
        f"INSERT INTO item_versions ({_COLUMNS}, from_host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                version.kind,
                version.item_id,
                version.event_id,
                version.stamp,
                version.device,
                version.judge,
                version.saved_at.isoformat(timespec="microseconds"),
                version.body,
                int(from_host),
            )
            for version in written
        ],
    )
    return Stored(touched, current)


def _keep_best(current: dict[tuple[str, str], ItemVersion], version: ItemVersion) -> None:
    best = current.get((version.kind, version.item_id))
    if best is None or version.order > best.order:
        current[(version.kind, version.item_id)] = version


def _all_of(db: sqlite3.Connection, kind: str, item_ids: Iterable[str]) -> list[ItemVersion]:
    """Every version here of these things of one kind (a query per 500 ids)."""
    ids = list(item_ids)
    found = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        rows = db.execute(
            f"SELECT {_COLUMNS} FROM item_versions WHERE kind = ?"
            f" AND item_uuid IN ({','.join('?' * len(chunk))})",
            (kind, *chunk),
        ).fetchall()
        found += [_version(row) for row in rows]
    return found


def currents(db: sqlite3.Connection, kind: str, item_ids: Iterable[str]) -> dict[str, ItemVersion]:
    """The current version of each of many things of one kind (a few queries, not one each)."""
    found: dict[tuple[str, str], ItemVersion] = {}
    for version in _all_of(db, kind, item_ids):
        _keep_best(found, version)
    return {item: version for (_kind, item), version in found.items()}


def history(db: sqlite3.Connection, kind: str, item_id: str) -> list[ItemVersion]:
    """Every version of a thing, oldest first in the conflict rule's order (last = current)."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM item_versions WHERE kind = ? AND item_uuid = ?",
        (kind, item_id),
    ).fetchall()
    return sorted((_version(row) for row in rows), key=lambda v: v.order)


def current(db: sqlite3.Connection, kind: str, item_id: str) -> ItemVersion | None:
    found = history(db, kind, item_id)
    return found[-1] if found else None


def of_event(db: sqlite3.Connection, event_id: str) -> tuple[ItemVersion, ...]:
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM item_versions WHERE event_uuid = ? ORDER BY seq", (event_id,)
    ).fetchall()
    return tuple(_version(row) for row in rows)


def highest_stamp(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT max(stamp) FROM item_versions").fetchone()
    return int(row[0] or 0)


def page(
    db: sqlite3.Connection,
    event_id: str,
    after_seq: int,
    limit: int,
    *,
    skip_from_host: bool = False,
) -> list[tuple[int, ItemVersion]]:
    """At most `limit` versions of an event that arrived here after `after_seq`, in arrival
    order, with their seq (the next cursor is the last seq)."""
    extra = " AND from_host = 0" if skip_from_host else ""
    rows = db.execute(
        f"SELECT seq, {_COLUMNS} FROM item_versions"
        f" WHERE event_uuid = ? AND seq > ?{extra} ORDER BY seq LIMIT ?",
        (event_id, after_seq, limit),
    ).fetchall()
    return [(row[0], _version(row[1:])) for row in rows]


def count_after(
    db: sqlite3.Connection, event_id: str, after_seq: int, *, skip_from_host: bool = False
) -> int:
    extra = " AND from_host = 0" if skip_from_host else ""
    row = db.execute(
        f"SELECT count(*) FROM item_versions WHERE event_uuid = ? AND seq > ?{extra}",
        (event_id, after_seq),
    ).fetchone()
    return int(row[0])


def last_seq(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT max(seq) FROM item_versions").fetchone()
    return int(row[0] or 0)

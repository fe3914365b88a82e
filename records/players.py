"""Players (table `players`): one row per written form of a player (name and ID exactly as
typed), the search keys of the identity rule (records/identity.py), type-ahead, and the
per-event summary that groups the forms of one player."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from regulation.model import Tier

from .database import Database
from .identity import id_key, name_key, search_compact, search_words
from .model import Player, PlayerSummary, Record

# The identity rule's version (records/identity.py): the keys stored in `players` are made by
# it, so when it changes they are made again, once, when a log is opened.
IDENTITY_RULE = "2"  # 2: invisible characters left out of the keys
_IDENTITY_SETTING = "identity_rule"


class Players:
    def __init__(self, database: Database) -> None:
        self._database = database

    def refresh_keys(self) -> None:
        """Remakes every stored identity key when they were made by another rule."""
        database = self._database
        rows = database.read("SELECT value FROM settings WHERE key = ?", (_IDENTITY_SETTING,))
        if database.read_only or (rows and rows[0][0] == IDENTITY_RULE):
            return
        with database.write("cannot prepare the penalty log") as db:
            players = db.execute("SELECT id, name, player_id FROM players").fetchall()
            db.executemany(
                "UPDATE players SET name_key = ?, id_key = ? WHERE id = ?",
                [(name_key(name), id_key(player_id), ref) for ref, name, player_id in players],
            )
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (_IDENTITY_SETTING, IDENTITY_RULE),
            )

    def ref(self, db: sqlite3.Connection, player: Player, used_us: int) -> int:
        """The row of the player exactly as written, created on first use (inside a write)."""
        found = db.execute(
            "SELECT id, last_used_us FROM players WHERE name = ? AND ifnull(player_id, '') = ?",
            (player.name, player.player_id or ""),
        ).fetchone()
        if found:
            if used_us > found[1]:
                db.execute("UPDATE players SET last_used_us = ? WHERE id = ?", (used_us, found[0]))
            return int(found[0])
        cursor = db.execute(
            "INSERT INTO players (name, player_id, name_key, id_key, search_words,"
            " search_compact, last_used_us) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                player.name,
                player.player_id,
                name_key(player.name),
                id_key(player.player_id),
                search_words(player.name),
                search_compact(player.name),
                used_us,
            ),
        )
        assert cursor.lastrowid is not None
        self._database.players[cursor.lastrowid] = player
        return cursor.lastrowid

    def refs(self, db: sqlite3.Connection, uses: list[tuple[Player, int]]) -> dict[Player, int]:
        """The rows of many players at once, each (player, used at) pair as by `ref`, in a few
        statements however many records name them (inside a write)."""
        latest: dict[tuple[str, str], tuple[Player, int]] = {}  # the table's unique key
        for player, used_us in uses:
            key = (player.name, player.player_id or "")
            before = latest.get(key)
            if before is None or used_us > before[1]:
                latest[key] = (before[0] if before else player, used_us)
        names = list(dict.fromkeys(name for name, _id in latest))
        here: dict[tuple[str, str], tuple[int, int]] = {}
        for start in range(0, len(names), 500):
            chunk = names[start : start + 500]
            rows = db.execute(
                "SELECT id, name, ifnull(player_id, ''), last_used_us FROM players"
                f" WHERE name IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            here.update(((name, pid), (ref, used)) for ref, name, pid, used in rows)
        found: dict[tuple[str, str], int] = {}
        later: list[tuple[int, int]] = []
        for key, (player, used_us) in latest.items():
            row = here.get(key)
            if row is None:
                found[key] = self.ref(db, player, used_us)
                continue
            found[key] = row[0]
            if used_us > row[1]:
                later.append((used_us, row[0]))
        db.executemany("UPDATE players SET last_used_us = ? WHERE id = ?", later)
        return {player: found[(player.name, player.player_id or "")] for player, _used in uses}

    def matching(self, name: str | None, player_id: str | None) -> list[int]:
        """Rows of every written form of this player (identity rule in records/identity.py).

        With only a name: every form with that name; with only an ID: every form with that ID;
        with both: that ID, plus forms of that name written without any ID.
        """
        idk = id_key(player_id)
        nk = name_key(name) if name and name.strip() else None
        if idk and nk:
            sql = "SELECT id FROM players WHERE id_key = ? OR (id_key IS NULL AND name_key = ?)"
            parameters: tuple[str, ...] = (idk, nk)
        elif idk:
            sql, parameters = "SELECT id FROM players WHERE id_key = ?", (idk,)
        elif nk:
            sql, parameters = "SELECT id FROM players WHERE name_key = ?", (nk,)
        else:
            return []
        return [row[0] for row in self._database.read(sql, parameters)]

    def recent(
        self, prefix: str = "", *, event_id: str | None = None, limit: int = 8
    ) -> tuple[Player, ...]:
        """Names for type-ahead: players whose name (any word of it, or the whole name typed
        without spaces) or player ID starts with `prefix`, folded like search (width, case,
        kana: ゆき offers ユキ). Players of `event_id` first, then the most recently used."""
        words = search_words(prefix)
        compact = search_compact(prefix)
        if prefix.strip() and not compact:
            return ()  # only punctuation typed: nothing can match
        read = self._database.read
        event_rowid = -1
        if event_id:
            found = read("SELECT id FROM events WHERE uuid = ?", (event_id,))
            event_rowid = found[0][0] if found else -1
        rows = read(
            "SELECT p.name, p.player_id FROM players p"
            " WHERE ? = '' OR instr(p.search_words, ?) > 0"
            " OR substr(p.search_compact, 1, length(?)) = ?"
            " OR substr(p.id_key, 1, length(?)) = ?"
            " ORDER BY EXISTS (SELECT 1 FROM records r WHERE r.player_ref = p.id"
            " AND r.event_id = ? AND r.deleted = 0) DESC, p.last_used_us DESC, p.id DESC"
            " LIMIT ?",
            (compact, words, compact, compact, compact, compact, event_rowid, max(0, limit)),
        )
        return tuple(Player(name, player_id) for name, player_id in rows)


def summaries(records: Sequence[Record], tiers: Iterable[Tier]) -> tuple[PlayerSummary, ...]:
    """The players of `records` (newest first) with their number of records and highest tier,
    most recently penalised first. Forms of one player (identity rule) are one line, shown as
    most recently written."""
    severity = {t.id: t.severity for t in tiers}
    # Group keys: a player ID; or a name, joined to the one ID group with that name if any.
    names_with_ids: dict[str, set[str]] = {}
    for record in records:
        idk = record.player.id_key
        if idk:
            names_with_ids.setdefault(record.player.name_key, set()).add(idk)
    groups: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        idk = record.player.id_key
        nk = record.player.name_key
        if idk:
            key = ("id", idk)
        elif len(names_with_ids.get(nk, ())) == 1:
            key = ("id", next(iter(names_with_ids[nk])))
        else:
            key = ("name", nk)
        groups.setdefault(key, []).append(record)
    summaries = [
        PlayerSummary(
            player=group[0].player,
            records=len(group),
            highest_tier_id=max(group, key=lambda r: severity.get(r.tier_id, -1)).tier_id,
            last_at=group[0].created_at,
        )
        for group in groups.values()
    ]
    return tuple(summaries)

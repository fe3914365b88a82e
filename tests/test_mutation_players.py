"""Players (records/players.py), at the edges mutation testing found untested: type-ahead puts
the player penalised last first, whether the record was added, edited or arrived from another
device (in whatever order a page lists them), keeps each player's ID, and favours no event
for an unknown one; an event's player list joins a player's forms, keeps different players
apart, shows the highest tier and the last time; and the identity keys are remade when the
identity rule changed, on no other open (nothing written), never in a read-only log, and a
log that cannot be written then says so in one line."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store

from records.errors import Unwritable
from records.merge import apply
from records.model import Player
from records.players import IDENTITY_RULE
from records.store import LogStore
from records.sync.hlc import stamp_of
from records.sync.items import RECORD, ItemVersion, canonical
from regulation.model import Regulation

BASE = datetime(2026, 11, 28, 10, 0, tzinfo=JST)
DEVICE = "b2" * 8
EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000050"
UNKNOWN_EVENT = "6f1d2a9c-0000-4000-8000-0000000000ff"


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


def names(players: tuple[Player, ...]) -> list[str]:
    return [player.name for player in players]


def test_type_ahead_puts_the_player_penalised_or_corrected_last_first(store: LogStore) -> None:
    event = store.current_event().id
    first = store.add_record(event, entry("山田太郎"))
    store.add_record(event, entry("佐藤花子"))
    assert names(store.recent_players("")) == ["佐藤花子", "山田太郎"]
    store.add_record(event, entry("山田太郎"))  # penalised again
    assert names(store.recent_players("")) == ["山田太郎", "佐藤花子"]
    store.add_record(event, entry("佐藤花子"))
    store.edit_record(first.id, entry("山田太郎", note="訂正"))  # a correction is a use too
    assert names(store.recent_players("")) == ["山田太郎", "佐藤花子"]


def record_version(record_id: str, name: str, minutes: int) -> ItemVersion:
    at = BASE + timedelta(minutes=minutes)
    body = canonical(
        {
            "created_at": at.isoformat(timespec="microseconds"),
            "recorded_by": {"judge": "佐藤", "device": DEVICE},
            "round": 1,
            "table": "3",
            "player": {"name": name, "id": None},
            "infraction": "drew-extra-cards",
            "tier": "warning",
            "note": "",
            "deleted": False,
        }
    )
    return ItemVersion(RECORD, record_id, EVENT_ID, stamp_of(at), DEVICE, "佐藤", at, body)


def test_records_from_elsewhere_order_type_ahead_by_each_players_latest(
    store: LogStore,
) -> None:
    """A page's records are stored in the order of their ids, not of their times: a player's
    latest record decides, wherever it comes in the page."""
    page = [
        record_version("6f1d2a9c-0000-4000-8000-000000000061", "山田太郎", 30),  # latest
        record_version("6f1d2a9c-0000-4000-8000-000000000062", "佐藤花子", 20),
        record_version("6f1d2a9c-0000-4000-8000-000000000063", "山田太郎", 0),
        record_version("6f1d2a9c-0000-4000-8000-000000000064", "鈴木一郎", 5),
        record_version("6f1d2a9c-0000-4000-8000-000000000065", "鈴木一郎", 10),
        record_version("6f1d2a9c-0000-4000-8000-000000000066", "田中次郎", 1),
    ]
    with store._database.write() as db:  # what sync and import do, one page at a time
        apply(db, store._events, store._history, page)
    assert names(store.recent_players("")) == ["山田太郎", "佐藤花子", "鈴木一郎", "田中次郎"]
    assert len(store.records(EVENT_ID)) == 6
    # The same players again, later, from the next page: each one moves up, no new rows.
    later = [
        record_version("6f1d2a9c-0000-4000-8000-000000000071", "田中次郎", 40),
        record_version("6f1d2a9c-0000-4000-8000-000000000072", "鈴木一郎", 35),
    ]
    with store._database.write() as db:
        apply(db, store._events, store._history, later)
    assert names(store.recent_players("")) == ["田中次郎", "鈴木一郎", "山田太郎", "佐藤花子"]


def test_type_ahead_keeps_ids_and_favours_no_event_for_an_unknown_one(store: LogStore) -> None:
    older = store.create_event("春の大会")  # the log's first event row
    newer = store.create_event("秋の大会")
    store.add_record(older.id, entry("山田太郎", player_id="0001"))
    store.add_record(newer.id, entry("佐藤花子", player_id="0002"))
    expected = (Player("佐藤花子", "0002"), Player("山田太郎", "0001"))
    assert store.recent_players("") == expected
    assert store.recent_players("", event_id=UNKNOWN_EVENT) == expected
    assert store.recent_players("", event_id=older.id) == expected[::-1]
    assert store.recent_players("", limit=0) == ()
    assert store.recent_players("", limit=-3) == ()


def test_an_events_player_list_joins_forms_and_keeps_players_apart(
    store: LogStore, regulation: Regulation
) -> None:
    event = store.current_event().id
    store.add_record(event, entry("山田太郎", tier="disqualification"))  # no ID written
    store.add_record(event, entry("佐藤花子", tier="caution"))
    store.add_record(event, entry("鈴木一郎", tier="warning"))
    last = store.add_record(event, entry("山田太郎", player_id="0001", tier="caution"))
    summaries = store.player_summaries(event)
    by_name = {s.player.name: s for s in summaries}
    assert len(summaries) == 3  # 山田 with and without his ID is one player; the others two
    yamada = by_name["山田太郎"]
    assert (yamada.player, yamada.records) == (Player("山田太郎", "0001"), 2)
    assert yamada.highest_tier_id == "disqualification"  # not the newer caution
    assert yamada.last_at == last.created_at
    assert (by_name["佐藤花子"].records, by_name["佐藤花子"].highest_tier_id) == (1, "caution")
    assert (by_name["鈴木一郎"].records, by_name["鈴木一郎"].highest_tier_id) == (1, "warning")


def filled(regulation: Regulation, folder: Path) -> str:
    with open_store(regulation, folder) as store:
        event = store.current_event().id
        store.add_record(event, entry("山田太郎", player_id="A-0001"))
        store.add_record(event, entry("佐藤花子"))
        return event


def test_keys_made_by_an_older_identity_rule_are_made_again(
    regulation: Regulation, tmp_path: Path
) -> None:
    event = filled(regulation, tmp_path)
    with sqlite3.connect(tmp_path / "penalty-log.sqlite3") as db:  # as an older app left them
        db.execute("UPDATE players SET name_key = 'old', id_key = 'old'")
        db.execute("UPDATE settings SET value = '1' WHERE key = 'identity_rule'")
    db.close()
    with open_store(regulation, tmp_path) as store:
        assert len(store.records(event, player=Player("山田太郎"))) == 1
        assert len(store.records(event, player=Player("佐藤花子"))) == 1
        assert len(store.records(event, player_id="A-0001")) == 1
        assert len(store.records(event, player=Player("別人", "A-0001"))) == 1
        rule = store._db.execute("SELECT value FROM settings WHERE key = 'identity_rule'")
        assert rule.fetchone()[0] == IDENTITY_RULE


def test_a_log_whose_keys_are_current_is_opened_without_a_write(
    regulation: Regulation, tmp_path: Path
) -> None:
    filled(regulation, tmp_path)
    with open_store(regulation, tmp_path) as store:
        assert store._db.total_changes == 0


def test_a_read_only_log_of_an_older_rule_is_read_as_it_is(
    regulation: Regulation, tmp_path: Path
) -> None:
    event = filled(regulation, tmp_path)
    with open_store(regulation, tmp_path) as store:
        store._db.execute("UPDATE settings SET value = '1' WHERE key = 'identity_rule'")
        store._database.read_only = "a read-only folder"  # as records/opening.py opens it
        store._players.refresh_keys()  # what opening does: nothing can be written, none is
        assert len(store.records(event)) == 2
        assert store._db.total_changes == 1  # the line above, nothing else


def test_keys_that_cannot_be_remade_are_refused_in_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    filled(regulation, tmp_path)
    with open_store(regulation, tmp_path) as store:
        store._db.execute("UPDATE settings SET value = '1' WHERE key = 'identity_rule'")
        store._db.execute("PRAGMA query_only = ON")  # the file turned read-only since
        with pytest.raises(Unwritable) as caught:
            store._players.refresh_keys()
        assert str(caught.value).startswith("cannot prepare the penalty log: ")
        assert "\n" not in str(caught.value)


def test_a_tier_this_guide_does_not_know_ranks_below_every_known_one(
    regulation: Regulation, tmp_path: Path
) -> None:
    """A record whose tier id the guide no longer has (a log kept by another version of it)
    is listed, and never shown as the player's highest tier over a known one."""
    with open_store(regulation, tmp_path) as store:
        event = store.current_event().id
        store.add_record(event, entry("山田太郎", tier="caution"))
        unknown = store.add_record(event, entry("山田太郎", tier="warning"))
        with store._database.write() as db:
            db.execute("UPDATE records SET tier = 'retired-tier' WHERE uuid = ?", (unknown.id,))
        (summary,) = store.player_summaries(event)
        assert (summary.records, summary.highest_tier_id) == (2, "caution")


def test_players_of_one_name_with_different_ids_are_different_players(store: LogStore) -> None:
    """Two 佐藤花子 with their own IDs are two lines; one written without an ID cannot be
    told to be either, so she is a third."""
    event = store.current_event().id
    store.add_record(event, entry("佐藤花子", player_id="0002"))
    store.add_record(event, entry("佐藤花子", player_id="0003", tier="disqualification"))
    store.add_record(event, entry("佐藤花子"))
    summaries = store.player_summaries(event)
    assert sorted((s.player.player_id or "", s.records) for s in summaries) == [
        ("", 1),
        ("0002", 1),
        ("0003", 1),
    ]
    assert {s.player.player_id: s.highest_tier_id for s in summaries}["0003"] == "disqualification"

"""The small modules of records/ at the edges mutation testing found untested: the log's folder
is the one each platform documents, and an export never overwrites a file by accident (where the
log lives, records/paths.py); an export is written whole or not at all, and a failed one leaves the
old file and nothing beside it (records/export_file.py); an error is one line (records/errors.py);
the model's keys, rounds, repeat counts and reports (records/model.py); the log's front
(records/store.py). The sync ones are in tests/test_mutation_small_sync.py."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from records_support import Clock, entry, open_store

from records.errors import InvalidInput, LogError, Unwritable
from records.export_file import write_file
from records.identity import id_key, name_key
from records.locks import Lock, lock_path
from records.model import Event, MergeReport, Player, Record, Recovery, RepeatCheck, Round
from records.paths import data_dir, database_path, unused_path
from records.store import LogStore
from records.sync.local import who
from regulation.model import Regulation

AT = datetime(2026, 12, 2, 13, 5, 1, tzinfo=timezone(timedelta(hours=9)))


# -- where the log lives (records/paths.py) ----------------------------------------------------


def test_the_data_dir_named_by_the_judge_wins_then_the_packaged_apps() -> None:
    both = {"PENALTY_GUIDE_DATA_DIR": "/judge/log", "FLET_APP_STORAGE_DATA": "/app/data"}
    assert data_dir(both, "linux") == Path("/judge/log")
    flet = {"PENALTY_GUIDE_DATA_DIR": "", "FLET_APP_STORAGE_DATA": "/app/data", "HOME": "/h"}
    assert data_dir(flet, "android") == Path("/app/data")
    assert database_path(both) == Path("/judge/log/penalty-log.sqlite3")


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({"HOME": "/home/judge"}, "linux", "/home/judge/.local/share/ocg-penalty-guide"),
        ({"HOME": "/h", "XDG_DATA_HOME": "/xdg"}, "linux", "/xdg/ocg-penalty-guide"),
        ({"HOME": "/h", "XDG_DATA_HOME": ""}, "linux", "/h/.local/share/ocg-penalty-guide"),
        ({"HOME": "/Users/j"}, "darwin", "/Users/j/Library/Application Support/ocg-penalty-guide"),
        ({"USERPROFILE": "/u", "APPDATA": "/u/roam"}, "win32", "/u/roam/ocg-penalty-guide"),
        ({"USERPROFILE": "/u"}, "win32", "/u/AppData/Roaming/ocg-penalty-guide"),
        (
            {"HOME": "", "USERPROFILE": "/u", "APPDATA": ""},
            "win32",
            "/u/AppData/Roaming/ocg-penalty-guide",
        ),
    ],
)
def test_the_platforms_user_data_folder_holds_the_log(
    environ: dict[str, str], platform: str, expected: str
) -> None:
    assert data_dir(environ, platform) == Path(expected)


def test_without_a_home_variable_the_users_home_is_used() -> None:
    assert data_dir({}, "linux") == Path.home() / ".local" / "share" / "ocg-penalty-guide"


def test_the_process_environment_and_platform_are_the_defaults(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    assert database_path() == tmp_path / "penalty-log.sqlite3"
    monkeypatch.delenv("PENALTY_GUIDE_DATA_DIR")
    monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert data_dir() == tmp_path / "Library" / "Application Support" / "ocg-penalty-guide"


def test_an_unused_path_never_names_an_existing_file(tmp_path: Path) -> None:
    def name_for(stamp: str) -> Path:
        return tmp_path / f"log-{stamp}.csv"

    now = datetime(2026, 11, 30, 13, 5, 1)
    first = unused_path(now, name_for)
    assert first == tmp_path / "log-20261130T130501.csv"
    names = []
    for _ in range(3):
        found = unused_path(now, name_for)
        assert not found.exists()
        found.write_bytes(b"kept")
        names.append(found.name)
    assert names == [
        "log-20261130T130501.csv",
        "log-20261130T130501-2.csv",
        "log-20261130T130501-3.csv",
    ]
    assert all((tmp_path / name).read_bytes() == b"kept" for name in names)


# -- an export written whole or not at all (records/export_file.py) -----------------------------


def test_an_export_replaces_the_file_whole_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "log.json"
    target.write_bytes(b"old")
    write_file(target, b'{"new": true}\n')
    assert target.read_bytes() == b'{"new": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.json"]


def test_an_export_is_written_beside_its_target_under_a_hidden_name_then_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        seen.append(sorted(p.name for p in tmp_path.iterdir()))
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_file(tmp_path / "log.csv", b"a,b\n")
    [names] = seen
    assert len(names) == 1 and names[0].startswith(".log.csv.")  # hidden, in the same folder
    assert synced == [4]  # every byte flushed before the sync


def test_a_failed_write_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "log.json"
    target.write_bytes(b"old")

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(Unwritable) as caught:
        write_file(target, b"new")
    assert str(caught.value) == (
        f"export not written: the disk is full (No space left on device) — {target}"
    )
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.json"]


def test_a_failed_write_whose_partial_file_is_already_gone_is_still_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "log.json"

    def fsync(fd: int) -> None:  # another program cleaned the folder while the disk filled up
        for partial in tmp_path.glob(".log.json.*"):
            partial.unlink()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(Unwritable) as caught:
        write_file(target, b"new")
    assert str(caught.value) == (
        f"export not written: the disk is full (No space left on device) — {target}"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_export_into_a_missing_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "gone" / "log.json"
    with pytest.raises(LogError) as caught:
        write_file(target, b"x")
    assert str(caught.value) == f"export not written: No such file or directory — {target}"
    assert not target.parent.exists()


def test_an_export_named_without_a_folder_goes_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_file(Path("log.csv"), b"x\n")
    assert (tmp_path / "log.csv").read_bytes() == b"x\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv"]


# -- the errors (records/errors.py) -------------------------------------------------------------


def test_an_error_is_one_line_whatever_it_was_given() -> None:
    assert str(LogError("disk\nfull:\t  try   again ")) == "disk full: try again"
    error = InvalidInput("bad\n value")
    assert (str(error), error.field, error.reason) == ("bad value", None, "format")
    named = InvalidInput("too long", "player.name", "too_long")
    assert (named.field, named.reason) == ("player.name", "too_long")
    assert isinstance(Unwritable("x"), LogError) and str(Unwritable("a\nb")) == "a b"


# -- the model's values (records/model.py) ------------------------------------------------------


def test_a_players_keys_fold_the_name_and_the_id() -> None:
    player = Player("ＹＡＭＡＤＡ　Taro", " 0012 3456 ")
    assert player.name_key == name_key("ＹＡＭＡＤＡ　Taro")
    assert player.name_key == Player("yamada taro").name_key
    assert player.id_key == id_key(" 0012 3456 ") is not None
    assert Player("誰か").id_key is None


def test_an_events_round_is_found_by_its_number() -> None:
    second = Round(2, AT)
    event = Event("ev", "秋の大会", None, (Round(1), second))
    assert event.round(2) is second
    assert event.round(1) == Round(1)
    assert event.round(3) is None
    assert Event("ev", "x", None).round(1) is None


def test_a_repeat_check_counts_the_earlier_records() -> None:
    record = Record("r1", "ev", AT, AT, 1, None, Player("a"), "late", "warning", None)
    first = RepeatCheck(previous=(), next_tier_id=None)
    assert (first.is_repeat, first.has_related, first.occurrence) == (False, False, 1)
    third = RepeatCheck(previous=(record, record), next_tier_id="game_loss", related=(record,))
    assert (third.is_repeat, third.has_related, third.occurrence) == (True, True, 3)


def test_a_merge_reports_three_counts_and_elsewhere_only_when_there_is_some() -> None:
    event = Event("ev", "秋の大会", None)
    usual = MergeReport(event, added=3, updated=2, unchanged=1)
    assert usual.as_dict() == {"added": 3, "updated": 2, "unchanged": 1}
    apart = MergeReport(event, 0, 1, 0, elsewhere=2, elsewhere_events=("春の大会", "夏の大会"))
    assert apart.as_dict() == {
        "added": 0,
        "updated": 1,
        "unchanged": 0,
        "elsewhere": 2,
        "elsewhere_events": ["春の大会", "夏の大会"],
    }


def test_a_recovery_says_where_the_damaged_log_was_kept() -> None:
    recovery = Recovery(
        Path("/data/penalty-log.sqlite3"),
        Path("/data/penalty-log.damaged-20261202T130501.sqlite3"),
        "the file is damaged",
    )
    assert recovery.message == (
        "the penalty log /data/penalty-log.sqlite3 could not be read (the file is damaged); "
        "it was kept as penalty-log.damaged-20261202T130501.sqlite3 and a new log was started"
    )


# -- the log's front (records/store.py) ----------------------------------------------------------


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path) -> Iterator[LogStore]:
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


def test_the_store_says_where_it_is_and_that_nothing_was_set_aside(
    store: LogStore, regulation: Regulation, tmp_path: Path
) -> None:
    assert store.path == tmp_path / "penalty-log.sqlite3"
    assert store.regulation is regulation
    assert (store.recovery, store.migration_backup, store.read_only) == (None, None, None)
    first = store.add_record(store.current_event().id, entry("A")).created_at
    assert first.date() == date(2026, 11, 28)  # the clock it was opened with (Clock's day)
    store.clock = lambda: AT  # every time the log writes comes from here
    assert store.clock() == AT
    assert store.add_record(store.current_event().id, entry("A")).created_at == AT


def test_each_saved_change_tells_every_listener_once_and_a_read_tells_none(
    store: LogStore,
) -> None:
    heard: list[str] = []
    store.add_save_listener(lambda: heard.append("sync"))
    store.add_save_listener(lambda: heard.append("screen"))
    event = store.current_event()
    saved = store.add_record(event.id, entry("A"))
    store.edit_record(saved.id, entry("A", note="2枚"))
    store.delete_record(saved.id)
    store.restore_record(saved.id)
    store.update_event(event.id, "県大会", None)
    store.set_rounds(event.id, (Round(1, AT),))
    store.round_clock.set_default_minutes(event.id, 50)  # the round clock's writes too
    assert heard == ["sync", "screen"] * 7
    store.records(event.id), store.record(saved.id), store.record_versions(saved.id)
    store.check_repeat(event.id, Player("A"), "drew-extra-cards"), store.events()
    assert len(heard) == 14


def test_a_records_versions_come_oldest_first_and_only_the_last_is_current(
    store: LogStore,
) -> None:
    event_id = store.current_event().id
    saved = store.add_record(event_id, entry("A", note="1"))
    store.edit_record(saved.id, entry("A", note="2"))
    last = store.edit_record(saved.id, entry("A", note="3"))
    found = store.record_versions(saved.id)
    assert [v.record.note for v in found] == ["1", "2", "3"]
    assert [v.current for v in found] == [False, False, True]
    assert found[-1].record == last
    assert found[0].saved_at < found[1].saved_at < found[2].saved_at
    with store._database.lock:
        me = who(store._db)
    assert me.device and {v.recorded_by for v in found} == {me}


def test_an_export_holds_every_record_oldest_first_tombstones_included(store: LogStore) -> None:
    event_id = store.current_event().id
    first, second = (store.add_record(event_id, entry(name)) for name in ("A", "B"))
    store.delete_record(first.id)
    event, records = store.export_records(event_id)
    assert event == store.event(event_id)
    assert [(r.id, r.deleted) for r in records] == [(first.id, True), (second.id, False)]
    assert len(store.export_versions(event_id)) >= 3  # the settings, two records, a deletion


def test_a_players_history_is_theirs_alone_oldest_first(store: LogStore) -> None:
    event_id = store.current_event().id
    made = [store.add_record(event_id, entry(name)) for name in ("A", "B", "A", "A")]
    store.delete_record(made[3].id)
    history = store.player_history(event_id, Player("A"))
    assert [r.id for r in history] == [made[0].id, made[2].id]


def test_type_ahead_offers_eight_names_unless_told_otherwise(store: LogStore) -> None:
    event_id = store.current_event().id
    for n in range(10):
        store.add_record(event_id, entry(f"山田{n}"))
    assert len(store.recent_players()) == 8
    assert len(store.recent_players("山田", event_id=event_id, limit=3)) == 3
    assert store.recent_players("佐藤") == ()


def test_a_taken_event_name_is_refused_unless_the_existing_one_is_asked_for(
    store: LogStore,
) -> None:
    made = store.create_event("県大会", date(2026, 12, 6))
    assert made.date == date(2026, 12, 6)
    with pytest.raises(InvalidInput):
        store.create_event("県大会")
    assert store.create_event("県大会", existing_ok=True) == made
    assert store.event_by_name("県大会") == made
    assert store.set_current_event(made.id) == store.current_event() == made


def test_a_round_is_added_or_retimed_leaving_the_others(store: LogStore) -> None:
    event_id = store.current_event().id
    store.set_rounds(event_id, (Round(1, AT),))
    later = AT + timedelta(hours=1)
    assert store.set_round(event_id, 2, later).rounds == (Round(1, AT), Round(2, later))
    assert store.set_round(event_id, 1, None).rounds == (Round(1, None), Round(2, later))
    assert store.event(event_id) == store.event_by_name(store.current_event().name)


def test_a_renamed_event_keeps_the_date_given_and_a_higher_tier_chosen_is_seen(
    store: LogStore,
) -> None:
    event_id = store.current_event().id
    assert store.update_event(event_id, "県大会", date(2026, 12, 6)).date == date(2026, 12, 6)
    earlier = store.add_record(event_id, entry("A"))  # drew-extra-cards: 警告 (warning)
    # the judge already chose a tier above the infraction's own: no suggestion on top of it
    check = store.check_repeat(event_id, Player("A"), "drew-extra-cards", "match-forfeiture")
    assert (check.previous, check.next_tier_id, check.higher_chosen) == ((earlier,), None, True)
    check = store.check_repeat(event_id, Player("A"), "drew-extra-cards")
    assert (check.next_tier_id, check.higher_chosen) == ("duel-forfeiture", False)


def test_tardiness_is_counted_from_the_arrival_given(store: LogStore) -> None:
    event_id = store.current_event().id
    store.set_rounds(event_id, (Round(1, AT),))
    suggestion = store.suggest_tardiness(event_id, 1, AT + timedelta(minutes=8, seconds=26))
    assert (suggestion.assembly_at, suggestion.late_by) == (AT, timedelta(minutes=8, seconds=26))


def test_the_log_of_one_table_and_the_deleted_list(store: LogStore) -> None:
    event_id = store.current_event().id
    kept, gone = (
        store.add_record(event_id, entry(n, table=t)) for n, t in (("A", "12"), ("B", "3"))
    )
    assert store.records(event_id, table="１２") == (kept,)  # as written, width-folded
    store.delete_record(gone.id)
    assert [r.id for r in store.records(event_id, only_deleted=True)] == [gone.id]


def test_a_closed_log_is_free_for_the_next_opener(regulation: Regulation, tmp_path: Path) -> None:
    store = open_store(regulation, tmp_path)
    other = Lock(lock_path(store.path))
    assert not other.take_alone()  # in use while open (a migration waits for it)
    store.close()
    assert other.take_alone()
    other.release()

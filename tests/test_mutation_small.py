"""The small modules of records/ at the edges mutation testing found untested: the log's folder
is the one each platform documents, and an export never overwrites a file by accident (where the
log lives, records/paths.py); an export is written whole or not at all, and a failed one leaves the
old file and nothing beside it (records/export_file.py); an error is one line (records/errors.py);
the model's keys, rounds, repeat counts and reports (records/model.py). The sync ones (join codes,
addresses, sync state) are in tests/test_mutation_small_sync.py."""

from __future__ import annotations

import errno
import os
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from records.errors import InvalidInput, LogError, Unwritable
from records.export_file import write_file
from records.identity import id_key, name_key
from records.model import Event, MergeReport, Player, Record, Recovery, RepeatCheck, Round
from records.paths import data_dir, database_path, unused_path

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

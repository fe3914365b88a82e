"""`main.py round start | pause | resume | extend | status`: the contract of docs/architecture.md
(in-process through `main.main`; one process test for the real exit and output)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from records_support import run_main

from main import main

STATUS_KEYS = {
    "round",
    "started_at",
    "minutes",
    "paused_s",
    "ends_at",
    "remaining_s",
    "extensions",
}


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["round", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def status(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def dump(folder: Path) -> list[tuple]:
    """Every clock row and event, to prove a refused command changed nothing."""
    path = folder / "penalty-log.sqlite3"
    if not path.exists():
        return []
    connection = sqlite3.connect(path)
    try:
        return [
            row
            for table in (
                "events",
                "clock_events",
                "clock_rounds",
                "clock_marks",
                "clock_extensions",
            )
            for row in connection.execute(f"SELECT * FROM {table}").fetchall()
        ]
    finally:
        connection.close()


def test_start_pause_resume_extend_and_status(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = status(capsys, "start", "1", "--at", "2026-11-28T13:00:00+09:00", "--event", "大会")
    assert set(started) >= STATUS_KEYS
    assert started["round"] == 1 and started["minutes"] == 50
    assert started["started_at"].startswith("2026-11-28T13:00:00")
    status(capsys, "pause", "1", "--at", "2026-11-28T13:20:00+09:00", "--event", "大会")
    status(capsys, "resume", "1", "--at", "2026-11-28T13:23:30+09:00", "--event", "大会")
    status(capsys, "extend", "1", "--table", "12", "--minutes", "3", "--event", "大会")
    status(capsys, "extend", "1", "--table", "12", "--minutes", "2", "--event", "大会")
    status(capsys, "extend", "1", "--table", "4", "--minutes", "1", "--event", "大会")
    shown = status(capsys, "status", "1", "--at", "2026-11-28T13:40:00+09:00", "--event", "大会")
    assert shown["paused_s"] == 210
    assert shown["ends_at"].startswith("2026-11-28T13:53:30")
    assert shown["remaining_s"] == 13 * 60 + 30
    assert [
        (e["table"], e["minutes"], e["ends_at"][11:19], e["record"]) for e in shown["extensions"]
    ] == [
        ("4", 1, "13:54:30", None),
        ("12", 5, "13:58:30", None),
    ]
    # Without N: the current round; the same instant in another zone gives the same numbers.
    other_zone = status(capsys, "status", "--at", "2026-11-28T05:40:00+01:00", "--event", "大会")
    assert other_zone["remaining_s"] == shown["remaining_s"]
    assert other_zone["round"] == 1


def test_the_current_event_by_default_and_a_correction(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status(capsys, "start", "2", "--at", "2026-11-28T14:00:00+09:00", "--minutes", "40")
    corrected = status(capsys, "start", "2", "--at", "2026-11-28T14:05:00+09:00")
    assert corrected["minutes"] == 40  # a correction keeps the length
    assert corrected["ends_at"].startswith("2026-11-28T14:45:00")
    shown = status(capsys, "status", "--at", "2026-11-28T14:45:10+09:00")
    assert shown["remaining_s"] == -10  # overtime


def test_an_extension_linked_to_a_record(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["log", "add", "--player", "山田", "--infraction", "drew-extra-cards", "--json"])
    record = json.loads(capsys.readouterr().out)["record"]["id"]
    status(capsys, "start", "1")
    shown = status(capsys, "extend", "1", "--table", "7", "--minutes", "3", "--record", record)
    assert shown["extensions"][0]["record"] == record


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("start", "0"), "round: must be 1 to 999"),
        (("start", "x"), "is not a round number"),
        (("start", "1", "--minutes", "-5"), "a round lasts 1 to 1440 minutes"),
        (("start", "1", "--minutes", "1441"), "a round lasts 1 to 1440 minutes"),
        (("start", "1", "--minutes", "0"), "a round lasts 1 to 1440 minutes"),
        (("start", "1", "--at", "yesterday"), "--at: not a time"),
        (("start", "1", "--at", "2026-02-30T10:00"), "--at: not a time"),
        (("extend", "3", "--table", "1", "--minutes", "2"), "round 3 has not started"),
        (("pause", "3"), "round 3 has not started"),
        (("resume", "3"), "round 3 has not started"),
        (("status", "1", "--event", "ない大会"), "no event named"),
        (("extend", "1", "--table", "1", "--minutes", "2", "--record", "r"), "not a record id"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    data_dir: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    status(capsys, "start", "1", "--event", "大会")
    before = dump(data_dir)
    code, out, err = (
        run(capsys, *args, "--event", "大会") if "--event" not in args else run(capsys, *args)
    )
    assert code == 2
    assert out == ""
    assert says in err and err.count("\n") == 1 and err.startswith("error: ")
    assert dump(data_dir) == before


def test_a_bad_extension_of_a_started_round_changes_nothing(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status(capsys, "start", "1")
    before = dump(data_dir)
    for minutes in ("0", "-3", "1441"):
        code, _out, err = run(capsys, "extend", "1", "--table", "5", "--minutes", minutes)
        assert code == 2 and "an extension is 1 to 1440 minutes" in err
    code, _out, err = run(capsys, "pause", "1", "--at", "2001-01-01T00:00:00+09:00")
    assert code == 2 and "before round 1 started" in err
    assert dump(data_dir) == before


@pytest.mark.process
def test_text_output_and_a_real_process(data_dir: Path) -> None:
    done = run_main(["round", "start", "1", "--event", "大会", "--minutes", "45"], data_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("大会: round 1, 45 min, started ")
    assert "left" in done.stdout
    wrong = run_main(["round", "pause", "2", "--event", "大会"], data_dir)
    assert wrong.returncode == 2
    assert wrong.stderr == "error: round 2 has not started\n"


def test_status_before_any_start(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "status")
    assert code == 2 and err.startswith("error: no round of ") and err.count("\n") == 1
    status(capsys, "start", "1", "--minutes", "30")
    later = status(capsys, "status", "2")  # a round not started yet: its length, no times
    assert (later["started_at"], later["ends_at"], later["remaining_s"]) == (None, None, None)
    assert later["minutes"] == 50 and later["extensions"] == []


def test_another_device_with_the_imported_export_shows_the_same_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(first))
    status(capsys, "start", "2", "--at", "2026-11-28T23:40:00+09:00", "--event", "夜の大会")
    status(capsys, "pause", "2", "--at", "2026-11-28T23:50:00+09:00", "--event", "夜の大会")
    status(capsys, "resume", "2", "--at", "2026-11-28T23:52:00+09:00", "--event", "夜の大会")
    status(capsys, "extend", "2", "--table", "5", "--minutes", "4", "--event", "夜の大会")
    export = tmp_path / "export.json"
    assert (
        main(["log", "export", "--event", "夜の大会", "--format", "json", "-o", str(export)]) == 0
    )
    capsys.readouterr()
    at = ("--at", "2026-11-29T00:20:00+09:00", "--event", "夜の大会")  # after midnight
    here = status(capsys, "status", "2", *at)
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(second))
    assert main(["log", "import", str(export)]) == 0
    capsys.readouterr()
    there = status(capsys, "status", "2", *at)
    assert there == here
    assert here["remaining_s"] == 12 * 60 and here["ends_at"].startswith("2026-11-29T00:32")

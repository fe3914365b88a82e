"""Mutation tests for records/cli_round.py (the round clock's command line): in-process through
`round_command` with the log in a temporary folder and the device's clock held still, so that
every status printed (JSON and text) can be compared whole; a refusal is one line, exit 2, and
changes nothing."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from records_support import JST, Clock, entry

import records.cli
from main import parse_args
from records.cli_round import _number, _run, round_command
from records.errors import InvalidInput
from records.store import LogStore
from regulation.model import Regulation

NOW = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
LOG = "penalty-log.sqlite3"


class Device:
    """The log in a folder of its own, opened by the command line with a clock that stands
    still until a test moves it."""

    def __init__(self, folder: Path, regulation: Regulation) -> None:
        self.folder = folder
        self.regulation = regulation
        self.clock = Clock(NOW, step=timedelta(0))

    def run(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = round_command(parse_args(["round", *argv]), self.regulation, out, err)
        return code, out.getvalue(), err.getvalue()

    def json(self, *argv: str) -> dict[str, Any]:
        code, out, err = self.run(*argv, "--json")
        assert (code, err) == (0, ""), err
        shown = json.loads(out)
        assert isinstance(shown, dict)
        return shown

    def open(self) -> LogStore:
        return LogStore.open(self.regulation, self.folder / LOG, clock=self.clock)

    def dump(self) -> list[tuple[Any, ...]]:
        """Every event and clock row: a refused command changes none of them."""
        path = self.folder / LOG
        if not path.exists():
            return []
        connection = sqlite3.connect(path)
        try:
            tables = ("events", "clock_events", "clock_rounds", "clock_marks", "clock_extensions")
            return [
                row
                for table in tables
                for row in connection.execute(f"SELECT * FROM {table}").fetchall()
            ]
        finally:
            connection.close()


@pytest.fixture
def device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, regulation: Regulation
) -> Iterator[Device]:
    folder = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    made = Device(folder, regulation)

    class Opener:
        @staticmethod
        def open(regulation: Regulation, path: Path | None = None) -> LogStore:
            return LogStore.open(regulation, path, clock=made.clock)

    monkeypatch.setattr(records.cli, "LogStore", Opener)
    # The text lines show local times: the device's zone is Tokyo's for these tests.
    zone = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Tokyo"
    time.tzset()
    try:
        yield made
    finally:
        if zone is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = zone
        time.tzset()


def test_a_start_without_a_time_takes_the_devices_and_prints_the_whole_status(
    device: Device,
) -> None:
    code, out, err = device.run("start", "1", "--event", "大会", "--json")
    assert (code, err) == (0, "")
    assert out.startswith('{\n  "round": 1,\n  "started_at": "2026-11-28T13:00:00.000000+09:00"')
    assert out.endswith("\n}\n")
    assert json.loads(out) == {
        "round": 1,
        "started_at": "2026-11-28T13:00:00.000000+09:00",
        "minutes": 50,
        "paused_s": 0,
        "paused": False,
        "ends_at": "2026-11-28T13:50:00.000000+09:00",
        "remaining_s": 3000,
        "real_end": "2026-11-28T13:50:00.000000+09:00",
        "extensions": [],
    }
    with device.open() as store:
        event = store.event_by_name("大会")
        assert event is not None  # `start` makes the event it names
        assert store.round_clock.round(event.id, 1).started_at == NOW


def test_a_start_at_a_typed_time_is_shown_as_of_now(device: Device) -> None:
    device.clock.now = NOW + timedelta(minutes=10)
    # "13:00" is today in the zone of the device's clock; the status is evaluated now.
    shown = device.json("start", "1", "--at", "13:00", "--minutes", "40")
    assert shown["started_at"] == "2026-11-28T13:00:00.000000+09:00"
    assert shown["minutes"] == 40
    assert shown["ends_at"] == "2026-11-28T13:40:00.000000+09:00"
    assert shown["remaining_s"] == 30 * 60


def test_pause_and_resume_take_the_time_given_or_the_devices(device: Device) -> None:
    device.json("start", "2")
    device.clock.now = NOW + timedelta(minutes=20)
    paused = device.json("pause", "2")
    assert paused["paused"] is True and paused["paused_s"] == 0
    assert paused["remaining_s"] == 30 * 60
    device.clock.now = NOW + timedelta(minutes=30)
    resumed = device.json("resume", "2", "--at", "2026-11-28T13:23:30+09:00")
    assert resumed["paused"] is False and resumed["paused_s"] == 210
    assert resumed["ends_at"] == "2026-11-28T13:53:30.000000+09:00"
    assert resumed["remaining_s"] == 23 * 60 + 30
    device.json("pause", "2", "--at", "2026-11-28T13:40:00+09:00")
    # Evaluated at --at: 0.4 s into the second pause, 210.4 s paused in all, rounded; the
    # seconds left are whole, rounded up.
    shown = device.json("status", "2", "--at", "2026-11-28T13:40:00.400000+09:00")
    assert (shown["paused"], shown["paused_s"]) == (True, 210)
    assert shown["remaining_s"] == 13 * 60 + 30
    assert shown["ends_at"] == "2026-11-28T13:53:30.400000+09:00"
    later = device.json("status", "2", "--at", "2026-11-28T13:39:59.250000+09:00")
    assert (later["paused"], later["remaining_s"]) == (False, 13 * 60 + 31)


def test_an_extension_is_listed_with_its_records_and_the_real_end(device: Device) -> None:
    device.json("start", "1", "--event", "大会", "--at", "12:59")
    device.json("pause", "1", "--event", "大会", "--at", "12:59:30")
    device.json("resume", "1", "--event", "大会", "--at", "13:00:30")  # a minute paused
    with device.open() as store:
        event = store.event_by_name("大会")
        assert event is not None
        record = store.add_record(event.id, entry("山田")).id
    device.clock.now = NOW + timedelta(minutes=5)
    device.json(
        "extend", "1", "--table", "12", "--minutes", "3", "--record", record, "--event", "大会"
    )
    device.json("extend", "1", "--table", "12", "--minutes", "2", "--event", "大会")
    shown = device.json("extend", "1", "--table", "決勝", "--minutes", "1", "--event", "大会")
    assert shown["real_end"] == "2026-11-28T13:55:00.000000+09:00"
    assert shown["extensions"] == [
        {
            "table": "決勝",
            "minutes": 1,
            "ends_at": "2026-11-28T13:51:00.000000+09:00",
            "record": None,
            "records": [],
            "finished": False,
        },
        {
            "table": "12",
            "minutes": 5,
            "ends_at": "2026-11-28T13:55:00.000000+09:00",
            "record": record,
            "records": [record],
            "finished": False,
        },
    ]
    with device.open() as store:
        event = store.event_by_name("大会")
        assert event is not None
        store.round_clock.set_finished(event.id, 1, "12")
    code, out, _ = device.run("status", "--json", "--event", "大会")
    assert code == 0 and "決勝" in out  # names as typed, not escaped
    assert [row["finished"] for row in json.loads(out)["extensions"]] == [False, True]


def test_the_text_status_of_a_round(device: Device) -> None:
    code, out, err = device.run("start", "1", "--minutes", "45", "--event", "大会")
    assert (code, err) == (0, "")
    assert out == "大会: round 1, 45 min, started 13:00:00, ends 13:45:00: 45:00 left\n"
    device.json("extend", "1", "--table", "12", "--minutes", "3", "--event", "大会")
    device.json("extend", "1", "--table", "4", "--minutes", "4", "--event", "大会")
    with device.open() as store:
        event = store.event_by_name("大会")
        assert event is not None
        store.round_clock.set_finished(event.id, 1, "4")
    code, out, _ = device.run("status", "--at", "2026-11-28T13:46:05+09:00", "--event", "大会")
    assert code == 0
    assert out == (
        "大会: round 1, 45 min, started 13:00:00, ends 13:45:00: overtime +01:05\n"
        "  table 12: +3 min, ends 13:48:00\n"
        "  table 4: +4 min, ends 13:49:00, finished\n"
    )
    # At time exactly, and half a second before: still time left, not overtime.
    for at, left in (("13:45:00", "00:00 left"), ("13:44:59.5", "00:01 left")):
        code, out, _ = device.run("status", "--at", f"2026-11-28T{at}+09:00", "--event", "大会")
        assert out.splitlines()[0].endswith(f"ends 13:45:00: {left}")
    device.clock.now = NOW + timedelta(minutes=10)
    code, out, _ = device.run("pause", "1", "--event", "大会")
    assert out.splitlines()[0] == (
        "大会: round 1, 45 min, started 13:00:00, ends 13:45:00: 35:00 left (paused)"
    )
    code, out, _ = device.run("status", "2", "--event", "大会")
    assert (code, out) == (0, "大会: round 2, 50 min, not started\n")


def test_status_names_its_round_or_the_current_one(device: Device) -> None:
    device.json("start", "1", "--at", "2026-11-28T12:00:00+09:00")
    device.json("start", "2", "--minutes", "30")
    assert device.json("status")["round"] == 2
    first = device.json("status", "1")
    assert (first["round"], first["minutes"]) == (1, 50)
    assert first["started_at"] == "2026-11-28T12:00:00.000000+09:00"
    assert first["remaining_s"] == -10 * 60  # evaluated now: ten minutes over


def test_a_round_not_started_has_its_length_and_no_times(device: Device) -> None:
    device.json("start", "1", "--minutes", "30")
    assert device.json("status", "3") == {
        "round": 3,
        "started_at": None,
        "minutes": 50,
        "paused_s": 0,
        "paused": False,
        "ends_at": None,
        "remaining_s": None,
        "real_end": None,
        "extensions": [],
    }


def test_no_round_started_is_refused_under_round(device: Device) -> None:
    with device.open() as store:
        store.create_event("大会")
        with pytest.raises(InvalidInput) as refused:
            _run(store, parse_args(["round", "status", "--event", "大会"]), io.StringIO())
    assert str(refused.value) == "no round of '大会' has started yet"
    assert (refused.value.field, refused.value.reason) == ("round", "not_started")


def test_status_of_an_event_without_a_round_is_one_line(device: Device) -> None:
    device.json("start", "1", "--event", "大会")
    code, out, err = device.run("status", "--event", "夜の部")
    assert (code, out) == (2, "")
    assert err.startswith("error: no event named '夜の部'")
    with device.open() as store:
        assert store.event_by_name("夜の部") is None  # only `start` makes an event
        store.create_event("夜の部")
    before = device.dump()
    code, out, err = device.run("status", "--event", "夜の部")
    assert (code, out, err) == (2, "", "error: no round of '夜の部' has started yet\n")
    assert device.dump() == before


def test_defaults_write_to_the_processs_streams(
    device: Device, regulation: Regulation, capsys: pytest.CaptureFixture[str]
) -> None:
    assert round_command(parse_args(["round", "start", "1", "--json"]), regulation) == 0
    assert json.loads(capsys.readouterr().out)["round"] == 1
    assert round_command(parse_args(["round", "pause", "7"]), regulation) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "error: round 7 has not started\n")


def test_a_round_number_is_1_to_999(device: Device) -> None:
    assert _number(None) is None
    assert _number("1") == 1 and _number("999") == 999
    assert device.json("start", "999")["round"] == 999
    before = device.dump()
    for text, says, reason in (
        ("0", "round: must be 1 to 999, not 0", "out_of_range"),
        ("1000", "round: must be 1 to 999, not 1000", "out_of_range"),
        ("x1", "round: 'x1' is not a round number", "format"),
    ):
        with pytest.raises(InvalidInput) as refused:
            _number(text)
        assert (str(refused.value), refused.value.field, refused.value.reason) == (
            says,
            "round",
            reason,
        )
        assert device.run("start", text) == (2, "", f"error: {says}\n")
    assert device.dump() == before


def test_a_bad_length_is_refused_before_the_event_is_made(device: Device) -> None:
    for minutes in ("0", "1441"):
        code, out, err = device.run("start", "1", "--minutes", minutes, "--event", "新しい大会")
        assert (code, out) == (2, "")
        assert err == f"error: --minutes: a round lasts 1 to 1440 minutes, not {minutes}\n"
    assert device.dump() == []  # not even the log's first event
    device.json("start", "1", "--event", "大会")
    code, _, err = device.run("extend", "1", "--table", "3", "--minutes", "1441")
    assert (code, err) == (2, "error: minutes: an extension is 1 to 1440 minutes, not 1441\n")


def test_a_bad_time_is_refused_under_at(device: Device) -> None:
    code, out, err = device.run("start", "1", "--at", "yesterday")
    assert (code, out) == (2, "")
    assert err.startswith("error: --at: not a time: 'yesterday'")
    assert device.dump() == []

"""The round clock's screens, in-process over the fake client (tests/flet_harness.py), with a fake
clock: the digits, the end time and the round; 10 min / 5 min / time; pause and resume; a judge
call's stopwatch becoming an extension; the end-of-round list; the record form and page; the
settings; the ticker running only while the clock is shown, and updating only what changed."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from pathlib import Path

import flet as ft
import pytest
from records_support import ROUND_START

from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import routes
from views.screens import clock_calls

pytestmark = pytest.mark.usefixtures("data_dir")


class FakeNow:
    def __init__(self) -> None:
        self.at = ROUND_START

    def __call__(self) -> datetime:
        return self.at

    def move(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def fake_now(monkeypatch: pytest.MonkeyPatch):
    """A fake clock, on a device in Tokyo (times are shown in the device's zone)."""
    clock = FakeNow()
    monkeypatch.setattr(clock_calls, "now", clock)
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield clock
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def disk(regulation: Regulation, data_dir: Path):
    stores: list[LogStore] = []

    def open_() -> LogStore:
        stores.append(LogStore.open(regulation, data_dir / DATABASE_NAME))
        return stores[-1]

    yield open_
    for store in stores:
        store.close()


def digits(app) -> str:
    """The big digits: the largest text on the screen."""
    texts = [t for t in app.find_all(ft.Text) if isinstance(t.size, (int, float))]
    return max(texts, key=lambda t: t.size).value


def panel_color(app) -> str | None:
    big = max(
        (t for t in app.find_all(ft.Text) if isinstance(t.size, (int, float))),
        key=lambda t: t.size,
    )
    return big.color


def tick(app) -> float | None:
    """One tick of the shell's ticker, as its loop would make it."""
    shell = app.page.data
    assert shell.ticker.running, "no ticker while the clock is shown"
    delay = shell._top_tick()
    app.settle()
    return delay


def started(disk, minutes: int | None = None) -> str:
    store = disk()
    event = store.current_event()
    store.round_clock.start(event.id, 1, ROUND_START, minutes)
    return event.id


def test_no_round_started_offers_to_start_one(apps, disk, fake_now) -> None:
    app = apps(route=routes.CLOCK.link())
    assert app.has_text("まだどの回戦も始まっていません。")
    assert app.has_text("1回戦はまだ始まっていません（50分）。")
    assert not app.page.data.ticker.running  # nothing to count
    fake_now.move(seconds=5)
    app.click(app.find(ft.FilledButton, text="1回戦を今すぐ開始"))
    store = disk()
    clock = store.round_clock.current(store.current_event().id)
    assert clock is not None and clock.started_at == ROUND_START + timedelta(seconds=5)
    assert digits(app) == "50:00"
    assert app.has_text("終了 13:50")
    assert app.page.data.ticker.running


def test_digits_end_time_and_round_follow_the_stored_start(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=12, seconds=30)
    app = apps(route=routes.CLOCK.link())
    assert digits(app) == "37:30"
    assert app.has_text("終了 13:50")
    assert app.has_text("1回戦")
    fake_now.move(seconds=1)
    assert tick(app) == pytest.approx(1.01)
    assert digits(app) == "37:29"


def test_ten_five_time_and_overtime_change_the_look_and_vibrate(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=39, seconds=59)
    vibrations: list[str] = []
    app = apps(
        route=routes.CLOCK.link(),
        handlers={
            ("HapticFeedback", "heavy_impact"): lambda a, i, args: vibrations.append("heavy"),
            ("HapticFeedback", "vibrate"): lambda a, i, args: vibrations.append("vibrate"),
        },
    )
    assert digits(app) == "10:01" and panel_color(app) is None
    fake_now.move(seconds=1)
    tick(app)
    assert digits(app) == "10:00" and app.has_text("1回戦 · 残り10分")
    assert panel_color(app) == "#000000"
    assert vibrations == ["heavy", "vibrate"]
    fake_now.move(minutes=5)
    tick(app)
    assert app.has_text("1回戦 · 残り5分") and len(vibrations) == 4
    fake_now.move(minutes=5)
    tick(app)
    assert digits(app) == "00:00" and app.has_text("1回戦 · 時間です")
    assert panel_color(app) == "#FFFFFF" and len(vibrations) == 6
    fake_now.move(minutes=3, seconds=5)
    tick(app)
    assert digits(app) == "+03:05" and app.has_text("1回戦 · 時間終了から")
    assert len(vibrations) == 6  # once per mark


def test_a_tick_sends_only_the_changed_digits(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=20)
    app = apps(route=routes.CLOCK.link())
    before = len(app.messages)
    fake_now.move(seconds=1)
    tick(app)
    sent = app.messages[before:]
    assert len(sent) == 1, sent
    _action, body = sent[0]
    assert "29:59" in repr(body)
    assert "終了" not in repr(body)  # the end time did not change: not sent
    before = len(app.messages)
    tick(app)  # the same second again: nothing changed, nothing sent
    assert app.messages[before:] == []


def test_the_ticker_runs_only_while_the_clock_is_shown(apps, disk, fake_now) -> None:
    started(disk)
    app = apps(route=routes.CLOCK.link())
    shell = app.page.data
    assert shell.ticker.running
    app.route(routes.TIERS.link())
    app.settle()
    assert not shell.ticker.running and shell._top_tick is None
    app.route(routes.CLOCK.link())
    assert shell.ticker.running


def test_pause_and_resume_from_the_clock(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=10)
    app = apps(route=routes.CLOCK.link())
    app.click(app.find(ft.OutlinedButton, text="一時停止"))
    assert app.has_text("1回戦 · 一時停止中")
    fake_now.move(minutes=4)
    tick(app)
    assert digits(app) == "40:00" and app.has_text("終了 13:54")
    app.click(app.find(ft.OutlinedButton, text="再開"))
    fake_now.move(minutes=1)
    tick(app)
    assert digits(app) == "39:00" and app.has_text("終了 13:54")


def test_a_judge_call_becomes_an_extension_on_the_end_of_round_list(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=20)
    app = apps(route=routes.CLOCK.link())
    app.click(app.find(ft.FilledButton, text="ジャッジコール"))  # no table yet
    assert app.find(ft.TextField, label="ジャッジコールの卓").error == "卓を入力してください。"
    app.type(app.find(ft.TextField, label="ジャッジコールの卓"), "１２")
    app.click(app.find(ft.FilledButton, text="ジャッジコール"))
    assert app.has_text("卓12のジャッジコール")
    fake_now.move(minutes=2, seconds=10)
    tick(app)
    assert app.has_text("02:10")  # the stopwatch
    app.click(app.find(ft.FilledButton, text="プレイ再開"))
    fake_now.move(seconds=30)  # the judge takes a moment to confirm: the call's time stays
    app.route(routes.LOG.link())
    app.route(routes.CLOCK.link())  # and may look elsewhere meanwhile
    assert app.has_text("卓12の延長") and app.has_text("コールの時間：02:10")
    minutes = app.find_all(ft.TextField, label="延長（分）")[0]  # the call's, above "by hand"
    assert minutes.value == "3"  # rounded up to the minute
    app.click(app.find(ft.FilledButton, text="延長を確定"))
    assert app.has_text("卓12に3分の延長を付けました")
    assert not app.has_text("卓12のジャッジコール") and not app.has_text("卓12の延長")
    assert app.has_text("卓12") and app.has_text("+3分") and app.has_text("13:53終了")
    assert app.has_text("ラウンドの実際の終了：13:53")
    store = disk()
    clock = store.round_clock.current(store.current_event().id)
    assert [(r.table, r.minutes) for r in clock.tables(fake_now())] == [("12", 3)]


def test_the_proposed_minutes_can_be_edited_or_the_call_dropped(apps, disk, fake_now) -> None:
    started(disk)
    app = apps(route=routes.CLOCK.link())
    for table in ("5", "6"):
        app.type(app.find(ft.TextField, label="ジャッジコールの卓"), table)
        app.click(app.find(ft.FilledButton, text="ジャッジコール"))
    fake_now.move(seconds=40)
    for _table in ("5", "6"):  # each tap redraws the screen
        app.click(app.find_all(ft.FilledButton, text="プレイ再開")[0])
    fields = app.find_all(ft.TextField, label="延長（分）")[:2]  # the calls' (then "by hand")
    assert [f.value for f in fields] == ["1", "1"]
    app.type(fields[0], "4")  # the judge knows better
    app.click(app.find_all(ft.FilledButton, text="延長を確定")[0])
    app.click(app.find(ft.TextButton, text="キャンセル"))  # table 6: no extension after all
    store = disk()
    clock = store.round_clock.current(store.current_event().id)
    assert [(r.table, r.minutes) for r in clock.tables(fake_now())] == [("5", 4)]
    assert not app.has_text("卓6の延長")


def test_an_extension_by_hand_edited_and_the_list_greyed_when_finished(
    apps, disk, fake_now
) -> None:
    started(disk)
    app = apps(route=routes.CLOCK.link())
    for table, minutes in (("7", "5"), ("3", "2"), ("7", "1")):
        app.type(app.find(ft.TextField, label="卓"), table)
        app.type(app.find(ft.TextField, label="延長（分）"), minutes)
        app.click(app.find(ft.OutlinedButton, text="延長を追加（デッキチェックなど）"))
    ends = [t for t in app.texts() if t.endswith("終了") and t[0].isdigit()]
    assert ends == ["13:52終了", "13:56終了"]  # table 3, then table 7 (5 + 1)
    assert app.has_text("+6分")
    app.click(app.find_all(ft.TextButton, text="終了にする")[0])
    assert app.has_text("卓3を終了にしました") and app.has_text("終了済み")
    greyed = [c for c in app.find_all(ft.Container) if c.opacity and c.opacity < 1]
    assert len(greyed) == 1 and "卓3" in app.texts(greyed[0])


@pytest.mark.parametrize("bad", ["0", "-2", "1441", "abc", ""])
def test_a_bad_extension_is_refused_on_the_page(apps, disk, fake_now, bad: str) -> None:
    started(disk)
    app = apps(route=routes.CLOCK.link())
    app.type(app.find(ft.TextField, label="卓"), "4")
    field = app.find(ft.TextField, label="延長（分）")
    app.type(field, bad)
    app.click(app.find(ft.OutlinedButton, text="延長を追加（デッキチェックなど）"))
    assert field.error == "1〜1440の分数を入力してください。"
    store = disk()
    assert store.round_clock.current(store.current_event().id).extensions == ()


def test_a_record_made_during_a_call_stops_it_and_shows_the_extension(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=5)
    app = apps(route=routes.LOG_NEW.link(infraction="drew-extra-cards"))
    app.type(app.find(ft.TextField, label="プレイヤー名"), "山田太郎")
    app.type(app.find(ft.TextField, label="卓"), "8")
    app.click(app.find(ft.OutlinedButton, text="ジャッジコール"))
    assert app.has_text("卓8のジャッジコールを計測しています")
    fake_now.move(minutes=3, seconds=20)
    app.click(app.find(ft.FilledButton, text="保存"))
    assert app.has_text("卓8のジャッジコールを計測中です（03:20）。")
    app.click(app.find(ft.FilledTonalButton, text="計測を止めて、この記録に延長を付ける"))
    assert app.find(ft.TextField, label="延長（分）").value == "4"
    app.click(app.find(ft.FilledButton, text="延長を確定"))
    assert app.has_text("時間の延長 +4分（1回戦・卓8）")
    assert not app.has_text("卓8のジャッジコールを計測中です（03:20）。")
    store = disk()
    (record,) = store.records(store.current_event().id)
    ((_number, extension),) = store.round_clock.extensions_of_record(record.id)
    assert (extension.table, extension.minutes) == ("8", 4)


def test_settings_length_start_correction_pause(apps, disk, fake_now) -> None:
    app = apps(route=routes.LOG_EVENT.link())
    length = app.find(ft.TextField, label="1回戦の長さ（分）")
    assert length.value == "50"
    app.type(length, "40", submit=True)
    store = disk()
    event_id = store.current_event().id
    assert store.round_clock.default_minutes(event_id) == 40
    app.type(app.find(ft.TextField, label="1回戦の長さ（分）"), "1441", submit=True)
    assert app.find(ft.TextField, label="1回戦の長さ（分）").error
    assert store.round_clock.default_minutes(event_id) == 40
    app.route(routes.CLOCK.link())
    app.click(app.find(ft.FilledButton, text="1回戦を今すぐ開始"))
    app.route(routes.LOG_EVENT.link())
    start = app.find(ft.TextField, label="開始時刻")
    assert start.value == "13:00:00"
    app.type(start, "13:05", submit=True)  # corrected
    assert store.round_clock.round(event_id, 1).started_at == ROUND_START + timedelta(minutes=5)
    app.type(app.find(ft.TextField, label="開始時刻"), "あとで", submit=True)
    assert app.find(ft.TextField, label="開始時刻").error
    app.type(app.find(ft.TextField, label="長さ（分）"), "45", submit=True)
    assert store.round_clock.round(event_id, 1).minutes == 45
    app.click(app.find(ft.IconButton, tooltip="1回戦: 一時停止"))  # before the corrected start
    assert app.has_text(re.compile("保存できませんでした.*before round 1 started"))
    fake_now.move(minutes=10)
    app.click(app.find(ft.IconButton, tooltip="1回戦: 一時停止"))
    assert store.round_clock.round(event_id, 1).paused_at(fake_now())


def test_english_and_the_desktop_layout(apps, disk, fake_now) -> None:
    started(disk)
    fake_now.move(minutes=45)
    app = apps(route=routes.CLOCK.link(), locale="en-US", width=1280, height=800)
    assert digits(app) == "05:00"
    assert app.has_text("Round 1 · 5 minutes left")
    assert app.has_text("Ends 13:50")
    big = max(
        (t for t in app.find_all(ft.Text) if isinstance(t.size, (int, float))), key=lambda t: t.size
    )
    assert big.size >= 150  # a laptop across the room
    # The whole width beside the rail: no list pane (one divider, not two).
    assert len(app.find_all(ft.VerticalDivider)) == 1

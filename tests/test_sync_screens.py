"""The Judges' sync screen and the log's sharing status, in-process over the fake client
(tests/flet_harness.py), on a test double of records/sync's service (tests/sync_fake.py): host,
join (wrong code, the offline records moved in), status and leave, sync now; the log header at
a glance; news from a foreign thread reaching the screens through the app's loop; nothing of
sync running while sharing is off."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import flet as ft
import pytest

from records.model import Player, RecordInput
from records.paths import DATABASE_NAME
from records.store import LogStore
from records.sync.service import DeviceSeen
from regulation.model import Regulation
from views import routes
from views.screens.sync_parts import ago, status_text
from views.sync_link import BIND_VARIABLE, PORT_VARIABLE

try:
    from flet_harness import FakeApp
    from sync_fake import CODE, HOST, SHARED_EVENT, FakeSync, install, other_judges_record
except ImportError:  # tests/ as a package
    from tests.flet_harness import FakeApp
    from tests.sync_fake import (
        CODE,
        HOST,
        SHARED_EVENT,
        FakeSync,
        install,
        other_judges_record,
    )

DREW = "drew-extra-cards"  # B Warning
REJOIN = "参加し直す（ホストのアドレスか参加コードが変わったとき）"
UNREACHABLE = "ホスト 127.0.0.1:8765 に接続できません。" + (
    "同じWi-Fiかテザリングにつながっているか確認してください。"
)


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> dict[str, FakeSync]:
    return install(monkeypatch)


def fake_of(fakes: dict[str, FakeSync], data_dir: Path) -> FakeSync:
    return fakes[str(data_dir / DATABASE_NAME)]


def eventually(app: FakeApp, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Runs the app's loop until `condition` holds: work handed to a worker thread (a network
    call) or arriving from a sync thread comes back to the loop on its own time."""
    deadline = time.monotonic() + timeout
    while True:
        app.settle()
        if condition():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s; the screen says: {app.texts()}")
        time.sleep(0.02)


def open_sync(app: FakeApp) -> None:
    """From the log: the sharing line in its header."""
    app.route(routes.LOG.link())
    app.click(app.find(ft.TextButton, text="ジャッジ間の共有"))
    assert app.client_route == routes.LOG_SYNC.link()


def field(app: FakeApp, label: str) -> ft.TextField:
    return app.find(ft.TextField, label=label)


def seed(regulation: Regulation, data_dir: Path, *names: str) -> None:
    """Records of this device's own (local) event, made before sharing."""
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        event = store.current_event()
        for name in names:
            store.add_record(event.id, RecordInput(Player(name), DREW))


# -- hosting -------------------------------------------------------------------------------------


def test_hosting_asks_the_judge_name_first_then_shows_addresses_code_and_devices(
    apps, fakes, data_dir: Path
) -> None:
    app = apps()
    open_sync(app)
    assert app.has_text("ホストに参加する") and app.has_text("この大会をホストする")
    host = app.find(ft.FilledTonalButton, text=re.compile("をホストする$"))
    app.click(host)
    fake = fake_of(fakes, data_dir)
    assert field(app, "ジャッジ名").error == "先にジャッジ名を入力してください。"
    assert not any(c.startswith("host") for c in fake.calls)  # nothing started

    app.type(field(app, "ジャッジ名"), "  鈴木  一郎 ")
    app.click(host)
    eventually(app, lambda: app.has_text(CODE))
    assert fake.calls[0] == "set_judge 鈴木 一郎"
    assert fake.calls[1].startswith("host ")
    assert app.has_text(HOST) and app.has_text("http://[::1]:8765")
    assert app.has_text("参加している端末：0 台")
    assert app.has_text("まだ参加している端末はありません。")
    assert fake.background == 1 and len(fake.subscribers) == 1  # hosting: followed

    # A judge joins: the host's list shows them without a tap (news from the sync thread).
    fake.devices = (DeviceSeen("aaaabbbb-cccc", "佐藤", datetime.now(UTC) - timedelta(seconds=12)),)
    fake.emit()
    eventually(app, lambda: app.has_text("参加している端末：1 台"))
    assert app.has_text(re.compile(r"^ジャッジ 佐藤・端末 aaaabbbb・1[2-9] 秒前$"))
    assert app.crashes == []

    # The log's header says it at a glance.
    app.route(routes.LOG.link())
    assert app.has_text("共有：ホスト中（1 台が参加）")


def test_a_new_code_and_end_hosting_are_confirmed_first(apps, fakes, data_dir: Path) -> None:
    app = apps()
    open_sync(app)
    app.type(field(app, "ジャッジ名"), "鈴木")
    app.click(app.find(ft.FilledTonalButton, text=re.compile("をホストする$")))
    eventually(app, lambda: app.has_text(CODE))
    fake = fake_of(fakes, data_dir)

    app.click(app.find(ft.OutlinedButton, text="新しい参加コードにする"))
    assert app.has_text("新しい参加コードにしますか？")
    app.click(app.find(ft.TextButton, text="キャンセル"))
    assert "new_code" not in fake.calls and app.has_text(CODE)
    app.click(app.find(ft.OutlinedButton, text="新しい参加コードにする"))
    app.click(app.find(ft.FilledButton, text="新しい参加コードにする"))
    eventually(app, lambda: app.has_text("WXYZ-2345-6789"))
    assert not app.has_text(CODE)

    app.click(app.find(ft.OutlinedButton, text="ホストを終了する"))
    app.click(app.find(ft.FilledButton, text="ホストを終了する"))
    eventually(app, lambda: app.has_text("ホストに参加する"))
    assert "stop_hosting" in fake.calls
    assert fake.subscribers == []  # no news followed any more
    app.route(routes.LOG.link())
    assert app.exists(ft.TextButton, text="ジャッジ間の共有")


# -- joining ---------------------------------------------------------------------------------------


def test_join_needs_address_and_code_and_a_refused_code_is_one_line(
    apps, fakes, data_dir: Path
) -> None:
    app = apps()
    open_sync(app)
    join = app.find(ft.FilledButton, text="参加する")
    app.click(join)
    assert field(app, "ホストのアドレス").error == "入力してください。"
    assert field(app, "参加コード").error == "入力してください。"
    fake = fake_of(fakes, data_dir)
    assert fake.calls == []

    app.type(field(app, "ジャッジ名"), "田中")
    app.type(field(app, "ホストのアドレス"), HOST)
    app.type(field(app, "参加コード"), "AAAA-BBBB-CCCC")
    app.click(join)
    eventually(app, lambda: app.has_text("できませんでした：参加コードが違います。"))
    assert fake.role == "off" and app.has_text("ホストに参加する")
    assert field(app, "参加コード").value == "AAAA-BBBB-CCCC"  # kept, to correct it


def test_join_with_the_offline_records_moved_into_the_shared_event(
    apps, fakes, data_dir: Path, regulation: Regulation
) -> None:
    seed(regulation, data_dir, "山田 太郎", "高橋 健")
    app = apps()
    open_sync(app)
    app.type(field(app, "ジャッジ名"), "田中")
    app.type(field(app, "ホストのアドレス"), HOST)
    app.type(field(app, "参加コード"), CODE.lower())
    move = app.find(ft.Checkbox)
    assert move.label.endswith("の記録（2 件）を共有の大会に移す")
    app.click(move)
    assert move.value is True
    app.click(app.find(ft.FilledButton, text="参加する"))
    eventually(app, lambda: app.has_text(f"参加中：「{SHARED_EVENT}」"))
    fake = fake_of(fakes, data_dir)
    assert any(c.startswith("move ") for c in fake.calls)
    assert fake.background == 1 and len(fake.subscribers) == 1
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        shared = store.current_event()
        assert shared.name == SHARED_EVENT  # the shared event is where records go now
        assert {r.player.name for r in store.records(shared.id)} == {"山田 太郎", "高橋 健"}

    app.route(routes.LOG.link())
    assert app.has_text(re.compile(r"^共有：127\.0\.0\.1:8765 のホストに参加中・最終同期 \d 秒前$"))


# -- joined ----------------------------------------------------------------------------------------


def joined_app(apps, fakes, data_dir: Path) -> tuple[FakeApp, FakeSync]:
    app = apps()
    open_sync(app)
    app.type(field(app, "ジャッジ名"), "田中")
    app.type(field(app, "ホストのアドレス"), HOST)
    app.type(field(app, "参加コード"), CODE)
    app.click(app.find(ft.FilledButton, text="参加する"))
    eventually(app, lambda: app.has_text(f"参加中：「{SHARED_EVENT}」"))
    return app, fake_of(fakes, data_dir)


def test_offline_and_a_replaced_code_are_said_and_the_judge_joins_again(
    apps, fakes, data_dir: Path
) -> None:
    app, fake = joined_app(apps, fakes, data_dir)
    fake.reachable = False
    fake.waiting = 2
    app.click(app.find(ft.FilledButton, text="今すぐ同期"))
    eventually(app, lambda: app.has_text(UNREACHABLE))  # in the judge's language
    eventually(app, lambda: not app.has_text("接続しています…"))
    assert not app.has_text(re.compile("^できませんでした"))  # said once: the problem's line
    assert not app.has_text(re.compile("cannot reach"))  # not the engine's English
    assert app.has_text("未送信の記録：2 件")
    app.route(routes.LOG.link())
    assert app.has_text(f"共有：オフライン・未送信 2 件\n{UNREACHABLE}")

    # The head judge issued a new code: the one line says so, and joining again is offered.
    fake.reachable, fake.problem = True, "the join code was replaced: ask the head judge"
    fake.problem_code = "old_code"
    fake.emit()
    eventually(app, lambda: app.has_text(re.compile("参加コードが新しくなりました。")))
    app.route(routes.LOG_SYNC.link())
    assert app.has_text(REJOIN)
    assert field(app, "ホストのアドレス").value == HOST  # typed once: kept
    fake.accepted_code = "WXYZ-2345-6789"
    app.type(field(app, "参加コード"), "wxyz 2345 6789")
    app.click(app.find(ft.FilledTonalButton, text="参加する"))
    eventually(app, lambda: not app.has_text(REJOIN))
    assert fake.problem is None


def test_leave_is_confirmed_and_says_what_waits(apps, fakes, data_dir: Path) -> None:
    app, fake = joined_app(apps, fakes, data_dir)
    fake.waiting = 3
    fake.emit()
    eventually(app, lambda: app.has_text("未送信の記録：3 件"))
    app.click(app.find(ft.OutlinedButton, text="共有をやめる"))
    assert app.has_text(re.compile(r"未送信の記録（3 件）はホストに届きません"))
    app.click(app.find(ft.FilledButton, text="共有をやめる"))
    eventually(app, lambda: app.has_text("ホストに参加する"))
    assert "leave" in fake.calls and fake.subscribers == []


# -- background sync -------------------------------------------------------------------------------


def test_records_pulled_from_another_judge_appear_in_the_open_log_without_a_tap(
    apps, fakes, data_dir: Path, regulation: Regulation
) -> None:
    app, fake = joined_app(apps, fakes, data_dir)
    app.route(routes.LOG.link())
    assert app.has_text(re.compile("この大会の記録はまだありません"))
    assert fake.event_id is not None
    tier = regulation.infraction(DREW).penalty.id
    fake.pull(other_judges_record(fake.event_id, "山田 太郎", DREW, tier))
    eventually(app, lambda: app.has_text("山田 太郎"))
    assert app.crashes == []


def test_a_form_being_typed_is_not_redrawn_by_news(apps, fakes, data_dir, regulation) -> None:
    app, fake = joined_app(apps, fakes, data_dir)
    app.route(routes.INFRACTION.link(DREW))
    app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
    app.type(app.find(ft.TextField, label="プレイヤー名"), "小林")
    assert fake.event_id is not None
    tier = regulation.infraction(DREW).penalty.id
    fake.pull(other_judges_record(fake.event_id, "山田 太郎", DREW, tier))
    app.settle()
    assert app.find(ft.TextField, label="プレイヤー名").value == "小林"
    saves = fake.saves
    app.click(app.find(ft.FilledButton, text="保存"))
    assert fake.saves == saves + 1  # a save of a shared log is sent at once
    app.route(routes.LOG.link())
    assert app.has_text("山田 太郎") and app.has_text("小林")


def test_a_shared_log_is_followed_from_the_start_and_an_unshared_one_runs_nothing(
    apps, fakes, data_dir: Path, regulation: Regulation
) -> None:
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        fake = fakes.setdefault(str(store.path), FakeSync(store))
        app = apps()
        eventually(app, lambda: app.page.data.logbook.sync.last is not None)
        assert fake.background == 0 and fake.subscribers == []  # sharing off: nothing runs
        link = app.page.data.logbook.sync
        assert link._ticker is None
        app.route(routes.INFRACTION.link(DREW))
        app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
        app.type(app.find(ft.TextField, label="プレイヤー名"), "小林")
        app.click(app.find(ft.FilledButton, text="保存"))
        assert fake.saves == 0

        fake.role, fake.host_url = "joined", HOST
        fake.event_id = store.current_event().id
        fake.last_synced_at = datetime.now(UTC)
        second = apps()
        eventually(second, lambda: len(fake.subscribers) == 1)
        assert fake.background == 1
        assert second.page.data.logbook.sync._ticker is not None  # "N s ago" is kept true


# -- both languages, the settings, the parts -------------------------------------------------


def test_the_sync_screen_in_english(apps, fakes, data_dir: Path) -> None:
    app = apps(locale="en-US", prefs={"language": "en"})
    app.route(routes.LOG.link())
    app.click(app.find(ft.TextButton, text="Judges' sync"))
    for text in ("Join a host", "Host this tournament", "Judge name"):
        assert app.has_text(text) or app.exists(ft.TextField, label=text), text
    app.type(field(app, "Judge name"), "Sato")
    app.click(app.find(ft.FilledTonalButton, text=re.compile("^Host ")))
    eventually(app, lambda: app.has_text(CODE))
    assert app.has_text("Devices joined: 0")
    app.route(routes.LOG.link())
    assert app.has_text("Sharing: hosting, devices joined: 0")


def test_why_a_sync_did_not_happen_is_said_in_english_and_an_unknown_reason_as_sent(
    apps, fakes, data_dir: Path
) -> None:
    app = apps(locale="en-US", prefs={"language": "en"})
    app.route(routes.LOG_SYNC.link())
    app.type(field(app, "Judge name"), "Sato")
    app.type(field(app, "Host address"), HOST)
    app.type(field(app, "Join code"), "AAAA-BBBB-CCCC")
    app.click(app.find(ft.FilledButton, text="Join"))
    eventually(app, lambda: app.has_text(re.compile("Wrong join code")))
    fake = fake_of(fakes, data_dir)
    app.type(field(app, "Join code"), CODE)
    app.click(app.find(ft.FilledButton, text="Join"))
    eventually(app, lambda: fake.role == "joined" and app.has_text(re.compile("^Joined")))
    fake.reachable = False
    app.click(app.find(ft.FilledButton, text="Sync now"))
    line = "Cannot reach the host at 127.0.0.1:8765. Check that this device is on the same"
    eventually(app, lambda: app.has_text(re.compile("^" + re.escape(line))))
    # A reason this version does not know (a newer host's) is shown as the engine sent it.
    fake.problem, fake.problem_code = "a reason from a newer host", "new_reason"
    fake.emit()
    eventually(app, lambda: app.has_text("a reason from a newer host"))


def test_the_judge_name_is_set_in_the_settings(apps, fakes, data_dir: Path) -> None:
    app = apps()
    app.route(routes.SETTINGS.link())
    judge = field(app, "ジャッジ名")
    app.click(app.find(ft.OutlinedButton, text="ジャッジ名を保存"))
    assert judge.error == "先にジャッジ名を入力してください。"
    app.type(judge, "佐藤")
    app.click(app.find(ft.OutlinedButton, text="ジャッジ名を保存"))
    assert fake_of(fakes, data_dir).judge == "佐藤"
    assert judge.error is None
    app.click(app.find(ft.ListTile, text="ジャッジ間の共有"))
    assert app.client_route == routes.LOG_SYNC.link()
    assert field(app, "ジャッジ名").value == "佐藤"  # asked once


def test_times_and_status_lines(apps, fakes, data_dir: Path) -> None:
    app = apps()
    ctx = app.page.data.context
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    assert ago(ctx, None, now) == "まだ同期していません"
    assert ago(ctx, now - timedelta(seconds=12.7), now) == "12 秒前"
    assert ago(ctx, now - timedelta(seconds=61), now) == "1 分前"
    assert ago(ctx, now - timedelta(hours=2, minutes=5), now) == "2 時間前"
    fake = FakeSync.__new__(FakeSync)
    FakeSync.__init__(fake, app.page.data.logbook.open())
    fake.role, fake.host_url, fake.waiting = "joined", HOST, 0
    fake.last_synced_at = now - timedelta(seconds=3)
    line = status_text(ctx, fake.status(), now)
    assert line == "共有：127.0.0.1:8765 のホストに参加中・最終同期 3 秒前"
    fake.waiting = 4
    assert status_text(ctx, fake.status(), now).endswith("・最終同期 3 秒前 · 未送信 4 件")
    fake.last_synced_at = now - timedelta(seconds=40)  # no good sync for a while: offline
    assert status_text(ctx, fake.status(), now) == "共有：オフライン・未送信 4 件"


# -- who recorded it (the real engine: records/sync) ------------------------------------------


def record_through_the_form(app: FakeApp, name: str) -> str:
    app.route(routes.INFRACTION.link(DREW))
    app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
    app.type(app.find(ft.TextField, label="プレイヤー名"), name)
    app.click(app.find(ft.FilledButton, text="保存"))
    prefix = routes.LOG_RECORD.link("x")[:-1]
    assert app.client_route.startswith(prefix), app.texts()
    return app.client_route[len(prefix) :]


def test_the_log_row_and_the_record_page_name_the_judge_and_the_device(
    apps, data_dir: Path, regulation: Regulation
) -> None:
    app = apps()
    app.route(routes.SETTINGS.link())
    app.type(field(app, "ジャッジ名"), "佐藤")
    app.click(app.find(ft.OutlinedButton, text="ジャッジ名を保存"))
    record_id = record_through_the_form(app, "山田 太郎")
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        by = store.record(record_id).recorded_by
    assert by is not None and by.judge == "佐藤" and by.device
    device = by.device.replace("-", "")[:8]
    assert app.has_text(f"記録したジャッジ：佐藤（端末 {device}）")
    app.route(routes.LOG.link())
    row = next(r for r in app.find_all(ft.ListTile) if "山田 太郎" in app.texts(r))
    assert any("ジャッジ 佐藤" in t for t in app.texts(row))


def test_a_record_made_before_a_judge_name_names_nobody(apps, data_dir: Path) -> None:
    app = apps()
    record_through_the_form(app, "山田 太郎")
    assert app.has_text(re.compile(r"^記録したジャッジ：（不明）（端末 \w{8}）$"))
    app.route(routes.LOG.link())
    row = next(r for r in app.find_all(ft.ListTile) if "山田 太郎" in app.texts(r))
    assert not any("ジャッジ" in t for t in app.texts(row))  # no "judge " with no name


def test_the_record_page_shows_earlier_versions_and_who_made_them(
    apps, data_dir: Path, regulation: Regulation
) -> None:
    app = apps()
    app.route(routes.SETTINGS.link())
    app.type(field(app, "ジャッジ名"), "佐藤")
    app.click(app.find(ft.OutlinedButton, text="ジャッジ名を保存"))
    record_id = record_through_the_form(app, "山田 太郎")
    assert not app.has_text("この記録の変更履歴")  # one version: no history to show
    app.route(routes.SETTINGS.link())
    app.type(field(app, "ジャッジ名"), "鈴木")
    app.click(app.find(ft.OutlinedButton, text="ジャッジ名を保存"))
    app.route(routes.LOG_EDIT.link(record_id))
    app.type(app.find(ft.TextField, label="卓"), "9")
    app.click(app.find(ft.FilledButton, text="保存"))
    app.route(routes.LOG_RECORD.link(record_id))
    assert app.has_text("この記録の変更履歴")
    lines = [t for t in app.texts() if re.search(r"・ジャッジ .+（端末 \w{8}）$", t)]
    assert len(lines) == 2 and "ジャッジ 鈴木" in lines[0] and "ジャッジ 佐藤" in lines[1]
    assert app.texts().count("現在の内容") == 1
    assert app.has_text(re.compile(r"9卓"))
    # Who first recorded it stays the recorder.
    assert app.has_text(re.compile(r"^記録したジャッジ：佐藤（端末 \w{8}）$"))


def test_the_repeat_notice_names_the_judge_of_each_earlier_record(
    apps, fakes, data_dir: Path, regulation: Regulation
) -> None:
    app, fake = joined_app(apps, fakes, data_dir)
    assert fake.event_id is not None
    tier = regulation.infraction(DREW).penalty.id
    fake.pull(other_judges_record(fake.event_id, "山田 太郎", DREW, tier, judge="佐藤"))
    app.route(routes.INFRACTION.link(DREW))
    app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
    app.type(app.find(ft.TextField, label="プレイヤー名"), "山田 太郎")
    assert app.has_text(re.compile(r"1回戦 · 7卓、ジャッジ 佐藤$"))
    app.click(app.find(ft.FilledButton, text="保存"))
    assert app.has_text(re.compile(r"1回戦 · 7卓、ジャッジ 佐藤$"))  # and on the saved record


def test_a_device_that_was_hosting_hosts_again_when_the_app_opens(
    apps, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The head judge's phone closed the app (or Android killed it): hosting goes on at the
    next start, with the same code, so that no judge has to join again."""
    monkeypatch.setenv(BIND_VARIABLE, "127.0.0.1")  # the tests' only network
    monkeypatch.setenv(PORT_VARIABLE, "0")
    app = apps()
    app.route(routes.LOG_SYNC.link())
    app.type(field(app, "ジャッジ名"), "本部")
    app.click(app.find(ft.FilledTonalButton, text=re.compile("をホストする$")))
    service = app.page.data.logbook.sync.service()
    eventually(app, lambda: service.status().role == "host")
    code = service.status().code
    assert code
    eventually(app, lambda: app.has_text(code))
    service.close()  # what the app's end does: the server stops, the saved state stays
    assert service.status().role == "off"

    again = apps()
    eventually(again, lambda: service.status().role == "host", timeout=10)
    assert service.status().code == code
    again.route(routes.LOG.link())
    assert again.has_text("共有：ホスト中（0 台が参加）")
    service.close()

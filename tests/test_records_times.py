"""The times a record may carry are bounded (issue 21, item 2): an import or an input outside
them is refused in one line; whatever is accepted can be shown in any time zone, edited and
deleted; and a time already stored outside them (a log from before the bound) no longer stops
a screen: it is shown as written, and a change says in one line that it cannot be made.

Before: `created_at` 9999-12-31T23:59:59.999999+00:00 was accepted, then /log showed "Error
running app: date value out of range" and an edit or a delete raised OverflowError."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import flet as ft
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from records_support import entry, synthetic_export

from records.errors import InvalidInput, LogError
from records.exchange import parse_export
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation

FAR_FUTURE = "9999-12-31T23:59:59.999999+00:00"
ZONES = [timezone(timedelta(hours=h, minutes=m)) for h, m in ((-12, 0), (0, 0), (9, 0), (14, 0))]

any_offset = st.timedeltas(
    min_value=-timedelta(hours=23, minutes=59), max_value=timedelta(hours=23, minutes=59)
).map(lambda d: timezone(timedelta(minutes=d // timedelta(minutes=1))))
any_time = st.datetimes(timezones=any_offset)


# One a test (a hypothesis test shares it between its examples); not one a module, which
# mutmut's statistics cannot build over a regulation made per test (conftest.py).
@pytest.fixture
def store(regulation: Regulation, tmp_path_factory: pytest.TempPathFactory):
    with LogStore.open(regulation, tmp_path_factory.mktemp("log") / DATABASE_NAME) as opened:
        yield opened


def export_with(created: str, updated: str) -> bytes:
    payload = synthetic_export(1, "時刻の大会")
    payload["records"][0]["created_at"] = created
    payload["records"][0]["updated_at"] = updated
    return json.dumps(payload, ensure_ascii=False).encode()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moment=any_time)
@example(moment=datetime.fromisoformat(FAR_FUTURE))  # the issue's
@example(moment=datetime(9999, 12, 31, 12, tzinfo=timezone(-timedelta(hours=23, minutes=59))))
@example(moment=datetime(1, 1, 1, 12, tzinfo=timezone(timedelta(hours=14))))
def test_any_time_is_refused_in_one_line_or_usable_everywhere(
    store: LogStore, regulation: Regulation, moment: datetime
) -> None:
    written = moment.isoformat(timespec="microseconds")
    before = [(e.id, store.records(e.id, include_deleted=True)) for e in store.events()]
    try:
        imported = parse_export(export_with(written, written), regulation, "t.json")
    except LogError as refused:
        assert "\n" not in str(refused) and "t.json: records[0].created_at" in str(refused)
        assert [(e.id, store.records(e.id, include_deleted=True)) for e in store.events()] == before
        return
    # Accepted: every screen can show it in any zone, and it can be edited and deleted.
    for zone in ZONES:
        moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")
    report = store.merge(imported)
    (record,) = [r for r in store.records(report.event.id) if r.id == imported.records[0].id]
    edited = store.edit_record(record.id, entry("山田太郎"))
    assert edited.updated_at > record.updated_at
    assert store.delete_record(record.id).deleted


@pytest.mark.parametrize(
    "written",
    [
        FAR_FUTURE,
        "9999-12-31T23:59:59-23:59",
        "0001-01-01T00:00:00+23:59",
        "2026-12-01T10:00-15:00",
    ],
)
def test_the_issues_times_are_refused_in_one_line(regulation: Regulation, written: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_export(export_with(written, written), regulation, "t.json")
    assert refused.value.reason == "out_of_range" and "\n" not in str(refused.value)


def test_a_round_time_and_an_event_date_are_bounded_too(store: LogStore) -> None:
    event = store.create_event("境界の大会")
    far = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    with pytest.raises(InvalidInput, match=r"rounds\[0\]\.assembly_at"):
        store.set_round(event.id, 1, far)
    payload = synthetic_export(1, "日付の大会")
    payload["event"]["date"] = "9999-12-31"
    with pytest.raises(InvalidInput, match=r"event\.date"):
        parse_export(json.dumps(payload).encode(), store.regulation)


def a_log_from_before_the_bound(regulation: Regulation, data_dir: Path) -> str:
    """A log holding one record at 9999-12-31T23:59:59.999999 (offset -23:59), as an import
    could leave it before times were bounded."""
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as log:
        record = log.add_record(log.current_event().id, entry("未来太郎"))
    connection = sqlite3.connect(data_dir / DATABASE_NAME)
    far = "9999-12-31T23:59:59.999999-23:59"
    far_us = (datetime.fromisoformat(far) - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(
        microseconds=1
    )
    with connection:
        connection.execute(
            "UPDATE records SET created_at = ?, updated_at = ?, created_us = ?, updated_us = ?"
            " WHERE uuid = ?",
            (far, far, far_us, far_us, record.id),
        )
    connection.close()
    return record.id


def test_every_screen_survives_a_time_it_cannot_show(
    apps, regulation: Regulation, tmp_path: Path, monkeypatch
) -> None:
    from views import routes

    data_dir = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(data_dir))
    record_id = a_log_from_before_the_bound(regulation, data_dir)
    app = apps()  # the fixture fails the test if the app crashed
    app.route(routes.LOG.link())
    assert any("未来太郎" in text for text in app.texts()), app.texts()
    app.route(routes.LOG_RECORD.link(record_id))
    assert app.has_text("記録：9999-12-31 23:59 UTC-2359")  # as written, with its offset
    app.click(app.find(ft.OutlinedButton, text="削除"))
    app.click(app.find(ft.FilledButton, text="削除"))
    assert any("is out of range: it cannot be changed" in text for text in app.texts())


def test_an_edit_or_delete_of_such_a_record_is_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    record_id = a_log_from_before_the_bound(regulation, tmp_path)
    with LogStore.open(regulation, tmp_path / DATABASE_NAME) as log:
        for change in (
            lambda: log.edit_record(record_id, entry("未来太郎")),
            lambda: log.delete_record(record_id),
        ):
            with pytest.raises(LogError) as refused:
                change()
            assert "out of range" in str(refused.value) and "\n" not in str(refused.value)

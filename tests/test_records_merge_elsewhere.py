"""An imported record whose UUID already lives in another event of this log (issue 21, item 10):
the merge says so, apart from "updated" and "unchanged", and leaves the record in its own event
(a merge never moves a record between events), its versions merged there by the usual rule.
The old code reported it as "updated 1" in the target event while it stayed in the other."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_support import entry, open_store

from records.exchange import export_json, json_bytes, parse_export
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path) as opened:
        yield opened


def export_as_another_event(
    store: LogStore, event_id: str, name: str, later: timedelta
) -> dict[str, Any]:
    """The event's export, as if another device had its records in an event `name` of its
    own (another UUID), each edited `later` after this device's version."""
    payload = export_json(*store.export_records(event_id))
    payload["event"] = {**payload["event"], "id": str(uuid.uuid4()), "name": name}
    for record in payload["records"]:
        record["event"] = name
        record["note"] = f"edited elsewhere {later}"
        moved = store.record(record["id"])
        assert moved is not None
        record["updated_at"] = (moved.updated_at + later).isoformat(timespec="microseconds")
    return payload


def merge(store: LogStore, payload: dict[str, Any]):
    data = json.dumps(payload, ensure_ascii=False).encode()
    return store.merge(parse_export(data, store.regulation))


@pytest.mark.parametrize("later", [timedelta(minutes=5), timedelta(minutes=-5)], ids=str)
def test_a_record_of_another_event_is_reported_apart_and_stays_there(
    store: LogStore, later: timedelta
) -> None:
    day1 = store.create_event("1日目")
    saved = store.add_record(day1.id, entry("山田太郎", note="ここで書いた"))
    report = merge(store, export_as_another_event(store, day1.id, "2日目", later))
    assert (report.added, report.updated, report.unchanged) == (0, 0, 0)
    assert (report.elsewhere, report.elsewhere_events) == (1, ("1日目",))
    assert report.as_dict()["elsewhere"] == 1
    (kept,) = store.records(day1.id)
    assert kept.id == saved.id and kept.event_id == day1.id
    assert store.records(report.event.id) == ()  # nothing in 2日目
    expected = f"edited elsewhere {later}" if later > timedelta(0) else "ここで書いた"
    assert kept.note == expected  # the later version wins, where the record is


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    places=st.lists(st.sampled_from(["new", "here", "elsewhere"]), min_size=1, max_size=8),
    later=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_every_imported_record_is_counted_once_and_none_changes_event(
    regulation: Regulation,
    tmp_path_factory: pytest.TempPathFactory,
    places: list[str],
    later: list[bool],
) -> None:
    with open_store(regulation, tmp_path_factory.mktemp("log")) as store:
        here, other = store.create_event("ここ"), store.create_event("よそ")
        records = [
            store.add_record((other if place == "elsewhere" else here).id, entry(f"P{index}"))
            for index, place in enumerate(places)
        ]
        payload = export_json(*store.export_records(here.id))
        payload["records"] = []
        for record, place, newer in zip(records, places, later, strict=False):
            event = store.event(record.event_id)
            assert event is not None
            row = export_json(event, (record,))["records"][0]
            if place == "new":
                row["id"] = str(uuid.uuid4())
            shift = timedelta(seconds=1 if newer else -1)
            row["updated_at"] = (record.updated_at + shift).isoformat(timespec="microseconds")
            row["note"] = "changed"
            row["event"] = here.name
            payload["records"].append(row)
        before = {r.id: r.event_id for e in (here, other) for r in store.records(e.id)}
        report = merge(store, payload)
        counted = report.added + report.updated + report.unchanged + report.elsewhere
        assert counted == len(places)
        assert report.elsewhere == places.count("elsewhere")
        assert report.added == places.count("new")
        after = {r.id: r.event_id for e in (here, other) for r in store.records(e.id)}
        assert {k: after[k] for k in before} == before  # nobody moved


def test_the_command_line_says_what_really_happened(
    regulation: Regulation, tmp_path: Path, monkeypatch, capsys
) -> None:
    import main as entry_point

    data_dir = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(data_dir))
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        day1 = store.create_event("1日目")
        store.add_record(day1.id, entry("山田太郎"))
        payload = export_as_another_event(store, day1.id, "2日目", timedelta(minutes=1))
    file = tmp_path / "other.json"
    file.write_bytes(json_bytes(payload))
    assert entry_point.main(["log", "import", str(file)]) == 0
    said = capsys.readouterr().out
    assert "added 0, updated 0, unchanged 0; 1 more already belong to another event here" in said
    assert "('1日目'): merged there, not moved" in said


def test_the_app_says_what_really_happened(
    apps, regulation: Regulation, tmp_path: Path, monkeypatch
) -> None:
    from views import routes

    data_dir = tmp_path / "data"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(data_dir))
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        day1 = store.create_event("1日目")
        store.add_record(day1.id, entry("山田太郎"))
        payload = export_as_another_event(store, day1.id, "2日目", timedelta(minutes=1))
    app = apps()
    app.route(routes.LOG_EXCHANGE.link())
    pasted = json.dumps(payload, ensure_ascii=False)
    app.type(app.find(ft.TextField, label="書き出した JSON を貼り付け"), pasted)
    app.click(app.find(ft.OutlinedButton, text="貼り付けた JSON を読み込む"))
    assert app.has_text(
        "「2日目」に読み込みました：追加 0 件、更新 0 件、変更なし 0 件 "
        "ほかの 1 件は、この端末では別の大会（1日目）の記録のため、そちらで照合し、移していません"
    ), app.texts()

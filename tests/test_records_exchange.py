"""Exports and merges: CSV for a Japanese spreadsheet, JSON between devices, and the refusal of
anything that is not a valid export — with nothing changed."""

from __future__ import annotations

import copy
import csv
import io
import json
import sqlite3
import tempfile
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_support import JST, Clock, entry, open_store

from records import exchange, export_file, identity
from records.csv_export import CSV_COLUMNS, export_csv
from records.errors import InvalidInput, LogError
from records.exchange import (
    FORMAT,
    FORMAT_VERSION,
    export_json,
    json_bytes,
    parse_export,
    read_export,
)
from records.model import Player, Record, RecordInput, Round
from records.store import LogStore
from regulation.model import Regulation

AWKWARD_NAMES = [
    '山田, "太郎"',
    "佐藤\n花子",
    'O\'Brien, "Pat"\r\nJr.',
    "ｶﾀｶﾅ　全角スペース",
    "=SUM(A1:A2)",
    "絵文字🎴と𠮷",
]


@pytest.fixture
def device_a(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path / "a", Clock()) as store:
        yield store


@pytest.fixture
def device_b(regulation: Regulation, tmp_path: Path):
    # B's clock runs an hour behind A's and in another UTC offset: times compare as instants.
    clock = Clock(datetime(2026, 11, 28, 0, 0, tzinfo=UTC))  # 09:00 JST
    with open_store(regulation, tmp_path / "b", clock) as store:
        yield store


def json_export(store: LogStore, event_id: str) -> dict[str, Any]:
    return export_json(*store.export_records(event_id), store.export_versions(event_id))


def merge(store: LogStore, payload: dict[str, Any]):
    return store.merge(parse_export(json_bytes(payload), store.regulation))


def everything(store: LogStore) -> list[tuple[str, list[Record]]]:
    return [
        (e.name, list(store.records(e.id, include_deleted=True, newest_first=False)))
        for e in store.events()
    ]


# -- JSON ----------------------------------------------------------------------------------------


def test_json_export_is_versioned_and_holds_tombstones(device_a: LogStore) -> None:
    event = device_a.current_event()
    device_a.set_round(event.id, 1, datetime(2026, 11, 28, 13, 0, tzinfo=JST))
    kept = device_a.add_record(event.id, entry("山田", player_id="7", table="3", note="n"))
    gone = device_a.add_record(event.id, entry("鈴木"))
    device_a.delete_record(gone.id)
    payload = json.loads(json_bytes(json_export(device_a, event.id)))
    assert payload["format"] == FORMAT and payload["version"] == FORMAT_VERSION
    assert [v["kind"] for v in payload["event"].pop("versions")] == ["event"]  # set_round
    assert payload["event"] == {
        "id": event.id,
        "name": event.name,
        "date": event.date.isoformat(),  # type: ignore[union-attr]
        "rounds": [{"number": 1, "assembly_at": "2026-11-28T13:00:00.000000+09:00"}],
    }
    first, second = payload["records"]
    assert set(first) == {
        "id",
        "event",
        "created_at",
        "updated_at",
        "round",
        "table",
        "player",
        "infraction",
        "tier",
        "note",
        "recorded_by",
        "arrived_at",  # the evidence, since version 2
        "late_seconds",
        "occurrence",
        "deleted",
        "versions",
    }
    assert first["id"] == kept.id and first["deleted"] is False
    assert first["recorded_by"] == {"judge": "", "device": device_a.ledger().device_id}
    assert [v["body"]["deleted"] for v in second["versions"]] == [False, True]
    assert first["player"] == {"name": "山田", "id": "7"}
    assert datetime.fromisoformat(first["created_at"]) == kept.created_at
    assert first["created_at"].endswith("+09:00")
    assert second["id"] == gone.id and second["deleted"] is True


def test_json_round_trip_keeps_every_field_and_awkward_names(
    device_a: LogStore, device_b: LogStore
) -> None:
    event = device_a.current_event()
    for number, name in enumerate(AWKWARD_NAMES, 1):
        device_a.add_record(
            event.id,
            entry(
                name,
                player_id=f"ID,{number}",
                round_number=number,
                table=f'"{number}"',
                note=f'{name}\nメモ, "引用"',
            ),
        )
    device_a.delete_record(device_a.records(event.id)[0].id)
    report = merge(device_b, json_export(device_a, event.id))
    assert (report.added, report.updated, report.unchanged) == (len(AWKWARD_NAMES), 0, 0)
    assert report.event_created and report.event.id == event.id
    assert everything(device_b) == everything(device_a)


def test_the_evidence_goes_through_json_and_csv_and_version_1_is_still_read(
    device_a: LogStore, device_b: LogStore, regulation: Regulation
) -> None:
    """Arrival time, seconds late and the repeat count when recorded (issue 20, item 5)."""
    event = device_a.current_event()
    arrived = datetime(2026, 11, 28, 13, 8, 26, tzinfo=JST)
    late = RecordInput(
        Player("遅刻 太郎"), "not-seated-5-minutes", arrived_at=arrived, late_seconds=506
    )
    first = device_a.add_record(event.id, late)
    again = device_a.add_record(event.id, late)
    assert (first.occurrence, again.occurrence) == (1, 2)
    assert device_a.record(again.id) == again  # kept on disk as it was said
    payload = json_export(device_a, event.id)
    exported = payload["records"][-1]
    assert (exported["arrived_at"], exported["late_seconds"], exported["occurrence"]) == (
        arrived.isoformat(timespec="microseconds"),
        506,
        2,
    )
    rows = csv_rows(export_csv(*device_a.export_records(event.id), regulation))
    assert [(r["late_minutes"], r["late_seconds"], r["occurrence"]) for r in rows] == [
        ("8", "26", "1"),
        ("8", "26", "2"),
    ]
    assert rows[0]["arrived_at"] == arrived.isoformat(timespec="microseconds")
    merge(device_b, payload)
    assert everything(device_b) == everything(device_a)
    # A version 1 export (no evidence) is read as it always was.
    old = copy.deepcopy(payload)
    old["version"] = 1
    old["event"]["name"] = "第1版"
    old["event"]["id"] = "8f9c2b1e-0000-4000-8000-000000000001"
    old["event"].pop("versions", None)
    for number, item in enumerate(old["records"]):
        for key in ("arrived_at", "late_seconds", "occurrence", "recorded_by", "versions"):
            item.pop(key, None)
        item["event"] = "第1版"
        item["id"] = f"8f9c2b1e-0000-4000-8000-00000000001{number}"
    report = merge(device_b, old)
    assert report.added == 2
    read = device_b.records(report.event.id, newest_first=False)
    assert [(r.arrived_at, r.late_seconds, r.occurrence) for r in read] == [(None, None, None)] * 2
    bad = copy.deepcopy(payload)
    bad["records"][0]["late_seconds"] = -1
    with pytest.raises(InvalidInput, match=r"records\[0\]\.late_seconds"):
        parse_export(json_bytes(bad), regulation)


# The regulation is only read; it is built per test under mutmut's statistics (conftest.py).
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
        | st.sampled_from(",\"\n'　、「」"),
        min_size=1,
        max_size=30,
        # a name of only invisible characters (U+00AD…) is refused on input (test_records_invisible)
    ).filter(lambda name: identity.visible(name).strip())
)
def test_any_name_survives_json_and_csv(regulation: Regulation, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        a = open_store(regulation, Path(folder) / "a")
        b = open_store(regulation, Path(folder) / "b")
        try:
            event = a.current_event()
            saved = a.add_record(event.id, entry(name, note=name))
            merge(b, json_export(a, event.id))
            (copied,) = b.records(event.id)
            assert copied == saved
            rows = csv_rows(export_csv(*a.export_records(event.id), regulation))
            assert strip_guard(rows[0]["player_name"]) == saved.player.name
            assert strip_guard(rows[0]["note"]) == saved.note
        finally:
            a.close()
            b.close()


# -- CSV -----------------------------------------------------------------------------------------


def csv_rows(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # BOM: a Japanese spreadsheet reads UTF-8
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def strip_guard(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@") else cell


def test_csv_has_one_row_per_live_record_with_ids_and_titles(
    device_a: LogStore, regulation: Regulation
) -> None:
    event = device_a.current_event()
    saved = [
        device_a.add_record(event.id, entry(name, round_number=number, table=str(number)))
        for number, name in enumerate(AWKWARD_NAMES, 1)
    ]
    upgraded = device_a.add_record(event.id, entry("鈴木", tier="duel-forfeiture", note='a,b\n"c"'))
    gone = device_a.add_record(event.id, entry("消す"))
    device_a.delete_record(gone.id)
    data = export_csv(*device_a.export_records(event.id), regulation)
    assert data.decode("utf-8-sig").splitlines()[0] == ",".join(CSV_COLUMNS)
    rows = csv_rows(data)
    assert [strip_guard(r["player_name"]) for r in rows] == [
        *(r.player.name for r in saved),
        "鈴木",
    ]
    assert rows[0]["infraction_id"] == "drew-extra-cards"
    assert rows[0]["infraction_ja"] == "故意ではなく、過剰にカードを引いた"
    assert (rows[0]["tier_id"], rows[0]["tier_ja"], rows[0]["tier_en"]) == (
        "warning",
        "警告",
        "Warning",
    )
    last = rows[-1]
    assert (last["record_id"], last["tier_id"], last["tier_ja"]) == (
        upgraded.id,
        "duel-forfeiture",
        "デュエルの敗北",
    )
    assert last["note"] == 'a,b\n"c"'
    assert (rows[2]["round"], rows[2]["table"]) == ("3", "3")
    assert all(r["event"] == event.name for r in rows)


def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_defused(
    device_a: LogStore, regulation: Regulation
) -> None:
    event = device_a.current_event()
    device_a.add_record(event.id, entry('=HYPERLINK("x")', note="+1", table="@a"))
    (row,) = csv_rows(export_csv(*device_a.export_records(event.id), regulation))
    assert (row["player_name"], row["note"], row["table"]) == ('\'=HYPERLINK("x")', "'+1", "'@a")


# -- merging -------------------------------------------------------------------------------------


def test_importing_the_same_export_twice_adds_nothing(
    device_a: LogStore, device_b: LogStore
) -> None:
    event = device_a.current_event()
    for name in ("山田", "鈴木", "佐藤"):
        device_a.add_record(event.id, entry(name))
    payload = json_export(device_a, event.id)
    first = merge(device_b, payload)
    second = merge(device_b, payload)
    assert first.as_dict() == {"added": 3, "updated": 0, "unchanged": 0}
    assert second.as_dict() == {"added": 0, "updated": 0, "unchanged": 3}
    assert not second.event_created
    assert len(device_b.records(event.id)) == 3
    # And back: A already has every record.
    assert merge(device_a, json_export(device_b, event.id)).as_dict() == {
        "added": 0,
        "updated": 0,
        "unchanged": 3,
    }


def test_the_later_edit_wins_whichever_way_the_merge_goes(
    device_a: LogStore, device_b: LogStore
) -> None:
    event = device_a.current_event()
    record = device_a.add_record(event.id, entry("山田", note="最初"))
    merge(device_b, json_export(device_a, event.id))
    edited = device_a.edit_record(record.id, entry("山田", tier="duel-forfeiture", note="格上げ"))
    older_copy = json_export(device_b, event.id)
    assert merge(device_a, older_copy).as_dict() == {"added": 0, "updated": 0, "unchanged": 1}
    assert device_a.record(record.id) == edited
    assert merge(device_b, json_export(device_a, event.id)).as_dict() == {
        "added": 0,
        "updated": 1,
        "unchanged": 0,
    }
    assert device_b.record(record.id) == edited


def test_a_deleted_record_never_comes_back_from_an_older_copy(
    device_a: LogStore, device_b: LogStore
) -> None:
    event = device_a.current_event()
    record = device_a.add_record(event.id, entry("山田"))
    merge(device_b, json_export(device_a, event.id))
    stale_live_copy = json_export(device_b, event.id)
    device_a.delete_record(record.id)
    assert merge(device_a, stale_live_copy).as_dict()["unchanged"] == 1
    assert device_a.records(event.id) == ()
    assert merge(device_b, json_export(device_a, event.id)).as_dict()["updated"] == 1
    assert device_b.records(event.id) == ()
    assert device_b.record(record.id).deleted  # type: ignore[union-attr]


def test_a_tombstone_from_a_device_that_never_had_the_record_is_kept(
    device_a: LogStore, device_b: LogStore
) -> None:
    event = device_a.current_event()
    record = device_a.add_record(event.id, entry("山田"))
    live = json_export(device_a, event.id)
    device_a.delete_record(record.id)
    merge(device_b, json_export(device_a, event.id))  # B learns of it as deleted
    assert merge(device_b, live).as_dict()["unchanged"] == 1  # the live copy is older
    assert device_b.records(event.id) == ()


def test_two_edits_at_the_same_instant_converge_on_both_devices(
    regulation: Regulation, tmp_path: Path
) -> None:
    start = datetime(2026, 11, 28, 10, 0, tzinfo=JST)
    with (
        open_store(regulation, tmp_path / "a", Clock(start)) as a,
        open_store(regulation, tmp_path / "b", Clock(start)) as b,
    ):
        event = a.current_event()
        record = a.add_record(event.id, entry("山田", note="first"))
        merge(b, json_export(a, event.id))
        a.clock = b.clock = Clock(start + timedelta(minutes=5), step=timedelta(0))
        a.edit_record(record.id, entry("山田", note="A"))  # apart, at the very same instant
        b.edit_record(record.id, entry("山田", note="B"))
        from_a, from_b = json_export(a, event.id), json_export(b, event.id)
        merge(a, from_b)
        merge(b, from_a)
        assert a.record(record.id) == b.record(record.id)
        # Every version kept on both; the one chosen is the larger device id's.
        assert a.record_versions(record.id) == b.record_versions(record.id)
        winner = max((a, "A"), (b, "B"), key=lambda pair: pair[0].ledger().device_id)[1]
        assert a.record(record.id).note == winner  # type: ignore[union-attr]
        assert len(a.record_versions(record.id)) == 3


def test_devices_that_each_started_the_days_event_merge_into_one(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path / "a") as a, open_store(regulation, tmp_path / "b") as b:
        event_a, event_b = a.current_event(), b.current_event()
        assert event_a.name == event_b.name and event_a.id != event_b.id
        a.set_rounds(event_a.id, [Round(1, datetime(2026, 11, 28, 13, 0, tzinfo=JST)), Round(2)])
        b.set_rounds(event_b.id, [Round(2, datetime(2026, 11, 28, 14, 0, tzinfo=JST))])
        a.add_record(event_a.id, entry("山田"))
        report = merge(b, json_export(a, event_a.id))
        assert report.event.id == event_b.id and not report.event_created
        assert [r.player.name for r in b.records(event_b.id)] == ["山田"]
        assert report.event.rounds == (
            Round(1, datetime(2026, 11, 28, 13, 0, tzinfo=JST)),
            Round(2, datetime(2026, 11, 28, 14, 0, tzinfo=JST)),  # B's own time kept
        )
        assert b.recent_players("山")[0] == Player("山田")


def test_an_unknown_event_is_created_with_its_date(device_a: LogStore, device_b: LogStore) -> None:
    event = device_a.create_event("地区予選", date(2026, 12, 5))
    device_a.add_record(event.id, entry("山田"))
    report = merge(device_b, json_export(device_a, event.id))
    assert report.event_created
    assert device_b.event(event.id) == event


# -- refusals ------------------------------------------------------------------------------------


def valid_payload(store: LogStore) -> dict[str, Any]:
    event = store.current_event()
    store.add_record(event.id, entry("山田"))
    store.add_record(event.id, entry("鈴木"))
    return json_export(store, event.id)


def _set(path: str, value: Any) -> Any:
    def change(payload: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = payload
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is KeyError:
            del node[last]
        else:
            node[int(last) if isinstance(node, list) else last] = value

    return change


def _duplicate_ids(payload: dict[str, Any]) -> None:
    payload["records"][1]["id"] = payload["records"][0]["id"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_set("format", "something-else"), "not a penalty log export"),
        (_set("format", KeyError), "not a penalty log export"),
        (_set("version", FORMAT_VERSION + 1), "newer version of the app"),
        (_set("version", "1"), "version"),
        (_set("event", KeyError), "event: missing"),
        (_set("event.id", "not-a-uuid"), "event.id: not a UUID"),
        (_set("event.name", ""), "event.name: required"),
        (_set("event.date", "28/11/2026"), "event.date"),
        (_set("event.rounds", [{"number": 0}]), "event.rounds[0].number"),
        (_set("records", {}), "records: missing or not a list"),
        (_set("records.1", "山田"), "records[1]: must be an object"),
        (_set("records.1.infraction", "made-up"), "records[1].infraction: unknown infraction"),
        (_set("records.1.tier", "red-card"), "records[1].tier: unknown tier"),
        (_set("records.1.created_at", "2026-11-28T10:00:00"), "records[1].created_at"),
        (_set("records.1.updated_at", "yesterday"), "records[1].updated_at"),
        (_set("records.1.round", "3"), "records[1].round"),
        (_set("records.1.note", KeyError), "records[1].note: missing"),
        (_set("records.1.player.name", " "), "records[1].player.name: required"),
        (_set("records.1.player", None), "records[1].player"),
        (_set("records.1.event", "別の大会"), "records[1].event"),
        (_set("records.1.deleted", "no"), "records[1].deleted"),
        (_duplicate_ids, "appears twice"),
    ],
)
def test_a_damaged_or_foreign_export_is_refused_in_one_line_and_changes_nothing(
    device_a: LogStore, device_b: LogStore, change: Any, expected: str
) -> None:
    payload = valid_payload(device_a)
    device_b.add_record(device_b.current_event().id, entry("既存"))
    before = everything(device_b)
    change(payload)
    with pytest.raises(InvalidInput) as caught:
        device_b.merge(parse_export(json_bytes(payload), device_b.regulation, "other.json"))
    message = str(caught.value)
    assert expected in message
    assert message.startswith("import refused: other.json: ")
    assert message.endswith("nothing was imported")
    assert "\n" not in message
    assert everything(device_b) == before


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "not JSON"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"[1, 2, 3]", "not a penalty log export"),
        (b"record_id,event\n1,2\n", "not JSON"),
        (b'{"format": "ocg-penalty-guide/penalty-log", "version": 1', "not JSON"),
    ],
)
def test_files_that_are_not_exports_are_refused(
    regulation: Regulation, data: bytes, expected: str
) -> None:
    with pytest.raises(InvalidInput, match=expected):
        parse_export(data, regulation)


def test_a_utf8_bom_from_an_editor_is_accepted(device_a: LogStore, device_b: LogStore) -> None:
    data = b"\xef\xbb\xbf" + json_bytes(valid_payload(device_a))
    assert len(parse_export(data, device_b.regulation).records) == 2


def test_missing_and_oversized_files_are_refused(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(LogError, match="cannot read the file"):
        read_export(tmp_path / "missing.json", regulation)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    monkeypatch.setattr(exchange, "MAX_IMPORT_BYTES", 1000)
    with pytest.raises(LogError, match="larger than 1000 bytes"):
        read_export(big, regulation)


def test_export_file_is_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    export_file.write_file(target, b"new content")
    assert target.read_bytes() == b"new content"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary left
    with pytest.raises(LogError, match="export not written"):
        export_file.write_file(tmp_path / "no-such-folder" / "out.json", b"x")


def test_times_keep_their_instant_through_an_export(device_a: LogStore) -> None:
    event = device_a.current_event()
    saved = device_a.add_record(event.id, entry("山田"))
    (copy,) = parse_export(json_bytes(json_export(device_a, event.id)), device_a.regulation).records
    assert copy.created_at == saved.created_at
    assert copy.created_at.utcoffset() == timedelta(hours=9)


def test_a_merge_failing_halfway_changes_nothing(
    device_a: LogStore, device_b: LogStore, tmp_path: Path
) -> None:
    """A fault in the database in the middle of an import (here a trigger refusing the third
    record) rolls the whole import back, and the store forgets the rows it had made."""
    event = device_a.current_event()
    for name in ("新人一", "新人二", "爆発"):
        device_a.add_record(event.id, entry(name, note=name))
    device_b.add_record(device_b.current_event().id, entry("既存"))
    before = everything(device_b)
    saboteur = sqlite3.connect(tmp_path / "b" / "penalty-log.sqlite3")
    saboteur.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.note = '爆発'"
        " BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END"
    )
    saboteur.commit()
    saboteur.close()
    with pytest.raises(LogError, match="nothing imported") as caught:
        merge(device_b, json_export(device_a, event.id))
    assert "\n" not in str(caught.value)
    assert everything(device_b) == before
    # The player rows the import had made were rolled back. Another program (a second window,
    # the command line) now makes new ones under the same row numbers: B must show those.
    with LogStore.open(device_b.regulation, device_b.path) as other:
        added = other.add_record(other.current_event().id, entry("鈴木"))
    assert device_b.record(added.id).player.name == "鈴木"  # type: ignore[union-attr]
    assert [r.player.name for r in device_b.records(added.event_id)] == ["鈴木", "既存"]

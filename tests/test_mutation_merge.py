"""The merge of versions from elsewhere (records/merge.py), at the edges mutation testing found
untested: an event whose settings arrive under a name another event here already has keeps its
own name with a number (never two events of one name), a record that arrives before its event's
settings waits in a placeholder event named by its UUID until they come, and the settings'
rounds replace the placeholder's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store

from records.errors import Unwritable
from records.exchange import event_export, export_json, json_bytes, parse_export
from records.merge import ImportedEvent, apply
from records.model import Round
from records.store import LogStore
from records.sync.hlc import stamp_of
from records.sync.items import EVENT, RECORD, ItemVersion, canonical
from regulation.model import Regulation

BASE = datetime(2026, 11, 28, 10, 0, tzinfo=JST)
DEVICE = "a1" * 8
EVENTS = [f"6f1d2a9c-0000-4000-8000-00000000003{n}" for n in range(3)]
RECORD_ID = "6f1d2a9c-0000-4000-8000-000000000040"


@pytest.fixture
def devices(regulation: Regulation, tmp_path: Path) -> Iterator[tuple[LogStore, LogStore]]:
    """Two devices' logs: another device's ("there"), whose exports are merged into this one's
    ("here")."""
    with (
        open_store(regulation, tmp_path / "there") as there,
        open_store(regulation, tmp_path / "here") as mine,
    ):
        yield there, mine


def event_version(event_id: str, name: str, rounds: int, tick: int = 0) -> ItemVersion:
    body = canonical(
        {
            "name": name,
            "date": "2026-11-28",
            "rounds": [
                {"number": n, "assembly_at": BASE.isoformat(timespec="microseconds")}
                for n in range(1, rounds + 1)
            ],
        }
    )
    stamp = stamp_of(BASE) + tick
    return ItemVersion(EVENT, event_id, event_id, stamp, DEVICE, "佐藤", BASE, body)


def record_version(event_id: str) -> ItemVersion:
    body = canonical(
        {
            "created_at": BASE.isoformat(timespec="microseconds"),
            "recorded_by": {"judge": "佐藤", "device": DEVICE},
            "round": 1,
            "table": "3",
            "player": {"name": "山田太郎", "id": None},
            "infraction": "drew-extra-cards",
            "tier": "warning",
            "note": "",
            "deleted": False,
        }
    )
    return ItemVersion(RECORD, RECORD_ID, event_id, stamp_of(BASE), DEVICE, "佐藤", BASE, body)


def deliver(store: LogStore, batch: list[ItemVersion]) -> None:
    with store._database.write() as db:  # what sync and import do, one page at a time
        apply(db, store._events, store._history, batch)


def test_events_of_one_name_from_elsewhere_are_numbered(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path) as store:
        here = store.create_event("県大会", None)
        deliver(store, [event_version(EVENTS[0], "県大会", 1)])
        deliver(store, [event_version(EVENTS[1], "県大会", 1)])
        names = {event.id: event.name for event in store.events()}
        assert names == {here.id: "県大会", EVENTS[0]: "県大会 (2)", EVENTS[1]: "県大会 (3)"}
        # an event keeps its name when its own settings come again: it is not taken by itself
        deliver(store, [event_version(EVENTS[0], "県大会 (2)", 2, tick=1)])
        event = store.event(EVENTS[0])
        assert event is not None
        assert (event.name, len(event.rounds)) == ("県大会 (2)", 2)


def test_a_record_before_its_events_settings_waits_in_a_placeholder(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path) as store:
        deliver(store, [record_version(EVENTS[2])])
        placeholder = store.event(EVENTS[2])
        assert placeholder is not None
        assert (placeholder.name, placeholder.date, placeholder.rounds) == (EVENTS[2], None, ())
        assert [r.id for r in store.records(EVENTS[2])] == [RECORD_ID]
        deliver(store, [event_version(EVENTS[2], "地区予選", 3)])
        event = store.event(EVENTS[2])
        assert event is not None
        assert (event.name, str(event.date)) == ("地区予選", "2026-11-28")
        assert [(r.number, r.assembly_at) for r in event.rounds] == [(n, BASE) for n in (1, 2, 3)]
        assert [r.id for r in store.records(EVENTS[2])] == [RECORD_ID]
        assert len(store.events()) == 1
        # newer settings with fewer rounds replace them
        deliver(store, [event_version(EVENTS[2], "地区予選", 1, tick=1)])
        event = store.event(EVENTS[2])
        assert event is not None
        assert [r.number for r in event.rounds] == [1]


def test_a_file_of_an_event_matched_by_name_lands_in_the_event_here(
    regulation: Regulation, devices: tuple[LogStore, LogStore]
) -> None:
    """Another device's 県大会 (its own UUID) merges into this device's 県大会: its records are
    moved into the event here, and no event is made for the other UUID."""
    there, mine = devices
    theirs = there.create_event("県大会", None)
    added = there.add_record(theirs.id, entry("山田太郎"))
    local = mine.create_event("県大会", None)
    data = json.dumps(export_json(*there.export_records(theirs.id)), ensure_ascii=False)
    report = mine.merge(parse_export(data.encode(), regulation))
    assert report.event.id == local.id
    assert [event.id for event in mine.events()] == [local.id]
    assert [record.id for record in mine.records(local.id)] == [added.id]


def _record_version(record_id: str, event_id: str, name: str = "山田太郎") -> ItemVersion:
    version = record_version(event_id)
    body = json.loads(version.body)
    body["player"]["name"] = name
    return replace(version, item_id=record_id, body=canonical(body))


def _file(store: LogStore, event_id: str) -> bytes:
    event, records = store.export_records(event_id)
    return json_bytes(export_json(event, records, store.export_versions(event_id)))


def test_records_of_two_events_in_one_delivery_each_land_in_their_own(
    regulation: Regulation, tmp_path: Path
) -> None:
    first, second = (f"6f1d2a9c-0000-4000-8000-00000000005{n}" for n in range(2))
    with open_store(regulation, tmp_path) as store:
        deliver(store, [_record_version(first, EVENTS[0]), _record_version(second, EVENTS[1])])
        assert [r.id for r in store.records(EVENTS[0])] == [first]
        assert [r.id for r in store.records(EVENTS[1])] == [second]


def test_two_records_edited_elsewhere_count_as_two_updates(
    regulation: Regulation, devices: tuple[LogStore, LogStore]
) -> None:
    there, mine = devices
    event = there.create_event("県大会", None)
    made = [there.add_record(event.id, entry(name)) for name in ("山田", "佐藤", "鈴木")]
    mine.merge(parse_export(_file(there, event.id), regulation))
    for record in made[:2]:
        there.edit_record(record.id, entry(record.player.name, note="席を離れた"))
    report = mine.merge(parse_export(_file(there, event.id), regulation))
    assert (report.added, report.updated, report.unchanged) == (0, 2, 1)
    assert [r.note for r in mine.records(event.id, newest_first=False)] == [
        "席を離れた",
        "席を離れた",
        None,
    ]


def test_a_joiner_sends_its_host_what_it_imported_but_not_what_the_host_sent(
    regulation: Regulation, devices: tuple[LogStore, LogStore]
) -> None:
    there, mine = devices
    event = there.create_event("県大会", None)
    there.add_record(event.id, entry("山田太郎"))
    mine.merge(parse_export(_file(there, event.id), regulation))
    ledger = mine.ledger()
    assert ledger.waiting(event.id, 0) >= 1  # the imported record goes to the host
    with mine._database.write() as db:  # a page pulled from the host (Ledger.pull)
        apply(db, mine._events, mine._history, [record_version(EVENTS[0])], from_host=True)
    assert ledger.waiting(EVENTS[0], 0) == 0  # never sent back to it


def test_records_found_in_another_event_past_the_first_thousand(
    regulation: Regulation, tmp_path: Path
) -> None:
    """An import of 1,001 records that all live in another event here: each is found there (the
    lookups go 500 at a time), merged there and counted apart, none copied into the file's."""
    ids = [f"6f1d2a9c-0000-4000-8000-{n:012d}" for n in range(1001)]
    given = tuple(_record_version(record_id, EVENTS[0]) for record_id in ids)
    with open_store(regulation, tmp_path) as store:
        deliver(store, list(given))
        incoming = ImportedEvent(EVENTS[1], "地区予選", None, (), (), given)
        report = store.merge(incoming)
        assert (report.elsewhere, report.added, report.updated) == (1001, 0, 0)
        assert store.records(EVENTS[1]) == ()
        assert len(store.records(EVENTS[0])) == 1001


def test_a_file_of_an_event_renamed_here_still_lands_in_it(
    regulation: Regulation, devices: tuple[LogStore, LogStore]
) -> None:
    """Matched by its UUID first: the judge here renamed the imported event, and the next file
    from the same device adds to it (no second event, no refusal)."""
    there, mine = devices
    event = there.create_event("県大会", None)
    first = there.add_record(event.id, entry("山田太郎"))
    mine.merge(parse_export(_file(there, event.id), regulation))
    mine.update_event(event.id, "県大会 二日目", None)
    second = there.add_record(event.id, entry("佐藤花子"))
    report = mine.merge(parse_export(_file(there, event.id), regulation))
    assert (report.event.id, report.event.name, report.added) == (event.id, "県大会 二日目", 1)
    assert not report.event_created
    assert [e.id for e in mine.events()] == [event.id]
    assert {r.id for r in mine.records(event.id)} == {first.id, second.id}


def test_an_import_into_a_read_only_log_says_nothing_was_imported(
    regulation: Regulation, devices: tuple[LogStore, LogStore]
) -> None:
    there, mine = devices
    event = there.create_event("県大会", None)
    there.add_record(event.id, entry("山田太郎"))
    mine._database.read_only = "the folder is read-only"  # what LogStore.open sets then
    with pytest.raises(Unwritable) as refused:
        mine.merge(parse_export(_file(there, event.id), regulation))
    assert str(refused.value) == (
        "nothing imported: the penalty log is read-only here (the folder is read-only)"
    )
    assert mine.events() == ()


CLOCK_START = datetime(2026, 11, 28, 13, 0, tzinfo=JST)


def test_the_clock_of_an_event_matched_by_name_can_be_corrected_here(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Another device's round clock merged into this device's event of the same name takes
    this event's row ids: the judge here can then correct the round's start and its length,
    and the same file imported again leaves the (later) corrections in place."""
    a = open_store(regulation, tmp_path / "a", Clock(CLOCK_START))
    b = open_store(regulation, tmp_path / "b", Clock(CLOCK_START + timedelta(minutes=10)))
    try:
        event_a, event_b = a.create_event("同じ名前"), b.create_event("同じ名前")
        a.round_clock.start(event_a.id, 2, CLOCK_START)
        a.round_clock.set_default_minutes(event_a.id, 45)
        a.set_rounds(event_a.id, [Round(1, None), Round(2, None)])  # a version of a's settings
        data = json_bytes(event_export(a, event_a.id)[0])
        b.merge(parse_export(data, regulation))
        assert [e.id for e in b.events()] == [event_b.id]  # no event of a's UUID here
        corrected = CLOCK_START + timedelta(minutes=1)
        b.round_clock.start(event_b.id, 2, corrected)
        b.round_clock.set_default_minutes(event_b.id, 40)
        b.merge(parse_export(data, regulation))
        assert b.round_clock.round(event_b.id, 2).started_at == corrected
        assert b.round_clock.default_minutes(event_b.id) == 40
        assert len(b.round_clock.rows(event_b.id).rounds) == 1
    finally:
        a.close()
        b.close()


def test_clock_rows_of_a_file_without_their_versions_are_imported(
    regulation: Regulation, tmp_path: Path
) -> None:
    """A file from before the clock had versions: each row gets one, and the clock shows."""
    a = open_store(regulation, tmp_path / "a", Clock(CLOCK_START))
    b = open_store(regulation, tmp_path / "b", Clock(CLOCK_START))
    try:
        event = a.create_event("大会")
        a.round_clock.start(event.id, 1, CLOCK_START)
        a.round_clock.extend(event.id, 1, "12", 3)
        payload = event_export(a, event.id)[0]
        del payload["clock"]["versions"]
        report = b.merge(parse_export(json_bytes(payload), regulation))
        assert report.clock == (2, 0, 0)  # the round and its extension
        assert b.round_clock.round(event.id, 1) == a.round_clock.round(event.id, 1)
    finally:
        a.close()
        b.close()


def test_an_older_edit_from_elsewhere_loses_and_counts_as_unchanged(
    regulation: Regulation, tmp_path: Path
) -> None:
    """The file brings an edit this log never saw, made before the edit here: it is kept as a
    version, the record keeps the later edit, and the report does not call it updated."""
    with (
        open_store(regulation, tmp_path / "there") as there,
        open_store(regulation, tmp_path / "here", Clock(BASE + timedelta(hours=1))) as mine,
    ):
        event = there.create_event("県大会", None)
        made = there.add_record(event.id, entry("山田太郎"))
        mine.merge(parse_export(_file(there, event.id), regulation))
        mine.edit_record(made.id, entry("山田太郎", note="後の編集"))
        there.edit_record(made.id, entry("山田太郎", note="先の編集"))  # earlier, by the clocks
        report = mine.merge(parse_export(_file(there, event.id), regulation))
        assert (report.added, report.updated, report.unchanged) == (0, 0, 1)
        assert [r.note for r in mine.records(event.id)] == ["後の編集"]
        versions = mine.record_versions(made.id)
        assert [(v.record.note, v.current) for v in versions][-1] == ("後の編集", True)
        assert "先の編集" in {v.record.note for v in versions}  # kept, for the record's history


def test_a_host_counts_the_new_versions_a_device_pushed(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path) as store:
        ledger = store.ledger()
        pushed = [event_version(EVENTS[0], "県大会", 1), record_version(EVENTS[0])]
        assert ledger.receive(EVENTS[0], pushed, DEVICE, "佐藤") == 2
        assert ledger.receive(EVENTS[0], pushed, DEVICE, "佐藤") == 0  # a repeat adds nothing

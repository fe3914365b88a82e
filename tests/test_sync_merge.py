"""The merge that venue sync and file import share: every version kept, one current version
chosen the same way everywhere, whatever the order or repetition of deliveries (hypothesis);
and an edit made after seeing another one wins even from a clock 15 minutes slow."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_support import JST, Clock, entry, open_store

from records.clock_rows import round_row_id
from records.csv_export import export_csv
from records.exchange import export_json, json_bytes, parse_export
from records.merge import apply
from records.model import RecordVersion
from records.store import LogStore
from records.sync.clock_items import CLOCK_EXTENSION, CLOCK_KINDS, CLOCK_ROUND, fields_of
from records.sync.hlc import COUNTER_BITS, stamp_of
from records.sync.items import EVENT, RECORD, ItemVersion, canonical
from regulation.model import Regulation

EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000001"
RECORD_IDS = [f"6f1d2a9c-0000-4000-8000-00000000001{n}" for n in range(3)]
EXTENSION_IDS = [f"6f1d2a9c-0000-4000-8000-00000000002{n}" for n in range(2)]
DEVICES = ["a1" * 8, "b2" * 8, "c3" * 8]
BASE = datetime(2026, 11, 28, 10, 0, tzinfo=JST)


def record_body(note: str, deleted: bool, tier: str) -> str:
    return canonical(
        {
            "created_at": BASE.isoformat(timespec="microseconds"),
            "recorded_by": {"judge": "佐藤", "device": DEVICES[0]},
            "round": 1,
            "table": "3",
            "player": {"name": "山田太郎", "id": None},
            "infraction": "drew-extra-cards",
            "tier": tier,
            "note": note,
            "deleted": deleted,
        }
    )


def event_body(name: str, rounds: int) -> str:
    return canonical(
        {
            "name": name,
            "date": "2026-11-28",
            "rounds": [{"number": n, "assembly_at": None} for n in range(1, rounds + 1)],
        }
    )


def clock_version(draw: st.DrawFn, stamp: int, device: str, saved_at: datetime) -> ItemVersion:
    """A version of a round's clock row (a start or its correction) or of an extension."""
    created = BASE.isoformat(timespec="microseconds")
    deleted = draw(st.booleans())
    if draw(st.booleans()):
        number = draw(st.integers(1, 2))
        start = BASE + timedelta(minutes=draw(st.integers(0, 3)))
        body = {
            "created_at": created,
            "deleted": deleted,
            "number": number,
            "minutes": draw(st.sampled_from([None, 40, 50])),
            "started_at": start.isoformat(timespec="microseconds"),
        }
        kind, item = CLOCK_ROUND, round_row_id(EVENT_ID, number)
    else:
        body = {
            "created_at": created,
            "deleted": deleted,
            "round": 1,
            "table": draw(st.sampled_from(["3", "12"])),
            "minutes": draw(st.integers(1, 5)),
            "record": None,
            "finished": draw(st.booleans()),
        }
        kind, item = CLOCK_EXTENSION, draw(st.sampled_from(EXTENSION_IDS))
    return ItemVersion(kind, item, EVENT_ID, stamp, device, "鈴木", saved_at, canonical(body))


@st.composite
def versions(draw: st.DrawFn) -> ItemVersion:
    device = draw(st.sampled_from(DEVICES))
    stamp = stamp_of(BASE) + draw(st.integers(0, 5)) * (1 << COUNTER_BITS) + draw(st.integers(0, 2))
    saved_at = BASE + timedelta(minutes=draw(st.integers(-15, 15)))
    if draw(st.integers(0, 3)) == 0:
        return clock_version(draw, stamp, device, saved_at)
    if draw(st.integers(0, 4)) == 0:
        name = draw(st.sampled_from(["県大会", "県大会 決勝", "地区予選"]))
        body = event_body(name, draw(st.integers(0, 3)))
        return ItemVersion(EVENT, EVENT_ID, EVENT_ID, stamp, device, "佐藤", saved_at, body)
    body = record_body(
        draw(st.sampled_from(["", "A", "B", "遅刻"])),
        draw(st.booleans()),
        draw(st.sampled_from(["warning", "duel-forfeiture"])),
    )
    record_id = draw(st.sampled_from(RECORD_IDS))
    judge = draw(st.sampled_from(["佐藤", "鈴木"]))
    return ItemVersion(RECORD, record_id, EVENT_ID, stamp, device, judge, saved_at, body)


@st.composite
def deliveries(draw: st.DrawFn, pool: list[ItemVersion]) -> list[list[ItemVersion]]:
    """Every version at least once, in any order, some repeated, cut into batches anywhere."""
    order = draw(st.permutations(pool))
    repeats = draw(st.lists(st.sampled_from(pool), max_size=len(pool))) if pool else []
    stream = list(order) + repeats
    stream = draw(st.permutations(stream))
    cuts = sorted(draw(st.lists(st.integers(0, len(stream)), max_size=4)))
    batches, start = [], 0
    for cut in [*cuts, len(stream)]:
        batches.append(stream[start:cut])
        start = cut
    return batches


def state(store: LogStore) -> tuple[Any, ...]:
    """Everything a judge can see of the event here, and every version kept."""
    event = store.event(EVENT_ID)
    records = store.records(EVENT_ID, include_deleted=True, newest_first=False) if event else ()
    # Every record here was made at the same instant: the log lists those in arrival order.
    records = tuple(sorted(records, key=lambda r: r.id))
    history = tuple(store.record_versions(record_id) for record_id in RECORD_IDS)
    clock = store.round_clock.rows(EVENT_ID)
    kept = sorted(v.key for v in store.export_versions(EVENT_ID) if v.kind in CLOCK_KINDS)
    return event, records, history, clock, kept


def deliver(store: LogStore, batches: list[list[ItemVersion]]) -> None:
    for batch in batches:
        with store._database.write() as db:  # what sync and import do, one page at a time
            apply(db, store._events, store._history, batch)


@contextmanager
def delivered_to_two_stores(
    regulation: Regulation, data: st.DataObject, pool: list[ItemVersion]
) -> Iterator[tuple[LogStore, LogStore]]:
    """Two fresh stores, each delivered `pool` in an order and batching of its own (drawn)."""
    first = data.draw(deliveries(pool))
    second = data.draw(deliveries(pool))
    with (
        tempfile.TemporaryDirectory() as folder,
        open_store(regulation, Path(folder) / "one") as one,
        open_store(regulation, Path(folder) / "two") as two,
    ):
        deliver(one, first)
        deliver(two, second)
        yield one, two


# The regulation is only read; it is built per test under mutmut's statistics (conftest.py).
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    data=st.data(), pool=st.lists(versions(), min_size=1, max_size=12, unique_by=lambda v: v.key)
)
def test_any_order_and_any_repetition_of_deliveries_gives_the_same_log(
    regulation: Regulation, data: st.DataObject, pool: list[ItemVersion]
) -> None:
    with delivered_to_two_stores(regulation, data, pool) as (one, two):
        assert state(one) == state(two)
        # Idempotent: everything again, all at once, changes nothing.
        before = state(one)
        deliver(one, [pool])
        assert state(one) == before
        # Every version is kept, and the current one is the largest (stamp, device id).
        for record_id in RECORD_IDS:
            kept = one.record_versions(record_id)
            mine = [v for v in pool if v.kind == RECORD and v.item_id == record_id]
            assert len(kept) == len(mine)
            if mine:
                best = max(mine, key=lambda v: (v.stamp, v.device))
                current = one.record(record_id)
                assert current is not None and kept[-1].current
                assert current.note == json.loads(best.body)["note"]
                assert current.deleted == json.loads(best.body)["deleted"]
        # A clock row too: every version kept, the row here the largest (stamp, device id).
        clock = [v for v in pool if v.kind in CLOCK_KINDS]
        assert state(one)[4] == sorted(v.key for v in clock)
        rows = one.round_clock.rows(EVENT_ID)
        for row in [*rows.rounds, *rows.extensions]:
            mine = [v for v in clock if v.item_id == row.stamp.id]
            best = max(mine, key=lambda v: (v.stamp, v.device))
            assert fields_of(row) == (best.kind, json.loads(best.body))
            assert row.stamp.updated_at == best.saved_at
        assert len(rows.rounds) + len(rows.extensions) == len({v.item_id for v in clock})


def _export(store: LogStore, event_id: str) -> bytes:
    event, records = store.export_records(event_id)
    return json_bytes(export_json(event, records, store.export_versions(event_id)))


def _import(store: LogStore, data: bytes) -> None:
    store.merge(parse_export(data, store.regulation))


def test_an_edit_made_after_seeing_another_wins_even_from_a_clock_15_minutes_slow(
    regulation: Regulation, tmp_path: Path
) -> None:
    # A saves everything at one instant, so its edit's stamp is its add's plus one: a stamp
    # from B's clock alone (even nudged past A's updated_at) would lose to it.
    with (
        open_store(regulation, tmp_path / "a", Clock(BASE, step=timedelta(0))) as a,
        open_store(regulation, tmp_path / "b", Clock(BASE - timedelta(minutes=15))) as b,
    ):
        event = a.current_event()
        record = a.add_record(event.id, entry("山田", note="A's first"))
        a.edit_record(record.id, entry("山田", note="A's edit"))
        _import(b, _export(a, event.id))
        b.edit_record(record.id, entry("山田", note="B saw A's edit, then edited"))
        mine, seen = (v for v in reversed(b.record_versions(record.id)[-2:]))
        assert mine.saved_at - seen.saved_at < timedelta(seconds=1)  # B's clock: no help
        _import(a, _export(b, event.id))
        for device in (a, b):
            current = device.record(record.id)
            assert current is not None and current.note == "B saw A's edit, then edited"
            history = device.record_versions(record.id)
            assert [v.record.note for v in history] == [
                "A's first",
                "A's edit",
                "B saw A's edit, then edited",
            ]
            assert [v.current for v in history] == [False, False, True]
            assert history[-1].recorded_by is not None
            assert history[-1].recorded_by.device == b.ledger().device_id


def test_a_file_and_sync_agree(regulation: Regulation, tmp_path: Path) -> None:
    """The same versions through a file and through the sync ledger give the same log."""
    with (
        open_store(regulation, tmp_path / "a", Clock(BASE)) as a,
        open_store(regulation, tmp_path / "by-file", Clock(BASE)) as by_file,
        open_store(regulation, tmp_path / "by-sync", Clock(BASE)) as by_sync,
    ):
        event = a.create_event("県大会")
        a.set_rounds(event.id, [])
        kept = a.add_record(event.id, entry("山田", note="n"))
        gone = a.add_record(event.id, entry("鈴木"))
        a.edit_record(kept.id, entry("山田", note="edited", table="7"))
        a.delete_record(gone.id)
        a.round_clock.set_default_minutes(event.id, 45)
        a.round_clock.start(event.id, 1, BASE)
        a.round_clock.start(event.id, 1, BASE + timedelta(minutes=2))  # corrected
        a.round_clock.pause(event.id, 1, BASE + timedelta(minutes=5))
        extension = a.round_clock.extend(event.id, 1, "7", 3, kept.id)
        a.round_clock.set_finished(event.id, 1, "7")
        a.round_clock.remove_extension(a.round_clock.extend(event.id, 1, "9", 1).id)
        _import(by_file, _export(a, event.id))
        ledger = a.ledger()
        cursor, more = 0, True
        while more:
            items, cursor, more = ledger.page(event.id, cursor, "f" * 32)
            by_sync.ledger().pull(event.id, [json.loads(item) for item in items], cursor, 0)

        def seen(store: LogStore) -> tuple[object, ...]:
            records = store.records(event.id, include_deleted=True, newest_first=False)
            versions: list[tuple[RecordVersion, ...]] = [
                store.record_versions(r.id) for r in records
            ]
            clock = sorted(
                (v for v in store.export_versions(event.id) if v.kind != RECORD),
                key=lambda v: v.key,
            )
            return store.event(event.id), records, versions, store.round_clock.rows(event.id), clock

        assert seen(by_file) == seen(by_sync) == seen(a)
        assert len(seen(a)[4]) == 9  # the event's settings and 8 clock versions
        clock = by_sync.round_clock.round(event.id, 1)
        assert (clock.started_at, clock.minutes) == (BASE + timedelta(minutes=2), 45)
        assert [(e.id, e.finished) for e in clock.extensions] == [(extension.id, True)]


def test_a_version_1_file_and_a_log_from_before_sync_make_the_same_version(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Two devices that got one old record by different roads agree on it (no device id)."""
    with open_store(regulation, tmp_path / "a", Clock(BASE)) as a:
        event = a.current_event()
        record = a.add_record(event.id, entry("山田"))
        payload = json.loads(_export(a, event.id))
    for item in payload["records"]:
        del item["versions"], item["recorded_by"]
    del payload["event"]["versions"]
    payload["version"] = 1
    with (
        open_store(regulation, tmp_path / "b", Clock(BASE)) as b,
        open_store(regulation, tmp_path / "c", Clock(BASE + timedelta(hours=1))) as c,
    ):
        for device in (b, c):
            _import(device, json.dumps(payload).encode())
        versions_b, versions_c = b.record_versions(record.id), c.record_versions(record.id)
        assert versions_b == versions_c and len(versions_b) == 1
        assert versions_b[0].recorded_by is None  # made before venue sync: nobody known
        assert versions_b[0].saved_at == record.updated_at


def test_new_records_carry_the_judge_and_device(regulation: Regulation, tmp_path: Path) -> None:
    with open_store(regulation, tmp_path / "a") as a:
        ledger = a.ledger()
        ledger.save({"judge": "佐藤"})
        event = a.current_event()
        record = a.add_record(event.id, entry("山田"))
        assert record.recorded_by is not None
        assert (record.recorded_by.judge, record.recorded_by.device) == ("佐藤", ledger.device_id)
        assert len(ledger.device_id) == 32
        assert a.record(record.id) == record
        (previous,) = a.repeats_of(a.add_record(event.id, entry("山田"))).previous
        assert previous.recorded_by == record.recorded_by  # the repeat notice can name 佐藤
        edited = a.edit_record(record.id, entry("山田", note="x"))
        assert edited.recorded_by == record.recorded_by  # who recorded it, not who edited it
        header, *rows = csv.reader(
            io.StringIO(export_csv(*a.export_records(event.id), regulation).decode("utf-8-sig"))
        )
        assert [dict(zip(header, row, strict=True))["recorded_by_judge"] for row in rows] == [
            "佐藤"
        ] * 2
        assert {dict(zip(header, row, strict=True))["recorded_by_device"] for row in rows} == {
            ledger.device_id
        }

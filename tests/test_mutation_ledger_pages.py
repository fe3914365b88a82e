"""Venue sync's ledger (records/sync/ledger.py), between devices, at the edges mutation testing
found untested: a host's pages carry every version but the asking device's own, its event's
settings first, in pages bounded in count and size that lose nothing between them; a joiner
pushes only what the host does not have, and stores a page with its cursors in one go or not at
all; versions of a record or clock row that lives in another event here are refused in one
line, nothing stored. On one device: test_mutation_ledger.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from ledger_support import (
    BASE,
    OTHER,
    THIRD,
    foreign,
    kinds_and_ids,
    refused,
)
from records_support import Clock, entry, open_store

from records.store import LogStore
from records.sync import protocol
from records.sync.clock_items import CLOCK_EXTENSION, CLOCK_MARK
from records.sync.items import EVENT, RECORD
from regulation.model import Regulation


@pytest.fixture
def clock() -> Clock:
    return Clock(BASE, timedelta(0))  # moved by hand


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path, clock: Clock) -> Iterator[LogStore]:
    with open_store(regulation, tmp_path, clock) as opened:
        yield opened


# -- what is sent ------------------------------------------------------------------------------


def test_the_event_settings_become_a_version_once(store: LogStore) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    settings = [v for v in store.export_versions(event.id) if v.kind == EVENT]
    assert settings == []
    ledger.ensure_event_version(event.id)
    ledger.ensure_event_version(event.id)
    (settings,) = [v for v in store.export_versions(event.id) if v.kind == EVENT]
    assert json.loads(settings.body)["name"] == "県大会"
    assert settings.device == ledger.device_id


def test_a_host_page_is_every_version_but_the_askers_own_settings_first(
    store: LogStore,
) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    mine = store.add_record(event.id, entry("山田"))
    assert ledger.receive(event.id, [foreign(event.id, 1)], OTHER, "高橋") == 1
    theirs = foreign(event.id, 1).item_id
    ledger.ensure_event_version(event.id)

    to_other, cursor, more = ledger.page(event.id, 0, OTHER)
    assert kinds_and_ids(to_other) == [(EVENT, event.id), (RECORD, mine.id), (EVENT, event.id)]
    assert (cursor, more) == (3, False)  # past the asker's own version too
    to_third, cursor, more = ledger.page(event.id, 0, THIRD)
    assert kinds_and_ids(to_third) == [
        (EVENT, event.id),
        (RECORD, mine.id),
        (RECORD, theirs),
        (EVENT, event.id),
    ]
    assert ledger.page(event.id, cursor, THIRD) == ([], cursor, False)
    # an item is the version as stored
    assert json.loads(to_third[2])["body"] == json.loads(foreign(event.id, 1).body)
    # a device id of "" (versions made before sync) asks for everything
    assert len(ledger.page(event.id, 0, "")[0]) == 4


def test_a_page_without_settings_yet_starts_with_the_records(store: LogStore) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    record = store.add_record(event.id, entry("山田"))
    assert kinds_and_ids(ledger.page(event.id, 0, OTHER)[0]) == [(RECORD, record.id)]


def test_host_pages_hold_a_bounded_count_and_lose_nothing(
    store: LogStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    ledger.ensure_event_version(event.id)
    records = [store.add_record(event.id, entry(f"選手{n}")).id for n in range(5)]
    monkeypatch.setattr(protocol, "PAGE_ITEMS", 3)

    first, cursor, more = ledger.page(event.id, 0, OTHER)
    # three items: the settings put first, and the first two stored versions
    assert kinds_and_ids(first) == [(EVENT, event.id), (EVENT, event.id), (RECORD, records[0])]
    assert (cursor, more) == (2, True)
    second, cursor, more = ledger.page(event.id, cursor, OTHER)
    assert kinds_and_ids(second) == [(RECORD, r) for r in records[1:4]]
    assert (cursor, more) == (5, True)
    third, cursor, more = ledger.page(event.id, cursor, OTHER)
    assert kinds_and_ids(third) == [(RECORD, records[4])]
    assert (cursor, more) == (6, False)


def test_a_page_stops_near_its_size_bound_never_before_one_item(
    store: LogStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    records = [store.add_record(event.id, entry(f"選手{n}")).id for n in range(4)]
    (length,) = {len(v.body) for v in store.export_versions(event.id)}
    # The bound a page counts for each item: 3 bytes a character of its body (UTF-8's most
    # for Japanese) and 300 for the fields around it.
    each = length * 3 + 300
    for bound, expected in ((1, 1), (each - 1, 1), (each, 2), (2 * each - 1, 2), (2 * each, 3)):
        monkeypatch.setattr(protocol, "PAGE_BYTES", bound)
        items, cursor, more = ledger.page(event.id, 0, OTHER)
        assert (kinds_and_ids(items), cursor, more) == (
            [(RECORD, r) for r in records[:expected]],
            expected,
            True,
        ), bound
    monkeypatch.setattr(protocol, "PAGE_BYTES", 1)
    pages = []
    cursor, more = 0, True
    while more and len(pages) < 10:
        items, cursor, more = ledger.page(event.id, cursor, OTHER)
        pages.append(kinds_and_ids(items))
    assert pages == [[(RECORD, r)] for r in records]


def test_a_joiner_pushes_its_own_versions_never_the_hosts(
    regulation: Regulation, tmp_path: Path
) -> None:
    with (
        open_store(regulation, tmp_path / "host", Clock(BASE)) as host,
        open_store(regulation, tmp_path / "joiner", Clock(BASE + timedelta(hours=1))) as joiner,
    ):
        event = host.create_event("県大会")
        host_ledger, joiner_ledger = host.ledger(), joiner.ledger()
        host_ledger.ensure_event_version(event.id)
        from_host = host.add_record(event.id, entry("山田"))
        items, cursor, _more = host_ledger.page(event.id, 0, joiner_ledger.device_id)
        saves: list[None] = []
        joiner.add_save_listener(lambda: saves.append(None))
        assert joiner_ledger.pull(event.id, [json.loads(i) for i in items], cursor, 0) == 2
        assert joiner.record(from_host.id) == from_host
        assert joiner_ledger.state().cursor == cursor
        assert joiner_ledger.outgoing(event.id, 0) == ([], 0)
        assert joiner_ledger.waiting(event.id, 0) == 0

        own = joiner.add_record(event.id, entry("鈴木"))
        pushed, last = joiner_ledger.outgoing(event.id, 0)
        assert kinds_and_ids(pushed) == [(RECORD, own.id)]
        assert joiner_ledger.waiting(event.id, 0) == 1
        assert joiner_ledger.waiting(event.id, last) == 0
        assert joiner_ledger.outgoing(event.id, last) == ([], last)
        given = protocol.parse_items([json.loads(i) for i in pushed], "items", event.id, regulation)
        assert host_ledger.receive(event.id, given, joiner_ledger.device_id, None) == 1
        assert host.record(own.id) == own
        # the host's own record it sent is not sent back when the joiner pulls again
        back, cursor2, _ = host_ledger.page(event.id, cursor, joiner_ledger.device_id)
        assert back == [] and cursor2 > cursor
        assert joiner_ledger.pull(event.id, [], cursor2, last) == 0
        state = joiner_ledger.state()
        assert (state.cursor, state.pushed) == (cursor2, last)


def test_a_page_with_a_bad_item_stores_nothing_not_even_the_cursors(
    regulation: Regulation, tmp_path: Path
) -> None:
    with (
        open_store(regulation, tmp_path / "host", Clock(BASE)) as host,
        open_store(regulation, tmp_path / "joiner", Clock(BASE)) as joiner,
    ):
        event = host.create_event("県大会")
        host.ledger().ensure_event_version(event.id)
        host.add_record(event.id, entry("山田"))
        items, cursor, _ = host.ledger().page(event.id, 0, OTHER)
        entries = [json.loads(i) for i in items]
        entries[1]["body"]["tier"] = "no-such-tier"
        ledger = joiner.ledger()
        problem = refused(ledger.pull, event.id, entries, cursor, 5)
        assert problem.field.startswith("items[1].body")
        assert joiner.event(event.id) is None
        assert (ledger.state().cursor, ledger.state().pushed) == (0, 0)


# -- what is received --------------------------------------------------------------------------


def test_a_host_counts_what_is_new_and_tells_its_listeners_only_then(store: LogStore) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    saves: list[None] = []
    store.add_save_listener(lambda: saves.append(None))
    assert ledger.receive(event.id, [], OTHER, None) == 0
    assert saves == []
    given = [foreign(event.id, 1), foreign(event.id, 2)]
    assert ledger.receive(event.id, given, OTHER, "高橋") == 2
    assert saves == [None]
    assert ledger.receive(event.id, given, OTHER, "高橋") == 0
    assert saves == [None]
    assert [r.player.name for r in store.records(event.id)] == ["田中", "田中"]


def test_a_record_of_another_event_here_is_refused_and_nothing_stored(store: LogStore) -> None:
    first = store.create_event("県大会")
    second = store.create_event("市民大会")
    ledger = store.ledger()
    here = store.add_record(first.id, entry("山田"))
    moved = replace(foreign(second.id, 0), item_id=here.id)
    for batch in ([moved], [foreign(second.id, 1), moved]):
        problem = refused(ledger.receive, second.id, batch, OTHER, None)
        assert str(problem) == f"record {here.id} belongs to another event"
        assert (problem.field, problem.reason) == ("items", "format")
    assert store.records(second.id) == ()
    assert store.records(first.id) == (here,)


def test_a_record_of_another_event_is_found_among_hundreds(store: LogStore) -> None:
    first = store.create_event("県大会")
    second = store.create_event("市民大会")
    ledger = store.ledger()
    here = store.add_record(first.id, entry("山田"))
    many = [foreign(second.id, n) for n in range(1, 601)]
    # the id sorts after the others, in the second lot of 500 the refusal looks through
    last = replace(foreign(second.id, 0), item_id="f" + here.id[1:])
    with store._database.write() as db:
        db.execute("UPDATE records SET uuid = ? WHERE uuid = ?", (last.item_id, here.id))
    problem = refused(ledger.receive, second.id, [*many, last], OTHER, None)
    assert str(problem) == f"record {last.item_id} belongs to another event"
    assert store.records(second.id) == ()


def test_clock_rows_of_another_event_here_are_refused(store: LogStore) -> None:
    first = store.create_event("県大会")
    second = store.create_event("市民大会")
    store.round_clock.start(first.id, 1, BASE)
    store.round_clock.pause(first.id, 1, BASE + timedelta(minutes=5))
    store.round_clock.extend(first.id, 1, "7", 3)
    ledger = store.ledger()
    rows = {v.kind: v for v in store.export_versions(first.id)}
    for kind in (CLOCK_MARK, CLOCK_EXTENSION):
        elsewhere = replace(rows[kind], event_id=second.id, stamp=rows[kind].stamp + 1)
        problem = refused(ledger.receive, second.id, [elsewhere], OTHER, None)
        assert str(problem) == f"clock row {elsewhere.item_id} belongs to another event", kind
        assert (problem.field, problem.reason) == ("items", "format")
    assert [v.kind for v in store.export_versions(second.id)] == []
    # the same rows of their own event are taken (nothing refused)
    same = replace(rows[CLOCK_MARK], stamp=rows[CLOCK_MARK].stamp + 1, device=OTHER)
    assert ledger.receive(first.id, [same], OTHER, None) == 1


def test_versions_from_before_sync_are_sent_both_ways(store: LogStore) -> None:
    """A version with no device (an old file imported here) is nobody's own: a joiner pushes
    it and a host sends it to everyone."""
    event = store.create_event("県大会")
    ledger = store.ledger()
    old = replace(
        foreign(event.id, 1, device=""),
        judge=None,
        body=json.dumps(
            dict(json.loads(foreign(event.id, 1).body), recorded_by=None),
            ensure_ascii=False,
            sort_keys=True,
            separators=(",", ":"),
        ),
    )
    assert ledger.receive(event.id, [old], OTHER, None) == 1
    assert kinds_and_ids(ledger.outgoing(event.id, 0)[0]) == [(RECORD, old.item_id)]
    assert kinds_and_ids(ledger.page(event.id, 0, OTHER)[0]) == [(RECORD, old.item_id)]
    assert kinds_and_ids(ledger.page(event.id, 0, "")[0]) == [(RECORD, old.item_id)]


@pytest.mark.parametrize(("index", "count"), [(0, 600), (499, 600), (500, 600), (999, 1000)])
def test_a_record_of_another_event_is_found_wherever_it_sorts(
    store: LogStore, index: int, count: int
) -> None:
    """The look-up goes 500 ids at a time: the one that belongs elsewhere is found at the
    start, at each edge of a lot, and at the end."""
    first = store.create_event("県大会")
    second = store.create_event("市民大会")
    ledger = store.ledger()
    here = store.add_record(first.id, entry("山田"))
    batch = [foreign(second.id, n) for n in range(1, count + 1)]
    taken = batch[index].item_id  # sorted as the numbers are
    with store._database.write() as db:
        db.execute("UPDATE records SET uuid = ? WHERE uuid = ?", (taken, here.id))
    problem = refused(ledger.receive, second.id, batch, OTHER, None)
    assert str(problem) == f"record {taken} belongs to another event"
    assert store.records(second.id) == ()


def test_a_joiner_that_becomes_host_sends_what_it_pulled(
    regulation: Regulation, tmp_path: Path
) -> None:
    """When the host's phone is gone and a joined device hosts the event instead, the versions
    it pulled from the old host go to its own joiners too."""
    with (
        open_store(regulation, tmp_path / "old-host", Clock(BASE)) as old_host,
        open_store(regulation, tmp_path / "new-host", Clock(BASE)) as new_host,
    ):
        event = old_host.create_event("県大会")
        old_host.ledger().ensure_event_version(event.id)
        record = old_host.add_record(event.id, entry("山田"))
        items, cursor, _ = old_host.ledger().page(event.id, 0, OTHER)
        ledger = new_host.ledger()
        assert ledger.pull(event.id, [json.loads(i) for i in items], cursor, 0) == 2
        sent, _cursor, more = ledger.page(event.id, 0, THIRD)
        assert (RECORD, record.id) in kinds_and_ids(sent) and not more
        assert kinds_and_ids(sent)[0] == (EVENT, event.id)


def test_a_pulled_record_of_another_event_here_is_refused_nothing_stored(
    regulation: Regulation, tmp_path: Path
) -> None:
    with (
        open_store(regulation, tmp_path / "host", Clock(BASE)) as host,
        open_store(regulation, tmp_path / "joiner", Clock(BASE)) as joiner,
    ):
        shared = host.create_event("県大会")
        host.ledger().ensure_event_version(shared.id)
        mine = joiner.add_record(joiner.create_event("練習会").id, entry("鈴木"))
        host.add_record(shared.id, entry("山田"))
        items, cursor, _ = host.ledger().page(shared.id, 0, OTHER)
        entries = [json.loads(i) for i in items]
        entries[-1]["id"] = mine.id  # the host's record under an id this device has elsewhere
        ledger = joiner.ledger()
        problem = refused(ledger.pull, shared.id, entries, cursor, 0)
        assert str(problem) == f"record {mine.id} belongs to another event"
        assert joiner.event(shared.id) is None
        assert joiner.record(mine.id) == mine
        assert ledger.state().cursor == 0

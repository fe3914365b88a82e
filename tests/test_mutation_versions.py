"""The table of saved versions (records/sync/versions.py), at the edges mutation testing found
untested: a set union that keeps one version per key whatever the order of arrival, the
current version among many things (more than one query's worth), a thing's history in the
conflict rule's order, and the pages a host sends (cursor, limit, versions from the host)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST

from records.schema import migrate
from records.sync import versions
from records.sync.items import EVENT, RECORD, ItemVersion

SAVED = datetime(2026, 11, 28, 13, 5, 30, 123456, tzinfo=JST)
EVENT_A = "event-a"
EVENT_B = "event-b"


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    migrate(connection, Path("memory.sqlite3"), SAVED)
    yield connection
    connection.close()


def version(
    item: str,
    stamp: int,
    device: str = "dev-a",
    *,
    body: str = '{"note":"x"}',
    kind: str = RECORD,
    event: str = EVENT_A,
    judge: str | None = "佐藤",
    saved: datetime = SAVED,
) -> ItemVersion:
    return ItemVersion(kind, item, event, stamp, device, judge, saved, body)


def test_adding_is_a_set_union(db: sqlite3.Connection) -> None:
    first = version("r1", 10)
    second = version("r1", 11, "dev-b")
    other = version("e1", 5, kind=EVENT, event=EVENT_B)
    assert versions.add(db, [first, second, other]) == {
        (RECORD, EVENT_A, "r1"),
        (EVENT, EVENT_B, "e1"),
    }
    assert versions.add(db, [second, first]) == set()  # nothing new
    assert versions.history(db, RECORD, "r1") == [first, second]
    assert versions.last_seq(db) == 3


def test_a_version_comes_back_exactly_as_it_was_saved(db: sqlite3.Connection) -> None:
    given = version("r1", 10, judge=None, saved=SAVED.replace(microsecond=0))
    versions.add(db, [given])
    (back,) = versions.of_event(db, EVENT_A)
    assert back == given
    assert back.saved_at.utcoffset() == timedelta(hours=9)


@pytest.mark.parametrize("order", ["kept first", "kept last"])
def test_two_versions_under_one_key_keep_the_same_one_everywhere(
    db: sqlite3.Connection, order: str
) -> None:
    low = version("r1", 10, body='{"note":"a"}')
    high = version("r1", 10, body='{"note":"b"}')  # a broken device: same key, other body
    unrelated = version("r9", 1)
    versions.add(db, [unrelated])
    arrivals = [low, high] if order == "kept first" else [high, low]
    touched = [versions.add(db, [given]) for given in arrivals]
    assert versions.history(db, RECORD, "r1") == [high]
    if order == "kept first":
        assert touched == [{(RECORD, EVENT_A, "r1")}] * 2
        # the replacement is sent on: it has a seq after every version here
        assert versions.page(db, EVENT_A, versions.last_seq(db) - 1, 10)[0][1] == high
    else:
        assert touched == [{(RECORD, EVENT_A, "r1")}, set()]
    assert unrelated in versions.of_event(db, EVENT_A)


def test_the_current_version_is_the_largest_stamp_then_device(db: sqlite3.Connection) -> None:
    given = [
        version("r1", 10, "dev-b"),
        version("r1", 12, "dev-a"),
        version("r1", 12, "dev-c", body='{"note":"winner"}'),
        version("r1", 11, "dev-z"),
    ]
    versions.add(db, given)
    assert versions.current(db, RECORD, "r1") == given[2]
    assert [v.stamp for v in versions.history(db, RECORD, "r1")] == [10, 11, 12, 12]
    assert versions.current(db, RECORD, "nothing") is None
    assert versions.current(db, EVENT, "r1") is None  # another kind
    assert versions.currents(db, RECORD, ["r1", "nothing"]) == {"r1": given[2]}


def test_the_current_versions_of_many_things_at_once(db: sqlite3.Connection) -> None:
    ids = [f"r{n:04}" for n in range(1203)]  # more than two queries' worth
    old = [version(item, 10) for item in ids]
    new = [version(item, 20 + n % 3, f"dev-{n % 2}") for n, item in enumerate(ids)]
    versions.add(db, new + old)  # the newer ones first: arrival order does not count
    versions.add(db, [version("e", 99, kind=EVENT)])
    found = versions.currents(db, RECORD, iter(ids))
    assert found == dict(zip(ids, new, strict=True))
    assert versions.currents(db, EVENT, ids) == {}
    assert versions.currents(db, RECORD, []) == {}
    assert versions.highest_stamp(db) == 99


def test_an_events_versions_in_order_of_arrival(db: sqlite3.Connection) -> None:
    assert versions.of_event(db, EVENT_A) == ()
    assert (versions.highest_stamp(db), versions.last_seq(db)) == (0, 0)
    given = [version("r2", 30), version("r1", 10, event=EVENT_B), version("r1", 20)]
    versions.add(db, given)
    assert versions.of_event(db, EVENT_A) == (given[0], given[2])
    assert versions.highest_stamp(db) == 30


def test_pages_from_a_cursor(db: sqlite3.Connection) -> None:
    mine = [version(f"r{n}", n) for n in range(1, 6)]
    versions.add(db, mine[:2])
    versions.add(db, [version("x", 1, event=EVENT_B)])
    versions.add(db, mine[2:4], from_host=True)
    versions.add(db, mine[4:])
    assert versions.page(db, EVENT_A, 0, 10) == [
        (1, mine[0]),
        (2, mine[1]),
        (4, mine[2]),
        (5, mine[3]),
        (6, mine[4]),
    ]
    assert versions.page(db, EVENT_A, 2, 2) == [(4, mine[2]), (5, mine[3])]
    assert versions.page(db, EVENT_A, 6, 10) == []
    assert versions.page(db, EVENT_A, 0, 10, skip_from_host=True) == [
        (1, mine[0]),
        (2, mine[1]),
        (6, mine[4]),
    ]
    assert versions.count_after(db, EVENT_A, 0) == 5
    assert versions.count_after(db, EVENT_A, 2) == 3
    assert versions.count_after(db, EVENT_A, 2, skip_from_host=True) == 1
    assert versions.count_after(db, EVENT_B, 0) == 1
    assert versions.last_seq(db) == 6


def test_a_store_gives_the_current_version_of_each_thing_offered(db: sqlite3.Connection) -> None:
    # What the merge makes the row here (records/merge.py): the best of what was here and what
    # came, for every thing offered, whether or not it got a new version.
    here_best = version("r1", 20, "dev-a")
    here_twin = version("r4", 3, body='{"note":"b"}')
    versions.add(db, [here_best, version("r2", 5), here_twin, version("r9", 1)])
    older = version("r1", 10, "dev-b")  # new here, but older than what is here
    newer = version("r2", 7, "dev-b")
    fresh = version("r3", 1)
    lost_twin = version("r4", 3, body='{"note":"a"}')  # same key, loses to the one here
    stored = versions.store(db, [older, newer, fresh, lost_twin])
    assert stored.touched == {
        (RECORD, EVENT_A, "r1"),
        (RECORD, EVENT_A, "r2"),
        (RECORD, EVENT_A, "r3"),
    }
    assert stored.current == {
        (RECORD, "r1"): here_best,
        (RECORD, "r2"): newer,
        (RECORD, "r3"): fresh,
        (RECORD, "r4"): here_twin,
    }
    assert versions.history(db, RECORD, "r4") == [here_twin]

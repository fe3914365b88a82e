"""What sync and file exchange carry (records/sync/items.py), at the edges mutation testing
found untested: a record or an event's settings read back from its version exactly, every
field; a body refused unless it is exactly the canonical form every device would store, in one
line naming the place and the fault; and the conflict order, the same on every device."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.model import Event, Player, Record, RecordedBy, Round
from records.sync.items import (
    EVENT,
    KINDS,
    RECORD,
    ItemVersion,
    canonical,
    check_body,
    check_event_body,
    check_record_body,
    event_body,
    event_fields,
    event_from,
    record_body,
    record_fields,
    record_from,
)
from regulation.model import Regulation

BASE = datetime(2026, 11, 28, 10, 0, 0, 123456, tzinfo=JST)
DEVICE = "a1" * 16
RECORD_ID = "6f1d2a9c-0000-4000-8000-000000000040"
EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000030"


def a_record(**changes: object) -> Record:
    fields: dict[str, object] = {
        "id": RECORD_ID,
        "event_id": EVENT_ID,
        "created_at": BASE,
        "updated_at": BASE + timedelta(minutes=5),
        "round": 2,
        "table": "7",
        "player": Player("山田太郎", "0001"),
        "infraction_id": "drew-extra-cards",
        "tier_id": "warning",
        "note": "メモ",
        "deleted": False,
        "recorded_by": RecordedBy("佐藤", DEVICE),
        "arrived_at": BASE - timedelta(minutes=3),
        "late_seconds": 180,
        "occurrence": 2,
    }
    fields.update(changes)
    return Record(**fields)  # type: ignore[arg-type]


def version_of(record: Record) -> ItemVersion:
    return ItemVersion(
        RECORD,
        record.id,
        record.event_id,
        1,
        DEVICE,
        "佐藤",
        record.updated_at,
        record_body(record),
    )


def test_a_record_reads_back_from_its_version_exactly() -> None:
    for record in (
        a_record(),
        a_record(
            round=None,
            table=None,
            note=None,
            deleted=True,
            recorded_by=None,
            arrived_at=None,
            late_seconds=None,
            occurrence=None,
            player=Player("鈴木", None),
        ),
    ):
        assert record_from(version_of(record)) == record


def test_a_version_is_read_from_its_parsed_body_when_it_has_one() -> None:
    version = version_of(a_record())
    parsed = replace(version, parsed=json.loads(version.body))
    assert record_from(parsed) == record_from(version) == a_record()


def test_a_record_body_is_one_canonical_text_on_every_device() -> None:
    """A record without evidence has the body it had before those fields existed, byte for
    byte (an older device stores and compares exactly this), and every time has its
    microseconds."""
    old = a_record(
        created_at=datetime(2026, 11, 28, 10, 0, tzinfo=JST),
        arrived_at=None,
        late_seconds=None,
        occurrence=None,
    )
    assert record_body(old) == (
        '{"created_at":"2026-11-28T10:00:00.000000+09:00","deleted":false,'
        '"infraction":"drew-extra-cards","note":"メモ",'
        '"player":{"id":"0001","name":"山田太郎"},'
        '"recorded_by":{"device":"' + DEVICE + '","judge":"佐藤"},'
        '"round":2,"table":"7","tier":"warning"}'
    )
    body = json.loads(record_body(a_record(arrived_at=datetime(2026, 11, 28, 9, 57, tzinfo=JST))))
    assert (body["arrived_at"], body["late_seconds"], body["occurrence"]) == (
        "2026-11-28T09:57:00.000000+09:00",
        180,
        2,
    )
    assert record_fields(a_record(late_seconds=0, occurrence=1))["late_seconds"] == 0
    assert canonical({"b": "山", "a": [1, None]}) == '{"a":[1,null],"b":"山"}'


def test_the_conflict_order_and_the_saver() -> None:
    version = version_of(a_record())
    assert version.key == (RECORD, RECORD_ID, 1, DEVICE)
    assert version.saved_by == RecordedBy("佐藤", DEVICE)
    assert replace(version, judge=None).saved_by == RecordedBy("", DEVICE)
    assert replace(version, device="").saved_by is None
    # each field decides only where those before it are equal
    later = [
        replace(version, stamp=2, device="00" * 16),
        replace(version, device="ff" * 16, body=""),
        replace(version, body=version.body + " ", judge=""),
        replace(version, judge="藤", saved_at=version.saved_at - timedelta(days=1)),
        replace(version, saved_at=version.saved_at + timedelta(seconds=1), event_id="0"),
        replace(version, event_id="7" + EVENT_ID[1:]),
    ]
    for other in later:
        assert version.order < other.order, other
    assert replace(version, judge=None).order == replace(version, judge="").order
    assert version.order[4] == version.saved_at.isoformat()


# -- a record's body checked -------------------------------------------------------------------


def checked_record(regulation: Regulation, **changes: object) -> dict[str, object]:
    body = json.loads(record_body(a_record()))
    body.update(changes)
    return body


def test_a_record_body_that_is_canonical_is_taken_as_it_is(regulation: Regulation) -> None:
    for record in (a_record(), a_record(recorded_by=None, arrived_at=None, round=None)):
        body = json.loads(record_body(record))
        assert check_record_body(body, "items[0].body", regulation) == body
        assert check_body(RECORD, body, "items[0]", regulation) == record_body(record)


def test_a_record_body_is_refused_in_one_line_naming_the_place(regulation: Regulation) -> None:
    where = "items[3].body"
    cases: list[tuple[object, str, str]] = [
        ([], where, "must be an object"),
        ("text", where, "must be an object"),
    ]
    for key in ("round", "table", "note", "recorded_by"):
        body = checked_record(regulation)
        del body[key]
        cases.append((body, f"{where}.{key}", "missing (null when empty)"))
    for player in (None, "山田", ["山田"]):
        cases.append(
            (
                checked_record(regulation, player=player),
                f"{where}.player",
                "missing or not an object",
            )
        )
    body = checked_record(regulation)
    del body["player"]
    cases.append((body, f"{where}.player", "missing or not an object"))
    for deleted in (None, 0, "false"):
        cases.append(
            (
                checked_record(regulation, deleted=deleted),
                f"{where}.deleted",
                "must be true or false",
            )
        )
    body = checked_record(regulation)
    del body["deleted"]
    cases.append((body, f"{where}.deleted", "must be true or false"))
    for created_at in (None, "yesterday"):
        cases.append(
            (
                checked_record(regulation, created_at=created_at),
                f"{where}.created_at",
                "",  # validate.iso_datetime's words
            )
        )
    for body, field_name, why in cases:
        with pytest.raises(InvalidInput) as caught:
            check_record_body(body, where, regulation)
        assert caught.value.field == field_name, body
        message = str(caught.value)
        assert message == f"{field_name}: {why}" if why else message.startswith(f"{field_name}: ")


def test_a_body_another_device_would_store_differently_is_refused(
    regulation: Regulation,
) -> None:
    for changes in (
        {"created_at": "2026-11-28T10:00:00+09:00"},  # no microseconds
        {"extra": 1},
    ):
        body = checked_record(regulation, **changes)
        with pytest.raises(InvalidInput) as caught:
            check_body(RECORD, body, "items[0]", regulation)
        assert (str(caught.value), caught.value.field) == (
            "items[0].body: not in canonical form",
            "items[0].body",
        ), changes
    body = checked_record(regulation, tier="no-such-tier")
    with pytest.raises(InvalidInput) as caught:
        check_body(RECORD, body, "items[0]", regulation)
    assert caught.value.field == "items[0].body.tier"


def test_an_unknown_kind_asks_for_an_update(regulation: Regulation) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_body("photo", {}, "items[2]", regulation)
    assert (str(caught.value), caught.value.field) == (
        "items[2].kind: unknown kind 'photo' (update the app)",
        "items[2].kind",
    )
    assert set(KINDS) >= {RECORD, EVENT, "clock.mark", "clock.extension"}


# -- the event's settings ----------------------------------------------------------------------


def event_version(event: Event) -> ItemVersion:
    return ItemVersion(EVENT, event.id, event.id, 1, DEVICE, None, BASE, event_body(event))


def test_an_event_reads_back_from_its_version_rounds_in_order() -> None:
    event = Event(
        EVENT_ID,
        "県大会",
        date(2026, 11, 28),
        (Round(3, None), Round(1, BASE), Round(2, BASE + timedelta(hours=1))),
    )
    back = event_from(event_version(event))
    assert back == replace(event, rounds=tuple(sorted(event.rounds, key=lambda r: r.number)))
    bare = Event(EVENT_ID, "練習会", None, ())
    assert event_from(event_version(bare)) == bare
    assert event_body(bare) == '{"date":null,"name":"練習会","rounds":[]}'
    assert json.loads(event_body(event))["rounds"][0] == {
        "assembly_at": "2026-11-28T10:00:00.123456+09:00",
        "number": 1,
    }
    assert event_fields(event)["date"] == "2026-11-28"


def test_an_event_body_checked_is_the_canonical_one(regulation: Regulation) -> None:
    event = Event(EVENT_ID, "県大会", date(2026, 11, 28), (Round(1, BASE), Round(2, None)))
    body = json.loads(event_body(event))
    assert check_event_body(body, "items[0].body", regulation) == body
    assert check_body(EVENT, body, "items[0]", regulation) == event_body(event)
    unsorted = dict(body, rounds=list(reversed(body["rounds"])))
    with pytest.raises(InvalidInput) as caught:
        check_body(EVENT, unsorted, "items[0]", regulation)
    assert str(caught.value) == "items[0].body: not in canonical form"


def test_an_event_body_is_refused_in_one_line_naming_the_place(regulation: Regulation) -> None:
    where = "items[0].body"
    good = {"date": "2026-11-28", "name": "県大会", "rounds": [{"assembly_at": None, "number": 1}]}
    cases: list[tuple[object, str, str]] = [
        ([], where, "must be an object"),
        (dict(good, name=""), f"{where}.name", ""),
        (dict(good, date="28/11/2026"), f"{where}.date", "not a date"),
        (dict(good, rounds=None), f"{where}.rounds", "must be a list"),
        (dict(good, rounds={"number": 1}), f"{where}.rounds", "must be a list"),
        (dict(good, rounds=[1]), f"{where}.rounds[0]", "must be an object"),
        (
            dict(good, rounds=[{"assembly_at": None}]),
            f"{where}.rounds[0].number",
            "missing or given twice",
        ),
        (
            dict(
                good,
                rounds=[{"number": 1, "assembly_at": None}, {"number": 1, "assembly_at": None}],
            ),
            f"{where}.rounds[1].number",
            "missing or given twice",
        ),
        (
            dict(good, rounds=[{"number": "1", "assembly_at": None}]),
            f"{where}.rounds[0].number",
            "must be a whole number",
        ),
        (
            dict(good, rounds=[{"number": 1, "assembly_at": "noon"}]),
            f"{where}.rounds[0].assembly_at",
            "not an ISO 8601 date and time",
        ),
    ]
    for body, field_name, why in cases:
        with pytest.raises(InvalidInput) as caught:
            check_event_body(body, where, regulation)
        assert caught.value.field == field_name, body
        assert str(caught.value).startswith(f"{field_name}: {why}"), body

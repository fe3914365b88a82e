"""Events and their rounds (records/events.py), at the edges mutation testing found untested:
what a judge is told when an event is unknown, its name taken or a round given wrongly (the
field and the reason a screen shows beside the value); an event renamed, dated or given rounds
is what another device hears of (its sync version); every event has its own id; and the
current event is the one named by today's date when it exists, or in a read-only log the
newest."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, open_store

from records.errors import InvalidInput
from records.model import Round
from records.store import LogStore
from records.sync.items import EVENT
from regulation.model import Regulation

UNKNOWN = "6f1d2a9c-0000-4000-8000-0000000000ff"


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


def refused(call, *args: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        call(*args)
    return caught.value


def test_an_unknown_event_is_not_found_and_refused_with_its_id(store: LogStore) -> None:
    assert store.event(UNKNOWN) is None
    assert store.event_by_name("まだない大会") is None
    for call, args in (
        (store.set_round, (UNKNOWN, 1, None)),  # looks the event up first
        (store.update_event, (UNKNOWN, "改名", None)),  # finds its row inside the write
        (store.set_rounds, (UNKNOWN, [Round(1)])),
        (store.set_current_event, (UNKNOWN,)),
    ):
        error = refused(call, *args)
        assert (error.field, error.reason) == ("event", "unknown_id"), call
        assert str(error) == f"no event with id {UNKNOWN!r}"
    assert store.events() == ()  # nothing was made on the way


def test_a_taken_name_is_refused_when_creating_and_when_renaming(store: LogStore) -> None:
    first = store.create_event("秋の大会")
    error = refused(store.create_event, "秋の大会")
    assert (error.field, error.reason) == ("event.name", "duplicate")
    assert str(error) == "an event named '秋の大会' already exists"
    other = store.create_event("冬の大会")
    error = refused(store.update_event, other.id, "秋の大会", None)
    assert (error.field, error.reason) == ("event.name", "duplicate")
    assert str(error) == "an event named '秋の大会' already exists"
    assert [e.name for e in store.events()] == ["冬の大会", "秋の大会"]
    # Asked to, creating a taken name gives the event that has it, and makes no other.
    assert store.create_event("秋の大会", existing_ok=True) == first
    assert store.create_event("春の大会", existing_ok=True).name == "春の大会"
    assert len(store.events()) == 3


def test_every_event_has_an_id_of_its_own(store: LogStore) -> None:
    made = [store.create_event(f"大会{n}") for n in range(3)]
    assert len({event.id for event in made}) == 3
    for event in made:
        assert str(uuid.UUID(event.id)) == event.id
        assert store.event(event.id) == event


def test_a_date_set_by_renaming_is_kept(store: LogStore) -> None:
    event = store.create_event("秋の大会")
    renamed = store.update_event(event.id, "秋季大会", date(2026, 12, 5))
    assert (renamed.name, renamed.date) == ("秋季大会", date(2026, 12, 5))
    assert store.event(event.id) == renamed
    assert store.update_event(event.id, "秋季大会", None).date is None


def event_bodies(store: LogStore, event_id: str) -> list[dict]:
    return [json.loads(v.body) for v in store.export_versions(event_id) if v.kind == EVENT]


def test_a_renamed_or_re_rounded_event_is_what_other_devices_hear_of(store: LogStore) -> None:
    event = store.create_event("秋の大会")
    store.update_event(event.id, "秋季大会", date(2026, 12, 5))
    assert event_bodies(store, event.id)[-1]["name"] == "秋季大会"
    at = datetime(2026, 12, 5, 10, 0, tzinfo=JST)
    store.set_rounds(event.id, [Round(1, at), Round(2)])
    rounds = event_bodies(store, event.id)[-1]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2]
    assert datetime.fromisoformat(rounds[0]["assembly_at"]) == at


@pytest.mark.parametrize(
    ("rounds", "field", "reason", "message"),
    [
        ([Round(1), Round(None)], "rounds[1].number", "required", "rounds[1].number: required"),  # type: ignore[arg-type]
        ([Round(2), Round(0)], "rounds[1].number", "out_of_range", None),
        (
            [Round(1), Round(3), Round(3)],
            "rounds[2]",
            "duplicate",
            "rounds[2]: round 3 given twice",
        ),
        (
            [Round(1), Round(2, datetime(2026, 12, 5, 10, 0))],  # no UTC offset
            "rounds[1].assembly_at",
            "format",
            None,
        ),
    ],
    ids=["no-number", "round-0", "twice", "naive-time"],
)
def test_a_wrong_round_is_refused_by_its_place_in_the_list(
    store: LogStore, rounds: list[Round], field: str, reason: str, message: str | None
) -> None:
    event = store.create_event("秋の大会")
    store.set_rounds(event.id, [Round(5)])
    error = refused(store.set_rounds, event.id, rounds)
    assert (error.field, error.reason) == (field, reason)
    assert str(error).startswith(f"{field}: ")
    if message is not None:
        assert str(error) == message
    assert store.event(event.id).rounds == (Round(5),)  # type: ignore[union-attr]


def test_the_current_event_is_the_one_named_by_today_when_it_exists(
    regulation: Regulation, tmp_path: Path
) -> None:
    clock = Clock(datetime(2026, 11, 28, 10, 0, tzinfo=JST))
    with open_store(regulation, tmp_path, clock) as store:
        today = store.create_event("2026-11-28")  # made by hand before the first record
        store.create_event("ほかの大会")
        assert store.current_event() == today
        assert len(store.events()) == 2
        clock.now += timedelta(days=1)
        assert store.current_event() == today  # chosen once, kept the next day


def test_each_log_names_its_own_current_event(regulation: Regulation, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with open_store(regulation, tmp_path / "a") as a, open_store(regulation, tmp_path / "b") as b:
        assert a.current_event().name == b.current_event().name == "2026-11-28"
        # Two devices' events of one day are two events until a merge says otherwise.
        assert a.current_event().id != b.current_event().id
        assert str(uuid.UUID(a.current_event().id)) == a.current_event().id


def test_a_read_only_log_shows_its_newest_event(regulation: Regulation, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    with open_store(regulation, tmp_path / "a") as store:
        store.create_event("春の大会")
        newest = store.create_event("秋の大会")
        store._database.read_only = "a read-only folder"  # as records/opening.py opens it
        assert store.current_event() == newest
        assert len(store.events()) == 2

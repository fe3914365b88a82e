"""Reading records (records/history.py), at the edges mutation testing found untested: an
event's records by round, table and player, the deleted ones apart, a page at a time; the
earlier records of a repeat; and the tardiness entry of a round."""

from __future__ import annotations

import gc
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store, synthetic_export

from records.errors import InvalidInput
from records.exchange import json_bytes, parse_export
from records.model import Player, RepeatCheck
from records.store import LogStore
from regulation.model import Regulation


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


@pytest.fixture
def event_id(store: LogStore) -> str:
    return store.current_event().id


def test_the_deleted_list_holds_only_the_deleted_and_a_table_only_its_own(
    store: LogStore, event_id: str
) -> None:
    kept = store.add_record(event_id, entry("山田", table="12", round_number=2))
    gone = store.add_record(event_id, entry("鈴木", table="7"))
    other = store.add_record(event_id, entry("佐藤", table="7"))
    gone = store.delete_record(gone.id)
    assert store.records(event_id, only_deleted=True) == (gone,)
    assert store.records(event_id) == (other, kept)
    assert store.records(event_id, include_deleted=True) == (other, gone, kept)
    assert store.records(event_id, table="7") == (other,)
    assert store.records(event_id, table="7", include_deleted=True) == (other, gone)
    assert store.records(event_id, table="12") == (kept,)
    assert store.records(event_id, round_number=2) == (kept,)
    assert store.records(event_id, round_number=1, include_deleted=True) == (other, gone)
    assert store.records(event_id, round_number=3) == ()


def test_a_player_is_found_under_every_written_form_and_an_unknown_one_has_nothing(
    store: LogStore, event_id: str
) -> None:
    forms = [store.add_record(event_id, entry(name)) for name in ("山田 太郎", "山田太郎")]
    store.add_record(event_id, entry("鈴木"))
    by_id = [store.add_record(event_id, entry(n, player_id="77")) for n in ("佐藤", "サトウ")]
    assert store.records(event_id, player=Player("山田　太郎")) == tuple(reversed(forms))
    assert store.records(event_id, player_id="77", newest_first=False) == tuple(by_id)
    assert store.records(event_id, player=Player("誰か")) == ()
    assert store.records(event_id, player_id="99") == ()
    # A name with an ID: that ID under any name, not another player of the same name.
    store.add_record(event_id, entry("佐藤", player_id="88"))
    assert store.records(event_id, player=Player("佐藤", "77")) == (by_id[1], by_id[0])
    assert store.check_repeat(event_id, Player("誰か"), "drew-extra-cards").previous == ()


def test_a_page_of_none_or_fewer_is_empty(store: LogStore, event_id: str) -> None:
    saved = [store.add_record(event_id, entry(f"P{n}")) for n in range(3)]
    assert store.records(event_id, limit=0) == ()
    assert store.records(event_id, limit=-1) == ()
    assert store.records(event_id, limit=1) == (saved[-1],)
    assert store.records(event_id, limit=None) == tuple(reversed(saved))


def test_records_read_after_reopening_name_their_players_old_and_new(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path, Clock()) as store:
        event_id = store.current_event().id
        old = store.add_record(event_id, entry("山田", player_id="0001"))
    with open_store(
        regulation, tmp_path, Clock(datetime(2026, 11, 28, 11, 0, tzinfo=JST))
    ) as store:
        # A player written before the log was opened, and one met only now, in one page.
        new = store.add_record(event_id, entry("鈴木"))
        assert store.records(event_id) == (new, old)
        assert [r.player for r in store.records(event_id)] == [
            Player("鈴木"),
            Player("山田", "0001"),
        ]


def test_records_saved_before_venue_sync_have_no_recorder_and_keep_none(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path, Clock()) as store:
        event_id = store.current_event().id
        saved = store.add_record(event_id, entry("山田"))
        path = store.path
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET recorded_judge = NULL, recorded_device = NULL")
    db.close()
    with open_store(
        regulation, tmp_path, Clock(datetime(2026, 11, 28, 11, 0, tzinfo=JST))
    ) as store:
        assert store.record(saved.id) == replace(saved, recorded_by=None)
        edited = store.edit_record(saved.id, entry("山田", note="後から"))
        assert edited.recorded_by is None and store.record(saved.id) == edited
        assert store.delete_record(saved.id).recorded_by is None


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_a_whole_event_leaves_the_garbage_collector_as_it_was(
    regulation: Regulation, tmp_path: Path, enabled: bool
) -> None:
    """Reading thousands of records pauses the collector (for speed) and must hand it back as
    the caller had it: never left off (memory grows), never switched on against a caller."""
    with open_store(regulation, tmp_path, Clock()) as store:
        store.merge(parse_export(json_bytes(synthetic_export(1001)), regulation))
        event = store.event_by_name("合成の大会")
        assert event is not None
        was = gc.isenabled()
        (gc.enable if enabled else gc.disable)()
        try:
            whole = store.records(event.id)
            after_whole = gc.isenabled()
            page = store.records(event.id, limit=1000)
            after_page = gc.isenabled()
        finally:
            (gc.enable if was else gc.disable)()
    assert (len(whole), len(page)) == (1001, 1000)
    assert (after_whole, after_page) == (enabled, enabled)


def test_tardiness_is_worked_out_from_the_arrival_given_or_refused_in_one_line(
    store: LogStore, event_id: str
) -> None:
    at = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
    store.set_round(event_id, 1, at)
    store.set_round(event_id, 2, None)
    arrived = at + timedelta(minutes=12)
    suggestion = store.suggest_tardiness(event_id, 1, arrived)
    assert (suggestion.assembly_at, suggestion.arrived_at) == (at, arrived)
    assert suggestion.infraction_id == "not-seated-10-minutes"
    name = store.event(event_id).name  # type: ignore[union-attr]
    for number in (2, 3):  # a round without an assembly time, and one not set at all
        with pytest.raises(InvalidInput) as caught:
            store.suggest_tardiness(event_id, number, arrived)
        assert (caught.value.field, caught.value.reason) == ("round", "required")
        assert str(caught.value) == f"round {number} of {name!r} has no assembly time"


def test_moving_an_events_records_copies_the_live_ones_only(store: LogStore, event_id: str) -> None:
    shared = store.create_event("共有の大会")
    kept = [store.add_record(event_id, entry(name)) for name in ("山田", "鈴木")]
    store.delete_record(store.add_record(event_id, entry("佐藤")).id)
    report = store.ledger().move_records(event_id, shared.id)
    assert report.added == 2
    moved = store.records(shared.id, newest_first=False, include_deleted=True)
    assert [(r.player, r.created_at, r.deleted) for r in moved] == [
        (r.player, r.created_at, False) for r in kept
    ]
    assert store.records(event_id) == ()


def test_a_repeat_is_found_under_every_form_and_only_before_the_record(
    store: LogStore, event_id: str
) -> None:
    """Late once at assembly under two spellings of one name, then late five minutes: the
    same infraction twice (previous) and one of its section (related), oldest first."""
    tardy, five = "assembly-conditions-not-met", "not-seated-5-minutes"
    a = store.add_record(event_id, entry("山田 太郎", tardy))
    b = store.add_record(event_id, entry("山田太郎", tardy))
    c = store.add_record(event_id, entry("山田　太郎", five))
    check = store.check_repeat(event_id, Player("山田太郎"), tardy)
    assert check == RepeatCheck((a, b), "duel-forfeiture", (c,), False)
    assert store.repeats_of(a) == RepeatCheck((), "duel-forfeiture", (), False)
    assert store.repeats_of(b) == RepeatCheck((a,), "duel-forfeiture", (), False)
    assert store.repeats_of(c) == RepeatCheck((), "match-forfeiture", (a, b), False)
    assert (b.occurrence, c.occurrence) == (2, 1)
    # A tier above the infraction's own already chosen: no suggestion, and it says so.
    chosen = store.add_record(event_id, entry("山田太郎", tardy, tier="match-forfeiture"))
    assert store.repeats_of(chosen) == RepeatCheck((a, b), None, (c,), True)


def test_an_id_tells_two_players_of_one_name_apart_in_a_repeat(
    store: LogStore, event_id: str
) -> None:
    first = store.add_record(event_id, entry("佐藤", player_id="8"))
    assert store.check_repeat(event_id, Player("佐藤", "9"), "drew-extra-cards").previous == ()
    assert store.check_repeat(event_id, Player("佐藤", "8"), "drew-extra-cards").previous == (
        first,
    )
    other = store.add_record(event_id, entry("佐藤", player_id="9"))
    assert store.repeats_of(other).previous == ()


def test_pages_follow_one_another_without_a_gap_or_an_overlap(
    regulation: Regulation, tmp_path: Path
) -> None:
    clock = Clock(step=timedelta(0))  # every record at one instant: the id breaks the tie
    with open_store(regulation, tmp_path, clock) as store:
        event_id = store.current_event().id
        saved = [store.add_record(event_id, entry(f"P{n}")) for n in range(5)]
        for newest_first, expected in ((True, saved[::-1]), (False, saved)):
            first = store.records(event_id, limit=2, newest_first=newest_first)
            rest = store.records(event_id, newest_first=newest_first, after=first[-1])
            assert [*first, *rest] == expected
            assert store.records(event_id, newest_first=newest_first, after=expected[-1]) == ()


def test_a_chosen_tier_above_the_infractions_own_is_said_and_nothing_suggested(
    store: LogStore, event_id: str
) -> None:
    store.add_record(event_id, entry("山田", "drew-extra-cards"))
    for tier, check in (
        ("match-forfeiture", RepeatCheck((), None, (), True)),
        ("caution", RepeatCheck((), "duel-forfeiture", (), False)),
        (None, RepeatCheck((), "duel-forfeiture", (), False)),
    ):
        found = store.check_repeat(event_id, Player("鈴木"), "drew-extra-cards", tier)
        assert found == check, tier


def test_a_record_of_an_infraction_the_guide_no_longer_has_still_shows_its_repeats(
    regulation: Regulation, tmp_path: Path
) -> None:
    """A log kept with an older guide may name an infraction this one does not have: its
    repeats are still found, with nothing suggested and nothing related, never a traceback."""
    with open_store(regulation, tmp_path, Clock()) as store:
        event_id = store.current_event().id
        first, second = (store.add_record(event_id, entry("山田")) for _ in range(2))
        path = store.path
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET infraction = 'retired-infraction'")
    db.close()
    with open_store(regulation, tmp_path, Clock()) as store:
        old, later = (store.record(r.id) for r in (first, second))
        assert later is not None and later.infraction_id == "retired-infraction"
        assert store.repeats_of(later) == RepeatCheck((old,), None, (), False)  # type: ignore[arg-type]

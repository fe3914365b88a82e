"""The penalty log's store: recording, editing, deleting, listing, identity, type-ahead, repeats,
events and rounds — the API the screens call."""

from __future__ import annotations

import threading
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store

from records.errors import InvalidInput
from records.model import Player, RecordInput, Round
from records.paths import DATABASE_NAME, data_dir
from records.store import LogStore
from regulation.model import Regulation


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path, clock: Clock):
    with open_store(regulation, tmp_path, clock) as opened:
        yield opened


@pytest.fixture
def event_id(store: LogStore) -> str:
    return store.current_event().id


# -- recording ---------------------------------------------------------------------------------


def test_added_record_reads_back_with_the_infractions_tier(store: LogStore, event_id: str) -> None:
    saved = store.add_record(
        event_id,
        entry("山田太郎", player_id="0012", round_number=3, table="12", note="2枚"),
    )
    (listed,) = store.records(event_id)
    assert listed == saved
    assert listed.tier_id == "warning"  # drew-extra-cards carries 警告
    assert (listed.round, listed.table, listed.note) == (3, "12", "2枚")
    assert listed.player == Player("山田太郎", "0012")
    assert listed.created_at.utcoffset() == timedelta(hours=9)
    assert listed.created_at == listed.updated_at
    assert not listed.deleted
    assert len(listed.id) == 36


def test_the_judge_may_choose_another_tier(store: LogStore, event_id: str) -> None:
    saved = store.add_record(event_id, entry("佐藤", "drew-extra-cards", tier="caution"))
    assert saved.tier_id == "caution"
    assert store.records(event_id)[0].tier_id == "caution"


def test_records_come_newest_first_for_the_screen_and_oldest_first_for_the_cli(
    store: LogStore, event_id: str
) -> None:
    names = ["A", "B", "C", "D"]
    for name in names:
        store.add_record(event_id, entry(name))
    assert [r.player.name for r in store.records(event_id)] == names[::-1]
    assert [r.player.name for r in store.records(event_id, newest_first=False)] == names
    assert [r.player.name for r in store.records(event_id, limit=2)] == ["D", "C"]


def test_the_log_can_be_read_a_page_at_a_time(store: LogStore, event_id: str, clock: Clock) -> None:
    clock.step = timedelta(0)  # every record at the same instant: pages must still not overlap
    saved = [store.add_record(event_id, entry(f"P{n}", round_number=n % 2 + 1)) for n in range(7)]
    for newest_first in (True, False):
        pages, page = [], store.records(event_id, limit=3, newest_first=newest_first)
        while page:
            pages.append(page)
            page = store.records(event_id, limit=3, newest_first=newest_first, after=page[-1])
        assert [len(p) for p in pages] == [3, 3, 1]
        expected = saved[::-1] if newest_first else saved
        assert [r for p in pages for r in p] == expected
    round_two = store.records(event_id, round_number=2, limit=2)
    rest = store.records(event_id, round_number=2, after=round_two[-1])
    assert [r.player.name for r in (*round_two, *rest)] == ["P5", "P3", "P1"]


def test_records_sort_by_instant_not_by_text_across_utc_offsets(
    regulation: Regulation, tmp_path: Path
) -> None:
    """10:00+09:00 (01:00 UTC) is earlier than 02:00+00:00: the text would sort them wrongly."""
    feed = iter(
        [
            datetime(2026, 11, 28, 10, 0, tzinfo=JST),  # 01:00 UTC
            datetime.fromisoformat("2026-11-28T02:00:00+00:00"),  # later, though "02" < "10"
        ]
    )
    with open_store(regulation, tmp_path) as store:
        event = store.current_event()
        store.clock = lambda: next(feed)
        store.add_record(event.id, entry("first"))
        store.add_record(event.id, entry("second"))
        assert [r.player.name for r in store.records(event.id)] == ["second", "first"]


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        ({"player": Player("   ")}, "player.name", "required"),
        ({"player": Player("x" * 101)}, "player.name", "too_long"),
        ({"player": Player("山田\x00")}, "player.name", "control_character"),
        ({"player": Player("山田", "id\n2")}, "player.id", "control_character"),
        ({"infraction_id": "no-such-infraction"}, "infraction", "unknown_id"),
        ({"tier_id": "yellow-card"}, "tier", "unknown_id"),
        ({"round": 0}, "round", "out_of_range"),
        ({"round": 1000}, "round", "out_of_range"),
        ({"round": True}, "round", "format"),
        ({"table": "x" * 33}, "table", "too_long"),
        ({"note": "a\x07b"}, "note", "control_character"),
    ],
)
def test_invalid_input_is_refused_and_nothing_is_saved(
    store: LogStore, event_id: str, change: dict, field: str, reason: str
) -> None:
    base = {"player": Player("山田"), "infraction_id": "drew-extra-cards"}
    with pytest.raises(InvalidInput) as caught:
        store.add_record(event_id, RecordInput(**{**base, **change}))
    assert (caught.value.field, caught.value.reason) == (field, reason)
    assert "\n" not in str(caught.value)
    assert store.records(event_id, include_deleted=True) == ()


def test_values_are_tidied_but_names_keep_their_line_breaks(store: LogStore, event_id: str) -> None:
    saved = store.add_record(
        event_id,
        RecordInput(
            Player("  山田\r\n太郎 ", "  "), "drew-extra-cards", table="１２", note="  \n "
        ),
    )
    assert saved.player == Player("山田\n太郎", None)  # one kind of line break
    assert saved.table == "12"  # full-width digits folded: one table, one spelling
    assert saved.note is None


def test_unknown_event_is_refused(store: LogStore) -> None:
    with pytest.raises(InvalidInput, match="no event"):
        store.add_record("00000000-0000-0000-0000-000000000000", entry("山田"))


def test_records_survive_closing_and_reopening(regulation: Regulation, tmp_path: Path) -> None:
    with open_store(regulation, tmp_path) as store:
        event = store.current_event()
        saved = store.add_record(event.id, entry("山田", note="メモ"))
    with open_store(regulation, tmp_path) as store:
        assert store.current_event() == event
        assert store.records(event.id) == (saved,)


# -- edit, delete, restore -----------------------------------------------------------------------


def test_edit_replaces_fields_and_moves_updated_at_only(store: LogStore, event_id: str) -> None:
    saved = store.add_record(event_id, entry("山田", round_number=1))
    edited = store.edit_record(saved.id, entry("山田太郎", "looked-at-extra-cards", round_number=2))
    assert edited.id == saved.id
    assert edited.created_at == saved.created_at
    assert edited.updated_at > saved.updated_at
    assert (edited.player.name, edited.infraction_id, edited.round) == (
        "山田太郎",
        "looked-at-extra-cards",
        2,
    )
    assert edited.tier_id == "caution"  # the new infraction's tier, none having been chosen
    assert store.record(saved.id) == edited


def test_an_edit_is_later_even_when_the_device_clock_went_back(
    regulation: Regulation, tmp_path: Path
) -> None:
    clock = Clock()
    with open_store(regulation, tmp_path, clock) as store:
        event_id = store.current_event().id
        saved = store.add_record(event_id, entry("山田"))
        clock.now -= timedelta(hours=1)
        edited = store.edit_record(saved.id, entry("山田", note="後から"))
        assert edited.updated_at > saved.updated_at


def test_delete_leaves_a_tombstone_hidden_from_lists_and_restore_brings_it_back(
    store: LogStore, event_id: str
) -> None:
    saved = store.add_record(event_id, entry("山田"))
    deleted = store.delete_record(saved.id)
    assert deleted.deleted and deleted.updated_at > saved.updated_at
    assert store.records(event_id) == ()
    assert store.records(event_id, include_deleted=True) == (deleted,)
    assert store.record(saved.id) == deleted
    with pytest.raises(InvalidInput, match="deleted"):
        store.edit_record(saved.id, entry("山田"))
    restored = store.restore_record(saved.id)
    assert not restored.deleted and restored.updated_at > deleted.updated_at
    assert store.records(event_id) == (restored,)


def test_unknown_record_ids_are_refused(store: LogStore) -> None:
    for action in (store.delete_record, store.restore_record):
        with pytest.raises(InvalidInput, match="no record"):
            action("nope")


# -- filters and player identity -----------------------------------------------------------------


def test_filter_by_round(store: LogStore, event_id: str) -> None:
    for number in (1, 2, 2, 3):
        store.add_record(event_id, entry(f"R{number}", round_number=number))
    assert [r.round for r in store.records(event_id, round_number=2)] == [2, 2]


def test_width_case_and_space_variants_of_a_name_are_one_player(
    store: LogStore, event_id: str
) -> None:
    for name in ("山田 太郎", "山田　太郎", "山田太郎", "YAMADA", "ｙａｍａｄａ", "Yamada"):
        store.add_record(event_id, entry(name))
    assert len(store.player_history(event_id, Player("山田太郎"))) == 3
    assert len(store.player_history(event_id, Player("yamada"))) == 3


def test_kana_and_long_vowel_variants_stay_different_players(
    store: LogStore, event_id: str
) -> None:
    for name in ("ユキ", "ゆき", "ユーキ"):
        store.add_record(event_id, entry(name))
    for name in ("ユキ", "ゆき", "ユーキ"):
        assert [r.player.name for r in store.player_history(event_id, Player(name))] == [name]


def test_player_ids_tell_apart_two_players_of_the_same_name(store: LogStore, event_id: str) -> None:
    store.add_record(event_id, entry("田中", player_id="111"))
    store.add_record(event_id, entry("田中", player_id="222"))
    store.add_record(event_id, entry("田中ミス", player_id="１１１"))  # typo'd name, same ID
    store.add_record(event_id, entry("田中"))  # no ID: by name
    first = store.player_history(event_id, Player("田中", "111"))
    assert [(r.player.name, r.player.player_id) for r in first] == [
        ("田中", "111"),
        ("田中ミス", "１１１"),
        ("田中", None),
    ]
    by_id = store.records(event_id, player_id="222")
    assert [r.player.player_id for r in by_id] == ["222"]
    by_name = store.records(event_id, player=Player("田中"))
    assert len(by_name) == 3  # every 田中, whatever their ID; not 田中ミス


def test_history_is_per_event_and_oldest_first(store: LogStore, event_id: str) -> None:
    other = store.create_event("別の大会")
    store.add_record(event_id, entry("山田", "drew-extra-cards"))
    store.add_record(other.id, entry("山田", "drew-extra-cards"))
    store.add_record(event_id, entry("山田", "unintentional-slow-play"))
    history = store.player_history(event_id, Player("山田"))
    assert [r.infraction_id for r in history] == ["drew-extra-cards", "unintentional-slow-play"]
    assert store.player_history(event_id, Player("誰か")) == ()


# -- type-ahead ------------------------------------------------------------------------------------


def test_type_ahead_offers_names_by_prefix_in_japanese_and_latin(
    store: LogStore, event_id: str
) -> None:
    players = (("山田 太郎", "0012"), ("山本", None), ("ヤマダ ユキ", None), ("Smith", None))
    for name, player_id in players:
        store.add_record(event_id, entry(name, player_id=player_id))
    names = lambda prefix: {p.name for p in store.recent_players(prefix)}  # noqa: E731
    assert names("山") == {"山田 太郎", "山本"}
    assert names("山田") == {"山田 太郎"}
    assert names("山田太") == {"山田 太郎"}  # typed without the space
    assert names("太郎") == {"山田 太郎"}  # the start of any word
    assert names("やまだ") == {"ヤマダ ユキ"}  # kana folded for suggestions
    assert names("ｓｍ") == {"Smith"}  # width and case
    assert names("001") == {"山田 太郎"}  # player ID
    assert names("%") == set()
    assert names("田") == set()  # not a word start
    assert len(store.recent_players("")) == 4
    assert store.recent_players("", limit=2) == store.recent_players("")[:2]


def test_type_ahead_puts_this_events_players_first_then_the_most_recent(
    store: LogStore, event_id: str
) -> None:
    other = store.create_event("昨日の大会")
    store.add_record(event_id, entry("山田一"))
    store.add_record(other.id, entry("山田二"))
    store.add_record(other.id, entry("山田三"))
    assert [p.name for p in store.recent_players("山田", event_id=event_id)] == [
        "山田一",
        "山田三",
        "山田二",
    ]
    assert store.recent_players("山田")[0].name == "山田三"


# -- repeats ---------------------------------------------------------------------------------------


def test_repeat_check_finds_the_earlier_records_and_names_the_next_tier(
    store: LogStore, event_id: str
) -> None:
    assert not store.check_repeat(event_id, Player("山田"), "drew-extra-cards").is_repeat
    first = store.add_record(event_id, entry("山田", "drew-extra-cards"))
    store.add_record(event_id, entry("山田", "looked-at-extra-cards"))  # another infraction
    store.add_record(event_id, entry("鈴木", "drew-extra-cards"))  # another player
    check = store.check_repeat(event_id, Player("山田 "), "drew-extra-cards")
    assert check.previous == (first,)
    assert check.next_tier_id == "duel-forfeiture"  # one above 警告
    assert check.occurrence == 2
    # The suggestion is one above the infraction's own tier, never above the tier chosen.
    chosen = store.check_repeat(event_id, Player("山田"), "drew-extra-cards", "match-forfeiture")
    assert chosen.next_tier_id is None and chosen.higher_chosen


@pytest.mark.parametrize(
    ("chosen", "suggested", "higher_chosen"),
    [
        ("caution", "duel-forfeiture", False),  # lighter than the infraction's own (B)
        ("warning", "duel-forfeiture", False),  # its own
        ("duel-forfeiture", None, True),  # C chosen: D is never offered (issue 19, item 3)
        ("total-disqualification", None, True),
    ],
)
def test_the_suggestion_is_worked_out_from_the_infraction_not_the_chosen_tier(
    store: LogStore, event_id: str, chosen: str, suggested: str | None, higher_chosen: bool
) -> None:
    first = store.add_record(event_id, entry("山田", "drew-extra-cards"))
    check = store.check_repeat(event_id, Player("山田"), "drew-extra-cards", chosen)
    assert (check.next_tier_id, check.higher_chosen) == (suggested, higher_chosen)
    saved = store.add_record(event_id, entry("山田", "drew-extra-cards", tier=chosen))
    assert store.repeats_of(saved).previous == (first,)
    assert store.repeats_of(saved).next_tier_id == suggested


def test_other_infractions_of_the_same_section_are_related_records(
    store: LogStore, event_id: str
) -> None:
    """Late 3 minutes in one round (assembly condition), 7 in another (5-minute entry): the
    app's own typical situation calls that a repeat; the notice names it, the judge decides."""
    early = store.add_record(event_id, entry("山田", "assembly-conditions-not-met"))
    store.add_record(event_id, entry("山田", "drew-extra-cards"))  # another section
    store.add_record(event_id, entry("鈴木", "assembly-conditions-not-met"))  # another player
    check = store.check_repeat(event_id, Player("山田"), "not-seated-5-minutes")
    assert check.previous == () and not check.is_repeat
    assert check.related == (early,) and check.has_related
    later = store.add_record(event_id, entry("山田", "not-seated-5-minutes"))
    assert store.repeats_of(later).related == (early,)
    assert store.repeats_of(early).related == ()  # only earlier records


def test_a_repeat_is_never_upgraded_by_the_log(store: LogStore, event_id: str) -> None:
    store.add_record(event_id, entry("山田", "drew-extra-cards"))
    second = store.add_record(event_id, entry("山田", "drew-extra-cards"))
    assert second.tier_id == "warning"
    assert store.record(second.id).tier_id == "warning"  # type: ignore[union-attr]


def test_repeats_of_a_saved_record_are_only_the_earlier_ones(
    store: LogStore, event_id: str
) -> None:
    first, second, third = (
        store.add_record(event_id, entry("山田", "drew-extra-cards")) for _ in range(3)
    )
    assert store.repeats_of(first).previous == ()
    assert store.repeats_of(second).previous == (first,)
    assert store.repeats_of(third).previous == (first, second)
    assert store.repeats_of(third).occurrence == 3


def test_deleted_records_and_other_events_are_not_repeats(store: LogStore, event_id: str) -> None:
    other = store.create_event("別の大会")
    store.add_record(other.id, entry("山田", "drew-extra-cards"))
    deleted = store.add_record(event_id, entry("山田", "drew-extra-cards"))
    store.delete_record(deleted.id)
    assert store.check_repeat(event_id, Player("山田"), "drew-extra-cards").previous == ()


def test_no_tier_above_total_disqualification(store: LogStore, event_id: str) -> None:
    check = store.check_repeat(event_id, Player("山田"), "bribery", "total-disqualification")
    assert check.next_tier_id is None


def test_repeat_check_refuses_unknown_ids(store: LogStore, event_id: str) -> None:
    with pytest.raises(InvalidInput):
        store.check_repeat(event_id, Player("山田"), "nope")
    with pytest.raises(InvalidInput):
        store.check_repeat(event_id, Player("山田"), "drew-extra-cards", "nope")


# -- events and rounds -----------------------------------------------------------------------------


def test_current_event_is_created_once_named_by_its_date(store: LogStore, clock: Clock) -> None:
    today = clock.now.date()
    first = store.current_event()
    assert (first.name, first.date) == (today.isoformat(), today)
    assert store.current_event() == first
    assert store.events() == (first,)


def test_events_are_created_renamed_and_chosen(store: LogStore) -> None:
    default = store.current_event()
    created = store.create_event("  地区予選  ", date(2026, 12, 5))
    assert (created.name, created.date) == ("地区予選", date(2026, 12, 5))
    with pytest.raises(InvalidInput, match="already exists"):
        store.create_event("地区予選")
    with pytest.raises(InvalidInput, match="already exists"):
        store.update_event(created.id, default.name, None)
    renamed = store.update_event(created.id, "地区予選 決勝", None)
    assert (renamed.name, renamed.date) == ("地区予選 決勝", None)
    assert store.event_by_name("地区予選 決勝") == renamed
    assert store.current_event() == default
    store.set_current_event(created.id)
    assert store.current_event().id == created.id
    assert [e.name for e in store.events()] == ["地区予選 決勝", default.name]


def test_rounds_carry_optional_assembly_times(store: LogStore, event_id: str) -> None:
    at = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
    event = store.set_rounds(event_id, [Round(1, at), Round(2)])
    assert event.rounds == (Round(1, at), Round(2, None))
    event = store.set_round(event_id, 3, at + timedelta(hours=1))
    event = store.set_round(event_id, 2, at + timedelta(minutes=50))
    assert [(r.number, r.assembly_at) for r in event.rounds] == [
        (1, at),
        (2, at + timedelta(minutes=50)),
        (3, at + timedelta(hours=1)),
    ]
    with pytest.raises(InvalidInput, match="twice"):
        store.set_rounds(event_id, [Round(1), Round(1)])
    with pytest.raises(InvalidInput, match="UTC offset"):
        store.set_round(event_id, 4, datetime(2026, 11, 28, 13, 0))
    assert store.event(event_id).rounds == event.rounds  # type: ignore[union-attr]


def test_tardiness_from_the_rounds_assembly_time(store: LogStore, event_id: str) -> None:
    at = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
    store.set_round(event_id, 1, at)
    suggestion = store.suggest_tardiness(event_id, 1, at + timedelta(minutes=7, seconds=30))
    assert (suggestion.minutes_late, suggestion.infraction_id) == (7, "not-seated-5-minutes")
    with pytest.raises(InvalidInput, match="no assembly time"):
        store.suggest_tardiness(event_id, 2, at)


def test_player_summaries_group_one_player_and_show_the_highest_tier(
    store: LogStore, event_id: str
) -> None:
    store.add_record(event_id, entry("山田", "drew-extra-cards", player_id="7"))
    store.add_record(event_id, entry("山田", "unintentional-slow-play"))  # same, no ID
    store.add_record(event_id, entry("鈴木", "marked-with-pattern"))
    summaries = {s.player.name: s for s in store.player_summaries(event_id)}
    assert set(summaries) == {"山田", "鈴木"}
    assert summaries["山田"].records == 2
    assert (
        summaries["鈴木"].highest_tier_id
        == store.regulation.infraction(  # type: ignore[union-attr]
            "marked-with-pattern"
        ).penalty.id
    )
    assert [s.player.name for s in store.player_summaries(event_id)] == ["鈴木", "山田"]


def test_threads_sharing_one_store_lose_nothing(store: LogStore, event_id: str) -> None:
    saved: list[str] = []

    def worker(number: int) -> None:
        for index in range(20):
            saved.append(store.add_record(event_id, entry(f"T{number}-{index}")).id)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.id for r in store.records(event_id)) == sorted(saved)
    assert len(saved) == 80


# -- where the data lives --------------------------------------------------------------------------


def test_data_directory_per_platform() -> None:
    home = {"HOME": "/home/judge"}
    assert data_dir(home, "linux") == Path("/home/judge/.local/share/ocg-penalty-guide")
    assert data_dir({**home, "XDG_DATA_HOME": "/xdg"}, "linux") == Path("/xdg/ocg-penalty-guide")
    assert data_dir(home, "darwin") == Path(
        "/home/judge/Library/Application Support/ocg-penalty-guide"
    )
    assert data_dir({**home, "APPDATA": "C:/Users/j/AppData/Roaming"}, "win32") == Path(
        "C:/Users/j/AppData/Roaming/ocg-penalty-guide"
    )
    packaged = {**home, "FLET_APP_STORAGE_DATA": "/data/app/data"}
    assert data_dir(packaged, "linux") == Path("/data/app/data")
    chosen = {**packaged, "PENALTY_GUIDE_DATA_DIR": "/tmp/log"}
    assert data_dir(chosen, "linux") == Path("/tmp/log")


def test_open_without_a_path_uses_the_data_directory(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path / "data"))
    with LogStore.open(regulation) as store:
        assert store.path == tmp_path / "data" / DATABASE_NAME
    assert (tmp_path / "data" / DATABASE_NAME).is_file()

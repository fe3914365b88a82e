"""The check of a record that comes from outside this device (records/record_check.py: an
imported file's record, a synced version's body), at the edges mutation testing found untested:
every field read from its own key and checked under its own name (the one line a judge reads
names the field at fault), who recorded it, and the memo of checked values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from records import record_check
from records.errors import InvalidInput
from records.model import Player, RecordedBy
from records.record_check import RecordFields, checked_fields, recorded_by_from
from regulation.model import Regulation

WHERE = "records[7]"


def entry(regulation: Regulation, **changed: Any) -> dict[str, Any]:
    bribery = regulation.infraction("bribery")
    assert bribery is not None
    other = next(t.id for t in regulation.tiers if t.id != bribery.penalty.id)
    found: dict[str, Any] = {
        "round": 4,
        "table": " １２ ",
        "player": {"name": " 山田 ", "id": " A-1 "},
        "infraction": "bribery",
        "tier": other,
        "note": " 一行目\r\n二行目 ",
        "recorded_by": {"judge": " 佐藤 ", "device": " dev-1 "},
        "arrived_at": "2026-11-28T13:06:00+09:00",
        "late_seconds": 366,
        "occurrence": 2,
    }
    found.update(changed)
    return found


def check(regulation: Regulation, found: dict[str, Any]) -> RecordFields:
    return checked_fields(found, found.get("player", {}), WHERE, regulation)


def refusal(regulation: Regulation, **changed: Any) -> tuple[str | None, str, str]:
    with pytest.raises(InvalidInput) as caught:
        check(regulation, entry(regulation, **changed))
    return caught.value.field, caught.value.reason, str(caught.value)


def test_every_field_is_read_from_its_key_and_cleaned(regulation: Regulation) -> None:
    found = entry(regulation)
    assert check(regulation, found) == RecordFields(
        round=4,
        table="12",
        player=Player("山田", "A-1"),
        infraction_id="bribery",
        tier_id=found["tier"],
        note="一行目\n二行目",
        recorded_by=RecordedBy("佐藤", "dev-1"),
        arrived_at=datetime(2026, 11, 28, 13, 6, tzinfo=timezone(timedelta(hours=9))),
        late_seconds=366,
        occurrence=2,
    )


def test_absent_optional_keys_read_as_null(regulation: Regulation) -> None:
    found = {"player": {"name": "山田"}, "infraction": "bribery", "tier": regulation.tiers[0].id}
    fields = check(regulation, found)
    assert fields.player == Player("山田", None)
    assert (fields.round, fields.table, fields.note, fields.recorded_by) == (None,) * 4
    assert (fields.arrived_at, fields.late_seconds, fields.occurrence) == (None,) * 3


@pytest.mark.parametrize(
    ("changed", "field", "reason"),
    [
        ({"round": 0}, "round", "out_of_range"),
        ({"table": "x" * 33}, "table", "too_long"),
        ({"player": {"name": "", "id": None}}, "player.name", "required"),
        ({"player": {"name": "山田", "id": "\x07"}}, "player.id", "control_character"),
        ({"infraction": "nope"}, "infraction", "unknown_id"),
        ({"tier": "nope"}, "tier", "unknown_id"),
        ({"note": "\x00"}, "note", "control_character"),
        ({"recorded_by": "佐藤"}, "recorded_by", "format"),
        ({"recorded_by": {"judge": "x" * 61, "device": "d"}}, "recorded_by.judge", "too_long"),
        ({"recorded_by": {"judge": "佐藤"}}, "recorded_by.device", "required"),
        ({"arrived_at": "noon"}, "arrived_at", "format"),
        ({"late_seconds": -1}, "late_seconds", "format"),
        ({"occurrence": 0}, "occurrence", "format"),
    ],
)
def test_a_refusal_names_the_field_at_fault(
    regulation: Regulation, changed: dict[str, Any], field: str, reason: str
) -> None:
    found, why, message = refusal(regulation, **changed)
    assert (found, why) == (f"{WHERE}.{field}", reason)
    assert message.startswith(f"{WHERE}.{field}: ")


def test_a_refused_value_is_refused_again_under_each_records_name(
    regulation: Regulation,
) -> None:
    """A refusal is never kept: the same bad table on two records names each record."""
    for where in ("records[1]", "records[2]"):
        found = entry(regulation, table="x" * 33)
        with pytest.raises(InvalidInput) as caught:
            checked_fields(found, found["player"], where, regulation)
        assert caught.value.field == f"{where}.table"


def test_values_of_another_type_are_refused_every_time(regulation: Regulation) -> None:
    """Only text and null are kept: a name given as a list is refused, not looked up."""
    for _ in range(2):
        assert refusal(regulation, player={"name": ["山田"], "id": None})[:2] == (
            f"{WHERE}.player.name",
            "format",
        )
        assert refusal(regulation, player={"name": ["山田"], "id": "A-1"})[:2] == (
            f"{WHERE}.player.name",
            "format",
        )
        assert refusal(regulation, table=12)[:2] == (f"{WHERE}.table", "format")


def test_a_value_met_again_gets_the_same_answer(regulation: Regulation) -> None:
    first = check(regulation, entry(regulation))
    again = check(regulation, entry(regulation, round=5))
    assert (again.table, again.player, again.recorded_by) == (
        first.table,
        first.player,
        first.recorded_by,
    )
    other = check(regulation, entry(regulation, table="13", player={"name": "鈴木", "id": None}))
    assert (other.table, other.player) == ("13", Player("鈴木", None))
    same_name = check(regulation, entry(regulation, player={"name": "鈴木", "id": "B-2"}))
    assert same_name.player == Player("鈴木", "B-2")
    # the same device with another judge, the same judge on another device (as written)
    judge = check(regulation, entry(regulation, recorded_by={"judge": "田中", "device": " dev-1 "}))
    assert judge.recorded_by == RecordedBy("田中", "dev-1")
    device = check(
        regulation, entry(regulation, recorded_by={"judge": " 佐藤 ", "device": "dev-2"})
    )
    assert device.recorded_by == RecordedBy("佐藤", "dev-2")


def test_the_memo_of_checked_values_stays_bounded(
    regulation: Regulation, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join of many thousands of records keeps at most _CHECKED_MAX values (8 here)."""
    monkeypatch.setattr(record_check, "_CHECKED", {})
    monkeypatch.setattr(record_check, "_CHECKED_MAX", 8)
    for number in range(20):
        fields = check(regulation, entry(regulation, table=f"T{number}"))
        assert fields.table == f"T{number}"
        assert 1 <= len(record_check._CHECKED) <= 8


def test_who_recorded_it() -> None:
    assert recorded_by_from(None, "r") is None
    assert recorded_by_from({"device": "d"}, "r") == RecordedBy("", "d")
    assert recorded_by_from({"judge": "  ", "device": "d"}, "r") == RecordedBy("", "d")
    assert recorded_by_from({"judge": "j" * 60, "device": "d" * 64}, "r") == RecordedBy(
        "j" * 60, "d" * 64
    )
    with pytest.raises(InvalidInput) as caught:
        recorded_by_from({"judge": "j", "device": "d" * 65}, "r")
    assert (caught.value.field, caught.value.reason) == ("r.device", "too_long")
    with pytest.raises(InvalidInput) as caught:
        recorded_by_from(["j", "d"], "r")
    assert (caught.value.field, str(caught.value)) == ("r", "r: must be an object or null")


def test_a_time_is_kept_as_given(regulation: Regulation) -> None:
    fields = check(regulation, entry(regulation, arrived_at="2026-11-28T04:06:00+00:00"))
    assert fields.arrived_at == datetime(2026, 11, 28, 4, 6, tzinfo=UTC)


def test_a_value_is_never_mistaken_for_another_fields(regulation: Regulation) -> None:
    """The memo keeps each kind of value apart: a player or a judge called "table" on a record
    whose table is "12" is still that person."""
    check(regulation, entry(regulation, table="12"))
    fields = check(
        regulation,
        entry(
            regulation,
            table="12",
            player={"name": "table", "id": "12"},
            recorded_by={"judge": "table", "device": "12"},
        ),
    )
    assert (fields.table, fields.player, fields.recorded_by) == (
        "12",
        Player("table", "12"),
        RecordedBy("table", "12"),
    )

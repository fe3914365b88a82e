"""The match-slip line: what a judge writes on the slip, in Japanese and English."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from records.model import Player, Record
from records.slip import ordinal, slip_line
from regulation.model import Regulation

AT = datetime(2026, 11, 28, 13, 5, tzinfo=timezone(timedelta(hours=9)))


def record(**fields: object) -> Record:
    values: dict[str, object] = {
        "id": "5f0c0c8e-1111-4c1e-9f4e-000000000001",
        "event_id": "e",
        "created_at": AT,
        "updated_at": AT,
        "round": 3,
        "table": "12",
        "player": Player("山田太郎", "0012"),
        "infraction_id": "drew-extra-cards",
        "tier_id": "warning",
        "note": "メモは書かない",
    }
    values.update(fields)
    return Record(**values)  # type: ignore[arg-type]


def test_full_line_in_both_languages(regulation: Regulation) -> None:
    assert slip_line(record(), regulation, "ja") == (
        "3回戦 12卓 山田太郎（ID 0012） 警告：故意ではなく、過剰にカードを引いた"
    )
    assert slip_line(record(), regulation, "en") == (
        "R3 T12 山田太郎 (ID 0012) Warning: Unintentionally drew extra cards"
    )


def test_the_recorded_tier_is_shown_not_the_infractions(regulation: Regulation) -> None:
    upgraded = record(tier_id="duel-forfeiture")
    assert "デュエルの敗北：" in slip_line(upgraded, regulation, "ja")
    assert "Duel Forfeiture:" in slip_line(upgraded, regulation, "en")


def test_missing_round_table_and_id_are_left_out(regulation: Regulation) -> None:
    bare = record(round=None, table=None, player=Player("Smith"))
    assert slip_line(bare, regulation, "ja") == "Smith 警告：故意ではなく、過剰にカードを引いた"
    assert slip_line(bare, regulation, "en") == "Smith Warning: Unintentionally drew extra cards"


def test_repeat_mark_and_one_line_whatever_the_name_holds(regulation: Regulation) -> None:
    odd = record(player=Player("山田\n太郎", None), table="A-3")
    ja = slip_line(odd, regulation, "ja", occurrence=2)
    en = slip_line(odd, regulation, "en", occurrence=3)
    assert ja == "3回戦 A-3卓 山田 太郎 警告：故意ではなく、過剰にカードを引いた（同一違反2回目）"
    assert en == "R3 Table A-3 山田 太郎 Warning: Unintentionally drew extra cards (3rd time)"
    assert "\n" not in ja + en


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
        (10, "10th"),
        (20, "20th"),
        (23, "23rd"),
        (112, "112th"),
        (121, "121st"),
        (1011, "1011th"),
        (1021, "1021st"),
    ],
)
def test_ordinals(number: int, text: str) -> None:
    assert ordinal(number) == text


def test_a_title_that_names_only_its_case_carries_its_section(regulation: Regulation) -> None:
    """規則性がない場合 alone says nothing on a match slip: the section comes first."""
    section = regulation.section("marked-cards")
    marked = record(infraction_id="marked-no-pattern", tier_id="caution")
    ja, en = slip_line(marked, regulation, "ja"), slip_line(marked, regulation, "en")
    assert f"{section.title.ja}：規則性がない場合" in ja
    assert f"{section.title.en}: when there is no pattern" in en
    plain = slip_line(record(), regulation, "ja")
    assert "ルールに関する違反" not in plain  # a title that says it all stands alone


def test_a_tardiness_says_how_late_the_player_was(regulation: Regulation) -> None:
    late = record(
        infraction_id="not-seated-5-minutes",
        tier_id="duel-forfeiture",
        arrived_at=AT,
        late_seconds=8 * 60 + 26,
    )
    assert slip_line(late, regulation, "ja").endswith("（8分26秒の遅刻）")
    assert slip_line(late, regulation, "en").endswith(" (8 min 26 s late)")
    assert slip_line(late, regulation, "en", 2).endswith(" (8 min 26 s late) (2nd time)")
    on_the_minute = record(late_seconds=300)
    assert slip_line(on_the_minute, regulation, "ja").endswith("（5分0秒の遅刻）")
    assert "遅刻" not in slip_line(record(), regulation, "ja")


def suzuki(**fields: object) -> Record:
    """鈴木 of table 7 in round 2, no ID."""
    return record(**{"round": 2, "table": "7", "player": Player("鈴木", None), **fields})


def test_a_slip_names_an_infraction_or_tier_the_guide_no_longer_knows_by_its_id(
    regulation: Regulation,
) -> None:
    gone = suzuki(infraction_id="retired-infraction", tier_id="retired-tier")
    assert slip_line(gone, regulation, "ja") == "2回戦 7卓 鈴木 retired-tier：retired-infraction"
    assert slip_line(gone, regulation, "en") == "R2 T7 鈴木 retired-tier: retired-infraction"


def test_a_first_offence_has_no_repeat_mark_and_a_lettered_table_is_spelt_out(
    regulation: Regulation,
) -> None:
    first = suzuki(table="B 4", round=None)
    for occurrence in ((), (1,)):
        assert slip_line(first, regulation, "ja", *occurrence) == (
            "B 4卓 鈴木 警告：故意ではなく、過剰にカードを引いた"
        )
        assert slip_line(first, regulation, "en", *occurrence) == (
            "Table B 4 鈴木 Warning: Unintentionally drew extra cards"
        )
    assert slip_line(suzuki(), regulation, "en", 12).endswith(" (12th time)")
    assert slip_line(suzuki(), regulation, "ja", 12).endswith("（同一違反12回目）")


def test_a_late_players_slip_keeps_the_whole_line_before_how_late(
    regulation: Regulation,
) -> None:
    late = suzuki(
        infraction_id="not-seated-5-minutes",
        tier_id="duel-forfeiture",
        arrived_at=AT,
        late_seconds=6 * 60 + 5,
        player=Player("鈴木", "0099"),
    )
    assert slip_line(late, regulation, "ja", 2) == (
        "2回戦 7卓 鈴木（ID 0099） デュエルの敗北："
        "指定の集合時間後5分経過しても、自分の席についていなかった（6分5秒の遅刻）（同一違反2回目）"
    )
    assert slip_line(late, regulation, "en", 2) == (
        "R2 T7 鈴木 (ID 0099) Duel Forfeiture: Was still not in their seat 5 minutes after the"
        " designated assembly time (6 min 5 s late) (2nd time)"
    )

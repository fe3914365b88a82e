"""Who a record is about (records/identity.py), at the edges mutation testing found untested:
the first and last code point of each range of invisible characters, an ID that is only
invisible, the rule when one side has an ID and the other not, and the type-ahead keys."""

from __future__ import annotations

import pytest

from records.identity import (
    id_key,
    invisible,
    name_key,
    same_player,
    search_compact,
    search_words,
    visible,
)

# Default ignorables outside category Cf: the first and the last of each of their ranges
# (Unicode's DerivedCoreProperties.txt), and a visible neighbour just outside each range.
IGNORABLE_EDGES = (
    "\u034f",
    "\u115f",
    "\u1160",
    "\u17b4",
    "\u17b5",
    "\u180b",
    "\u180f",
    "\u3164",
    "\ufe00",
    "\ufe0f",
    "\uffa0",
    "\ufff0",
    "\ufff8",
    "\U000e0000",
    "\U000e0fff",
)
VISIBLE_NEIGHBOURS = (
    "\u034e",
    "\u0350",
    "\u115e",
    "\u1161",
    "\u17b3",
    "\u17b6",
    "\u3165",
    "\ufe10",
)


@pytest.mark.parametrize("char", IGNORABLE_EDGES, ids=lambda c: f"U+{ord(c):04X}")
def test_each_end_of_every_ignorable_range_is_invisible(char: str) -> None:
    assert invisible(char)
    assert visible(f"山{char}田") == "山田"
    assert name_key(f"山{char}田 太郎") == name_key("山田太郎")


@pytest.mark.parametrize("char", VISIBLE_NEIGHBOURS, ids=lambda c: f"U+{ord(c):04X}")
def test_the_characters_beside_a_range_still_count(char: str) -> None:
    assert not invisible(char)
    assert visible(f"山{char}田") == f"山{char}田"
    assert name_key(f"山{char}田") != name_key("山田")


def test_format_characters_are_invisible_and_letters_are_not() -> None:
    assert invisible("\u200b") and invisible("\ufeff") and invisible("\u00ad")
    assert not invisible("山") and not invisible("a") and not invisible(" ")


def test_a_name_key_folds_width_case_and_spaces_only() -> None:
    assert name_key("ＹＡＭＡＤＡ　Taro") == name_key("yamada taro") == "yamadataro"
    assert name_key(" 山田\t太郎 ") == "山田太郎"
    assert name_key("ユキ") != name_key("ゆき")  # kana are not folded for identity
    assert name_key("Straße") == name_key("STRASSE")  # case folding, not lower()


def test_an_id_key_is_none_without_an_id_or_with_an_invisible_one() -> None:
    assert id_key(None) is None
    assert id_key("") is None
    assert id_key("\u200b\ufe0f") is None
    assert id_key(" ＡＢ 12\u200b ") == "ab12"


def test_ids_decide_when_both_records_have_one() -> None:
    assert same_player("山田太郎", "A-1", "山田花子", "a-1")  # misspelt name, one player
    assert not same_player("田中", "A-1", "田中", "A-2")  # two 田中
    # the same name and ID written in different widths and cases
    assert same_player("ＴＡＮＡＫＡ", "ａ-１", "tanaka", "A-1")


@pytest.mark.parametrize("ids", [("A-1", None), (None, "A-1"), (None, None), ("\u200b", "A-1")])
def test_the_names_decide_when_either_record_has_no_id(ids: tuple[str | None, str | None]) -> None:
    first, second = ids
    assert same_player("山田 太郎", first, "山田太郎", second)
    assert not same_player("山田太郎", first, "山田花子", second)


def test_type_ahead_keys_are_folded_words_and_a_compact_form() -> None:
    assert search_words("ヤマダ タロウ") == " やまだ たろう"
    assert search_words("Yamada  TARO") == " yamada taro"
    assert search_words("") == ""
    assert search_compact("ヤマダ タロウ") == "やまだたろう"
    assert search_compact("ＹＡＭＡＤＡ Taro") == "yamadataro"

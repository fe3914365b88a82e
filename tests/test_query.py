"""Query parsing: a judge's raw query → the terms the index looks up (regulation/query.py)."""

from __future__ import annotations

import pytest

from regulation.query import parse


def terms(query: str) -> list[tuple[str, bool, str, str]]:
    """(folded text, is a Latin word, kanji core, as typed) of each term."""
    return [(t.text, t.is_word, t.core, t.typed) for t in parse(query).terms]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # Japanese typed without spaces is cut where the script changes…
        ("わざと手札公開", [("わざと", False, "", "わざと"), ("手札公開", False, "", "手札公開")]),
        ("スリーブに傷", [("すりぶ", False, "", "スリーブ"), ("傷", False, "", "傷")]),
        ("を引いた", [("引いた", False, "引", "引いた")]),  # a lone particle is filler
        # …but not between digits and their counter, nor before okurigana.
        ("39枚", [("39枚", False, "", "39枚")]),
        ("手札公開", [("手札公開", False, "", "手札公開")]),
        ("引きすぎた", [("引きすぎた", False, "引", "引きすぎた")]),
        # A particle at the end goes, unless the word is a short kana word.
        ("罰則を", [("罰則", False, "", "罰則")]),
        ("わざと", [("わざと", False, "", "わざと")]),
        # Latin in a Japanese run is a word of its own, as typed.
        ("DQに", [("dq", True, "", "DQ")]),
        ("drew ｶｰﾄﾞ引きすぎた", [
            ("drew", True, "", "drew"),
            ("かど", False, "", "ｶｰﾄﾞ"),
            ("引きすぎた", False, "引", "引きすぎた"),
        ]),
        # A word typed in kana has the kana before its verb ending as its core.
        ("ちこくした", [("ちこくした", False, "ちこく", "ちこくした")]),
        ("ずるした", [("ずるした", False, "ずる", "ずるした")]),
        ("かした", [("かした", False, "", "かした")]),  # one kana is no core
        # Other scripts are cut off from Japanese, but not from each other.
        ("カードαβ", [("かど", False, "", "カード"), ("αβ", False, "", "αβ")]),
        ("α", [("α", False, "", "α")]),
        # A run that is neither Japanese nor one word gives its Latin words.
        ("dqŉ", [("dq", True, "", "dq"), ("n", True, "", "ŉ")]),
        ("ab dqŉ cd", [
            ("ab", True, "", "ab"),
            ("dq", True, "", "dq"),
            ("n", True, "", "ŉ"),
            ("cd", True, "", "cd"),
        ]),
    ],
)  # fmt: skip
def test_terms(query: str, expected: list[tuple[str, bool, str, str]]) -> None:
    assert terms(query) == expected


@pytest.mark.parametrize(
    ("typed", "same_as"),
    [
        ("ｶｰﾄﾞをひいた", "カードをひいた"),  # half-width katakana is katakana
        ("㍻年", "平成年"),  # a sign for several characters has the script of its first
    ],
)
def test_a_character_has_the_script_of_its_normal_form(typed: str, same_as: str) -> None:
    assert [term[:3] for term in terms(typed)] == [term[:3] for term in terms(same_as)]


def test_phrases_and_word_pairs_are_kept_for_the_bonuses() -> None:
    japanese = parse("わざと手札公開 罰則")
    assert japanese.phrases == ("わざと手札公開",) and japanese.word_pairs == ()
    english = parse("Check in late")
    assert english.word_pairs == ("check in", "in lat") and english.phrases == ()  # stems
    assert english.whole == "check in late"
    # A pair is two Latin words side by side, never a word and a Japanese run.
    assert parse("late 遅刻 drew cards").word_pairs == ("draw card",)  # stems

"""Reading intent and quantities from a query, and the tables they are read against."""

from __future__ import annotations

import re

import pytest

from regulation.cues import (
    DELIBERATE_FORM,
    INTENT_WORDS,
    THRESHOLDS,
    Quantity,
    intent_of,
    read_cues,
)
from regulation.model import Regulation
from regulation.normalize import fold


def quantities(query: str) -> set[Quantity]:
    return set(read_cues(fold(query)).quantities)


@pytest.mark.parametrize(
    ("query", "kind", "value"),
    [
        ("12分遅刻", "minutes", 12),
        ("１２分遅刻", "minutes", 12),  # full-width digits
        ("七分遅刻", "minutes", 7),  # kanji numerals
        ("十二分遅れ", "minutes", 12),
        ("二十分", "minutes", 20),
        ("十分遅刻", "minutes", 10),
        ("十五分", "minutes", 15),
        ("二十五分", "minutes", 25),
        ("一〇分", "minutes", 10),  # digit by digit
        ("6ふん ちこく", "minutes", 6),  # a unit in hiragana
        ("じゅっぷんちこく", "minutes", 10),  # a number in hiragana too
        ("12 minutes late", "minutes", 12),
        ("late 10 min", "minutes", 10),
        ("seven minutes late", "minutes", 7),
        ("デッキ39枚", "deck_size", 39),
        ("41 cards", "deck_size", 41),
        ("4枚目", "copies", 4),
        ("fourth copy", "copies", 4),
        ("4 copies", "copies", 4),
        ("4積み", "copies", 4),
        ("メインに3枚サイドに1枚", "copies", 4),  # copies in two places add up
        ("よんまい", "copies", 4),
        ("3枚1枚", "copies", 4),  # back to back
        ("デッキに4枚目、サイドに1枚", "copies", 5),
        ("10枚", "deck_size", 10),  # from ten cards a count is a deck's size…
        ("9枚", "copies", 9),  # …below, copies
        ("5分遅刻、12分後に着席", "minutes", 12),  # of two times the latest counts
        ("12分、5分", "minutes", 12),
    ],
)
def test_quantities(query: str, kind: str, value: int) -> None:
    assert quantities(query) == {Quantity.exactly(kind, value)}  # type: ignore[arg-type]


def test_of_two_deck_sizes_the_smallest_counts() -> None:
    assert quantities("デッキが41枚でリストは40枚") == {Quantity.exactly("deck_size", 40)}


@pytest.mark.parametrize("query", ["自分の席", "a card", "cards", "ID 12345", "分かった"])
def test_no_quantity_without_a_number_and_a_unit(query: str) -> None:
    assert quantities(query) == set()


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("わざと多く引いた", "deliberate"),
        ("こっそり墓地から戻した", "deliberate"),
        ("故意に見せた", "deliberate"),
        ("sneaking a card back", "deliberate"),
        ("drew extra on purpose", "deliberate"),
        ("Deliberately stalling", "deliberate"),
        ("うっかり多く引いた", "accidental"),
        ("間違えて2枚めくった", "accidental"),
        ("故意ではなく", "accidental"),  # read before 故意
        ("by accident", "accidental"),
        ("not on purpose", "accidental"),  # read before "on purpose"
        ("mistakenly drew", "accidental"),
        ("drew two cards", None),
        ("purposeful", None),  # a word that only starts like one
    ],
)
def test_intent(query: str, intent: str | None) -> None:
    assert read_cues(fold(query)).intent == intent


def test_intent_words_are_where_the_query_says_them() -> None:
    folded = fold("わざと多く引いた")
    assert [folded[a:b] for a, b in read_cues(folded).spans] == ["わざと"]


def test_entries_intent_is_the_regulation_wording(regulation: Regulation) -> None:
    intents = {i.id: intent_of(i.title.ja) for i in regulation.infractions}
    assert intents["drew-extra-cards"] == "accidental"
    assert intents["broke-rules-on-purpose"] == "deliberate"
    assert intents["deck-under-40-cards"] is None
    for accidental, deliberate in DELIBERATE_FORM.items():
        assert (intents[accidental], intents[deliberate]) == ("accidental", "deliberate")


def test_thresholds_are_the_regulation_numbers(regulation: Regulation) -> None:
    """Each bound of the table is printed in its entry's title (5分, 10分, 40枚, 4枚)."""
    units = {"minutes": "分", "deck_size": "枚", "copies": "枚"}
    for threshold in THRESHOLDS:
        infraction = regulation.infraction(threshold.entry_id)
        assert infraction is not None, threshold.entry_id
        numbers = {
            int(n) for n in re.findall(rf"(\d+){units[threshold.kind]}", infraction.title.ja)
        }
        bounds = {threshold.low, threshold.high} - {0, None}
        if threshold.entry_id == "assembly-conditions-not-met":
            assert bounds == {5} and "集合時間" in infraction.title.ja  # below the first bound
        else:
            assert bounds & numbers, (threshold, infraction.title.ja)


def test_every_intent_word_is_read_as_its_intent() -> None:
    for intent, words in INTENT_WORDS.items():
        for word in words:
            assert read_cues(fold(word)).intent == intent, word


@pytest.mark.parametrize(
    ("query", "question"),
    [
        ("デュエルとデュエルの間に違反したらどうなる？", True),
        ("失格でも賞品はもらえる？", True),
        ("what happens if it happens between duels", True),
        ("does a disqualified player keep prizes", True),
        ("デッキが39枚しかない", False),
        ("drew two cards", False),
        ("player is just slow", False),  # "is" is a question only at the start
    ],
)
def test_a_question_is_read(query: str, question: bool) -> None:
    assert read_cues(fold(query)).question is question


@pytest.mark.parametrize(
    ("query", "looking"),
    [
        ("相手が自分の手札をのぞき見してきた", True),
        ("対戦相手に手札を覗かれた", True),
        ("opponent peeked at my hand", True),
        ("手札をわざと相手に見せた", False),
        ("showed his hand to the opponent on purpose", False),
    ],
)
def test_looking_at_someone_elses_cards_is_read(query: str, looking: bool) -> None:
    assert read_cues(fold(query)).looking is looking

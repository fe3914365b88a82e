"""A head judge's review of the app's own judging content (issue 19, items 5–9): situations,
the finder and aliases that would lead a judge astray, each as a class of fault."""

from __future__ import annotations

import re

import pytest

from regulation.finder import Finder, FinderNode
from regulation.loader import english_catalog
from regulation.model import Regulation, Text
from views import strings as S

# A player is "they" in the regulation's English; the app's own English says it the same way.
GENDERED = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)


def finder_texts(finder: Finder) -> list[Text]:
    return [
        text
        for node in finder.nodes()
        for text in (node.question, *(option.label for option in node.options))
    ]


def situations(regulation: Regulation) -> list[tuple[str, Text]]:
    return [
        (entry.id, situation)
        for entry in (*regulation.infractions, *regulation.principles)
        for situation in entry.situations
    ]


def test_the_apps_english_says_they_of_a_player(regulation: Regulation, finder: Finder) -> None:
    texts = [text for _, text in situations(regulation)] + finder_texts(finder)
    gendered = [text.en for text in texts if GENDERED.search(text.en)]
    assert not gendered


def test_the_unintentional_slow_play_example_is_not_the_intentional_wording(
    regulation: Regulation,
) -> None:
    """「次の行動を長く考え込み」 is one move; "each move" is the intentional example's 一手一手."""
    slow = regulation.infraction("unintentional-slow-play")
    assert slow is not None
    english = {s.ja: s.en for s in slow.situations}
    assert english["次の行動を長く考え込み、デュエルが進まない"].startswith(
        "Takes a long time over the next move"
    )
    assert not any("each move" in text for text in english.values())


def test_tardy_suggestion_reads_as_minutes_late() -> None:
    assert english_catalog().text(S.TARDY_SUGGESTED).en == "Infraction for minutes late:"


# -- item 7: the assembly condition's situations ---------------------------------------------


def test_every_assembly_condition_situation_states_the_condition_and_the_time_limit(
    regulation: Regulation,
) -> None:
    """Still not seated at 5:00 is the 5-minute entry, and under 5 minutes is an infraction only
    where the event's assembly condition says so: every situation says both."""
    entry = regulation.infraction("assembly-conditions-not-met")
    assert entry is not None
    for situation in entry.situations:
        assert "条件の大会" in situation.ja and "5分たつ前" in situation.ja, situation.ja
        assert "condition" in situation.en and "5 minutes" in situation.en, situation.en


# -- item 5: a concession is not an infraction ------------------------------------------------


def test_no_situation_of_an_agreed_result_reads_as_a_plain_concession(
    regulation: Regulation,
) -> None:
    entry = regulation.infraction("decided-without-playing")
    assert entry is not None
    texts = [s.ja for s in entry.situations]
    assert "相談して、片方が勝ったことにした" not in texts
    assert "投了ではなく、話し合いで決めた結果を報告した" in texts


# -- item 6: the finder's words --------------------------------------------------------------


def question_leading_to(finder: Finder, entry_id: str) -> list[tuple[FinderNode, Text]]:
    return [
        (node, option.label)
        for node in finder.nodes()
        for option in node.options
        if option.result is not None and option.result.id == entry_id
    ]


def test_the_side_deck_is_never_said_of_the_forty_card_minimum(finder: Finder) -> None:
    for node, label in question_leading_to(finder, "deck-under-40-cards"):
        assert "サイドデッキを含む" not in node.question.ja + label.ja
        assert "Side Deck" not in node.question.en + label.en


def test_every_answer_of_a_side_deck_entry_says_the_side_deck_counts(finder: Finder) -> None:
    for entry_id in ("four-or-more-copies", "unusable-card", "over-forbidden-limited"):
        for node, label in question_leading_to(finder, entry_id):
            assert "サイドデッキを含む" in node.question.ja + label.ja, entry_id
            assert "Side Deck" in node.question.en + label.en, entry_id


def test_the_deck_list_answer_keeps_its_condition(finder: Finder) -> None:
    """デッキリストの提出を義務づける大会において: no deck list required, no infraction."""
    answers = question_leading_to(finder, "deck-list-mismatch")
    assert answers
    for _, label in answers:
        assert "義務" in label.ja and "requires deck lists" in label.en


def test_an_accidental_flash_leads_to_the_judges_discretion(finder: Finder) -> None:
    labels = [label.ja for _, label in question_leading_to(finder, "judge-discretion")]
    assert any("うっかり" in label and "見せ" in label for label in labels), labels


def test_a_partly_played_match_reaches_the_random_decision(finder: Finder) -> None:
    """対戦を行わず covers the rest of a match decided by a coin toss: the question says so."""
    (node, _), *_ = question_leading_to(finder, "random-decision")
    assert "続き" in node.question.ja and "rest of it" in node.question.en


# -- item 8: aliases that mislead -----------------------------------------------------------


@pytest.mark.parametrize(
    ("entry_id", "misleading"),
    [
        ("withdrew-on-purpose", {"ドロップ", "drop", "dropping", "dropped out"}),
        ("caution", {"verbal warning"}),
        ("disqualification", {"退場"}),
    ],
)
def test_no_alias_names_what_is_not_the_entry(
    regulation: Regulation, entry_id: str, misleading: set[str]
) -> None:
    """A proper drop is no infraction; "verbal warning" says 警告; 退場 is not 失格."""
    entry = regulation.entry(entry_id)
    assert entry is not None
    assert not misleading & set(entry.aliases.all())


def test_marking_cards_on_purpose_also_leads_to_cheating(regulation: Regulation) -> None:
    """ガン付け is marking cards deliberately: a pattern, and a deliberate rule violation."""
    for entry_id in ("marked-with-pattern", "broke-rules-on-purpose"):
        entry = regulation.entry(entry_id)
        assert entry is not None and "ガン付け" in entry.aliases.all(), entry_id


@pytest.mark.parametrize(
    ("node_id", "answer"),
    [
        ("result-without-playing", "見返りなしに、片方が投了した"),
        ("time-late", "5分未満で、大会の集合条件には反していない"),
    ],
)
def test_the_finder_has_an_answer_that_is_no_infraction(
    finder: Finder, node_id: str, answer: str
) -> None:
    """A plain concession, and under 5 minutes late where the event's condition is met: a judge
    following the finder must not land on an infraction for them (issue 19, items 5, 6)."""
    node = finder.node(node_id)
    assert node is not None
    (option,) = [o for o in node.options if o.label.ja == answer]
    assert option.none is not None and option.result is None and option.next is None
    assert "違反にもあたりません" in option.none.text.ja
    assert "no infraction" in option.none.text.en

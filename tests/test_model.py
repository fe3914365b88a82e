"""The model's own rules: the language of a Text, and the regulation's look-ups and groupings."""

from __future__ import annotations

from regulation.model import Regulation, Text


def test_a_text_in_one_language_or_both() -> None:
    text = Text("注意", "Caution")
    assert [text.pick(lang) for lang in ("ja", "en", "both")] == ["注意", "Caution", "注意"]
    assert text["en"] == "Caution"
    assert text.shown("ja") == "注意" and text.shown("en") == "Caution"
    assert text.shown("both") == "注意 / Caution"
    assert Text("DQ", "DQ").shown("both") == "DQ"  # once when both are the same
    assert Text("{n}件", "{n} items").format(n=3) == Text("3件", "3 items")
    assert text.as_dict() == {"ja": "注意", "en": "Caution"}


def test_look_ups_find_only_their_own_kind(regulation: Regulation) -> None:
    """An id names one thing: tier() never answers with an infraction, entry() (tiers,
    principles, infractions: what a route or a bookmark names) never with a category."""
    groups = {
        "tier": regulation.tiers,
        "principle": regulation.principles,
        "category": regulation.categories,
        "section": regulation.sections,
        "infraction": regulation.infractions,
    }
    for kind in groups:
        look_up = getattr(regulation, kind)
        for other, items in groups.items():
            for item in items:
                assert look_up(item.id) is (item if other == kind else None), (kind, item.id)
        assert look_up("no-such-id") is None
    for other, items in groups.items():
        for item in items:
            expected = None if other in ("category", "section") else item
            assert regulation.entry(item.id) is expected, item.id
    assert regulation.entry("no-such-id") is None
    assert regulation.sections_in_category("no-such-id") == ()


def test_groupings_follow_the_data(regulation: Regulation) -> None:
    assert [tier.severity for tier in regulation.tiers] == [0, 1, 2, 3, 4, 5]  # A … F
    assert [tier.letter for tier in regulation.tiers] == list("ABCDEF")
    for tier in regulation.tiers:
        listed = regulation.infractions_with_penalty(tier.id)
        assert listed == tuple(i for i in regulation.infractions if i.penalty is tier)
    assert sum(len(regulation.infractions_with_penalty(t.id)) for t in regulation.tiers) == 28
    assert len(regulation.infractions_with_penalty("warning")) > 0
    for category in regulation.categories:
        sections = regulation.sections_in_category(category.id)
        assert [s.id for s in sections] == list(category.section_ids)
        for section in sections:
            assert regulation.category_of(section) is category
            members = regulation.infractions_in_section(section.id)
            assert members and all(i.section_id == section.id for i in members)
    drew = regulation.infraction("drew-extra-cards")
    assert drew is not None
    assert regulation.penalty_line(drew, "ja") == "罰則：警告"
    assert regulation.penalty_line(drew, "en") == "Penalty: Warning"


def test_a_title_that_names_only_a_case_stands_alone_with_its_section(
    regulation: Regulation,
) -> None:
    """規則性がない場合 alone means nothing in a log row or on a slip: its section goes first."""
    pattern = regulation.infraction("marked-with-pattern")
    no_pattern = regulation.infraction("marked-no-pattern")
    assert pattern is not None and no_pattern is not None
    assert regulation.standalone_title(pattern) == Text(
        "裏の状態で区別のつくカードの使用：規則性がある場合",
        "Using Cards Distinguishable Face-Down (Marked Cards): when there is a pattern",
    )
    assert regulation.standalone_title(no_pattern).en.endswith(": when there is no pattern")
    # Every other title already says what happened, and stands as it is.
    others = [i for i in regulation.infractions if i.section_id != "marked-cards"]
    assert len(others) == len(regulation.infractions) - 2
    assert all(regulation.standalone_title(i) is i.title for i in others)


def test_sections_and_infractions_are_numbered_in_document_order(regulation: Regulation) -> None:
    assert [s.number for s in regulation.sections] == list(range(1, len(regulation.sections) + 1))
    assert [i.number for i in regulation.infractions] == list(
        range(1, len(regulation.infractions) + 1)
    )
    assert regulation.sections[0].id == "deck-violations"
    assert regulation.infractions[0].id == "deck-under-40-cards"

"""Intent (issue 19, item 2): the entries the source makes deliberate, their situations, and what
an honest mistake finds."""

from __future__ import annotations

import pytest

from regulation.cues import (
    DELIBERATE_FORM,
    DELIBERATE_IN_TITLE,
    HONEST_ERROR_ENTRY,
    intent_of,
    read_cues,
)
from regulation.model import Regulation
from regulation.normalize import fold
from regulation.search import SearchIndex


def deliberate_entries(regulation: Regulation) -> list[str]:
    return [i.id for i in regulation.infractions if intent_of(i.title.ja) == "deliberate"]


def test_every_entry_the_source_makes_deliberate_is_deliberate(regulation: Regulation) -> None:
    ids = deliberate_entries(regulation)
    # 偽って, なりすまし and 約束し make an act deliberate as surely as 故意に does.
    for entry_id in (
        "false-result-report",
        "impersonated-to-report",
        "impersonated-to-play",
        "bribery",
    ):
        assert entry_id in ids
    for infraction in regulation.infractions:
        says = any(word in infraction.title.ja for word in DELIBERATE_IN_TITLE)
        accidental = infraction.title.ja.startswith("故意ではなく")
        assert (infraction.id in ids) == (says and not accidental), infraction.id


def test_every_situation_of_a_deliberate_entry_states_the_intent(regulation: Regulation) -> None:
    """A situation without an intent word would lead a judge from an honest mistake to a
    deliberate entry (「結果用紙に、実際と違うスコアを書いた」 → Total Disqualification)."""
    missing = [
        (infraction.id, text)
        for infraction in regulation.infractions
        if intent_of(infraction.title.ja) == "deliberate"
        for situation in infraction.situations
        for text in (situation.ja, situation.en)
        if read_cues(fold(text)).intent != "deliberate"
    ]
    assert not missing


def test_no_situation_of_an_accidental_entry_states_intent(regulation: Regulation) -> None:
    wrong = [
        (infraction.id, text)
        for infraction in regulation.infractions
        if intent_of(infraction.title.ja) == "accidental"
        for situation in infraction.situations
        for text in (situation.ja, situation.en)
        if read_cues(fold(text)).intent == "deliberate"
    ]
    assert not wrong


@pytest.mark.parametrize(
    "query",
    [
        "結果を間違えて書いた",
        "うっかり違う結果を報告した",
        "wrong result reported by mistake",
        "reported the wrong score by accident",
    ],
)
def test_an_honest_mistake_leads_to_the_judge_not_to_a_deliberate_entry(
    index: SearchIndex, query: str
) -> None:
    hits = index.search(query, limit=3)
    assert hits[0].entry.id == HONEST_ERROR_ENTRY, [hit.entry.id for hit in hits]
    report = next(hit for hit in hits if hit.entry.id == "false-result-report")
    values = {cue.value for cue in report.why.cues}
    assert {"accidental", "no_accidental_entry"} <= values


def test_a_deliberate_entry_with_an_accidental_twin_gives_no_such_note(index: SearchIndex) -> None:
    """Drawing extra by accident has its own entry: no note that the source lacks one."""
    for hit in index.search("うっかり多く引いた"):
        assert "no_accidental_entry" not in {cue.value for cue in hit.why.cues}, hit.entry.id
    assert set(DELIBERATE_FORM) & {hit.entry.id for hit in index.search("うっかり多く引いた")}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("わざと負けを勝ちと報告した", "false-result-report"),
        ("knowingly reported a loss as a win", "false-result-report"),
    ],
)
def test_a_deliberate_false_report_is_still_found(
    index: SearchIndex, query: str, first: str
) -> None:
    assert index.search(query, limit=1)[0].entry.id == first

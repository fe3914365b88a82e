"""The tier facts the log reads from the regulation: their order and which are officially
recorded."""

from __future__ import annotations

import itertools

from records.tiers import (
    REPEAT_PRINCIPLE_ID,
    next_tier_up,
    officially_recorded,
    suggested_tier_up,
)
from regulation.model import Regulation


def test_next_tier_up_follows_the_regulations_order(regulation: Regulation) -> None:
    ids = [t.id for t in regulation.tiers]
    assert ids == [
        "caution",
        "warning",
        "duel-forfeiture",
        "match-forfeiture",
        "disqualification",
        "total-disqualification",
    ]
    for lower, higher in itertools.pairwise(ids):
        found = next_tier_up(regulation, lower)
        assert found is not None and found.id == higher
    assert next_tier_up(regulation, "total-disqualification") is None
    assert next_tier_up(regulation, "no-such-tier") is None


def test_duel_forfeiture_and_above_are_officially_recorded(regulation: Regulation) -> None:
    recorded = {t.id for t in regulation.tiers if officially_recorded(regulation, t.id)}
    assert recorded == {
        "duel-forfeiture",
        "match-forfeiture",
        "disqualification",
        "total-disqualification",
    }
    assert not officially_recorded(regulation, "no-such-tier")


def test_the_repeat_principle_is_the_regulations(regulation: Regulation) -> None:
    principle = regulation.principle(REPEAT_PRINCIPLE_ID)
    assert principle is not None
    assert principle.text.ja == "同一の違反を繰り返した場合、ジャッジはより上位の罰則を適用できる。"


def test_a_repeat_suggests_the_tier_above_the_infractions_own_whatever_is_chosen(
    regulation: Regulation,
) -> None:
    """drew-extra-cards is a Warning: a repeat suggests Duel Forfeiture, whether the form
    shows nothing, a lower tier, the Warning itself or a tier the guide does not know; once a
    tier above the Warning is chosen there is nothing to suggest, and the form is told so."""
    duel_forfeiture = regulation.tier("duel-forfeiture")
    for chosen in (None, "", "caution", "warning", "no-such-tier"):
        assert suggested_tier_up(regulation, "drew-extra-cards", chosen) == (
            duel_forfeiture,
            False,
        ), chosen
    for chosen in ("duel-forfeiture", "total-disqualification"):
        assert suggested_tier_up(regulation, "drew-extra-cards", chosen) == (None, True), chosen
    assert suggested_tier_up(regulation, "bribery") == (None, False)  # nothing above it
    assert suggested_tier_up(regulation, "no-such-infraction", "warning") == (None, False)

"""What the regulation says about tiers that the log needs: the order, for repeats, and which
tiers are officially recorded.

同一の違反を繰り返した場合、ジャッジはより上位の罰則を適用できる (principle `repeat-offense`):
a repeat *may* be upgraded by the judge, to "a higher penalty": the source names no tier. The
log points out the earlier records and, as the app's own suggestion, the tier one above the
infraction's own (`suggested_tier_up`); the tier of a record is only ever what the judge chose.
"""

from __future__ import annotations

from regulation.model import Regulation, Tier

REPEAT_PRINCIPLE_ID = "repeat-offense"  # the principle a screen quotes beside a repeat
OFFICIALLY_RECORDED = "公式に記録される"  # the words of a tier's point that say so


def next_tier_up(regulation: Regulation, tier_id: str) -> Tier | None:
    """The tier one step more severe in the regulation's order; None above the most severe
    (Total Disqualification) or for an unknown id."""
    tier = regulation.tier(tier_id)
    if tier is None:
        return None
    return next((t for t in regulation.tiers if t.severity == tier.severity + 1), None)


def officially_recorded(regulation: Regulation, tier_id: str) -> bool:
    """Whether the regulation says a penalty of this tier is officially recorded (デュエルの敗北
    and above: "…は公式に記録される"), read from the tier's own points."""
    tier = regulation.tier(tier_id)
    return tier is not None and any(OFFICIALLY_RECORDED in point.ja for point in tier.points)


def suggested_tier_up(
    regulation: Regulation, infraction_id: str, chosen_tier_id: str | None = None
) -> tuple[Tier | None, bool]:
    """The app's suggestion for a repeat: the tier one above the infraction's own penalty, worked
    out from the infraction, never from the tier chosen on the form (choosing C must not then
    offer D). Returns (the suggestion, whether a tier above the infraction's own is already
    chosen); the suggestion is None then, and above Total Disqualification."""
    infraction = regulation.infraction(infraction_id)
    if infraction is None:
        return None, False
    own = infraction.penalty
    chosen = regulation.tier(chosen_tier_id) if chosen_tier_id else None
    if chosen is not None and chosen.severity > own.severity:
        return None, True
    return next_tier_up(regulation, own.id), False

"""Tardiness (遅刻): from a round's assembly time and "the player arrived now" to an entry.

The regulation's three tardiness entries, mildest first:

- assembly-conditions-not-met  指定の集合時間に大会毎に決められた条件を満たしていなかった
- not-seated-5-minutes         指定の集合時間後5分経過しても、自分の席についていなかった
- not-seated-10-minutes        指定の集合時間後10分経過しても、自分の席についていなかった

Where 5:00 falls: 「5分経過しても…席についていなかった」 is "still not seated when five minutes
had elapsed". At 5:00 after the assembly time five minutes *have* elapsed, so a player who
arrives at 5:00 or later was not seated when they had: the 5-minute entry. At 4:59 they sat
down before the five minutes were up. The same at 10:00. So, with `late` = arrival − assembly:

    late ≤ 0:00            on time, no entry
    0:00 < late < 5:00     assembly-conditions-not-met (when the event's condition is being
                           seated at the assembly time; the judge confirms)
    5:00 ≤ late < 10:00    not-seated-5-minutes
    10:00 ≤ late           not-seated-10-minutes

`minutes_late` is whole minutes elapsed (4:59 → 4, 5:00 → 5), which lands on the same side of
every threshold as the exact time does. The result is a suggestion for the judge to confirm.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .errors import InvalidInput

# (minutes elapsed, infraction id), most severe first; tests check each against the
# regulation's wording (…後{minutes}分経過しても…).
THRESHOLDS: tuple[tuple[int, str], ...] = (
    (10, "not-seated-10-minutes"),
    (5, "not-seated-5-minutes"),
)
LATE_UNDER_THRESHOLDS = "assembly-conditions-not-met"
TARDINESS_INFRACTION_IDS = (LATE_UNDER_THRESHOLDS, *(i for _, i in reversed(THRESHOLDS)))


@dataclass(frozen=True, slots=True)
class TardinessSuggestion:
    assembly_at: datetime
    arrived_at: datetime
    late_by: timedelta  # zero or negative when on time
    infraction_id: str | None  # None when on time

    @property
    def minutes_late(self) -> int:
        """Whole minutes elapsed since the assembly time (0 when on time)."""
        return max(0, self.late_by // timedelta(minutes=1))


def suggest_tardiness(assembly_at: datetime, arrived_at: datetime) -> TardinessSuggestion:
    """The tardiness entry for a player arriving at `arrived_at` (see the module's table)."""
    if (assembly_at.tzinfo is None) != (arrived_at.tzinfo is None):
        raise InvalidInput("the assembly and arrival times must both have a UTC offset, or neither")
    late_by = arrived_at - assembly_at
    infraction_id: str | None = None
    if late_by > timedelta(0):
        infraction_id = LATE_UNDER_THRESHOLDS
        for minutes, candidate in THRESHOLDS:
            if late_by >= timedelta(minutes=minutes):
                infraction_id = candidate
                break
    return TardinessSuggestion(assembly_at, arrived_at, late_by, infraction_id)

"""The hybrid logical clock that orders every saved version, and the conflict rule built on it.

A version's stamp is one integer: the saving device's wall clock in milliseconds since the
epoch, shifted left by `COUNTER_BITS`, plus a counter. A device stamps a new version with

    max(its wall clock << COUNTER_BITS, the largest stamp it has ever seen + 1)

so a version is always stamped later than every version its device had when it was saved — in
particular later than the version it edits — whatever the device's clock says. A phone whose
clock is 15 minutes slow that edits a record after syncing still wins over the version it saw.

The rule (`wins`): of a thing's versions, the current one has the largest (stamp, device id).
Both parts are in every copy of the version, so every device picks the same one; merging is a
set union of versions (commutative, associative, idempotent), and the choice depends only on the
set. Two edits made apart, neither having seen the other, are ordered by their stamps (the
later wall clock, roughly) and then by device id: one wins on every device, and the other stays
in the history.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

COUNTER_BITS = 16
MAX_STAMP = (1 << 63) - 1  # SQLite's INTEGER
# Test-only: `PENALTY_GUIDE_TEST_CLOCK_OFFSET_S=-900` runs this process's clock 15 minutes
# behind (the sync simulation's wrong clock). Never set it in real use.
CLOCK_OFFSET_VARIABLE = "PENALTY_GUIDE_TEST_CLOCK_OFFSET_S"


def clock_offset() -> timedelta:
    """The test-only offset of this process's clock (zero unless the variable is set)."""
    text = os.environ.get(CLOCK_OFFSET_VARIABLE, "")
    try:
        return timedelta(seconds=float(text)) if text else timedelta(0)
    except ValueError:
        return timedelta(0)


EARLIEST = datetime(1970, 1, 2, tzinfo=UTC)
LATEST = datetime(6000, 1, 1, tzinfo=UTC)  # a stamp of a later time would not fit 63 bits


def orderable(moment: datetime) -> bool:
    """Whether a version saved at `moment` can be stamped (records/exchange.py refuses others)."""
    return EARLIEST <= moment < LATEST


def stamp_of(moment: datetime, counter: int = 0) -> int:
    """The stamp of a wall-clock moment (for versions made before sync: their updated_at)."""
    milliseconds = int(moment.timestamp() * 1000)
    return (milliseconds << COUNTER_BITS) + counter


def wall_of(stamp: int) -> datetime:
    """The wall-clock part of a stamp, as an instant (UTC)."""
    return datetime.fromtimestamp((stamp >> COUNTER_BITS) / 1000, UTC)


def next_stamp(wall: datetime, highest_seen: int) -> int:
    """A new version's stamp: later than everything seen, else the wall clock."""
    return max(stamp_of(wall), highest_seen + 1)


def legacy_stamp(updated_us: int) -> int:
    """The stamp of a version made before sync, from its updated_at (µs since the epoch): the
    milliseconds, and the microseconds left over as the counter, so its order is kept."""
    return ((updated_us // 1000) << COUNTER_BITS) + updated_us % 1000


def wins(stamp: int, device: str, other_stamp: int, other_device: str) -> bool:
    """Whether version (stamp, device) is chosen over (other_stamp, other_device)."""
    return (stamp, device) > (other_stamp, other_device)


class HybridClock:
    """Stamps for one device: `now()` is strictly increasing and later than every `observe`d
    stamp. Not thread-safe by itself (the store calls it inside its write lock)."""

    def __init__(self, wall: Callable[[], datetime], highest_seen: int = 0) -> None:
        self._wall = wall
        self.highest = highest_seen

    def observe(self, stamp: int) -> None:
        self.highest = max(self.highest, stamp)

    def now(self) -> int:
        self.highest = next_stamp(self._wall(), self.highest)
        return self.highest

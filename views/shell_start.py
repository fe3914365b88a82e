"""A session's start and its stored settings: the first view (on the look the page sent, or
on what the device answers), the stored preferences read and merged after it, and what is
saved back. The shell (views/shell.py) builds on it: routes, views and the judge's actions.
The device's side of the stored settings is views/device.py; the look the page sends with its
WebSocket, views/stored_look.py; the merge itself, views/state.py `merge_stored`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any

import flet as ft

from regulation.catalog import Catalog
from regulation.finder import Finder
from regulation.model import Regulation
from regulation.search import SearchIndex

from .browser_back import BrowserHistory
from .context import Context
from .device import Device, Services, Stored
from .logbook import Logbook
from .routes import History
from .screens import load_later_screens
from .state import (
    KEY_LANGUAGE,
    AppState,
    merge_stored,
    negotiate_language,
    state_from_stored,
    stored_values,
)
from .theme import WIDE_BREAKPOINT, apply_theme

# The longest the first view goes without what waited for its first frame (the principles'
# rows below the tier cards): a client reports the frame laid out within 0.1-0.3 s on a quiet
# machine, 2-5 s at a load of 25; this is for one that never does.
FIRST_FRAME_WAIT_S = 10.0


class ShellStart:
    """A session from its start: the page, the data, the state and the stored settings."""

    def __init__(
        self,
        page: ft.Page,
        regulation: Regulation,
        finder: Finder,
        catalog: Catalog,
        services: Services | None = None,
    ) -> None:
        self.page = page
        self.regulation = regulation
        self.finder = finder
        self.catalog = catalog
        self._index: SearchIndex | None = None
        self._index_lock = threading.Lock()
        self.logbook = Logbook(regulation)  # opened off the start-up path (_warm_up)
        # Its stored preferences and languages; `services`: registered already (before_main).
        self.device = Device(page, self._spawn, services)
        self.state = AppState()
        self.history = History()
        self.browser = BrowserHistory(page, self._spawn)  # its entries: the back on the web
        # The changes that alter every screen (language, text size, layout, bookmarks): views
        # built before one are built again.
        self._version = 0
        self._settings_changed = False  # by the judge, since the start
        self._loop: asyncio.AbstractEventLoop  # the app's, set in start()
        self._tasks: set[asyncio.Task] = set()
        self.context: Context  # made with the first view, once the stored look is known
        self._begun = False  # the first view went out with the register answer (begin)
        self._sent = True  # False while the page's first state is still being made
        self._stored_read = True  # False: not yet, and nothing is saved over them till then
        self._unsaved: set[str] = set()  # keys to save once they are read

    # -- what the shell adds (views/shell.py) -----------------------------------------------

    def _context(self) -> Context:
        """The screens' context, with the shell's actions."""
        raise NotImplementedError

    def _show_first(self) -> None:
        """Follows the page's events and shows its route: the first view."""
        raise NotImplementedError

    def _sync_pulled(self) -> None:
        raise NotImplementedError

    def render(self, navigated: bool = False) -> None:
        raise NotImplementedError

    # -- start-up -----------------------------------------------------------------------

    def begin(self, stored: Stored, locales: list[str]) -> None:
        """The first view before the session starts (before_main), on the look the page sent
        (views/stored_look.py): it goes out in the register answer itself, with no round trip
        before it (issue 22, item 5). The stored preferences are read when it starts (start);
        until then nothing is saved over them."""
        self._loop = asyncio.get_running_loop()
        self._begun, self._stored_read, self._sent = True, False, False
        self._first_view(stored, locales, first_frame=True)
        self._sent = True  # what the page holds now goes out with the register answer
        if not self.state.rest_waits:  # another screen first (a deep link): nothing waits
            self.state.first_frame = False
            return
        # What waited for the first frame comes when the client reports it laid out; at the
        # latest after FIRST_FRAME_WAIT_S (a client that never reports).
        self._spawn(self._first_frame_waited())

    async def start(self) -> None:
        if self._begun:
            await self.device.read(self._apply_stored)
        else:
            self._loop = asyncio.get_running_loop()
            stored, locales = await self.device.ask(self._apply_stored)
            self._first_view(stored, locales)
        self.browser.reattached(self.history.stack[-1].path)
        # Ready before the judge can type: the first view is already on its way.
        threading.Thread(target=self._warm_up, daemon=True).start()

    def _first_view(self, stored: Stored, locales: list[str], first_frame: bool = False) -> None:
        self.state = state_from_stored(stored, self._is_known_id)
        self.state.first_frame = first_frame
        if not self.state.language_chosen:
            self.state.change_settings(language=negotiate_language(locales))
        self.state.wide = self._is_wide()
        self.context = self._context()
        self.logbook.sync.attach(self._spawn, self._sync_pulled)
        page = self.page
        apply_theme(page, *self._look())
        self._show_first()

    async def _first_frame_waited(self) -> None:
        await asyncio.sleep(FIRST_FRAME_WAIT_S)
        if self.state.first_frame:  # still the first view: no report, nothing shown since
            with contextlib.suppress(Exception):  # a tab closed meanwhile: nothing to draw
                self.render()

    def _warm_up(self) -> None:
        self.search_index()
        self.logbook.warm()
        load_later_screens()  # the log's screens and the records/ modules they import
        self.logbook.sync.follow()  # a shared log syncs in the background from the start

    def _apply_stored(self, stored: Stored) -> None:
        """Stored values read after the first view: one built on the look the page sent, or
        on the defaults (the client did not answer in time). The judge's own changes since are
        newer: settings the judge changed stay, bookmarks and history are merged. The screen
        is drawn again when that changed anything; then what waited is saved."""
        look, changed = merge_stored(
            self.state, stored, self._is_known_id, keep_settings=self._settings_changed
        )
        if look:
            apply_theme(self.page, *self._look())
        if changed:
            self._version += 1
            self.render()
        self._stored_read = True
        unsaved, self._unsaved = self._unsaved, set()
        self._save(*unsaved)

    def _look(self) -> tuple[str, float, str]:
        """What the theme follows: the theme mode, the text size, the language (the bottom
        bar's labels must fit their sixth of a phone in it)."""
        settings = self.state.settings
        return settings.theme, settings.text_scale, settings.language

    def _is_wide(self) -> bool:
        self.state.width = float(self.page.width or 0)  # the app bar fits its title to it
        return self.state.width >= WIDE_BREAKPOINT

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Runs `work` on the app's loop, from its thread or a handler's. Not `page.run_task`:
        that needs the page's connection, which a reloading tab has dropped for a moment."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            task = self._loop.create_task(work)
            self._tasks.add(task)  # a strong reference until it is done
            task.add_done_callback(self._tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(work, self._loop)

    def _is_known_id(self, entry_id: str) -> bool:
        return self.regulation.entry(entry_id) is not None

    def search_index(self) -> SearchIndex:
        """Built once, off the start-up path: after the first view, or on the first search."""
        with self._index_lock:
            if self._index is None:
                self._index = shared_index(self.regulation)
            return self._index

    def _save(self, *keys: str) -> None:
        """Stores `keys` in the background; the language only once the judge has chosen one."""
        if not self._stored_read:
            self._unsaved.update(keys)
            return
        values = {key: value for key, value in stored_values(self.state).items() if key in keys}
        if not self.state.language_chosen:
            values.pop(KEY_LANGUAGE, None)
        self.device.save(values)


_INDEXES: dict[int, tuple[Regulation, SearchIndex]] = {}  # id → (the regulation, its index)
_INDEXES_LOCK = threading.Lock()


def shared_index(regulation: Regulation) -> SearchIndex:
    """The search index of `regulation`, built once per process: every session (each tab of
    the web mode) searches the same data, and the index only memoises what it derives from
    it. Built on first use (a session's warm-up, after its first view)."""
    with _INDEXES_LOCK:
        held = _INDEXES.get(id(regulation))
        if held is None or held[0] is not regulation:
            held = _INDEXES[id(regulation)] = (regulation, SearchIndex.build(regulation))
        return held[1]

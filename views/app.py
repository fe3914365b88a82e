"""The app shell: loads the data, owns the page, turns routes into views.

The route decides the screen (the screen table, views/screens/__init__.py). A history of routes
gives back navigation: a navigation destination's root starts a new history, anything else is
pushed on top of it. The page around a screen (bars, rail, list pane) is views/layout.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import flet as ft

from regulation.catalog import Catalog
from regulation.finder import Finder, load_finder
from regulation.loader import english_catalog, load_regulation
from regulation.model import Regulation
from regulation.search import SearchIndex

from . import routes
from . import strings as S
from .context import Actions, Context, Screen
from .layout import page_view
from .logbook import Logbook
from .routes import History, Route
from .screens import SCREEN_TABLE, ScreenTable, load_later_screens
from .screens.settings import not_found_screen
from .state import (
    KEY_BOOKMARKS,
    KEY_LANGUAGE,
    KEY_RECENT,
    KEY_TEXT_SCALE,
    KEY_THEME,
    KEYS,
    MAX_BOOKMARKS,
    MAX_RECENT,
    AppState,
    negotiate_language,
    newest_first,
    state_from_stored,
    stored_values,
)
from .sync_link import REDRAWN_ON_PULL
from .theme import WIDE_BREAKPOINT, apply_theme
from .ticker import Tick, Ticker

LOCALES = {
    language: ft.LocaleConfiguration(
        supported_locales=[ft.Locale("ja", "JP"), ft.Locale("en", "US")],
        current_locale=ft.Locale("en", "US") if language == "en" else ft.Locale("ja", "JP"),
    )
    for language in ("ja", "en", "both")
}
# Seconds to wait for the client's stored settings and languages before starting on defaults.
CLIENT_TIMEOUT = 2.0


class Shell:
    def __init__(
        self,
        page: ft.Page,
        regulation: Regulation,
        finder: Finder,
        catalog: Catalog,
        table: ScreenTable = SCREEN_TABLE,
    ) -> None:
        self.page = page
        self.regulation = regulation
        self.finder = finder
        self.catalog = catalog
        self.table = table
        self._index: SearchIndex | None = None
        self._index_lock = threading.Lock()
        self.logbook = Logbook(regulation)  # opened off the start-up path (_warm_up)
        # A strong reference: the page drops services nothing else refers to.
        self.prefs = ft.SharedPreferences()
        self.haptic = ft.HapticFeedback()  # the clock's 10 min / 5 min / time (views/ticker.py)
        self.ticker = Ticker(self._spawn)
        self._top_tick: Tick | None = None  # the shown screen's, handed to the ticker
        self.state = AppState()
        self.history = History()
        # The addresses the app asked for and has not been shown yet: any other route change
        # is the browser's own (a reload, a typed address, its back or forward buttons).
        self._asked: set[str] = set()
        # Views below the top one are kept while nothing they show has changed (`_version`
        # counts the changes that alter every screen: language, text size, layout, bookmarks).
        self._views: dict[str, tuple[int, ft.View]] = {}
        self._version = 0
        self._settings_changed = False  # by the judge, since the start
        self._loop: asyncio.AbstractEventLoop  # the app's, set in start()
        self._tasks: set[asyncio.Task] = set()
        self._focus_target: ft.Control | None = None  # what the top screen asks to focus
        self._focused_path: str | None = None  # the route it was last given for
        self.context: Context  # made in start(), once the stored state is read

    # -- start-up -----------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        stored, locales = await self._ask_client()
        self.state = state_from_stored(stored, self._is_known_id)
        if not self.state.language_chosen:
            self.state.change_settings(language=negotiate_language(locales))
        self.state.wide = self._is_wide()
        self.context = self._context()
        self.logbook.sync.attach(self._spawn, self._sync_pulled)
        page = self.page
        apply_theme(page, *self._look())
        page.on_route_change = self._on_route_change
        page.on_view_pop = self._on_view_pop
        page.on_resize = self._on_resize
        page.on_connect = self._on_connect
        page.on_error = self._on_client_error
        self.show(page.route)
        # Ready before the judge can type: the first view is already on its way.
        threading.Thread(target=self._warm_up, daemon=True).start()

    def _warm_up(self) -> None:
        self.search_index()
        self.logbook.warm()
        load_later_screens()  # the log's screens and the records/ modules they import
        self.logbook.sync.follow()  # a shared log syncs in the background from the start

    async def _ask_client(self) -> tuple[dict[str, object], list[str]]:
        """The stored settings and the device's languages, asked at once. A client that does
        not answer in time (a tab that outlived a server restart never does) gets the
        defaults: the app starts regardless, and stored values that arrive later apply then."""
        prefs = asyncio.ensure_future(self._read_prefs())
        locales = asyncio.ensure_future(self._device_locales())
        await asyncio.wait((prefs, locales), timeout=CLIENT_TIMEOUT)
        if not prefs.done():
            self._spawn(self._read_prefs_late(prefs))
        return (
            prefs.result() if prefs.done() else {},
            locales.result() if locales.done() else [],
        )

    async def _read_prefs(self) -> dict[str, object]:
        values = await asyncio.gather(
            *(self.prefs.get(key) for key in KEYS), return_exceptions=True
        )
        # A broken store must not stop the app: an unreadable value is its default.
        return {
            k: None if isinstance(v, BaseException) else v
            for k, v in zip(KEYS, values, strict=True)
        }

    async def _read_prefs_late(self, first: asyncio.Future) -> None:
        """The stored values for a start that could not wait for them. A tab that outlived a
        server restart never answers the first preferences service, whose id its old page
        already had, but does answer a new one (seen in Chromium, Flet 1.0.5): ask again
        through a new one; the first answer wins."""
        self.prefs = ft.SharedPreferences()
        second = asyncio.ensure_future(self._read_prefs())
        done, _pending = await asyncio.wait((first, second), return_when=asyncio.FIRST_COMPLETED)
        self._apply_late_prefs(done.pop().result())

    def _apply_late_prefs(self, stored: dict[str, object]) -> None:
        """Stored values that arrived after the first view. The judge's own changes since
        are newer: settings the judge changed stay, bookmarks and history are merged."""
        late = state_from_stored(stored, self._is_known_id)
        state = self.state
        if late.language_chosen and not self._settings_changed:
            state.settings, state.language_chosen = late.settings, True
            apply_theme(self.page, *self._look())
        state.bookmarks = newest_first(state.bookmarks, late.bookmarks, MAX_BOOKMARKS)
        state.recent = newest_first(state.recent, late.recent, MAX_RECENT)
        self._version += 1
        self.render()

    async def _device_locales(self) -> list[str]:
        try:
            info = await self.page.get_device_info()
        except Exception:  # an odd answer means no preference
            return []
        locales = getattr(info, "locales", None) or []
        return ["_".join(p for p in (loc.language_code, loc.country_code) if p) for loc in locales]

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

    def _context(self) -> Context:
        actions = Actions(
            navigate=self.navigate,
            toggle_bookmark=self.toggle_bookmark,
            change_settings=self.change_settings,
            clear_recent=self.clear_recent,
            replace=self.replace,
            log_changed=self.log_changed,
            refresh=self.render,
            notify=self.notify,
            show_dialog=self.page.show_dialog,
            close_dialog=self.close_dialog,
            vibrate=self.vibrate,
            back=self.back,
        )
        return Context(
            self.regulation,
            self.finder,
            self.search_index,
            self.catalog,
            self.state,
            actions,
            self.logbook,
        )

    def search_index(self) -> SearchIndex:
        """Built once, off the start-up path: after the first view, or on the first search."""
        with self._index_lock:
            if self._index is None:
                self._index = shared_index(self.regulation)
            return self._index

    # -- actions ------------------------------------------------------------------------

    def navigate(self, route: str) -> None:
        self._asked.add(self.table.parse(route).path)
        self.page.navigate(route)
        # The route change that follows renders the new view; left to itself, Flet would
        # first compare the whole page after the tap, to find nothing (a third of a tap's work).
        ft.context.mark_update_called()

    def replace(self, route: str) -> None:
        """Shows `route` in place of the current screen: a saved form gives way to its record,
        and back then skips the form."""
        if len(self.history) > 1:
            self.history.stack.pop()
        self.navigate(route)

    def back(self) -> None:
        shown = self.history.back()
        if shown is not None:
            self.navigate(shown.path)

    def log_changed(self) -> None:
        """Records changed: every view is rebuilt at its next render (the top one at once,
        those below it right after), so going back never shows a record as it was."""
        self._version += 1
        self.logbook.sync.saved()  # a shared log sends it soon

    def _sync_pulled(self) -> None:
        """Records of other judges arrived (on the app's loop): the log screen shown is
        redrawn with them, every other view when it is shown next."""
        self._version += 1
        top = self.history.stack[-1] if self.history else None
        if top is not None and top.pattern in REDRAWN_ON_PULL:
            self.render()
        else:
            self.logbook.sync.redraw_lines()

    def notify(self, message: str, undo: Callable[[], None] | None = None) -> None:
        """A snack bar; with `undo`, an undo button in it (shown longer, to leave time)."""
        action = None
        if undo is not None:
            action = ft.SnackBarAction(label=self.context.ui(S.UNDO), on_click=lambda _: undo())
        self.page.show_dialog(
            ft.SnackBar(
                ft.Text(message, size=self.context.sizes.body),
                show_close_icon=True,
                action=action,
                persist=False,  # with an action Flutter would keep it up until dismissed
                duration=ft.Duration(seconds=8 if undo else 4),
            )
        )

    def close_dialog(self) -> None:
        self.page.pop_dialog()

    def vibrate(self) -> None:
        """A heavy haptic impact: Android and iOS apps vibrate; in a browser Flutter calls
        navigator.vibrate (Chrome on Android); desktops have nothing and ignore it."""

        async def buzz() -> None:
            try:
                await self.haptic.heavy_impact()
                await self.haptic.vibrate()
            except Exception:  # no vibrator, a tab gone: the visible change remains
                pass

        self._spawn(buzz())

    def toggle_bookmark(self, entry_id: str) -> None:
        self.state.toggle_bookmark(entry_id)
        self._save(KEY_BOOKMARKS)
        self._version += 1
        self.render()

    def clear_recent(self) -> None:
        self.state.recent.clear()
        self._save(KEY_RECENT)
        self.render()

    def change_settings(self, **changes: object) -> None:
        self._settings_changed = True
        self.state.change_settings(**changes)
        if "language" in changes:
            self.state.language_chosen = True
        apply_theme(self.page, *self._look())
        self._save(KEY_LANGUAGE, KEY_THEME, KEY_TEXT_SCALE)
        self._version += 1
        self.render()

    def _save(self, *keys: str) -> None:
        """Stores `keys` in the background; the language only once the judge has chosen one."""
        values = {key: value for key, value in stored_values(self.state).items() if key in keys}
        if not self.state.language_chosen:
            values.pop(KEY_LANGUAGE, None)

        async def save() -> None:
            try:
                for key, value in values.items():
                    await self.prefs.set(key, value)
            except Exception:  # a tab gone, a store refusing: the value stays in memory and
                pass  # is saved with the next change of it

        self._spawn(save())

    # -- routing ------------------------------------------------------------------------

    def _on_route_change(self, event: ft.RouteChangeEvent) -> None:
        self.show(event.route)

    async def _on_view_pop(self, event: ft.ViewPopEvent) -> None:
        shown = self.history.back()
        if shown is not None:
            self._asked.add(shown.path)
            await self.page.push_route(shown.path)

    def _on_resize(self, event: ft.PageResizeEvent) -> None:
        self._follow_width()

    def _on_connect(self, event: ft.Event) -> None:
        """A reloaded tab re-attached to this session, reporting its size now (a window
        widened and reloaded at once sends no resize)."""
        self._follow_width()

    def _on_client_error(self, event: ft.Event) -> None:
        """Flutter could not build or lay out a control (it shows a grey box instead): said in
        one line on the app's output, where a judge's report, or a browser test, can find it."""
        print(f"The screen {self.page.route} hit a client error: {event.data}", file=sys.stderr)

    def _follow_width(self) -> None:
        wide = self._is_wide()
        if wide != self.state.wide:
            self.state.wide = wide
            self._version += 1
            self.render()

    def show(self, raw_route: str | None) -> None:
        route = self.table.parse(raw_route)
        asked = route.path in self._asked
        self._asked.discard(route.path)
        if not asked and route.path not in {shown.path for shown in self.history.stack}:
            # The browser's, to a screen no longer open (a reload of another address, an
            # address typed): a deep link, whose back arrow goes to its own parents, never to
            # the screens open before it (/categories/play went back to /log/event).
            self.history = History()
        tab = self.table.tab(route)
        parents = [] if self.history else self.table.parents(self.context, route, self.state.tab)
        self.history.go(route, self.table.is_root(route), parents)
        if tab is None and parents:  # a deep link lights its parents' destination
            tab = self.table.tab(parents[0])
        if tab is not None:
            self.state.tab = tab
        self.state.selected_id = route.item
        if route.pattern is routes.SEARCH:  # the query typed last, shown again
            self.state.search_query = route.value("q")
        if route.item and self.regulation.entry(route.item):
            self.state.visit(route.item)
            self._save(KEY_RECENT)
        self.render()

    def render(self) -> None:
        """Shows the history's views: the top one built afresh, the ones below it reused.

        After a change that alters every screen (language, text size, layout, bookmarks) the
        views below the top are rebuilt too, but just after the top one is on screen: the judge
        sees the change at once, and going back never shows the old language."""
        # The window's or tab's title, and Flutter's own labels (Back, tab positions for screen
        # readers), in the shown language.
        self.page.title = self.context.ui(S.APP_TITLE)
        self.page.locale_configuration = LOCALES[self.state.settings.language]
        stack = self.history.stack
        self.logbook.sync.forget_lines()
        self.logbook.keep_drafts({route.path for route in stack})
        views = []
        for depth, route in enumerate(stack):
            cached = self._views.get(route.path)
            if cached and depth < len(stack) - 1:
                views.append(cached[1])
            else:
                views.append(self._view(stack, depth))
                self._views[route.path] = (self._version, views[-1])
        self._views = {route.path: self._views[route.path] for route in stack}
        self.page.views[:] = views
        self.page.update()
        self.ticker.follow(self._top_tick)
        self._focus_new_screen(stack[-1].path)
        if any(version != self._version for version, _view in self._views.values()):
            self._spawn(self._refresh_views_below(list(stack)))

    def _focus_new_screen(self, path: str) -> None:
        """Gives the focus to the control the top screen asks for (`Screen.focus`), once per
        opening of a route: a redraw of the same screen leaves the judge's cursor alone."""
        target, self._focus_target = self._focus_target, None
        if path == self._focused_path:
            return
        self._focused_path = path
        focus = getattr(target, "focus", None)
        if focus is None:
            return

        async def give_focus() -> None:
            # A tab gone meanwhile: the focus is a convenience, not data.
            with contextlib.suppress(Exception):
                await focus()

        self._spawn(give_focus())

    async def _refresh_views_below(self, stack: list[Route]) -> None:
        if stack != self.history.stack:
            return  # the judge has moved on; that render refreshed what it showed
        for depth, route in enumerate(stack):
            if self._views[route.path][0] != self._version:
                self.page.views[depth] = self._view(stack, depth)
                self._views[route.path] = (self._version, self.page.views[depth])
        self.page.update()

    # -- views --------------------------------------------------------------------------

    def screen(self, route: Route) -> Screen:
        return self.table.build(self.context, route) or not_found_screen(self.context, route.raw)

    def _master(self, stack: list[Route], depth: int, tab: int) -> Screen | None:
        """What the list pane shows beside the view at `depth` (wide windows): the list the
        judge came from (a section's infractions, the search results), else the navigation
        destination's root; None when the view is itself a destination's root."""
        if self.table.is_root(stack[depth]):
            return None
        for route in reversed(stack[:depth]):
            if self.table.lists(route):
                return self.screen(route)
        return self.screen(self.table.parse(self.table.destinations[tab].root.link()))

    def _view(self, stack: list[Route], depth: int) -> ft.View:
        route = stack[depth]
        tab = self.table.tab(route)
        tab = self.state.tab if tab is None else tab
        screen = self.screen(route)
        if depth == len(stack) - 1:
            self._top_tick = screen.tick
            self._focus_target = screen.focus
        return page_view(
            self.context,
            route.path,
            screen,
            self.table.destinations,
            tab,
            can_go_back=depth > 0,
            master=self._master(stack, depth, tab) if self.state.wide else None,
        )


@functools.cache
def app_data() -> tuple[Regulation, Finder, Catalog]:
    """The data every session shows, loaded and checked once per process: it never changes
    while the app runs. main.py asks for it before anything is served or a window opens (a
    fault is then one line, and no session starts on broken data); every session, each tab of
    the web mode, then shares it. Raises RegulationError (or OSError)."""
    catalog = english_catalog()
    regulation = load_regulation(catalog=catalog)
    return regulation, load_finder(regulation, catalog), catalog


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


async def main(page: ft.Page) -> None:
    """The Flet entry point: the data (once per process), then the shell."""
    shell = Shell(page, *app_data())
    page.data = shell  # keeps the shell (and its preferences service) alive with the page
    await shell.start()


def before_main(page: ft.Page) -> None:
    """Runs before the page's first state reaches the client, so the theme and its font are
    there from the first frame, and theme changes are not animated: otherwise Flutter web lays
    text out for a few frames in the default Roboto and asks for Noto fallback fonts."""
    apply_theme(page, "system")
    page.theme_animation_style = ft.AnimationStyle.no_animation()

"""The app shell: turns routes into views, carries out what screens ask.

The route decides the screen (the screen table, views/screens/__init__.py). A history of routes
gives back navigation: a navigation destination's root starts a new history, anything else is
pushed on top of it. Which views show a history is views/pages.py; the page around a screen
(bars, rail, list pane) views/layout.py and views/wide.py. A session's start, its first view
and its stored settings are views/shell_start.py, which the shell builds on; the device
views/device.py. The entry point (the data, then a shell per session) is views/app.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import flet as ft

from regulation.catalog import Catalog
from regulation.finder import Finder
from regulation.model import Regulation

from . import routes
from . import strings as S
from .context import Actions, Context, Screen
from .device import Services
from .pages import Pages
from .routes import History, Route
from .screen_focus import ScreenFocus
from .screens import SCREEN_TABLE, ScreenTable
from .shell_start import ShellStart
from .state import KEY_BOOKMARKS, KEY_LANGUAGE, KEY_RECENT, KEY_TEXT_SCALE, KEY_THEME
from .sync_link import REDRAWN_ON_PULL
from .theme import apply_theme
from .ticker import Tick, Ticker
from .widgets import snack_bar

LOCALES = {
    language: ft.LocaleConfiguration(
        supported_locales=[ft.Locale("ja", "JP"), ft.Locale("en", "US")],
        current_locale=ft.Locale("en", "US") if language == "en" else ft.Locale("ja", "JP"),
    )
    for language in ("ja", "en", "both")
}


class Shell(ShellStart):
    def __init__(
        self,
        page: ft.Page,
        regulation: Regulation,
        finder: Finder,
        catalog: Catalog,
        table: ScreenTable = SCREEN_TABLE,
        services: Services | None = None,
    ) -> None:
        super().__init__(page, regulation, finder, catalog, services)
        self.table = table
        self.ticker = Ticker(self._spawn)
        self._top_tick: Tick | None = None  # the shown screen's, handed to the ticker
        # The addresses the app asked for and has not been shown yet: any other route change
        # is the browser's own (a reload, a typed address, its back or forward buttons).
        self._asked: set[str] = set()
        self._ahead: set[str] = set()  # shown before the client reported the route change
        self.pages = Pages(table)  # the views for the history
        # The keyboard's focus when a screen opens, and when it is given (views/screen_focus.py).
        self.screen_focus = ScreenFocus(
            self._spawn,
            is_wide=lambda: self.state.wide,
            clock=lambda: self._loop.time(),
        )

    def _show_first(self) -> None:
        page = self.page
        page.on_route_change = self._on_route_change
        page.on_view_pop = self._on_view_pop
        page.on_resize = self._on_resize
        page.on_connect = self._on_connect
        page.on_error = self._on_client_error
        self.show(page.route)

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
            vibrate=self.device.vibrate,
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

    # -- actions ------------------------------------------------------------------------

    def navigate(self, route: str) -> None:
        """Shows `route` at once, then moves the address bar (and the browser's history) to it:
        the judge does not wait for the client's round trip (push_route, then route_change),
        0.1-0.4 s in Chromium (issue 20, item 15)."""
        path = self.table.parse(route).path
        self._asked.add(path)
        self._ahead.add(path)
        self.show(route)
        self.browser.pushed(path)
        self.page.navigate(route)
        # Shown and sent: left to itself, Flet would compare the whole page after the tap again.
        ft.context.mark_update_called()

    def replace(self, route: str) -> None:
        """Shows `route` in place of the current screen: a saved form gives way to its record,
        and back then skips the form."""
        if len(self.history) > 1:
            self.history.stack.pop()
        self.navigate(route)

    def back(self) -> None:
        shown = self.history.back()
        if shown is None:
            return
        if not self._browser_back(shown.path):
            self.navigate(shown.path)

    def _browser_back(self, path: str) -> bool:
        """Shows `path` at once and has the browser go back to it, when its previous entry
        is `path` (views/browser_back.py): no history entry is added."""
        if not self.browser.back_to(path):
            return False
        self._asked.add(path)
        self._ahead.add(path)  # the browser reports it, as for its own Back
        self.show(path)
        ft.context.mark_update_called()
        return True

    def log_changed(self) -> None:
        """Records changed: every view that shows any of the log is rebuilt at its next
        render (the top one at once, those below it right after), so going back never shows a
        record as it was; the others (an infraction's page) stay as they are."""
        self._version += 1
        self.pages.log_changed(self._version)
        self.logbook.sync.saved()  # a shared log sends it soon

    def _sync_pulled(self) -> None:
        """Records of other judges arrived (on the app's loop): the log screen shown is
        redrawn with them, every other view when it is shown next."""
        self._version += 1
        self.pages.log_changed(self._version)
        top = self.history.stack[-1] if self.history else None
        if top is not None and top.pattern in REDRAWN_ON_PULL:
            self.render()
        else:
            self.logbook.sync.redraw_lines()

    def notify(self, message: str, undo: Callable[[], None] | None = None) -> None:
        self.page.show_dialog(snack_bar(self.context, message, undo))

    def close_dialog(self) -> None:
        self.page.pop_dialog()

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

    # -- routing ------------------------------------------------------------------------

    def _on_route_change(self, event: ft.RouteChangeEvent) -> None:
        path = self.table.parse(event.route).path
        if path in self._ahead:  # the app's own, shown already
            self._ahead.discard(path)
            self.screen_focus.route_reported(path)
            ft.context.mark_update_called()  # nothing changed on the page since
            return
        self.browser.moved(path)
        self.show(event.route)

    async def _on_view_pop(self, event: ft.ViewPopEvent) -> None:
        if self.state.wide:
            self.pages.popped()  # the system back hid the wide page: a new one comes
        shown = self.history.back()
        if shown is None:
            if self.state.wide:
                self.render()  # nothing to go back to: the page again
            return
        if self._browser_back(shown.path):
            return
        # At once, as `navigate` does; then the address bar follows.
        self._asked.add(shown.path)
        self._ahead.add(shown.path)
        self.show(shown.path)
        self.browser.pushed(shown.path)
        await self.page.push_route(shown.path)

    def _on_resize(self, event: ft.PageResizeEvent) -> None:
        self._follow_width()

    def _on_connect(self, event: ft.Event) -> None:
        """A reloaded tab re-attached to this session, reporting its size now (a window
        widened and reloaded at once sends no resize)."""
        self.browser.reattached(self.history.stack[-1].path if self.history else None)
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
        self.render(navigated=True)

    def render(self, navigated: bool = False) -> None:
        """Shows the history's views: the top one built afresh, the ones below it reused.
        After a tap that `navigated`, a wide window's list pane is kept while its list is the
        same; any other render (a screen's own refresh, a setting) builds it again too.

        After a change that alters every screen (language, text size, layout, bookmarks) the
        views below the top are rebuilt too, but just after the top one is on screen: the judge
        sees the change at once, and going back never shows the old language."""
        if self._sent:  # any render after the first view's: the whole screen
            self.state.first_frame = False
        # The window's or tab's title, and Flutter's own labels (Back, tab positions for screen
        # readers), in the shown language.
        title = self.context.ui(S.APP_TITLE)
        locale = LOCALES[self.state.settings.language]
        stack = self.history.stack
        self.logbook.keep_drafts({route.path for route in stack})
        views = self.pages.views(self.context, stack, self._version, keep_list=navigated)
        top = self.pages.top
        target = top.focus if top else None
        path = stack[-1].path
        ahead = path in self._ahead  # the client is still to follow it
        self.screen_focus.prepare(path, target, ahead=ahead)
        changed = self.pages.changed
        same = [id(v) for v in views] == [id(v) for v in self.page.views]
        if changed is not None and same and self._sent and (title, locale) == self._page_look():
            # Only parts of the page changed (a wide window's detail pane, app bar, selection):
            # Flet compares and sends those alone, not the whole page (the list's rows).
            self.page.update(*changed)
        else:
            self.page.title, self.page.locale_configuration = title, locale
            self.page.views[:] = views
            if self._sent:  # else it goes out with the register answer (begin)
                self.page.update()
        self._top_tick = top.tick if top else None
        self.ticker.follow(self._top_tick)
        self.screen_focus.shown(path, target, ahead=ahead)
        if self.pages.stale(self._version):
            self._spawn(self._refresh_views_below(list(stack)))

    def _page_look(self) -> tuple[str | None, ft.LocaleConfiguration | None]:
        return self.page.title, self.page.locale_configuration

    async def _refresh_views_below(self, stack: list[Route]) -> None:
        if stack != self.history.stack:
            return  # the judge has moved on; that render refreshed what it showed
        self.pages.refresh_below(self.context, stack, self._version, self.page.views)
        self.page.update()

    def screen(self, route: Route) -> Screen:
        return self.pages.screen(self.context, route)

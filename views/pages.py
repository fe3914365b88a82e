"""Which views the page shows for a history of routes (the shell, views/shell.py, decides the
history and sends the page).

A phone: a view per route, the ones below the top kept while nothing they show has changed.
A wide window: one page changed in place (views/wide.py), the list the judge came from beside
the screen on top.
"""

from __future__ import annotations

import flet as ft

from .context import Context, Screen
from .layout import page_view
from .routes import Route
from .screens import ScreenTable
from .screens.settings import not_found_screen
from .wide import WidePage


class Pages:
    def __init__(self, table: ScreenTable) -> None:
        self.table = table
        # A phone's views by route, with the app's version each was built at (`version`
        # counts the changes that alter every screen: language, text size, layout, bookmarks).
        self._views: dict[str, tuple[int, ft.View]] = {}
        # Those of them whose building read nothing of the log (views/logbook.py `reads`).
        self._log_free: set[str] = set()
        self._wide = WidePage()  # a wide window's one page
        self.top: Screen | None = None  # the screen on top, as last built
        # The controls the last `views` changed in place (all that Flet need compare and
        # send), or None when the views themselves are new.
        self.changed: list[ft.Control] | None = None

    def screen(self, ctx: Context, route: Route) -> Screen:
        return self.table.build(ctx, route) or not_found_screen(ctx, route.raw)

    def views(
        self, ctx: Context, stack: list[Route], version: int, keep_list: bool = False
    ) -> list[ft.View]:
        """The views for `stack`, the top one up to date; `keep_list`: a wide window's list
        pane may stay as it is while its list is the same (else it is built again)."""
        self.changed = None
        if ctx.state.wide:
            self._views = {}
            if not keep_list:
                self._wide.rebuild_list()
            return self._wide_views(ctx, stack, version)
        self._wide.forget()
        return self._narrow_views(ctx, stack, version)

    def popped(self) -> None:
        """The client hid the top view (Android's back)."""
        self._wide.popped()

    def stale(self, version: int) -> bool:
        """Whether views below the top were kept from before a change of every screen."""
        return any(built != version for built, _view in self._views.values())

    def log_changed(self, version: int) -> None:
        """Records changed, and with them the app's version, now `version`: a phone's views
        built just before that read nothing of the log stay as they are (an infraction's page
        below the record saved from it is not built again)."""
        for path, (built, view) in self._views.items():
            if built == version - 1 and path in self._log_free:
                self._views[path] = (version, view)

    def refresh_below(
        self, ctx: Context, stack: list[Route], version: int, views: list[ft.View]
    ) -> None:
        """Rebuilds, in `views` (the page's), the phone's views older than `version`."""
        for depth, route in enumerate(stack):
            if self._views[route.path][0] != version:
                views[depth] = self._view(ctx, stack, depth)
                self._views[route.path] = (version, views[depth])

    # -- a phone ------------------------------------------------------------------------------

    def _narrow_views(self, ctx: Context, stack: list[Route], version: int) -> list[ft.View]:
        ctx.logbook.sync.forget_lines()
        views = []
        for depth, route in enumerate(stack):
            cached = self._views.get(route.path)
            if cached and depth < len(stack) - 1:
                views.append(cached[1])
            else:
                views.append(self._view(ctx, stack, depth))
                self._views[route.path] = (version, views[-1])
        self._views = {route.path: self._views[route.path] for route in stack}
        return views

    def _view(self, ctx: Context, stack: list[Route], depth: int) -> ft.View:
        route = stack[depth]
        tab = self.table.tab(route)
        tab = ctx.state.tab if tab is None else tab
        reads = ctx.logbook.reads()
        screen = self.screen(ctx, route)
        if depth == len(stack) - 1:
            self.top = screen
        view = page_view(
            ctx, route.path, screen, self.table.destinations, tab, can_go_back=depth > 0
        )
        if ctx.logbook.reads() == reads:
            self._log_free.add(route.path)
        else:
            self._log_free.discard(route.path)
        return view

    # -- a wide window ------------------------------------------------------------------------

    def _wide_views(self, ctx: Context, stack: list[Route], version: int) -> list[ft.View]:
        route = stack[-1]
        own = self.table.tab(route)
        tab = ctx.state.tab if own is None else own
        list_route = route if self.table.is_root(route) else self._list_route(stack, tab)
        sync = ctx.logbook.sync
        sync.forget_lines()
        listed = self._wide.list_pane(
            list_route.path,
            version,
            route.item,
            lambda: sync.lines_of(lambda: self.screen(ctx, list_route)),
        )
        sync.forget_lines(keep=listed.watchers)  # a kept list's status lines stay on the page
        screen = listed.screen if list_route is route else self.screen(ctx, route)
        self.top = screen
        if screen.full_screen:  # handed to a player: the screen alone, its own way back
            self._wide.forget()
            destinations = self.table.destinations
            return [page_view(ctx, route.path, screen, destinations, tab, can_go_back=False)]
        back = ctx.actions.back if len(stack) > 1 else None
        views = self._wide.views(
            ctx, screen, listed.screen, self.table.destinations, tab, version, back
        )
        self.changed = self._wide.changed
        return views

    def _list_route(self, stack: list[Route], tab: int) -> Route:
        """What the list pane shows beside the top screen: the list the judge came from (a
        section's infractions, the search results), else the navigation destination's root."""
        for route in reversed(stack[:-1]):
            if self.table.lists(route):
                return route
        return self.table.parse(self.table.destinations[tab].root.link())

"""The app shell: loads the data, owns the page, turns routes into views.

The route decides the screen (views/routes.py). A history of routes gives back navigation: a
navigation destination's root starts a new history, anything else is pushed on top of it. Phones
get one pane and a bottom navigation bar; windows of WIDE_BREAKPOINT and more a rail and the
destination's list beside the selected item.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

import flet as ft

from regulation.catalog import Catalog, load_catalog
from regulation.loader import load_regulation
from regulation.model import Regulation
from regulation.search import SearchIndex

from . import routes
from . import strings as S
from .context import Actions, Context, Screen
from .screens.categories import categories_screen, category_screen
from .screens.infraction import infraction_screen
from .screens.saved import saved_screen
from .screens.search import search_screen
from .screens.settings import about_screen, not_found_screen, settings_screen
from .screens.tiers import principle_screen, tier_screen, tiers_screen
from .state import (
    KEY_BOOKMARKS,
    KEY_LANGUAGE,
    KEY_RECENT,
    KEY_TEXT_SCALE,
    KEY_THEME,
    KEYS,
    AppState,
    negotiate_language,
    state_from_stored,
    stored_values,
)
from .theme import MASTER_PANE_WIDTH, WIDE_BREAKPOINT, apply_theme
from .widgets import icon_button

NAV_DESTINATIONS = (
    (ft.Icons.GAVEL_OUTLINED, ft.Icons.GAVEL, S.NAV_TIERS),
    (ft.Icons.CATEGORY_OUTLINED, ft.Icons.CATEGORY, S.NAV_CATEGORIES),
    (ft.Icons.SEARCH_OUTLINED, ft.Icons.SEARCH, S.NAV_SEARCH),
    (ft.Icons.BOOKMARKS_OUTLINED, ft.Icons.BOOKMARKS, S.NAV_SAVED),
    (ft.Icons.SETTINGS_OUTLINED, ft.Icons.SETTINGS, S.NAV_SETTINGS),
)
LOCALES = {
    language: ft.LocaleConfiguration(
        supported_locales=[ft.Locale("ja", "JP"), ft.Locale("en", "US")],
        current_locale=ft.Locale("en", "US") if language == "en" else ft.Locale("ja", "JP"),
    )
    for language in ("ja", "en", "both")
}
# Screens that list entries, and so can stand beside an entry on wide windows.
LIST_SCREENS = frozenset({"tiers", "tier", "categories", "category", "search", "saved"})
DEVICE_LOCALE_TIMEOUT = 2.0  # seconds; the first start falls back to Japanese after that


class Shell:
    def __init__(self, page: ft.Page, regulation: Regulation, catalog: Catalog) -> None:
        self.page = page
        self.regulation = regulation
        self.catalog = catalog
        self._index: SearchIndex | None = None
        self._index_lock = threading.Lock()
        # A strong reference: the page drops services nothing else refers to.
        self.prefs = ft.SharedPreferences()
        self.state = AppState()
        self.history: list[str] = []
        # Views below the top one are kept while nothing they show has changed (`_version`
        # counts the changes that alter every screen: language, text size, layout, bookmarks).
        self._views: dict[str, tuple[int, ft.View]] = {}
        self._version = 0
        self.context: Context  # made in start(), once the stored state is read

    # -- start-up -----------------------------------------------------------------------

    async def start(self) -> None:
        self.state = state_from_stored(await self._read_prefs(), self._is_known_id)
        if not self.state.language_chosen:
            language = negotiate_language(await self._device_locales())
            self.state.settings = replace(self.state.settings, language=language)
        self.state.wide = (self.page.width or 0) >= WIDE_BREAKPOINT
        self.context = self._context()
        page = self.page
        page.title = self.catalog.lookup(S.APP_TITLE) or S.APP_TITLE
        apply_theme(page, self.state.settings.theme)
        page.on_route_change = self._on_route_change
        page.on_view_pop = self._on_view_pop
        page.on_resize = self._on_resize
        self.show(page.route or routes.HOME)
        # Ready before the judge can type: the first view is already on its way.
        threading.Thread(target=self.search_index, daemon=True).start()

    async def _read_prefs(self) -> dict:
        stored = {}
        for key in KEYS:
            try:
                stored[key] = await self.prefs.get(key)
            except Exception:  # a broken store must not stop the app: defaults instead
                stored[key] = None
        return stored

    async def _device_locales(self) -> list[str]:
        try:
            info = await asyncio.wait_for(self.page.get_device_info(), DEVICE_LOCALE_TIMEOUT)
        except Exception:  # no answer (or an odd one) means no preference
            return []
        locales = getattr(info, "locales", None) or []
        return ["_".join(p for p in (loc.language_code, loc.country_code) if p) for loc in locales]

    def _is_known_id(self, entry_id: str) -> bool:
        return self.regulation.entry(entry_id) is not None

    def _context(self) -> Context:
        actions = Actions(
            navigate=self.navigate,
            toggle_bookmark=self.toggle_bookmark,
            change_settings=self.change_settings,
            clear_recent=self.clear_recent,
        )
        return Context(self.regulation, self.search_index, self.catalog, self.state, actions)

    def search_index(self) -> SearchIndex:
        """Built once, off the start-up path: after the first view, or on the first search."""
        with self._index_lock:
            if self._index is None:
                self._index = SearchIndex.build(self.regulation)
            return self._index

    # -- actions ------------------------------------------------------------------------

    def navigate(self, route: str) -> None:
        self.page.navigate(route)

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
        self.state.change_settings(**changes)
        if "language" in changes:
            self.state.language_chosen = True
        apply_theme(self.page, self.state.settings.theme)
        self._save(KEY_LANGUAGE, KEY_THEME, KEY_TEXT_SCALE)
        self._version += 1
        self.render()

    def toggle_language(self) -> None:
        self.change_settings(language="en" if self.state.settings.language == "ja" else "ja")

    def _save(self, *keys: str) -> None:
        """Stores `keys` in the background; the language only once the judge has chosen one."""
        values = {key: value for key, value in stored_values(self.state).items() if key in keys}
        if not self.state.language_chosen:
            values.pop(KEY_LANGUAGE, None)

        async def save() -> None:
            for key, value in values.items():
                await self.prefs.set(key, value)

        self.page.run_task(save)

    # -- routing ------------------------------------------------------------------------

    def _on_route_change(self, event: ft.RouteChangeEvent) -> None:
        self.show(event.route)

    async def _on_view_pop(self, event: ft.ViewPopEvent) -> None:
        if len(self.history) > 1:
            self.history.pop()
            await self.page.push_route(self.history[-1])

    def _on_resize(self, event: ft.PageResizeEvent) -> None:
        wide = event.width >= WIDE_BREAKPOINT
        if wide != self.state.wide:
            self.state.wide = wide
            self._version += 1
            self.render()

    def show(self, route: str) -> None:
        parsed = routes.parse(route)
        if parsed.path in self.history:  # back, or a link to a screen already open
            del self.history[self.history.index(parsed.path) + 1 :]
        elif parsed.screen in routes.ROOT_SCREENS:
            self.history = [parsed.path]
        else:
            if not self.history:  # a deep link: back leads up to the destination's root
                self.history = self._parents(parsed)
            self.history.append(parsed.path)
        if parsed.tab is not None:
            self.state.tab = parsed.tab
        self.state.selected_id = parsed.item
        if parsed.screen == "search":
            self.state.search_query = parsed.query
        if parsed.item and self.regulation.entry(parsed.item):
            self.state.visit(parsed.item)
            self._save(KEY_RECENT)
        self.render()

    def _parents(self, route: routes.Route) -> list[str]:
        """The screens above a deep-linked one: an infraction sits under its category."""
        infraction = self.regulation.infraction(route.item or "")
        if route.screen == "infraction" and infraction:
            section = self.regulation.section(infraction.section_id)
            self.state.tab = routes.CATEGORIES_TAB
            if section:
                return [routes.CATEGORIES, routes.category(section.category_id)]
        tab = route.tab if route.tab is not None else self.state.tab
        return [routes.TAB_ROOTS[tab]]

    def render(self) -> None:
        """Shows the history's views: the top one built afresh, the ones below it reused.

        After a change that alters every screen (language, text size, layout, bookmarks) the
        views below the top are rebuilt too, but just after the top one is on screen: the judge
        sees the change at once, and going back never shows the old language."""
        # Flutter's own labels (Back, tab positions for screen readers) in the shown language.
        self.page.locale_configuration = LOCALES[self.state.settings.language]
        views = []
        for depth, path in enumerate(self.history):
            cached = self._views.get(path)
            if cached and depth < len(self.history) - 1:
                views.append(cached[1])
            else:
                views.append(self._view(path, self.history[:depth]))
                self._views[path] = (self._version, views[-1])
        self._views = {path: self._views[path] for path in self.history}
        self.page.views[:] = views
        self.page.update()
        if any(version != self._version for version, _view in self._views.values()):
            self.page.run_task(self._refresh_views_below, list(self.history))

    async def _refresh_views_below(self, history: list[str]) -> None:
        if history != self.history:
            return  # the judge has moved on; that render refreshed what it showed
        for depth, path in enumerate(history):
            if self._views[path][0] != self._version:
                self.page.views[depth] = self._view(path, history[:depth])
                self._views[path] = (self._version, self.page.views[depth])
        self.page.update()

    # -- views --------------------------------------------------------------------------

    def screen(self, route: routes.Route) -> Screen:
        ctx, regulation = self.context, self.regulation
        item = route.item or ""
        builders = {
            "tiers": lambda: tiers_screen(ctx),
            "categories": lambda: categories_screen(ctx),
            "search": lambda: search_screen(ctx, self.state.search_query),
            "saved": lambda: saved_screen(ctx),
            "settings": lambda: settings_screen(ctx),
            "about": lambda: about_screen(ctx),
        }
        if route.screen in builders:
            return builders[route.screen]()
        found = {
            "tier": (regulation.tier(item), tier_screen),
            "category": (regulation.category(item), category_screen),
            "infraction": (regulation.infraction(item), infraction_screen),
            "principle": (regulation.principle(item), principle_screen),
        }.get(route.screen)
        if found and found[0] is not None:
            return found[1](ctx, found[0])
        return not_found_screen(ctx, route.raw)

    def _master_route(self, earlier: list[str], tab: int) -> routes.Route:
        """What the list pane shows beside a detail: the list the judge came from (a section's
        infractions, the search results), else the navigation destination's root."""
        for path in reversed(earlier):
            route = routes.parse(path)
            if route.screen in LIST_SCREENS:
                return route
        return routes.parse(routes.TAB_ROOTS[tab])

    def _view(self, raw_route: str, earlier: list[str]) -> ft.View:
        route = routes.parse(raw_route)
        screen = self.screen(route)
        tab = route.tab if route.tab is not None else self.state.tab
        appbar = self._appbar(screen, can_go_back=raw_route != self.history[0])
        if not self.state.wide:
            return ft.View(
                route=raw_route,
                appbar=appbar,
                navigation_bar=self._navigation_bar(tab),
                controls=[ft.Container(screen.body, padding=12, expand=True)],
                padding=0,
            )
        is_root = route.screen in routes.ROOT_SCREENS
        master = screen if is_root else self.screen(self._master_route(earlier, tab))
        detail = (
            ft.Container(
                ft.Text(self.context.ui(S.SELECT_AN_ITEM), size=self.context.sizes.body),
                alignment=ft.Alignment.CENTER,
            )
            if is_root
            else screen.body
        )
        return ft.View(
            route=raw_route,
            appbar=appbar,
            controls=[
                ft.Row(
                    [
                        self._navigation_rail(tab),
                        ft.VerticalDivider(width=1),
                        ft.Container(master.body, width=MASTER_PANE_WIDTH, padding=12),
                        ft.VerticalDivider(width=1),
                        ft.Container(detail, expand=True, padding=16),
                    ],
                    expand=True,
                    vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                )
            ],
            padding=0,
        )

    def _appbar(self, screen: Screen, can_go_back: bool) -> ft.AppBar:
        ctx = self.context
        actions: list[ft.Control] = []
        if screen.bookmark_id:
            marked = screen.bookmark_id in self.state.bookmarks
            entry_id = screen.bookmark_id
            actions.append(
                icon_button(
                    ft.Icons.STAR if marked else ft.Icons.STAR_BORDER,
                    ctx.ui(S.REMOVE_BOOKMARK if marked else S.ADD_BOOKMARK),
                    on_click=lambda _: self.toggle_bookmark(entry_id),
                )
            )
        other = S.LANG_EN if self.state.settings.language == "ja" else S.LANG_JA
        actions.append(
            ft.TextButton(
                ctx.text(other)["en" if other == S.LANG_EN else "ja"],
                icon=ft.Icons.TRANSLATE,
                tooltip=ctx.ui(S.SWITCH_LANGUAGE),
                on_click=lambda _: self.toggle_language(),
            )
        )
        return ft.AppBar(
            title=ft.Text(screen.title, size=ctx.sizes.heading, max_lines=2),
            actions=actions,
            automatically_imply_leading=can_go_back,
        )

    def _destinations(self) -> list[tuple[str, str, str]]:
        return [
            (icon, selected, self.context.ui_short(label))
            for icon, selected, label in NAV_DESTINATIONS
        ]

    def _go_to_tab(self, index: int) -> None:
        self.navigate(routes.TAB_ROOTS[index])

    def _navigation_bar(self, tab: int) -> ft.NavigationBar:
        return ft.NavigationBar(
            destinations=[
                ft.NavigationBarDestination(icon=icon, selected_icon=selected, label=label)
                for icon, selected, label in self._destinations()
            ],
            selected_index=tab,
            on_change=lambda e: self._go_to_tab(int(e.control.selected_index)),
        )

    def _navigation_rail(self, tab: int) -> ft.NavigationRail:
        return ft.NavigationRail(
            destinations=[
                ft.NavigationRailDestination(icon=icon, selected_icon=selected, label=label)
                for icon, selected, label in self._destinations()
            ],
            selected_index=tab,
            label_type=ft.NavigationRailLabelType.ALL,
            on_change=lambda e: self._go_to_tab(int(e.control.selected_index)),
        )


async def main(page: ft.Page) -> None:
    """The Flet entry point: data first (fast, validated), then the shell."""
    shell = Shell(page, load_regulation(), load_catalog())
    page.data = shell  # keeps the shell (and its preferences service) alive with the page
    await shell.start()


def before_main(page: ft.Page) -> None:
    """Runs before the page's first state reaches the client, so the theme and its font are
    there from the first frame, and theme changes are not animated: otherwise Flutter web lays
    text out for a few frames in the default Roboto and asks for Noto fallback fonts."""
    apply_theme(page, "system")
    page.theme_animation_style = ft.AnimationStyle.no_animation()

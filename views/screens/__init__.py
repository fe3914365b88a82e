"""The screen table: one record per navigation destination and one per screen.

Everything else is derived from these two tables: the bottom bar and the rail, which tab a
screen lights, which routes start a new history, what a deep link goes back to, which screens
can stand beside an entry on wide windows. Adding a screen is a route pattern in
views/routes.py, a module here, and one `ScreenSpec` below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import flet as ft

from regulation.model import Regulation

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..routes import Pattern, Route
from .categories import categories_screen, category_screen
from .finder import finder_screen
from .infraction import infraction_screen
from .search import search_screen
from .settings import about_screen, settings_screen
from .tiers import principle_screen, tier_screen, tiers_screen

# Builds a route's screen; None when the route names an item that does not exist.
Builder = Callable[[Context, Route], Screen | None]
# The routes a deep link sits on, so that back leads somewhere (default: its destination's root).
Parents = Callable[[Context, Route], list[str]]


@dataclass(frozen=True, slots=True)
class Destination:
    """An entry of the bottom bar (phones) and the rail (wide windows)."""

    root: Pattern
    icon: ft.IconData
    selected_icon: ft.IconData
    label: str  # message id (views/strings.py)


@dataclass(frozen=True, slots=True)
class ScreenSpec:
    """One screen: its address, the destination it lights (None: stays where the judge came
    from, like an infraction opened from a tier, a search or a bookmark), how to build it."""

    pattern: Pattern
    destination: Destination | None
    build: Builder
    lists: bool = False  # a list of entries: stands beside the open entry on wide windows
    parents: Parents | None = None


T = TypeVar("T")


def _item(find: Callable[[Regulation, str], T | None], build: Callable[[Context, T], Screen]):
    """A builder for a route naming an entry: not found when the id is unknown."""

    def build_screen(ctx: Context, route: Route) -> Screen | None:
        found = find(ctx.regulation, route.item or "")
        return None if found is None else build(ctx, found)

    return build_screen


def _finder_step(ctx: Context, route: Route) -> Screen | None:
    """A later question; the first one has its own address (/finder)."""
    node = ctx.finder.node(route.item or "")
    if node is None or node is ctx.finder.root:
        return None
    return finder_screen(ctx, node)


def _finder_parents(ctx: Context, route: Route) -> list[str]:
    """A deep-linked question sits on the questions answered to reach it."""
    node = ctx.finder.node(route.item or "")
    steps = ctx.finder.path_to(node.id) if node else ()
    return [routes.FINDER.link()] + [routes.FINDER_STEP.link(s.node.id) for s in steps[1:]]


def _infraction_parents(ctx: Context, route: Route) -> list[str]:
    """A deep-linked infraction sits under its category."""
    infraction = ctx.regulation.infraction(route.item or "")
    section = ctx.regulation.section(infraction.section_id) if infraction else None
    if section is None:
        return [routes.CATEGORIES.link()]
    return [routes.CATEGORIES.link(), routes.CATEGORY.link(section.category_id)]


_LATER_MODULES: set[str] = set()  # the modules of `_later` builders


def _later(module: str, builder: str) -> Builder:
    """A builder in a module imported on first use: the penalty log's screens import records/,
    which costs tens of milliseconds the first view must not pay (`load_later_screens`)."""
    _LATER_MODULES.add(module)

    def build_screen(ctx: Context, route: Route) -> Screen | None:
        build: Builder = getattr(importlib.import_module(f"{__name__}.{module}"), builder)
        return build(ctx, route)

    return build_screen


def load_later_screens() -> None:
    """Imports the modules kept off the start-up path, ahead of the judge: called by the
    background warm-up right after the first view (views/shell.py)."""
    for module in sorted(_LATER_MODULES):
        importlib.import_module(f"{__name__}.{module}")


def _show_parents(ctx: Context, route: Route) -> list[str]:
    """A deep-linked "show the player" sits on its infraction's page."""
    return [*_infraction_parents(ctx, route), routes.INFRACTION.link(route.item or "")]


def _record_edit_parents(ctx: Context, route: Route) -> list[str]:
    """A deep-linked edit sits on its record, in the log."""
    return [routes.LOG.link(), routes.LOG_RECORD.link(route.item or "")]


TIERS = Destination(routes.TIERS, ft.Icons.GAVEL_OUTLINED, ft.Icons.GAVEL, S.NAV_TIERS)
CATEGORIES = Destination(
    routes.CATEGORIES, ft.Icons.CATEGORY_OUTLINED, ft.Icons.CATEGORY, S.NAV_CATEGORIES
)
FINDER = Destination(routes.FINDER, ft.Icons.QUIZ_OUTLINED, ft.Icons.QUIZ, S.NAV_FINDER)
SEARCH = Destination(routes.SEARCH, ft.Icons.SEARCH_OUTLINED, ft.Icons.SEARCH, S.NAV_SEARCH)
LOG = Destination(routes.LOG, ft.Icons.EDIT_NOTE_OUTLINED, ft.Icons.EDIT_NOTE, S.NAV_LOG)
CLOCK = Destination(routes.CLOCK, ft.Icons.TIMER_OUTLINED, ft.Icons.TIMER, S.NAV_CLOCK)

# In the order of the bar and the rail. Settings open from the app bar (views/layout.py).
DESTINATIONS: tuple[Destination, ...] = (TIERS, CATEGORIES, FINDER, SEARCH, LOG, CLOCK)

SCREENS: tuple[ScreenSpec, ...] = (
    ScreenSpec(routes.TIERS, TIERS, lambda ctx, _: tiers_screen(ctx), lists=True),
    ScreenSpec(routes.TIER, TIERS, _item(Regulation.tier, tier_screen), lists=True),
    ScreenSpec(routes.PRINCIPLE, TIERS, _item(Regulation.principle, principle_screen)),
    ScreenSpec(routes.CATEGORIES, CATEGORIES, lambda ctx, _: categories_screen(ctx), lists=True),
    ScreenSpec(
        routes.CATEGORY, CATEGORIES, _item(Regulation.category, category_screen), lists=True
    ),
    ScreenSpec(
        routes.INFRACTION,
        None,
        _item(Regulation.infraction, infraction_screen),
        parents=_infraction_parents,
    ),
    ScreenSpec(
        routes.FINDER, FINDER, lambda ctx, _: finder_screen(ctx, ctx.finder.root), lists=True
    ),
    ScreenSpec(
        routes.FINDER_STEP,
        FINDER,
        _finder_step,
        lists=True,
        parents=_finder_parents,
    ),
    ScreenSpec(
        routes.SEARCH,
        SEARCH,
        lambda ctx, _: search_screen(ctx, ctx.state.search_query),
        lists=True,
    ),
    ScreenSpec(routes.LOG, LOG, _later("log", "log_screen"), lists=True),
    ScreenSpec(routes.LOG_NEW, LOG, _later("log_form", "new_record_screen")),
    ScreenSpec(routes.LOG_RECORD, LOG, _later("log_record", "record_screen")),
    ScreenSpec(
        routes.LOG_EDIT, LOG, _later("log_form", "edit_record_screen"), parents=_record_edit_parents
    ),
    ScreenSpec(routes.LOG_PLAYER, LOG, _later("log", "player_screen"), lists=True),
    ScreenSpec(routes.LOG_EVENT, LOG, _later("log_event", "event_screen")),
    ScreenSpec(routes.LOG_EXCHANGE, LOG, _later("log_exchange", "exchange_screen")),
    ScreenSpec(routes.LOG_DELETED, LOG, _later("log_deleted", "deleted_screen")),
    ScreenSpec(routes.LOG_SYNC, LOG, _later("sync", "sync_screen")),
    ScreenSpec(routes.CLOCK, CLOCK, _later("clock", "clock_screen")),
    ScreenSpec(routes.SHOW, None, _later("show", "show_screen"), parents=_show_parents),
    ScreenSpec(routes.SETTINGS, None, lambda ctx, _: settings_screen(ctx)),
    ScreenSpec(routes.ABOUT, None, lambda ctx, _: about_screen(ctx)),
)


class ScreenTable:
    """Look-ups derived from the two tables (built once; tests build their own)."""

    def __init__(
        self, destinations: tuple[Destination, ...], screens: tuple[ScreenSpec, ...]
    ) -> None:
        self.destinations = destinations
        self.screens = screens
        self.patterns = tuple(spec.pattern for spec in screens)
        self._by_pattern = {spec.pattern: spec for spec in screens}
        self.roots = frozenset(d.root for d in destinations)
        missing = [d.root.template for d in destinations if d.root not in self._by_pattern]
        if missing:
            raise ValueError(f"destinations without a screen: {missing}")

    def parse(self, raw: str | None) -> Route:
        return routes.parse(raw, self.patterns)

    def spec(self, route: Route) -> ScreenSpec | None:
        return self._by_pattern.get(route.pattern) if route.pattern else None

    def tab(self, route: Route) -> int | None:
        """The destination a route lights, if it has its own."""
        spec = self.spec(route)
        if spec is None or spec.destination is None:
            return None
        return self.destinations.index(spec.destination)

    def is_root(self, route: Route) -> bool:
        return route.pattern in self.roots

    def lists(self, route: Route) -> bool:
        spec = self.spec(route)
        return spec is not None and spec.lists

    def parents(self, ctx: Context, route: Route, tab: int) -> list[Route]:
        """What a deep link goes back to: its own parents, else its destination's root (or
        the current destination's, for a screen without one)."""
        spec = self.spec(route)
        if spec is not None and spec.parents is not None:
            return [self.parse(path) for path in spec.parents(ctx, route)]
        own = self.tab(route)
        return [self.parse(self.destinations[tab if own is None else own].root.link())]

    def build(self, ctx: Context, route: Route) -> Screen | None:
        spec = self.spec(route)
        return spec.build(ctx, route) if spec else None


SCREEN_TABLE = ScreenTable(DESTINATIONS, SCREENS)

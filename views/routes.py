"""Every route of the app, defined once: builders for links and a parser for the shell."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

TIERS = "/tiers"
CATEGORIES = "/categories"
SEARCH = "/search"
SAVED = "/saved"
SETTINGS = "/settings"
ABOUT = "/about"
HOME = TIERS

# Screens that are the root of a navigation destination (bottom bar / rail), in order.
TAB_ROOTS = (TIERS, CATEGORIES, SEARCH, SAVED, SETTINGS)


def tier(tier_id: str) -> str:
    return f"{TIERS}/{tier_id}"


def category(category_id: str) -> str:
    return f"{CATEGORIES}/{category_id}"


def infraction(infraction_id: str) -> str:
    return f"/infractions/{infraction_id}"


def principle(principle_id: str) -> str:
    return f"/principles/{principle_id}"


def search(query: str = "") -> str:
    return f"{SEARCH}?q={quote(query)}" if query else SEARCH


@dataclass(frozen=True, slots=True)
class Route:
    """A parsed route: which screen, which item, and the search query if any."""

    screen: str  # tiers, tier, categories, category, infraction, principle, search, saved, …
    item: str | None = None
    query: str = ""
    raw: str = "/"  # as asked for; `path` is the one spelling of the same screen
    path: str = HOME

    @property
    def tab(self) -> int | None:
        """The navigation destination this screen belongs to, if it is one of them."""
        return TAB_OF_SCREEN.get(self.screen)


CATEGORIES_TAB = TAB_ROOTS.index(CATEGORIES)  # where a deep-linked infraction belongs

TAB_OF_SCREEN = {
    "tiers": 0,
    "tier": 0,
    "principle": 0,
    "categories": 1,
    "category": 1,
    "search": 2,
    "saved": 3,
    "settings": 4,
    "about": 4,
}

_SCREEN_OF_SEGMENT = {
    "": "tiers",
    "tiers": "tiers",
    "categories": "categories",
    "search": "search",
    "saved": "saved",
    "settings": "settings",
    "about": "about",
}
_ITEM_SCREENS = {
    "tiers": "tier",
    "categories": "category",
    "infractions": "infraction",
    "principles": "principle",
}


def parse(route: str | None) -> Route:
    """Any string → a Route; what the app does not know becomes the `not-found` screen."""
    raw = route or "/"
    parts = urlsplit(raw)
    segments = [s for s in parts.path.split("/") if s]
    query = parse_qs(parts.query).get("q", [""])[0]
    if len(segments) <= 1:
        screen = _SCREEN_OF_SEGMENT.get(segments[0] if segments else "")
        if screen == "search":
            return Route(screen, query=query, raw=raw, path=search(query))
        if screen:
            return Route(screen, raw=raw, path=f"/{screen}")
    elif len(segments) == 2 and segments[0] in _ITEM_SCREENS:
        path = "/" + "/".join(segments)
        return Route(_ITEM_SCREENS[segments[0]], item=segments[1], raw=raw, path=path)
    return Route("not-found", raw=raw, path=raw)


# The screens of the navigation destinations' roots (they start a new history).
ROOT_SCREENS = frozenset(parse(root).screen for root in TAB_ROOTS)

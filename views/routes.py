"""Addresses: every screen's route pattern, parsing a route string, and the history of routes.

Pure Python (no Flet), so that it can be tested on its own. Which screen answers a pattern,
and which navigation destination it belongs to, is the screen table's business
(views/screens/__init__.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

ITEM = "{id}"  # the one variable segment a pattern may have


@dataclass(frozen=True, slots=True)
class Pattern:
    """The address of one screen: fixed segments and at most one `{id}`, e.g. /tiers/{id};
    `query_keys` are the query parameters the screen reads (search: q)."""

    template: str
    query_keys: tuple[str, ...] = ()

    @property
    def segments(self) -> tuple[str, ...]:
        return tuple(s for s in self.template.split("/") if s)

    @property
    def takes_item(self) -> bool:
        return ITEM in self.segments

    def link(self, item: str | None = None, **query: str) -> str:
        """The canonical route of this screen (for `item`, with `query`)."""
        if self.takes_item != (item is not None):
            raise ValueError(f"{self.template} {'needs' if self.takes_item else 'takes no'} id")
        segments = [quote(item, safe="") if s == ITEM and item else s for s in self.segments]
        path = "/" + "/".join(segments)
        values = {key: query[key] for key in self.query_keys if query.get(key)}
        return f"{path}?{urlencode(values, quote_via=quote)}" if values else path

    def match(self, segments: list[str]) -> tuple[bool, str | None]:
        """Whether `segments` are this pattern's, and the item they carry."""
        mine = self.segments
        if len(segments) != len(mine):
            return False, None
        item = None
        for wanted, given in zip(mine, segments, strict=True):
            if wanted == ITEM:
                item = given
            elif wanted != given:
                return False, None
        return True, item


TIERS = Pattern("/tiers")
TIER = Pattern("/tiers/{id}")
PRINCIPLE = Pattern("/principles/{id}")
CATEGORIES = Pattern("/categories")
CATEGORY = Pattern("/categories/{id}")
INFRACTION = Pattern("/infractions/{id}")
SEARCH = Pattern("/search", query_keys=("q",))
FINDER = Pattern("/finder")  # the first question
FINDER_STEP = Pattern("/finder/{id}")  # any later one
# The penalty log (views/screens/log*.py)
LOG = Pattern("/log")  # the current tournament's records
# The record form: from an infraction's page (infraction=), or "arrived now" (arrived=, the
# moment of the tap in whole seconds since the epoch, so that going back to it keeps the time).
LOG_NEW = Pattern("/log/new", query_keys=("infraction", "arrived"))
LOG_RECORD = Pattern("/log/records/{id}")  # a record, by its UUID
LOG_EDIT = Pattern("/log/records/{id}/edit")
LOG_PLAYER = Pattern("/log/players/{id}", query_keys=("pid",))  # name, and the player ID if any
LOG_EVENT = Pattern("/log/event")  # the tournament's settings, rounds, other tournaments
LOG_EXCHANGE = Pattern("/log/exchange")  # export and import
LOG_DELETED = Pattern("/log/deleted")  # the current tournament's deleted records
LOG_SYNC = Pattern("/log/sync")  # judges' sync: host, join, status, leave
CLOCK = Pattern("/clock")  # the round clock and the end-of-round list
SETTINGS = Pattern("/settings")
ABOUT = Pattern("/about")
HOME = TIERS  # what "/" shows


@dataclass(frozen=True, slots=True)
class Route:
    """A parsed route: which screen (its pattern; None when no screen has this address), which
    item, the query values the screen reads, as asked for (`raw`) and in its one spelling
    (`path`, what the history keeps)."""

    pattern: Pattern | None
    item: str | None = None
    query: tuple[tuple[str, str], ...] = ()
    raw: str = "/"
    path: str = "/"

    def value(self, key: str) -> str:
        return dict(self.query).get(key, "")


def parse(raw: str | None, patterns: Iterable[Pattern]) -> Route:
    """Any string → a Route; what no pattern matches has no pattern (the not-found screen)."""
    raw = raw or "/"
    parts = urlsplit(raw)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if not segments:
        return _route(HOME, None, {}, raw)
    values = {key: found[0] for key, found in parse_qs(parts.query).items() if found}
    for pattern in patterns:
        matched, item = pattern.match(segments)
        if matched:
            return _route(pattern, item, values, raw)
    return Route(None, raw=raw, path=parts.path)


def _route(pattern: Pattern, item: str | None, values: dict[str, str], raw: str) -> Route:
    query = tuple((key, values[key]) for key in pattern.query_keys if values.get(key))
    return Route(pattern, item, query, raw, pattern.link(item, **dict(query)))


@dataclass(slots=True)
class History:
    """The routes the back button walks through, oldest first; never empty once started."""

    stack: list[Route] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.stack)

    def go(self, route: Route, is_root: bool, parents: list[Route]) -> None:
        """Shows `route`: back to it when it is already open (so back never loops), a fresh
        history at a destination's root, else on top; a first route sits on its `parents`."""
        paths = [r.path for r in self.stack]
        if route.path in paths:
            del self.stack[paths.index(route.path) + 1 :]
            self.stack[-1] = route
        elif is_root:
            self.stack = [route]
        else:
            if not self.stack:
                self.stack = list(parents)
            self.stack.append(route)

    def back(self) -> Route | None:
        """Drops the top route; the one now shown, or None at the root."""
        if len(self.stack) < 2:
            return None
        self.stack.pop()
        return self.stack[-1]

"""What every screen builder receives: the data, the state, the strings and the actions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from regulation.catalog import Catalog
from regulation.model import Regulation, Text
from regulation.search import SearchIndex

from .state import AppState
from .theme import TypeScale


@dataclass(frozen=True, slots=True)
class Actions:
    """What screens may ask the shell to do; the shell owns the page."""

    navigate: Callable[[str], None]
    toggle_bookmark: Callable[[str], None]
    change_settings: Callable[..., None]
    clear_recent: Callable[[], None]


@dataclass(frozen=True, slots=True)
class Context:
    regulation: Regulation
    search_index: Callable[[], SearchIndex]  # built on first use (views/app.py)
    catalog: Catalog
    state: AppState
    actions: Actions

    @property
    def index(self) -> SearchIndex:
        return self.search_index()

    @property
    def lang(self) -> str:
        return self.state.settings.language

    @property
    def sizes(self) -> TypeScale:
        return TypeScale(self.state.settings.text_scale)

    def text(self, message: str) -> Text:
        """A UI string (views/strings.py) in both languages."""
        return Text(ja=message, en=self.catalog.lookup(message) or message)

    def ui(self, message: str, **values: object) -> str:
        """A UI string in the current language; "both" shows Japanese / English."""
        text = self.text(message)
        if self.lang == "both":
            ja, en = text.ja.format(**values), text.en.format(**values)
            return ja if ja == en else f"{ja} / {en}"
        return text[self.lang].format(**values)

    def ui_short(self, message: str, **values: object) -> str:
        """For tight places (navigation labels): one language, Japanese in "both" mode."""
        return self.pick(self.text(message)).format(**values)

    def pick(self, text: Text) -> str:
        """A regulation string where only one language fits (lists, chips)."""
        return text["en" if self.lang == "en" else "ja"]


@dataclass(slots=True)
class Screen:
    """What a screen builder returns; the shell adds the app bar and navigation."""

    title: str
    body: object  # ft.Control; typed loosely so this module stays free of flet
    bookmark_id: str | None = None  # entry shown, for the app bar's bookmark star

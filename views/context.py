"""What every screen builder receives: the data, the state, the strings and the actions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import flet as ft

from regulation.catalog import Catalog
from regulation.finder import Finder
from regulation.model import DisplayLanguage, Regulation, Text
from regulation.search import SearchIndex

from .logbook import Logbook
from .state import AppState
from .theme import TypeScale


class Notify(Protocol):
    def __call__(self, message: str, undo: Callable[[], None] | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class Actions:
    """What screens may ask the shell to do; the shell owns the page."""

    navigate: Callable[[str], None]
    toggle_bookmark: Callable[[str], None]
    change_settings: Callable[..., None]
    clear_recent: Callable[[], None]
    # The penalty log's screens:
    replace: Callable[[str], None]  # navigate, the current screen leaving the history (a form)
    log_changed: Callable[[], None]  # records changed: views below the top are rebuilt
    refresh: Callable[[], None]  # rebuild the shown view (a record deleted in place)
    notify: Notify  # a short confirmation at the bottom (snack bar), maybe with an undo
    show_dialog: Callable[[ft.DialogControl], None]
    close_dialog: Callable[[], None]
    vibrate: Callable[[], None]  # a short vibration where the device has one (the clock)


@dataclass(frozen=True, slots=True)
class Context:
    regulation: Regulation
    finder: Finder
    search_index: Callable[[], SearchIndex]  # built on first use (views/app.py)
    catalog: Catalog
    state: AppState
    actions: Actions
    logbook: Logbook  # the penalty log, opened on first use (views/logbook.py)

    @property
    def index(self) -> SearchIndex:
        return self.search_index()

    @property
    def lang(self) -> DisplayLanguage:
        return self.state.settings.language

    @property
    def sizes(self) -> TypeScale:
        return TypeScale(self.state.settings.text_scale)

    def text(self, message: str, **values: object) -> Text:
        """A UI string (views/strings.py) in both languages, placeholders filled in."""
        text = self.catalog.text(message)
        return text.format(**values) if values else text

    def ui(self, message: str, **values: object) -> str:
        """A UI string in the shown language; "both" shows Japanese / English."""
        return self.text(message, **values).shown(self.lang)

    def ui_short(self, message: str, **values: object) -> str:
        """For tight places (navigation labels): one language, Japanese in "both" mode."""
        return self.text(message, **values).pick(self.lang)

    def pick(self, text: Text) -> str:
        """A regulation string where only one language fits (lists, chips)."""
        return text.pick(self.lang)

    def shown(self, text: Text) -> str:
        """A regulation string on one line: "ja / en" in "both" mode."""
        return text.shown(self.lang)


@dataclass(slots=True)
class Screen:
    """What a screen builder returns; the shell adds the app bar and navigation."""

    title: str
    body: ft.Control
    bookmark_id: str | None = None  # entry shown, for the app bar's bookmark star
    # What the empty detail pane says beside this screen on wide windows (a message id).
    detail_hint: str | None = None
    # Called once a second while this screen is on top (views/ticker.py); returns the seconds
    # until its display next changes, None to stop.
    tick: Callable[[], float | None] | None = None
    full_width: bool = False  # on wide windows, the whole area beside the rail (no list pane)
    # The control that takes the keyboard's focus when the screen opens (a form's first
    # field): asked for after the view is on screen, so that no other field's autofocus (the
    # search box in the list pane beside it) takes the judge's typing.
    focus: ft.Control | None = None

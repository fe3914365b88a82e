"""What every screen builder receives: the data, the state, the strings and the actions."""

from __future__ import annotations

import unicodedata
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
    log_changed: Callable[[], None]  # records changed: views below showing the log are rebuilt
    refresh: Callable[[], None]  # rebuild the shown view (a record deleted in place)
    notify: Notify  # a short confirmation at the bottom (snack bar), maybe with an undo
    show_dialog: Callable[[ft.DialogControl], None]
    back: Callable[[], None]  # one step back, as the app bar's arrow goes (a screen without bars)
    close_dialog: Callable[[], None]
    vibrate: Callable[[], None]  # a short vibration where the device has one (the clock)


@dataclass(frozen=True, slots=True)
class Context:
    regulation: Regulation
    finder: Finder
    search_index: Callable[[], SearchIndex]  # built on first use (views/shell.py)
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
        """A UI string in the shown language; "both" shows Japanese / English, but the judge's
        own data (a player's name and ID, a tournament's name) once: it needs no translating."""
        if self.lang == "both" and values:
            return self._both_once(message, values)
        return self.text(message, **values).shown(self.lang)

    def _both_once(self, message: str, values: dict[str, object]) -> str:
        """ "大会 / Tournament：X" for 大会：{name} / Tournament: {name}; a message that starts
        with the data ("{name}（ID {id}）") in Japanese alone, its words being marks. A message
        whose languages differ after its first placeholder (a sentence) is shown as usual."""
        template = self.catalog.text(message)
        ja_words, en_words = (t.split("{", 1)[0] for t in (template.ja, template.en))
        tails = {_plain(t[len(w) :]) for t, w in ((template.ja, ja_words), (template.en, en_words))}
        filled = template.format(**values)
        if len(tails) > 1:
            return filled.shown("both")
        if not ja_words.strip():
            return filled.ja
        rest = filled.ja[len(ja_words) :]
        return f"{ja_words.rstrip('：: ')} / {en_words.rstrip(': ')}：{rest}"

    def ui_short(self, message: str, **values: object) -> str:
        """For tight places (navigation labels): one language, Japanese in "both" mode."""
        return self.text(message, **values).pick(self.lang)

    def pick(self, text: Text) -> str:
        """A regulation string where only one language fits (lists, chips)."""
        return text.pick(self.lang)

    def shown(self, text: Text) -> str:
        """A regulation string on one line: "ja / en" in "both" mode."""
        return text.shown(self.lang)


def _plain(template: str) -> str:
    """A template's marks and spaces alike in both languages (（ and (, ： and :)."""
    return unicodedata.normalize("NFKC", template).replace(" ", "")


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
    full_screen: bool = False  # nothing around it: no app bar, navigation or list pane
    # Its rows mark the selected item by `ListTile.data` alone: a list pane kept beside the
    # detail follows the selection in place (views/wide.py).
    rows_follow_selection: bool = False

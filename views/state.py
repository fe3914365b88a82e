"""The app's state as plain dataclasses, and its round trip through stored preferences.

Stored values come back from the device (SharedPreferences; the browser's localStorage on the
web) and may be missing, from an older version, or corrupt — of any type and any size: each
reader falls back to its setting's default silently, and the other settings are kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from regulation.model import DISPLAY_LANGUAGES, DisplayLanguage

from .theme import TEXT_SCALES, THEME_MODES

DEFAULT_LANGUAGE: DisplayLanguage = "ja"
MAX_RECENT = 20
MAX_BOOKMARKS = 100
# Far above anything the app stores (100 ids of ~40 characters): a longer value is corrupt, and is
# dropped before any work is spent on it.
MAX_STORED_CHARS = 20_000
MAX_STORED_ITEMS = 1_000

# Keys in SharedPreferences, one per fact.
KEY_LANGUAGE = "language"
KEY_THEME = "theme"
KEY_TEXT_SCALE = "text_scale"
KEY_BOOKMARKS = "bookmarks"
KEY_RECENT = "recent"
KEYS = (KEY_LANGUAGE, KEY_THEME, KEY_TEXT_SCALE, KEY_BOOKMARKS, KEY_RECENT)


@dataclass(frozen=True, slots=True)
class Settings:
    language: DisplayLanguage = DEFAULT_LANGUAGE
    theme: str = "system"  # "system" | "light" | "dark"
    text_scale: float = 1.0


@dataclass(slots=True)
class AppState:
    settings: Settings = field(default_factory=Settings)
    bookmarks: list[str] = field(default_factory=list)  # entry ids, newest first
    recent: list[str] = field(default_factory=list)  # entry ids, newest first
    language_chosen: bool = False  # False until the user (or a stored value) picked one
    wide: bool = False
    width: float = 0.0  # px, the page's, as last reported (0: not yet)
    tab: int = 0  # the navigation destination last shown
    search_query: str = ""  # what the search field holds, kept across screens
    selected_id: str | None = None  # the entry shown in the detail pane, marked in lists
    # The page's first view is being drawn (web, sent with the register answer): what lies
    # below a phone's first screen may wait until it is laid out (views/screens/tiers.py).
    first_frame: bool = False
    rest_waits: bool = False  # a screen of the first view left part of itself for after it

    def change_settings(self, **changes: Any) -> None:
        self.settings = replace(self.settings, **changes)

    def toggle_bookmark(self, entry_id: str) -> bool:
        """Adds or removes a bookmark; True when it is now bookmarked."""
        if entry_id in self.bookmarks:
            self.bookmarks.remove(entry_id)
            return False
        self.bookmarks.insert(0, entry_id)
        del self.bookmarks[MAX_BOOKMARKS:]
        return True

    def visit(self, entry_id: str) -> None:
        if entry_id in self.recent:
            self.recent.remove(entry_id)
        self.recent.insert(0, entry_id)
        del self.recent[MAX_RECENT:]


def state_from_stored(stored: dict[str, Any], is_known_id: Callable[[str], bool]) -> AppState:
    """Builds the state from raw stored values; anything unusable becomes its default."""
    language = _language(stored.get(KEY_LANGUAGE))
    scale = _as_float(stored.get(KEY_TEXT_SCALE))
    settings = Settings(
        language=language or DEFAULT_LANGUAGE,
        theme=_choice(stored.get(KEY_THEME), THEME_MODES) or "system",
        text_scale=scale if scale in TEXT_SCALES else 1.0,
    )
    return AppState(
        settings=settings,
        bookmarks=_id_list(stored.get(KEY_BOOKMARKS), is_known_id, MAX_BOOKMARKS),
        recent=_id_list(stored.get(KEY_RECENT), is_known_id, MAX_RECENT),
        language_chosen=language is not None,
    )


def merge_stored(
    state: AppState, stored: dict[str, Any], is_known_id: Callable[[str], bool], keep_settings: bool
) -> tuple[bool, bool]:
    """Stored values read after the first view, into `state`: their settings when they hold a
    chosen language, unless `keep_settings` (the judge changed them since); their bookmarks and
    history merged, `state`'s first (newer). Returns (the settings changed, anything did)."""
    late = state_from_stored(stored, is_known_id)
    before = (state.settings, list(state.bookmarks), list(state.recent))
    if late.language_chosen and not keep_settings:
        state.settings, state.language_chosen = late.settings, True
    state.bookmarks = newest_first(state.bookmarks, late.bookmarks, MAX_BOOKMARKS)
    state.recent = newest_first(state.recent, late.recent, MAX_RECENT)
    after = (state.settings, state.bookmarks, state.recent)
    return state.settings != before[0], after != before


def stored_values(state: AppState) -> dict[str, str]:
    """What to store: plain strings, which every platform's preferences keep as they are."""
    return {
        KEY_LANGUAGE: state.settings.language,
        KEY_THEME: state.settings.theme,
        KEY_TEXT_SCALE: str(state.settings.text_scale),
        KEY_BOOKMARKS: json.dumps(state.bookmarks),
        KEY_RECENT: json.dumps(state.recent),
    }


def _language(value: Any) -> DisplayLanguage | None:
    return next(
        (lang for lang in DISPLAY_LANGUAGES if isinstance(value, str) and value == lang), None
    )


def _choice(value: Any, choices: Iterable[str]) -> str | None:
    return value if isinstance(value, str) and value in choices else None


def _as_float(value: Any) -> float | None:
    """A number, or text holding one (how the app stores it); None for anything else."""
    if isinstance(value, str) and len(value) <= MAX_STORED_CHARS:
        try:
            return float(value)
        except ValueError:
            return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # an int beyond any float
            return None
    return None


def _id_list(value: Any, is_known_id: Callable[[str], bool], limit: int) -> list[str]:
    """A JSON list of ids (how the app stores it) or a list; unknown ids are dropped."""
    if isinstance(value, str):
        if len(value) > MAX_STORED_CHARS:
            return []
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):  # not JSON, or nested beyond the parser
            return []
    if not isinstance(value, (list, tuple)) or len(value) > MAX_STORED_ITEMS:
        return []
    ids: list[str] = []
    for item in value:
        if isinstance(item, str) and item not in ids and is_known_id(item):
            ids.append(item)
            if len(ids) == limit:
                break
    return ids


def negotiate_language(device_locales: list[str]) -> str:
    """The first start follows the device: English if it prefers English, Japanese otherwise."""
    from babel import negotiate_locale  # imported here: babel's import is slow and rarely needed

    chosen = negotiate_locale([loc.replace("-", "_") for loc in device_locales], ["ja", "en"])
    return chosen or DEFAULT_LANGUAGE


def newest_first(newer: list[str], older: list[str], limit: int) -> list[str]:
    """Two id lists as one, newest first, each id once, at most `limit`."""
    return list(dict.fromkeys([*newer, *older]))[:limit]

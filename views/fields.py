"""Fields as tall and as wide as what they show (issue 20, item 13): at 175 % text, and in
"both" on a phone, Flutter's defaults cut a menu's value or kept an empty field tall."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable

import flet as ft

from .context import Context

# A wide (CJK) character is one em in the bundled font; the widest Latin text is less than
# this much of an em a character on average (capitals and digits included).
LATIN_EM = 0.62
# A dropdown menu's field around its text: its padding (12 px a side) and the arrow's button.
MENU_CHROME = 84


def text_em(text: str) -> float:
    """About how many ems `text` takes on one line (more, never less, than it does)."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else LATIN_EM for c in text)


def menu_width(ctx: Context, entries: Iterable[str]) -> int:
    """A dropdown menu as wide as its widest entry at the body size: its field is one line,
    and a fixed width cut its value ("すべての回戦 / All rounds" in 170 px)."""
    widest = max((text_em(entry) for entry in entries), default=0.0)
    return math.ceil(widest * ctx.sizes.body) + MENU_CHROME


def hint_while_empty(field: ft.TextField, hint: str) -> ft.TextField:
    """Gives `field` its placeholder only while it has the focus and is empty, the only time
    it is shown: Flutter keeps a field as tall as its placeholder whenever it has one (Flet
    1.0.5 has no `maintainHintSize`), and a long placeholder, wrapped, kept an empty field
    several lines tall (107 px for the log's player filter at 175 % on a desktop)."""
    on_change = field.on_change
    focused = False

    def follow() -> None:
        wanted = hint if focused and not field.value else None
        if field.hint_text != wanted:
            field.hint_text = wanted
            field.update()

    def changed(e: ft.Event[ft.TextField]) -> None:
        if on_change is not None:
            on_change(e)  # type: ignore[call-arg]
        follow()

    def focus(_: ft.Event[ft.TextField]) -> None:
        nonlocal focused
        focused = True
        follow()

    def blur(_: ft.Event[ft.TextField]) -> None:
        nonlocal focused
        focused = False
        follow()

    field.hint_text = None
    field.on_change, field.on_focus, field.on_blur = changed, focus, blur
    return field

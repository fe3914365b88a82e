"""The layouts the browser tests run in, defined once for every test file: a phone in portrait
and a laptop window (harness.SIZES), each in Japanese and in English.

    @pytest.mark.parametrize(("size", "lang", "locale"), layouts())           # all four
    @pytest.mark.parametrize(("size", "lang", "locale"), layouts(PAIR))       # two of them
    @pytest.mark.parametrize(("size", "lang"), layouts(PAIR, locale=False))

PAIR, a Japanese phone and an English desktop, covers both sizes and both languages in two
runs, for a test whose layouts matter less than its steps.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .harness import FlutterApp

# The browser's locale for each language of the app.
LOCALES = {"ja": "ja-JP", "en": "en-US"}

# (size, language): every combination, the pair first.
LAYOUTS: tuple[tuple[str, str], ...] = (
    ("phone", "ja"),
    ("desktop", "en"),
    ("phone", "en"),
    ("desktop", "ja"),
)
PAIR = LAYOUTS[:2]
OTHER_PAIR = LAYOUTS[2:]


def layouts(
    which: Sequence[tuple[str, str]] = LAYOUTS, *, locale: bool = True
) -> list[pytest.ParameterSet]:
    """The parameters (size, lang, locale), or (size, lang), of each layout, named
    "phone-ja", "desktop-en", …"""
    return [
        pytest.param(size, lang, *([LOCALES[lang]] if locale else []), id=f"{size}-{lang}")
        for size, lang in which
    ]


# -- several layouts in one start --------------------------------------------------------------
#
# A test whose subject is a screen, not the start, may cover a phone and a desktop in one page:
# the window is resized between them, as a laptop window is, and the app lays the screen out
# again (a start of Flutter is half of a browser test's time). A test whose subject is a start,
# a deep link or stored settings keeps a start per layout.


def relaid_out(app: FlutterApp, size: str) -> None:
    """Resizes `app`'s window to `size` and waits until the app has laid itself out for it: a
    phone's bottom navigation bar (tabs) shown, or a desktop's rail in its place, then still."""
    app.resize(size)
    tabs = app.page.get_by_role("tab")
    if size == "phone":
        tabs.first.wait_for(state="visible")
    else:
        tabs.first.wait_for(state="detached")
    app.settle()


def next_layout(app: FlutterApp, size: str, lang: str, now: str) -> None:
    """From the layout `app` shows (in language `now`) to `size` in `lang`: the language
    switched with the app bar's button, as a judge does, then the window resized."""
    from .test_browser import switch_language  # lazily: that module imports this one

    if lang != now:
        switch_language(app, now)
    if size != app.size:
        relaid_out(app, size)


def in_turn(
    start: Callable[[str, str], FlutterApp],
    runs: Sequence[tuple[str, str]],
    home: str,
    suffix: str = "",
) -> Iterator[tuple[FlutterApp, str, str]]:
    """One start, `start(size, lang)`, for the layouts of `runs` (size, language) in turn, each
    after the first reached at `home` by `next_layout`: yields (app, lang, the layout's name,
    e.g. "desktop-en" + suffix). The caller runs each layout's steps in `variant(name)`."""
    app: FlutterApp | None = None
    now = ""
    for size, lang in runs:
        name = f"{size}-{lang}{suffix}"
        with variant(name):
            if app is None:
                app = start(size, lang)
            else:
                app.go(home)
                next_layout(app, size, lang, now)
        now = lang
        yield app, lang, name


@contextlib.contextmanager
def variant(name: str) -> Iterator[None]:
    """Names the layout (e.g. "desktop-ja") in whatever fails inside: a failure of a test that
    covers several layouts says which one."""
    try:
        yield
    except AssertionError as exc:
        raise AssertionError(f"[{name}] {exc}") from exc
    except Exception as exc:  # a wait that timed out, …: the same error, the layout noted
        exc.add_note(f"in the layout {name}")
        raise

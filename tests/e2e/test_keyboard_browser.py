"""Keyboard only, in Debian's Chromium (issue 20, item 12): Tab reaches the six tier cards (Enter
opens one) and the log's round menus, each named by its label.

Where the keyboard's focus is: Flutter moves the browser's focus to the accessibility node of
the focused control (a text field's own <input>), so `document.activeElement` names it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from regulation.model import Regulation
from views import strings as S

from .harness import AppServer, FlutterApp
from .layouts import LOCALES, PAIR, layouts
from .test_browser import ui
from .test_log_layout import server_for

pytestmark = pytest.mark.browser

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return '';
  return (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' ? 'field: ' : '')
    + (e.getAttribute('aria-label') || e.textContent || '').trim().replace(/\\s+/g, ' ');
}"""


# Which element has the focus, as a number (the same element, the same number).
FOCUS_SERIAL = """() => {
  window.__focusSerials = window.__focusSerials || new WeakMap();
  const e = document.activeElement;
  if (!e) return 0;
  if (!window.__focusSerials.has(e)) window.__focusSerials.set(e, window.__focusSerials.size + 1
    + Math.floor(Math.random() * 1e9));
  return window.__focusSerials.get(e);
}"""


def tab_through(app: FlutterApp, presses: int) -> list[str]:
    """What has the focus after each of `presses` Tabs (each waited for: the focus moves once
    Flutter has handled the key, later on a loaded machine)."""
    names = []
    for _ in range(presses):
        before = app.page.evaluate(FOCUS_SERIAL)
        app.page.keyboard.press("Tab")
        deadline = time.monotonic() + 3
        while app.page.evaluate(FOCUS_SERIAL) == before and time.monotonic() < deadline:
            app.page.wait_for_timeout(50)
        app.page.wait_for_timeout(100)  # its accessible name settles with it
        names.append(app.page.evaluate(FOCUSED))
    return names


@pytest.fixture(scope="module")
def keyboard_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("keyboard-data")
    yield from server_for(folder, folder.parent / "keyboard-server.log")


@pytest.mark.parametrize(("size", "lang"), layouts(PAIR, locale=False))
def test_tab_reaches_every_tier_card_and_enter_opens_it(
    open_app, keyboard_server: AppServer, regulation: Regulation, size: str, lang: str
) -> None:
    app = open_app(size, LOCALES[lang], "/", server=keyboard_server)
    first = regulation.tiers[0]
    app.wait_for(app.text(re.compile("^" + re.escape(first.letter)), exact=False))
    app.settle()  # the cards laid out, nothing more to come from the server
    focused = tab_through(app, 16)
    labels = [f"{tier.letter} {tier.title[lang]}" for tier in regulation.tiers]
    missing = [label for label in labels if not any(n.startswith(label) for n in focused)]
    assert not missing, f"Tab never reached {missing}; it went {focused}"
    # Back to the last card, and Enter opens its tier.
    last = labels[-1]
    for _ in range(20):
        if app.page.evaluate(FOCUSED).startswith(last):
            break
        app.page.keyboard.press("Shift+Tab")
        app.page.wait_for_timeout(150)
    app.page.keyboard.press("Enter")
    app.wait_for(app.heading(re.compile(re.escape(regulation.tiers[-1].title[lang]))))


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def fields_tabbed_to(app: FlutterApp, start, label: str, presses: int) -> list[str]:
    """Where Tab goes from the field `start` (named `label`), in order."""
    app.wait_for(start)
    for _ in range(20):  # a tap may land while the route still slides in
        start.first.click()
        app.page.wait_for_timeout(200)
        if app.page.evaluate(FOCUSED).startswith(f"field: {label}"):
            break
    else:
        raise AssertionError(f"could not focus {label!r}: {app.page.evaluate(FOCUSED)!r}")
    return tab_through(app, presses)


# Phones: a desktop's Tab order across its panes is tests/e2e/test_pane_order_browser.py's.
@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("phone", "ja")])
def test_tab_reaches_the_round_menus_by_their_names(
    open_app, keyboard_server: AppServer, size: str, lang: str
) -> None:
    """The record form: Tab from the player's ID goes to the round (named) before the table;
    the log: from the player filter to the round filter (named) before the table filter."""
    app = open_app(
        size,
        LOCALES[lang],
        "/log/new?infraction=drew-extra-cards",
        server=keyboard_server,
        settings={"language": lang},
    )
    player_id = ui(S.PLAYER_ID, lang)
    stops = fields_tabbed_to(app, field(app, player_id), player_id, 6)
    table_label = f"field: {ui(S.FORM_TABLE, lang)}"
    table = next((i for i, n in enumerate(stops) if n.startswith(table_label)), len(stops))
    assert all(stops[:table]), f"a Tab stop without a name: {stops}"  # the menu's arrow was
    reached = [n for n in stops if n.startswith("field: ")]
    assert reached and reached[0].startswith(f"field: {ui(S.FORM_ROUND, lang)}"), reached
    app.go("/log")
    log_filter = ui(S.LOG_FILTER, lang)
    stops = fields_tabbed_to(app, field(app, log_filter), log_filter, 6)
    reached = [n for n in stops if n.startswith("field: ")]
    assert reached and reached[0].startswith(f"field: {ui(S.LOG_ROUND_FILTER, lang)}"), reached

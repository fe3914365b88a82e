"""A judge's typing stays in the field clicked, on a wide window (issue 20, items 12 and 15), in
Debian's Chromium with the accessibility tree on (as a screen reader has it).

Found on the one-view wide page (views/wide.py): with a tooltip showing, a click on a text field
gave the field the browser's focus and Flutter took it away about 0.1-0.2 s later, so the code
a judge typed next went nowhere (or the Control+A meant to clear it did). The wide page's back
arrow filled its whole 56 px slot, up to the window's corner, where a resting mouse (and the
harness's screenshots) showed its tooltip. Flutter's own back arrow, and the one now, answer
the arrow alone. Each case here rests the mouse in that corner, clicks the field once, as a
judge does, and types: it failed on the old page every time (the field kept its old text).

The fault itself is Flutter's and is on main too (found here, not mended: a click on a field
while the settings button's tooltip shows loses the focus the same way, with the
accessibility tree on; without it the click works). See docs/testing.md.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from views import strings as S

from .harness import AppServer, FlutterApp
from .test_browser import containing, ui
from .test_log_layout import server_for

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"
REST_MS = 1_500  # longer than a tooltip's wait (0.8 s): it shows while the mouse rests
ACTIVE = """() => {
  const e = document.activeElement;
  return e ? `${e.tagName} ${e.getAttribute('aria-label') || ''}` : '';
}"""


@pytest.fixture(scope="module")
def focus_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("focus-data")
    yield from server_for(folder, folder.parent / "focus-server.log")


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def click_once_and_type(app: FlutterApp, box, text: str) -> None:
    """The mouse rests in the window's top-left corner, then one click on `box` and the keys:
    the field must hold exactly `text` (nothing lost, nothing typed elsewhere)."""
    app.page.mouse.move(1, 1)
    app.page.wait_for_timeout(REST_MS)
    app.page.evaluate("() => document.activeElement?.blur()")
    box.first.click()
    app.page.wait_for_timeout(400)  # the moment in which the focus was taken away
    app.page.keyboard.type(text, delay=30)
    deadline = time.monotonic() + 5
    while box.first.input_value() != text and time.monotonic() < deadline:
        app.page.wait_for_timeout(100)
    held = box.first.input_value()
    focus = app.page.evaluate(ACTIVE)
    assert held == text, f"the field holds {held!r}, not {text!r}; the focus is on {focus!r}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_join_code_typed_after_one_click_lands_in_its_field(
    open_app, focus_server: AppServer, lang: str
) -> None:
    app = open_app("desktop", {"en": "en-US", "ja": "ja-JP"}[lang], "/log", server=focus_server)
    app.tap(app.wait_for(app.button(containing(ui(S.SYNC_OPEN, lang)))))
    code = app.wait_for(field(app, ui(S.SYNC_CODE, lang)))
    app.wait_for(app.labelled(ui(S.SHOW_BACK, lang)))  # the wide page's own back arrow
    click_once_and_type(app, code, "ABCD-EFGH-JKLM")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_players_name_typed_after_one_click_lands_in_the_form(
    open_app, focus_server: AppServer, lang: str
) -> None:
    locale = {"en": "en-US", "ja": "ja-JP"}[lang]
    app = open_app("desktop", locale, f"/infractions/{DREW}", server=focus_server)
    app.tap(app.wait_for(app.button(ui(S.RECORD_THIS, lang))))
    name = app.wait_for(field(app, ui(S.PLAYER_NAME, lang)))
    app.wait_for(app.labelled(ui(S.SHOW_BACK, lang)))
    click_once_and_type(app, name, "Yamada Taro" if lang == "en" else "Yamada")

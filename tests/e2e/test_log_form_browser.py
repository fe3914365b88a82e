"""The record form in Debian's Chromium (issue 20): the edit form's infraction picker → the
finder → its answer's "record this penalty" comes back to the same record's edit, the judge's
changes kept (item 3).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Locator

from regulation.model import Regulation
from views import strings as S

from .harness import FlutterApp
from .layout import assert_laid_out
from .layouts import PAIR, in_turn, variant
from .test_browser import infraction, ui

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"  # B Warning
SLOW = "unintentional-slow-play"  # A Caution
LOCALES = {"ja": "ja-JP", "en": "en-US"}


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def value_of(app: FlutterApp, box: Locator) -> str:
    """What a text field holds: Flutter web puts it in the DOM only while the field has the
    focus, so it is tapped first."""
    deadline = time.monotonic() + 10
    while not box.first.evaluate("(node) => node === document.activeElement"):
        assert time.monotonic() < deadline, f"could not focus {box}"
        box.first.click()
        app.page.wait_for_timeout(200)
    return box.first.input_value()


def test_the_finder_answers_the_edit_that_opened_it(
    open_app, regulation: Regulation, rerun_mark: str
) -> None:
    """On a Japanese phone, then an English desktop, in one start (layouts.in_turn)."""

    def start(size: str, lang: str) -> FlutterApp:
        return open_app(size, LOCALES[lang], f"/infractions/{DREW}", settings={"language": lang})

    for app, lang, name in in_turn(start, PAIR, f"/infractions/{DREW}"):
        with variant(name):
            edit_through_the_finder(app, regulation, lang, rerun_mark)


def edit_through_the_finder(
    app: FlutterApp, regulation: Regulation, lang: str, rerun_mark: str = ""
) -> None:
    drew, slow = infraction(regulation, DREW), infraction(regulation, SLOW)
    player = f"編集 {app.size} {lang}{rerun_mark}"
    app.wait_for(app.button(ui(S.RECORD_THIS, lang)))
    app.tap(app.button(ui(S.RECORD_THIS, lang)))
    name_box = field(app, ui(S.PLAYER_NAME, lang))
    app.wait_for(name_box)
    app.type_into(name_box, player)
    app.tap(app.button(ui(S.FORM_SAVE, lang)))
    app.wait_for(app.text(re.compile(re.escape(f"{player} ") + ".*" + re.escape(drew.title.ja))))
    app.page.wait_for_url(re.compile(r".*/log/records/[^/]+$"))  # follows the screen shown
    record_url = app.page.url

    # The record's edit: a changed table, then the infraction changed through the finder.
    app.tap(app.button(ui(S.RECORD_EDIT, lang)))
    table_box = field(app, ui(S.FORM_TABLE, lang))
    app.wait_for(table_box)
    app.type_into(table_box, "8")
    app.tap(app.button(ui(S.PICK_CHANGE, lang)))
    app.tap(app.button(ui(S.PICK_FINDER, lang)))
    app.page.wait_for_url(re.compile(r".*/finder$"))
    app.go(f"/infractions/{SLOW}")  # where the finder's walk ends
    app.tap(app.button(ui(S.RECORD_THIS, lang)))

    app.page.wait_for_url(record_url + "/edit")
    app.wait_for(app.text(ui(S.FORM_EDIT_TITLE, lang)))
    app.wait_for(app.text(slow.title[lang]))
    assert value_of(app, field(app, ui(S.PLAYER_NAME, lang))) == player
    assert value_of(app, field(app, ui(S.FORM_TABLE, lang))) == "8"
    assert_laid_out(app, "the edit form, back from the finder")
    app.tap(app.button(ui(S.FORM_SAVE, lang)))
    app.page.wait_for_url(record_url)
    # The slip line (in Japanese whatever the language shown): the same record, changed.
    app.wait_for(app.text(re.compile(re.escape(f"8卓 {player} 注意：{slow.title.ja}") + "$")))

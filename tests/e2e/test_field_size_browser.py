"""Fields as tall and as wide as what they show, at the largest text size (175 %) in Debian's
Chromium (issue 20, item 13):

- a round menu's value is whole in its field ("すべての回戦 / All rounds" was cut by a fixed
  width);
- an empty field is as tall as its label, not as its placeholder: the placeholder (shown only
  while the field has the focus) grows it, and a letter typed shrinks it again (the log's
  player filter kept 107 px on a desktop).

Widths are measured with the bundled font (tests/e2e/test_text_size_browser.py `measure`).
"""

from __future__ import annotations

import math
import re
import time

import pytest
from playwright.sync_api import Locator

from regulation.model import Regulation
from views import strings as S

from .harness import AppServer, FlutterApp
from .layout import assert_laid_out
from .test_browser import ui
from .test_text_size_browser import (  # noqa: F401 (fixtures)
    LARGEST,
    SIZES_175,
    into_view,
    late_record,
)
from .test_text_size_browser import measure as measure
from .test_text_size_browser import text_size_server as text_size_server

pytestmark = pytest.mark.browser

LOCALES = {"ja": "ja-JP", "en": "en-US", "both": "ja-JP"}
# Material's label size in a field (bodyLarge): the text-size setting does not reach it.
LABEL_PX = 16.0


def textbox(app: FlutterApp, label: str) -> Locator:
    """A field by its label (its first language in "both"), the whole label: "回戦" is not
    "回戦で絞り込む"."""
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label) + r"( \/ |$)"))


def label_of(message: str, lang: str) -> str:
    """The start of a field's accessible name: its label's first language."""
    return ui(message, "ja" if lang == "both" else lang)


def shown_value(app: FlutterApp, box: Locator) -> str:
    """What a menu's field shows: Flutter web puts it in the DOM only while the field has
    the focus (given through its node, as Tab would; Escape then leaves the menu closed)."""
    deadline = time.monotonic() + 10
    value = ""
    while not value and time.monotonic() < deadline:
        box.first.focus()
        app.page.wait_for_timeout(300)
        value = box.first.input_value()
    app.page.keyboard.press("Escape")
    return value


def assert_menu_whole(app: FlutterApp, box: Locator, measure, where: str) -> None:
    into_view(app, box)
    value = shown_value(app, box)
    assert value, where
    field = box.first.bounding_box()
    assert field is not None
    needed = measure(value, SIZES_175.body)
    # The text's room in the field: less its padding (12 px a side) and its arrow (48 px).
    room = field["width"] - 72
    assert needed <= room + 1, (
        f"{where}: {value!r} needs {needed:.0f} px at {SIZES_175.body} px, its field has"
        f" {room:.0f}: cut"
    )


@pytest.mark.parametrize(
    ("size", "lang"), [("phone", "both"), ("phone", "en"), ("phone", "ja"), ("desktop", "both")]
)
def test_the_round_menus_show_their_value_whole(
    open_app, text_size_server: AppServer, measure, size: str, lang: str
) -> None:
    app = open_app(
        size, LOCALES[lang], "/log", server=text_size_server, settings={"language": lang, **LARGEST}
    )
    menu = textbox(app, label_of(S.LOG_ROUND_FILTER, lang))
    app.wait_for(menu)
    assert_menu_whole(app, menu, measure, "the log's round filter")
    app.screenshot(f"{lang}-175-log-round-filter")
    app.go("/log/new")
    menu = textbox(app, label_of(S.FORM_ROUND, lang))
    app.wait_for(menu)
    assert_menu_whole(app, menu, measure, "the form's round")
    app.screenshot(f"{lang}-175-form-round")
    assert_laid_out(app, "the form's round menu")


def filter_height(app: FlutterApp, box: Locator, below: Locator) -> float:
    """The field's height on the page: from its top to the first filter under it (12 px
    apart); its own node may keep one line's box."""
    field = box.first.bounding_box()
    unders = [below.nth(i).bounding_box() for i in range(below.count())]
    assert field is not None and all(unders), unders
    return min(u["y"] for u in unders if u) - 12 - field["y"]


def wait_height(app: FlutterApp, box: Locator, below: Locator, ok, what: str) -> float:
    deadline = time.monotonic() + 6
    height = filter_height(app, box, below)
    while not ok(height) and time.monotonic() < deadline:
        app.page.wait_for_timeout(200)
        height = filter_height(app, box, below)
    assert ok(height), f"{what}: {height:.0f} px"
    return height


@pytest.mark.parametrize(("size", "lang"), [("desktop", "both"), ("phone", "en")])
def test_an_empty_field_is_as_tall_as_its_label(
    open_app, text_size_server: AppServer, measure, size: str, lang: str
) -> None:
    app = open_app(
        size, LOCALES[lang], "/log", server=text_size_server, settings={"language": lang, **LARGEST}
    )
    # By its label's start: with the focus, its placeholder joins its accessible name.
    box = app.page.get_by_role(
        "textbox", name=re.compile("^" + re.escape(label_of(S.LOG_FILTER, lang)))
    )
    below = app.page.get_by_role(
        "textbox",
        name=re.compile(
            "^("
            + "|".join(
                re.escape(label_of(m, lang)) for m in (S.LOG_ROUND_FILTER, S.LOG_TABLE_FILTER)
            )
            + ")"
        ),
    )
    app.wait_for(box)
    into_view(app, box)
    app.settle(800)
    field = box.first.bounding_box()
    assert field is not None
    label = ui(S.LOG_FILTER, lang)
    lines = max(1, math.ceil(measure(label, LABEL_PX) / (field["width"] - 60)))
    tallest = 48 + lines * LABEL_PX * 1.5  # Material's field around its label's lines
    app.screenshot(f"{lang}-175-filter-empty")
    empty = wait_height(app, box, below, lambda h: h <= tallest, f"the empty filter ({lines})")
    app.type_into(box, "")  # the focus: the placeholder shows, the field grows to it
    wait_height(app, box, below, lambda h: h > empty + 10, "the filter with its placeholder")
    app.page.keyboard.type("z", delay=20)  # a letter: no placeholder, as tall as one line
    wait_height(app, box, below, lambda h: h <= empty + 2, "the filter with a letter")
    assert_laid_out(app, "the log, a letter in its filter")


@pytest.mark.parametrize(("size", "lang"), [("phone", "both"), ("phone", "en")])
def test_the_forms_tier_chips_are_whole(
    open_app, text_size_server: AppServer, regulation: Regulation, measure, size: str, lang: str
) -> None:
    """The form's tier chips wrap their label (a chip drew one line: "C デュエルの敗北 /
    Duel" in "both" on a phone at 175 %)."""
    app = open_app(
        size,
        LOCALES[lang],
        "/log/new?infraction=drew-extra-cards",
        server=text_size_server,
        settings={"language": lang, **LARGEST},
    )
    app.wait_for(textbox(app, label_of(S.PLAYER_NAME, lang)))
    for tier in regulation.tiers:
        label = f"{tier.letter} {tier.title.shown(lang)}"
        chip = app.page.get_by_role("checkbox", name=label, exact=True).or_(app.button(label))
        into_view(app, chip)
        box = chip.first.bounding_box()
        assert box is not None, label
        # A chip's label lies inside its padding (8 px a side down, about 12 across) and, a
        # line of the bundled font being 1.2 em tall, holds this many lines.
        lines = max(1, math.floor((box["height"] - 16) / (SIZES_175.small * 1.2) + 0.2))
        room = (box["width"] - 24) * lines
        needed = measure(label, SIZES_175.small)
        assert needed <= room, (
            f"{label!r} needs {needed:.0f} px, its chip ({box['width']:.0f}×"
            f"{box['height']:.0f}) holds {lines} line(s): cut"
        )
    app.screenshot(f"{lang}-175-form-tiers")
    assert_laid_out(app, "the form's tiers")

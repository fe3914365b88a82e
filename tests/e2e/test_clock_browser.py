"""The round clock in Debian's Chromium, offline, on a phone and a desktop in both languages: the
digits and end time of a round started on the server's log, a judge call's stopwatch ticking in
the browser, "play resumes" proposing the extension, the table on the end-of-round list; the
10-minute mark changing the panel and calling the browser's vibration; the bottom bar's six
destinations at the largest text size in the dark theme. Nothing may lie outside the page.

Screenshots: tests/e2e/screenshots/<size>-<lang>-clock.png, …-clock-call.png, …-clock-10min.png,
phone-<lang>-clock-largest-dark.png.
"""

from __future__ import annotations

import contextlib
import os
import re
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S

from .harness import FlutterApp
from .layout import assert_laid_out
from .layouts import LOCALES, PAIR, layouts
from .test_browser import navigate_to, ui

pytestmark = pytest.mark.browser

# The browser's vibration API, recorded (Flutter web's HapticFeedback calls navigator.vibrate).
RECORD_VIBRATIONS = """() => {
  window.__vibrations = [];
  navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
}"""


def log_path() -> Path:
    """The server's log (it runs with the test session's data folder, tests/conftest.py)."""
    return Path(os.environ["PENALTY_GUIDE_DATA_DIR"]) / DATABASE_NAME


def text(message: str, lang: str, **values: object) -> str:
    shown = ui(message, lang)
    for key, value in values.items():
        shown = shown.replace("{" + key + "}", str(value))
    return shown


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def start_next_round(regulation: Regulation, minutes_ago: float) -> tuple[str, int, datetime]:
    """Starts the next round of the server's current tournament, `minutes_ago`."""
    with LogStore.open(regulation, log_path()) as store:
        event = store.current_event()
        current = store.round_clock.current(event.id)
        number = (current.number if current else 0) + 1
        start = datetime.now().astimezone().replace(microsecond=0) - timedelta(minutes=minutes_ago)
        store.round_clock.start(event.id, number, start, minutes=50)
    return event.id, number, start


@pytest.mark.parametrize(("size", "lang", "locale"), layouts())
def test_a_judge_call_becomes_an_extension_on_the_end_of_round_list(
    open_app, regulation: Regulation, size: str, lang: str, locale: str
) -> None:
    event_id, number, start = start_next_round(regulation, minutes_ago=20)
    table = str(100 + number)  # a table of this scenario's own
    ends = start + timedelta(minutes=50)
    app = open_app(size, locale, "/clock")
    app.wait_for(app.text(text(S.CLOCK_ENDS_AT, lang, time=ends.strftime("%H:%M"))))
    assert_laid_out(app, "the clock")

    # "Judge call at table T": the stopwatch runs in the browser.
    table_box = field(app, ui(S.CLOCK_CALL_TABLE, lang))
    app.type_into(table_box, table)
    app.tap(app.button(ui(S.CLOCK_CALL, lang)))
    app.wait_for(app.text(text(S.CLOCK_CALL_RUNNING, lang, table=table)))
    app.wait_for(app.text("00:02"), timeout=10_000)  # two ticks later, without a tap
    assert_laid_out(app, "the clock with a judge call timed")
    app.screenshot(f"{lang}-clock-call")

    # "Play resumes": the elapsed time rounded up to the minute, confirmed.
    app.tap(app.button(ui(S.CLOCK_PLAY_RESUMES, lang)))
    app.wait_for(app.text(text(S.CLOCK_EXTENSION_FOR, lang, table=table)))
    # (Flutter web's text boxes report their value only once edited: the proposed minute is
    # checked on the list below, "+1".)
    assert_laid_out(app, "the clock with a call's extension to confirm")
    app.tap(app.button(ui(S.CLOCK_CONFIRM, lang)))

    # The table on the end-of-round list, ending a minute after the round.
    app.wait_for(app.text(text(S.CLOCK_TABLE, lang, table=table)))
    app.wait_for(app.text(text(S.CLOCK_PLUS, lang, minutes=1)))
    table_end = (ends + timedelta(minutes=1)).strftime("%H:%M")
    app.wait_for(app.text(text(S.CLOCK_TABLE_ENDS, lang, time=table_end)))
    app.wait_for(app.text(text(S.CLOCK_REAL_END, lang, time=table_end)))
    assert app.text(text(S.CLOCK_CALL_RUNNING, lang, table=table)).count() == 0
    with LogStore.open(regulation, log_path()) as store:
        rows = store.round_clock.round(event_id, number).tables(datetime.now().astimezone())
    assert [(r.table, r.minutes) for r in rows] == [(table, 1)]
    # The "extension added" note may still show (4 s): the screen is checked with it on top.
    assert_laid_out(app, "the clock with a table on extra time")
    app.screenshot(f"{lang}-clock")

    # Ten minutes left: the panel says so, and the browser is asked to vibrate.
    app.page.evaluate(RECORD_VIBRATIONS)
    with LogStore.open(regulation, log_path()) as store:
        nearly = datetime.now().astimezone().replace(microsecond=0) - timedelta(
            minutes=39, seconds=54
        )
        store.round_clock.start(event_id, number, nearly)  # a correction: 10:06 left
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # lazily, as conftest

    navigate_to(app, S.NAV_LOG, lang)  # away and back: the clock is drawn afresh
    app.wait_gone(app.button(ui(S.CLOCK_CALL, lang)))
    ten_left = app.text(re.compile(re.escape(ui(S.CLOCK_LEFT_10, lang))))
    for _attempt in range(3):  # a tap on the rail while it is still being replaced is lost
        navigate_to(app, S.NAV_CLOCK, lang)
        with contextlib.suppress(PlaywrightTimeout):
            app.wait_for(ten_left, timeout=8_000)
            break
    app.wait_for(ten_left, timeout=1_000)
    deadline = 50
    while not app.page.evaluate("() => window.__vibrations.length") and deadline:
        app.page.wait_for_timeout(100)
        deadline -= 1
    assert app.page.evaluate("() => window.__vibrations.length") >= 1
    assert_laid_out(app, "the clock at ten minutes left")
    app.screenshot(f"{lang}-clock-10min")


@pytest.mark.parametrize(("lang", "locale"), LOCALES.items())
def test_six_destinations_fit_a_phone_at_the_largest_text_in_the_dark(
    open_app, regulation: Regulation, lang: str, locale: str
) -> None:
    start_next_round(regulation, minutes_ago=46)  # under five minutes left
    # The judge's stored settings (largest text, dark), read as the tab starts: one start.
    app = open_app("phone", locale, "/clock", settings={"text_scale": "1.75", "theme": "dark"})
    app.wait_for(app.text(re.compile(re.escape(ui(S.CLOCK_LEFT_5, lang)))))
    tabs = [app.tab(ui(message, lang)) for message in (S.NAV_TIERS, S.NAV_LOG, S.NAV_CLOCK)]
    for tab in tabs:
        app.wait_for(tab)
    boxes = [app.page.get_by_role("tab").nth(i).bounding_box() for i in range(6)]
    assert all(box is not None for box in boxes)
    lefts = [box["x"] for box in boxes if box]
    assert lefts == sorted(lefts) and len(set(lefts)) == 6  # six tabs side by side
    assert_laid_out(app, "the clock at the largest text size, dark")
    app.screenshot(f"{lang}-clock-largest-dark")


@pytest.mark.parametrize(("size", "lang", "locale"), layouts(PAIR))
def test_no_round_yet_the_settings_and_a_record_made_during_a_call(
    open_app, regulation: Regulation, size: str, lang: str, locale: str
) -> None:
    with LogStore.open(regulation, log_path()) as store:
        before = store.current_event()
        # A new event each try: a rerun after a failed try must not meet the first's (its
        # round started, its name taken: "an event named … already exists").
        event = store.create_event(f"時計の大会 {size} {lang} {uuid.uuid4().hex[:6]}")
        store.set_current_event(event.id)
    try:
        app = open_app(size, locale, "/clock")
        app.wait_for(app.text(ui(S.CLOCK_NO_ROUND, lang)))
        assert_laid_out(app, "the clock, no round started")
        app.screenshot(f"{lang}-clock-not-started")
        round_one = text(S.ROUND_N, lang, number=1)
        app.tap(app.button(text(S.CLOCK_START, lang, round=round_one)))
        app.wait_for(app.button(ui(S.CLOCK_PAUSE, lang)))  # started

        # The tournament's settings: the round length and the start, correctable.
        app.tap(app.button(ui(S.CLOCK_SETTINGS, lang)))
        app.wait_for(app.text(ui(S.EVENT_CLOCK, lang)))
        app.wait_for(field(app, ui(S.EVENT_ROUND_START, lang)))
        assert_laid_out(app, "the tournament's settings with the round times")
        app.screenshot(f"{lang}-clock-settings")

        # A record made during a call: the record page offers to stop the stopwatch.
        app.go("/infractions/drew-extra-cards")  # in the same session, as a link would
        app.tap(app.button(ui(S.RECORD_THIS, lang)))
        name = field(app, ui(S.PLAYER_NAME, lang))
        app.wait_for(name)
        app.type_into(name, "Kai Mori" if lang == "en" else "森 海")
        table_box = app.page.get_by_role("textbox", name=ui(S.FORM_TABLE, lang), exact=True)
        table_box.first.click()  # the focus leaves the name (type_into keeps a focused field)
        app.page.wait_for_timeout(300)
        app.type_into(table_box, "9")
        app.tap(app.button(ui(S.CLOCK_CALL, lang)))
        app.wait_for(app.text(text(S.CLOCK_CALL_STARTED, lang, table=9)))
        assert_laid_out(app, "the record form with a judge call timed")
        app.tap(app.button(ui(S.FORM_SAVE, lang)))
        during = ui(S.CLOCK_RECORD_DURING_CALL, lang).split("{")[0]
        app.wait_for(app.text(re.compile("^" + re.escape(during))))
        assert_laid_out(app, "a record made during a judge call")
        app.tap(app.button(ui(S.CLOCK_STOP_FOR_RECORD, lang)))
        app.wait_for(app.text(text(S.CLOCK_EXTENSION_FOR, lang, table=9)))
        assert_laid_out(app, "a record's extension to confirm")
        app.tap(app.button(ui(S.CLOCK_CONFIRM, lang)))
        linked = text(S.RECORD_EXTENSION, lang, minutes=1, round=round_one, table=9)
        app.wait_for(app.text(linked))
        assert_laid_out(app, "a record with its time extension")
        app.screenshot(f"{lang}-clock-record")
    finally:
        with LogStore.open(regulation, log_path()) as store:
            store.set_current_event(before.id)

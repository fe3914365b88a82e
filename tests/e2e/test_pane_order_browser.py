"""Tab on a wide window goes through the rail, then the list, then the detail pane (issue 20,
item 12), in Debian's Chromium with the accessibility tree on; the fields of the grouped list
pane, and the record form beside it, still take a space.

Flutter orders Tab stops by reading bands (the top-most stop, then the left-most of the stops
beside it), so across three side-by-side panes Tab went row by row through all three: the rail's
first destination, the list's first buttons, the record's first link, the rail's second… Now
the rail and the list pane are each held in a group that Tab goes through whole
(views/wide.py, pane_group). The order test failed on the old page, in both languages.

A group is Flutter's RadioGroup (the one Flet 1.0.5 offers): it also gives Space and the arrow
keys to radios, of which there are none here. A judge's typing must still arrive whole: a name
with a space saved from the form, a filter with a space that tells two players apart.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from records.model import Player, RecordInput, Round
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S
from views.screens import DESTINATIONS

from .harness import AppServer, FlutterApp
from .layouts import LOCALES
from .test_browser import containing_all, infraction, ui
from .test_keyboard_browser import FOCUS_SERIAL, FOCUSED
from .test_log_layout import server_for

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"
# The list's players, a row each; two share a family name (the filter's space tells them apart).
PLAYERS = ("山田 太郎", "Sam Lee", "山田 花子")
RAIL_STOP = re.compile(r"Tab \d+ of \d+$|タブ: \d+/\d+$")  # Flutter names a rail destination so


def seed(regulation: Regulation, folder: Path) -> list[str]:
    now = datetime.now().astimezone()
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        event = store.current_event()
        store.set_rounds(event.id, [Round(1, now - timedelta(hours=1)), Round(2)])
        return [
            store.add_record(event.id, RecordInput(Player(name), DREW, round=1 + i % 2)).id
            for i, name in enumerate(PLAYERS)
        ]


@pytest.fixture(scope="module")
def records(
    regulation: Regulation, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("pane-order-data")
    return folder, seed(regulation, folder)


@pytest.fixture(scope="module")
def pane_server(browser, records: tuple[Path, list[str]]) -> Iterator[AppServer]:
    folder, _ = records
    yield from server_for(folder, folder.parent / "pane-order-server.log")


def tab_round(app: FlutterApp, limit: int = 60) -> list[str]:
    """The names of the Tab stops from the page's start, once round: until the first stop's
    name comes again. Each Tab is waited for: the focus moves once Flutter has handled the
    key, seconds later on a loaded machine."""
    app.page.evaluate("() => document.activeElement?.blur()")
    names: list[str] = []
    for _ in range(limit):
        before = app.page.evaluate(FOCUS_SERIAL)
        app.page.keyboard.press("Tab")
        deadline = time.monotonic() + 15
        while app.page.evaluate(FOCUS_SERIAL) == before:
            assert time.monotonic() < deadline, f"Tab did not move the focus after {names}"
            app.page.wait_for_timeout(50)
        app.page.wait_for_timeout(100)  # its accessible name settles with it
        name = app.page.evaluate(FOCUSED)
        if names and name == names[0]:
            return names
        names.append(name)
    raise AssertionError(f"Tab did not come round in {limit} stops: {names}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tab_goes_through_the_rail_then_the_list_then_the_record(
    open_app, pane_server: AppServer, records: tuple[Path, list[str]], regulation, lang: str
) -> None:
    _, ids = records
    title = infraction(regulation, DREW).title[lang]
    app = open_app("desktop", LOCALES[lang], f"/log/records/{ids[0]}", server=pane_server)
    app.wait_for(app.button(ui(S.RECORD_EDIT, lang)))
    app.settle()
    stops = tab_round(app)

    rail = [i for i, name in enumerate(stops) if RAIL_STOP.search(name)]
    rows = [i for i, name in enumerate(stops) if any(p in name for p in PLAYERS) and title in name]
    # The record's own: its player's history (named by the player alone), edit and delete.
    detail_names = {PLAYERS[0], ui(S.RECORD_EDIT, lang), ui(S.RECORD_DELETE, lang)}
    detail = [i for i, name in enumerate(stops) if name in detail_names]
    assert len(rail) == len(DESTINATIONS), f"not every destination is a stop: {stops}"
    assert len(rows) == len(PLAYERS), f"not every row is a stop: {stops}"
    assert len(detail) == len(detail_names), f"not every control of the record is: {stops}"
    assert max(rail) < min(rows), f"a list row before a rail destination: {stops}"
    assert max(rows) < min(detail), f"a control of the record before a list row: {stops}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_name_with_a_space_is_saved_whole_from_the_form(
    open_app, pane_server: AppServer, regulation, lang: str
) -> None:
    name = {"en": "Alex Kim", "ja": "佐藤 次郎"}[lang]
    title = infraction(regulation, DREW).title[lang]
    app = open_app("desktop", LOCALES[lang], f"/infractions/{DREW}", server=pane_server)
    app.tap(app.wait_for(app.button(ui(S.RECORD_THIS, lang))))
    box = app.page.get_by_role("textbox", name=re.compile("^" + re.escape(ui(S.PLAYER_NAME, lang))))
    app.wait_for(box)
    app.type_into(box, name)
    app.tap(app.button(ui(S.FORM_SAVE, lang)))
    # The saved record's slip line ("R1 Alex Kim Warning: …") holds the whole name.
    app.wait_for(app.text(containing_all(f" {name} ", title)))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_list_filter_takes_a_space(open_app, pane_server: AppServer, lang: str) -> None:
    app = open_app("desktop", LOCALES[lang], "/log", server=pane_server)
    # A filter lists the matching players, a row each, named by the player first.
    row = {name: app.button(re.compile("^" + re.escape(name))) for name in PLAYERS}
    box = app.page.get_by_role("textbox", name=re.compile("^" + re.escape(ui(S.LOG_FILTER, lang))))
    app.wait_for(box)
    app.type_into(box, "山田")  # both 山田, at the list's top
    app.wait_for(row[PLAYERS[0]])
    app.wait_for(row[PLAYERS[2]])
    app.page.keyboard.type(" 花", delay=20)  # what follows the space leaves 山田 太郎 out
    app.wait_gone(row[PLAYERS[0]])
    app.wait_for(row[PLAYERS[2]])
    assert box.first.input_value() == "山田 花"

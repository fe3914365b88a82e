"""Every route and every state of the penalty log's screens, laid out in Chromium and checked
by the layout checker (tests/e2e/layout.py): a layout error Flutter reports, or a control
outside the page, fails the test and names the screen.

The states: records by round, a repeat, a deleted record, a long name and note, the empty log,
a damaged log file set aside (its banner), a log that cannot be opened (the fault screen); in
Japanese and English, on a phone (390×844) and a desktop (1280×800), at the default text size
in the light theme and at 175 % in the dark one.

One server per state of the data folder, shared by the module; one browser page per pair of
layouts sharing their stored settings (the second reached by switching the language in the app
bar and resizing the window: layouts.next_layout), moved from screen to screen inside the app
(FlutterApp.go), so the whole sweep stays short.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Locator

from records.model import Player, RecordInput, Round
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S

from .harness import FOCUSED_JS, HAS_FOCUS, REPO_ROOT, SIZES, AppServer, FlutterApp
from .layout import assert_laid_out
from .layouts import LOCALES, OTHER_PAIR, PAIR, in_turn, layouts, variant
from .test_browser import search_for, ui

pytestmark = pytest.mark.browser

LONG_NAME = "寿限無 寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末食う寝る処に住む処"
LONG_LATIN = "Alexandria Konstantinopoulou-Vanderbilt de la Fontaine-Montgomery"
LONG_NOTE = ("長い説明。" * 40).strip()


@dataclass(frozen=True)
class Seeded:
    """The records of the main data folder, by what they show."""

    folder: Path
    first: str  # 山田 太郎's first drew-extra-cards (round 1)
    repeat: str  # …and the second (round 2): a repeat
    deleted: str
    long_name: str
    long_latin: str
    late: str  # a tardiness with its evidence (arrival, 8 min 26 s late)
    to_delete: dict[str, str]  # a record per variant of the deletion test, by size


def seed(regulation: Regulation, folder: Path) -> Seeded:
    now = datetime.now().astimezone()
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        event = store.current_event()
        store.set_rounds(
            event.id,
            [Round(1, now - timedelta(hours=2)), Round(2, now - timedelta(hours=1)), Round(3)],
        )

        def add(name: str, infraction: str, round_: int, **more: str) -> str:
            player = Player(name, more.pop("player_id", None))
            entry = RecordInput(player, infraction, round=round_, **more)
            return store.add_record(event.id, entry).id

        first = add("山田 太郎", "drew-extra-cards", 1, table="3")
        add("Sam Lee", "not-seated-5-minutes", 3, table="12")
        repeat = add("山田 太郎", "drew-extra-cards", 2, table="7")  # after a round 3 one
        deleted = add("佐藤 花子", "unintentional-slow-play", 2, table="1")
        store.delete_record(deleted)
        long_name = add(LONG_NAME, "drew-extra-cards", 2, table="123", note=LONG_NOTE)
        long_latin = add(LONG_LATIN, "unintentional-slow-play", 1, player_id="0123456789012")
        to_delete = {size: add(f"削除 {size}", "drew-extra-cards", 3) for size in SIZES}
        arrived = now - timedelta(hours=1) + timedelta(minutes=8, seconds=26)
        late = store.add_record(
            event.id,
            RecordInput(
                Player("遅刻 次郎"),
                "not-seated-5-minutes",
                round=2,
                table="9",
                arrived_at=arrived,
                late_seconds=506,
            ),
        ).id
    return Seeded(folder, first, repeat, deleted, long_name, long_latin, late, to_delete)


def server_for(folder: Path, log: Path) -> Iterator[AppServer]:
    server = AppServer(REPO_ROOT, log, extra_env={"PENALTY_GUIDE_DATA_DIR": str(folder)})
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()
    if "Traceback" in server.log() or "client error" in server.log():
        pytest.fail(f"the app server logged an error:\n{server.log()}", pytrace=False)


@pytest.fixture(scope="module")
def seeded(regulation: Regulation, tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    return seed(regulation, tmp_path_factory.mktemp("log-data"))


@pytest.fixture(scope="module")
def log_server(browser, seeded: Seeded) -> Iterator[AppServer]:
    yield from server_for(seeded.folder, seeded.folder.parent / "log-server.log")


@pytest.fixture(scope="module")
def damaged_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A log file that is not a database: set aside at start, a fresh (empty) log begun."""
    folder = tmp_path_factory.mktemp("damaged-data")
    (folder / DATABASE_NAME).write_bytes(b"not a database, whatever it was" * 100)
    yield from server_for(folder, folder.parent / "damaged-server.log")


@pytest.fixture(scope="module")
def unusable_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The data folder is a file: the log cannot be opened at all."""
    base = tmp_path_factory.mktemp("unusable-data")
    (base / "data").write_text("a file where the folder should be", encoding="utf-8")
    yield from server_for(base / "data", base / "unusable-server.log")


# The light theme at the default size for the pair, the dark one at 175 % for the other two
# layouts.
DARK_175 = {"theme": "dark", "text_scale": "1.75"}

# The screens this issue changed, kept as tests/e2e/screenshots/<size>-<lang>[-175-dark]-<name>.
SCREENSHOTS = {
    "the log again": "log-by-round",
    "a deleted record": "log-record-deleted-banner",
    "a tardiness": "log-record-late",
    "a new record, picking": "log-new-pick",
    "the deleted records": "log-deleted-list",
}


def open_variant(open_app, server: AppServer, size: str, lang: str, settings: dict[str, str]):
    return open_app(
        size, LOCALES[lang], "/log", server=server, settings={"language": lang, **settings}
    )


Shown = Callable[[FlutterApp], Locator]  # what a screen must show once it is there


def text(shown: str) -> Shown:
    return lambda app: app.text(shown)


def field(label: str) -> Shown:
    return lambda app: app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def sweep(
    app: FlutterApp, screens: list[tuple[str, str, Shown]], shots: str | None = None
) -> list[str]:
    """Shows each screen (name, route, what it must show) and checks its layout; every
    screen's faults, not only the first's. With `shots` (a file name prefix), a screenshot
    of each screen named in SCREENSHOTS."""
    failures: list[str] = []
    for name, route, shown in screens:
        app.go(route)
        try:
            app.wait_for(shown(app), timeout=15_000)
            assert_laid_out(app, f"{name} ({route})")
            if shots is not None and name in SCREENSHOTS:
                app.screenshot(f"{shots}-{SCREENSHOTS[name]}")
        except AssertionError as exc:
            failures.append(str(exc))
        except Exception as exc:  # a wait that timed out: the screen never showed its text
            failures.append(f"{name} ({route}): {str(exc).splitlines()[0]}")
    return failures


def variants_in_turn(
    open_app, server: AppServer, runs: tuple[tuple[str, str], ...], settings: dict[str, str]
) -> Iterator[tuple[FlutterApp, str, str]]:
    """One start for the layouts of `runs` in turn (layouts.in_turn), each first at the log."""
    return in_turn(
        lambda size, lang: open_variant(open_app, server, size, lang, settings),
        runs,
        "/log",
        "-175-dark" if settings else "",
    )


# The layouts a start covers in turn, and the stored settings they share.
RUNS = [
    pytest.param(PAIR, {}, id="phone-ja+desktop-en"),
    pytest.param(OTHER_PAIR, DARK_175, id="phone-en+desktop-ja-175-dark"),
]


@pytest.mark.parametrize(("runs", "settings"), RUNS)
def test_every_screen_of_the_log_is_laid_out(
    open_app, log_server: AppServer, seeded: Seeded, runs: tuple, settings: dict
) -> None:
    failures: list[str] = []
    for app, lang, name in variants_in_turn(open_app, log_server, runs, settings):
        found = sweep_the_log(app, seeded, lang, settings)
        failures += [f"[{name}] {failure}" for failure in found]
    assert not failures, "\n".join(failures)


def sweep_the_log(app: FlutterApp, seeded: Seeded, lang: str, settings: dict) -> list[str]:
    try:
        app.wait_for(app.text(ui(S.LOG_TITLE, lang)))
        assert_laid_out(app, "the log")
    except AssertionError as exc:
        return [str(exc)]
    arrived = str(int(datetime.now().timestamp()))
    screens: list[tuple[str, str, Shown]] = [
        ("a record", f"/log/records/{seeded.first}", text(ui(S.RECORD_SLIP, lang))),
        ("a repeat", f"/log/records/{seeded.repeat}", text(ui(S.RECORD_SLIP, lang))),
        ("a deleted record", f"/log/records/{seeded.deleted}", text(ui(S.RECORD_SLIP, lang))),
        ("a long name", f"/log/records/{seeded.long_name}", text(ui(S.RECORD_SLIP, lang))),
        ("a long Latin name", f"/log/records/{seeded.long_latin}", text(ui(S.RECORD_SLIP, lang))),
        ("a tardiness", f"/log/records/{seeded.late}", text(ui(S.RECORD_SLIP, lang))),
        ("a player's history", "/log/players/山田 太郎", text(ui(S.PLAYER_HISTORY, lang))),
        ("a long name's history", f"/log/players/{LONG_NAME}", text(ui(S.PLAYER_HISTORY, lang))),
        ("the form", "/log/new?infraction=drew-extra-cards", field(ui(S.PLAYER_NAME, lang))),
        ("tardiness", f"/log/new?arrived={arrived}", text(ui(S.TARDY_CHOOSE, lang))),
        ("a new record, picking", "/log/new", field(ui(S.PICK_SEARCH, lang))),
        ("editing", f"/log/records/{seeded.long_name}/edit", field(ui(S.PLAYER_NAME, lang))),
        ("the tournament", "/log/event", text(ui(S.EVENT_SETTINGS, lang))),
        ("export and import", "/log/exchange", text(ui(S.EXCHANGE_TITLE, lang))),
        ("the deleted records", "/log/deleted", text(ui(S.LOG_DELETED_TITLE, lang))),
        ("the log again", "/log", text(ui(S.LOG_TITLE, lang))),
    ]
    shots = lang + ("-175-dark" if settings else "")
    return sweep(app, screens, shots)


# The damaged and unusable logs: the pair in turn, and the Japanese desktop at 175 % in the dark.
FAULT_RUNS = [RUNS[0], pytest.param(OTHER_PAIR[1:], DARK_175, id="desktop-ja-175-dark")]


@pytest.mark.parametrize(("runs", "settings"), FAULT_RUNS)
def test_an_empty_log_after_a_damaged_file_shows_its_banner_laid_out(
    open_app, damaged_server: AppServer, runs: tuple, settings: dict
) -> None:
    failures: list[str] = []
    for app, lang, name in variants_in_turn(open_app, damaged_server, runs, settings):
        with variant(name):
            recovered = ui(S.LOG_RECOVERED, lang).split("{")[0]
            app.wait_for(app.text(re.compile(re.escape(recovered))))
            app.wait_for(app.text(ui(S.LOG_EMPTY, lang)))
            assert_laid_out(app, "the empty log with the set-aside banner")
        found = sweep(
            app,
            [
                (
                    "the form, banner",
                    "/log/new?infraction=drew-extra-cards",
                    field(ui(S.PLAYER_NAME, lang)),
                ),
                ("the tournament, empty", "/log/event", text(ui(S.EVENT_SETTINGS, lang))),
            ],
        )
        failures += [f"[{name}] {failure}" for failure in found]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(("runs", "settings"), FAULT_RUNS)
def test_a_log_that_cannot_be_opened_shows_its_fault_laid_out(
    open_app, unusable_server: AppServer, runs: tuple, settings: dict
) -> None:
    failures: list[str] = []
    for app, lang, name in variants_in_turn(open_app, unusable_server, runs, settings):
        with variant(name):
            app.wait_for(app.text(ui(S.LOG_UNAVAILABLE, lang)))
            assert_laid_out(app, "the log's fault screen")
        found = sweep(
            app,
            [
                (
                    "the form, fault",
                    "/log/new?infraction=drew-extra-cards",
                    text(ui(S.LOG_UNAVAILABLE, lang)),
                ),
                ("a record, fault", "/log/records/x", text(ui(S.LOG_UNAVAILABLE, lang))),
            ],
        )
        failures += [f"[{name}] {failure}" for failure in found]
    assert not failures, "\n".join(failures)


# -- deleting (issue 20, item 1) ------------------------------------------------------------------


@pytest.mark.parametrize(("runs", "settings"), RUNS[:1])
def test_delete_confirm_cancel_escape_undo_and_restore_from_the_deleted_list(
    open_app, log_server: AppServer, seeded: Seeded, runs: tuple, settings: dict
) -> None:
    """The dialog closes every time (confirm, cancel, Escape), the message offers an undo, a
    deleted record's page is laid out with its restore button in reach, and the log's list of
    deleted records restores it. On a Japanese phone, then an English desktop (one start)."""
    for app, lang, name in variants_in_turn(open_app, log_server, runs, settings):
        with variant(name):
            delete_undo_and_restore(app, seeded, lang)


def delete_undo_and_restore(app: FlutterApp, seeded: Seeded, lang: str) -> None:
    size = app.size
    record_id = seeded.to_delete[size]
    app.go(f"/log/records/{record_id}")
    app.wait_for(app.text(ui(S.RECORD_SLIP, lang)))
    question = app.text(ui(S.RECORD_DELETE_CONFIRM, lang))
    delete = app.button(ui(S.RECORD_DELETE, lang))
    deleted_line = app.text(ui(S.RECORD_DELETED, lang))

    def ask() -> None:
        app.tap(delete)
        app.wait_for(question)
        assert_laid_out(app, "the delete dialog")

    ask()  # cancel: the dialog goes, nothing changes
    app.tap(app.button(ui(S.CANCEL, lang)))
    app.wait_gone(question)
    ask()  # Escape: the same
    app.page.keyboard.press("Escape")
    app.wait_gone(question)
    assert deleted_line.count() == 0
    for attempt in range(3):  # confirm: gone every time; the message undoes it
        ask()
        app.tap(delete.last)  # the dialog's own button (the page's is the first)
        app.wait_gone(question)
        app.wait_for(deleted_line)
        assert_laid_out(app, f"the deleted record, attempt {attempt + 1}")
        app.wait_for(app.button(ui(S.RECORD_RESTORE, lang)))
        if attempt < 2:
            app.tap(app.button(ui(S.UNDO, lang)))
            app.wait_gone(deleted_line)
    app.screenshot(f"{lang}-log-record-deleted")
    # Leave the page: the log's deleted list still has it, and restores it.
    app.go("/log/deleted")
    row = app.button(re.compile(re.escape(f"削除 {size}")))
    app.wait_for(row)
    assert_laid_out(app, "the deleted records")
    app.screenshot(f"{lang}-log-deleted")
    app.tap(row.first.get_by_role("button", name=ui(S.RECORD_RESTORE, lang), exact=True))
    app.wait_for(app.page.get_by_role("group", name=ui(S.RECORD_RESTORED, lang), exact=True))
    app.go(f"/log/records/{record_id}")
    app.wait_for(delete)
    assert deleted_line.count() == 0


# -- the form takes the typing (issue 20, item 2) -------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), layouts(OTHER_PAIR[::-1], locale=False))
def test_after_search_and_record_this_penalty_typing_lands_in_the_name_field(
    open_app, log_server: AppServer, regulation: Regulation, size: str, lang: str
) -> None:
    """Search → a result → "record this penalty" → type, without a tap: the name field has
    it, and so has the app (the player's two earlier records are told before saving: a field
    that showed the text while the app never got it failed here), the search box beside the
    form (desktop) keeps its query."""
    item = regulation.infraction("drew-extra-cards")
    assert item is not None
    app = open_variant(open_app, log_server, size, lang, {})
    search_for(app, "引きすぎ", lang)
    search_box = app.page.get_by_role(
        "textbox", name=re.compile("^" + re.escape(ui(S.SEARCH_TITLE, lang)))
    )
    result = app.button(re.compile(re.escape(item.title[lang])))
    app.wait_for(result)
    app.tap(result)
    app.tap(app.button(ui(S.RECORD_THIS, lang)))
    name_box = field(ui(S.PLAYER_NAME, lang))(app)
    app.wait_for(name_box)
    # The route's slide and the focus request: the form settled and the name field focused,
    # or 5 s gone (the fault this test is for: then the typing below lands elsewhere).
    app.settle()
    deadline = time.monotonic() + 5
    while not name_box.first.evaluate(HAS_FOCUS) and time.monotonic() < deadline:
        app.page.wait_for_timeout(100)
    focused = app.page.evaluate(FOCUSED_JS)  # where the keys go: said if they go astray
    name = "山田 太郎"  # seeded: two records of this infraction
    app.page.keyboard.type(name, delay=30)
    deadline = time.monotonic() + 10
    while name_box.first.input_value() != name:
        assert time.monotonic() < deadline, (
            f"typed into the page: name field {name_box.first.input_value()!r},"
            f" search box {[search_box.nth(i).input_value() for i in range(search_box.count())]},"
            f" the focus before typing on {focused!r}"
        )
        app.page.wait_for_timeout(100)
    app.wait_for(app.text(ui(S.REPEAT_BEFORE, lang).format(count=2), exact=False))
    for box in range(search_box.count()):  # the list pane's search box, beside the form
        assert name not in search_box.nth(box).input_value()
    assert_laid_out(app, "the form after a search")


# -- the player's tournament on the form, removing a round (items 7 and 9) ---------------------


@pytest.mark.parametrize(("runs", "settings"), RUNS[:1])
def test_the_form_shows_the_players_tournament_and_removing_a_round_asks(
    open_app, log_server: AppServer, runs: tuple, settings: dict
) -> None:
    """On a Japanese phone, then an English desktop, in one start."""
    for app, lang, name in variants_in_turn(open_app, log_server, runs, settings):
        with variant(name):
            the_players_tournament_and_removing_a_round(app, lang)


def the_players_tournament_and_removing_a_round(app: FlutterApp, lang: str) -> None:
    app.go("/log/new?infraction=unintentional-slow-play")
    name_box = field(ui(S.PLAYER_NAME, lang))(app)
    app.wait_for(name_box)
    app.type_into(name_box, "山田 太郎")
    so_far = ui(S.FORM_PLAYER_SO_FAR, lang).format(player="山田 太郎", count=2)
    app.wait_for(app.text(so_far))
    assert app.text(re.compile(r"^· ")).count() == 2
    assert_laid_out(app, "the form with the player's tournament")
    app.screenshot(f"{lang}-log-form-player-so-far")
    app.go("/log/event")
    round_3 = ui(S.ROUND_N, lang).format(number=3)
    app.tap(app.labelled(ui(S.EVENT_REMOVE_ROUND, lang).format(round=round_3)))
    app.wait_for(app.text(ui(S.EVENT_REMOVE_ROUND_CONFIRM, lang).format(round=round_3)))
    assert_laid_out(app, "removing a round")
    app.screenshot(f"{lang}-log-remove-round")
    app.tap(app.button(ui(S.CANCEL, lang)))
    app.wait_gone(app.text(ui(S.EVENT_REMOVE_ROUND_CONFIRM, lang).format(round=round_3)))

"""The penalty log in Debian's Chromium, offline: record a penalty from an infraction's page,
find it in the log, record it again and see the repeat said before saving; copy a match-slip
line; export (a download) and import (the browser's file chooser). Screenshots of the log, the
form with a repeat notice and a record, phone and desktop, Japanese and English, go to
tests/e2e/screenshots/ (…-log.png, …-log-form-repeat.png, …-log-record.png).

The server (conftest.app_server) keeps its log in the test session's own data folder
($PENALTY_GUIDE_DATA_DIR, tests/conftest.py); each scenario records its own player (and a
try after a failed one another: conftest.rerun_mark), so the scenarios do not see each other's
repeats. The import's scenario has a server and a log of its own (it changes the round).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from records.exchange import export_json, json_bytes
from records.model import Player, RecordInput
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S

from .harness import AppServer, FlutterApp
from .layouts import LOCALES, relaid_out, variant
from .test_browser import (
    assert_infraction_screen,
    containing_all,
    infraction,
    navigate_to,
    ui,
)

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"  # B Warning; the next tier up is C Duel Forfeiture
PLAYERS = {  # one player per scenario, in the bundled font's characters
    ("phone", "ja"): "山田 太郎",
    ("desktop", "ja"): "佐藤 花子",
    ("phone", "en"): "Alex Kim",
    ("desktop", "en"): "Sam Lee",
}


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def record_from_the_infraction_page(app: FlutterApp, name: str, lang: str) -> None:
    app.tap(app.button(ui(S.RECORD_THIS, lang)))
    name_box = field(app, ui(S.PLAYER_NAME, lang))
    app.wait_for(name_box)
    app.type_into(name_box, name)


def save(app: FlutterApp, lang: str) -> None:
    app.tap(app.button(ui(S.FORM_SAVE, lang)))


@pytest.mark.parametrize(("lang", "locale"), LOCALES.items())
def test_record_a_penalty_find_it_in_the_log_and_see_a_repeat_before_saving(
    open_app, regulation: Regulation, lang: str, locale: str, rerun_mark: str
) -> None:
    """On a phone and on a desktop, in one start: the window is resized between the two, each
    with its own player."""
    sizes = ("phone", "desktop") if lang == "ja" else ("desktop", "phone")
    app = open_app(sizes[0], locale, f"/infractions/{DREW}")
    for size in sizes:
        with variant(f"{size}-{lang}"):
            if app.size != size:
                app.go(f"/infractions/{DREW}")
                relaid_out(app, size)
            record_find_and_repeat(app, regulation, lang, rerun_mark)


def record_find_and_repeat(
    app: FlutterApp, regulation: Regulation, lang: str, rerun_mark: str = ""
) -> None:
    item = infraction(regulation, DREW)
    player = PLAYERS[(app.size, lang)] + rerun_mark
    principle = regulation.principle("repeat-offense")
    assert principle is not None
    assert_infraction_screen(app, item, lang)

    # Record: a tap, a name, a tap.
    record_from_the_infraction_page(app, player, lang)
    save(app, lang)
    slip = {
        "ja": f"1回戦 {player} 警告：{item.title.ja}",
        "en": f"R1 {player} Warning: {item.title.en}",
    }
    app.wait_for(app.text(slip["ja"]))  # both lines, whatever the language shown
    app.wait_for(app.text(slip["en"]))

    # It is in the log, with its tier.
    navigate_to(app, S.NAV_LOG, lang)
    row = app.button(containing_all(player, item.title[lang], f"B {item.penalty.title[lang]}"))
    app.wait_for(row)
    app.screenshot(f"{lang}-log")

    # The same again: the repeat is said on the form, before saving.
    app.tap(row)
    app.tap(app.labelled(ui(S.RECORD_OPEN_INFRACTION, lang)))  # the record's link to it
    assert_infraction_screen(app, item, lang)
    record_from_the_infraction_page(app, player, lang)
    app.wait_for(app.text(principle.text[lang]))  # the regulation's sentence, verbatim
    app.wait_for(app.text(ui(S.REPEAT_JUDGE_DECIDES, lang)))
    app.wait_for(app.text(re.compile(re.escape(ui(S.REPEAT_BEFORE, lang).split("{")[0]))))
    app.settle()
    app.screenshot(f"{lang}-log-form-repeat")
    save(app, lang)
    mark = "（同一違反2回目）" if lang == "ja" else " (2nd time)"
    app.wait_for(app.text(slip[lang] + mark))
    app.wait_for(app.text(principle.text[lang]))
    app.screenshot(f"{lang}-log-record")

    # The log marks the repeat; the tier stayed the infraction's (the judge did not change it).
    navigate_to(app, S.NAV_LOG, lang)
    repeat_row = app.button(containing_all(player, ui(S.REPEAT_TAG, lang).format(count=2)))
    app.wait_for(repeat_row)
    assert app.button(containing_all(player, f"B {item.penalty.title[lang]}")).count() == 2


def test_copy_a_slip_line_export_and_import_in_the_browser(
    servers, open_app, regulation: Regulation, tmp_path: Path
) -> None:
    """The clipboard (a client action, inside the tap), a download of the CSV and the JSON
    (the FilePicker's save_file), and the file chooser of an import (pick_files with data).
    On a server with a data folder of its own: the import makes round 2 the tournament's
    current one, which the other tests' first records (round 1) must not meet, and each try
    starts from an empty log."""
    copy_export_and_import(open_app, regulation, servers("exchange"), tmp_path)


def copy_export_and_import(
    open_app, regulation: Regulation, server: AppServer, tmp_path: Path
) -> None:
    item = infraction(regulation, DREW)
    app = open_app("phone", "ja-JP", f"/infractions/{DREW}", server=server)
    context = app.page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base_url)
    record_from_the_infraction_page(app, "高橋 健", "ja")
    save(app, "ja")
    line = f"1回戦 高橋 健 警告：{item.title.ja}"
    app.wait_for(app.text(line))
    app.tap(app.labelled(S.RECORD_COPY_JA))
    # The snack bar (a labelled group in Flutter's accessibility tree).
    app.wait_for(app.page.get_by_role("group", name=f"コピーしました：{line}", exact=True))
    assert app.page.evaluate("() => navigator.clipboard.readText()") == line

    navigate_to(app, S.NAV_LOG, "ja")
    app.tap(app.button(S.EXCHANGE_TITLE))
    app.wait_for(app.button(S.EXPORT_CSV))
    with app.page.expect_download() as csv_download:
        app.tap(app.button(S.EXPORT_CSV))
    data = Path(csv_download.value.path()).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and "高橋 健".encode() in data
    assert csv_download.value.suggested_filename.endswith(".csv")
    app.wait_for(app.text(re.compile(r"^\d+ 件をダウンロードしました：penalty-log-.+\.csv$")))
    with app.page.expect_download() as json_download:
        app.tap(app.button(S.EXPORT_JSON))
    exported = Path(json_download.value.path()).read_bytes()
    assert any(r["player"]["name"] == "高橋 健" for r in json.loads(exported)["records"])
    app.screenshot("ja-log-exchange")

    # Importing our own export again adds nothing.
    with app.page.expect_file_chooser() as chooser:
        app.tap(app.button(S.IMPORT_PICK))
    chooser.value.set_files(
        files=[{"name": "own.json", "mimeType": "application/json", "buffer": exported}]
    )
    app.wait_for(app.text(re.compile(r"に読み込みました：追加 0 件、更新 0 件、変更なし \d+ 件$")))

    # A second device's export of the same tournament merges in.
    event_name = json.loads(exported)["event"]["name"]
    with LogStore.open(regulation, tmp_path / DATABASE_NAME) as other:
        event = other.create_event(event_name)
        other.add_record(event.id, RecordInput(Player("高橋 健"), DREW, round=2, table="4"))
        second = json_bytes(export_json(*other.export_records(event.id)))
    with app.page.expect_file_chooser() as chooser:
        app.tap(app.button(S.IMPORT_PICK))
    chooser.value.set_files(
        files=[{"name": "phone2.json", "mimeType": "application/json", "buffer": second}]
    )
    app.wait_for(app.text(f"「{event_name}」に読み込みました：追加 1 件、更新 0 件、変更なし 0 件"))

    # A file that is not an export is refused in one line; nothing changes.
    with app.page.expect_file_chooser() as chooser:
        app.tap(app.button(S.IMPORT_PICK))
    chooser.value.set_files(
        files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hi"}]
    )
    app.wait_for(
        app.text(re.compile(r"^読み込みませんでした（何も変更していません）：.*notes\.txt"))
    )
    app.screenshot("ja-log-import-refused")

    navigate_to(app, S.NAV_LOG, "ja")
    app.wait_for(app.button(containing_all("高橋 健", "2回戦 · 4卓", "同一違反2回目")))


def test_the_servers_log_stayed_clean(app_server: AppServer) -> None:
    """After the scenarios above (this module runs after tests/e2e/test_browser.py's own
    check): no Python error in the server's output."""
    log = app_server.log()
    assert "Traceback" not in log, log

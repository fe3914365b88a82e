"""Venue sync in Debian's Chromium (issue 17), offline: two app instances (two data folders, two
`main.py --web` servers) joined to a host (`main.py sync host --bind 127.0.0.1 --json`, a process
of its own): judge A records, judge B's open log shows it within 5 s without a reload, and B's
repeat notice names judge A. Then every state of the Judges' sync screen a judge can reach,
phone and desktop, Japanese and English, laid out (nothing wider than the window), with
screenshots in tests/e2e/screenshots/ (…-sync-*.png). Every browser context is checked for
requests leaving the machine when it closes (conftest.open_app): sync on and off.

Everything talks to 127.0.0.1 only: the host binds it, and an app that hosts is told to
(PENALTY_GUIDE_SYNC_BIND, views/sync_link.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from regulation.model import Regulation
from views import strings as S

from .harness import (
    HAS_FOCUS,
    REPO_ROOT,
    FlutterApp,
    free_port,
    server_environment,
)
from .layouts import layouts
from .test_browser import containing, infraction, navigate_to, ui

if TYPE_CHECKING:
    from playwright.sync_api import Locator

try:
    from test_server import listening_addresses
except ImportError:  # tests/ as a package
    from tests.test_server import listening_addresses

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"  # B Warning
HOST_TIMEOUT_S = 30.0


# -- the host and the app servers ---------------------------------------------------------------


@dataclass
class Host:
    """`main.py sync host --json` on a data folder of its own."""

    process: subprocess.Popen[str]
    url: str
    code: str
    data: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_host(data: Path, port: int, *extra: str) -> Host:
    env = {**server_environment(), "PENALTY_GUIDE_DATA_DIR": str(data)}
    command = ["main.py", "sync", "host", "--bind", "127.0.0.1", "--port", str(port)]
    command += ["--event", "春季大会", "--judge", "本部", "--json", *extra]
    process = subprocess.Popen(
        [sys.executable, *command],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], HOST_TIMEOUT_S)
    if not ready:
        process.kill()
        raise AssertionError("`sync host` said nothing in time")
    line = process.stdout.readline()
    try:
        announced = json.loads(line)
    except ValueError:
        process.kill()
        raise AssertionError(f"`sync host` printed {line!r}; stderr: {process.stderr}") from None
    (url,) = announced["addresses"]
    assert url.startswith("http://127.0.0.1:"), announced
    return Host(process, url, announced["code"], data)


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[list[Host]]:
    started: list[Host] = []
    yield started
    for host in started:
        host.stop()


# -- driving the screens -------------------------------------------------------------------------


def field(app: FlutterApp, label: str):
    return app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))


def type_in(app: FlutterApp, label: str, text: str) -> None:
    """Types into the field labelled `label`, leaving the field that had the focus (the
    harness's type_into types wherever the focus already is)."""
    app.page.evaluate("() => document.activeElement?.blur()")
    app.type_into(field(app, label), text)


def clear(app: FlutterApp, box: Locator) -> None:
    """Empties a text field: focused first (a select-all pressed before the tap's focus has
    arrived selected nothing: one loaded run typed the code after the refused one), then
    select-all and delete until it is empty."""
    app.page.evaluate("() => document.activeElement?.blur()")
    deadline = time.monotonic() + 15
    while box.first.input_value():
        assert time.monotonic() < deadline, f"{box} keeps {box.first.input_value()!r}"
        if not box.first.evaluate(HAS_FOCUS):
            box.first.click()
            app.page.wait_for_timeout(100)
            continue
        app.page.keyboard.press("Control+A")
        app.page.keyboard.press("Backspace")
        app.page.wait_for_timeout(100)


def join(app: FlutterApp, lang: str, judge: str, url: str, code: str) -> None:
    """On the sync screen: the judge name, the address and the code, typed once; join."""
    app.wait_for(field(app, ui(S.SYNC_ADDRESS, lang)))
    type_in(app, ui(S.SYNC_JUDGE, lang), judge)
    type_in(app, ui(S.SYNC_ADDRESS, lang), url)
    type_in(app, ui(S.SYNC_CODE, lang), code)
    app.tap(app.button(ui(S.SYNC_JOIN, lang)))
    app.wait_for(app.button(ui(S.SYNC_NOW, lang)))


SHARING_LINE = {  # the log's line about sharing, whatever the state
    "ja": re.compile(f"^({re.escape(S.SYNC_OPEN)}|共有：)"),
    "en": re.compile("^(Judges' sync|Sharing: )"),
}


def to_log(app: FlutterApp, lang: str) -> None:
    """The log, through the navigation bar or rail (no reload: the page stays booted)."""
    navigate_to(app, S.NAV_LOG, lang)
    app.wait_for(app.button(SHARING_LINE[lang]))


def to_sync(app: FlutterApp, lang: str) -> None:
    """The sync screen, from the log's line about sharing."""
    to_log(app, lang)
    own = (S.SYNC_JOIN, S.SYNC_NOW, S.SYNC_STOP_HOSTING)  # a button of each state
    screen = app.button(re.compile("^(" + "|".join(re.escape(ui(m, lang)) for m in own) + ")$"))
    for _attempt in range(3):  # a tap can land while the line is redrawn with news: again
        app.tap(app.button(SHARING_LINE[lang]))
        with contextlib.suppress(Exception):
            app.wait_for(screen, timeout=10_000)
            return
    raise AssertionError("the log's sharing line did not lead to the sync screen")


def record(app: FlutterApp, lang: str, name: str) -> None:
    """On an infraction's page: record this penalty for `name`, round 1."""
    app.tap(app.button(ui(S.RECORD_THIS, lang)))
    name_box = field(app, ui(S.PLAYER_NAME, lang))
    app.wait_for(name_box)
    app.type_into(name_box, name)


def assert_laid_out(app: FlutterApp, what: str) -> None:
    """Nothing on the screen reaches beyond the window's sides (a Row that overflows, a code
    too wide for a phone): every node of Flutter's accessibility tree fits across."""
    width = app.page.viewport_size["width"]
    wide = app.page.evaluate(
        """(width) => [...document.querySelectorAll('flt-semantics')]
            .map((e) => [e.getAttribute('aria-label') || e.textContent.trim(),
                         e.getBoundingClientRect()])
            .filter(([label, r]) => label && r.width > 0
                    && (r.left < -1 || r.right > width + 1))
            .map(([label, r]) => `${label.slice(0, 60)} [${r.left}..${r.right}]`)""",
        width,
    )
    assert wide == [], f"{what}: wider than the window ({width}px): {wide}"


# -- two judges, one log -------------------------------------------------------------------------


def test_judge_a_records_and_judge_bs_open_log_shows_it_and_names_a_in_the_repeat_notice(
    servers, hosts, open_app, tmp_path: Path, regulation: Regulation
) -> None:
    item = infraction(regulation, DREW)
    hosts.append(start_host(tmp_path / "host", free_port()))
    host = hosts[0]
    a = open_app("phone", "ja-JP", f"/infractions/{DREW}", server=servers("a"))
    b = open_app("desktop", "ja-JP", "/log", server=servers("b"))
    to_sync(a, "ja")
    join(a, "ja", "佐藤", host.url, host.code)
    to_sync(b, "ja")
    join(b, "ja", "鈴木", host.url, host.code.replace("-", " "))  # typed loosely

    # B looks at the shared log; A records a penalty.
    to_log(b, "ja")
    b.wait_for(b.button(containing(ui(S.SYNC_STATUS_JOINED, "ja").split("{")[0])))
    a.page.go_back()  # the sync screen, the log, then the infraction's page A opened first
    a.page.go_back()
    record(a, "ja", "山田 太郎")
    a.tap(a.button(ui(S.FORM_SAVE, "ja")))
    a.wait_for(a.text(f"1回戦 山田 太郎 警告：{item.title.ja}"))
    saved_at = time.monotonic()

    # B's open log shows it, with the judge who recorded it, without a reload.
    row = b.button(re.compile(r"山田 太郎.*ジャッジ 佐藤", re.S))
    b.wait_for(row, timeout=5_000 + 1_000)  # 5 s, and the tap that finds it
    assert time.monotonic() - saved_at <= 6.0
    b.screenshot("ja-sync-log-joined")

    # B meets the same infraction (opened from A's record): the repeat notice names judge A.
    b.tap(row)
    b.tap(b.labelled(ui(S.RECORD_OPEN_INFRACTION, "ja")))
    record(b, "ja", "山田 太郎")
    b.wait_for(b.text(ui(S.REPEAT_JUDGE_DECIDES, "ja")))
    b.wait_for(b.text(re.compile("1回戦、ジャッジ 佐藤")))
    b.screenshot("ja-sync-repeat-names-judge")


# -- every state of the sync screen ----------------------------------------------------------------


def cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`main.py ARGS` as another device (its own data folder)."""
    env = {**server_environment(), "PENALTY_GUIDE_DATA_DIR": str(data)}
    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def confirm(app: FlutterApp, title: str, action: str) -> None:
    """Answers a confirmation dialog (its button is the last of that name: the screen's own
    is under the dialog's barrier); taps again if the first tap landed while it opened."""
    dialog_title = app.text(title)
    app.wait_for(dialog_title)
    for _attempt in range(3):
        app.settle(500)
        app.tap(app.button(action).last)
        with contextlib.suppress(Exception):
            app.wait_gone(dialog_title, 5_000)
            return
    raise AssertionError(f"the dialog {title!r} did not close")


def shot(app: FlutterApp, lang: str, name: str) -> None:
    assert_laid_out(app, name)
    app.screenshot(f"{lang}-sync-{name}")


def not_the_browser_client(url: str) -> bool:
    """The sync port answers sync requests only: never the app's browser client."""
    try:
        with urllib.request.urlopen(url + "/", timeout=5) as response:
            return b"flutter" not in response.read().lower()
    except urllib.error.HTTPError:
        return True


@pytest.mark.parametrize(("size", "lang", "locale"), layouts())
def test_every_state_of_the_sync_screen_is_laid_out(
    servers, hosts, open_app, tmp_path: Path, size: str, lang: str, locale: str
) -> None:
    host_port = free_port()
    hosts.append(start_host(tmp_path / "host", host_port))
    host = hosts[0]
    own_port = free_port()
    server = servers(
        "own", PENALTY_GUIDE_SYNC_BIND="127.0.0.1", PENALTY_GUIDE_SYNC_PORT=str(own_port)
    )
    app = open_app(size, locale, "/log", server=server)
    judge = "佐藤" if lang == "ja" else "Sato"

    # Sharing off: the log's line, then the screen.
    tile = app.button(containing(ui(S.SYNC_OPEN, lang)))
    app.wait_for(tile)
    shot(app, lang, "log-off")
    app.tap(tile)
    app.wait_for(app.button(ui(S.SYNC_JOIN, lang)))
    shot(app, lang, "off")

    # Join: a refused code is one line; nothing is remembered.
    type_in(app, ui(S.SYNC_JUDGE, lang), judge)
    type_in(app, ui(S.SYNC_ADDRESS, lang), host.url)
    type_in(app, ui(S.SYNC_CODE, lang), "AAAA-BBBB-CCCC")
    app.tap(app.button(ui(S.SYNC_JOIN, lang)))
    app.wait_for(app.text(containing(ui(S.SYNC_NOT_DONE, lang).split("{")[0])))
    shot(app, lang, "join-refused")
    code_box = field(app, ui(S.SYNC_CODE, lang))
    clear(app, code_box)
    app.type_into(code_box, host.code)
    app.tap(app.button(ui(S.SYNC_JOIN, lang)))
    app.wait_for(app.button(ui(S.SYNC_NOW, lang)))
    shot(app, lang, "joined")
    app.tap(app.button(ui(S.SYNC_NOW, lang)))
    done = re.compile(re.escape(ui(S.SYNC_NOW_DONE, lang).split("{")[0]))
    app.wait_for(app.page.get_by_role("group", name=done))  # the snack bar

    # The log says it at a glance.
    to_log(app, lang)
    app.wait_for(app.button(containing(ui(S.SYNC_STATUS_JOINED, lang).split("{")[0])))
    shot(app, lang, "log-joined")

    # The host is gone: offline, said in one line, the records kept.
    host.process.send_signal(signal.SIGKILL)
    host.process.wait(timeout=10)
    to_sync(app, lang)
    rejoin = app.text(ui(S.SYNC_REJOIN, lang))
    app.wait_for(rejoin, timeout=20_000)  # the background sync found the host gone
    # The problem's line, in red, in the judge's language.
    app.wait_for(app.text(containing(ui(S.SYNC_PROBLEM_UNREACHABLE, lang).split("}")[1])))
    app.tap(app.button(ui(S.SYNC_NOW, lang)))
    app.wait_gone(app.text(ui(S.SYNC_WORKING, lang)))
    shot(app, lang, "offline")
    to_log(app, lang)
    app.wait_for(app.button(containing(ui(S.SYNC_STATUS_OFFLINE, lang).split("{")[0])))
    shot(app, lang, "log-offline")

    # The head judge starts again with a new code: the old one is refused, join again.
    hosts.append(start_host(host.data, host_port, "--new-code"))
    new = hosts[-1]
    assert new.code != host.code
    to_sync(app, lang)
    app.tap(app.button(ui(S.SYNC_NOW, lang)))
    app.wait_for(app.text(containing(ui(S.SYNC_PROBLEM_OLD_CODE, lang))), timeout=20_000)
    shot(app, lang, "code-replaced")
    type_in(app, ui(S.SYNC_CODE, lang), new.code)
    app.tap(app.button(ui(S.SYNC_JOIN, lang)))
    app.wait_gone(rejoin)
    # The join's first exchange redraws the screen right after: a tap then was lost (the leave
    # dialog never came: 1 try in 4, 2026-12-02). Why the client dropped it is not known; the
    # tap now waits for the screen to stop changing.
    app.settle()

    # Leave, confirmed first.
    app.tap(app.button(ui(S.SYNC_LEAVE, lang)))
    app.wait_for(app.text(ui(S.SYNC_LEAVE_CONFIRM, lang)))
    shot(app, lang, "leave-confirm")
    confirm(app, ui(S.SYNC_LEAVE_CONFIRM, lang), ui(S.SYNC_LEAVE, lang))
    app.wait_for(app.button(ui(S.SYNC_JOIN, lang)))

    # Host from the app: the address and the code in large text, the devices that join.
    app.tap(app.button(re.compile(re.escape(ui(S.SYNC_HOST_START, lang).split("{")[0]))))
    own_url = f"http://127.0.0.1:{own_port}"
    app.wait_for(app.text(own_url))
    code_text = app.page.get_by_text(re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-"))
    app.wait_for(code_text)
    code = code_text.first.text_content() or ""
    shot(app, lang, "host")
    joined = cli(tmp_path / "device-c", "sync", "join", own_url, "--code", code, "--judge", "田中")
    assert joined.returncode == 0, joined.stderr
    app.wait_for(app.text(re.compile(r"田中")), timeout=10_000)
    shot(app, lang, "host-devices")
    # Hosting opens the sync port only (bound where it was told: 127.0.0.1 here); the browser
    # client is not served there, and nothing of this process listens anywhere else.
    assert not_the_browser_client(own_url)
    assert server.process is not None
    assert listening_addresses(server.process.pid) == {"127.0.0.1"}

    app.tap(app.button(ui(S.SYNC_NEW_CODE, lang)))
    app.wait_for(app.text(ui(S.SYNC_NEW_CODE_CONFIRM, lang)))
    shot(app, lang, "new-code-confirm")
    confirm(app, ui(S.SYNC_NEW_CODE_CONFIRM, lang), ui(S.SYNC_NEW_CODE, lang))
    app.wait_gone(app.text(code))

    to_log(app, lang)
    app.wait_for(app.button(containing(ui(S.SYNC_STATUS_HOSTING, lang).split("{")[0])))
    shot(app, lang, "log-host")
    to_sync(app, lang)
    app.tap(app.button(ui(S.SYNC_STOP_HOSTING, lang)))
    app.wait_for(app.text(ui(S.SYNC_STOP_CONFIRM, lang)))
    shot(app, lang, "stop-confirm")
    confirm(app, ui(S.SYNC_STOP_CONFIRM, lang), ui(S.SYNC_STOP_HOSTING, lang))
    app.wait_for(app.button(ui(S.SYNC_JOIN, lang)))
    # Stopping ends with its message (views/screens/sync_actions.py, `ended`): the screen is
    # whole once that is shown.
    app.wait_for(app.page.get_by_role("group", name=ui(S.SYNC_STOPPED, lang), exact=True))
    shot(app, lang, "stopped")

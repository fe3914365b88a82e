"""The first view in the register answer (issue 22, item 5): when the page sends the stored
look with its WebSocket (views/stored_look.py), the first screen is built before the session
starts, in that look, and the stored preferences read after it are still followed, never
saved over."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import flet as ft
import pytest
from flet.messaging.protocol import MessageAction
from test_app import hold

from views import routes, stored_look
from views.device import CLIENT_TIMEOUT
from views.shell_start import FIRST_FRAME_WAIT_S
from views.stored_look import BrowserLook, look_from_cookies


@contextlib.contextmanager
def page_sent(look: BrowserLook | None) -> Iterator[None]:
    """As views/server.py does for a WebSocket whose request carried the look's cookie."""
    token = stored_look._SENT.set(look)
    try:
        yield
    finally:
        stored_look._SENT.reset(token)


def cookie(sent: Any) -> str:
    return f"other=1; {stored_look.COOKIE}={quote(json.dumps(sent))}"


def register_answer(app: Any) -> dict[str, Any]:
    action, answer = app.messages[0]
    assert action is MessageAction.REGISTER_CLIENT
    return answer


def test_the_first_view_goes_out_with_the_register_answer(apps) -> None:
    """Nothing is asked of the client before the first screen: it is in the register answer,
    in the device's language on a first start. (Before, the view came after a round trip for
    the stored settings and the device's languages.)"""
    with page_sent(BrowserLook(stored={}, locales=["en-US", "ja-JP"])):
        app = apps(locale="en-US")
    answer = register_answer(app)
    assert "A Caution" in str(answer["page_patch"])
    assert app.has_text("A Caution")
    # The stored preferences are read after it; the device's languages are not asked again.
    asked = [body.get("name") for action, body in app.messages[1:] if body.get("name")]
    assert "get" in asked and "get_device_info" not in asked


def test_a_stored_look_is_the_first_view(apps) -> None:
    """A judge who chose English at the larger text size never sees Japanese first."""
    stored = {"language": "en", "text_scale": "1.25"}
    with page_sent(BrowserLook(stored=stored, locales=["ja-JP"])):
        app = apps(prefs={"language": "en", "text_scale": "1.25"})
    patch = str(register_answer(app)["page_patch"])
    assert "A Caution" in patch and "A 注意" not in patch
    # Nothing was drawn again once the stored preferences were read: they agreed.
    assert not [b for a, b in app.messages[1:] if a is MessageAction.PATCH_CONTROL]
    app.route(routes.SETTINGS.link())
    assert app.find(ft.IconButton, tooltip="Larger text")  # the English settings


def test_stored_preferences_that_differ_from_the_sent_look_are_followed(apps) -> None:
    """Changed in another tab since the page was loaded: the stored value wins, at once."""
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        app = apps(prefs={"language": "en", "bookmarks": '["bribery"]'})
    assert "A 注意" in str(register_answer(app)["page_patch"])
    assert app.has_text("A Caution")
    app.route(routes.INFRACTION.link("bribery"))
    assert app.find(ft.IconButton, tooltip="Remove bookmark")


def test_the_history_is_not_saved_over_before_it_is_read(apps) -> None:
    """A deep link to an entry visits it before the stored history is read: the history is
    saved once it is read, with the visit on top of it, not in its place."""
    prefs = {"recent": '["bribery"]'}
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        app = apps(route=routes.INFRACTION.link("drew-extra-cards"), prefs=prefs)
    assert json.loads(prefs["recent"]) == ["drew-extra-cards", "bribery"]
    assert app.exists(ft.AppBar)


def test_nothing_is_saved_while_the_stored_preferences_are_not_read(apps) -> None:
    prefs = {"recent": '["bribery"]', "language": "ja"}
    silent = {("SharedPreferences", "get"): hold}
    with page_sent(BrowserLook(stored={"language": '"ja"'}, locales=["ja-JP"])):
        app = apps(route=routes.INFRACTION.link("drew-extra-cards"), prefs=prefs, handlers=silent)
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))  # the judge's own change
    assert prefs == {"recent": '["bribery"]', "language": "ja"}
    app.answer_held()
    app.settle(timers_within=CLIENT_TIMEOUT + 1)
    assert prefs["language"] == "en"  # the judge's change, newer than what was stored
    assert json.loads(prefs["recent"]) == ["drew-extra-cards", "bribery"]


@pytest.mark.parametrize(
    "stored",
    [
        {"language": 5, "theme": ["dark"], "text_scale": "1e999"},
        {"language": "xx", "theme": "plaid", "text_scale": "NaN"},
    ],
)
def test_a_corrupt_sent_look_is_the_default_look(apps, stored: dict[str, object]) -> None:
    with page_sent(BrowserLook(stored=stored, locales=["ja-JP"])):
        app = apps()
    assert "A 注意" in str(register_answer(app)["page_patch"])
    app.route(routes.SETTINGS.link())
    language, theme = app.find_all(ft.RadioGroup)
    assert (language.value, theme.value) == ("ja", "system")
    assert app.has_text("100%")


def test_the_look_is_read_from_the_cookie_as_the_page_writes_it() -> None:
    # As SharedPreferences keeps them on the web: each value JSON-encoded.
    sent = {"s": {"language": '"en"', "theme": '"dark"', "text_scale": '"1.25"'}, "l": ["en-GB"]}
    look = look_from_cookies(cookie(sent))
    assert look == BrowserLook(
        stored={"language": "en", "theme": "dark", "text_scale": "1.25"}, locales=["en-GB"]
    )
    only_known = look_from_cookies(cookie({"s": {"bookmarks": '["x"]'}, "l": ["ja", 3]}))
    assert only_known == BrowserLook(stored={}, locales=["ja"])


@pytest.mark.parametrize(
    "header",
    [
        "",
        "other=1",
        f"{stored_look.COOKIE}=",
        f"{stored_look.COOKIE}=not%20json",
        f"{stored_look.COOKIE}={quote('[1, 2]')}",
        f"{stored_look.COOKIE}={quote(json.dumps({'s': 'x', 'l': []}))}",
        f"{stored_look.COOKIE}={quote(json.dumps({'s': {}, 'l': 'ja'}))}",
        f"{stored_look.COOKIE}={quote('[' * 100_000)}",
        f"{stored_look.COOKIE}={quote(json.dumps({'s': {'language': 'e' * 3000}, 'l': []}))}",
    ],
)
def test_an_unreadable_cookie_means_the_look_is_asked_for(header: str) -> None:
    assert look_from_cookies(header) is None


def test_the_page_gets_the_script_where_the_app_scripts_go() -> None:
    html = b"<head><script>a</script>\n<!-- fletAppConfig -->\n</head>"
    out = stored_look.with_script(html)
    assert out.count(b"<script>") == 2
    assert out.index(stored_look.SCRIPT.encode()) < out.index(stored_look.SCRIPT_AT)
    assert stored_look.SCRIPT.encode() in stored_look.with_script(b"<head></head>")


def test_the_principles_rows_follow_the_first_frame(apps, regulation) -> None:
    """The first frame is lighter (issue 22, item 5): the tier cards and the principles'
    heading, but not their rows (below a phone's first screen but for the top of the first);
    they come as soon as the client reports the heading laid out."""
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        app = apps()
    rows = [principle.label.ja for principle in regulation.principles]
    patch = str(register_answer(app)["page_patch"])
    assert "A 注意" in patch and "F 受賞資格を失う失格" in patch
    assert regulation.principles_heading.ja in patch
    assert not [row for row in rows if row in patch]
    assert not [row for row in rows if app.has_text(row)]
    heading = app.find(ft.Text, text=regulation.principles_heading.ja)
    app._run(app._act(lambda: app._fire(heading, "size_change", {"w": 91.25, "h": 26.0})))
    app.settle()
    assert [row for row in rows if app.has_text(row)] == rows
    assert app.has_text("A 注意")


def test_the_principles_rows_come_without_a_report_too(apps, regulation) -> None:
    """A client that never reports the first frame laid out still gets them."""
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        app = apps()
    label = regulation.principles[0].label.ja
    assert not app.has_text(label)
    app.settle(timers_within=FIRST_FRAME_WAIT_S + 1)
    assert app.has_text(label)


def test_a_start_without_the_sent_look_draws_the_principles_at_once(apps, regulation) -> None:
    """The desktop window and a phone package (no cookie): the first view, after the round
    trip for the stored settings, is whole."""
    app = apps()
    assert app.has_text(regulation.principles[0].label.ja)
    # A later visit to the first screen is whole too.
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        web = apps()
    web.route(routes.SEARCH.link())
    web.route(routes.TIERS.link())
    assert web.has_text(regulation.principles[0].label.ja)


def test_a_deep_link_first_leaves_nothing_waiting(apps, regulation) -> None:
    """A first view of another screen defers nothing: no redraw comes after it, and the first
    screen, opened later, is whole at once."""
    with page_sent(BrowserLook(stored={}, locales=["ja-JP"])):
        app = apps(route=routes.SEARCH.link())
    sent = len(app.messages)
    app.settle(timers_within=FIRST_FRAME_WAIT_S + 1)
    assert not [b for a, b in app.messages[sent:] if a is MessageAction.PATCH_CONTROL]
    app.route(routes.TIERS.link())
    assert app.has_text(regulation.principles[0].label.ja)

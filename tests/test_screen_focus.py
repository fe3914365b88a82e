"""The field a screen opens with keeps the judge's typing: on a phone, the blur that Flutter's web
engine gives it just after the app gave it the focus is answered once, a moment later
(views/screen_focus.py). The browser shows the fault itself (tests/e2e/test_browser.py, the
search on a phone typed without a tap); these follow the app's side over the fake client."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import flet as ft
import pytest

from views import routes
from views.screen_focus import AGAIN_S, KEEP_S, ScreenFocus

try:
    from flet_harness import HOLD, FakeApp
except ImportError:  # tests/ as a package
    from tests.flet_harness import HOLD, FakeApp

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
DREW = "drew-extra-cards"

pytestmark = pytest.mark.usefixtures("data_dir")


def focus_calls(app: FakeApp) -> list[int]:
    return [i.control_id for i in app.invocations if i.name == "focus"]


def search_box(app: FakeApp) -> ft.TextField:
    return app.find(ft.TextField, label="検索")


def tap_tab(app: FakeApp, label: str) -> None:
    """A phone's bottom-bar destination tapped; the client follows the address."""
    app.click(next(d for d in app.find(ft.NavigationBar).destinations if d.label == label))
    app.answer_held()


def open_search(app: FakeApp) -> ft.TextField:
    """The Search tab tapped on a phone, with its answer: the box's focus, taken."""
    app.on_invoke("Page", "push_route", lambda *_: HOLD)
    tap_tab(app, "検索")
    box = search_box(app)
    assert focus_calls(app) == [box._i]
    app.focus(box)
    return box


def open_form_from_the_infraction(app: FakeApp) -> ft.TextField:
    """ "Record this penalty" tapped; the client follows the address: the name field's focus."""
    app.on_invoke("Page", "push_route", lambda *_: HOLD)
    app.click(app.find(ft.FilledTonalButton, text="この罰則を記録"))
    app.answer_held()
    name = app.find(ft.TextField, label="プレイヤー名")
    assert focus_calls(app) == [name._i]
    return name


def assert_a_quick_blur_left_alone(app: FakeApp, field: ft.TextField) -> None:
    """The field takes the focus and loses it at once: nothing is sent again."""
    calls = focus_calls(app)
    app.focus(field)
    app.blur(field)
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == calls


def pass_time(app: FakeApp, seconds: float) -> None:
    """The app's clock moved on by `seconds`, the app idle meanwhile."""
    app.loop.call_soon_threadsafe(app.loop.call_later, seconds, lambda: None)
    app.settle(timers_within=seconds + 0.01)


def test_on_a_phone_the_engines_blur_is_answered_once_a_moment_later(apps) -> None:
    app = apps(**PHONE)
    box = open_search(app)
    app.blur(box)  # the engine's, some 0.1 s after the focus
    app.settle()
    assert focus_calls(app) == [box._i], "not at once: given back at once, it did not hold"
    app.settle(timers_within=AGAIN_S)
    assert focus_calls(app) == [box._i, box._i]
    app.focus(box)
    app.blur(box)  # a second blur, however soon, is the judge's own
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == [box._i, box._i]


def test_the_record_forms_name_is_kept_the_same_way(apps) -> None:
    app = apps(**PHONE, route=routes.INFRACTION.link(DREW))
    name = open_form_from_the_infraction(app)
    app.focus(name)
    app.blur(name)
    app.settle(timers_within=AGAIN_S)
    assert focus_calls(app) == [name._i, name._i]


def test_the_moment_counts_from_when_the_field_took_the_focus(apps) -> None:
    """A slow client: the focus taken a while after it was given, then the engine's blur."""
    app = apps(**PHONE)
    app.on_invoke("Page", "push_route", lambda *_: HOLD)
    tap_tab(app, "検索")
    box = search_box(app)
    pass_time(app, KEEP_S + 0.1)  # the focus given, still on its way
    app.blur(box)  # a blur before the field took the focus is not the one that follows it
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == [box._i]
    app.focus(box)
    app.blur(box)
    app.settle(timers_within=AGAIN_S)
    assert focus_calls(app) == [box._i, box._i]


def test_only_the_blur_of_the_field_given_the_focus_is_answered() -> None:
    """Search, a result, "record this penalty": the search box the judge came from may tell of
    its blur after the name field took the focus; the name field's own blur is the one
    answered. (The fake client refuses events of a field no longer on top: ScreenFocus alone.)"""
    spawned: list[str] = []

    def spawn(work: Coroutine[Any, Any, None]) -> None:
        spawned.append(work.__qualname__)
        work.close()

    now = [0.0]
    keeper = ScreenFocus(spawn, lambda: False, lambda: now[0])
    box, name = ft.TextField(), ft.TextField()
    keeper.prepare("/search", box, ahead=True)
    keeper.shown("/search", box, ahead=True)
    keeper.route_reported("/search")
    keeper.prepare("/log/new", name, ahead=True)
    keeper.shown("/log/new", name, ahead=True)
    keeper.route_reported("/log/new")
    assert spawned == ["_focus", "_focus"]
    asyncio.run(name.on_focus(None))  # type: ignore[misc]
    asyncio.run(box.on_blur(None))  # type: ignore[misc]
    assert spawned == ["_focus", "_focus"]
    asyncio.run(name.on_blur(None))  # type: ignore[misc]
    assert spawned == ["_focus", "_focus", "ScreenFocus._on_blur.<locals>.again"]
    # Nor does its focus restart the moment of the field given the focus.
    keeper.prepare("/search", box, ahead=True)
    keeper.shown("/search", box, ahead=True)
    keeper.route_reported("/search")
    asyncio.run(box.on_focus(None))  # type: ignore[misc]
    now[0] = KEEP_S
    asyncio.run(name.on_focus(None))  # type: ignore[misc]
    asyncio.run(box.on_blur(None))  # type: ignore[misc]
    assert spawned[3:] == ["_focus"]
    # Each giving waits for its own focus event: the time an earlier one was taken is forgotten.
    now[0] = 0.0
    asyncio.run(box.on_focus(None))  # type: ignore[misc]
    keeper.prepare("/log/new", name, ahead=True)
    keeper.shown("/log/new", name, ahead=True)
    keeper.prepare("/search", box, ahead=True)
    keeper.shown("/search", box, ahead=True)
    keeper.route_reported("/search")  # given again, its focus still on its way
    asyncio.run(box.on_blur(None))  # type: ignore[misc]
    assert spawned[4:] == ["_focus"]


def test_a_blur_after_the_judge_has_typed_is_the_judges(apps) -> None:
    """A quick judge: the name typed, then the table tapped, within the moment (a browser test
    did it in 0.3 s, and its "9" went into the name field given the focus back)."""
    app = apps(**PHONE, route=routes.INFRACTION.link(DREW))
    name = open_form_from_the_infraction(app)
    app.focus(name)
    app.type(name, "森 海")
    app.blur(name)
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == [name._i]


def test_a_blur_after_the_moment_is_the_judges(apps) -> None:
    app = apps(**PHONE)
    box = open_search(app)
    pass_time(app, KEEP_S + 0.1)
    app.blur(box)
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == [box._i]


def test_a_screen_left_before_the_moment_is_not_focused_again(apps) -> None:
    app = apps(**PHONE)
    box = open_search(app)
    app.blur(box)
    tap_tab(app, "記録")
    app.settle(timers_within=AGAIN_S * 2)
    assert focus_calls(app) == [box._i]


def test_a_screen_opened_by_its_address_is_left_to_the_judge(apps) -> None:
    """No route slides in (a start, a reload, a typed address): a quick tap on the player's ID,
    or a Tab, is the judge's (tests/e2e/test_keyboard_browser.py taps it at once)."""
    app = apps(**PHONE, route=routes.LOG_NEW.link(infraction=DREW))
    name = app.find(ft.TextField, label="プレイヤー名")
    assert focus_calls(app) == [name._i]
    assert_a_quick_blur_left_alone(app, name)


def test_on_a_wide_window_a_blur_is_left_alone(apps) -> None:
    """One view, no route sliding in: the focus held there, and a quick click elsewhere is the
    judge's."""
    app = apps(**DESKTOP, route=routes.INFRACTION.link(DREW))
    assert_a_quick_blur_left_alone(app, open_form_from_the_infraction(app))


def test_a_fields_own_focus_and_blur_handlers_still_run_and_are_wrapped_once() -> None:
    seen: list[str] = []

    async def own_async(_: object) -> None:
        seen.append("async")

    keeper = ScreenFocus(lambda work: work.close(), lambda: False, lambda: 0.0)
    for own, said in ((lambda _: seen.append("own"), "own"), (own_async, "async")):
        field = ft.TextField(on_focus=own, on_blur=own)
        keeper.prepare("/search", field, ahead=True)
        wrapped = field.on_focus, field.on_blur
        keeper.prepare("/search", field, ahead=True)  # a redraw before it was shown
        assert (field.on_focus, field.on_blur) == wrapped
        for handler in wrapped:
            seen.clear()
            asyncio.run(handler(None))  # type: ignore[misc]
            assert seen == [said]
        assert field.autofocus is False  # a screen the app opens: never autofocused


def test_a_redraw_of_the_same_screen_leaves_the_judges_cursor_alone(apps) -> None:
    """A form opened by its address on a desktop is autofocused; the language switched on it
    draws it again, and its field, made anew, must not take the focus back from the button."""
    app = apps(**DESKTOP, route=routes.LOG_NEW.link(infraction=DREW))
    assert app.find(ft.TextField, label="プレイヤー名").autofocus is True
    calls = len(focus_calls(app))
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    name = app.find(ft.TextField, label="Player name")
    assert name.autofocus is False
    assert len(focus_calls(app)) == calls


def test_a_held_focus_waits_for_its_own_route() -> None:
    """Two screens opened before the client followed the first: the first one's route report
    does not give the second one's focus (it would come before the second slides in)."""
    spawned: list[Coroutine[Any, Any, None]] = []
    keeper = ScreenFocus(spawned.append, lambda: False, lambda: 0.0)
    name = ft.TextField()
    keeper.shown("/infractions/drew-extra-cards", None, ahead=True)
    keeper.prepare("/log/new", name, ahead=True)
    keeper.shown("/log/new", name, ahead=True)
    keeper.route_reported("/infractions/drew-extra-cards")
    assert spawned == []
    keeper.route_reported("/log/new")
    assert len(spawned) == 1
    spawned[0].close()

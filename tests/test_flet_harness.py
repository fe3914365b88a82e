"""Tests proving tests/flet_harness.py against a tiny view-based demo app.

The demo app is written the way this project's app is: ``page.views`` rebuilt from
``page.route``, ``on_view_pop`` removing the top view and pushing the new top route, a strongly
referenced ``ft.SharedPreferences()``, the device locale from ``page.get_device_info()``.
Each test covers one behaviour of the fake client that the app's UI tests rely on.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import re
import typing
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from flet.messaging.protocol import MessageAction

try:
    from flet_harness import HOLD, FakeApp, HarnessError
except ImportError:  # tests/ turned into a package
    from tests.flet_harness import HOLD, FakeApp, HarnessError  # type: ignore[no-redef]

LABELS = {
    "en": {"home": "Home", "settings": "Settings", "about": "About", "fav": "Favorites"},
    "ja": {
        "home": "ホーム",
        "settings": "設定",
        "about": "このアプリについて",
        "fav": "お気に入り",
    },
}


async def demo_main(page: ft.Page) -> None:
    # Strong reference: the page drops services nothing references after each event.
    prefs = ft.SharedPreferences()

    info = await page.get_device_info()
    device_lang = info.locales[0].language_code if info and info.locales else "en"
    stored_lang = await prefs.get("lang")
    stored_visits = await prefs.get("visits")
    visits = (stored_visits if isinstance(stored_visits, int) else 0) + 1
    await prefs.set("visits", visits)
    state: dict[str, Any] = {"lang": stored_lang or device_lang, "tab": 0}

    echo = ft.Text("", key="echo")
    size = ft.Text(f"{page.width:g}x{page.height:g}")

    def t(name: str) -> str:
        return LABELS[state["lang"]][name]

    def on_name_change(e: ft.Event[ft.TextField]) -> None:
        echo.value = f"Hello, {e.control.value}!"
        echo.update()

    def on_tab_change(e: ft.Event[ft.NavigationBar]) -> None:
        state["tab"] = e.control.selected_index
        build_views()

    def boom() -> None:
        raise ValueError("boom from a click handler")

    async def set_lang(code: str) -> None:
        state["lang"] = code
        await prefs.set("lang", code)
        build_views()

    def on_resize(e: ft.PageResizeEvent) -> None:
        size.value = f"{e.width:g}x{e.height:g}"
        size.update()

    def home_view() -> ft.View:
        return ft.View(
            route="/",
            appbar=ft.AppBar(title=ft.Text(t("home"))),
            controls=[
                ft.Button(t("settings"), on_click=lambda: page.navigate("/settings")),
                ft.TextField(label="Name", on_change=on_name_change),
                echo,
                size,
                ft.Text(f"Tab: {state['tab']}"),
                ft.Text(f"Visits: {visits}"),
                ft.IconButton(ft.Icons.WARNING, tooltip="Explode", on_click=boom),
                ft.Container(ft.Text("Tagged"), tooltip="Tag"),
                ft.Text("hidden", visible=False),
            ],
            navigation_bar=ft.NavigationBar(
                selected_index=state["tab"],
                on_change=on_tab_change,
                destinations=[
                    ft.NavigationBarDestination(icon=ft.Icons.HOME, label=t("home")),
                    ft.NavigationBarDestination(icon=ft.Icons.STAR, label=t("fav")),
                ],
            ),
        )

    def settings_view() -> ft.View:
        async def go_about() -> None:
            await page.push_route("/settings/about")

        async def english() -> None:
            await set_lang("en")

        async def japanese() -> None:
            await set_lang("ja")

        return ft.View(
            route="/settings",
            appbar=ft.AppBar(title=ft.Text(t("settings"))),
            controls=[
                ft.Button("English", on_click=english),
                ft.Button("日本語", on_click=japanese),
                ft.Button(content=ft.Text(t("about")), on_click=go_about),
            ],
        )

    def about_view() -> ft.View:
        return ft.View(
            route="/settings/about",
            appbar=ft.AppBar(title=ft.Text(t("about"))),
            controls=[ft.Text("v1.0", spans=[ft.TextSpan(" (demo)")])],
        )

    def build_views() -> None:
        page.views.clear()
        page.views.append(home_view())
        if page.route.startswith("/settings"):
            page.views.append(settings_view())
        if page.route == "/settings/about":
            page.views.append(about_view())
        page.update()

    async def view_pop(e: ft.ViewPopEvent) -> None:
        if e.view is not None:
            page.views.remove(e.view)
        await page.push_route(page.views[-1].route or "/")

    page.on_route_change = lambda e: build_views()
    page.on_view_pop = view_pop
    page.on_resize = on_resize
    build_views()


@pytest.fixture
def start_app() -> Iterator[Callable[..., FakeApp]]:
    apps: list[FakeApp] = []

    def start(main: Callable[[ft.Page], Any], **options: Any) -> FakeApp:
        app = FakeApp.start(main, **options)
        apps.append(app)
        return app

    yield start
    for app in apps:
        app.stop()


def view_routes(app: FakeApp) -> list[str | None]:
    return [v.route for v in app.page.views]


def text_starting(app: FakeApp, prefix: str) -> str:
    return next(t for t in app.texts() if t.startswith(prefix))


# ------------------------------------------------------------------ version guard


def test_the_harness_refuses_another_flet_version(monkeypatch) -> None:
    path = Path(__file__).with_name("flet_harness.py")
    spec = importlib.util.spec_from_file_location("flet_harness_guarded", path)
    assert spec is not None and spec.loader is not None
    monkeypatch.setattr(ft, "__version__", "1.0.6")
    with pytest.raises(ImportError, match=r"written against flet 1\.0\.5 .* 1\.0\.6 is installed"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


# ------------------------------------------------------------------ start-up


def test_start_at_deep_route_renders_that_view(start_app) -> None:
    app = start_app(demo_main, route="/settings/about")
    assert view_routes(app) == ["/", "/settings", "/settings/about"]
    assert app.top_view.route == "/settings/about" == app.page.route == app.client_route
    # Document order follows the controls' fields: View.controls before View.appbar.
    assert app.texts() == ["v1.0", " (demo)", "About"]
    assert app.crashes == []


def test_main_sees_the_clients_page(start_app) -> None:
    app = start_app(demo_main, width=1280, height=800)
    page = app.page
    assert (page.route, page.width, page.height, page.web) == ("/", 1280, 800, False)
    assert page.platform == ft.PagePlatform.ANDROID
    assert "1280x800" in app.texts()
    assert start_app(demo_main, web=True).page.web is True


@pytest.mark.parametrize("web", [False, True])
def test_device_info_carries_the_device_locales(start_app, web: bool) -> None:
    seen: dict[str, Any] = {}

    async def main(page: ft.Page) -> None:
        seen["info"] = await page.get_device_info()

    start_app(main, web=web, locale=["ja-JP", "zh-Hant-TW", "en"])
    info = seen["info"]
    assert isinstance(info, ft.WebDeviceInfo if web else ft.AndroidDeviceInfo)
    assert [(loc.language_code, loc.script_code, loc.country_code) for loc in info.locales] == [
        ("ja", None, "JP"),
        ("zh", "Hant", "TW"),
        ("en", None, None),
    ]
    assert "ホーム" in start_app(demo_main, locale="ja-JP").texts()
    assert "Home" in start_app(demo_main, locale="en-US").texts()


# ------------------------------------------------------------------ finding


def test_find_by_type_text_tooltip_label_and_scope(start_app) -> None:
    app = start_app(demo_main)
    assert app.find(ft.Button, text="Settings").content == "Settings"
    assert app.find(tooltip="Explode").icon == ft.Icons.WARNING
    tagged = app.find(ft.Container, text="Tagged")
    assert tagged is app.find(tooltip="Tag")
    assert app.find(text="Tagged").value == "Tagged"  # innermost match: the Text
    assert app.find(label="Name").on_change is not None
    assert len(app.find_all(ft.NavigationBarDestination)) == 2
    assert len(app.find_all((ft.Button, ft.IconButton))) == 2
    assert app.find_all(text=re.compile(r"^Visits: \d+$"))
    assert app.find_all(ft.Text, scope=tagged) == [app.find(text="Tagged")]
    assert app.texts(tagged) == ["Tag", "Tagged"]
    assert not app.exists(text="About")  # only on another route
    assert app.exists(ft.Button, text="Settings")
    with pytest.raises(HarnessError, match=r"exactly one .*type=Text.*found \d+"):
        app.find(ft.Text)
    with pytest.raises(HarnessError, match="found 0"):
        app.find(ft.Button, text="Nowhere")


def test_texts_are_what_the_controls_show(start_app) -> None:
    def main(page: ft.Page) -> None:
        page.add(
            ft.TextField(label="Label", hint_text="Hint", value="Typed", error="Error"),
            ft.Dropdown(
                label="Round",
                error_text="Pick one",
                options=[ft.DropdownOption(key="1", text="One")],
            ),
            ft.ListTile(title=ft.Text("Title"), subtitle="Subtitle", tooltip="Tip"),
            ft.Text("Shown", spans=[ft.TextSpan("Span")]),
            ft.Text("Hidden", visible=False),
            ft.Column([ft.Text("Inside hidden")], visible=False),
        )

    app = start_app(main)
    assert app.texts() == [
        "Typed",
        "Label",
        "Hint",
        "Error",
        "Round",
        "Pick one",
        "One",
        "Subtitle",
        "Tip",
        "Title",
        "Shown",
        "Span",
    ]
    assert app.has_text(re.compile("^Pick")) and not app.has_text("Hidden")


def test_open_dialogs_and_snack_bars_are_on_screen_until_closed(start_app) -> None:
    def main(page: ft.Page) -> None:
        def ask() -> None:
            page.show_dialog(
                ft.AlertDialog(
                    title=ft.Text("Sure?"),
                    actions=[ft.TextButton("Yes", on_click=lambda: page.pop_dialog())],
                )
            )

        page.add(
            ft.Button("Ask", on_click=ask),
            ft.Button("Tell", on_click=lambda: page.show_dialog(ft.SnackBar(ft.Text("Told")))),
        )

    app = start_app(main)
    app.click(app.find(ft.Button, text="Ask"))
    assert app.has_text("Sure?")
    app.click(app.find(ft.TextButton, text="Yes"))
    assert not app.has_text("Sure?") and not app.exists(ft.TextButton)
    app.click(app.find(ft.Button, text="Tell"))
    assert app.has_text("Told")
    assert app.crashes == []


# ------------------------------------------------------------------ navigation


def test_clicking_a_button_navigates_through_the_client(start_app) -> None:
    app = start_app(demo_main)
    app.click(app.find(ft.Button, text="Settings"))
    assert app.page.route == "/settings" == app.client_route
    assert view_routes(app) == ["/", "/settings"]
    assert [(i.control_type, i.name, i.args) for i in app.invocations][-1] == (
        "Page",
        "push_route",
        {"route": "/settings"},
    )
    # A button whose content is a Text: clicking the Text goes to the button.
    app.click(app.find(text="About"))
    assert app.top_view.route == "/settings/about"
    assert app.crashes == []


def test_back_pops_views_until_root(start_app) -> None:
    app = start_app(demo_main, route="/settings/about")
    assert app.back() is True
    assert app.page.route == "/settings" and view_routes(app) == ["/", "/settings"]
    assert app.back() is True
    assert app.page.route == "/" == app.client_route and view_routes(app) == ["/"]
    assert app.back() is False  # last view: the OS would close the app
    assert app.crashes == []


def test_back_without_a_view_pop_handler_hides_the_view_once(start_app) -> None:
    popped: list[str | None] = []

    def main(page: ft.Page) -> None:
        page.on_view_pop = lambda e: popped.append(e.view.route)
        page.views.append(ft.View(route="/b", controls=[ft.Text("B")]))
        page.update()

    app = start_app(main)
    assert app.texts() == ["B"]
    assert app.back() is True  # the client hides "/b"; nobody removes it in Python
    assert popped == ["/b"]
    assert app.top_view.route == "/" and len(app.page.views) == 2
    assert app.back() is False


def test_a_typed_route_fires_route_change_unless_already_shown(start_app) -> None:
    changes: list[str] = []

    def main(page: ft.Page) -> None:
        page.on_route_change = lambda e: changes.append(e.route)
        page.add(ft.Text("x"))

    app = start_app(main)
    app.route("/")  # already shown: the client sends nothing
    app.route("/a?q=1")
    app.route("/a?q=1")
    assert changes == ["/a?q=1"]
    assert app.page.route == "/a?q=1" == app.client_route


def test_navigation_bar_and_rail_destinations(start_app) -> None:
    seen: list[tuple[str, Any]] = []

    def main(page: ft.Page) -> None:
        page.add(
            ft.NavigationRail(
                selected_index=0,
                on_change=lambda e: seen.append(("rail", e.control.selected_index)),
                destinations=[
                    ft.NavigationRailDestination(icon=ft.Icons.HOME, label="R0"),
                    ft.NavigationRailDestination(icon=ft.Icons.STAR, label="R1", visible=False),
                    ft.NavigationRailDestination(icon=ft.Icons.INFO, label="R2"),
                ],
            )
        )

    app = start_app(demo_main)
    app.click(app.find(ft.NavigationBarDestination, label="Favorites"))
    assert "Tab: 1" in app.texts()
    assert app.find(ft.NavigationBar).selected_index == 1
    app.click(app.find(ft.NavigationBarDestination, label="Favorites"))  # the lit one reports too
    assert "Tab: 1" in app.texts()

    rail = start_app(main)
    rail.click(rail.find(text="R2"))  # the label's tap goes to its destination
    rail.click(rail.find(ft.NavigationRailDestination, label="R0"))
    assert seen == [("rail", 1), ("rail", 0)]  # indexes among the visible destinations


def test_resize_updates_the_page_and_fires_on_resize(start_app) -> None:
    app = start_app(demo_main)
    app.resize(844, 390)
    assert "844x390" in app.texts()
    assert (app.page.width, app.page.height) == (844, 390)


# ------------------------------------------------------------------ input


def test_typing_and_enter(start_app) -> None:
    submitted: list[str] = []

    def main(page: ft.Page) -> None:
        page.add(
            ft.TextField(label="Query", on_submit=lambda e: submitted.append(e.data)),
            ft.TextField(label="Silent"),  # no handlers: the value still changes
        )

    app = start_app(demo_main)
    app.type(app.find(ft.TextField, label="Name"), "Yugi")
    assert "Hello, Yugi!" in app.texts()
    assert app.find(ft.TextField).value == "Yugi"

    form = start_app(main)
    form.type(form.find(ft.TextField, label="Query"), "typed only")
    form.type(form.find(ft.TextField, label="Query"), "query", submit=True)
    form.type(form.find(ft.TextField, label="Silent"), "kept")
    assert submitted == ["query"]
    assert form.find(ft.TextField, label="Silent").value == "kept"
    assert form.crashes == []


def test_events_go_only_to_controls_that_handle_them(start_app) -> None:
    """The client sends a control's event only when it has a handler; flet runs its
    after-event work (an automatic page update among it) for every event it receives."""
    note = ft.Text("before")

    def main(page: ft.Page) -> None:
        page.add(note, ft.TextField(label="Silent"), ft.TextField(label="Heard", on_change=noop))
        note.value = "changed, not yet sent"  # no update(): only an event's auto-update sends it

    def noop() -> None:
        pass

    def patches(app: FakeApp) -> int:
        return sum(action == MessageAction.PATCH_CONTROL for action, _ in app.messages)

    app = start_app(main)
    sent = patches(app)
    app.type(app.find(ft.TextField, label="Silent"), "x")
    assert patches(app) == sent and app.find(ft.TextField, label="Silent").value == "x"
    app.type(app.find(ft.TextField, label="Heard"), "y")
    assert patches(app) == sent + 1


def test_dropdown_radio_and_chips(start_app) -> None:
    seen: list[tuple[str, Any]] = []

    def main(page: ft.Page) -> None:
        page.add(
            ft.Dropdown(
                label="Lang",
                options=[ft.DropdownOption(key="en", text="English"), ft.DropdownOption("ja")],
                on_select=lambda e: seen.append(("dropdown", e.data)),
            ),
            ft.RadioGroup(
                ft.Row([ft.Radio(value="a", label="A"), ft.Radio(value="b", label="B")]),
                on_change=lambda e: seen.append(("radio", e.data)),
            ),
            ft.Chip(ft.Text("Pick"), on_select=lambda e: seen.append(("chip", e.data))),
            ft.Chip(ft.Text("Press"), on_click=lambda e: seen.append(("press", e.data))),
        )

    app = start_app(main)
    app.select(app.find(ft.Dropdown), "ja")
    app.click(app.find(ft.Radio, label="B"))
    app.select(app.find(ft.RadioGroup), "a")
    app.click(app.find(ft.Chip, text="Pick"))
    app.click(app.find(ft.Chip, text="Pick"))
    app.click(app.find(ft.Chip, text="Press"))
    assert seen == [
        ("dropdown", "ja"),
        ("radio", "b"),
        ("radio", "a"),
        ("chip", True),
        ("chip", False),
        ("press", None),
    ]
    assert app.find(ft.Dropdown).value == "ja"
    assert app.find(ft.RadioGroup).value == "a"
    with pytest.raises(HarnessError, match="Dropdown or a RadioGroup"):
        app.select(app.find(ft.Chip, text="Press"), True)


def test_a_client_action_runs_in_the_client_before_the_click(start_app) -> None:
    """ft.CopyToClipboard on a button: the client copies inside the tap, then sends the
    click; the app learns nothing of the copy but what its handler is told."""
    copied_at_click: list[str | None] = []
    holder: dict[str, FakeApp] = {}

    def main(page: ft.Page) -> None:
        page.add(
            ft.IconButton(
                ft.Icons.COPY,
                action=ft.CopyToClipboard("R1 T2 Warning"),
                on_click=lambda: copied_at_click.append(holder["app"].clipboard),
            )
        )

    app = holder["app"] = start_app(main)
    app.click(app.find(ft.IconButton))
    assert app.clipboard == "R1 T2 Warning"
    assert copied_at_click == ["R1 T2 Warning"]  # copied before the click arrived
    assert [(i.control_type, i.name, i.args) for i in app.invocations] == [
        ("Clipboard", "set", {"data": "R1 T2 Warning"})
    ]


# ------------------------------------------------------------------ what a user cannot do


def test_what_a_user_cannot_tap_is_refused(start_app) -> None:
    def main(page: ft.Page) -> None:
        page.add(
            ft.Button("Off", disabled=True, on_click=lambda: None),
            ft.Column([ft.Button("In off", on_click=lambda: None)], disabled=True),
            ft.TextField(label="Locked", disabled=True),
            ft.Text("Plain"),
        )
        page.controls.append(ft.Button("Unsent", on_click=lambda: None))  # no update()
        page.controls.append(ft.TextField(label="Unsent field"))

    app = start_app(main)
    with pytest.raises(HarnessError, match="disabled"):
        app.click(app.find(ft.Button, text="Off"))
    with pytest.raises(HarnessError, match="disabled"):
        app.click(app.find(ft.Button, text="In off"))
    with pytest.raises(HarnessError, match="disabled"):
        app.type(app.find(ft.TextField, label="Locked"), "x")
    with pytest.raises(HarnessError, match="never sent"):
        app.click(app.find(ft.Button, text="Unsent"))
    with pytest.raises(HarnessError, match="never sent"):
        app.type(app.find(ft.TextField, label="Unsent field"), "x")
    with pytest.raises(HarnessError, match="nothing handles a tap"):
        app.click(app.find(text="Plain"))

    demo = start_app(demo_main, route="/settings")
    below = demo.page.views[0]
    with pytest.raises(HarnessError, match="not visible"):
        demo.click(demo.find(ft.Button, text="Settings", scope=below))


# ------------------------------------------------------------------ settling


def test_settle_waits_for_the_app_and_for_short_timers_only_when_asked(start_app) -> None:
    def main(page: ft.Page) -> None:
        status = ft.Text("idle")

        async def slow() -> None:
            status.value = "working"
            status.update()
            await asyncio.sleep(0.05)
            status.value = "done"
            status.update()

        page.add(status, ft.Button("Go", on_click=slow))

    app = start_app(main)
    app.click(app.find(ft.Button))
    assert app.texts()[0] == "working"  # settle ignores timers by default
    app.settle(timers_within=0.5)
    assert app.texts()[0] == "done"


def test_settle_gives_up_on_an_app_that_never_becomes_idle(start_app) -> None:
    def main(page: ft.Page) -> None:
        async def spin() -> None:
            while True:
                await asyncio.sleep(0)

        page.add(ft.Button("Spin", on_click=spin))

    app = start_app(main)
    with pytest.raises(HarnessError, match="did not become idle"):
        app.click(app.find(ft.Button))

    async def busy_main(page: ft.Page) -> None:
        while True:
            await asyncio.sleep(0)

    with pytest.raises(HarnessError, match="did not become idle"):
        FakeApp.start(busy_main)  # and the app is stopped, its loop closed


def test_a_stopped_app_cannot_be_driven(start_app) -> None:
    closed: list[str] = []

    def main(page: ft.Page) -> None:
        page.on_close = lambda e: closed.append("closed")
        page.add(ft.Button("Go", on_click=lambda: None))

    app = start_app(main)
    button = app.find(ft.Button)
    app.stop()
    assert closed == ["closed"]
    with pytest.raises(HarnessError, match="stopped"):
        app.click(button)


# ------------------------------------------------------------------ invoke-method answers


def test_prefs_persist_across_a_restart() -> None:
    prefs: dict[str, Any] = {}
    first = FakeApp.start(demo_main, prefs=prefs, route="/settings")
    try:
        first.click(first.find(ft.Button, text="日本語"))
        assert "設定" in first.texts()
        assert first.crashes == []
    finally:
        first.stop()
    assert prefs == {"visits": 1, "lang": "ja"}

    second = FakeApp.start(demo_main, prefs=prefs, route="/settings", locale="en-US")
    try:
        assert "設定" in second.texts()  # the stored choice wins over the device locale
        second.back()
        assert "Visits: 2" in second.texts()
        assert second.prefs is prefs and prefs["visits"] == 2
    finally:
        second.stop()


def test_prefs_values_go_through_the_wire(start_app) -> None:
    results: dict[str, Any] = {}

    async def main(page: ft.Page) -> None:
        prefs = ft.SharedPreferences()
        values: dict[str, str | int | float | bool | list[str]]
        values = {"s": "x", "i": 3, "f": 2.5, "b": True, "l": ["a", "b"]}
        for key, value in values.items():
            results[f"set {key}"] = await prefs.set(key, value)
        results.update({k: await prefs.get(k) for k in ("s", "i", "f", "b", "l", "missing")})

    app = start_app(main)
    assert app.crashes == []
    assert results == {
        **{f"set {k}": True for k in "sifbl"},
        **{"s": "x", "i": 3, "f": 2.5, "b": True, "l": ["a", "b"], "missing": None},
    }
    assert app.prefs == {"s": "x", "i": 3, "f": 2.5, "b": True, "l": ["a", "b"]}


def test_test_handlers_answer_hold_and_fail_calls(start_app) -> None:
    results: list[Any] = []

    async def main(page: ft.Page) -> None:
        async def save() -> None:
            try:
                results.append(
                    await ft.FilePicker().save_file(file_name="log.json", src_bytes=b"{}")
                )
            except RuntimeError as e:
                results.append(f"error: {e}")

        page.add(ft.Button("Save", on_click=save))

    app = start_app(main)
    app.click(app.find(ft.Button))
    assert results == [None]  # no handler: the client answers None
    app.on_invoke("FilePicker", "save_file", lambda _app, _id, args: f"/tmp/{args['file_name']}")
    app.click(app.find(ft.Button))
    assert results[-1] == "/tmp/log.json"

    def refuse(_app: FakeApp, _id: int, _args: dict[str, Any]) -> None:
        raise OSError("no dialog here")

    app.on_invoke("FilePicker", "save_file", refuse)
    app.click(app.find(ft.Button))
    assert results[-1] == "error: no dialog here"
    assert [i.name for i in app.invocations].count("save_file") == 3

    held = start_app(
        demo_main, prefs={"lang": "ja"}, handlers={("SharedPreferences", "get"): lambda *_: HOLD}
    )
    assert held.texts() == [] and len(held.held) == 1  # main waits on the first get
    held.answer_held()  # answered as the default handler would
    assert len(held.held) == 1  # ... and main asks for the next value
    held.answer_held()
    assert "ホーム" in held.texts()
    assert held.crashes == []


def test_an_answer_for_a_control_the_session_dropped_is_a_transport_error(start_app) -> None:
    """An answer for a control the session no longer holds (a service the page dropped, a
    field removed) ends the real connection's receive loop: it is a crash here."""
    timeouts: list[str] = []

    def main(page: ft.Page) -> None:
        async def focus() -> None:
            try:
                field = typing.cast(ft.TextField, page.controls[0])
                await asyncio.wait_for(field.focus(), timeout=0.01)
            except TimeoutError:
                timeouts.append("focus")

        def remove() -> None:
            page.controls.pop(0)
            page.update()

        page.add(
            ft.TextField(label="Field"),
            ft.Button("Focus", on_click=focus),
            ft.Button("Remove", on_click=remove),
        )

    app = start_app(main, handlers={("TextField", "focus"): lambda *_: HOLD})
    app.click(app.find(ft.Button, text="Focus"))
    app.settle(timers_within=0.1)
    assert timeouts == ["focus"] and len(app.held) == 1 and app.crashes == []
    app.click(app.find(ft.Button, text="Remove"))
    gc.collect()  # nothing refers to the field any more: the session forgets it
    app.answer_held()
    assert len(app.crashes) == 1 and app.crashes[0].startswith("transport error"), app.crashes


# ------------------------------------------------------------------ reload


def test_a_reloaded_tab_reattaches_to_the_live_session(start_app) -> None:
    events: list[tuple[str, Any]] = []

    def main(page: ft.Page) -> None:
        events.append(("main", page.width))
        page.on_connect = lambda e: events.append(("connect", page.width))
        page.on_disconnect = lambda e: events.append(("disconnect", page.width))
        page.add(ft.Button("Go", on_click=lambda: events.append(("click", None))))

    app = start_app(main, web=True)
    session = app.session
    app.reload(width=1280, height=800)
    assert app.session is session
    assert events == [("main", 390), ("disconnect", 390), ("connect", 1280)]
    assert (app.page.width, app.page.height) == (1280, 800)
    app.click(app.find(ft.Button))  # the reloaded client knows the page it was sent
    assert events[-1] == ("click", None)
    assert app.crashes == []


def test_a_reloaded_tab_starts_afresh_from_the_page_it_is_sent(start_app) -> None:
    def main(page: ft.Page) -> None:
        page.views.append(ft.View(route="/b", controls=[ft.Text("B")]))
        page.update()

    app = start_app(main, web=True)
    assert app.back() is True  # hidden by the client, still in page.views
    assert app.top_view.route == "/"
    app.reload()
    assert app.top_view.route == "/b" and app.texts() == ["B"]


# ------------------------------------------------------------------ errors


def test_handler_exception_shows_up_in_crashes(start_app) -> None:
    app = start_app(demo_main)
    assert app.crashes == []
    app.click(app.find(tooltip="Explode"))
    assert len(app.crashes) == 1
    assert "boom from a click handler" in app.crashes[0] and "ValueError" in app.crashes[0]
    assert any(action.name == "SESSION_CRASHED" for action, _ in app.messages)


def test_an_error_in_main_shows_up_in_crashes(start_app) -> None:
    def main(page: ft.Page) -> None:
        raise LookupError("main failed")

    app = start_app(main)
    assert any("LookupError: main failed" in c for c in app.crashes), app.crashes


def test_unserializable_value_surfaces_as_crash(start_app) -> None:
    def main(page: ft.Page) -> None:
        page.add(ft.Text("x", tooltip=object()))  # type: ignore[arg-type]

    app = start_app(main)
    assert any("serialize" in c for c in app.crashes), app.crashes


def test_fire_and_forget_failures_and_unawaited_coroutines_are_reported(start_app) -> None:
    def main(page: ft.Page) -> None:
        async def fail() -> None:
            raise RuntimeError("task failure")

        async def later() -> None:
            pass

        page.add(
            ft.Button("Warn", on_click=lambda: warnings.warn("kept", UserWarning, stacklevel=1)),
            ft.Button("Task", on_click=lambda: asyncio.create_task(fail())),
            ft.Button("Lambda", on_click=lambda: later()),  # coroutine never awaited
        )

    app = start_app(main)
    with pytest.warns(UserWarning, match="kept"):  # other warnings reach pytest as usual
        app.click(app.find(ft.Button, text="Warn"))
    assert app.crashes == []
    app.click(app.find(ft.Button, text="Task"))
    assert any("task failure" in c for c in app.crashes), app.crashes
    app.crashes.clear()
    app.click(app.find(ft.Button, text="Lambda"))
    assert any("never awaited" in c for c in app.crashes), app.crashes

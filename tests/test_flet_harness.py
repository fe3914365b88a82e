"""Tests proving tests/flet_harness.py against a tiny view-based demo app.

The demo app below is deliberately written the way a Flet 1.0.5 app is written:
``page.views`` rebuilt from ``page.route`` in ``on_route_change``, ``on_view_pop``
removing the top view and pushing the new top route, a strongly referenced
``ft.SharedPreferences()`` instance, and the device locale read from
``page.get_device_info()``.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time

import flet as ft
import pytest

try:
    from flet_harness import FakeApp, HarnessError, start_app
except ImportError:  # tests/ turned into a package
    from tests.flet_harness import FakeApp, HarnessError, start_app

__all__ = ["start_app"]  # the fixture is used by name below

LABELS = {
    "en": {"home": "Home", "settings": "Settings", "about": "About", "fav": "Favorites"},
    "ja": {
        "home": "ホーム",
        "settings": "設定",
        "about": "このアプリについて",
        "fav": "お気に入り",
    },
}


async def demo_main(page: ft.Page):
    # Strong reference: the page drops services nothing references after each event.
    prefs = ft.SharedPreferences()

    info = await page.get_device_info()
    device_lang = info.locales[0].language_code if info and info.locales else "en"
    stored_lang = await prefs.get("lang")
    visits = (await prefs.get("visits") or 0) + 1
    await prefs.set("visits", visits)
    state = {"lang": stored_lang or device_lang, "tab": 0}

    page.title = "Demo"
    echo = ft.Text("", key="echo")
    size = ft.Text(f"{page.width:g}x{page.height:g}", key="size")

    def t(name: str) -> str:
        return LABELS[state["lang"]][name]

    def on_name_change(e: ft.ControlEvent):
        echo.value = f"Hello, {e.control.value}!"
        echo.update()

    def on_tab_change(e: ft.ControlEvent):
        state["tab"] = e.control.selected_index
        build_views()

    def boom():
        raise ValueError("boom from a click handler")

    async def set_lang(code: str):
        state["lang"] = code
        await prefs.set("lang", code)
        build_views()

    def on_resize(e: ft.PageResizeEvent):
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
                ft.Text(f"Tab: {state['tab']}", key="tab"),
                ft.Text(f"Visits: {visits}", key="visits"),
                ft.IconButton(ft.Icons.WARNING, tooltip="Explode", on_click=boom),
                ft.Container(ft.Text("Tagged"), data={"id": 7}),
                ft.Icon(ft.Icons.INFO, semantics_label="info icon"),
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
        async def go_about():
            await page.push_route("/settings/about")

        # Async handlers must be `async def`: a lambda returning a coroutine is
        # called synchronously and its coroutine is dropped, never awaited.
        async def english():
            await set_lang("en")

        async def japanese():
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

    def build_views():
        page.views.clear()
        page.views.append(home_view())
        if page.route.startswith("/settings"):
            page.views.append(settings_view())
        if page.route == "/settings/about":
            page.views.append(about_view())
        page.update()

    async def view_pop(e: ft.ViewPopEvent):
        page.views.remove(e.view)
        await page.push_route(page.views[-1].route)

    page.on_route_change = lambda e: build_views()
    page.on_view_pop = view_pop
    page.on_resize = on_resize
    build_views()


def view_routes(app: FakeApp) -> list[str]:
    return [v.route for v in app.views]


# ------------------------------------------------------------------ start / page props


def test_start_at_deep_route_renders_that_view(start_app):
    app = start_app(demo_main, route="/settings/about")
    assert view_routes(app) == ["/", "/settings", "/settings/about"]
    assert app.top_view.route == "/settings/about"
    # Document order follows the controls' fields: View.controls before View.appbar.
    assert app.texts() == ["v1.0", " (demo)", "About"]
    assert app.crashes == []


def test_main_sees_realistic_page_properties(start_app):
    app = start_app(
        demo_main,
        width=390,
        height=844,
        platform="ios",
        platform_brightness="dark",
        safe_area=(47, 0, 34, 0),
    )
    page = app.page
    assert (page.route, page.width, page.height) == ("/", 390, 844)
    assert page.platform == ft.PagePlatform.IOS
    assert page.platform_brightness == ft.Brightness.DARK
    assert page.web is False
    assert page.media.orientation == ft.Orientation.PORTRAIT
    assert page.media.padding.top == 47 and page.media.device_pixel_ratio == 3.0
    assert app.find(key="size").value == "390x844"


def test_web_client_properties(start_app):
    app = start_app(demo_main, web=True, platform="linux", locale=["ja-JP", "en-US"])
    assert app.page.web is True and app.page.platform == ft.PagePlatform.LINUX
    assert app.page.client_ip == "127.0.0.1"
    info = app.run(app.page.get_device_info())
    assert isinstance(info, ft.WebDeviceInfo)
    assert [loc.language_tag for loc in info.locales] == ["ja-JP", "en-US"]
    assert info.language == "ja-JP"


def test_device_locale_reaches_main(start_app):
    ja = start_app(demo_main, locale="ja-JP")
    assert "ホーム" in ja.texts()
    en = start_app(demo_main, locale="en-US")
    assert "Home" in en.texts()


# ------------------------------------------------------------------ finding


def test_find_by_various_criteria(start_app):
    app = start_app(demo_main)
    assert app.find(type=ft.Button, text="Settings").content == "Settings"
    assert app.find(tooltip="Explode").icon == ft.Icons.WARNING
    assert isinstance(app.find(data={"id": 7}), ft.Container)
    assert app.find(semantics_label="info icon").icon == ft.Icons.INFO
    assert app.find(type=ft.Container, text="Tagged") is app.find(data={"id": 7})
    assert app.find(text="Tagged").value == "Tagged"  # innermost match: the Text
    assert app.find(key="visits").value == "Visits: 1"
    assert app.find(label="Name").on_change is not None
    assert app.find(where=lambda c: isinstance(c, ft.Text) and c.value.startswith("Tab"))
    assert len(app.find_all(type=ft.NavigationBarDestination)) == 2
    assert app.find_all(text=re.compile(r"^Visits: \d+$"))
    assert not app.exists(text="About")  # only on another route
    with pytest.raises(HarnessError, match="exactly one"):
        app.find(type=ft.Text)


def test_texts_cover_labels_tooltips_and_buttons(start_app):
    texts = start_app(demo_main).texts()
    for expected in ("Home", "Settings", "Name", "Explode", "Favorites", "Visits: 1"):
        assert expected in texts


# ------------------------------------------------------------------ navigation


def test_clicking_a_button_navigates(start_app):
    app = start_app(demo_main)
    app.click(type=ft.Button, text="Settings")
    assert app.page.route == "/settings" == app.client_route
    assert view_routes(app) == ["/", "/settings"]
    assert any(i.name == "push_route" for i in app.invocations)
    # A button whose content is a Text; clicking the Text bubbles to the button.
    app.click(app.find(text="About"))
    assert app.top_view.route == "/settings/about"
    assert app.crashes == []


def test_back_pops_views_until_root(start_app):
    app = start_app(demo_main, route="/settings/about")
    assert app.back() is True
    assert app.page.route == "/settings" and view_routes(app) == ["/", "/settings"]
    assert app.back() is True
    assert app.page.route == "/" and view_routes(app) == ["/"]
    assert app.back() is False  # last view: the OS would close the app
    assert app.crashes == []


def test_client_route_change_runs_on_route_change(start_app):
    app = start_app(demo_main)
    app.route("/settings/about")
    assert view_routes(app) == ["/", "/settings", "/settings/about"]
    app.route("/")
    assert view_routes(app) == ["/"]


def test_back_without_a_view_pop_handler_hides_the_view_once(start_app):
    def main(page: ft.Page):
        page.views.append(ft.View(route="/b", controls=[ft.Text("B")]))
        page.update()

    app = start_app(main)
    assert app.texts() == ["B"]
    assert app.back() is True  # client hides "/b"; nobody removes it in Python
    assert app.top_view.route == "/" and len(app.page.views) == 2
    assert app.back() is False


def test_confirm_pop(start_app):
    answer = {"pop": False}

    def main(page: ft.Page):
        async def confirm(e: ft.ControlEvent):
            await e.control.confirm_pop(answer["pop"])

        def view_pop(e: ft.ViewPopEvent):
            page.views.remove(e.view)
            page.update()

        page.on_view_pop = view_pop
        page.views.append(ft.View(route="/edit", on_confirm_pop=confirm))
        page.update()

    app = start_app(main)
    app.back()
    assert app.top_view.route == "/edit"
    answer["pop"] = True
    app.back()
    assert app.top_view.route == "/"
    assert app.crashes == []


# ------------------------------------------------------------------ input


def test_typing_updates_text(start_app):
    app = start_app(demo_main)
    app.type(app.find(type=ft.TextField, label="Name"), "Yugi")
    assert app.find(key="echo").value == "Hello, Yugi!"
    assert app.find(type=ft.TextField).value == "Yugi"


def test_navigation_bar_destination_click(start_app):
    app = start_app(demo_main)
    app.click(type=ft.NavigationBarDestination, label="Favorites")
    assert app.find(key="tab").value == "Tab: 1"
    assert app.find(type=ft.NavigationBar).selected_index == 1
    app.select(app.find(type=ft.NavigationBar), 0)
    assert app.find(key="tab").value == "Tab: 0"


def test_resize_fires_on_resize(start_app):
    app = start_app(demo_main)
    app.resize(844, 390)
    assert app.find(key="size").value == "844x390"
    assert app.page.width == 844
    assert app.page.media.orientation == ft.Orientation.LANDSCAPE


def test_switch_checkbox_and_tabs(start_app):
    seen = []

    def main(page: ft.Page):
        page.add(
            ft.Switch(label="Dark", on_change=lambda e: seen.append(("switch", e.data))),
            ft.Checkbox(label="Agree", on_change=lambda e: seen.append(("check", e.data))),
            ft.Tabs(
                length=2,
                on_change=lambda e: seen.append(("tabs", e.data)),
                content=ft.Column(
                    [
                        ft.TabBar(tabs=[ft.Tab(label="One"), ft.Tab(label="Two")]),
                        ft.TabBarView(controls=[ft.Text("first"), ft.Text("second")]),
                    ]
                ),
            ),
        )

    app = start_app(main)
    assert "first" in app.texts() and "second" not in app.texts()
    app.click(type=ft.Switch)
    app.click(type=ft.Checkbox)
    app.click(type=ft.Tab, label="Two")
    assert seen == [("switch", True), ("check", True), ("tabs", 1)]
    assert app.find(type=ft.Switch).value is True
    assert app.find(type=ft.Tabs).selected_index == 1
    assert "second" in app.texts() and "first" not in app.texts()


def test_dropdown_radio_submit_locale_brightness(start_app):
    seen = []

    def main(page: ft.Page):
        page.on_locale_change = lambda e: seen.append(("locale", e.locales[0].language_tag))
        # The client sends the brightness as a bare string: e.data, not e.brightness.
        page.on_platform_brightness_change = lambda e: seen.append(("brightness", e.data))
        page.add(
            ft.Dropdown(
                options=[ft.DropdownOption(key="en", text="English"), ft.DropdownOption("ja")],
                on_select=lambda e: seen.append(("dropdown", e.data)),
            ),
            ft.RadioGroup(
                ft.Row([ft.Radio(value="a", label="A"), ft.Radio(value="b", label="B")]),
                on_change=lambda e: seen.append(("radio", e.data)),
            ),
            ft.TextField(on_submit=lambda e: seen.append(("submit", e.data))),
        )

    app = start_app(main)
    app.select(app.find(type=ft.Dropdown), "ja")
    app.click(type=ft.Radio, label="B")
    app.type(app.find(type=ft.TextField), "query", submit=True)
    app.set_locale(["ja-JP", "en-US"])
    app.set_brightness("dark")
    assert seen == [
        ("dropdown", "ja"),
        ("radio", "b"),
        ("submit", "query"),
        ("locale", "ja-JP"),
        ("brightness", "dark"),
    ]
    assert app.find(type=ft.Dropdown).value == "ja"
    assert app.find(type=ft.RadioGroup).value == "b"
    assert app.page.platform_brightness == ft.Brightness.DARK


def test_settle_can_wait_for_short_timers(start_app):
    def main(page: ft.Page):
        status = ft.Text("idle", key="status")

        async def slow():
            status.value = "working"
            status.update()
            await asyncio.sleep(0.05)
            status.value = "done"
            status.update()

        page.add(status, ft.Button("Go", on_click=slow))

    app = start_app(main)
    app.click(type=ft.Button)
    assert app.find(key="status").value == "working"  # settle ignores timers by default
    app.settle(timers_within=0.5)
    assert app.find(key="status").value == "done"


def test_disabled_and_unsent_controls_cannot_be_clicked(start_app):
    def main(page: ft.Page):
        page.add(ft.Button("Off", disabled=True, on_click=lambda: None))
        page.controls.append(ft.Button("Unsent", on_click=lambda: None))  # no update()

    app = start_app(main)
    with pytest.raises(HarnessError, match="disabled"):
        app.click(type=ft.Button, text="Off")
    with pytest.raises(HarnessError, match="never sent"):
        app.click(type=ft.Button, text="Unsent")


def test_a_client_action_runs_in_the_client_before_the_click(start_app):
    """ft.CopyToClipboard on a button: the client copies inside the tap, then sends the
    click; the app learns nothing of the copy but what its handler is told."""

    def main(page: ft.Page):
        seen = ft.Text("", key="seen")

        async def clicked():
            seen.value = await ft.Clipboard().get() or ""
            seen.update()

        page.add(
            seen, ft.Button("Copy", action=ft.CopyToClipboard("R1 T2 Warning"), on_click=clicked)
        )

    app = start_app(main)
    app.click(type=ft.Button, text="Copy")
    assert app.clipboard == "R1 T2 Warning"
    assert app.find(key="seen").value == "R1 T2 Warning"  # copied before the click arrived
    names = [(i.control_type, i.name) for i in app.invocations]
    assert names.index(("Clipboard", "set")) < names.index(("Clipboard", "get"))


# ------------------------------------------------------------------ preferences


def test_prefs_persist_across_restart():
    prefs: dict = {}
    with FakeApp.start(demo_main, prefs=prefs, route="/settings") as first:
        assert first.find(key="visits", scope="page").value == "Visits: 1"
        first.click(type=ft.Button, text="日本語")
        assert "設定" in first.texts()
        assert first.crashes == []
    assert prefs == {"visits": 1, "lang": "ja"}

    with FakeApp.start(demo_main, prefs=prefs, route="/settings", locale="en-US") as second:
        assert "設定" in second.texts()  # stored choice wins over the device locale
        assert second.find(key="visits", scope="page").value == "Visits: 2"
        assert second.prefs is prefs and prefs["visits"] == 2


def test_prefs_value_types_round_trip(start_app):
    results = {}

    async def main(page: ft.Page):
        prefs = ft.SharedPreferences()
        for key, value in {"s": "x", "i": 3, "f": 2.0, "b": True, "l": ["a", "b"]}.items():
            assert await prefs.set(key, value) is True
        results.update({k: await prefs.get(k) for k in ("s", "i", "f", "b", "l", "missing")})
        results["keys"] = sorted(await prefs.get_keys(""))
        results["contains"] = await prefs.contains_key("s")
        results["removed"] = await prefs.remove("s")
        results["contains_after"] = await prefs.contains_key("s")

    app = start_app(main)
    assert app.crashes == []
    assert results == {
        "s": "x",
        "i": 3,
        "f": 2.0,
        "b": True,
        "l": ["a", "b"],
        "missing": None,
        "keys": ["b", "f", "i", "l", "s"],
        "contains": True,
        "removed": True,
        "contains_after": False,
    }
    assert type(results["f"]) is float and type(results["i"]) is int

    web = start_app(main, web=True, platform="linux")
    assert type(web.prefs["f"]) is int  # dart2js: 2.0 comes back as 2


# ------------------------------------------------------------------ errors


def test_handler_exception_shows_up_in_crashes(start_app):
    app = start_app(demo_main)
    assert app.crashes == []
    app.click(tooltip="Explode")
    assert len(app.crashes) == 1
    assert "boom from a click handler" in app.crashes[0]
    assert "ValueError" in app.crashes[0]


def test_unserializable_value_surfaces_as_crash(start_app):
    def main(page: ft.Page):
        page.add(ft.Text("x", data=None, tooltip=object()))  # not msgpack-serializable

    app = start_app(main)
    assert any("serialize" in c for c in app.crashes), app.crashes


def test_exception_in_fire_and_forget_task_is_reported(start_app):
    def main(page: ft.Page):
        async def fail():
            raise RuntimeError("background failure")

        page.add(ft.Button("Go", on_click=lambda: page.run_task(fail)))

    app = start_app(main)
    app.click(type=ft.Button)
    with pytest.raises(AssertionError, match="background failure"):
        app.assert_no_crashes()


def test_fire_and_forget_create_task_and_unawaited_coroutines_are_reported(start_app):
    def main(page: ft.Page):
        async def fail():
            raise RuntimeError("task failure")

        async def later():
            pass

        page.add(
            ft.Button("Task", on_click=lambda: asyncio.create_task(fail())),
            ft.Button("Lambda", on_click=lambda: later()),  # coroutine never awaited
        )

    app = start_app(main)
    app.click(type=ft.Button, text="Task")
    assert any("task failure" in c for c in app.crashes), app.crashes
    app.crashes.clear()
    app.click(type=ft.Button, text="Lambda")
    assert any("never awaited" in c for c in app.crashes), app.crashes


# ------------------------------------------------------------------ components, speed


def test_component_state_updates_are_settled(start_app):
    @ft.component
    def Counter():
        count, set_count = ft.use_state(0)
        return ft.Column(
            [ft.Text(f"Count: {count}"), ft.Button("Add", on_click=lambda: set_count(count + 1))]
        )

    app = start_app(lambda page: page.render(Counter))
    app.click(type=ft.Button, text="Add")
    app.click(type=ft.Button, text="Add")
    assert app.has_text("Count: 2")
    assert app.crashes == []


def test_start_is_fast():
    FakeApp.start(demo_main).stop()  # warm up imports
    durations = []
    for _ in range(5):
        began = time.perf_counter()
        app = FakeApp.start(demo_main, route="/settings/about")
        durations.append(time.perf_counter() - began)
        app.stop()
    assert statistics.median(durations) < 0.1, durations

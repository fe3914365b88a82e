"""In-process test harness for Flet 1.0.5 apps: no Flutter, no sockets, no network.

A real :class:`flet.messaging.session.Session` (the object ``ft.run`` creates for every
client) is driven over a fake :class:`flet.messaging.connection.Connection`. A small
fake client on the other side plays the Flutter client's part of the protocol:

* it registers like the real client (route, page size, media, platform, brightness,
  window), then ``main(page)`` runs exactly as ``ft.run`` runs it (sync, async or
  generator, errors reported as SESSION_CRASHED);
* it sends the same messages the Flutter client sends for clicks, typing, route
  changes, view pops, resizes, locale and brightness changes (a property update
  followed by a control event, in that order);
* it answers ``INVOKE_METHOD`` calls: ``SharedPreferences`` (backed by a dict that
  can outlive the app, so a test can "restart" it), ``Page.push_route`` (which, like
  the client, changes the route and fires ``route_change``), ``Page.get_device_info``
  (which carries the device locales), ``View.confirm_pop``, ``Clipboard``; anything
  else gets ``None``; a tapped control's client actions (``action=ft.CopyToClipboard(…)``)
  run on the client side first, through the same handlers;
* every message in both directions goes through msgpack with flet's own encoder and
  decoder, so values the real transport cannot carry fail here too.

Usage (plain synchronous pytest; the harness owns and drives its own event loop)::

    from flet_harness import FakeApp

    def test_language_switch():
        app = FakeApp.start(main, route="/settings", locale="ja-JP", prefs={})
        app.click(app.find(type=ft.Button, text="English"))
        assert "Settings" in app.texts()
        app.stop()
        # restart with the same preferences
        with FakeApp.start(main, prefs=app.prefs) as app2:
            assert app2.find(type=ft.Text, text="Settings")
            assert app2.crashes == []

Every action (``start``, ``click``, ``type``, ``route``, ``back``, ``resize``, ...)
returns only once the app is idle: event handlers, tasks they started, invoke-method
round trips and scheduled component updates have all run (see :meth:`FakeApp.settle`).

This relies on flet internals (Session, protocol bodies, ``flet.app``'s session
starter), so it checks that the installed flet is exactly the version it was written
against. When upgrading flet, re-check this file and its tests first.

Flet 1.0.5 client behaviour mirrored here (checked against the 1.0.5 web client), which
an app must cope with:

* No ``route_change`` at start-up: the first route only arrives as ``page.route``, so
  ``main`` must build the views for it itself. Later changes (``push_route``, typed URL,
  browser back/forward) send a ``route`` update, then ``route_change`` - never for the
  route already shown.
* ``page.navigate(r)`` / ``await page.push_route(r)`` ask the client, which then fires
  ``route_change``; nothing changes in Python until that event is handled.
* Back (system button/gesture, AppBar arrow) does not touch ``page.views``: the client
  hides the top view and sends ``view_pop`` once; ``on_view_pop`` must remove
  ``e.view`` and normally ``push_route`` the new top view's route.
* The device language is not a page property: ``(await page.get_device_info()).locales``
  (a list of ``ft.Locale``, most preferred first); changes arrive as
  ``on_locale_change`` (``e.locales``). ``page.locale_configuration`` is what the app
  *sets* for Flutter's own widgets.
* ``on_platform_brightness_change`` gets the brightness as a bare string in ``e.data``.
* SharedPreferences: ``get`` returns the stored type (str, int, float, bool, list[str])
  or ``None``; on web an integral float (2.0) comes back as int 2. ``remove`` answers
  True even for a missing key. Keep a strong reference to the instance.
* Handlers: a sync function (or lambda) that returns a coroutine is called, not
  awaited; the coroutine is dropped. Use ``async def`` handlers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import gc
import importlib
import logging
import re
import traceback
import typing
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.components.public_utils import unwrap_component
from flet.controls import device_info as _device_info
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    ControlEventBody,
    InvokeMethodResponseBody,
    Message,
    MessageAction,
    RegisterClientRequestBody,
    RegisterClientResponseBody,
    UpdateControlPropsBody,
    configure_encode_object_for_msgpack,
    decode_ext_from_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

__all__ = [
    "FakeApp",
    "HarnessError",
    "Invocation",
    "start_app",
]

FLET_VERSION = "1.0.5"
if ft.__version__ != FLET_VERSION:  # pragma: no cover - guards an upgrade
    raise ImportError(
        f"tests/flet_harness.py was written against flet {FLET_VERSION} internals, "
        f"but flet {ft.__version__} is installed: re-check the harness before upgrading."
    )

# ``ft.run`` builds the callback that runs ``main`` (context setup, sync/async/generator
# mains, error -> SESSION_CRASHED) in this private module-level function. Reusing it
# keeps the harness from drifting from what the real runtime does.
_get_on_session_created = getattr(importlib.import_module("flet.app"), "__get_on_session_created")

_ENCODE = configure_encode_object_for_msgpack(BaseControl)

WEB_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/130.0.0.0 Safari/537.36"
)


class HarnessError(AssertionError):
    """A test drove the fake client into something a real user could not do."""


@dataclasses.dataclass
class Invocation:
    """One ``INVOKE_METHOD`` call the app made to the (fake) client."""

    control_type: str | None
    control_id: int
    name: str
    args: dict[str, Any]


# --------------------------------------------------------------------------------------
# Wire helpers: both directions are packed and unpacked like the real transport.
# --------------------------------------------------------------------------------------


def _server_to_client(message: Message) -> list[Any]:
    """Encode like ``FletSocketServer.send_message``; decode like the Dart client.

    Patches use integer map keys, which the Dart decoder accepts, hence
    ``strict_map_key=False``. Encoding also records flet's diff snapshots
    (``__prev_lists``...), so it must happen exactly once per message, as in production.
    """
    packed = msgpack.packb([message.action, message.body], default=_ENCODE)
    return msgpack.unpackb(packed, ext_hook=decode_ext_from_msgpack, strict_map_key=False)


def _client_to_server(action: MessageAction, body: dict[str, Any]) -> list[Any]:
    """Encode a client message (datetimes as flet's ext types) and decode it exactly
    as ``FletSocketServer`` does."""
    packed = msgpack.packb([action.value, body], default=_ENCODE)
    return msgpack.unpackb(packed, ext_hook=decode_ext_from_msgpack)


def parse_locale(tag: str) -> dict[str, str | None]:
    """``"ja-JP"`` / ``"zh_Hant_TW"`` -> the map the Flutter client sends for a Locale."""
    parts = re.split(r"[-_]", tag)
    language, script, country = parts[0], None, None
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            script = part.title()
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            country = part.upper()
    return {"language_code": language, "country_code": country, "script_code": script}


def _placeholder(tp: Any) -> Any:
    """A plausible value for a required device-info field of type ``tp``."""
    origin = typing.get_origin(tp)
    if origin is list:
        return []
    if isinstance(tp, type):
        if issubclass(tp, bool):
            return False
        if issubclass(tp, int):
            return 0
        if issubclass(tp, float):
            return 0.0
        if issubclass(tp, str):
            return ""
        if issubclass(tp, datetime.datetime):
            return datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
        if issubclass(tp, Enum):
            return next(iter(tp)).value
        if dataclasses.is_dataclass(tp):
            return _required_fields(tp)
    return None


def _required_fields(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {
        f.name: _placeholder(hints[f.name])
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }


# --------------------------------------------------------------------------------------
# Control tree helpers
# --------------------------------------------------------------------------------------

# Fields that never hold child controls (or hold internal state only).
_SKIP_FIELDS = frozenset({"_parent", "_values", "_dirty", "_internals", "data", "key", "_i", "_c"})
# Attributes whose string value is shown to the user.
_TEXT_ATTRS = (
    "text",
    "content",
    "label",
    "title",
    "subtitle",
    "hint_text",
    "helper_text",
    "error_text",
    "prefix_text",
    "suffix_text",
    "counter_text",
    "placeholder_text",
    "message",
    "tooltip",
)
# Controls whose `value` is displayed text (elsewhere `value` is an id, a bool, ...).
_VALUE_IS_TEXT = frozenset(
    {"Text", "TextField", "CupertinoTextField", "SearchBar", "Markdown", "AutoComplete"}
)


def _children(obj: Any) -> Iterator[Any]:
    """Direct child values of a control/value object that may contain controls."""
    for f in dataclasses.fields(obj):
        if f.name in _SKIP_FIELDS or f.metadata.get("skip", False):
            continue
        value = getattr(obj, f.name, None)
        if isinstance(value, (BaseControl, list, tuple)) or (
            dataclasses.is_dataclass(value) and not isinstance(value, type)
        ):
            yield value


def _walk(
    root: Any, visible_only: bool = True, path: tuple[BaseControl, ...] = ()
) -> Iterator[tuple[BaseControl, tuple[BaseControl, ...]]]:
    """Depth-first (document order) walk yielding ``(control, ancestors)``.

    Components are unwrapped to what they rendered; invisible subtrees (``visible=False``,
    TabBarView pages other than the selected tab) are skipped unless ``visible_only``
    is False.
    """
    seen: set[int] = set()

    def visit(value: Any, ancestors: tuple[BaseControl, ...]):
        value = unwrap_component(value)
        if value is None or id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            for item in value:
                yield from visit(item, ancestors)
            return
        if isinstance(value, BaseControl):
            if visible_only and getattr(value, "visible", True) is False:
                return
            yield value, ancestors
            ancestors = (*ancestors, value)
            if visible_only and isinstance(value, ft.TabBarView) and value.controls:
                tabs = next((a for a in reversed(ancestors) if isinstance(a, ft.Tabs)), None)
                if tabs is not None:  # only the selected tab's page is on screen
                    page = value.controls[tabs.selected_index % len(value.controls)]
                    yield from visit(page, ancestors)
                    return
        if dataclasses.is_dataclass(value):
            for child in _children(value):
                yield from visit(child, ancestors)

    yield from visit(root, path)


def own_texts(control: BaseControl) -> list[str]:
    """Strings a control itself displays (not those of its child controls)."""
    out: list[str] = []
    if control._c in _VALUE_IS_TEXT and isinstance(getattr(control, "value", None), str):
        out.append(control.value)
    for attr in _TEXT_ATTRS:
        value = getattr(control, attr, None)
        if isinstance(value, str):
            out.append(value)
        elif attr == "tooltip" and isinstance(getattr(value, "message", None), str):
            out.append(value.message)  # ft.Tooltip(message=...)
    return out


def _key_matches(control: BaseControl, key: Any) -> bool:
    k = getattr(control, "key", None)
    return k == key or getattr(k, "value", object()) == key


def _text_matches(value: str, expected: str | re.Pattern[str]) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.search(value) is not None
    return value == expected


_MISSING = object()


# --------------------------------------------------------------------------------------
# Transport
# --------------------------------------------------------------------------------------


class _FakeConnection(Connection):
    """Server side of the transport: hands every outbound message to the fake client."""

    def __init__(self, client: FakeApp, page_url: str, page_name: str):
        super().__init__()
        self.loop = client.loop
        self.executor = client.executor
        self.pubsubhub = PubSubHub(loop=client.loop, executor=client.executor)
        self.page_url = page_url
        self.page_name = page_name
        self.local_data_transport = True
        self._client = client

    def send_message(self, message: Message):
        decoded = _server_to_client(message)  # serialization errors raise here, as live
        self._client._receive(decoded)

    def get_upload_url(self, file_name: str, expires: int) -> str:
        return f"{self.page_url}upload/{file_name}?expires={expires}"

    def oauth_authorize(self, attrs: dict[str, Any]):
        self._client.invocations.append(Invocation("Page", 1, "oauth_authorize", attrs))


# --------------------------------------------------------------------------------------
# The fake app / client
# --------------------------------------------------------------------------------------

MethodHandler = Callable[["FakeApp", int, dict[str, Any]], Any]
# A handler returning this leaves the call unanswered until the test calls
# `FakeApp.answer_held()`, or for ever: a slow client, or a confused one (a web tab that
# reconnects to a restarted server never answers).
HOLD = object()


class FakeApp:
    """A Flet app session running in-process against a fake Flutter client.

    Create it with :meth:`start`. Attributes worth asserting on:

    * ``page`` - the live :class:`ft.Page` (``app.page.route``, ``app.page.views``...)
    * ``prefs`` - the SharedPreferences store (a plain dict, shared by reference)
    * ``crashes`` - SESSION_CRASHED messages, unhandled task errors, transport errors
    * ``invocations`` - every INVOKE_METHOD the app made (:class:`Invocation`)
    * ``messages`` - every decoded server->client message ``(action, body)``
    * ``client_route`` - the route the client currently shows
    """

    def __init__(
        self,
        *,
        route: str = "/",
        prefs: dict[str, Any] | None = None,
        width: float = 390,
        height: float = 844,
        locale: str | list[str] = "en-US",
        platform: str = "android",
        web: bool = False,
        platform_brightness: str = "light",
        device_pixel_ratio: float = 3.0,
        safe_area: tuple[float, float, float, float] = (0, 0, 0, 0),
        always_use_24_hour_format: bool = True,
        device_info: dict[str, Any] | None = None,
        page_name: str = "",
    ):
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(self._on_loop_exception)
        # Only needed for page.run_thread / pubsub sync handlers; threads start lazily.
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="flet-harness")
        self.prefs: dict[str, Any] = {} if prefs is None else prefs
        self.clipboard: str | None = None
        self.crashes: list[str] = []
        self.invocations: list[Invocation] = []
        self.messages: list[tuple[MessageAction, Any]] = []
        self.client_route = route
        self.width, self.height = width, height
        self.locales = [locale] if isinstance(locale, str) else list(locale)
        self.platform = platform
        self.web = web
        self.platform_brightness = platform_brightness
        self.device_pixel_ratio = device_pixel_ratio
        self.safe_area = safe_area
        self.always_use_24_hour_format = always_use_24_hour_format
        self.device_info_overrides = device_info or {}
        self.page_name = page_name
        self._sent_media = self._media()
        self.session: Session | None = None
        # What the client knows: control id -> Dart type name, learned from patches.
        self._client_controls: dict[int, str] = {}
        # Views the client already hides after sending view_pop (see _effective_views).
        self._popped_routes: set[str] = set()
        self._pending_confirm_pop: set[int] = set()
        # Strong refs to event-dispatch tasks (as FletSocketServer keeps), so none is
        # garbage-collected mid-flight.
        self._tasks: set[asyncio.Task] = set()
        self._stopped = False
        self._connection: _FakeConnection | None = None
        self.held: list[dict[str, Any]] = []  # invoke-method calls a HOLD handler kept
        self.method_handlers: dict[tuple[str, str], MethodHandler] = dict(_DEFAULT_HANDLERS)

    # ---------------------------------------------------------------- lifecycle

    @classmethod
    def start(
        cls,
        main: Callable[[ft.Page], Any],
        *,
        before_main: Callable[[ft.Page], Any] | None = None,
        handlers: dict[tuple[str, str], MethodHandler] | None = None,
        **options: Any,
    ) -> FakeApp:
        """Register a fake client and run ``main(page)`` until the app is idle.

        Options (all keyword, all optional): ``route`` ("/"), ``prefs`` (dict, used by
        reference), ``width``/``height`` (390x844 logical px), ``locale`` ("en-US" or a
        list, most preferred first), ``platform`` ("android", "ios", "linux", "macos",
        "windows"), ``web`` (False), ``platform_brightness`` ("light"/"dark"),
        ``device_pixel_ratio`` (3.0), ``safe_area`` ((top, right, bottom, left)
        padding), ``always_use_24_hour_format`` (True), ``device_info`` (dict merged
        into the ``get_device_info`` answer), ``page_name`` (""); ``handlers`` answer
        invoke-method calls from the start (see :meth:`on_invoke`).
        """
        app = cls(**options)
        app.method_handlers.update(handlers or {})  # see on_invoke
        try:
            app._run(app._register(main, before_main))
        except BaseException:
            app.stop()
            raise
        return app

    def stop(self) -> None:
        """Close the session (fires ``page.on_close``), cancel leftovers, close the loop."""
        if self._stopped:
            return
        self._stopped = True

        async def shutdown():
            if self.session is not None:
                self.session.close()
                await self._settle()
            current = asyncio.current_task()
            leftovers = [t for t in asyncio.all_tasks() if t is not current]
            for task in leftovers:
                task.cancel()
            await asyncio.gather(*leftovers, return_exceptions=True)

        try:
            with self._capture_background_errors():
                self.loop.run_until_complete(shutdown())
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        finally:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.loop.close()

    def __enter__(self) -> FakeApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---------------------------------------------------------------- page access

    @property
    def page(self) -> ft.Page:
        assert self.session is not None, "app not started"
        return self.session.page

    @property
    def views(self) -> list[ft.View]:
        """The views the client shows (without views it already popped)."""
        return self._effective_views()

    @property
    def top_view(self) -> ft.View:
        views = self._effective_views()
        if not views:
            raise HarnessError("the page has no views")
        return views[-1]

    def roots(self, scope: str | BaseControl = "top") -> list[Any]:
        """Where find/texts look: ``"top"`` = top view + overlay + open dialogs (what is
        on screen), ``"page"`` = all views too, or any control."""
        if isinstance(scope, BaseControl):
            return [scope]
        page = self.page
        dialogs = [d for d in page._dialogs.controls if getattr(d, "open", False)]
        views = [self.top_view] if scope == "top" else self._effective_views()
        return [*views, *page.overlay, *dialogs]

    def controls(
        self, scope: str | BaseControl = "top", visible_only: bool = True
    ) -> Iterator[BaseControl]:
        """All controls in ``scope``, in document order."""
        for root in self.roots(scope):
            for control, _ in _walk(root, visible_only):
                yield control

    def texts(self, scope: str | BaseControl = "top") -> list[str]:
        """Every visible string in ``scope`` (Text values, TextSpan texts, string
        contents of buttons, labels, titles, hints, tooltips...), in document order."""
        return [t for c in self.controls(scope) for t in own_texts(c)]

    def has_text(self, text: str | re.Pattern[str], scope: str | BaseControl = "top") -> bool:
        return any(_text_matches(t, text) for t in self.texts(scope))

    def find_all(
        self,
        type: type | tuple[type, ...] | None = None,
        *,
        text: str | re.Pattern[str] | None = None,
        key: Any = _MISSING,
        data: Any = _MISSING,
        tooltip: str | None = None,
        semantics_label: str | None = None,
        label: str | None = None,
        where: Callable[[BaseControl], bool] | None = None,
        scope: str | BaseControl = "top",
        visible_only: bool = True,
    ) -> list[BaseControl]:
        """Controls matching every given criterion, in document order.

        ``text`` (exact string or compiled regex) matches a control that shows the text
        itself or through its descendants; only the innermost such control is kept, so
        ``find(type=ft.Button, text="OK")`` finds a button whether its content is the
        string "OK" or ``ft.Text("OK")``, and ``find(text="OK")`` finds the Text.
        """

        def plain_match(c: BaseControl) -> bool:
            if type is not None and not isinstance(c, type):
                return False
            if key is not _MISSING and not _key_matches(c, key):
                return False
            if data is not _MISSING and c.data != data:
                return False
            if tooltip is not None:
                tip = getattr(c, "tooltip", None)
                if tip != tooltip and getattr(tip, "message", None) != tooltip:
                    return False
            if semantics_label is not None and (
                getattr(c, "semantics_label", None) != semantics_label
            ):
                return False
            if label is not None and getattr(c, "label", None) != label:
                return False
            return where is None or bool(where(c))

        result: list[BaseControl] = []
        for root in self.roots(scope):
            nodes = list(_walk(root, visible_only))
            if text is None:
                result.extend(c for c, _ in nodes if plain_match(c))
                continue
            shows_text = {
                id(c) for c, _ in nodes if any(_text_matches(t, text) for t in own_texts(c))
            }
            # A control "contains" the text if it or a descendant shows it.
            contains: set[int] = set(shows_text)
            for c, ancestors in nodes:
                if id(c) in shows_text:
                    contains.update(id(a) for a in ancestors)
            candidates = [(c, anc) for c, anc in nodes if id(c) in contains and plain_match(c)]
            nested = {id(a) for _, anc in candidates for a in anc}
            result.extend(c for c, _ in candidates if id(c) not in nested)
        return result

    def find(self, type: Any = None, **criteria: Any) -> BaseControl:
        """Like :meth:`find_all` but exactly one control must match."""
        found = self.find_all(type, **criteria)
        if len(found) != 1:
            what = ", ".join(
                [f"type={getattr(type, '__name__', type)}"] if type is not None else []
            ) + "".join(f", {k}={v!r}" for k, v in criteria.items())
            raise HarnessError(
                f"expected exactly one control matching ({what.lstrip(', ')}), "
                f"found {len(found)}: {[str(c) for c in found][:10]}; "
                f"texts on screen: {self.texts()[:40]}"
            )
        return found[0]

    def exists(self, type: Any = None, **criteria: Any) -> bool:
        return bool(self.find_all(type, **criteria))

    # ---------------------------------------------------------------- user actions

    def click(self, target: BaseControl | None = None, **criteria: Any) -> None:
        """Tap a control the way the Flutter client reports it.

        ``target`` may be given directly or found with :meth:`find` criteria. Taps on a
        non-interactive control (say the Text inside a Button) go to the nearest
        interactive ancestor. Special cases: NavigationBar/Rail/Drawer destinations
        (``selected_index`` + ``change``), Tab (Tabs ``selected_index`` + ``change``,
        TabBar ``click``), Switch/Checkbox (toggle ``value`` + ``change``), Radio
        (RadioGroup ``value`` + ``change``), Chip (``click`` or toggle + ``select``),
        GestureDetector (``tap``). Everything else: ``click``.
        """
        control = target if target is not None else self.find(**criteria)
        path = self._path_to(control)
        self._run(self._act(lambda: self._tap(control, path)))

    def type(
        self,
        field: BaseControl | None = None,
        value: str = "",
        *,
        submit: bool = False,
        **criteria: Any,
    ) -> None:
        """Replace a text field's text with ``value`` (like the user editing it):
        ``value`` property update, then ``change`` (and ``submit`` if asked)."""
        control = field if field is not None else self.find(**criteria)
        self._check_interactive(control, self._path_to(control))

        def act():
            self._update_props(control, {"value": value})
            self._fire(control, "change", value)
            if submit:
                self._fire(control, "submit", value)

        self._run(self._act(act))

    def submit(self, field: BaseControl) -> None:
        """Press Enter in a text field (``submit`` with the current value)."""
        self._run(self._act(lambda: self._fire(field, "submit", getattr(field, "value", None))))

    def select(self, control: BaseControl, value: Any) -> None:
        """Pick an item: an index for NavigationBar/Rail/Drawer and Tabs, an option key
        for Dropdown (``select`` event), a value for RadioGroup, a list for
        SegmentedButton, anything else -> ``value`` + ``change``."""
        path = self._path_to(control)
        self._check_interactive(control, path)

        def act():
            if hasattr(control, "selected_index"):
                self._select_index(control, value)
            elif isinstance(control, ft.Dropdown):
                self._update_props(control, {"value": value})
                self._fire(control, "select", value)
            elif isinstance(control, ft.SegmentedButton):
                self._update_props(control, {"selected": list(value)})
                self._fire(control, "change", list(value))
            else:
                self._update_props(control, {"value": value})
                self._fire(control, "change", value)

        self._run(self._act(act))

    def set_value(self, control: BaseControl, value: Any, event: str = "change") -> None:
        """Generic "user changed ``value``": property update, then ``event``."""
        self._check_interactive(control, self._path_to(control))

        def act():
            self._update_props(control, {"value": value})
            self._fire(control, event, value)

        self._run(self._act(act))

    def fire(self, control: BaseControl, event: str, data: Any = None) -> None:
        """Send an arbitrary control event (``event`` without the ``on_`` prefix)."""
        self._run(self._act(lambda: self._fire(control, event, data, always=True)))

    def route(self, route: str) -> None:
        """The user opens ``route`` (typed URL, deep link, browser back/forward).

        As the client does: nothing if it already shows that route, otherwise the
        page's ``route`` property update followed by a ``route_change`` event.
        """
        self._run(self._act(lambda: self._client_route_change(route)))

    def back(self) -> bool:
        """System/AppBar back. Returns False when there is nothing to pop (one view
        left: the real app would be closed by the OS).

        As the client does: a view with ``can_pop=False`` blocks; a view with
        ``on_confirm_pop`` gets ``confirm_pop`` and pops only if the app answers
        ``await view.confirm_pop(True)``; otherwise the client hides the top view and
        sends ``view_pop`` with its route - ``page.on_view_pop`` must remove it from
        ``page.views`` (and usually ``push_route`` to the new top view's route).
        """
        views = self._effective_views()
        if len(views) <= 1:
            return False
        top = views[-1]
        if top.can_pop is False:
            return False
        if top.on_confirm_pop is not None:
            self._pending_confirm_pop.add(top._i)
            self._run(self._act(lambda: self._fire(top, "confirm_pop")))
        else:
            self._run(self._act(lambda: self._view_popped(top)))
        return True

    def resize(self, width: float, height: float) -> None:
        """Window/browser resize or rotation: ``width``/``height`` update and ``resize``
        event on the page, then media (orientation) update + ``media_change``."""

        def act():
            self.width, self.height = width, height
            size = {"width": width, "height": height}
            self._update_props(self.page, size)
            self._fire(self.page, "resize", size, always=True)
            media = self._media()
            if media != self._sent_media:  # the client reports media only when it changed
                self._sent_media = media
                self._update_props(self.page, {"media": media})
                self._fire(self.page, "media_change", media, always=True)
            if self._is_desktop():
                self._update_props(self.page.window, self._window_state())
                self._fire(self.page.window, "event", {"type": "resized"})

        self._run(self._act(act))

    def answer_held(self) -> None:
        """Answers the calls held so far, as the usual handlers would have."""
        held, self.held = self.held, []
        self._run(self._act(lambda: [self._answer_invoke(b, _DEFAULT_HANDLERS) for b in held]))

    def reload(self, width: float | None = None, height: float | None = None) -> None:
        """The browser tab reloads (perhaps at a new size: a window widened, a tablet turned).
        The web client comes back with its session id; Flet re-attaches the live session
        with the size the client reports now, without running ``main`` again, and fires
        ``connect`` (FletApp.__on_message, REGISTER_CLIENT with a known session id)."""

        async def act():
            session = self.session
            assert session is not None
            await session.disconnect(60)
            self.width = self.width if width is None else width
            self.height = self.height if height is None else height
            self._sent_media = self._media()
            _, body = _client_to_server(
                MessageAction.REGISTER_CLIENT,
                {
                    "session_id": session.id,
                    "page_name": self.page_name,
                    "page": self._initial_page(),
                },
            )
            session.apply_page_patch(RegisterClientRequestBody(**body).page)
            session.attach_connection(self._connection)
            await session.dispatch_connect_event()
            await self._settle()

        self._run(act())

    def set_locale(self, locale: str | list[str]) -> None:
        """The user changes the device/browser language (``on_locale_change``)."""
        self.locales = [locale] if isinstance(locale, str) else list(locale)
        locales = [parse_locale(t) for t in self.locales]
        self._run(self._act(lambda: self._fire(self.page, "locale_change", {"locales": locales})))

    def set_brightness(self, brightness: str) -> None:
        """The OS switches light/dark mode (``on_platform_brightness_change``)."""
        self.platform_brightness = brightness

        def act():
            self._update_props(self.page, {"platform_brightness": brightness})
            self._fire(self.page, "platform_brightness_change", brightness, always=True)

        self._run(self._act(act))

    def lifecycle(self, state: str) -> None:
        """App lifecycle change: "show", "resume", "hide", "inactive", "pause", ..."""
        self._run(
            self._act(
                lambda: self._fire(
                    self.page, "app_lifecycle_state_change", {"state": state}, always=True
                )
            )
        )

    def settle(self, timers_within: float = 0.0) -> None:
        """Run the loop until the app is idle. With ``timers_within`` > 0 it also waits
        (in real time) for timers due that soon, e.g. an ``asyncio.sleep(0.1)``."""
        self._run(self._settle(timers_within))

    def run(self, coro_or_fn: Any) -> Any:
        """Run a coroutine (or call a function) inside the app's loop, then settle.
        Handy to call app code that needs a running loop or ``ft.context.page``."""

        async def runner():
            _context_page.set(self.page)
            result = coro_or_fn() if callable(coro_or_fn) else coro_or_fn
            if asyncio.iscoroutine(result):
                result = await result
            await self._settle()
            return result

        return self._run(runner())

    def assert_no_crashes(self) -> None:
        gc.collect()  # surfaces exceptions of fire-and-forget tasks stuck in ref cycles
        if self.crashes:
            raise AssertionError("app crashed:\n" + "\n---\n".join(self.crashes))

    def on_invoke(self, control_type: str, method: str, handler: MethodHandler) -> None:
        """Answer ``control_type.method`` calls with ``handler(app, control_id, args)``.
        Raise from the handler to send an error back (the app gets a RuntimeError)."""
        self.method_handlers[(control_type, method)] = handler

    # ---------------------------------------------------------------- internals: loop

    def _run(self, coro: Any) -> Any:
        if self._stopped:
            coro.close()
            raise HarnessError("the app was stopped")
        with self._capture_background_errors():
            return self.loop.run_until_complete(coro)

    @contextlib.contextmanager
    def _capture_background_errors(self) -> Iterator[None]:
        """Turn errors a real app would only log into ``crashes``:

        * ``page.run_task(fn)`` failures, logged by concurrent.futures' callback runner;
        * "coroutine ... was never awaited": a sync handler (often a lambda) returned a
          coroutine, which flet silently drops instead of awaiting.
        """
        crashes = self.crashes

        class _Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                crashes.append(self.format(record))

        handler = _Handler(level=logging.ERROR)
        handler.setFormatter(logging.Formatter("%(message)s"))
        futures_logger = logging.getLogger("concurrent.futures")
        futures_logger.addHandler(handler)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                yield
        finally:
            futures_logger.removeHandler(handler)
        for w in caught:
            if issubclass(w.category, RuntimeWarning) and "never awaited" in str(w.message):
                crashes.append(f"{w.message} (a sync handler returned a coroutine; make it async)")
            else:  # not ours: hand it back to whoever filters warnings (pytest)
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)

    async def _act(self, action: Callable[[], Any]) -> None:
        _context_page.set(self.page)
        action()
        await self._settle()

    async def _settle(self, timers_within: float = 0.0, max_ticks: int = 20_000) -> None:
        """Yield to the loop until nothing is runnable for a few consecutive ticks.

        ``loop._ready`` (callbacks runnable right now) is private asyncio API but is the
        only exact idle signal: every task step, future callback and our own
        invoke-method answers pass through it. Tasks blocked on events (flet's update
        scheduler) or far timers (invoke timeouts) do not count as work.
        """
        idle_ticks = 0
        for _ in range(max_ticks):
            await asyncio.sleep(0)
            if self.loop._ready:  # type: ignore[attr-defined]
                idle_ticks = 0
                continue
            due = self._next_timer_due(timers_within)
            if due is not None:
                idle_ticks = 0
                await asyncio.sleep(due)
                continue
            idle_ticks += 1
            if idle_ticks >= 3:
                return
        raise HarnessError(
            f"the app did not become idle after {max_ticks} loop iterations "
            "(an update loop or a busy task?)"
        )

    def _next_timer_due(self, within: float) -> float | None:
        if within <= 0:
            return None
        now = self.loop.time()
        dues = [
            h.when() - now
            for h in self.loop._scheduled  # type: ignore[attr-defined]
            if not h.cancelled() and h.when() - now <= within
        ]
        return max(0.0, min(dues)) if dues else None

    def _on_loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        # Exceptions of tasks nobody awaited (e.g. the task behind page.navigate()).
        exc = context.get("exception")
        text = context.get("message", "")
        if exc is not None:
            text += "\n" + "".join(traceback.format_exception(exc))
        self.crashes.append(text)

    # ---------------------------------------------------------------- internals: protocol

    async def _register(self, main: Callable, before_main: Callable | None) -> None:
        """Mirror of FletSocketServer's REGISTER_CLIENT handling (plus web's client
        ip/user agent), fed with the snapshot the Flutter client sends."""
        web_url = "http://127.0.0.1:8550/"
        conn = _FakeConnection(self, web_url if self.web else "flet-harness://app/", self.page_name)
        self._connection = conn
        _, body = _client_to_server(
            MessageAction.REGISTER_CLIENT,
            {"session_id": None, "page_name": self.page_name, "page": self._initial_page()},
        )
        req = RegisterClientRequestBody(**body)
        session = self.session = Session(conn)
        _context_page.set(session.page)
        if not req.session_id:
            session.apply_page_patch(req.page)
        if self.web:
            session.page.client_ip = "127.0.0.1"
            session.page.client_user_agent = WEB_USER_AGENT

        register_error = ""
        try:
            if before_main is not None:
                result = before_main(session.page)
                if asyncio.iscoroutine(result):
                    await result
        except Exception as e:
            register_error = f"{e}\n{traceback.format_exc()}"
        conn.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(
                    session_id=session.id,
                    page_patch=session.get_page_patch(),
                    error=register_error,
                ),
            )
        )
        if register_error:
            session.error(register_error)
        else:
            self._track(asyncio.create_task(_get_on_session_created(main)(session)))
        await self._settle()

    def _initial_page(self) -> dict[str, Any]:
        """The page snapshot FletBackend._registerClient sends."""
        window: dict[str, Any] = {"_c": "Window", "_i": 2}
        if self._is_desktop():
            window.update(self._window_state())
        return {
            "route": self.client_route,
            "pwa": False,
            "web": self.web,
            "debug": False,
            "wasm": False,
            "test": False,
            "multi_view": False,
            "pyodide": False,
            "platform_brightness": self.platform_brightness,
            "width": float(self.width),
            "height": float(self.height),
            "platform": self.platform,
            "window": window,
            "media": self._sent_media,
        }

    def _media(self) -> dict[str, Any]:
        top, right, bottom, left = (float(v) for v in self.safe_area)
        padding = {"top": top, "right": right, "bottom": bottom, "left": left}
        zero = {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0}
        return {
            "padding": padding,
            "view_padding": padding,
            "view_insets": zero,
            "device_pixel_ratio": float(self.device_pixel_ratio),
            "orientation": "landscape" if self.width > self.height else "portrait",
            "always_use_24_hour_format": self.always_use_24_hour_format,
        }

    def _is_desktop(self) -> bool:
        return not self.web and self.platform in ("linux", "macos", "windows")

    def _window_state(self) -> dict[str, Any]:
        return {
            "maximized": False,
            "minimized": False,
            "full_screen": False,
            "always_on_top": False,
            "focused": True,
            "visible": True,
            "width": float(self.width),
            "height": float(self.height),
            "top": 0.0,
            "left": 0.0,
            "opacity": 1.0,
        }

    def _receive(self, message: list[Any]) -> None:
        """Client side: a decoded server->client message arrived."""
        action, body = MessageAction(message[0]), message[1]
        self.messages.append((action, body))
        if action in (MessageAction.REGISTER_CLIENT, MessageAction.PATCH_CONTROL):
            self._learn_controls(body)
        elif action == MessageAction.SESSION_CRASHED:
            self.crashes.append(body["message"])
        elif action == MessageAction.INVOKE_METHOD:
            # The real client answers asynchronously; may be called from executor threads.
            self.loop.call_soon_threadsafe(self._answer_invoke, body)

    def _learn_controls(self, value: Any) -> None:
        """Remember ids/types of controls the client has received (its controlsIndex)."""
        if isinstance(value, dict):
            if "_i" in value and "_c" in value:
                self._client_controls[value["_i"]] = value["_c"]
            for v in value.values():
                self._learn_controls(v)
        elif isinstance(value, list):
            for v in value:
                self._learn_controls(v)

    def _answer_invoke(
        self, body: dict[str, Any], handlers: dict[tuple[str, str], MethodHandler] | None = None
    ) -> None:
        control_id, name = body["control_id"], body["name"]
        args = body.get("args") or {}
        control_type = self._client_controls.get(control_id)
        self.invocations.append(Invocation(control_type, control_id, name, args))
        result, error = None, None
        if control_type is None:
            # Same wording as the Flutter client.
            error = f"Calling {name} method of inexistent control: {control_id}"
        else:
            handler = (handlers or self.method_handlers).get((control_type, name))
            try:
                result = handler(self, control_id, args) if handler else None
            except Exception as e:
                error = str(e)
            if result is HOLD:
                self.held.append(body)
                return
        self._send(
            MessageAction.INVOKE_METHOD,
            {
                "control_id": control_id,
                "call_id": body["call_id"],
                "result": result,
                "error": error,
            },
        )

    def _send(self, action: MessageAction, body: dict[str, Any]) -> None:
        """Client -> server, then what FletSocketServer.__on_message does with it."""
        action_code, body = _client_to_server(action, body)
        assert self.session is not None
        session = self.session
        if action_code == MessageAction.CONTROL_EVENT.value:
            req = ControlEventBody(**body)
            self._track(
                self.loop.create_task(session.dispatch_event(req.target, req.name, req.data))
            )
        elif action_code == MessageAction.UPDATE_CONTROL_PROPS.value:
            req = UpdateControlPropsBody(**body)
            session.apply_patch(req.id, req.props)
        elif action_code == MessageAction.INVOKE_METHOD.value:
            req = InvokeMethodResponseBody(**body)
            try:
                session.handle_invoke_method_results(
                    req.control_id, req.call_id, req.result, req.error
                )
            except RuntimeError as e:  # would end the real connection's receive loop
                self.crashes.append(f"transport error: {e}")

    def _track(self, task: asyncio.Task) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fire(
        self, control: BaseControl, name: str, data: Any = None, *, always: bool = False
    ) -> bool:
        """Client event. Like Control.triggerEvent in Dart, only sent when the control
        has an ``on_<name>`` handler, unless ``always`` (triggerEventWithoutSubscribers)."""
        if control._i not in self._client_controls:
            raise HarnessError(f"{control} was never sent to the client (missing update()?)")
        if not always and getattr(control, f"on_{name}", None) is None:
            return False
        self._send(MessageAction.CONTROL_EVENT, {"target": control._i, "name": name, "data": data})
        return True

    def _update_props(self, control: BaseControl, props: dict[str, Any]) -> None:
        if control._i not in self._client_controls:
            raise HarnessError(f"{control} was never sent to the client (missing update()?)")
        self._send(MessageAction.UPDATE_CONTROL_PROPS, {"id": control._i, "props": props})

    def _client_route_change(self, route: str) -> None:
        # RouteState.route setter: no notification when the route is unchanged.
        if route == self.client_route:
            return
        self.client_route = route
        self._update_props(self.page, {"route": route})
        self._fire(self.page, "route_change", {"route": route}, always=True)

    def _effective_views(self) -> list[ft.View]:
        """page.views minus views the client already popped and hides until Python
        removes them (Flutter keeps a "pending popped" set keyed by route)."""
        views = [unwrap_component(v) for v in unwrap_component(self.page.views)]
        routes = {self._view_route(v) for v in views}
        self._popped_routes &= routes
        return [v for v in views if self._view_route(v) not in self._popped_routes]

    @staticmethod
    def _view_route(view: ft.View) -> str:
        return view.route if view.route is not None else str(view._i)

    def _view_popped(self, view: ft.View) -> None:
        route = self._view_route(view)
        if route in self._popped_routes:
            return  # the client sends view_pop once per route
        self._popped_routes.add(route)
        self._fire(self.page, "view_pop", {"route": route}, always=True)

    # ---------------------------------------------------------------- internals: taps

    def _path_to(self, control: BaseControl) -> tuple[BaseControl, ...]:
        """Ancestors of ``control`` in what is on screen (raises if it is not)."""
        for root in self.roots("top"):
            for c, ancestors in _walk(root, visible_only=True):
                if c is control:
                    return ancestors
        raise HarnessError(f"{control} is not visible in the top view, overlay or dialogs")

    def _check_interactive(self, control: BaseControl, path: tuple[BaseControl, ...]) -> None:
        for c in (*path, control):
            if getattr(c, "disabled", False):
                raise HarnessError(f"{control} is disabled (by {c})")

    def _tap(self, control: BaseControl, path: tuple[BaseControl, ...]) -> None:
        chain = [control, *reversed(path)]  # the control, then its ancestors upwards
        for i, c in enumerate(chain):
            handled = self._tap_one(c, tuple(reversed(chain[i + 1 :])))
            if handled:
                self._check_interactive(c, tuple(reversed(chain[i + 1 :])))
                handled()
                return
        raise HarnessError(f"nothing handles a tap on {control}")

    def _tap_one(
        self, c: BaseControl, ancestors: tuple[BaseControl, ...]
    ) -> Callable[[], None] | None:
        """What tapping ``c`` does, or None if ``c`` does not react to taps."""
        name = c._c
        if name.endswith("Destination"):
            owner = next(
                (
                    a
                    for a in reversed(ancestors)
                    if hasattr(a, "selected_index") and c in _destinations(a)
                ),
                None,
            )
            if owner is not None:
                index = [d for d in _destinations(owner) if d.visible].index(c)
                # Flet's NavigationBar/Rail report every tap, the selected destination's too
                # (seen in Chromium: tapping the lit tab fires `change`).
                return lambda: self._set_and_fire(owner, "selected_index", index, "change")
        if isinstance(c, ft.Tab):
            bar = next((a for a in reversed(ancestors) if isinstance(a, ft.TabBar)), None)
            tabs = next((a for a in reversed(ancestors) if isinstance(a, ft.Tabs)), None)
            if bar is not None:
                index = list(bar.tabs).index(c)

                def tap_tab():
                    self._fire(bar, "click", index)
                    if tabs is not None:
                        self._select_index(tabs, index)

                return tap_tab
        if isinstance(c, (ft.Switch, ft.Checkbox, ft.CupertinoSwitch, ft.CupertinoCheckbox)):
            return lambda: self._toggle(c)
        if isinstance(c, (ft.Radio, ft.CupertinoRadio)):
            group = next((a for a in reversed(ancestors) if isinstance(a, ft.RadioGroup)), None)
            if group is not None:
                return lambda: self._set_and_fire(group, "value", c.value, "change")
        if isinstance(c, ft.Chip) and c.on_click is None and c.on_select is not None:
            return lambda: self._set_and_fire(c, "selected", not c.selected, "select")
        if getattr(c, "on_click", None) is not None or getattr(c, "action", None) is not None:

            def tap() -> None:
                self._perform_actions(c)
                self._fire(c, "click")

            return tap
        if getattr(c, "on_tap", None) is not None:
            tap = {"k": "touch", "l": {"x": 0.0, "y": 0.0}, "g": {"x": 0.0, "y": 0.0}}
            return lambda: self._fire(c, "tap", tap if isinstance(c, ft.GestureDetector) else None)
        return None

    def _perform_actions(self, c: BaseControl) -> None:
        """A control's client actions (ft.CopyToClipboard, ft.PickFiles, …): like the Flutter
        client, run here on the client side, in the tap, before the click event is sent; each
        is its service's method, answered by the same handlers as an INVOKE_METHOD call."""
        actions = getattr(c, "action", None)
        for action in actions if isinstance(actions, list) else [actions] if actions else []:
            control_type = self._client_controls.get(action.service_id)
            if control_type is None:
                raise HarnessError(f"{action} targets a service the client never received")
            self.invocations.append(
                Invocation(control_type, action.service_id, action.method, dict(action.args))
            )
            handler = self.method_handlers.get((control_type, action.method))
            if handler is not None:
                handler(self, action.service_id, dict(action.args))

    def _toggle(self, c: BaseControl) -> None:
        self._set_and_fire(c, "value", not bool(c.value), "change")

    def _set_and_fire(self, c: BaseControl, prop: str, value: Any, event: str) -> None:
        self._update_props(c, {prop: value})
        self._fire(c, event, value)

    def _select_index(self, c: BaseControl, index: int) -> None:
        # Tabs (and `select` on anything) only report a *change* of the selected index.
        if c.selected_index == index:
            return
        self._set_and_fire(c, "selected_index", index, "change")


def _destinations(owner: BaseControl) -> list[BaseControl]:
    return list(getattr(owner, "destinations", None) or getattr(owner, "controls", None) or [])


# --------------------------------------------------------------------------------------
# Default INVOKE_METHOD answers (what the Flutter services return)
# --------------------------------------------------------------------------------------


def _prefs_set(app: FakeApp, _id: int, args: dict[str, Any]) -> bool:
    value = args["value"]
    if app.web and isinstance(value, float) and value.is_integer():
        value = int(value)  # dart2js has one number type: 2.0 is stored and read as int 2
    app.prefs[args["key"]] = list(value) if isinstance(value, list) else value
    return True


def _prefs_get(app: FakeApp, _id: int, args: dict[str, Any]) -> Any:
    value = app.prefs.get(args["key"])
    return list(value) if isinstance(value, list) else value


def _prefs_remove(app: FakeApp, _id: int, args: dict[str, Any]) -> bool:
    app.prefs.pop(args["key"], None)
    return True  # the plugin reports success even for a missing key


def _prefs_clear(app: FakeApp, _id: int, _args: dict[str, Any]) -> bool:
    app.prefs.clear()
    return True


def _push_route(app: FakeApp, _id: int, args: dict[str, Any]) -> None:
    # Page.dart: `_routeState.route = args["route"]` -> route update + route_change
    # are sent before the invoke-method answer.
    app._client_route_change(args["route"])


def _device_info_answer(app: FakeApp, _id: int, _args: dict[str, Any]) -> dict[str, Any]:
    locales = [parse_locale(t) for t in app.locales]
    if app.web:
        info = _required_fields(_device_info.WebDeviceInfo)
        info.update(
            browser_name="chrome",
            language=app.locales[0],
            languages=list(app.locales),
            user_agent=WEB_USER_AGENT,
            platform="Linux x86_64",
        )
    else:
        cls = {
            "android": _device_info.AndroidDeviceInfo,
            "android_tv": _device_info.AndroidDeviceInfo,
            "ios": _device_info.IosDeviceInfo,
            "linux": _device_info.LinuxDeviceInfo,
            "macos": _device_info.MacOsDeviceInfo,
            "windows": _device_info.WindowsDeviceInfo,
        }.get(app.platform)
        if cls is None:
            return None  # type: ignore[return-value]
        info = _required_fields(cls)
    info["locales"] = locales
    info.update(app.device_info_overrides)
    return info


def _confirm_pop(app: FakeApp, control_id: int, args: dict[str, Any]) -> None:
    if control_id not in app._pending_confirm_pop:
        return  # no pending back gesture: the client ignores it
    app._pending_confirm_pop.discard(control_id)
    if args.get("should_pop"):
        view = app.session.index.get(control_id) if app.session else None
        if view is not None:
            app._view_popped(view)


def _clipboard_set(app: FakeApp, _id: int, args: dict[str, Any]) -> None:
    app.clipboard = args.get("data")


_DEFAULT_HANDLERS: dict[tuple[str, str], MethodHandler] = {
    ("SharedPreferences", "set"): _prefs_set,
    ("SharedPreferences", "get"): _prefs_get,
    ("SharedPreferences", "contains_key"): lambda app, _i, a: a["key"] in app.prefs,
    ("SharedPreferences", "get_keys"): lambda app, _i, a: [
        k for k in app.prefs if k.startswith(a["key_prefix"])
    ],
    ("SharedPreferences", "remove"): _prefs_remove,
    ("SharedPreferences", "clear"): _prefs_clear,
    ("Page", "push_route"): _push_route,
    ("Page", "get_device_info"): _device_info_answer,
    ("View", "confirm_pop"): _confirm_pop,
    ("Clipboard", "set"): _clipboard_set,
    ("Clipboard", "get"): lambda app, _i, _a: app.clipboard,
}


# --------------------------------------------------------------------------------------
# pytest fixture
# --------------------------------------------------------------------------------------


@pytest.fixture
def start_app() -> Iterator[Callable[..., FakeApp]]:
    """``start_app(main, **options)`` -> :class:`FakeApp`; every app started through it
    is stopped after the test. Import it into a test module (or conftest) to use it."""
    apps: list[FakeApp] = []

    def _start(main: Callable[[ft.Page], Any], **options: Any) -> FakeApp:
        app = FakeApp.start(main, **options)
        apps.append(app)
        return app

    yield _start
    for app in apps:
        app.stop()

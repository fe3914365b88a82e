"""In-process fake Flutter client for the app's UI tests: no Flutter, no sockets, no network.

A real :class:`flet.messaging.session.Session` (what ``ft.run`` creates for each client) runs
over a fake :class:`flet.messaging.connection.Connection`, and :class:`FakeApp` plays the Flutter
client's side of the protocol, as far as this app uses it:

* it registers like the client (route, size, Android or web), then ``main(page)`` runs through
  flet's own session starter, as under ``ft.run`` (an error in it arrives as SESSION_CRASHED);
* user actions are sent as the client sends them (a property update, then the control event):
  taps on buttons, list tiles, containers, chips, radios, checkboxes, switches and
  NavigationBar/Rail destinations
  (a control's client actions, ``action=ft.CopyToClipboard(…)``, run first, in the client),
  typing (and Enter), a Dropdown option, a RadioGroup value, a typed URL, Back, a resize, and
  a web tab reloaded into its live session;
* it answers ``INVOKE_METHOD`` calls: ``SharedPreferences`` get/set (a dict that can outlive the
  app, so a test can restart it), ``Page.push_route`` (which, like the client, changes the route
  and fires ``route_change``), ``Page.get_device_info`` (the device locales), ``Clipboard.set``;
  anything else gets ``None`` unless the test answers it (``handlers=``, :meth:`FakeApp.on_invoke`,
  :data:`HOLD` for a client that does not answer);
* every message in both directions goes through msgpack with flet's own encoder and decoder, so
  values the real transport cannot carry fail here too.

Every action returns once the app is idle (see :meth:`FakeApp._settle`). Errors a real app would
only log land in ``FakeApp.crashes``: SESSION_CRASHED messages (handler and ``main`` errors,
unserializable values), exceptions of tasks nobody awaited, coroutines never awaited (a sync
handler that returns a coroutine), and invoke answers the session cannot take.

Flet 1.0.5 client behaviour mirrored here, which the app must cope with:

* No ``route_change`` at start-up: the first route only arrives as ``page.route``. Later changes
  (``push_route``, a typed URL) send a ``route`` update, then ``route_change``, never for the route
  already shown; ``page.navigate`` and ``push_route`` change nothing until that event is handled.
* Back does not touch ``page.views``: the client hides the top view and sends ``view_pop`` once;
  ``on_view_pop`` must remove it, and normally ``push_route`` the new top view's route.
* The device languages come from ``(await page.get_device_info()).locales``.
* NavigationBar/Rail report every tap, the selected destination's too (seen in Chromium).
* A control event is only sent when the control has an ``on_<event>`` handler; page events always.

Private Flet (and asyncio) APIs this file depends on; re-check each one when upgrading flet (the
guard below refuses any flet but ``FLET_VERSION``):

* ``flet.app.__get_on_session_created`` (module-private): builds the coroutine ``ft.run`` runs for
  a new session (page context, sync/async/generator ``main``, errors -> SESSION_CRASHED).
* ``flet.controls.context._context_page`` (module-private): the current page, which flet's
  servers set before ``before_main`` (services made there register with it).
* ``flet.messaging.session.Session``, not exported: ``Session(conn)``, ``.page``, ``.id``,
  ``apply_page_patch``, ``get_page_patch``, ``dispatch_event``, ``apply_patch``,
  ``handle_invoke_method_results`` (raises RuntimeError for a control it no longer holds),
  ``disconnect``, ``connect``, ``close``: what flet's servers call for each client message.
* ``flet.messaging.connection.Connection`` (subclassed: ``send_message``, ``loop``,
  ``pubsubhub``, ``page_url``, from which ``page.url`` and route_change's query string come) and
  ``flet.pubsub.pubsub_hub.PubSubHub`` (a Session needs its connection's hub).
* ``flet.messaging.protocol``: ``Message``, ``MessageAction``, ``RegisterClientRequestBody``,
  ``RegisterClientResponseBody``, ``ControlEventBody``, ``UpdateControlPropsBody``,
  ``InvokeMethodResponseBody``, ``configure_encode_object_for_msgpack``,
  ``decode_ext_from_msgpack``: the wire format, used exactly as ``FletSocketServer`` and
  flet_web's ``FletApp`` use it (including the re-registration of a reloaded tab).
* The wire names themselves: control ids and Dart type names (``control._i``, ``control._c``, the
  ``_i``/``_c`` keys of patches), the REGISTER_CLIENT page fields (route, web, platform, width,
  height), event names and payloads (``click``, ``change``, ``select``, ``submit``,
  ``route_change``, ``view_pop``, ``resize``), and the invoke-method names answered below.
* ``Page._dialogs`` (no public getter): the open dialogs and snack bars, which are on screen.
* ``ClientAction.service_id`` / ``.method`` / ``.args``: what the client runs for ``action=``.
* asyncio ``loop._ready`` (callbacks runnable now: the idle test) and ``loop._scheduled`` (timers,
  for ``settle(timers_within=…)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import re
import traceback
import typing
import warnings
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
from flet.controls.context import _context_page
from flet.controls.value_types import Prop
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

__all__ = ["HOLD", "FakeApp", "HarnessError", "Invocation"]

FLET_VERSION = "1.0.5"
if ft.__version__ != FLET_VERSION:
    raise ImportError(
        f"tests/flet_harness.py was written against flet {FLET_VERSION} internals, "
        f"but flet {ft.__version__} is installed: re-check the harness before upgrading."
    )

# Reusing ft.run's own session starter keeps the harness from drifting from the real runtime.
_get_on_session_created = getattr(importlib.import_module("flet.app"), "__get_on_session_created")

_ENCODE = configure_encode_object_for_msgpack(ft.BaseControl)


class HarnessError(AssertionError):
    """A test drove the fake client into something a real user could not do."""


@dataclasses.dataclass
class Invocation:
    """One ``INVOKE_METHOD`` call (or client action) the app made to the fake client."""

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
    ``strict_map_key=False``. Encoding also records flet's diff snapshots, so it must happen
    exactly once per message, as in production.
    """
    packed = msgpack.packb([message.action, message.body], default=_ENCODE)
    return msgpack.unpackb(packed, ext_hook=decode_ext_from_msgpack, strict_map_key=False)


def _client_to_server(action: MessageAction, body: dict[str, Any]) -> list[Any]:
    """Encode a client message and decode it exactly as ``FletSocketServer`` does."""
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
    if typing.get_origin(tp) is list:
        return []
    if isinstance(tp, type):
        for kind, value in ((bool, False), (int, 0), (str, "")):
            if issubclass(tp, kind):
                return value
        if issubclass(tp, Enum):
            return next(iter(tp)).value
        if dataclasses.is_dataclass(tp):
            return _required_fields(tp)
    raise HarnessError(f"no placeholder for a device-info field of type {tp}")


def _required_fields(cls: Any) -> dict[str, Any]:
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
# Attributes whose string value the app's controls show (the rest hold controls, if anything).
_TEXT_ATTRS = (
    "text",
    "content",
    "label",
    "title",
    "subtitle",
    "hint_text",
    "error",
    "error_text",
    "tooltip",
)
# Controls whose `value` is displayed text (elsewhere `value` is a key, an index, ...).
_VALUE_IS_TEXT = frozenset({"Text", "TextField"})


@dataclasses.dataclass(frozen=True)
class _ChildFields:
    """Where a control class may hold child controls, in field (document) order."""

    order: dict[str, int]  # each such field's position
    # Read always: fields kept as plain attributes (lists made by a default factory), and any
    # whose class default could be a control. Every other such field is one of Flet's `Prop`s,
    # which keep a value only while it differs from its default (in `control._values`): only
    # those set are read, not the fifty-odd fields of every control (the walk's cost).
    always: tuple[str, ...]


_CHILD_FIELDS: dict[type, _ChildFields] = {}


def _child_fields(cls: type) -> _ChildFields:
    """Fields of a control class that may hold child controls (computed once per class)."""
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        names = [
            f.name
            for f in dataclasses.fields(cls)
            if f.name not in _SKIP_FIELDS and not f.metadata.get("skip", False)
        ]
        always = []
        for name in names:
            raw = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
            if not isinstance(raw, Prop) or isinstance(raw.default, (ft.BaseControl, list, tuple)):
                always.append(name)
        fields = _CHILD_FIELDS[cls] = _ChildFields(
            {name: i for i, name in enumerate(names)}, tuple(always)
        )
    return fields


def _children(control: ft.BaseControl) -> list[Any]:
    """The values of ``control``'s fields that may be or hold child controls, in field order."""
    fields = _child_fields(type(control))
    order = fields.order
    values = getattr(control, "_values", None)
    if isinstance(values, dict):
        names = [name for name in values if name in order and name not in fields.always]
        names += fields.always
        names.sort(key=order.__getitem__)
    else:
        names = list(order)
    return [getattr(control, name, None) for name in names]


def _walk(
    root: ft.BaseControl,
) -> Iterator[tuple[ft.BaseControl, tuple[ft.BaseControl, ...]]]:
    """What is on screen under ``root``, in document order: ``(control, ancestors)``.

    Invisible subtrees (``visible=False``) are skipped. Controls are only found in controls'
    fields and lists, never in value objects (styles, paddings, client actions).
    """
    # An explicit stack, not recursive generators: `yield from` through every level made each
    # control cost its depth, and the finders walk the whole screen on every call. Children are
    # pushed in reverse, so they pop (and are marked seen) in document order, as recursion did.
    seen: set[int] = set()
    stack: list[tuple[Any, tuple[ft.BaseControl, ...]]] = [(root, ())]
    while stack:
        value, ancestors = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend((item, ancestors) for item in reversed(value))
            continue
        if not isinstance(value, ft.BaseControl) or id(value) in seen:
            continue
        seen.add(id(value))
        if getattr(value, "visible", True) is False:
            continue
        yield value, ancestors
        inner = (*ancestors, value)
        stack.extend(
            (child, inner)
            for child in reversed(_children(value))
            if isinstance(child, (ft.BaseControl, list, tuple))
        )


_Node = tuple[ft.BaseControl, tuple[ft.BaseControl, ...]]  # a control on screen, its ancestors


def own_texts(control: ft.BaseControl) -> list[str]:
    """Strings a control itself displays (not those of its child controls)."""
    out: list[str] = []
    if control._c in _VALUE_IS_TEXT and isinstance(getattr(control, "value", None), str):
        out.append(control.value)  # type: ignore[attr-defined]
    for attr in _TEXT_ATTRS:
        value = getattr(control, attr, None)
        if isinstance(value, str):
            out.append(value)
    return out


def _text_matches(value: str, expected: str | re.Pattern[str]) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.search(value) is not None
    return value == expected


# --------------------------------------------------------------------------------------
# Transport
# --------------------------------------------------------------------------------------


class _FakeConnection(Connection):
    """Server side of the transport: hands every outbound message to the fake client."""

    def __init__(self, client: FakeApp):
        super().__init__()
        self.loop = client.loop
        self.pubsubhub = PubSubHub(loop=client.loop)
        # page.url: route_change parses the query string from it.
        self.page_url = "http://127.0.0.1:8550/" if client.web else "flet-harness://app/"
        self._client = client

    def send_message(self, message: Message) -> None:
        decoded = _server_to_client(message)  # serialization errors raise here, as live
        self._client._receive(decoded)


# --------------------------------------------------------------------------------------
# The fake app / client
# --------------------------------------------------------------------------------------

MethodHandler = Callable[["FakeApp", int, dict[str, Any]], Any]
# A handler returning this leaves the call unanswered until the test calls
# `FakeApp.answer_held()`, or for ever: a web tab that outlived a server restart never answers.
HOLD = object()


class FakeApp:
    """A Flet app session running in-process against a fake Flutter client.

    Create it with :meth:`start`, end it with :meth:`stop`. Attributes worth asserting on:

    * ``page`` - the live :class:`ft.Page`; ``top_view`` - the view the client shows
    * ``client_route`` - the route the client currently shows
    * ``prefs`` - the SharedPreferences store (a plain dict, shared by reference)
    * ``clipboard`` - the text last copied
    * ``crashes`` - errors the app raised or left behind (see the module docstring)
    * ``invocations`` - every INVOKE_METHOD call and client action (:class:`Invocation`)
    * ``messages`` - every decoded server->client message ``(action, body)``
    """

    def __init__(
        self,
        *,
        route: str = "/",
        prefs: dict[str, Any] | None = None,
        width: float = 390,
        height: float = 844,
        locale: str | list[str] = "en-US",
        web: bool = False,
    ):
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(self._on_loop_exception)
        # The loop's clock runs ahead by what settle(timers_within=…) skipped: a timer it waits
        # for fires at once, as it would after a real wait (asyncio's timers, call_later,
        # asyncio.wait's timeouts, all read loop.time()), and no test sleeps through it.
        self._skipped = 0.0
        real_time = self.loop.time
        self.loop.time = lambda: real_time() + self._skipped  # type: ignore[method-assign]
        self.prefs: dict[str, Any] = {} if prefs is None else prefs
        self.clipboard: str | None = None
        self.crashes: list[str] = []
        self.invocations: list[Invocation] = []
        self.messages: list[tuple[MessageAction, Any]] = []
        self.client_route = route
        self.width, self.height = width, height
        self.locales = [locale] if isinstance(locale, str) else list(locale)
        self.web = web
        self.session: Session | None = None
        self.held: list[dict[str, Any]] = []  # invoke-method calls a HOLD handler kept
        self.method_handlers: dict[tuple[str, str], MethodHandler] = dict(_DEFAULT_HANDLERS)
        # What the client knows: control id -> Dart type name, learned from patches.
        self._client_controls: dict[int, str] = {}
        # Views the client already hides after sending view_pop (see _effective_views).
        self._popped_routes: set[str] = set()
        # Strong refs to event-dispatch tasks (as FletSocketServer keeps), so none is
        # garbage-collected mid-flight.
        self._tasks: set[asyncio.Task] = set()
        self._stopped = False
        # What is on screen under each root, as last walked (see _nodes).
        self._walked: dict[int, tuple[ft.BaseControl, int, list[_Node]]] = {}
        self._generation = 0  # moves on with every message either way and every loop run

    # ---------------------------------------------------------------- lifecycle

    @classmethod
    def start(
        cls,
        main: Callable[[ft.Page], Any],
        *,
        handlers: dict[tuple[str, str], MethodHandler] | None = None,
        before_main: Callable[[ft.Page], Any] | None = None,
        **options: Any,
    ) -> FakeApp:
        """Register a fake client and run ``main(page)`` until the app is idle.

        Options: ``route`` ("/"), ``prefs`` (a dict, used by reference), ``width``/``height``
        (390x844 logical px), ``locale`` ("en-US", or a list, most preferred first), ``web``
        (False: an Android client); ``handlers`` answer invoke-method calls from the start
        (see :meth:`on_invoke`); ``before_main`` runs as flet's servers run it, before the
        register answer (what it adds to the page goes out with that answer).
        """
        app = cls(**options)
        app.method_handlers.update(handlers or {})
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
                with contextlib.suppress(HarnessError):  # a busy app was reported already
                    await self._settle()
            current = asyncio.current_task()
            leftovers = [t for t in asyncio.all_tasks() if t is not current]
            for task in leftovers:
                task.cancel()
            await asyncio.gather(*leftovers, return_exceptions=True)

        try:
            with self._catch_unawaited_coroutines():
                self.loop.run_until_complete(shutdown())
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        finally:
            self.loop.close()

    # ---------------------------------------------------------------- what is on screen

    @property
    def page(self) -> ft.Page:
        assert self.session is not None, "app not started"
        return self.session.page

    @property
    def top_view(self) -> ft.View:
        views = self._effective_views()
        if not views:
            raise HarnessError("the page has no views")
        return views[-1]

    def roots(self, scope: ft.BaseControl | None = None) -> list[ft.BaseControl]:
        """Where finding looks: ``scope``, or what is on screen (the top view, the overlay and
        the open dialogs)."""
        if scope is not None:
            return [scope]
        page = self.page
        dialogs = [d for d in page._dialogs.controls if getattr(d, "open", False)]
        return [self.top_view, *page.overlay, *dialogs]

    def texts(self, scope: ft.BaseControl | None = None) -> list[str]:
        """Every visible string in ``scope`` (Text values, TextSpan texts, string contents,
        labels, titles, hints, errors, tooltips), in document order."""
        return [t for root in self.roots(scope) for c, _ in self._nodes(root) for t in own_texts(c)]

    def has_text(self, text: str | re.Pattern[str], scope: ft.BaseControl | None = None) -> bool:
        return any(_text_matches(t, text) for t in self.texts(scope))

    def find_all(
        self,
        type: type | tuple[type, ...] | None = None,
        *,
        text: str | re.Pattern[str] | None = None,
        tooltip: str | None = None,
        label: str | None = None,
        scope: ft.BaseControl | None = None,
    ) -> list[Any]:
        """Visible controls matching every given criterion, in document order.

        ``text`` (exact string or compiled regex) matches a control that shows the text
        itself or through its descendants; only the innermost such control is kept, so
        ``find(ft.Button, text="OK")`` finds a button whether its content is the string "OK"
        or ``ft.Text("OK")``, and ``find(text="OK")`` finds the Text.
        """

        def plain_match(c: ft.BaseControl) -> bool:
            if type is not None and not isinstance(c, type):
                return False
            if tooltip is not None and getattr(c, "tooltip", None) != tooltip:
                return False
            return label is None or getattr(c, "label", None) == label

        result: list[ft.BaseControl] = []
        for root in self.roots(scope):
            nodes = self._nodes(root)
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

    def find(self, type: type | tuple[type, ...] | None = None, **criteria: Any) -> Any:
        """Like :meth:`find_all` but exactly one control must match."""
        found = self.find_all(type, **criteria)
        if len(found) != 1:
            what = [f"type={getattr(type, '__name__', type)}"] if type is not None else []
            what += [f"{k}={v!r}" for k, v in criteria.items()]
            raise HarnessError(
                f"expected exactly one control matching ({', '.join(what)}), "
                f"found {len(found)}: {[str(c) for c in found][:10]}; "
                f"texts on screen: {self.texts()[:40]}"
            )
        return found[0]

    def exists(self, type: type | tuple[type, ...] | None = None, **criteria: Any) -> bool:
        return bool(self.find_all(type, **criteria))

    # ---------------------------------------------------------------- user actions

    def click(self, control: ft.BaseControl) -> None:
        """Tap a control the way the Flutter client reports it.

        A tap on a control that does not react to taps (the Text in a Button) goes to the
        nearest ancestor that does. NavigationBar/Rail destinations: the bar's
        ``selected_index`` + ``change``; Radio: its RadioGroup's ``value`` + ``change``; a
        Chip with only ``on_select``: toggled ``selected`` + ``select``; anything with
        ``on_click`` or a client ``action``: the action, then ``click``.
        """
        path = self._path_to(control)
        self._run(self._act(lambda: self._tap(control, path)))

    def type(self, field: ft.BaseControl, value: str, *, submit: bool = False) -> None:
        """Replace a text field's text with ``value`` (like the user editing it):
        ``value`` property update, then ``change`` (and ``submit``, Enter, if asked)."""
        self._check_interactive(field, self._path_to(field))

        def act():
            self._update_props(field, {"value": value})
            self._fire(field, "change", value)
            if submit:
                self._fire(field, "submit", value)

        self._run(self._act(act))

    def focus(self, field: ft.BaseControl) -> None:
        """The client reports that ``field`` got the focus (``focus``, sent only to a handler)."""
        self._check_interactive(field, self._path_to(field))
        self._run(self._act(lambda: self._fire(field, "focus")))

    def blur(self, field: ft.BaseControl) -> None:
        """The client reports that ``field`` lost the focus (``blur``, sent only to a handler)."""
        self._check_interactive(field, self._path_to(field))
        self._run(self._act(lambda: self._fire(field, "blur")))

    def select(self, control: ft.Dropdown | ft.RadioGroup, value: Any) -> None:
        """Pick a Dropdown option by key (``select``) or a RadioGroup value (``change``)."""
        self._check_interactive(control, self._path_to(control))
        if isinstance(control, ft.Dropdown):
            event = "select"
        elif isinstance(control, ft.RadioGroup):
            event = "change"
        else:
            raise HarnessError(f"select() picks in a Dropdown or a RadioGroup, not {control}")
        self._run(self._act(lambda: self._set_and_fire(control, "value", value, event)))

    def route(self, route: str) -> None:
        """The user opens ``route`` (a typed URL, a deep link).

        As the client does: nothing if it already shows that route, otherwise the page's
        ``route`` property update followed by a ``route_change`` event.
        """
        self._run(self._act(lambda: self._client_route_change(route)))

    def back(self) -> bool:
        """System or AppBar back. Returns False when there is nothing to pop (one view
        left: the real app would be closed by the OS).

        As the client does: it hides the top view and sends ``view_pop`` with its route;
        ``page.on_view_pop`` must remove it from ``page.views`` (and usually ``push_route``
        to the new top view's route).
        """
        views = self._effective_views()
        if len(views) <= 1:
            return False
        self._run(self._act(lambda: self._view_popped(views[-1])))
        return True

    def resize(self, width: float, height: float) -> None:
        """Window or browser resize, or rotation: ``width``/``height`` update, then
        ``resize`` on the page."""

        def act():
            self.width, self.height = width, height
            size = {"width": width, "height": height}
            self._update_props(self.page, size)
            self._fire(self.page, "resize", size, always=True)

        self._run(self._act(act))

    def reload(self, width: float | None = None, height: float | None = None) -> None:
        """The browser tab reloads (perhaps at a new size: a window widened, a tablet turned).

        As flet_web's FletApp handles a REGISTER_CLIENT with a known session id: the live
        session takes the page the client reports now, is sent back whole (the reloaded
        client knows nothing else), and is re-attached, firing ``connect``; ``main`` does
        not run again.
        """
        self.width = self.width if width is None else width
        self.height = self.height if height is None else height

        async def act():
            session = self.session
            assert session is not None
            await session.disconnect(60)
            _, body = _client_to_server(
                MessageAction.REGISTER_CLIENT,
                {"session_id": session.id, "page_name": "", "page": self._client_page()},
            )
            session.apply_page_patch(RegisterClientRequestBody(**body).page)
            self._popped_routes.clear()
            conn = _FakeConnection(self)
            conn.send_message(
                Message(
                    MessageAction.REGISTER_CLIENT,
                    RegisterClientResponseBody(
                        session_id=session.id, page_patch=session.page, error=""
                    ),
                )
            )
            await session.connect(conn)
            await self._settle()

        self._run(act())

    # ---------------------------------------------------------------- test controls

    def settle(self, timers_within: float = 0.0) -> None:
        """Run the loop until the app is idle. With ``timers_within`` > 0 it also lets the
        timers due that soon fire, e.g. an ``asyncio.wait(…, timeout=…)``: the loop's clock is
        moved on to each (no real wait), as though that time had passed with the app idle."""
        self._run(self._settle(timers_within))

    def on_invoke(self, control_type: str, method: str, handler: MethodHandler) -> None:
        """Answer ``control_type.method`` calls with ``handler(app, control_id, args)``.
        Raise from the handler to send an error back (the app gets a RuntimeError); return
        :data:`HOLD` to leave the call unanswered."""
        self.method_handlers[(control_type, method)] = handler

    def answer_held(self) -> None:
        """Answers the calls held so far, as the default handlers would have."""
        held, self.held = self.held, []

        def answer() -> None:
            for body in held:
                self._answer_invoke(body, _DEFAULT_HANDLERS)

        self._run(self._act(answer))

    # ---------------------------------------------------------------- internals: loop

    def _run(self, coro: Any) -> Any:
        if self._stopped:
            coro.close()
            raise HarnessError("the app was stopped")
        self._screen_changed()
        try:
            with self._catch_unawaited_coroutines():
                return self.loop.run_until_complete(coro)
        finally:
            self._screen_changed()

    # ---------------------------------------------------------------- internals: the screen

    def _nodes(self, root: ft.BaseControl) -> list[_Node]:
        """``list(_walk(root))``, walked again only when the screen may have changed since: a
        message went either way or the app's loop ran (the app changes its controls only in
        its handlers and tasks, and what it changes reaches the client only in a message). A
        test's finds and taps between two actions then walk the screen once, not each time."""
        generation = self._generation
        held = self._walked.get(id(root))
        if held is not None and held[0] is root and held[1] == generation:
            return held[2]
        nodes = list(_walk(root))
        if generation == self._generation:  # no message arrived meanwhile (an app thread's)
            self._walked[id(root)] = (root, generation, nodes)
        return nodes

    def _screen_changed(self) -> None:
        self._generation += 1
        self._walked.clear()

    @contextlib.contextmanager
    def _catch_unawaited_coroutines(self) -> Iterator[None]:
        """ "coroutine ... was never awaited" into ``crashes``: a sync handler (often a
        lambda) returned a coroutine, which flet calls and silently drops."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        for w in caught:
            if issubclass(w.category, RuntimeWarning) and "never awaited" in str(w.message):
                self.crashes.append(
                    f"{w.message} (a sync handler returned a coroutine; make it async)"
                )
            else:  # not ours: hand it back to whoever filters warnings (pytest)
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)

    async def _act(self, action: Callable[[], Any]) -> None:
        action()
        await self._settle()
        await self._report_closed_dialogs()

    async def _report_closed_dialogs(self) -> None:
        """Like Flutter once a dialog closed by the app has faded out: its ``dismiss`` event
        (Flet removes the dialog from the page then, and calls its ``on_dismiss``)."""
        reported: set[int] = self.__dict__.setdefault("_dismissed_dialogs", set())
        while closed := [
            d
            for d in self.page._dialogs.controls
            if not getattr(d, "open", True)
            and d._i in self._client_controls
            and d._i not in reported
        ]:
            for dialog in closed:
                reported.add(dialog._i)
                self._fire(dialog, "dismiss", always=True)
            await self._settle()

    async def _settle(self, timers_within: float = 0.0, max_ticks: int = 20_000) -> None:
        """Yield to the loop until nothing is runnable for a few consecutive ticks.

        ``loop._ready`` (callbacks runnable right now) is private asyncio API but is the
        only exact idle signal: every task step, future callback and our own invoke-method
        answers pass through it. Tasks blocked on events (flet's update scheduler) or far
        timers (invoke timeouts) do not count as work.
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
                self._skipped += due  # the clock moves on to the timer: it fires next
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

    async def _register(
        self, main: Callable[[ft.Page], Any], before_main: Callable[[ft.Page], Any] | None
    ) -> None:
        """FletSocketServer's REGISTER_CLIENT handling, fed with what the client sends."""
        conn = _FakeConnection(self)
        _, body = _client_to_server(
            MessageAction.REGISTER_CLIENT,
            {"session_id": None, "page_name": "", "page": self._client_page()},
        )
        session = self.session = Session(conn)
        session.apply_page_patch(RegisterClientRequestBody(**body).page)
        if before_main is not None:
            _context_page.set(session.page)
            before_main(session.page)
        conn.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(
                    session_id=session.id, page_patch=session.get_page_patch(), error=""
                ),
            )
        )
        self._track(asyncio.create_task(_get_on_session_created(main)(session)))
        await self._settle()

    def _client_page(self) -> dict[str, Any]:
        """The page fields FletBackend._registerClient sends that the app reads."""
        return {
            "route": self.client_route,
            "web": self.web,
            "platform": "android",
            "width": float(self.width),
            "height": float(self.height),
        }

    def _receive(self, message: list[Any]) -> None:
        """Client side: a decoded server->client message arrived."""
        action, body = MessageAction(message[0]), message[1]
        self._screen_changed()
        self.messages.append((action, body))
        if action in (MessageAction.REGISTER_CLIENT, MessageAction.PATCH_CONTROL):
            self._learn_controls(body)
        elif action == MessageAction.SESSION_CRASHED:
            self.crashes.append(body["message"])
        elif action == MessageAction.INVOKE_METHOD:
            # The real client answers asynchronously; the app may call from its threads.
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
        # A control the client never received is also one the session does not hold: the
        # session refuses any answer for it (see _send), so the type is always known here.
        control_type = self._client_controls.get(control_id)
        self.invocations.append(Invocation(control_type, control_id, name, args))
        result, error = None, None
        handler = (handlers or self.method_handlers).get((control_type or "", name))
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
        """Client -> server, then what FletSocketServer's message handler does with it."""
        action_code, body = _client_to_server(action, body)
        self._screen_changed()
        assert self.session is not None
        session = self.session
        if action_code == MessageAction.CONTROL_EVENT.value:
            event = ControlEventBody(**body)
            self._track(
                self.loop.create_task(session.dispatch_event(event.target, event.name, event.data))
            )
        elif action_code == MessageAction.UPDATE_CONTROL_PROPS.value:
            update = UpdateControlPropsBody(**body)
            session.apply_patch(update.id, update.props)
        elif action_code == MessageAction.INVOKE_METHOD.value:
            answer = InvokeMethodResponseBody(**body)
            try:
                session.handle_invoke_method_results(
                    answer.control_id, answer.call_id, answer.result, answer.error
                )
            except RuntimeError as e:  # would end the real connection's receive loop
                self.crashes.append(f"transport error: {e}")

    def _track(self, task: asyncio.Task) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fire(
        self, control: ft.BaseControl, name: str, data: Any = None, *, always: bool = False
    ) -> None:
        """Client event. Like Control.triggerEvent in Dart, only sent when the control
        has an ``on_<name>`` handler, unless ``always`` (triggerEventWithoutSubscribers)."""
        if control._i not in self._client_controls:
            raise HarnessError(f"{control} was never sent to the client (missing update()?)")
        if always or getattr(control, f"on_{name}", None) is not None:
            self._send(
                MessageAction.CONTROL_EVENT, {"target": control._i, "name": name, "data": data}
            )

    def _update_props(self, control: ft.BaseControl, props: dict[str, Any]) -> None:
        if control._i not in self._client_controls:
            raise HarnessError(f"{control} was never sent to the client (missing update()?)")
        self._send(MessageAction.UPDATE_CONTROL_PROPS, {"id": control._i, "props": props})

    def _set_and_fire(self, c: ft.BaseControl, prop: str, value: Any, event: str) -> None:
        self._update_props(c, {prop: value})
        self._fire(c, event, value)

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
        views = list(self.page.views)
        self._popped_routes &= {self._view_route(v) for v in views}
        return [v for v in views if self._view_route(v) not in self._popped_routes]

    @staticmethod
    def _view_route(view: ft.View) -> str:
        return view.route if view.route is not None else str(view._i)

    def _view_popped(self, view: ft.View) -> None:
        self._popped_routes.add(self._view_route(view))
        self._fire(self.page, "view_pop", {"route": self._view_route(view)}, always=True)

    # ---------------------------------------------------------------- internals: taps

    def _path_to(self, control: ft.BaseControl) -> tuple[ft.BaseControl, ...]:
        """Ancestors of ``control`` in what is on screen (raises if it is not)."""
        for root in self.roots():
            for c, ancestors in self._nodes(root):
                if c is control:
                    return ancestors
        raise HarnessError(f"{control} is not visible in the top view, overlay or dialogs")

    def _check_interactive(self, control: ft.BaseControl, path: tuple[ft.BaseControl, ...]):
        for c in (*path, control):
            if getattr(c, "disabled", False):
                raise HarnessError(f"{control} is disabled (by {c})")

    def _tap(self, control: ft.BaseControl, path: tuple[ft.BaseControl, ...]) -> None:
        chain = [control, *reversed(path)]  # the control, then its ancestors upwards
        for i, c in enumerate(chain):
            ancestors = tuple(reversed(chain[i + 1 :]))
            handled = self._tap_one(c, ancestors)
            if handled:
                self._check_interactive(c, ancestors)
                handled()
                return
        raise HarnessError(f"nothing handles a tap on {control}")

    def _tap_one(
        self, c: ft.BaseControl, ancestors: tuple[ft.BaseControl, ...]
    ) -> Callable[[], None] | None:
        """What tapping ``c`` does, or None if ``c`` does not react to taps."""
        if isinstance(c, (ft.NavigationBarDestination, ft.NavigationRailDestination)):
            bar = next(
                (
                    a
                    for a in reversed(ancestors)
                    if isinstance(a, (ft.NavigationBar, ft.NavigationRail))
                ),
                None,
            )
            if bar is not None:
                index = [d for d in bar.destinations if d.visible].index(c)
                return lambda: self._set_and_fire(bar, "selected_index", index, "change")
        if isinstance(c, ft.Radio):
            group = next((a for a in reversed(ancestors) if isinstance(a, ft.RadioGroup)), None)
            if group is not None:
                return lambda: self._set_and_fire(group, "value", c.value, "change")
        if isinstance(c, (ft.Checkbox, ft.Switch)):  # toggled, then `change`
            return lambda: self._set_and_fire(c, "value", not c.value, "change")
        if isinstance(c, ft.Chip) and c.on_click is None and c.on_select is not None:
            return lambda: self._set_and_fire(c, "selected", not c.selected, "select")
        if getattr(c, "on_click", None) is not None or getattr(c, "action", None) is not None:

            def tap() -> None:
                self._perform_actions(c)
                self._fire(c, "click")

            return tap
        return None

    def _perform_actions(self, c: ft.BaseControl) -> None:
        """A control's client actions (ft.CopyToClipboard, …): like the Flutter client, run
        here on the client side, in the tap, before the click event is sent; each is its
        service's method, answered by the same handlers as an INVOKE_METHOD call."""
        actions = getattr(c, "action", None)
        for action in actions if isinstance(actions, list) else [actions] if actions else []:
            control_type = self._client_controls.get(action.service_id)
            if control_type is None:
                raise HarnessError(f"{action} targets a service the client never received")
            args = dict(action.args)
            self.invocations.append(
                Invocation(control_type, action.service_id, action.method, args)
            )
            handler = self.method_handlers.get((control_type, action.method))
            if handler is not None:
                handler(self, action.service_id, args)


# --------------------------------------------------------------------------------------
# Default INVOKE_METHOD answers (what the Flutter client's services return)
# --------------------------------------------------------------------------------------


def _prefs_set(app: FakeApp, _id: int, args: dict[str, Any]) -> bool:
    app.prefs[args["key"]] = args["value"]
    return True


def _push_route(app: FakeApp, _id: int, args: dict[str, Any]) -> None:
    # Page.dart: `_routeState.route = args["route"]`: the route update and route_change
    # are sent before the invoke-method answer.
    app._client_route_change(args["route"])


def _device_info(app: FakeApp, _id: int, _args: dict[str, Any]) -> dict[str, Any]:
    info = _required_fields(ft.WebDeviceInfo if app.web else ft.AndroidDeviceInfo)
    info["locales"] = [parse_locale(tag) for tag in app.locales]
    return info


def _clipboard_set(app: FakeApp, _id: int, args: dict[str, Any]) -> None:
    app.clipboard = args["data"]


_DEFAULT_HANDLERS: dict[tuple[str, str], MethodHandler] = {
    # get answers the stored value (str, int, float, bool, list[str]) or None.
    ("SharedPreferences", "get"): lambda app, _id, args: app.prefs.get(args["key"]),
    ("SharedPreferences", "set"): _prefs_set,
    ("Page", "push_route"): _push_route,
    ("Page", "get_device_info"): _device_info,
    ("Clipboard", "set"): _clipboard_set,
}

"""The layout checker: is the screen a browser shows laid out, every control on the page?

The in-process tests never lay a page out; a fault of layout only shows in a browser. Two
witnesses, both read from the running page:

1. **Flutter's own report.** A build or layout error (an `Expanded` in a `Row(wrap=True)`, a
   flex child without bounded constraints, …) makes Flutter replace the widget by its error
   widget: in Flet's release build a silent grey box, 100,000 px tall when nothing bounds it,
   and nothing in the browser's console. Flet's client sends such an error to the app as the
   page's `error` event, but only when the app listens to it (`page.on_error`, which
   views/shell.py sets). `ClientErrors` reads those events off the WebSocket frames the page
   sends, so a fault is attributed to the page (and the step) that caused it.
2. **Geometry.** The accessibility tree's nodes carry the boxes Flutter laid the controls out
   in. A node outside the window (and not inside something that scrolls to it) is a control
   the judge cannot reach; a text ending exactly at a side of the window runs off it (Flutter
   clips the boxes to the window, and drops a node that lies wholly outside: that one no
   check here can see); a scrollable whose first screen, or some screen further down, holds
   nothing at all is an error box (or a lost control) pushing the rest away.

Use: `assert_laid_out(app, "the record page, deleted")` on any screen, after waiting for
what it must show. It waits for the screen to settle (a route's slide: until its boxes stop
moving, `settled_layout`), then fails with one line per fault.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgpack

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocket

    from .harness import FlutterApp

# Flet's protocol (flet/messaging/protocol.py): a frame is one byte, then msgpack of
# [action, body]; a control's event is action 3 with {target, name, data}.
CONTROL_EVENT = 3
ERROR_EVENT = "error"
# RenderErrorBox's size when its constraints are unbounded (flutter/rendering/error.dart).
ERROR_BOX_EXTENT = 100_000
TOLERANCE = 1.5  # px: sub-pixel rounding of the boxes


@dataclass
class ClientErrors:
    """Errors the Flutter client reported to the app, as they were sent (oldest first)."""

    reported: list[str] = field(default_factory=list)
    checked: int = 0  # how many of them an earlier check has already failed on

    def attach(self, page: Page) -> None:
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framesent", self._on_frame)

    def _on_frame(self, payload: bytes | str) -> None:
        if not isinstance(payload, bytes | bytearray) or len(payload) < 2:
            return
        with contextlib.suppress(Exception):  # not a Flet message: not ours to judge
            message = msgpack.unpackb(payload[1:], strict_map_key=False)
            if (
                isinstance(message, list)
                and len(message) == 2
                and message[0] == CONTROL_EVENT
                and isinstance(message[1], dict)
                and message[1].get("name") == ERROR_EVENT
            ):
                self.reported.append(str(message[1].get("data")))

    def new(self) -> list[str]:
        """The errors reported since the last call."""
        fresh = self.reported[self.checked :]
        self.checked = len(self.reported)
        return fresh


@dataclass
class Traffic:
    """When the page last sent or received a frame on its WebSocket (Flet's protocol: every
    change of the screen comes from the server as a frame, every tap goes to it as one)."""

    last: float = field(default_factory=time.monotonic)

    def attach(self, page: Page) -> None:
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framesent", self._seen)
        ws.on("framereceived", self._seen)

    def _seen(self, _payload: bytes | str) -> None:
        self.last = time.monotonic()

    def quiet_for(self) -> float:
        """Seconds since the last frame either way."""
        return time.monotonic() - self.last


# Every semantics node's box, and what scrolls it. A "leaf" has no semantics node inside it
# (a text, a button's label, a field); a scroller is an element Flutter made scrollable.
_NODES_JS = """
() => {
  const nodes = Array.from(document.querySelectorAll('[id^="flt-semantic-node-"]'));
  const scrolls = (e, axis) => {
    const s = getComputedStyle(e);
    const v = axis === 'y' ? s.overflowY : s.overflowX;
    return v === 'scroll' || v === 'auto';
  };
  const scroller = (e, axis) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      if (p.id && p.id.startsWith('flt-semantic-node-') && scrolls(p, axis)) return p;
    }
    return null;
  };
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const name = (e) => (e.getAttribute('aria-label') || e.textContent || e.tagName).trim()
    .replace(/\\s+/g, ' ').slice(0, 60);
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    nodes: nodes.filter(e => !e.querySelector('[id^="flt-semantic-node-"]')).map(e => {
      const sy = scroller(e, 'y'), sx = scroller(e, 'x');
      return {id: e.id, name: name(e), role: e.getAttribute('role') || '', box: box(e),
              sy: sy ? sy.id : null, sx: sx ? sx.id : null};
    }),
    scrollers: Object.fromEntries(nodes.filter(e => scrolls(e, 'x') || scrolls(e, 'y'))
      .map(e => [e.id, {box: box(e), name: name(e), scrollTop: e.scrollTop,
        scrollLeft: e.scrollLeft, scrollHeight: e.scrollHeight, scrollWidth: e.scrollWidth,
        clientHeight: e.clientHeight, clientWidth: e.clientWidth}])),
  };
}
"""


def geometry_faults(layout: dict) -> list[str]:
    """Faults of the boxes `_NODES_JS` read: pure, so that its rules are tested on their own."""
    faults: list[str] = []
    width, height = layout["width"], layout["height"]
    scrollers = layout["scrollers"]
    # Per scrolling pane: each node's span down its content, its name, and whether Flutter
    # clipped its box at the pane's visible bottom (a tall text's box ends there, whatever
    # its real height: what follows it cannot be judged from this position).
    by_scroller: dict[str, list[tuple[float, float, str, bool]]] = {}
    for node in layout["nodes"]:
        box, label = node["box"], f"{node['name']!r} ({node['role'] or 'text'})"
        if box["right"] - box["left"] <= 0 and box["bottom"] - box["top"] <= 0:
            continue  # an empty node (a spacer's semantics): nothing to reach
        # Across: inside the window, or inside what scrolls it sideways.
        if node["sx"] is None:
            low, high = 0.0, float(width)
        else:
            s = scrollers[node["sx"]]
            low = s["box"]["left"] - s["scrollLeft"]
            high = low + max(s["scrollWidth"], s["clientWidth"])
        if box["left"] < low - TOLERANCE or box["right"] > high + TOLERANCE:
            faults.append(
                f"{label} lies outside the page across: x {box['left']:.0f}–{box['right']:.0f},"
                f" the page {low:.0f}–{high:.0f}"
            )
        elif node["sx"] is None and not node["role"] and _cut_at_an_edge(box, width):
            # Flutter clips a node's box to the window (and drops a node wholly outside it):
            # a text that ends exactly at a side of the window, where every screen has a
            # margin, is a text that runs off it.
            faults.append(
                f"{label} is cut at the window's edge: x {box['left']:.0f}–{box['right']:.0f}"
                f" of 0–{width}"
            )
        # Down: inside the window, or inside what scrolls it.
        if node["sy"] is None:
            top, bottom = 0.0, float(height)
        else:
            s = scrollers[node["sy"]]
            top = s["box"]["top"] - s["scrollTop"]
            bottom = top + max(s["scrollHeight"], s["clientHeight"])
            clipped = box["bottom"] >= s["box"]["top"] + s["clientHeight"] - TOLERANCE
            by_scroller.setdefault(node["sy"], []).append(
                (box["top"] - top, box["bottom"] - top, label, clipped)
            )
        if box["top"] < top - TOLERANCE or box["bottom"] > bottom + TOLERANCE:
            faults.append(
                f"{label} lies outside the page: y {box['top']:.0f}–{box['bottom']:.0f},"
                f" reachable {top:.0f}–{bottom:.0f}"
            )
        if max(abs(v) for v in box.values()) >= ERROR_BOX_EXTENT - TOLERANCE:
            faults.append(f"{label} is laid out beyond {ERROR_BOX_EXTENT:,} px (an error box)")
    # Down a scrollable: no screenful without anything on it (before the first node, between
    # two, after the last): that is an error box or a lost control pushing the rest away.
    for scroller_id, spans in by_scroller.items():
        s = scrollers[scroller_id]
        screen = s["clientHeight"]
        if screen <= 0:
            continue
        spans.sort()
        reached, after, unknown = 0.0, "its top", False
        for start, end, label, clipped in spans:
            if start - reached > screen and not unknown:
                faults.append(
                    f"nothing on {start - reached:.0f} px of {s['name'][:30]!r}'s scrolling"
                    f" (a screen is {screen} px) between {after} and {label}"
                )
            if end >= reached:
                reached, after, unknown = end, label, clipped
        extent = max(s["scrollHeight"], screen)
        if extent - reached > screen and not unknown:
            faults.append(
                f"nothing on the last {extent - reached:.0f} px of {s['name'][:30]!r}'s"
                f" scrolling (a screen is {screen} px), after {after}"
            )
    return faults


def _cut_at_an_edge(box: dict, width: float) -> bool:
    at_left, at_right = box["left"] <= 0.5, box["right"] >= width - 0.5
    return at_left != at_right  # one side only: a full-width node is a bar, not a cut text


# Waits, inside the page, until the screen is still, then reads its boxes (`_NODES_JS`): a
# cheap signature of the accessibility tree (each node's box, scroll position, children and
# label), again `gapMs` later in an animation frame (after Flutter's own, which it had asked
# for before: a route's slide, a dialog's fade, an update the server just sent are drawn, and
# their accessibility nodes updated, in Flutter's frame callback), until two agree or
# `limitMs` is over.
_STILL_JS = (
    """
async ([gapMs, limitMs]) => {
  const read = """
    + _NODES_JS.strip()
    + """;
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const signature = () => Array.from(document.querySelectorAll('[id^="flt-semantic-node-"]'),
    (e) => { const r = e.getBoundingClientRect();
      return [e.id, r.left, r.top, r.right, r.bottom, e.scrollTop, e.scrollLeft,
              e.childElementCount, e.getAttribute('aria-label')].join(','); }).join('|');
  const end = performance.now() + limitMs;
  let before = signature();
  while (performance.now() < end) {
    await new Promise((done) => setTimeout(done, gapMs));
    await frame();
    const now = signature();
    if (now === before) break;
    before = now;
  }
  return read();
}
"""
)
SETTLE_GAP_MS = 100  # between two signatures of the screen that must agree
SETTLE_QUIET_S = 0.3  # since the last WebSocket frame: a second update comes within it
SETTLE_LIMIT_S = 3.0  # then the screen is judged as it is


def settled_layout(app: FlutterApp) -> dict:
    """The boxes of the screen `app` shows, once it has settled: two reads SETTLE_GAP_MS apart,
    the second in an animation frame, agree (nothing moved, appeared or went), and no WebSocket
    frame went to or came from the server for SETTLE_QUIET_S (every change of a Flet screen
    comes from the server as a frame; the app draws a screen in one update, a snack bar or a
    sync status in another). Replaces a fixed wait of 700 ms: a screen that is already still
    is judged after 0.2–0.3 s, one that is still moving or changing is waited for, at most
    SETTLE_LIMIT_S."""
    deadline = time.monotonic() + SETTLE_LIMIT_S
    while True:
        left_ms = max(0.0, deadline - time.monotonic()) * 1000
        layout = app.page.evaluate(_STILL_JS, [SETTLE_GAP_MS, left_ms])
        quiet = app.traffic.quiet_for()
        if quiet >= SETTLE_QUIET_S or time.monotonic() > deadline:
            return layout
        app.page.wait_for_timeout((SETTLE_QUIET_S - quiet) * 1000)


def layout_faults(app: FlutterApp, layout: dict | None = None) -> list[str]:
    """What is wrong with the layout of the screen `app` shows now (empty when nothing), or of
    `layout`, boxes read from it a moment ago."""
    faults = [f"Flutter reported an error: {error}" for error in app.client_errors.new()]
    return faults + geometry_faults(layout or app.page.evaluate(_NODES_JS))


def assert_laid_out(app: FlutterApp, where: str, settle_ms: int | None = None) -> None:
    """Fails when Flutter reported an error, or a control lies outside the page, on the screen
    `app` shows (`where` names it in the failure). Waits until the screen has settled (a
    route's slide, a dialog's fade: `settled_layout`; first `settle_ms` more, if given), then
    checks; a geometry fault must persist: the boxes are read again, a short moment apart,
    for up to 3 s while it shows."""
    if settle_ms:
        app.page.wait_for_timeout(settle_ms)
    faults = layout_faults(app, settled_layout(app))
    deadline = time.monotonic() + 3.0
    # Boxes read during an animation can be mid-way: a geometry fault must persist.
    while faults and time.monotonic() < deadline:
        if any(f.startswith("Flutter reported") for f in faults):
            break
        app.page.wait_for_timeout(300)
        faults = layout_faults(app)
    assert not faults, f"layout faults on {where} ({app.size}):\n  " + "\n  ".join(faults)

"""The stored look, known before a web session starts (issue 22, item 5).

The first view must show the judge's stored language, theme and text size (a judge who chose
English never sees a Japanese screen first), and on a first start the device's languages.
Asked through the session, they cost a round trip after the register answer, which the client
answers only once it has painted an empty page: 0.1-0.5 s before the first view could even be
built. In the web mode the page itself knows them: a script in the page (SCRIPT, added to
Flet's index.html as it is served) copies them from the browser's localStorage, where
SharedPreferences keeps them, and from `navigator.languages` into a cookie, which the browser
sends with the session's WebSocket. The server (views/server.py) hands the cookie's look to
`before_main` (views/app.py), which builds the first view into the register answer itself.

The cookie is a copy made at each page load, not a store: the stored preferences stay the one
source, and are still read after the first view (the bookmarks and the history, and a look
that changed meanwhile). A cookie that is missing, too long or unreadable means "unknown":
the app then asks the client as before (the desktop window and the phone package have no
cookie, and always do). Its values are read like any stored value (views/state.py): a
corrupt one is its setting's default.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from .state import KEY_LANGUAGE, KEY_TEXT_SCALE, KEY_THEME

COOKIE = "penalty_guide_look"
LOOK_KEYS = (KEY_LANGUAGE, KEY_THEME, KEY_TEXT_SCALE)
MAX_COOKIE_CHARS = 2_000  # the script sends far less (values over 64 characters are left out)
MAX_LOCALES = 20

# SharedPreferences on the web keeps each value JSON-encoded under "flutter." + its key.
SCRIPT = (
    "<script>(function(){try{var s={},k=KEYS,i,v;"
    "for(i=0;i<k.length;i++){v=localStorage.getItem('flutter.'+k[i]);"
    "if(v!==null&&v.length<=64)s[k[i]]=v;}"
    "var l=(navigator.languages||[]).slice(0,MAX);"
    "document.cookie='NAME='+encodeURIComponent(JSON.stringify({s:s,l:l}))"
    "+';path=/;SameSite=Strict';}catch(e){}})();</script>"
)
SCRIPT = SCRIPT.replace("KEYS", json.dumps(list(LOOK_KEYS))).replace("MAX", str(MAX_LOCALES))
SCRIPT = SCRIPT.replace("NAME", COOKIE)
SCRIPT_AT = b"<!-- fletAppConfig -->"  # where Flet's index.html takes the app's own scripts


@dataclass(frozen=True)
class BrowserLook:
    """What the page sent: the stored look's raw values (by key), the browser's languages."""

    stored: dict[str, object]
    locales: list[str]


# The look sent with the WebSocket whose messages are being handled (set by views/server.py
# for each connection; the tasks that handle its messages inherit it).
_SENT: contextvars.ContextVar[BrowserLook | None] = contextvars.ContextVar(
    "browser_look", default=None
)


def sent_look() -> BrowserLook | None:
    """The look the connection's page sent, or None (no cookie, not the web, unreadable)."""
    return _SENT.get()


def follow(headers: Iterable[tuple[bytes, bytes]]) -> None:
    """Notes the look in a WebSocket request's `headers` for the connection's handling."""
    cookies = b"; ".join(value for name, value in headers if bytes(name).lower() == b"cookie")
    _SENT.set(look_from_cookies(cookies.decode("latin-1")))


def look_from_cookies(header: str) -> BrowserLook | None:
    """The look in a Cookie header, or None when it holds none that can be read."""
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return _parse(value)
    return None


def _parse(value: str) -> BrowserLook | None:
    if len(value) > MAX_COOKIE_CHARS:
        return None
    try:
        sent = json.loads(unquote(value))
    except (ValueError, RecursionError):
        return None
    if not isinstance(sent, dict):
        return None
    raw, locales = sent.get("s"), sent.get("l")
    if not isinstance(raw, dict) or not isinstance(locales, list):
        return None
    stored = {key: _decoded(raw[key]) for key in LOOK_KEYS if key in raw}
    return BrowserLook(
        stored=stored, locales=[tag for tag in locales[:MAX_LOCALES] if isinstance(tag, str)]
    )


def _decoded(value: object) -> object:
    """A value as SharedPreferences keeps it on the web (JSON text); anything else as it is,
    for views/state.py to refuse."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def with_script(html: bytes) -> bytes:
    """Flet's index.html with SCRIPT before the app's scripts (at the end of its head)."""
    script = SCRIPT.encode()
    if SCRIPT_AT in html:
        return html.replace(SCRIPT_AT, script + SCRIPT_AT, 1)
    return html.replace(b"</head>", script + b"</head>", 1)

"""Which in-app backs become the browser's own Back (views/browser_back.py, issue 20 item 14):
only where the browser's previous entry is known to be the screen the app goes back to."""

from __future__ import annotations

from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

from views.browser_back import BrowserHistory


def history(web: bool = True) -> tuple[BrowserHistory, list[Coroutine[Any, Any, None]]]:
    spawned: list[Coroutine[Any, Any, None]] = []
    page: Any = SimpleNamespace(web=web)
    return BrowserHistory(page, spawned.append), spawned


def close(spawned: list[Coroutine[Any, Any, None]]) -> None:
    for work in spawned:
        work.close()  # not run: no client here


def test_a_back_to_the_entry_below_is_the_browsers_back() -> None:
    browser, spawned = history()
    browser.reattached("/tiers")
    browser.pushed("/categories")
    browser.pushed("/categories/play")
    browser.pushed("/categories/play")  # the same address again adds no entry
    assert browser.back_to("/categories")
    assert browser.entries == ["/tiers", "/categories"] and len(spawned) == 1
    assert browser.back_to("/tiers")
    assert not browser.back_to("/")  # nothing known below: the app pushes
    assert len(spawned) == 2
    close(spawned)


def test_a_back_elsewhere_or_off_the_web_pushes() -> None:
    browser, spawned = history()
    browser.reattached("/log")
    browser.pushed("/log/new")
    browser.pushed("/log/records/x")  # the saved form's record (the form left the app's history)
    assert not browser.back_to("/log")
    native, ran = history(web=False)
    native.reattached("/tiers")
    native.pushed("/categories")
    assert not native.back_to("/tiers")
    assert spawned == ran == []


def test_the_browsers_own_moves() -> None:
    browser, spawned = history()
    browser.reattached("/tiers")
    browser.pushed("/categories")
    browser.pushed("/categories/play")
    browser.moved("/categories")  # its Back
    assert browser.entries == ["/tiers", "/categories"]
    browser.moved("/search")  # Forward, or an address typed: only the current entry is known
    assert browser.entries == ["/search"]
    assert not browser.back_to("/tiers")
    browser.reattached(None)  # a reloaded tab, its address not yet known
    assert browser.entries == []
    assert spawned == []

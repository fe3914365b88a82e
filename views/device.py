"""The judge's device: what it keeps for the app (its stored preferences: SharedPreferences, the
browser's localStorage on the web), what it tells the app at start (its languages), and its
vibration (the round clock's calls, views/ticker.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import flet as ft

from .state import KEYS

# Seconds to wait for the client's stored settings and languages before starting on defaults.
CLIENT_TIMEOUT = 2.0

Stored = dict[str, object]


@dataclass(frozen=True)
class Services:
    """The device's services: its stored preferences and its vibration."""

    prefs: ft.SharedPreferences
    haptic: ft.HapticFeedback


def register_services() -> Services:
    """Registers the services with the current page. Made before the page's first state reaches
    the client (views/app.py, before_main), they go out with it, in the register answer: made
    later, each was a patch of its own that the client handled before the stored settings
    could be asked for (issue 22, item 5)."""
    return Services(ft.SharedPreferences(), ft.HapticFeedback())


class Device:
    def __init__(
        self,
        page: ft.Page,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        services: Services | None = None,
    ) -> None:
        self.page = page
        self._spawn = spawn
        services = services or register_services()
        # Strong references: the page drops services nothing else refers to.
        self.prefs = services.prefs
        self.haptic = services.haptic

    async def ask(self, late: Callable[[Stored], None]) -> tuple[Stored, list[str]]:
        """The stored settings and the device's languages, asked at once. A client that does
        not answer in time (a tab that outlived a server restart never does) gets the
        defaults: the app starts regardless, and stored values that arrive later go to
        `late`."""
        stored, locales = await self._in_time(late, languages=True)
        return ({} if stored is None else stored), locales

    async def read(self, stored: Callable[[Stored], None]) -> None:
        """The stored settings alone, handed to `stored` when they come (a first view built
        on the look the page sent waits for nothing): as `ask`, without the languages."""
        values, _ = await self._in_time(stored, languages=False)
        if values is not None:
            stored(values)

    async def _in_time(
        self, late: Callable[[Stored], None], languages: bool
    ) -> tuple[Stored | None, list[str]]:
        """The stored settings (and the languages) that came within CLIENT_TIMEOUT; settings
        that did not are None here, and are asked again and handed to `late` when they come.
        Languages that did not come are none."""
        prefs = asyncio.ensure_future(self._read())
        locales = asyncio.ensure_future(self._locales()) if languages else None
        await asyncio.wait([f for f in (prefs, locales) if f is not None], timeout=CLIENT_TIMEOUT)
        if not prefs.done():
            self._spawn(self._read_late(prefs, late))
        return (
            prefs.result() if prefs.done() else None,
            locales.result() if locales is not None and locales.done() else [],
        )

    async def _read(self) -> Stored:
        values = await asyncio.gather(
            *(self.prefs.get(key) for key in KEYS), return_exceptions=True
        )
        # A broken store must not stop the app: an unreadable value is its default.
        return {
            k: None if isinstance(v, BaseException) else v
            for k, v in zip(KEYS, values, strict=True)
        }

    async def _read_late(self, first: asyncio.Future, late: Callable[[Stored], None]) -> None:
        """The stored values for a start that could not wait for them. A tab that outlived a
        server restart never answers the first preferences service, whose id its old page
        already had, but does answer a new one (seen in Chromium, Flet 1.0.5): ask again
        through a new one; the first answer wins."""
        self.prefs = ft.SharedPreferences()
        second = asyncio.ensure_future(self._read())
        done, _pending = await asyncio.wait((first, second), return_when=asyncio.FIRST_COMPLETED)
        late(done.pop().result())

    async def _locales(self) -> list[str]:
        try:
            info = await self.page.get_device_info()
        except Exception:  # an odd answer means no preference
            return []
        locales = getattr(info, "locales", None) or []
        return ["_".join(p for p in (loc.language_code, loc.country_code) if p) for loc in locales]

    def save(self, values: dict[str, str]) -> None:
        """Stores `values` in the background."""

        async def save() -> None:
            try:
                for key, value in values.items():
                    await self.prefs.set(key, value)
            except Exception:  # a tab gone, a store refusing: the value stays in memory and
                pass  # is saved with the next change of it

        self._spawn(save())

    def vibrate(self) -> None:
        """A heavy haptic impact: Android and iOS apps vibrate; in a browser Flutter calls
        navigator.vibrate (Chrome on Android); desktops have nothing and ignore it."""

        async def buzz() -> None:
            try:
                await self.haptic.heavy_impact()
                await self.haptic.vibrate()
            except Exception:  # no vibrator, a tab gone: the visible change remains
                pass

        self._spawn(buzz())

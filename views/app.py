"""The Flet entry point: the data, loaded once per process, then a shell (views/shell.py) for
each session (each tab of the web mode)."""

from __future__ import annotations

import functools

import flet as ft

from regulation.catalog import Catalog
from regulation.finder import Finder, load_finder
from regulation.loader import english_catalog, load_regulation
from regulation.model import Regulation
from regulation.situation_model import verify_situation_model

from .device import Services, register_services
from .shell import Shell
from .stored_look import sent_look
from .theme import apply_theme


@functools.cache
def app_data() -> tuple[Regulation, Finder, Catalog]:
    """The data every session shows, loaded and checked once per process: it never changes
    while the app runs. main.py asks for it before anything is served or a window opens (a
    fault is then one line, and no session starts on broken data); every session, each tab of
    the web mode, then shares it. Raises RegulationError (or OSError)."""
    catalog = english_catalog()
    regulation = load_regulation(catalog=catalog)
    # The situation model's weights: whole, as trained and for this regulation; they are read
    # with the search index, off the start-up path.
    verify_situation_model(entry.id for entry in regulation.entries())
    return regulation, load_finder(regulation, catalog), catalog


async def main(page: ft.Page) -> None:
    """The Flet entry point: the data (once per process), then the shell (made already when
    its first view went out with the register answer: before_main)."""
    shell = page.data
    if not isinstance(shell, Shell):
        services = page.data if isinstance(page.data, Services) else None  # from before_main
        shell = Shell(page, *app_data(), services=services)
        page.data = shell  # keeps the shell (and its preferences service) alive with the page
    await shell.start()


def before_main(page: ft.Page) -> None:
    """Runs before the page's first state reaches the client: its look (first_look), and the
    device's services, which go out with that state too (views/device.py). When the page sent
    the stored look with its WebSocket (the web mode: views/stored_look.py), the session's
    shell and its first view are made here too, and go out in the same answer; otherwise the
    page holds the services until main() hands them to the shell, which asks the device."""
    first_look(page)
    services = register_services()
    look = sent_look()
    if look is None:
        page.data = services
        return
    shell = Shell(page, *app_data(), services=services)
    page.data = shell
    shell.begin(look.stored, look.locales)


def first_look(page: ft.Page) -> None:
    """The theme and its font, there from the first frame, and theme changes not animated:
    otherwise Flutter web lays text out for a few frames in the default Roboto and asks for
    Noto fallback fonts. (bench/bench_first_screen.py's hello-world gets the same look.)"""
    apply_theme(page, "system")
    page.theme_animation_style = ft.AnimationStyle.no_animation()

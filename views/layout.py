"""The page around a screen: app bar, bottom bar (phones) or rail and list pane (wide windows,
arranged by views/wide.py).

The shell decides what to show (views/shell.py); this module only arranges it.
"""

from __future__ import annotations

import flet as ft

from . import routes
from . import strings as S
from .context import Context, Screen
from .screens import Destination
from .widgets import icon_button


def page_view(
    ctx: Context,
    path: str,
    screen: Screen,
    destinations: tuple[Destination, ...],
    tab: int,
    can_go_back: bool,
) -> ft.View:
    """One view of a phone's page (a wide window's is views/wide.py), or a full-screen one."""
    if screen.full_screen:  # handed to a player: the screen alone, its own way back
        return ft.View(route=path, controls=[screen.body], padding=0)
    return ft.View(
        route=path,
        appbar=app_bar(ctx, screen, can_go_back),
        navigation_bar=navigation_bar(ctx, destinations, tab),
        controls=[ft.Container(screen.body, padding=12, expand=True)],
        padding=0,
    )


def app_bar(ctx: Context, screen: Screen, can_go_back: bool) -> ft.AppBar:
    actions: list[ft.Control] = []
    if screen.bookmark_id:
        entry_id = screen.bookmark_id
        marked = entry_id in ctx.state.bookmarks
        actions.append(
            icon_button(
                ft.Icons.STAR if marked else ft.Icons.STAR_BORDER,
                ctx.ui(S.REMOVE_BOOKMARK if marked else S.ADD_BOOKMARK),
                on_click=lambda _: ctx.actions.toggle_bookmark(entry_id),
            )
        )
    actions.append(language_button(ctx))
    actions.append(
        icon_button(
            ft.Icons.SETTINGS_OUTLINED,
            ctx.ui(S.SETTINGS_TITLE),
            on_click=lambda _: ctx.actions.navigate(routes.SETTINGS.link()),
        )
    )
    return ft.AppBar(
        title=ft.Text(screen.title, size=ctx.sizes.heading, max_lines=2),
        actions=actions,
        automatically_imply_leading=can_go_back,
    )


def language_button(ctx: Context) -> ft.Control:
    """One tap between Japanese and English, labelled in the language it switches to."""
    other = "en" if ctx.lang == "ja" else "ja"
    label = ctx.text(S.LANG_EN if other == "en" else S.LANG_JA).pick(other)
    return ft.TextButton(
        content=ft.Text(label, size=ctx.sizes.body),
        icon=ft.Icons.TRANSLATE,
        tooltip=ctx.ui(S.SWITCH_LANGUAGE),
        on_click=lambda _: ctx.actions.change_settings(language=other),
    )


def _go_to(ctx: Context, destinations: tuple[Destination, ...], index: int) -> None:
    ctx.actions.navigate(destinations[index].root.link())


def navigation_bar(
    ctx: Context, destinations: tuple[Destination, ...], tab: int
) -> ft.NavigationBar:
    return ft.NavigationBar(
        destinations=[
            ft.NavigationBarDestination(
                icon=d.icon, selected_icon=d.selected_icon, label=ctx.ui_short(d.label)
            )
            for d in destinations
        ],
        selected_index=tab,
        on_change=lambda e: _go_to(ctx, destinations, int(e.control.selected_index or 0)),
    )


def navigation_rail(
    ctx: Context, destinations: tuple[Destination, ...], tab: int
) -> ft.NavigationRail:
    return ft.NavigationRail(
        destinations=[
            ft.NavigationRailDestination(
                icon=d.icon, selected_icon=d.selected_icon, label=ctx.ui_short(d.label)
            )
            for d in destinations
        ],
        selected_index=tab,
        label_type=ft.NavigationRailLabelType.ALL,
        on_change=lambda e: _go_to(ctx, destinations, int(e.control.selected_index or 0)),
    )

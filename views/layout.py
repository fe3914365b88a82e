"""The page around a screen: app bar, bottom bar (phones) or rail and list pane (wide windows).

The shell decides what to show (views/app.py); this module only arranges it.
"""

from __future__ import annotations

import math
import unicodedata

import flet as ft

from . import routes
from . import strings as S
from .context import Context, Screen
from .screens import Destination
from .theme import MASTER_PANE_WIDTH, TypeScale
from .widgets import icon_button


def page_view(
    ctx: Context,
    path: str,
    screen: Screen,
    destinations: tuple[Destination, ...],
    tab: int,
    can_go_back: bool,
    master: Screen | None = None,
) -> ft.View:
    """One view of the page. On wide windows (`ctx.state.wide`) `master` is the list shown
    beside `screen`; when it is None, `screen` is itself the list and the detail pane waits."""
    if screen.full_screen:  # handed to a player: the screen alone, its own way back
        return ft.View(route=path, controls=[screen.body], padding=0)
    appbar = app_bar(ctx, screen, can_go_back)
    if not ctx.state.wide:
        return ft.View(
            route=path,
            appbar=appbar,
            navigation_bar=navigation_bar(ctx, destinations, tab),
            controls=[ft.Container(screen.body, padding=12, expand=True)],
            padding=0,
        )
    if screen.full_width:  # the round clock: big digits, nothing beside them
        return ft.View(
            route=path,
            appbar=appbar,
            controls=[
                ft.Row(
                    [
                        navigation_rail(ctx, destinations, tab),
                        ft.VerticalDivider(width=1),
                        ft.Container(screen.body, expand=True, padding=16),
                    ],
                    expand=True,
                    vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                )
            ],
            padding=0,
        )
    if master is None:
        master = screen
        detail: ft.Control = ft.Container(
            ft.Text(ctx.ui(screen.detail_hint or S.SELECT_AN_ITEM), size=ctx.sizes.body),
            alignment=ft.Alignment.CENTER,
        )
    else:
        detail = screen.body
    return ft.View(
        route=path,
        appbar=appbar,
        controls=[
            ft.Row(
                [
                    navigation_rail(ctx, destinations, tab),
                    ft.VerticalDivider(width=1),
                    ft.Container(master.body, width=MASTER_PANE_WIDTH, padding=12),
                    ft.VerticalDivider(width=1),
                    ft.Container(detail, expand=True, padding=16),
                ],
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ],
        padding=0,
    )


# Widths in the app bar, px (Material's): an icon button, the back arrow's slot, the title's
# margins. The least height of the bar, and what a page that has not said its width is taken as.
ACTION_WIDTH = 48
LEADING_WIDTH = 56
TITLE_MARGINS = 32
TOOLBAR_HEIGHT = 56
PHONE_WIDTH = 390
LATIN_EM = 0.62  # a Latin letter's width in the bundled font, at most, in ems (a CJK one: 1)


def text_ems(text: str) -> float:
    """`text`'s width in ems, on the generous side."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else LATIN_EM for c in text)


def title_lines(text: str, width: float, size: float) -> int:
    """The lines `text` needs at `size` px in `width` px, estimated on the generous side (plus
    room for lines broken between words rather than inside them)."""
    per_line = max(width / size - 1, 1.0)
    return max(1, math.ceil(text_ems(text) * 1.05 / per_line))


def app_bar(ctx: Context, screen: Screen, can_go_back: bool) -> ft.AppBar:
    """The title whole at any text size: the bar grows by as many lines as the title needs (at
    175 % a phone's titles were cut after two lines, "故意で…"). The title is at most the usual
    heading size: the screen's body says what it shows in the judge's own size."""
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
    size = min(ctx.sizes.heading, TypeScale().heading)
    taken: float = ACTION_WIDTH * len(actions) + TITLE_MARGINS
    if ctx.state.wide:  # the language button's label beside its icon
        taken += text_ems(language_label(ctx)) * ctx.sizes.body + 16
    if can_go_back:
        taken += LEADING_WIDTH
    lines = title_lines(screen.title, (ctx.state.width or PHONE_WIDTH) - taken, size)
    return ft.AppBar(
        title=ft.Text(screen.title, size=size, max_lines=lines),
        actions=actions,
        automatically_imply_leading=can_go_back,
        toolbar_height=max(TOOLBAR_HEIGHT, math.ceil(lines * size * 1.4 + 16)),
    )


def language_label(ctx: Context) -> str:
    """The language button's label: the language it switches to, in that language."""
    other = "en" if ctx.lang == "ja" else "ja"
    return ctx.text(S.LANG_EN if other == "en" else S.LANG_JA).pick(other)


def language_button(ctx: Context) -> ft.Control:
    """One tap between Japanese and English, labelled in the language it switches to; on a
    phone its icon alone (its tooltip names it): the label took the title's room."""
    other = "en" if ctx.lang == "ja" else "ja"
    name = ctx.ui(S.SWITCH_LANGUAGE)
    return ft.TextButton(
        content=ft.Text(language_label(ctx), size=ctx.sizes.body) if ctx.state.wide else None,
        # The icon alone is named for screen readers and the keyboard (its tooltip is not).
        icon=ft.Icon(ft.Icons.TRANSLATE, semantics_label=None if ctx.state.wide else name),
        tooltip=name,
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

"""Bookmarks and recently viewed entries, kept on the device."""

from __future__ import annotations

import flet as ft

from .. import strings as S
from ..context import Context, Screen
from ..widgets import entry_row, heading, scrolling_column


def saved_screen(ctx: Context) -> Screen:
    regulation = ctx.regulation
    bookmarks = [e for e in map(regulation.entry, ctx.state.bookmarks) if e]
    recent = [e for e in map(regulation.entry, ctx.state.recent) if e]
    controls: list[ft.Control] = [heading(ctx, S.BOOKMARKS)]
    controls += [entry_row(ctx, e) for e in bookmarks] or [
        ft.Text(ctx.ui(S.NO_BOOKMARKS), size=ctx.sizes.body)
    ]
    controls.append(
        ft.Row(
            [
                heading(ctx, S.RECENT),
                ft.TextButton(
                    ctx.ui(S.CLEAR_RECENT),
                    icon=ft.Icons.DELETE_SWEEP,
                    on_click=lambda _: ctx.actions.clear_recent(),
                    disabled=not recent,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )
    )
    controls += [entry_row(ctx, e) for e in recent] or [
        ft.Text(ctx.ui(S.NO_RECENT), size=ctx.sizes.body)
    ]
    return Screen(title=ctx.ui(S.SAVED_TITLE), body=scrolling_column(controls, spacing=4))

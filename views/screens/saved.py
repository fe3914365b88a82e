"""Bookmarks and recently viewed entries, kept on the device: shown where a search starts."""

from __future__ import annotations

import flet as ft

from .. import strings as S
from ..context import Context
from ..widgets import entry_row, heading, text_button


def saved_controls(ctx: Context) -> list[ft.Control]:
    """The bookmarks, then the recently viewed entries (with a way to clear them)."""
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
                text_button(
                    ctx,
                    S.CLEAR_RECENT,
                    kind=ft.TextButton,
                    icon=ft.Icons.DELETE_SWEEP,
                    on_click=lambda _: ctx.actions.clear_recent(),
                    disabled=not recent,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            wrap=True,
        )
    )
    controls += [entry_row(ctx, e) for e in recent] or [
        ft.Text(ctx.ui(S.NO_RECENT), size=ctx.sizes.body)
    ]
    return controls

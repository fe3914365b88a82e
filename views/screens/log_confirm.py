"""A question before a change that is hard to take back (delete a record, remove a round).

Closing the dialog and changing the log are two steps: the choice closes this very dialog (not
whichever is on top: a snack bar may be), and `on_confirm` runs once Flutter reports the dialog
gone (`on_dismiss`). Done in one handler, the redraw raced the dialog's closing and could leave
it on screen with every tap ignored (issue 20, item 1). Escape and a tap beside it cancel."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .. import strings as S
from ..context import Context
from ..widgets import text_button
from .log_parts import ERROR_COLOR


def confirm(
    ctx: Context,
    question: str,
    detail: str,
    action: str,
    on_confirm: Callable[[], None],
    icon: ft.IconData = ft.Icons.DELETE,
) -> None:
    """Asks `question` (with `detail`); `action` (a message id) labels the red button."""
    chosen: list[bool] = []

    def close(confirmed: bool) -> None:
        if chosen:
            return  # a second tap while the dialog fades
        chosen.append(confirmed)
        dialog.open = False
        dialog.update()

    def dismissed(_: ft.Event) -> None:
        if chosen and chosen[0]:
            on_confirm()

    dialog = ft.AlertDialog(
        modal=False,
        title=ft.Text(question, size=ctx.sizes.heading),
        content=ft.Text(detail, size=ctx.sizes.body),
        actions=[
            text_button(ctx, S.CANCEL, kind=ft.TextButton, on_click=lambda _: close(False)),
            text_button(
                ctx,
                action,
                kind=ft.FilledButton,
                icon=icon,
                style=ft.ButtonStyle(bgcolor=ERROR_COLOR, color="#FFFFFF"),
                on_click=lambda _: close(True),
            ),
        ],
        on_dismiss=dismissed,
    )
    ctx.actions.show_dialog(dialog)

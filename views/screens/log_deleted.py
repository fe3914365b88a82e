"""The tournament's deleted records, newest first: each opens its record page, and each can be
restored from here at once. A deletion is never the end of a record (issue 20, item 1)."""

from __future__ import annotations

import flet as ft

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..widgets import scrolling_column, text_button
from .log_parts import (
    change_log,
    fault_screen,
    open_store,
    record_row,
)

LIMIT = 200  # deletions are rare; a tournament with more is shown its newest 200


def deleted_screen(ctx: Context, route: Route) -> Screen:
    title = ctx.ui(S.LOG_DELETED_TITLE)
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, title)
    event = store.current_event()
    records = store.records(event.id, only_deleted=True, limit=LIMIT)
    controls: list[ft.Control] = [
        ft.Text(ctx.ui(S.LOG_EVENT_LINE, name=event.name), size=ctx.sizes.small)
    ]
    if not records:
        controls.append(ft.Text(ctx.ui(S.LOG_DELETED_EMPTY), size=ctx.sizes.body))
    for record in records:
        row = record_row(ctx, record, 1)  # a deleted record counts in no one's repeats

        def restore(_: ft.Event, record_id: str = record.id) -> None:
            change_log(ctx, lambda: store.restore_record(record_id), ctx.ui(S.RECORD_RESTORED))

        row.trailing = text_button(
            ctx, S.RECORD_RESTORE, kind=ft.TextButton, icon=ft.Icons.RESTORE, on_click=restore
        )
        controls.append(row)
    return Screen(title=title, body=scrolling_column(controls, spacing=4))

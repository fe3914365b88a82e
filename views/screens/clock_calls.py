"""A judge call's stopwatch and extensions: "judge call at table T" starts it, "play resumes"
stops it and proposes the elapsed time rounded up to the minute, which the judge confirms or
edits; an extension by hand (+N minutes, a deck check); the record form's and the record page's
parts (start a call, stop it for a record made during it, "time extension +3 min").

A running call is the session's (`ctx.logbook.calls`): its start instant and table, kept while
the judge moves between screens; the extension it becomes is stored like the rest of the clock.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import flet as ft

from records.clock import countdown, extension_minutes, stopwatch_minutes
from records.errors import InvalidInput, LogError
from records.model import Record
from records.store import LogStore, now_local

from .. import strings as S
from ..context import Context
from ..widgets import text_button
from .log_parts import change_log, round_label


def now() -> datetime:
    """The current instant (tests replace it: a fake clock)."""
    return now_local()


def to_the_second() -> datetime:
    """Now, without the fraction: what "start now" stores, as a judge would type it."""
    return now().replace(microsecond=0)


def clock_change(ctx: Context, change: Callable[[], object], done: str) -> None:
    """A change of the round clock from a screen: saved and said, or why not said (a pause
    before the start, a round started meanwhile on another screen) and nothing changed."""
    try:
        change_log(ctx, change, done)
    except InvalidInput as exc:
        ctx.actions.notify(ctx.ui(S.SAVE_FAILED, reason=str(exc)))


@dataclass(frozen=True, slots=True)
class RunningCall:
    event_id: str
    round: int
    table: str
    started_at: datetime

    def elapsed(self, at: datetime) -> str:
        return countdown((at - self.started_at).total_seconds()).lstrip("+")


def running_calls(ctx: Context, event_id: str) -> list[RunningCall]:
    return [c for c in ctx.logbook.calls.values() if c.event_id == event_id]


def start_call(ctx: Context, event_id: str, round_number: int, table: str) -> RunningCall:
    label = unicodedata.normalize("NFKC", table).strip()
    call = RunningCall(event_id, round_number, label, now())
    ctx.logbook.calls[label] = call
    return call


def table_field(ctx: Context, value: str = "") -> ft.TextField:
    return ft.TextField(
        label=ctx.ui(S.CLOCK_CALL_TABLE),
        value=value,
        text_size=ctx.sizes.body,
        keyboard_type=ft.KeyboardType.NUMBER,
        width=round(200 * ctx.sizes.scale),
        dense=True,
    )


def ask_call(ctx: Context, event_id: str, round_number: int) -> None:
    """The clock screen's "judge call": which table, then the stopwatch runs."""
    field = table_field(ctx)

    def go(_: ft.Event) -> None:
        if not (field.value or "").strip():
            field.error = ctx.ui(S.CLOCK_BAD_TABLE)
            field.update()
            return
        call = start_call(ctx, event_id, round_number, field.value or "")
        ctx.actions.close_dialog()
        ctx.actions.refresh()
        ctx.actions.notify(ctx.ui(S.CLOCK_CALL_STARTED, table=call.table))

    field.on_submit = go
    ctx.actions.show_dialog(
        ft.AlertDialog(
            modal=True,
            title=ft.Text(ctx.ui(S.CLOCK_CALL), size=ctx.sizes.heading),
            content=field,
            actions=[
                text_button(
                    ctx, S.CANCEL, kind=ft.TextButton, on_click=lambda _: ctx.actions.close_dialog()
                ),
                text_button(
                    ctx, S.CLOCK_CALL_START, kind=ft.FilledButton, icon=ft.Icons.TIMER, on_click=go
                ),
            ],
        )
    )


def ask_extension(
    ctx: Context,
    store: LogStore,
    event_id: str,
    round_number: int,
    *,
    call: RunningCall | None = None,
    record: Record | None = None,
) -> None:
    """The extension to confirm: a stopped call's minutes (rounded up), or typed by hand."""
    stopped = now()
    proposed = stopwatch_minutes(call.started_at, stopped) if call else None
    table = table_field(ctx, call.table if call else (record.table if record else "") or "")
    minutes = ft.TextField(
        label=ctx.ui(S.CLOCK_EXTENSION_MINUTES),
        value=str(proposed) if proposed else "",
        text_size=ctx.sizes.body,
        keyboard_type=ft.KeyboardType.NUMBER,
        width=round(200 * ctx.sizes.scale),
        dense=True,
    )
    content: list[ft.Control] = []
    if call is not None:
        content.append(
            ft.Text(ctx.ui(S.CLOCK_CALL_LASTED, elapsed=call.elapsed(stopped)), size=ctx.sizes.body)
        )
    content += [table, minutes]

    def confirm(_: ft.Event) -> None:
        label = unicodedata.normalize("NFKC", table.value or "").strip()
        if not label:
            table.error = ctx.ui(S.CLOCK_BAD_TABLE)
            table.update()
            return
        try:
            count = extension_minutes(int(unicodedata.normalize("NFKC", minutes.value or "")))
        except (ValueError, InvalidInput):
            minutes.error = ctx.ui(S.CLOCK_BAD_MINUTES)
            minutes.update()
            return
        ctx.actions.close_dialog()

        def save() -> None:
            store.round_clock.extend(
                event_id, round_number, label, count, record.id if record else None
            )
            if call is not None:
                ctx.logbook.calls.pop(call.table, None)

        try:
            change_log(ctx, save, ctx.ui(S.CLOCK_EXTENSION_ADDED, table=label, minutes=count))
        except InvalidInput:
            ctx.actions.notify(ctx.ui(S.CLOCK_NEEDS_START))

    minutes.on_submit = confirm
    ctx.actions.show_dialog(
        ft.AlertDialog(
            modal=True,
            title=ft.Text(
                ctx.ui(S.CLOCK_EXTENSION_FOR, table=table.value or "…"), size=ctx.sizes.heading
            ),
            content=ft.Column(content, tight=True, spacing=12),
            actions=[
                text_button(
                    ctx, S.CANCEL, kind=ft.TextButton, on_click=lambda _: ctx.actions.close_dialog()
                ),
                text_button(
                    ctx,
                    S.CLOCK_CONFIRM,
                    kind=ft.FilledButton,
                    icon=ft.Icons.CHECK,
                    on_click=confirm,
                ),
            ],
        )
    )


# -- the record form and the record page ----------------------------------------------------------


def form_call_button(
    ctx: Context, store: LogStore, table: ft.TextField, round_number: int | None
) -> ft.Control | None:
    """The record form's "judge call": starts the stopwatch for the table typed in the form
    (the round must have started; None when none has)."""
    try:
        event = store.current_event()
        clock = store.round_clock.current(event.id)
    except LogError:
        return None
    if clock is None:
        return None
    number = round_number or clock.number

    def go(_: ft.Event) -> None:
        if not (table.value or "").strip():
            table.error = ctx.ui(S.CLOCK_BAD_TABLE)
            table.update()
            return
        call = start_call(ctx, event.id, number, table.value or "")
        ctx.actions.notify(ctx.ui(S.CLOCK_CALL_STARTED, table=call.table))

    return text_button(ctx, S.CLOCK_CALL, icon=ft.Icons.TIMER, on_click=go)


def record_clock_parts(ctx: Context, store: LogStore, record: Record) -> list[ft.Control]:
    """On a record's page: its time extensions, and, while a call runs at its table (or any
    call, when the record has no table), the offer to stop the stopwatch for this record."""
    parts: list[ft.Control] = []
    try:
        linked = store.round_clock.extensions_of_record(record.id)
    except LogError:
        return parts
    for number, extension in linked:
        parts.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.MORE_TIME),
                    ft.Text(
                        ctx.ui(
                            S.RECORD_EXTENSION,
                            minutes=extension.minutes,
                            round=round_label(ctx, number),
                            table=extension.table,
                        ),
                        size=ctx.sizes.body,
                        weight=ft.FontWeight.BOLD,
                        expand=True,
                    ),
                ]
            )
        )
    if record.deleted:
        return parts
    calls = running_calls(ctx, record.event_id)
    if record.table:
        calls = [c for c in calls if c.table == record.table]
    for call in calls[:1]:
        parts.append(
            ft.Container(
                ft.Column(
                    [
                        ft.Text(
                            ctx.ui(
                                S.CLOCK_RECORD_DURING_CALL,
                                table=call.table,
                                elapsed=call.elapsed(now()),
                            ),
                            size=ctx.sizes.body,
                        ),
                        text_button(
                            ctx,
                            S.CLOCK_STOP_FOR_RECORD,
                            kind=ft.FilledTonalButton,
                            icon=ft.Icons.TIMER_OFF,
                            on_click=lambda _, call=call: ask_extension(
                                ctx, store, call.event_id, call.round, call=call, record=record
                            ),
                        ),
                    ],
                    tight=True,
                ),
                border=ft.Border.all(2, "#F9A825"),
                border_radius=8,
                padding=12,
            )
        )
    return parts

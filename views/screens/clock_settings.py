"""The round clock's part of the tournament settings (views/screens/log_event.py shows it):
the length of a round (50 minutes unless changed), and per round its own length, its start
(now, or a typed time: a correction), pause and resume."""

from __future__ import annotations

import unicodedata
from datetime import datetime

import flet as ft

from records.clock import RoundClock, parse_instant, round_minutes
from records.errors import InvalidInput
from records.model import Event
from records.store import LogStore

from .. import strings as S
from ..context import Context
from ..widgets import WHOLE_LINES, heading, icon_button
from . import clock_calls
from .log_parts import round_label


def round_clock_settings(ctx: Context, store: LogStore, event: Event) -> list[ft.Control]:
    clocks = store.round_clock
    default = clocks.default_minutes(event.id)
    length = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.EVENT_DEFAULT_MINUTES),
        value=str(default),
        text_size=ctx.sizes.body,
        keyboard_type=ft.KeyboardType.NUMBER,
        width=round(220 * ctx.sizes.scale),
        dense=True,
    )

    def save_default(_: ft.Event) -> None:
        minutes = _minutes(ctx, length)
        if minutes is None or minutes == default:
            return
        clock_calls.clock_change(
            ctx, lambda: clocks.set_default_minutes(event.id, minutes), ctx.ui(S.SAVED)
        )

    length.on_submit = save_default
    length.on_blur = save_default
    numbers = sorted({r.number for r in event.rounds} | {c.number for c in clocks.rounds(event.id)})
    return [
        heading(ctx, S.EVENT_CLOCK),
        ft.Text(ctx.ui(S.EVENT_CLOCK_HINT), size=ctx.sizes.small),
        length,
        *(clock_row(ctx, store, event, clocks.round(event.id, n)) for n in numbers),
    ]


def _minutes(ctx: Context, field: ft.TextField) -> int | None:
    """The minutes typed, or None after marking the field (blank: None, no mark)."""
    text = unicodedata.normalize("NFKC", field.value or "").strip()
    if not text:
        return None
    try:
        return round_minutes(int(text))
    except (ValueError, InvalidInput):
        field.error = ctx.ui(S.CLOCK_BAD_MINUTES)
        field.update()
        return None


def clock_row(ctx: Context, store: LogStore, event: Event, clock: RoundClock) -> ft.Control:
    clocks = store.round_clock
    label = round_label(ctx, clock.number)
    own = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.EVENT_ROUND_MINUTES),
        value=str(clock.minutes),
        text_size=ctx.sizes.body,
        keyboard_type=ft.KeyboardType.NUMBER,
        width=round(110 * ctx.sizes.scale),
        dense=True,
    )
    start = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.EVENT_ROUND_START),
        hint_text="13:00",
        value=clock.started_at.astimezone().strftime("%H:%M:%S") if clock.started_at else "",
        text_size=ctx.sizes.body,
        width=round(130 * ctx.sizes.scale),
        dense=True,
    )

    def save_length(_: ft.Event) -> None:
        minutes = _minutes(ctx, own)
        if minutes is None or minutes == clock.minutes:
            return
        clock_calls.clock_change(
            ctx,
            lambda: clocks.set_round_minutes(event.id, clock.number, minutes),
            ctx.ui(S.EVENT_CLOCK_SAVED, round=label),
        )

    def save_start(_: ft.Event) -> None:
        text = (start.value or "").strip()
        if not text:
            return
        base = clock.started_at.astimezone() if clock.started_at else _event_day(event)
        try:
            moment = parse_instant(text, base, "start")
        except InvalidInput:
            start.error = ctx.ui(S.EVENT_BAD_TIME)
            start.update()
            return
        if moment == clock.started_at:
            return
        clock_calls.clock_change(
            ctx,
            lambda: clocks.start(event.id, clock.number, moment),
            ctx.ui(S.EVENT_CLOCK_STARTED, round=label),
        )

    def start_now(_: ft.Event) -> None:
        clock_calls.clock_change(
            ctx,
            lambda: clocks.start(event.id, clock.number, clock_calls.to_the_second()),
            ctx.ui(S.EVENT_CLOCK_STARTED, round=label),
        )

    def pause_or_resume(_: ft.Event) -> None:
        if clock.paused_at(clock_calls.now()):
            clock_calls.clock_change(
                ctx,
                lambda: clocks.resume(event.id, clock.number, clock_calls.now()),
                ctx.ui(S.EVENT_CLOCK_RESUMED, round=label),
            )
        else:
            clock_calls.clock_change(
                ctx,
                lambda: clocks.pause(event.id, clock.number, clock_calls.now()),
                ctx.ui(S.EVENT_CLOCK_PAUSED, round=label),
            )

    own.on_submit = own.on_blur = save_length
    start.on_submit = start.on_blur = save_start
    controls: list[ft.Control] = [
        ft.Text(label, size=ctx.sizes.body, weight=ft.FontWeight.BOLD, width=64 * ctx.sizes.scale),
        own,
        start,
        icon_button(ft.Icons.PLAY_ARROW, ctx.ui(S.CLOCK_START, round=label), start_now),
    ]
    if clock.started:
        paused = clock.paused_at(clock_calls.now())
        controls.append(
            icon_button(
                ft.Icons.PLAY_CIRCLE if paused else ft.Icons.PAUSE_CIRCLE,
                f"{label}: {ctx.ui(S.CLOCK_RESUME if paused else S.CLOCK_PAUSE)}",
                pause_or_resume,
            )
        )
    return ft.Row(controls, wrap=True, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _event_day(event: Event) -> datetime:
    """Now, on the tournament's day (a start typed as 13:00 is that day's)."""
    moment = clock_calls.now()
    if event.date is None:
        return moment
    return moment.replace(year=event.date.year, month=event.date.month, day=event.date.day)

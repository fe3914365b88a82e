"""The round clock (時計 / Clock): the current round's remaining time in digits readable from two
metres, its end time and number; running judge calls; the end-of-round list of tables on extra
time. Everything shown is computed from the stored instants (records/clock.py) at the moment of
drawing: a screen that slept, a reload or another device shows the same time.

While the screen is on top the shell's ticker calls `ClockFace.tick` once a second
(views/ticker.py); it changes only the texts that changed. At 10 minutes, 5 minutes and time the
panel changes colour and words and the device vibrates where it can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import flet as ft

from records.clock import RoundClock, TableEnd, countdown, warning_level
from records.errors import LogError
from records.model import Event
from records.store import LogStore

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..theme import CALL_COLOR, CLOCK_COLORS
from ..widgets import heading, scrolling_column, text_button
from . import clock_calls
from .clock_calls import (
    RunningCall,
    call_starter,
    confirm_panel,
    extension_by_hand,
    running_calls,
    stop_call,
)
from .log_parts import fault_screen, local_time, open_store, round_label


@dataclass(frozen=True, slots=True)
class Look:
    background: str | None  # None: the theme's surface
    foreground: str | None
    words: str | None  # message id


# By warning level (records/clock.py warning_level): over 10 min left, 10 or less, 5 or less, time.
# Colour is never the only signal: the words change too. Foregrounds give at least 4.5:1 contrast.
LOOKS = (
    Look(ft.Colors.SURFACE_CONTAINER_HIGHEST, None, None),
    Look(CLOCK_COLORS[0].background, CLOCK_COLORS[0].foreground, S.CLOCK_LEFT_10),
    Look(CLOCK_COLORS[1].background, CLOCK_COLORS[1].foreground, S.CLOCK_LEFT_5),
    Look(CLOCK_COLORS[2].background, CLOCK_COLORS[2].foreground, S.CLOCK_TIME),
)
FINISHED_OPACITY = 0.45


def digits_size(ctx: Context, text: str) -> float:
    """Big enough to read from two metres, small enough to fit: 5 characters (49:59) at the
    full size, longer texts (+1:02:03) smaller."""
    full = 200.0 if ctx.state.wide else 92.0
    return round(full * min(1.0, 5.5 / max(5, len(text))), 1)


def next_delay(remaining: float | None, calls: list[RunningCall], at: datetime) -> float:
    """Seconds until a shown number next changes (just after the whole second)."""
    delays = [1.0]
    if remaining is not None:
        if remaining >= 0:
            fraction = remaining - math.floor(remaining)
            delays.append(fraction if fraction > 0 else 1.0)
        else:
            over = -remaining
            delays.append(1.0 - (over - math.floor(over)))
    for call in calls:
        elapsed = (at - call.started_at).total_seconds()
        delays.append(1.0 - (elapsed - math.floor(elapsed)))
    return min(delays) + 0.01


class ClockFace:
    """The digits panel and the running calls' stopwatches; `tick` keeps them current."""

    def __init__(self, ctx: Context, clock: RoundClock, calls: list[RunningCall]) -> None:
        self.ctx = ctx
        self.clock = clock
        self.calls = calls
        at = clock_calls.now()
        remaining = clock.remaining_seconds(at)
        self.level = warning_level(remaining)
        look = LOOKS[self.level]
        shown = countdown(remaining or 0)
        self.words = ft.Text(
            self._words(remaining, at),
            size=ctx.sizes.title,
            weight=ft.FontWeight.BOLD,
            color=look.foreground,
            text_align=ft.TextAlign.CENTER,
        )
        self.digits = ft.Text(
            shown,
            size=digits_size(ctx, shown),
            weight=ft.FontWeight.BOLD,
            color=look.foreground,
            text_align=ft.TextAlign.CENTER,
            no_wrap=True,
            semantics_label=ctx.ui(
                S.CLOCK_ROUND_DIGITS, round=round_label(ctx, clock.number), digits=shown
            ),
        )
        self.end = ft.Text(
            self._end(at),
            size=ctx.sizes.title,
            color=look.foreground,
            text_align=ft.TextAlign.CENTER,
        )
        self.panel = ft.Container(
            ft.Column(
                [self.words, self.digits, self.end],
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                spacing=4,
                tight=True,
            ),
            bgcolor=look.background,
            border_radius=16,
            padding=ft.Padding.symmetric(vertical=16, horizontal=8),
            alignment=ft.Alignment.CENTER,
        )
        self.stopwatches = [
            ft.Text(call.elapsed(at), size=ctx.sizes.display, weight=ft.FontWeight.BOLD)
            for call in calls
        ]

    def _words(self, remaining: float | None, at: datetime) -> str:
        parts = []
        if remaining is not None and remaining < 0:
            parts.append(self.ctx.ui(S.CLOCK_OVERTIME))
        else:
            words = LOOKS[warning_level(remaining)].words
            if words:
                parts.append(self.ctx.ui(words))
        if self.clock.paused_at(at):
            parts.append(self.ctx.ui(S.CLOCK_PAUSED))
        parts.insert(0, round_label(self.ctx, self.clock.number))
        return " · ".join(parts)

    def _end(self, at: datetime) -> str:
        ends = self.clock.ends_at(at)
        return self.ctx.ui(S.CLOCK_ENDS_AT, time=local_time(ends)) if ends else ""

    def tick(self) -> float | None:
        """Once a second: the texts that changed, and only those, sent to the client."""
        at = clock_calls.now()
        remaining = self.clock.remaining_seconds(at)
        changed: list[ft.Control] = []
        shown = countdown(remaining or 0)
        if self.digits.value != shown:
            self.digits.value = shown
            self.digits.size = digits_size(self.ctx, shown)
            changed.append(self.digits)
        level = warning_level(remaining)
        redraw_panel = level != self.level
        if redraw_panel:
            look = LOOKS[level]
            self.panel.bgcolor = look.background
            for text in (self.words, self.digits, self.end):
                text.color = look.foreground
            changed = [self.panel]  # the whole panel: its colours and texts
            if level > self.level:
                self.ctx.actions.vibrate()
            self.level = level
        for text, value in ((self.words, self._words(remaining, at)), (self.end, self._end(at))):
            if text.value != value:
                text.value = value
                if not redraw_panel:  # (controls compare by value: no `in` here)
                    changed.append(text)
        for call, text in zip(self.calls, self.stopwatches, strict=True):
            elapsed = call.elapsed(at)
            if text.value != elapsed:
                text.value = elapsed
                changed.append(text)
        for control in changed:
            control.update()
        return next_delay(remaining, self.calls, at)


def clock_screen(ctx: Context, route: Route) -> Screen:
    title = ctx.ui(S.NAV_CLOCK)  # short: the app bar holds it at the largest text size
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, title)
    try:
        event = store.current_event()
        clock = store.round_clock.current(event.id)
    except LogError:
        return fault_screen(ctx, title)
    if clock is None:
        return Screen(title, scrolling_column(not_started(ctx, store, event)), full_width=True)
    calls = [c for c in running_calls(ctx, event.id) if c.round == clock.number]
    face = ClockFace(ctx, clock, [c for c in calls if c.stopped_at is None])
    stopped = [c for c in calls if c.stopped_at is not None]
    controls: list[ft.Control] = [
        face.panel,
        pause_button(ctx, store, event, clock),
        call_starter(ctx, event.id, clock.number),
        *call_rows(ctx, store, face, stopped),
        extension_by_hand(ctx, store, event.id, clock.number),
        ft.Divider(),
        *end_of_round(ctx, store, event, clock, clock_calls.now()),
        ft.Divider(),
        next_round(ctx, store, event, clock),
    ]
    return Screen(title, scrolling_column(controls), tick=face.tick, full_width=True)


def settings_link(ctx: Context) -> ft.Control:
    return text_button(
        ctx,
        S.CLOCK_SETTINGS,
        kind=ft.TextButton,
        icon=ft.Icons.TUNE,
        on_click=lambda _: ctx.actions.navigate(routes.LOG_EVENT.link()),
    )


def not_started(ctx: Context, store: LogStore, event: Event) -> list[ft.Control]:
    numbers = [r.number for r in event.rounds]
    number = min(numbers) if numbers else 1
    clock = store.round_clock.round(event.id, number)
    label = round_label(ctx, number)
    return [
        ft.Text(ctx.ui(S.CLOCK_NO_ROUND), size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Text(
            ctx.ui(S.CLOCK_NOT_STARTED, round=label, minutes=clock.minutes), size=ctx.sizes.body
        ),
        start_button(ctx, store, event, number, kind=ft.FilledButton),
        settings_link(ctx),
    ]


def start_button(
    ctx: Context,
    store: LogStore,
    event: Event,
    number: int,
    kind: type[ft.FilledButton] | type[ft.OutlinedButton] = ft.OutlinedButton,
) -> ft.Control:
    label = round_label(ctx, number)

    def start(_: ft.Event) -> None:
        clock_calls.clock_change(
            ctx,
            lambda: store.round_clock.start(event.id, number, clock_calls.to_the_second()),
            ctx.ui(S.EVENT_CLOCK_STARTED, round=label),
        )

    return kind(
        content=ft.Text(ctx.ui(S.CLOCK_START, round=label), size=ctx.sizes.body),
        icon=ft.Icons.PLAY_ARROW,
        on_click=start,
    )


def pause_button(ctx: Context, store: LogStore, event: Event, clock: RoundClock) -> ft.Control:
    label = round_label(ctx, clock.number)
    paused = clock.paused_at(clock_calls.now())

    def pause_or_resume(_: ft.Event) -> None:
        if paused:
            clock_calls.clock_change(
                ctx,
                lambda: store.round_clock.resume(event.id, clock.number, clock_calls.now()),
                ctx.ui(S.EVENT_CLOCK_RESUMED, round=label),
            )
        else:
            clock_calls.clock_change(
                ctx,
                lambda: store.round_clock.pause(event.id, clock.number, clock_calls.now()),
                ctx.ui(S.EVENT_CLOCK_PAUSED, round=label),
            )

    return text_button(
        ctx,
        S.CLOCK_RESUME if paused else S.CLOCK_PAUSE,
        icon=ft.Icons.PLAY_ARROW if paused else ft.Icons.PAUSE,
        on_click=pause_or_resume,
    )


def call_rows(ctx: Context, store: LogStore, face: ClockFace, stopped: list[RunningCall]):
    """Each running call with its stopwatch and "play resumes"; each stopped one with the
    extension it proposes."""
    rows: list[ft.Control] = []
    for call, stopwatch in zip(face.calls, face.stopwatches, strict=True):
        rows.append(
            ft.Container(
                ft.Row(
                    [
                        ft.Column(
                            [
                                ft.Text(
                                    ctx.ui(S.CLOCK_CALL_RUNNING, table=call.table),
                                    size=ctx.sizes.body,
                                    weight=ft.FontWeight.BOLD,
                                ),
                                stopwatch,
                            ],
                            tight=True,
                            spacing=2,
                        ),
                        text_button(
                            ctx,
                            S.CLOCK_PLAY_RESUMES,
                            kind=ft.FilledButton,
                            icon=ft.Icons.TIMER_OFF,
                            on_click=lambda _, call=call: stop_call(ctx, call),
                        ),
                    ],
                    wrap=True,
                    spacing=12,
                    alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                border=ft.Border.all(2, CALL_COLOR),
                border_radius=8,
                padding=12,
            )
        )
    rows += [confirm_panel(ctx, store, call) for call in stopped]
    return rows


def end_of_round(
    ctx: Context, store: LogStore, event: Event, clock: RoundClock, at: datetime
) -> list[ft.Control]:
    """The tables still playing on extra time, by the time they end; finished ones greyed."""
    rows = clock.tables(at)
    controls: list[ft.Control] = [heading(ctx, S.CLOCK_TABLES)]
    if not rows:
        controls.append(ft.Text(ctx.ui(S.CLOCK_NO_TABLES), size=ctx.sizes.body))
        return controls
    controls += [table_row(ctx, store, event, clock, row) for row in rows]
    real_end = clock.real_end(at)
    if real_end is not None:
        controls.append(
            ft.Text(
                ctx.ui(S.CLOCK_REAL_END, time=local_time(real_end)),
                size=ctx.sizes.heading,
                weight=ft.FontWeight.BOLD,
            )
        )
    return controls


def table_row(
    ctx: Context, store: LogStore, event: Event, clock: RoundClock, row: TableEnd
) -> ft.Control:
    table = ctx.ui(S.CLOCK_TABLE, table=row.table)

    def finish(_: ft.Event) -> None:
        clock_calls.clock_change(
            ctx,
            lambda: store.round_clock.set_finished(event.id, clock.number, row.table),
            ctx.ui(S.CLOCK_MARKED_FINISHED, table=row.table),
        )

    trailing: ft.Control = (
        ft.Text(ctx.ui(S.CLOCK_FINISHED), size=ctx.sizes.body, italic=True)
        if row.finished
        else text_button(ctx, S.CLOCK_MARK_FINISHED, kind=ft.TextButton, on_click=finish)
    )
    return ft.Container(
        ft.Row(
            [
                ft.Text(table, size=ctx.sizes.heading, weight=ft.FontWeight.BOLD),
                ft.Text(ctx.ui(S.CLOCK_PLUS, minutes=row.minutes), size=ctx.sizes.body),
                ft.Text(
                    ctx.ui(S.CLOCK_TABLE_ENDS, time=local_time(row.ends_at)),
                    size=ctx.sizes.heading,
                ),
                trailing,
            ],
            wrap=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        opacity=FINISHED_OPACITY if row.finished else 1.0,
        padding=ft.Padding.symmetric(vertical=4),
    )


def next_round(ctx: Context, store: LogStore, event: Event, clock: RoundClock) -> ft.Control:
    return ft.Row(
        [start_button(ctx, store, event, clock.number + 1), settings_link(ctx)],
        wrap=True,
        spacing=8,
    )

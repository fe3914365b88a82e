"""The tournament's settings: its name and date, its rounds with their assembly times (what
"arrived now" is measured from), and switching to or creating another tournament."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time

import flet as ft

from records.errors import InvalidInput, LogError
from records.model import Event, Round
from records.store import LogStore, now_local

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..widgets import WHOLE_LINES, heading, icon_button, scrolling_column, text_button
from .clock_settings import round_clock_settings
from .log_confirm import confirm
from .log_parts import change_log, fault_screen, local_time, log_changed, open_store, round_label

TIME = re.compile(r"^(\d{1,2}):?(\d{2})$")


def parse_time(text: str) -> time | None:
    """13:00, 1300, 9:05, １３：００ → a time; anything else None."""
    folded = unicodedata.normalize("NFKC", text).strip()
    found = TIME.match(folded)
    if not found:
        return None
    hour, minute = int(found[1]), int(found[2])
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def parse_date(text: str) -> date | None:
    try:
        return date.fromisoformat(unicodedata.normalize("NFKC", text).strip())
    except ValueError:
        return None


def assembly_at(event: Event, clock: time) -> datetime:
    """The assembly time on the tournament's day (today when it has none), with the device's
    UTC offset."""
    day = event.date or now_local().date()
    return datetime.combine(day, clock).astimezone()


def event_screen(ctx: Context, route: Route) -> Screen:
    store = open_store(ctx)
    title = ctx.ui(S.EVENT_SETTINGS)
    if store is None:
        return fault_screen(ctx, title)
    event = store.current_event()
    controls: list[ft.Control] = [
        *details(ctx, store, event),
        ft.Divider(),
        *rounds(ctx, store, event),
        ft.Divider(),
        *round_clock_settings(ctx, store, event),  # views/screens/clock_settings.py
        ft.Divider(),
        *other_events(ctx, store, event),
    ]
    return Screen(title=title, body=scrolling_column(controls, spacing=10))


def details(ctx: Context, store: LogStore, event: Event) -> list[ft.Control]:
    name = ft.TextField(
        label=ctx.ui(S.EVENT_NAME),
        value=event.name,
        text_size=ctx.sizes.body,
        error_max_lines=WHOLE_LINES,
    )
    day = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.EVENT_DATE),
        value=event.date.isoformat() if event.date else "",
        text_size=ctx.sizes.body,
        width=220,
    )

    def save(_: ft.Event) -> None:
        text = (day.value or "").strip()
        parsed = parse_date(text) if text else None
        if text and parsed is None:
            day.error = ctx.ui(S.EVENT_BAD_DATE)
            day.update()
            return
        try:
            change_log(
                ctx, lambda: store.update_event(event.id, name.value or "", parsed), ctx.ui(S.SAVED)
            )
        except InvalidInput as exc:
            name.error = ctx.ui(
                S.EVENT_DUPLICATE
                if exc.reason == "duplicate"
                else S.EVENT_NAME_REQUIRED
                if exc.reason == "required"
                else S.FORM_INVALID
            )
            name.update()

    return [
        heading(ctx, S.EVENT_CURRENT),
        name,
        day,
        text_button(
            ctx,
            S.FORM_SAVE,
            kind=ft.FilledButton,
            icon=ft.Icons.SAVE,
            on_click=save,
        ),
    ]


def rounds(ctx: Context, store: LogStore, event: Event) -> list[ft.Control]:
    controls: list[ft.Control] = [
        heading(ctx, S.EVENT_ROUNDS),
        ft.Text(ctx.ui(S.EVENT_ROUNDS_HINT), size=ctx.sizes.small),
    ]
    for entry in event.rounds:
        controls.append(round_row(ctx, store, event, entry))

    def add(_: ft.Event) -> None:
        number = max((r.number for r in event.rounds), default=0) + 1
        change_log(ctx, lambda: store.set_round(event.id, number, None), ctx.ui(S.SAVED))

    controls.append(
        text_button(
            ctx,
            S.EVENT_ADD_ROUND,
            icon=ft.Icons.ADD,
            on_click=add,
        )
    )
    return controls


def round_row(ctx: Context, store: LogStore, event: Event, entry: Round) -> ft.Control:
    label = round_label(ctx, entry.number)
    field = ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.EVENT_ASSEMBLY),
        hint_text="13:00",
        value=local_time(entry.assembly_at) if entry.assembly_at else "",
        text_size=ctx.sizes.body,
        width=round(120 * ctx.sizes.scale),
        dense=True,
    )

    saved = [entry.assembly_at]  # what the store holds (submit and blur may both come)

    def set_time(moment: datetime | None) -> None:
        def save() -> None:
            store.set_round(event.id, entry.number, moment)
            saved[0] = moment

        change_log(ctx, save, ctx.ui(S.EVENT_ASSEMBLY_SET, round=label))

    def typed(_: ft.Event) -> None:
        text = (field.value or "").strip()
        if not text:
            if saved[0] is not None:
                set_time(None)
            return
        clock = parse_time(text)
        if clock is None:
            field.error = ctx.ui(S.EVENT_BAD_TIME)
            field.update()
            return
        moment = assembly_at(event, clock)
        if moment != saved[0]:
            set_time(moment)

    def now(_: ft.Event) -> None:
        set_time(now_local().replace(second=0, microsecond=0))

    def remove(_: ft.Event) -> None:
        """Asks first, saying how many records the round holds (they stay, with their
        round's number; only the round and its assembly time go)."""
        others = [r for r in event.rounds if r.number != entry.number]
        held = len(store.records(event.id, round_number=entry.number))
        confirm(
            ctx,
            ctx.ui(S.EVENT_REMOVE_ROUND_CONFIRM, round=label),
            ctx.ui(S.EVENT_REMOVE_ROUND_DETAIL, round=label, count=held),
            S.EVENT_REMOVE,
            lambda: change_log(ctx, lambda: store.set_rounds(event.id, others), ctx.ui(S.SAVED)),
            icon=ft.Icons.DELETE_OUTLINE,
        )

    field.on_submit = typed
    field.on_blur = typed
    return ft.Row(
        [
            ft.Text(
                label, size=ctx.sizes.body, weight=ft.FontWeight.BOLD, width=64 * ctx.sizes.scale
            ),
            field,
            icon_button(ft.Icons.SCHEDULE, ctx.ui(S.EVENT_ASSEMBLY_NOW, round=label), now),
            icon_button(ft.Icons.DELETE_OUTLINE, ctx.ui(S.EVENT_REMOVE_ROUND, round=label), remove),
        ],
        wrap=True,
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def other_events(ctx: Context, store: LogStore, current: Event) -> list[ft.Control]:
    controls: list[ft.Control] = [heading(ctx, S.EVENT_OTHERS)]
    for event in store.events():
        if event.id == current.id:
            continue

        def switch(_: ft.Event, event: Event = event) -> None:
            def save() -> None:
                store.set_current_event(event.id)
                ctx.logbook.pages = 1

            change_log(ctx, save, ctx.ui(S.EVENT_SWITCHED, name=event.name))

        controls.append(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.EVENT),
                title=ft.Text(event.name, size=ctx.sizes.body),
                subtitle=ft.Text(
                    event.date.isoformat() if event.date else "", size=ctx.sizes.small
                ),
                trailing=text_button(
                    ctx,
                    S.EVENT_SWITCH,
                    kind=ft.TextButton,
                    on_click=switch,
                ),
                content_padding=ft.Padding.symmetric(horizontal=4),
            )
        )
    if len(controls) == 1:
        controls.append(ft.Text(ctx.ui(S.EVENT_NO_OTHERS), size=ctx.sizes.small))
    name = ft.TextField(
        label=ctx.ui(S.EVENT_NEW_NAME), text_size=ctx.sizes.body, error_max_lines=WHOLE_LINES
    )

    def create(_: ft.Event) -> None:
        try:
            event = store.create_event(name.value or "", now_local().date())
            store.set_current_event(event.id)
        except InvalidInput as exc:
            name.error = ctx.ui(
                S.EVENT_DUPLICATE if exc.reason == "duplicate" else S.EVENT_NAME_REQUIRED
            )
            name.update()
            return
        except LogError as exc:
            ctx.actions.notify(ctx.ui(S.SAVE_FAILED, reason=str(exc)))
            return
        ctx.logbook.pages = 1
        log_changed(ctx, ctx.ui(S.EVENT_SWITCHED, name=event.name))

    controls += [
        heading(ctx, S.EVENT_NEW),
        name,
        text_button(
            ctx,
            S.EVENT_CREATE,
            icon=ft.Icons.ADD,
            on_click=create,
        ),
    ]
    return controls

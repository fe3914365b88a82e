"""A saved record: who, what, which tier, where; a repeat with the principle and the next tier
up; the match-slip line in Japanese and English to copy; edit, delete (confirmed), restore."""

from __future__ import annotations

import flet as ft

from records.model import Record
from records.slip import slip_line
from records.store import LogStore

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..widgets import (
    heading,
    icon_button,
    penalty_chip,
    penalty_label,
    scrolling_column,
    text_button,
)
from .clock_calls import record_clock_parts
from .log_confirm import confirm
from .log_parts import (
    ERROR_COLOR,
    change_log,
    fault_screen,
    infraction_title,
    local_time,
    official_note,
    open_store,
    place_label,
    player_label,
    player_route,
    repeat_notice,
    tier_of,
)
from .log_recorded import recorded_by_line
from .log_versions import versions_section


def record_screen(ctx: Context, route: Route) -> Screen | None:
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.RECORD_TITLE))
    record = store.record(route.item or "")
    if record is None:
        return None
    infraction = ctx.regulation.infraction(record.infraction_id)
    tier = tier_of(ctx, record.tier_id)
    event = store.event(record.event_id)
    controls: list[ft.Control] = []
    if record.deleted:
        controls.append(deleted_banner(ctx, store, record))
    controls.append(
        ft.TextButton(
            content=ft.Text(
                player_label(ctx, record.player), size=ctx.sizes.title, weight=ft.FontWeight.BOLD
            ),
            icon=ft.Icons.PERSON,
            tooltip=ctx.ui(S.RECORD_PLAYER_HISTORY),
            on_click=lambda _: ctx.actions.navigate(player_route(record.player)),
        )
    )
    if infraction is not None:
        controls.append(
            ft.TextButton(
                content=ft.Text(
                    ctx.shown(ctx.regulation.standalone_title(infraction)), size=ctx.sizes.heading
                ),
                icon=ft.Icons.MENU_BOOK,
                tooltip=ctx.ui(S.RECORD_OPEN_INFRACTION),
                on_click=lambda _: ctx.actions.navigate(routes.INFRACTION.link(infraction.id)),
            )
        )
    controls.append(
        ft.Row(
            [
                ft.Text(penalty_label(ctx), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
                penalty_chip(ctx, tier, clickable=True),
            ],
            wrap=True,
        )
    )
    if infraction is not None and infraction.penalty.id != tier.id:
        own = infraction.penalty
        controls.append(
            ft.Text(
                ctx.ui(S.FORM_TIER_CHANGED, tier=f"{own.letter} {ctx.pick(own.title)}"),
                size=ctx.sizes.body,
            )
        )
    note = official_note(ctx, tier.id)
    if note is not None:
        controls.append(note)
    facts = [place_label(ctx, record)] if place_label(ctx, record) else []
    if event is not None:
        facts.append(ctx.ui(S.LOG_EVENT_LINE, name=event.name))
    if record.arrived_at is not None:
        facts.append(arrival_line(ctx, record))
    facts.append(ctx.ui(S.RECORD_CREATED, time=local_time(record.created_at, with_date=True)))
    if record.updated_at != record.created_at:
        facts.append(ctx.ui(S.RECORD_UPDATED, time=local_time(record.updated_at, with_date=True)))
    facts.append(recorded_by_line(ctx, record) or "")  # venue sync
    controls += [ft.Text(fact, size=ctx.sizes.body) for fact in facts if fact]
    controls += record_clock_parts(ctx, store, record)  # views/screens/clock_calls.py
    if record.note:
        controls.append(
            ft.Container(
                ft.Text(record.note, size=ctx.sizes.body),
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                border_radius=6,
                padding=8,
            )
        )
    occurrence = 1
    if not record.deleted:
        repeat = store.repeats_of(record)
        occurrence = repeat.occurrence
        notice = repeat_notice(ctx, repeat, saved=True)
        if notice is not None:
            controls.append(notice)
    controls.append(heading(ctx, S.RECORD_SLIP))
    for lang, tooltip in (("ja", S.RECORD_COPY_JA), ("en", S.RECORD_COPY_EN)):
        controls.append(slip_row(ctx, slip_line(record, ctx.regulation, lang, occurrence), tooltip))
    if not record.deleted:
        controls.append(
            ft.Row(
                [
                    text_button(
                        ctx,
                        S.RECORD_EDIT,
                        icon=ft.Icons.EDIT,
                        on_click=lambda _: ctx.actions.navigate(routes.LOG_EDIT.link(record.id)),
                    ),
                    ft.OutlinedButton(
                        content=ft.Text(
                            ctx.ui(S.RECORD_DELETE), size=ctx.sizes.body, color=ERROR_COLOR
                        ),
                        icon=ft.Icons.DELETE_OUTLINE,
                        icon_color=ERROR_COLOR,
                        on_click=lambda _: confirm_delete(ctx, store, record),
                    ),
                ],
                wrap=True,
            )
        )
    history = versions_section(ctx, store, record)  # venue sync: earlier versions, by whom
    if history is not None:
        controls.append(history)
    return Screen(
        title=" ".join(record.player.name.split()),
        body=scrolling_column(controls, spacing=10),
    )


def arrival_line(ctx: Context, record: Record) -> str:
    """A tardiness record's evidence: when the player arrived, how long after the assembly."""
    assert record.arrived_at is not None
    arrived = record.arrived_at.astimezone().strftime("%H:%M:%S")
    if record.late_seconds is None:
        return ctx.ui(S.RECORD_ARRIVED, arrived=arrived)
    minutes, seconds = divmod(record.late_seconds, 60)
    return ctx.ui(S.RECORD_ARRIVED_LATE, arrived=arrived, minutes=minutes, seconds=seconds)


def slip_row(ctx: Context, line: str, tooltip: str) -> ft.Control:
    """A match-slip line and its copy button (the copy happens in the client, inside the tap:
    a browser allows the clipboard only there)."""
    copy = icon_button(
        ft.Icons.CONTENT_COPY,
        ctx.ui(tooltip),
        on_click=lambda _: ctx.actions.notify(ctx.ui(S.RECORD_COPIED, line=line)),
    )
    copy.action = ft.CopyToClipboard(line)
    return ft.Container(
        ft.Row(
            [ft.Text(line, size=ctx.sizes.body, expand=True), copy],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=6,
        padding=ft.Padding.only(left=10, right=2, top=2, bottom=2),
    )


def deleted_banner(ctx: Context, store: LogStore, record: Record) -> ft.Control:
    """Says the record is deleted, with a way back. The line and the button are stacked, not
    in a wrapping Row: an expanding Text in a Row(wrap=True) is a layout error in Flutter (its
    release build draws a 100,000 px grey box instead, pushing the page out of reach)."""

    def restore(_: ft.Event) -> None:
        change_log(ctx, lambda: store.restore_record(record.id), ctx.ui(S.RECORD_RESTORED))

    return ft.Container(
        ft.Column(
            [
                ft.Row(
                    [
                        ft.Icon(ft.Icons.DELETE_OUTLINE, color=ERROR_COLOR),
                        ft.Text(ctx.ui(S.RECORD_DELETED), size=ctx.sizes.body, expand=True),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
                text_button(
                    ctx,
                    S.RECORD_RESTORE,
                    kind=ft.FilledButton,
                    icon=ft.Icons.RESTORE,
                    on_click=restore,
                ),
            ],
            spacing=8,
            tight=True,
        ),
        border=ft.Border.all(2, ERROR_COLOR),
        border_radius=8,
        padding=12,
    )


def confirm_delete(ctx: Context, store: LogStore, record: Record) -> None:
    """Deleting asks first; the record stays as a tombstone: the message that says it was
    deleted offers to undo, and the log's deleted records list it until it is restored."""

    def delete() -> None:
        change_log(
            ctx,
            lambda: store.delete_record(record.id),
            ctx.ui(S.RECORD_DELETED_DONE),
            undo=lambda: change_log(
                ctx, lambda: store.restore_record(record.id), ctx.ui(S.RECORD_RESTORED)
            ),
        )

    confirm(
        ctx,
        ctx.ui(S.RECORD_DELETE_CONFIRM),
        ctx.ui(
            S.RECORD_DELETE_DETAIL,
            player=player_label(ctx, record.player),
            infraction=infraction_title(ctx, record.infraction_id),
        ),
        S.RECORD_DELETE,
        delete,
    )

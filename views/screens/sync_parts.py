"""What the sync screen and the log share about sharing: the log's status line (hosting / joined,
last synced / offline, waiting), the joined devices, times as "12 s ago", the judge name field,
large text to type from, a confirmation dialog."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import flet as ft

from records.errors import InvalidInput, LogError

from .. import routes
from .. import strings as S
from ..context import Context
from ..sync_link import is_offline, seconds_since, short_device
from ..theme import OK_COLOR
from ..widgets import WHOLE_LINES, heading, text_button
from .log_parts import ERROR_COLOR, WARNING_COLOR

if TYPE_CHECKING:
    from records.sync.service import SyncStatus


def update_quietly(*controls: ft.Control) -> None:
    """Sends controls that changed; one no longer on the page (a screen drawn afresh since a
    worker thread or the sync thread started) is left alone."""
    for control in controls:
        with contextlib.suppress(RuntimeError):
            control.update()


# -- times and names -----------------------------------------------------------------------------


def ago(ctx: Context, moment: datetime | None, now: datetime | None = None) -> str:
    """12 秒前 / 12 s ago, 3 分前, 2 時間前; "not synced yet" for None."""
    seconds = seconds_since(moment, now)
    if seconds is None:
        return ctx.ui(S.SYNC_NEVER)
    if seconds < 60:
        return ctx.ui(S.SYNC_SECONDS_AGO, count=int(seconds))
    if seconds < 3600:
        return ctx.ui(S.SYNC_MINUTES_AGO, count=int(seconds // 60))
    return ctx.ui(S.SYNC_HOURS_AGO, count=int(seconds // 3600))


def host_address(url: str | None) -> str:
    """The host as the status line names it: 192.168.43.1:8765."""
    if not url:
        return ""
    parts = urlsplit(url if "//" in url else f"//{url}")
    return parts.netloc or url


# The engine's problem codes (records/sync/status.py) → the line in the judge's language; an
# unknown code (a newer host) shows the engine's own line.
_PROBLEMS = {
    "unreachable": S.SYNC_PROBLEM_UNREACHABLE,
    "bad_answer": S.SYNC_PROBLEM_NOT_A_HOST,
    "wrong_code": S.SYNC_PROBLEM_WRONG_CODE,
    "old_code": S.SYNC_PROBLEM_OLD_CODE,
    "clock": S.SYNC_PROBLEM_CLOCK,
    "replay": S.SYNC_PROBLEM_REPLAY,
    "other_event": S.SYNC_PROBLEM_OTHER_EVENT,
    "malformed": S.SYNC_PROBLEM_REFUSED,
    "too_large": S.SYNC_PROBLEM_REFUSED,
    "bad_item": S.SYNC_PROBLEM_REFUSED,
    "bad_data": S.SYNC_PROBLEM_BAD_DATA,
    "rate_limited": S.SYNC_PROBLEM_RATE_LIMITED,
    "busy": S.SYNC_PROBLEM_BUSY,
    "not_joined": S.SYNC_PROBLEM_NOT_JOINED,
}


def problem_text(ctx: Context, code: str | None, line: str | None, host_url: str | None) -> str:
    """Why a sync did not happen, in the judge's language (the engine's `line`, English, as the
    detail of a refusal that names a field)."""
    msgid = _PROBLEMS.get(code or "")
    if msgid is None:
        return line or ""
    return ctx.ui(msgid, address=host_address(host_url), detail=line or "")


# -- the log's status line -------------------------------------------------------------------------


def status_text(ctx: Context, status: SyncStatus, now: datetime | None = None) -> str:
    """The log header's line: hosting (n devices joined) / joined to the host at ADDRESS,
    last synced N s ago / offline, M records waiting to be sent."""
    if status.role == "host":
        return ctx.ui(S.SYNC_STATUS_HOSTING, count=len(status.devices))
    if status.role == "joined":
        if is_offline(status, now):
            line = ctx.ui(S.SYNC_STATUS_OFFLINE, count=status.waiting)
        else:
            line = ctx.ui(
                S.SYNC_STATUS_JOINED,
                address=host_address(status.host_url),
                ago=ago(ctx, status.last_synced_at, now),
            )
            if status.waiting:
                line += " · " + ctx.ui(S.SYNC_STATUS_WAITING, count=status.waiting)
        if status.problem:
            line += "\n" + problem_text(ctx, status.problem_code, status.problem, status.host_url)
        return line
    return ctx.ui(S.SYNC_OPEN)


def status_icon(status: SyncStatus) -> ft.Icon:
    if status.role == "host":
        return ft.Icon(ft.Icons.WIFI_TETHERING, color=OK_COLOR)
    if status.role == "joined":
        if is_offline(status):
            return ft.Icon(ft.Icons.CLOUD_OFF, color=WARNING_COLOR)
        return ft.Icon(ft.Icons.CLOUD_DONE, color=OK_COLOR)
    return ft.Icon(ft.Icons.GROUPS)


def sync_bar(ctx: Context) -> ft.Control | None:
    """The log's header line about sharing, a way to the sync screen; kept up to date while
    sharing is on (views/sync_link.py). None when the log cannot be opened."""
    link = ctx.logbook.sync
    status = link.status()
    if status is None:
        return None
    icon = status_icon(status)
    text = link.line(ft.Text(size=ctx.sizes.body), lambda fresh: status_text(ctx, fresh))
    text.value = status_text(ctx, status)

    def redraw_icon(fresh: SyncStatus) -> None:
        shown = status_icon(fresh)
        if (shown.icon, shown.color) != (icon.icon, icon.color):
            icon.icon, icon.color = shown.icon, shown.color
            update_quietly(icon)

    if status.role != "off":
        link.watch(redraw_icon)
    # A button, not a ListTile: the log's rows are list tiles (records, players).
    return ft.TextButton(
        content=ft.Row(
            [icon, ft.Container(text, expand=True), ft.Icon(ft.Icons.CHEVRON_RIGHT)],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        on_click=lambda _: ctx.actions.navigate(routes.LOG_SYNC.link()),
        style=ft.ButtonStyle(
            color=ft.Colors.ON_SURFACE, padding=ft.Padding.symmetric(horizontal=8, vertical=4)
        ),
    )


# -- the sync screen's parts -----------------------------------------------------------------------


def large_text(ctx: Context, text: str) -> ft.Control:
    """An address or the join code, large, to be typed on another device."""
    return ft.Container(
        ft.Text(text, size=ctx.sizes.title * 1.3, weight=ft.FontWeight.BOLD),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=12, vertical=6),
    )


def device_label(ctx: Context, status: SyncStatus) -> ft.Text:
    """This device: its judge and its id."""
    return ft.Text(
        ctx.ui(
            S.SYNC_THIS_DEVICE,
            judge=status.judge or ctx.ui(S.UNKNOWN_JUDGE),
            device=short_device(status.device_id),
        ),
        size=ctx.sizes.small,
    )


class DevicesColumn:
    """The host's joined devices: each judge and when the device was last seen."""

    def __init__(self, ctx: Context, status: SyncStatus) -> None:
        self.ctx = ctx
        self.control = ft.Column(spacing=4)
        self._fill(status)

    def _fill(self, status: SyncStatus) -> None:
        ctx = self.ctx
        rows: list[ft.Control] = [
            ft.Text(
                ctx.ui(S.SYNC_DEVICES, count=len(status.devices)),
                size=ctx.sizes.heading,
                weight=ft.FontWeight.BOLD,
            )
        ]
        if not status.devices:
            rows.append(ft.Text(ctx.ui(S.SYNC_NO_DEVICES), size=ctx.sizes.body))
        for device in status.devices:
            rows.append(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.SMARTPHONE),
                        ft.Text(
                            ctx.ui(
                                S.SYNC_DEVICE_LINE,
                                judge=device.judge or ctx.ui(S.UNKNOWN_JUDGE),
                                device=short_device(device.device_id),
                                seen=ago(ctx, device.last_seen),
                            ),
                            size=ctx.sizes.body,
                            expand=True,
                        ),
                    ]
                )
            )
        self.control.controls = rows

    def redraw(self, status: SyncStatus) -> None:
        self._fill(status)
        update_quietly(self.control)


def devices_column(ctx: Context, status: SyncStatus) -> DevicesColumn:
    return DevicesColumn(ctx, status)


def judge_field(ctx: Context) -> ft.TextField:
    return ft.TextField(
        error_max_lines=WHOLE_LINES,
        hint_max_lines=WHOLE_LINES,
        label=ctx.ui(S.SYNC_JUDGE),
        prefix_icon=ft.Icons.BADGE,
        text_size=ctx.sizes.body,
        max_length=40,
    )


def confirm(
    ctx: Context,
    title: str,
    detail: str,
    action: str,
    then: Callable[[], Coroutine[Any, Any, None]],
) -> None:
    """Asks before something that stops other judges from syncing. The choice closes this
    very dialog (not "the topmost": a snack bar may be), and `then` runs once Flutter reports
    it gone: run at once, its redraw raced the dialog's closing and could leave the dialog on
    screen (seen in Chromium; branch logui found the same for deleting a record)."""
    chosen: list[bool] = []
    tasks: set[asyncio.Task[None]] = set()

    def close(confirmed: bool) -> None:
        if chosen:
            return  # a second tap while the dialog fades
        chosen.append(confirmed)
        dialog.open = False
        update_quietly(dialog)

    def dismissed(_: ft.Event) -> None:
        if chosen and chosen[0]:
            task: asyncio.Task[None] = asyncio.get_running_loop().create_task(then())
            tasks.add(task)  # a strong reference until it is done
            task.add_done_callback(tasks.discard)

    dialog = ft.AlertDialog(
        modal=True,
        title=ft.Text(ctx.ui(title), size=ctx.sizes.heading),
        content=ft.Text(detail, size=ctx.sizes.body),
        actions=[
            text_button(ctx, S.CANCEL, kind=ft.TextButton, on_click=lambda _: close(False)),
            text_button(
                ctx,
                action,
                kind=ft.FilledButton,
                style=ft.ButtonStyle(bgcolor=ERROR_COLOR, color=ft.Colors.ON_ERROR),
                on_click=lambda _: close(True),
            ),
        ],
        on_dismiss=dismissed,
    )
    ctx.actions.show_dialog(dialog)


def judge_setting(ctx: Context) -> list[ft.Control]:
    """The settings' judge name (each record carries it; asked once, here or when first
    hosting or joining) and the way to the sync screen; nothing when the log cannot open."""
    link = ctx.logbook.sync
    status = link.status()
    if status is None:
        return []
    field = judge_field(ctx)
    field.value = status.judge or ""

    def save(_: ft.Event) -> None:
        name = " ".join((field.value or "").split())
        try:
            link.service().set_judge(name)
        except InvalidInput:
            field.error = ctx.ui(S.SYNC_JUDGE_FIRST)
            field.update()
            return
        except LogError as exc:
            ctx.actions.notify(ctx.ui(S.SAVE_FAILED, reason=str(exc)))
            return
        field.error = None
        field.value = name
        field.update()
        link.status()
        ctx.actions.log_changed()
        ctx.actions.notify(ctx.ui(S.SYNC_JUDGE_SAVED, name=name))

    return [
        heading(ctx, S.SYNC_TITLE),
        field,
        ft.Text(ctx.ui(S.SYNC_JUDGE_HINT), size=ctx.sizes.small),
        text_button(ctx, S.SYNC_JUDGE_SAVE, icon=ft.Icons.SAVE, on_click=save),
        ft.ListTile(
            leading=status_icon(status),
            title=ft.Text(status_text(ctx, status), size=ctx.sizes.body),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda _: ctx.actions.navigate(routes.LOG_SYNC.link()),
        ),
    ]

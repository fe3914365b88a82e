"""The Judges' sync screen (ジャッジ間の共有): one log for the judge team over the venue's own
network (records/sync/ does the work; views/sync_link.py carries its news to the screens).

What a judge sees depends on this device's role:
- sharing off: the judge name, "host this event" (the head judge's device), "join a host"
  (address and code typed once; a local event's records may be moved into the shared one);
- hosting: the addresses and the join code in large text, the joined devices with their judges
  and when each was last seen, a new code, end hosting;
- joined: the host, when it last synced, what waits to be sent, a problem in one line (a
  replaced code: join again with the new one), sync now, leave.

What its buttons do: views/screens/sync_actions.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..widgets import heading, scrolling_column, text_button
from .log_parts import ERROR_COLOR, fault_screen, open_store
from .sync_actions import SyncActions
from .sync_parts import (
    ago,
    device_label,
    devices_column,
    large_text,
    problem_text,
    status_icon,
    update_quietly,
)

if TYPE_CHECKING:
    from records.sync.service import SyncStatus


def sync_screen(ctx: Context, route: Route) -> Screen:
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.SYNC_TITLE))
    return SyncScreen(ctx, store).screen()


class SyncScreen(SyncActions):
    """The screen, drawn for this device's role (the buttons' work: SyncActions)."""

    # -- the screen ------------------------------------------------------------------------------

    def screen(self) -> Screen:
        ctx = self.ctx
        status = self.link.status()
        assert status is not None  # the store is open
        if self.link.notice:  # a failure said just before this screen was drawn again
            self.show_message(self.link.notice, error=True)
            self.link.notice = None
        # News that changes what this screen is (joined, left, hosting ended, from another
        # tab or the engine) draws it again; the rest only updates its parts in place.

        def reshaped(fresh: SyncStatus) -> None:
            if fresh.role != status.role:
                ctx.actions.refresh()

        self.link.watch(reshaped)
        if status.role == "host":
            controls = self.hosting(status)
        elif status.role == "joined":
            controls = self.joined(status)
        else:
            controls = self.sharing_off(status)
        return Screen(title=ctx.ui(S.SYNC_TITLE), body=scrolling_column(controls, spacing=12))

    def sharing_off(self, status: SyncStatus) -> list[ft.Control]:
        ctx = self.ctx
        event = self.store.current_event()
        self.judge.value = status.judge or ""
        count = len(self.store.records(event.id, limit=10_000))
        controls: list[ft.Control] = [
            ft.Text(ctx.ui(S.SYNC_INTRO), size=ctx.sizes.body),
            self.message,
            self.judge,
            ft.Text(ctx.ui(S.SYNC_JUDGE_HINT), size=ctx.sizes.small),
            ft.Divider(),
            heading(ctx, S.SYNC_JOIN_HEADING),
            ft.Text(ctx.ui(S.SYNC_JOIN_HINT), size=ctx.sizes.small),
            self.address,
            self.code,
        ]
        if count:
            self.move = ft.Checkbox(
                label=ctx.ui(S.SYNC_MOVE, name=event.name, count=count),
                label_style=ft.TextStyle(size=ctx.sizes.body),
                value=False,
            )
            controls.append(self.move)
        controls.append(
            self.button(S.SYNC_JOIN, ft.Icons.LOGIN, self.join, kind=ft.FilledButton),
        )
        controls += [
            ft.Divider(),
            heading(ctx, S.SYNC_HOST_HEADING),
            ft.Text(ctx.ui(S.SYNC_HOST_HINT), size=ctx.sizes.small),
            self.button(
                S.SYNC_HOST_START,
                ft.Icons.WIFI_TETHERING,
                self.host,
                kind=ft.FilledTonalButton,
                label=ctx.ui(S.SYNC_HOST_START, name=event.name),
            ),
        ]
        return controls

    def hosting(self, status: SyncStatus) -> list[ft.Control]:
        ctx = self.ctx
        devices = devices_column(ctx, status)
        self.link.watch(devices.redraw)
        controls: list[ft.Control] = [
            ft.Row(
                [
                    status_icon(status),
                    ft.Text(
                        ctx.ui(S.SYNC_HOSTING, name=status.event_name or ""),
                        size=ctx.sizes.heading,
                        weight=ft.FontWeight.BOLD,
                        expand=True,
                    ),
                ]
            ),
            self.message,
            ft.Text(ctx.ui(S.SYNC_ADDRESSES), size=ctx.sizes.body),
            *(large_text(ctx, address) for address in status.addresses),
            ft.Text(ctx.ui(S.SYNC_CODE_SHOWN), size=ctx.sizes.body),
            large_text(ctx, status.code or ""),
            ft.Divider(),
            devices.control,
            ft.Divider(),
            device_label(ctx, status),
            ft.Row(
                [
                    self.button(S.SYNC_NEW_CODE, ft.Icons.PASSWORD, self.ask_new_code),
                    self.button(S.SYNC_STOP_HOSTING, ft.Icons.STOP_CIRCLE, self.ask_stop),
                ],
                wrap=True,
            ),
        ]
        return controls

    def joined(self, status: SyncStatus) -> list[ft.Control]:
        ctx = self.ctx
        last = self.link.line(
            ft.Text(size=ctx.sizes.body),
            lambda fresh: ctx.ui(S.SYNC_LAST, ago=ago(ctx, fresh.last_synced_at)),
        )
        waiting = self.link.line(
            ft.Text(size=ctx.sizes.body),
            lambda fresh: ctx.ui(S.SYNC_WAITING, count=fresh.waiting),
        )
        problem = self.link.line(
            ft.Text(size=ctx.sizes.body, color=ERROR_COLOR, weight=ft.FontWeight.BOLD),
            lambda fresh: problem_text(ctx, fresh.problem_code, fresh.problem, fresh.host_url),
        )
        problem.visible = bool(status.problem)
        self.link.redraw_lines()
        controls: list[ft.Control] = [
            ft.Row(
                [
                    status_icon(status),
                    ft.Text(
                        ctx.ui(S.SYNC_JOINED, name=status.event_name or ""),
                        size=ctx.sizes.heading,
                        weight=ft.FontWeight.BOLD,
                        expand=True,
                    ),
                ]
            ),
            self.message,
            ft.Text(ctx.ui(S.SYNC_HOST_AT, address=status.host_url or ""), size=ctx.sizes.body),
            last,
            waiting,
            problem,
            device_label(ctx, status),
            ft.Row(
                [
                    self.button(S.SYNC_NOW, ft.Icons.SYNC, self.sync_now, kind=ft.FilledButton),
                    self.button(S.SYNC_LEAVE, ft.Icons.LOGOUT, self.ask_leave),
                ],
                wrap=True,
            ),
        ]
        # Offered while there is a problem (the head judge issued a new code, or the host's
        # address changed): shown and hidden in place, never by drawing the screen again (a
        # button must not vanish under a judge's finger).
        self.address.value = status.host_url or ""
        rejoin = ft.Column(
            [
                ft.Divider(),
                heading(ctx, S.SYNC_REJOIN),
                self.address,
                self.code,
                self.button(S.SYNC_JOIN, ft.Icons.LOGIN, self.join, kind=ft.FilledTonalButton),
            ],
            spacing=12,
            visible=bool(status.problem),
        )

        def show_rejoin(fresh: SyncStatus) -> None:
            if rejoin.visible != bool(fresh.problem):
                rejoin.visible = bool(fresh.problem)
                problem.visible = bool(fresh.problem)
                update_quietly(rejoin, problem)

        self.link.watch(show_rejoin)
        controls.append(rejoin)
        return controls

    def button(
        self,
        message: str,
        icon: ft.IconData,
        on_click: Callable[[ft.Event], Any],
        *,
        kind: Any = ft.OutlinedButton,
        label: str | None = None,
    ) -> ft.Control:
        if label is None:
            control = text_button(self.ctx, message, icon=icon, on_click=on_click, kind=kind)
        else:  # a message with values
            control = kind(
                content=ft.Text(label, size=self.ctx.sizes.body), icon=icon, on_click=on_click
            )
        self.buttons.append(control)
        return control

"""The Judges' sync screen (ジャッジ間の共有): one log for the judge team over the venue's own
network (records/sync/ does the work; views/sync_link.py carries its news to the screens).

What a judge sees depends on this device's role:
- sharing off: the judge name, "host this event" (the head judge's device), "join a host"
  (address and code typed once; a local event's records may be moved into the shared one);
- hosting: the addresses and the join code in large text, the joined devices with their judges
  and when each was last seen, a new code, end hosting;
- joined: the host, when it last synced, what waits to be sent, a problem in one line (a
  replaced code: join again with the new one), sync now, leave.

Network calls run in a worker thread (`asyncio.to_thread`), never on the app's loop: a host out
of reach must not freeze the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from records.errors import InvalidInput, LogError
from records.store import LogStore

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..sync_link import host_options
from ..widgets import heading, scrolling_column, text_button
from .log_parts import ERROR_COLOR, fault_screen, open_store
from .sync_parts import (
    ago,
    confirm,
    device_label,
    devices_column,
    judge_field,
    large_text,
    status_icon,
    update_quietly,
)

if TYPE_CHECKING:
    from records.sync.service import SyncService, SyncStatus


def sync_screen(ctx: Context, route: Route) -> Screen:
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.SYNC_TITLE))
    return SyncScreen(ctx, store).screen()


class SyncScreen:
    """The screen's controls and what its buttons do."""

    def __init__(self, ctx: Context, store: LogStore) -> None:
        self.ctx = ctx
        self.store = store
        self.link = ctx.logbook.sync
        self.service: SyncService = self.link.service()
        self.message = ft.Text("", size=ctx.sizes.body, weight=ft.FontWeight.BOLD, visible=False)
        self.judge = judge_field(ctx)
        self.address = ft.TextField(
            label=ctx.ui(S.SYNC_ADDRESS),
            hint_text=ctx.ui(S.SYNC_ADDRESS_HINT),
            keyboard_type=ft.KeyboardType.URL,
            autocorrect=False,
            text_size=ctx.sizes.body,
        )
        self.code = ft.TextField(
            label=ctx.ui(S.SYNC_CODE),
            hint_text=ctx.ui(S.SYNC_CODE_HINT),
            capitalization=ft.TextCapitalization.CHARACTERS,
            autocorrect=False,
            text_size=ctx.sizes.body,
        )
        self.move: ft.Checkbox | None = None
        self.buttons: list[ft.Control] = []  # disabled while a network call runs

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
            lambda fresh: fresh.problem or "",
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

    # -- what the buttons do ---------------------------------------------------------------------

    async def host(self, _: ft.Event) -> None:
        if not self.judge_named():
            return
        event_id = self.store.current_event().id
        options = host_options()
        if await self.run(lambda: self.service.host(event_id, **options)) is not None:
            await self.started()

    async def join(self, _: ft.Event) -> None:
        ctx = self.ctx
        address = (self.address.value or "").strip()
        code = (self.code.value or "").strip()
        missing = False
        for field, value in ((self.address, address), (self.code, code)):
            field.error = None if value else ctx.ui(S.FORM_REQUIRED)
            missing = missing or not value
        if missing:
            self.update(self.address, self.code)
            return
        rejoining = self.link.last is not None and self.link.last.role == "joined"
        if not rejoining and not self.judge_named():
            return
        local = self.store.current_event()
        move = bool(self.move and self.move.value)
        result = await self.run(lambda: self.service.join(address, code))
        if result is None:
            return
        if not result.ok:
            self.say(S.SYNC_NOT_DONE, error=True, reason=result.problem or "")
            return
        status = await asyncio.to_thread(self.service.status)
        done = ctx.ui(
            S.SYNC_JOINED_DONE,
            name=status.event_name or "",
            pushed=result.pushed,
            pulled=result.pulled,
        )
        if status.event_id and self.store.current_event().id != status.event_id:
            shared = status.event_id
            await self.run(lambda: self.store.set_current_event(shared))
        if move and status.event_id and local.id != status.event_id:
            report = await self.run(lambda: self.service.move_into_shared(local.id))
            if report is not None:
                done += " · " + ctx.ui(S.SYNC_MOVED_DONE, **report.as_dict())
        await self.started(done)

    async def sync_now(self, _: ft.Event) -> None:
        result = await self.run(self.service.sync_now)
        if result is None:
            return
        if result.ok:
            self.ctx.actions.log_changed()
            self.ctx.actions.refresh()
            self.ctx.actions.notify(
                self.ctx.ui(S.SYNC_NOW_DONE, pushed=result.pushed, pulled=result.pulled)
            )
        else:
            status = await asyncio.to_thread(self.link.status)
            if status is None or status.problem != result.problem:  # else its line says it
                self.say(S.SYNC_NOT_DONE, error=True, reason=result.problem or "")
            else:
                self.message.visible = False
                self.update(self.message)
            self.link.redraw_lines()

    def ask_new_code(self, _: ft.Event) -> None:
        confirm(
            self.ctx,
            S.SYNC_NEW_CODE_CONFIRM,
            self.ctx.ui(S.SYNC_NEW_CODE_DETAIL),
            S.SYNC_NEW_CODE,
            self.new_code,
        )

    async def new_code(self) -> None:
        if await self.run(self.service.new_code) is not None:
            self.ctx.actions.refresh()
            self.ctx.actions.notify(self.ctx.ui(S.SYNC_NEW_CODE_DONE))

    def ask_stop(self, _: ft.Event) -> None:
        confirm(
            self.ctx,
            S.SYNC_STOP_CONFIRM,
            self.ctx.ui(S.SYNC_STOP_DETAIL),
            S.SYNC_STOP_HOSTING,
            self.stop,
        )

    async def stop(self) -> None:
        def stop_hosting() -> bool:
            self.service.stop_hosting()
            return True

        if await self.run(stop_hosting) is not None:
            await self.ended(S.SYNC_STOPPED)

    def ask_leave(self, _: ft.Event) -> None:
        waiting = self.link.last.waiting if self.link.last else 0
        confirm(
            self.ctx,
            S.SYNC_LEAVE_CONFIRM,
            self.ctx.ui(S.SYNC_LEAVE_DETAIL, count=waiting),
            S.SYNC_LEAVE,
            self.leave,
        )

    async def leave(self) -> None:
        def leave() -> bool:
            self.service.leave()
            return True

        if await self.run(leave) is not None:
            await self.ended(S.SYNC_LEFT)

    # -- helpers ---------------------------------------------------------------------------------

    def judge_named(self) -> bool:
        """The judge name, saved when typed or changed; said beside the field when missing."""
        ctx = self.ctx
        name = " ".join((self.judge.value or "").split())
        known = self.link.last.judge if self.link.last else None
        if not name:
            self.judge.error = ctx.ui(S.SYNC_JUDGE_FIRST)
            self.update(self.judge)
            return False
        if name != known:
            try:
                self.service.set_judge(name)
            except InvalidInput as exc:
                self.judge.error = str(exc)
                self.update(self.judge)
                return False
        self.judge.error = None
        self.update(self.judge)
        return True

    async def run(self, work: Callable[[], Any]) -> Any:
        """`work` in a worker thread, the buttons disabled meanwhile; its result, or None with
        one line said when the log refused (nothing changed then)."""
        self.say(S.SYNC_WORKING)
        self.enable(False)
        try:
            return await asyncio.to_thread(work)
        except LogError as exc:
            self.say(S.SYNC_NOT_DONE, error=True, reason=str(exc))
            return None
        finally:
            self.enable(True)

    async def started(self, done: str | None = None) -> None:
        """Hosting or joined: the background sync starts, the screens show the shared log."""
        await asyncio.to_thread(self.link.follow)
        self.ctx.logbook.pages = 1
        self.ctx.actions.log_changed()
        self.ctx.actions.refresh()
        if done:
            self.ctx.actions.notify(done)

    async def ended(self, done: str) -> None:
        self.link.unfollow()
        await asyncio.to_thread(self.link.status)
        self.ctx.actions.log_changed()
        self.ctx.actions.refresh()
        self.ctx.actions.notify(self.ctx.ui(done))

    def enable(self, on: bool) -> None:
        for button in self.buttons:
            button.disabled = not on
        self.update(*self.buttons)

    def say(self, message: str, error: bool = False, **values: object) -> None:
        """One line under the heading. A failure is kept for the screen drawn next (the news
        of a problem redraws it) until it has been shown once."""
        text = self.ctx.ui(message, **values)
        self.link.notice = text if error else None
        self.show_message(text, error)
        self.update(self.message)

    def show_message(self, text: str, error: bool) -> None:
        self.message.value = text
        self.message.color = ERROR_COLOR if error else None
        self.message.visible = True

    @staticmethod
    def update(*controls: ft.Control) -> None:
        update_quietly(*controls)

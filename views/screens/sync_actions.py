"""What the Judges' sync screen's buttons do (views/screens/sync.py draws it): host, join (the
judge name first, the offline records moved in), sync now, a new code, end hosting, leave, each
confirmed where it stops other judges, each saying in one line what happened or why not.

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
from ..context import Context
from ..sync_link import host_options
from ..widgets import WHOLE_LINES
from .log_parts import ERROR_COLOR
from .sync_parts import confirm, judge_field, problem_text, update_quietly

if TYPE_CHECKING:
    from records.sync.service import SyncResult, SyncService


class SyncActions:
    """The screen's fields and what its buttons do."""

    def __init__(self, ctx: Context, store: LogStore) -> None:
        self.ctx = ctx
        self.store = store
        self.link = ctx.logbook.sync
        self.service: SyncService = self.link.service()
        self.message = ft.Text("", size=ctx.sizes.body, weight=ft.FontWeight.BOLD, visible=False)
        self.judge = judge_field(ctx)
        self.address = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.SYNC_ADDRESS),
            hint_text=ctx.ui(S.SYNC_ADDRESS_HINT),
            keyboard_type=ft.KeyboardType.URL,
            autocorrect=False,
            text_size=ctx.sizes.body,
        )
        self.code = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.SYNC_CODE),
            hint_text=ctx.ui(S.SYNC_CODE_HINT),
            capitalization=ft.TextCapitalization.CHARACTERS,
            autocorrect=False,
            text_size=ctx.sizes.body,
        )
        self.move: ft.Checkbox | None = None
        self.buttons: list[ft.Control] = []  # disabled while a network call runs

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
            self.say(S.SYNC_NOT_DONE, error=True, reason=self.problem(result))
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

    def problem(self, result: SyncResult) -> str:
        return problem_text(self.ctx, result.problem_code, result.problem, result.host)

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
                self.say(S.SYNC_NOT_DONE, error=True, reason=self.problem(result))
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

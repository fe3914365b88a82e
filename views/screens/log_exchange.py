"""Export the current tournament (CSV for a spreadsheet, JSON for another device) and import
another device's JSON export (merged: a record counts once, the later edit wins).

How a file leaves and arrives, offline, with Flet 1.0.5's FilePicker service:

- Saving: `save_file(file_name=…, src_bytes=…)`. The client writes the bytes: a browser
  downloads them (web mode), Android and iOS ask where to keep them, a desktop opens its save
  dialog (on Linux through zenity). Where that fails, "write to the data folder" always works:
  both files go to `<data folder>/exports/`, their paths shown; and the JSON can be copied to
  the clipboard.
- Opening: `pick_files(with_data=True)`: the client reads the chosen file and sends its bytes,
  the same on every platform (a browser gives no path). Pasting an export's JSON works too.
"""

from __future__ import annotations

import re
from datetime import datetime

import flet as ft

from records.csv_export import export_csv
from records.errors import LogError
from records.exchange import (
    MAX_IMPORT_BYTES,
    event_export,
    json_bytes,
    parse_export,
)
from records.export_file import write_file
from records.model import Event
from records.store import LogStore, describe_fault, now_local

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..widgets import WHOLE_LINES, heading, scrolling_column, text_button
from .log_parts import ERROR_COLOR, fault_screen, open_store

UNSAFE = re.compile(r"[^\w-]+")  # \w is Unicode: a Japanese tournament name stays readable


def file_name(event: Event, kind: str, moment: datetime) -> str:
    """penalty-log-<tournament>-<date>T<time>.<kind>, safe on every file system."""
    name = UNSAFE.sub("_", event.name).strip("_")[:60] or "event"
    return f"penalty-log-{name}-{moment.strftime('%Y%m%dT%H%M%S')}.{kind}"


class Exchange:
    """The screen's controls and what its buttons do."""

    def __init__(self, ctx: Context, store: LogStore) -> None:
        self.ctx = ctx
        self.store = store
        self.event = store.current_event()
        self.status = ft.Text("", size=ctx.sizes.body, visible=False)
        self.switch = ft.TextButton(visible=False)
        self.paste = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.IMPORT_PASTE),
            multiline=True,
            min_lines=3,
            max_lines=6,
            text_size=ctx.sizes.small,
        )

    # -- out -------------------------------------------------------------------------------------

    def payload(self, kind: str) -> tuple[bytes, str, int]:
        """The export's bytes, its file name, and how many records it holds."""
        event, records = self.store.export_records(self.event.id)
        if kind == "csv":
            data = export_csv(event, records, self.ctx.regulation)
        else:
            data = json_bytes(event_export(self.store, event.id)[0])
        return data, file_name(event, kind, now_local()), sum(not r.deleted for r in records)

    async def save_as(self, e: ft.Event, kind: str) -> None:
        try:
            data, name, count = self.payload(kind)
        except LogError as exc:
            self.say(S.EXPORT_FAILED, error=True, reason=str(exc))
            return
        picker = ft.FilePicker()
        try:
            path = await picker.save_file(
                dialog_title=self.ctx.ui(S.EXPORT_TITLE), file_name=name, src_bytes=data
            )
        except Exception as exc:  # no save dialog here (a Linux desktop without zenity, …)
            self.say(S.EXPORT_NO_DIALOG, error=True, reason=str(exc) or type(exc).__name__)
            return
        if path:
            self.say(S.EXPORT_SAVED, count=count, path=path)
        elif e.page.web:  # the browser downloaded it; it names no path
            self.say(S.EXPORT_DOWNLOADED, count=count, path=name)
        # else: the judge closed the dialog; nothing to say

    def to_folder(self, _: ft.Event) -> None:
        """Both files into <data folder>/exports/: needs no dialog, works everywhere."""
        folder = self.ctx.logbook.folder / "exports"
        written = []
        try:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise describe_fault(exc, folder, "export not written") from None
            for kind in ("csv", "json"):
                data, name, count = self.payload(kind)
                write_file(folder / name, data)
                written.append(str(folder / name))
        except LogError as exc:
            self.say(S.EXPORT_FAILED, error=True, reason=str(exc))
            return
        self.say(S.EXPORT_WRITTEN, count=count, path=", ".join(written))

    async def copy_json(self, _: ft.Event) -> None:
        try:
            data, _name, count = self.payload("json")
        except LogError as exc:
            self.say(S.EXPORT_FAILED, error=True, reason=str(exc))
            return
        clipboard = ft.Clipboard()
        try:
            await clipboard.set(data.decode("utf-8"))
        except Exception as exc:  # a client without a clipboard
            self.say(S.EXPORT_FAILED, error=True, reason=str(exc) or type(exc).__name__)
            return
        self.say(S.EXPORT_COPIED, count=count)

    # -- in --------------------------------------------------------------------------------------

    async def pick(self, _: ft.Event) -> None:
        picker = ft.FilePicker()
        try:
            files = await picker.pick_files(dialog_title=self.ctx.ui(S.IMPORT_PICK), with_data=True)
        except Exception as exc:
            self.say(S.IMPORT_REFUSED, error=True, reason=str(exc) or type(exc).__name__)
            return
        if not files:
            return  # the judge closed the dialog
        chosen = files[0]
        if chosen.bytes is None:
            self.say(S.IMPORT_REFUSED, error=True, reason=f"{chosen.name}: no data")
            return
        self.merge(chosen.bytes, chosen.name)

    def import_pasted(self, _: ft.Event) -> None:
        text = self.paste.value or ""
        if not text.strip():
            return
        if self.merge(text.encode("utf-8"), self.ctx.ui(S.IMPORT_PASTE)):
            self.paste.value = ""
            self.paste.update()

    def merge(self, data: bytes, source: str) -> bool:
        """Imports `data` (an export's bytes): all of it or, with one line saying why, none."""
        if len(data) > MAX_IMPORT_BYTES:
            self.say(
                S.IMPORT_REFUSED,
                error=True,
                reason=f"{source}: larger than {MAX_IMPORT_BYTES} bytes",
            )
            return False
        try:
            report = self.store.merge(parse_export(data, self.ctx.regulation, source))
        except LogError as exc:
            self.say(S.IMPORT_REFUSED, error=True, reason=str(exc))
            return False
        self.ctx.actions.log_changed()
        self.say(
            S.IMPORT_DONE,
            name=report.event.name,
            added=report.added,
            updated=report.updated,
            unchanged=report.unchanged,
        )
        if report.elsewhere:  # what really happened to records of another event here
            names = " / ".join(report.elsewhere_events)
            elsewhere = self.ctx.ui(S.IMPORT_ELSEWHERE, count=report.elsewhere, names=names)
            self.status.value = f"{self.status.value} {elsewhere}"
            self.status.update()
        if report.event.id != self.event.id:
            self.offer_switch(report.event)
        return True

    def offer_switch(self, event: Event) -> None:
        ctx = self.ctx

        def switch(_: ft.Event) -> None:
            try:
                self.store.set_current_event(event.id)
            except LogError as exc:
                self.say(S.SAVE_FAILED, error=True, reason=str(exc))
                return
            ctx.logbook.pages = 1
            ctx.actions.log_changed()
            ctx.actions.refresh()
            ctx.actions.notify(ctx.ui(S.EVENT_SWITCHED, name=event.name))

        self.switch.content = ft.Text(ctx.ui(S.IMPORT_SWITCH, name=event.name), size=ctx.sizes.body)
        self.switch.icon = ft.Icons.SWAP_HORIZ
        self.switch.on_click = switch
        self.switch.visible = True
        self.switch.update()

    def say(self, message: str, error: bool = False, **values: object) -> None:
        self.status.value = self.ctx.ui(message, **values)
        self.status.color = ERROR_COLOR if error else None
        self.status.weight = ft.FontWeight.BOLD
        self.status.visible = True
        self.status.update()
        if not error:
            self.switch.visible = False
            self.switch.update()

    # -- the screen ------------------------------------------------------------------------------

    def screen(self) -> Screen:
        ctx = self.ctx

        async def save_csv(e: ft.Event) -> None:
            await self.save_as(e, "csv")

        async def save_json(e: ft.Event) -> None:
            await self.save_as(e, "json")

        controls: list[ft.Control] = [
            ft.Text(ctx.ui(S.LOG_EVENT_LINE, name=self.event.name), size=ctx.sizes.heading),
            self.status,
            self.switch,
            heading(ctx, S.EXPORT_TITLE),
            ft.Text(ctx.ui(S.EXPORT_HINT), size=ctx.sizes.small),
            ft.Row(
                [
                    text_button(
                        ctx,
                        S.EXPORT_CSV,
                        icon=ft.Icons.TABLE_CHART,
                        on_click=save_csv,
                        kind=ft.FilledTonalButton,
                    ),
                    text_button(
                        ctx,
                        S.EXPORT_JSON,
                        icon=ft.Icons.DATA_OBJECT,
                        on_click=save_json,
                        kind=ft.FilledTonalButton,
                    ),
                ],
                wrap=True,
            ),
            ft.Row(
                [
                    text_button(
                        ctx, S.EXPORT_TO_FOLDER, icon=ft.Icons.FOLDER, on_click=self.to_folder
                    ),
                    text_button(
                        ctx, S.EXPORT_COPY_JSON, icon=ft.Icons.CONTENT_COPY, on_click=self.copy_json
                    ),
                ],
                wrap=True,
            ),
            ft.Text(
                ctx.ui(S.DATA_FOLDER, path=str(ctx.logbook.folder)),
                size=ctx.sizes.small,
                italic=True,
            ),
            ft.Divider(),
            heading(ctx, S.IMPORT_TITLE),
            ft.Text(ctx.ui(S.IMPORT_HINT), size=ctx.sizes.small),
            text_button(
                ctx,
                S.IMPORT_PICK,
                icon=ft.Icons.UPLOAD_FILE,
                on_click=self.pick,
                kind=ft.FilledTonalButton,
            ),
            self.paste,
            text_button(
                ctx, S.IMPORT_PASTE_BUTTON, icon=ft.Icons.CONTENT_PASTE, on_click=self.import_pasted
            ),
        ]
        return Screen(title=ctx.ui(S.EXCHANGE_TITLE), body=scrolling_column(controls, spacing=10))


def exchange_screen(ctx: Context, route: Route) -> Screen:
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.EXCHANGE_TITLE))
    return Exchange(ctx, store).screen()

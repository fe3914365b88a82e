"""A record's history (venue sync): every saved version, who saved it and when, and the one
every device shows (records/sync's rule). Two judges editing the same record apart lose
nothing: both versions are here."""

from __future__ import annotations

import flet as ft

from records.model import Record, RecordVersion
from records.store import LogStore

from .. import strings as S
from ..context import Context
from ..sync_link import short_device
from ..widgets import heading, penalty_chip
from .log_parts import local_time, place_label, tier_of


def versions_section(ctx: Context, store: LogStore, record: Record) -> ft.Control | None:
    """The record's saved versions, newest first, each with who saved it and when, the one
    every device shows marked; None while the record has only one."""
    versions = store.record_versions(record.id)
    if len(versions) < 2:
        return None
    rows: list[ft.Control] = [heading(ctx, S.RECORD_VERSIONS)]
    rows += [version_row(ctx, version) for version in reversed(versions)]
    return ft.Column(rows, spacing=6)


def version_row(ctx: Context, version: RecordVersion) -> ft.Control:
    record = version.record
    by = version.recorded_by
    who = ctx.ui(
        S.RECORD_VERSION_LINE,
        time=local_time(version.saved_at, with_date=True),
        judge=by.judge if by and by.judge else ctx.ui(S.UNKNOWN_JUDGE),
        device=short_device(by.device) if by and by.device else "—",
    )
    held = [place_label(ctx, record)] if place_label(ctx, record) else []
    if record.note:
        held.append(record.note)
    if record.deleted:
        held.append(ctx.ui(S.RECORD_VERSION_DELETED))
    chips: list[ft.Control] = [penalty_chip(ctx, tier_of(ctx, record.tier_id))]
    if version.current:
        chips.append(
            ft.Container(
                ft.Text(ctx.ui(S.RECORD_VERSION_CURRENT), size=ctx.sizes.small),
                border=ft.Border.all(1, ft.Colors.PRIMARY),
                border_radius=6,
                padding=ft.Padding.symmetric(horizontal=6, vertical=2),
            )
        )
    return ft.Container(
        ft.Column(
            [
                ft.Text(who, size=ctx.sizes.small, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [*chips, ft.Text(" · ".join(held), size=ctx.sizes.small)],
                    wrap=True,
                    spacing=8,
                ),
            ],
            spacing=4,
            tight=True,
        ),
        border=ft.Border.only(left=ft.BorderSide(3, ft.Colors.OUTLINE_VARIANT)),
        padding=ft.Padding.only(left=10, top=2, bottom=2),
    )

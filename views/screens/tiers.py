"""The six penalty tiers as cards, a tier's page, and the principles of applying penalties."""

from __future__ import annotations

import flet as ft

from regulation.model import Principle, Tier

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..theme import TIER_COLORS
from ..widgets import (
    bilingual,
    bilingual_heading,
    entry_row,
    heading,
    scrolling_column,
    section_of,
    tier_label,
    typical_situations,
)


def tier_card(ctx: Context, tier: Tier) -> ft.Control:
    colors = TIER_COLORS[tier.severity]
    count = len(ctx.regulation.infractions_with_penalty(tier.id))
    name = ft.Text(
        tier_label(ctx, tier),
        size=ctx.sizes.title,
        weight=ft.FontWeight.BOLD,
        color=colors.foreground,
    )
    counter = ft.Text(
        ctx.ui(S.INFRACTION_COUNT, count=count), size=ctx.sizes.small, color=colors.foreground
    )
    return ft.Card(
        content=ft.Container(
            ft.Row(
                [
                    ft.Column([name, counter], spacing=2, expand=True),
                    ft.Icon(ft.Icons.CHEVRON_RIGHT, color=colors.foreground),
                ],
            ),
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            bgcolor=colors.background,
            border_radius=12,
            # The tier open beside the list (wide windows) is outlined; colour alone is not enough.
            # The thin outline keeps the black F card apart from a dark theme's background.
            border=ft.Border.all(4, ft.Colors.PRIMARY)
            if tier.id == ctx.state.selected_id
            else ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            # An ink well: it takes the keyboard's focus (Tab) and opens on Enter, as a tap.
            ink=True,
            on_click=lambda _: ctx.actions.navigate(routes.TIER.link(tier.id)),
            tooltip=f"{tier_label(ctx, tier)} ({ctx.ui(S.INFRACTION_COUNT, count=count)})",
        ),
        margin=0,
    )


def principle_rows(ctx: Context) -> list[ft.Control]:
    return [entry_row(ctx, p) for p in ctx.regulation.principles]


def tiers_screen(ctx: Context) -> Screen:
    controls: list[ft.Control] = [heading(ctx, S.TIERS_TITLE)]
    controls += [tier_card(ctx, tier) for tier in ctx.regulation.tiers]
    controls.append(ft.Container(height=8))
    principles = bilingual_heading(ctx, ctx.regulation.principles_heading)
    controls.append(principles)
    body = scrolling_column(controls)
    if not ctx.state.first_frame:
        body.controls += principle_rows(ctx)
        return Screen(title=ctx.ui(S.APP_TITLE), body=body)

    # The page's first frame (issue 22, item 5) is drawn without the principles' rows, which
    # lie below a phone's first screen but for the top of the first one: they cost that frame
    # about a third of what it costs beyond a one-line page (docs/performance.md). They are
    # added, the rest of the screen untouched, as soon as the client reports the heading laid
    # out (the shell draws the screen whole if it hears nothing: views/shell_start.py).
    def laid_out(_: ft.Event) -> None:
        if ctx.state.first_frame:  # else the screen has been drawn whole since
            ctx.state.first_frame = False
            body.controls += principle_rows(ctx)
            body.update()

    principles.on_size_change = laid_out
    principles.size_change_interval = 0
    ctx.state.rest_waits = True
    return Screen(title=ctx.ui(S.APP_TITLE), body=body)


def tier_screen(ctx: Context, tier: Tier) -> Screen:
    colors = TIER_COLORS[tier.severity]
    banner = ft.Container(
        ft.Column(
            [
                ft.Text(
                    tier.letter,
                    size=ctx.sizes.display,
                    weight=ft.FontWeight.BOLD,
                    color=colors.foreground,
                ),
                ft.Text(
                    ctx.shown(tier.title),
                    size=ctx.sizes.title,
                    weight=ft.FontWeight.BOLD,
                    color=colors.foreground,
                ),
            ],
            spacing=0,
        ),
        bgcolor=colors.background,
        border_radius=12,
        padding=16,
    )
    points = [
        ft.Row(
            [ft.Text("•", size=ctx.sizes.body), ft.Container(bilingual(ctx, point), expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        for point in tier.points
    ]
    infractions = ctx.regulation.infractions_with_penalty(tier.id)
    rows: list[ft.Control] = [entry_row(ctx, i, subtitle=section_of(ctx, i)) for i in infractions]
    if not rows:
        rows = [ft.Text(ctx.ui(S.NO_INFRACTIONS_WITH_TIER), size=ctx.sizes.body)]
    controls = [banner, *points, heading(ctx, S.INFRACTIONS_WITH_TIER), *rows]
    return Screen(title=tier_label(ctx, tier), body=scrolling_column(controls), bookmark_id=tier.id)


def principle_screen(ctx: Context, principle: Principle) -> Screen:
    controls = [
        bilingual_heading(ctx, ctx.regulation.principles_heading),
        bilingual(ctx, principle.label, size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Text(ctx.ui(S.LABEL_NOT_IN_SOURCE), size=ctx.sizes.small, italic=True),
        bilingual(ctx, principle.text),
    ]
    situations = typical_situations(ctx, principle.situations)
    if situations:
        controls.append(situations)
    return Screen(
        title=ctx.pick(principle.label), body=scrolling_column(controls), bookmark_id=principle.id
    )

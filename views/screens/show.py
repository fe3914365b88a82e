"""Show the player: a page to hand the phone over when the player and the judge do not share a
language. The penalty, the infraction, the remedy and the principle on repeats, each in the
regulation's Japanese and its English side by side (one above the other on a phone), in large
type on the page's plainest colours, without the app's bars; one tap goes back.

The words are the regulation's own (the repeat principle verbatim: a repeat *may* draw a higher
penalty, the judge decides), whatever language the app is shown in."""

from __future__ import annotations

import flet as ft

from records.tiers import REPEAT_PRINCIPLE_ID
from regulation.model import Text

from .. import strings as S
from ..context import Context, Screen
from ..routes import Route
from ..theme import TIER_COLORS
from ..widgets import scrolling_column


def show_screen(ctx: Context, route: Route) -> Screen | None:
    """/show/<infraction>, with `tier=` where the record's tier is not the infraction's own."""
    regulation = ctx.regulation
    infraction = regulation.infraction(route.item or "")
    if infraction is None:
        return None
    tier = regulation.tier(route.value("tier")) if route.value("tier") else infraction.penalty
    if tier is None:
        return None
    colors = TIER_COLORS[tier.severity]
    label = regulation.document.penalty_label
    penalty = Text(
        f"{label.ja}{tier.letter} {tier.title.ja}", f"{label.en}{tier.letter} {tier.title.en}"
    )
    controls: list[ft.Control] = [
        ft.Row(
            [
                ft.FilledTonalButton(
                    content=ft.Text(ctx.text(S.SHOW_BACK).shown("both"), size=ctx.sizes.title),
                    icon=ft.Icons.ARROW_BACK,
                    on_click=lambda _: ctx.actions.back(),
                    style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=20, vertical=14)),
                )
            ],
            wrap=True,
        ),
        ft.Container(
            pair(ctx, penalty, size=ctx.sizes.display, color=colors.foreground, bold=True),
            bgcolor=colors.background,
            border_radius=12,
            padding=16,
        ),
        pair(ctx, regulation.standalone_title(infraction), size=ctx.sizes.title, bold=True),
    ]
    if infraction.remedy:
        controls.append(heading_pair(ctx, ctx.text(S.REMEDY)))
        controls += [pair(ctx, paragraph, size=ctx.sizes.title) for paragraph in infraction.remedy]
    principle = regulation.principle(REPEAT_PRINCIPLE_ID)
    if principle is not None:
        controls.append(heading_pair(ctx, ctx.text(S.SHOW_REPEAT)))
        controls.append(pair(ctx, principle.text, size=ctx.sizes.title))
    controls.append(ft.Text(ctx.text(S.DISCLAIMER).shown("both"), size=ctx.sizes.body, italic=True))
    return Screen(
        title=ctx.text(S.SHOW_PLAYER).shown("both"),
        body=ft.Container(scrolling_column(controls, spacing=20), padding=16, expand=True),
        full_screen=True,
    )


def pair(
    ctx: Context,
    text: Text,
    size: float,
    color: str | None = None,
    bold: bool = False,
) -> ft.Control:
    """The Japanese and the English of `text`: side by side on a wide window, the English under
    the Japanese on a phone."""
    weight = ft.FontWeight.BOLD if bold else ft.FontWeight.W_500
    japanese = ft.Text(text.ja, size=size, weight=weight, color=color)
    english = ft.Text(text.en, size=size, weight=weight, color=color)
    if ctx.state.wide:
        return ft.Row(
            [ft.Container(japanese, expand=True), ft.Container(english, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=32,
        )
    return ft.Column([japanese, english], spacing=6, tight=True)


def heading_pair(ctx: Context, text: Text) -> ft.Control:
    return ft.Column(
        [
            ft.Divider(),
            pair(ctx, text, size=ctx.sizes.heading, color=ft.Colors.PRIMARY, bold=True),
        ],
        spacing=8,
        tight=True,
    )

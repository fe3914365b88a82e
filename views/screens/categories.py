"""Deck / deck list / play / conduct → sections → infractions, each with its penalty chip."""

from __future__ import annotations

import flet as ft

from regulation.model import Category

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..widgets import entry_row, heading, scrolling_column, section_heading

CATEGORY_ICONS = {
    "deck": ft.Icons.STYLE,
    "deck-list": ft.Icons.LIST_ALT,
    "play": ft.Icons.CASINO,
    "conduct": ft.Icons.PEOPLE,
}


def category_card(ctx: Context, category: Category) -> ft.Control:
    sections = ctx.regulation.sections_in_category(category.id)
    count = sum(len(ctx.regulation.infractions_in_section(s.id)) for s in sections)
    section_lines = [
        ft.Text(f"{s.number}. {ctx.pick(s.title)}", size=ctx.sizes.small) for s in sections
    ]
    return ft.Card(
        content=ft.Container(
            ft.Column(
                [
                    ft.Row(
                        [
                            ft.Icon(CATEGORY_ICONS.get(category.id, ft.Icons.FOLDER)),
                            ft.Text(
                                ctx.shown(category.label),
                                size=ctx.sizes.title,
                                weight=ft.FontWeight.BOLD,
                                expand=True,
                            ),
                            ft.Text(ctx.ui(S.INFRACTION_COUNT, count=count), size=ctx.sizes.small),
                        ]
                    ),
                    *section_lines,
                ],
                spacing=4,
            ),
            padding=16,
            on_click=lambda _: ctx.actions.navigate(routes.CATEGORY.link(category.id)),
            tooltip=ctx.shown(category.label),
        ),
        margin=0,
    )


def categories_screen(ctx: Context) -> Screen:
    controls: list[ft.Control] = [heading(ctx, S.CATEGORIES_TITLE)]
    controls += [category_card(ctx, c) for c in ctx.regulation.categories]
    return Screen(title=ctx.ui(S.CATEGORIES_TITLE), body=scrolling_column(controls))


def category_screen(ctx: Context, category: Category) -> Screen:
    controls: list[ft.Control] = []
    for section in ctx.regulation.sections_in_category(category.id):
        controls.append(section_heading(ctx, section))
        controls += [entry_row(ctx, i) for i in ctx.regulation.infractions_in_section(section.id)]
        controls.append(ft.Divider())
    return Screen(title=ctx.shown(category.label), body=scrolling_column(controls, spacing=4))

"""The infraction finder: one question at a time, one tap an answer, ending on an entry's page.

The route names the question (/finder/<id>); the tree is a tree, so the id alone gives the
answers that led there, shown as breadcrumbs a judge can tap to change one.
"""

from __future__ import annotations

import flet as ft

from regulation.finder import FinderNode, FinderOption, FinderStep
from regulation.model import Infraction, Text, Tier

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..widgets import entry_route, heading, kind_tag, penalty_chip, scrolling_column, text_button


def finder_screen(ctx: Context, node: FinderNode) -> Screen:
    steps = ctx.finder.path_to(node.id)
    controls: list[ft.Control] = []
    if steps:
        controls.append(heading(ctx, S.FINDER_YOUR_ANSWERS))
        controls += [breadcrumb(ctx, number, step) for number, step in enumerate(steps, 1)]
        controls.append(ft.Divider())
    controls.append(
        ft.Text(ctx.shown(node.question), size=ctx.sizes.title, weight=ft.FontWeight.BOLD)
    )
    controls += [answer_button(ctx, option) for option in node.options]
    if steps:
        controls.append(
            text_button(
                ctx,
                S.FINDER_START_OVER,
                kind=ft.TextButton,
                icon=ft.Icons.RESTART_ALT,
                on_click=lambda _: ctx.actions.navigate(routes.FINDER.link()),
            )
        )
    return Screen(
        title=ctx.ui(S.FINDER_TITLE),
        body=scrolling_column(controls, spacing=10),
        detail_hint=S.FINDER_HINT,
    )


def breadcrumb(ctx: Context, number: int, step: FinderStep) -> ft.Control:
    """A question answered on the way: tapping it asks it again."""
    return ft.ListTile(
        leading=ft.CircleAvatar(
            content=ft.Text(str(number), size=ctx.sizes.small), radius=14 * ctx.sizes.scale
        ),
        title=ft.Text(ctx.shown(step.option.label), size=ctx.sizes.body),
        subtitle=ft.Text(ctx.shown(step.node.question), size=ctx.sizes.small),
        trailing=ft.Icon(ft.Icons.EDIT, semantics_label=ctx.ui(S.FINDER_CHANGE_ANSWER)),
        tooltip=ctx.ui(S.FINDER_CHANGE_ANSWER),
        on_click=lambda _: ctx.actions.navigate(routes.FINDER_STEP.link(step.node.id)),
        dense=True,
        content_padding=ft.Padding.symmetric(horizontal=4),
    )


def answer_button(ctx: Context, option: FinderOption) -> ft.Control:
    """One answer: a wide button to the next question, or to the entry it ends on (its
    penalty shown, so the judge sees where the answer leads)."""
    label = ft.Text(ctx.shown(option.label), size=ctx.sizes.body, weight=ft.FontWeight.W_500)
    if option.none is not None:
        return no_infraction(ctx, label, option.none.text)
    result = option.result
    if result is None:
        assert option.next is not None  # an answer leads on or ends: the loader checked
        target = routes.FINDER_STEP.link(option.next.id)
        selected = option.next.id == ctx.state.selected_id
        content: ft.Control = label
    else:
        target = entry_route(result)
        selected = result.id == ctx.state.selected_id
        badge = (
            penalty_chip(ctx, result.penalty)
            if isinstance(result, Infraction)
            else kind_tag(ctx, S.KIND_PRINCIPLE)
        )
        content = ft.Column([label, badge], spacing=6, tight=True)
    return ft.OutlinedButton(
        content=ft.Row(
            [
                ft.Container(content, expand=True, padding=ft.Padding.symmetric(vertical=10)),
                ft.Icon(ft.Icons.CHEVRON_RIGHT),
            ]
        ),
        style=ft.ButtonStyle(
            shape=ft.RoundedRectangleBorder(radius=12),
            side=ft.BorderSide(3 if selected else 1, ft.Colors.PRIMARY),
            padding=ft.Padding.symmetric(horizontal=16),  # with the content's: a thumb-sized target
        ),
        on_click=lambda _: ctx.actions.navigate(target),
        tooltip=_answer_tooltip(ctx, option),
    )


def no_infraction(ctx: Context, label: ft.Text, why: Text) -> ft.Control:
    """An answer that is no infraction: not a way on, so not a button; the app's words why."""
    return ft.Container(
        ft.Column(
            [
                label,
                ft.Text(
                    ctx.ui(S.FINDER_NO_INFRACTION), size=ctx.sizes.body, weight=ft.FontWeight.BOLD
                ),
                ft.Text(ctx.shown(why), size=ctx.sizes.small, italic=True),
            ],
            spacing=4,
            tight=True,
        ),
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        border_radius=12,
        padding=ft.Padding.symmetric(horizontal=16, vertical=10),
    )


def _answer_tooltip(ctx: Context, option: FinderOption) -> str:
    result = option.result
    if isinstance(result, Infraction):
        tier: Tier = result.penalty
        return f"{ctx.shown(option.label)} → {tier.letter} {ctx.shown(tier.title)}"
    return ctx.shown(option.label)

"""Settings (language, theme, text size), About, and the not-found screen."""

from __future__ import annotations

import functools

import flet as ft

from regulation import APP_VERSION
from regulation.paths import FONT_LICENCE_PATH

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..theme import TEXT_SCALES
from ..widgets import heading, icon_button, scrolling_column


@functools.cache
def font_licence() -> str:
    """The licence text, read once (the About screen is rebuilt on every language switch)."""
    return FONT_LICENCE_PATH.read_text(encoding="utf-8") if FONT_LICENCE_PATH.exists() else ""


LANGUAGE_CHOICES = (("ja", S.LANG_JA), ("en", S.LANG_EN), ("both", S.LANG_BOTH))
THEME_CHOICES = (("system", S.THEME_SYSTEM), ("light", S.THEME_LIGHT), ("dark", S.THEME_DARK))


def radio_group(ctx: Context, choices, value: str, setting: str) -> ft.RadioGroup:
    return ft.RadioGroup(
        content=ft.Column(
            [
                ft.Radio(
                    value=key,
                    label=ctx.ui(message),
                    label_style=ft.TextStyle(size=ctx.sizes.body),
                )
                for key, message in choices
            ],
            spacing=0,
        ),
        value=value,
        on_change=lambda e: ctx.actions.change_settings(**{setting: e.control.value}),
    )


def settings_screen(ctx: Context) -> Screen:
    settings = ctx.state.settings
    scale_index = TEXT_SCALES.index(settings.text_scale)

    def step(delta: int) -> None:
        index = min(max(scale_index + delta, 0), len(TEXT_SCALES) - 1)
        ctx.actions.change_settings(text_scale=TEXT_SCALES[index])

    text_size = ft.Row(
        [
            icon_button(
                ft.Icons.TEXT_DECREASE,
                ctx.ui(S.SMALLER_TEXT),
                on_click=lambda _: step(-1),
                disabled=scale_index == 0,
            ),
            ft.Text(
                ctx.ui(S.TEXT_SIZE_VALUE, percent=round(settings.text_scale * 100)),
                size=ctx.sizes.body,
            ),
            icon_button(
                ft.Icons.TEXT_INCREASE,
                ctx.ui(S.LARGER_TEXT),
                on_click=lambda _: step(1),
                disabled=scale_index == len(TEXT_SCALES) - 1,
            ),
        ]
    )
    controls = [
        heading(ctx, S.LANGUAGE),
        radio_group(ctx, LANGUAGE_CHOICES, settings.language, "language"),
        heading(ctx, S.THEME),
        radio_group(ctx, THEME_CHOICES, settings.theme, "theme"),
        heading(ctx, S.TEXT_SIZE),
        text_size,
        ft.Text(ctx.ui(S.SAMPLE_TEXT), size=ctx.sizes.body),
        ft.Divider(),
        *_sharing(ctx),
        ft.ListTile(
            leading=ft.Icon(ft.Icons.INFO_OUTLINE),
            title=ft.Text(ctx.ui(S.ABOUT_TITLE), size=ctx.sizes.body),
            on_click=lambda _: ctx.actions.navigate(routes.ABOUT.link()),
        ),
    ]
    return Screen(title=ctx.ui(S.SETTINGS_TITLE), body=scrolling_column(controls, spacing=8))


def _sharing(ctx: Context) -> list[ft.Control]:
    """The judge name and the way to the judges' sync (imported here: it opens the log)."""
    from .sync_parts import judge_setting

    return [*judge_setting(ctx), ft.Divider()]


def about_screen(ctx: Context) -> Screen:
    document = ctx.regulation.document

    def fact(label: str, value: str) -> ft.Control:
        return ft.Column(
            [
                ft.Text(ctx.ui(label), size=ctx.sizes.small, weight=ft.FontWeight.BOLD),
                ft.Text(value, size=ctx.sizes.body),
            ],
            spacing=0,
        )

    controls = [
        ft.Text(ctx.ui(S.APP_TITLE), size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        fact(S.REGULATION, ctx.shown(document.label)),
        fact(S.REGULATION_TEXT_AS_OF, document.text_as_of),
        fact(S.APP_VERSION, APP_VERSION),
        fact(S.DATA_CHECKSUM, document.source_sha256[:16]),
        ft.Text(ctx.ui(S.OFFLINE_NOTE), size=ctx.sizes.body),
        ft.Text(ctx.ui(S.DISCLAIMER), size=ctx.sizes.body),
        heading(ctx, S.LICENCES),
        ft.Text(ctx.ui(S.APP_LICENCE), size=ctx.sizes.body),
        ft.ExpansionTile(
            title=ft.Text(ctx.ui(S.FONT_LICENCE), size=ctx.sizes.body),
            controls=[ft.Text(font_licence(), size=ctx.sizes.small)],
        ),
    ]
    return Screen(title=ctx.ui(S.ABOUT_TITLE), body=scrolling_column(controls))


def not_found_screen(ctx: Context, route: str) -> Screen:
    controls = [
        ft.Icon(ft.Icons.EXPLORE_OFF, size=48),
        ft.Text(ctx.ui(S.NOT_FOUND_TITLE), size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Text(ctx.ui(S.NOT_FOUND_BODY, route=route[:80]), size=ctx.sizes.body),
        ft.FilledButton(
            ctx.ui(S.GO_HOME),
            icon=ft.Icons.HOME,
            on_click=lambda _: ctx.actions.navigate(routes.HOME.link()),
        ),
    ]
    return Screen(title=ctx.ui(S.NOT_FOUND_TITLE), body=scrolling_column(controls))

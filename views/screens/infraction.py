"""An infraction: situation, penalty, remedy, examples, notes, where it sits, principles."""

from __future__ import annotations

import flet as ft

from regulation.model import Infraction

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..widgets import (
    bilingual,
    heading,
    penalty_chip,
    penalty_label,
    scrolling_column,
    show_player_button,
    text_button,
    typical_situations,
)

# The principles a judge weighs on every call (product brief): discretion and repeats.
ALWAYS_APPLYING_PRINCIPLES = ("judge-discretion", "repeat-offense")


def infraction_screen(ctx: Context, infraction: Infraction) -> Screen:
    regulation = ctx.regulation
    section = regulation.section(infraction.section_id)
    assert section is not None  # the loader checked every section id
    category = regulation.category_of(section)
    location = ft.TextButton(
        f"{ctx.shown(category.label)} » {ctx.shown(section.title)}",
        icon=ft.Icons.FOLDER_OPEN,
        on_click=lambda _: ctx.actions.navigate(routes.CATEGORY.link(category.id)),
        tooltip=ctx.ui(S.LOCATION),
    )
    controls: list[ft.Control] = [
        location,
        bilingual(ctx, infraction.title, size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Row(
            [
                ft.Text(penalty_label(ctx), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
                penalty_chip(ctx, infraction.penalty, clickable=True),
            ],
            wrap=True,
        ),
        # The penalty log's form, the infraction and its tier filled in (views/screens/log_form.py):
        # a new record's, or the edit whose picker opened the finder.
        text_button(
            ctx,
            S.RECORD_THIS,
            kind=ft.FilledTonalButton,
            icon=ft.Icons.EDIT_NOTE,
            on_click=lambda _: ctx.actions.navigate(ctx.logbook.finder_link(infraction.id)),
        ),
        show_player_button(ctx, infraction.id),
    ]
    # Each heading says what the paragraphs under it are (assets/rules_ja.yaml sorts them);
    # the source's examples need none: they begin with their own 一例.
    for message, paragraphs in (
        (S.REMEDY, infraction.remedy),
        (None, infraction.examples),
        (S.NOTES, infraction.notes),
    ):
        if paragraphs and message:
            controls.append(heading(ctx, message))
        controls += [bilingual(ctx, p) for p in paragraphs]
    situations = typical_situations(ctx, infraction.situations)
    if situations:
        controls.append(situations)
    aliases = _aliases(ctx, infraction)
    if aliases:
        controls.append(
            ft.Text(f"{ctx.ui(S.ALSO_KNOWN_AS)}: {aliases}", size=ctx.sizes.small, italic=True)
        )
    controls.append(ft.Divider())
    controls.append(heading(ctx, S.ALWAYS_APPLIES))
    for principle_id in ALWAYS_APPLYING_PRINCIPLES:
        principle = regulation.principle(principle_id)
        if principle:
            controls.append(bilingual(ctx, principle.text, size=ctx.sizes.small))
    return Screen(
        title=ctx.pick(infraction.title), body=scrolling_column(controls), bookmark_id=infraction.id
    )


def _aliases(ctx: Context, infraction: Infraction) -> str:
    """The names judges from other programmes use ("also known as"), in the shown language(s)."""
    aliases = infraction.aliases
    lists = {"ja": [aliases.ja], "en": [aliases.en], "both": [aliases.ja, aliases.en]}
    return " / ".join(", ".join(names[:6]) for names in lists[ctx.lang] if names)

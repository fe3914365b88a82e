"""What the record form shows around its fields (views/screens/log_form.py), each part
rebuilt as the judge types or chooses: the infraction (its title and tier, the picker to
change it, or the tardiness entries), "arrived now" and its suggestion, the recent players
to tap, the tier chips, and a failed save."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from records.tardiness import LATE_UNDER_THRESHOLDS, TARDINESS_INFRACTION_IDS
from regulation.model import Infraction

from .. import routes
from .. import strings as S
from ..theme import TIER_COLORS
from ..widgets import WHOLE_LINES, penalty_chip, penalty_label, text_button, tier_text
from .log_draft import suggestion
from .log_parts import (
    ERROR_COLOR,
    local_time,
    official_note,
    player_label,
    round_choice,
    round_label,
    round_numbers,
)
from .log_picker import infraction_picker

if TYPE_CHECKING:
    from .log_form import RecordForm

SUGGESTIONS = 6
NO_ROUND = "none"  # the round menu's key for "no round"


def infraction_controls(form: RecordForm) -> list[ft.Control]:
    ctx = form.ctx
    infraction = form.infraction
    if not form.tardiness_mode and (infraction is None or form.draft.picking):
        return infraction_picker(
            ctx,
            form.draft.pick_query,
            form._on_pick_query,
            form._pick_infraction,
            form.draft.errors.get("infraction"),
            on_finder=form._to_finder,
        )
    if form.tardiness_mode:
        choices = [ctx.regulation.infraction(i) for i in TARDINESS_INFRACTION_IDS]
        # A row per entry, the radio beside a title that wraps (a radio's own label does not)
        # and the entry's tier under it; a tap anywhere on the row chooses it.
        group = ft.RadioGroup(
            content=ft.Column(
                [
                    ft.ListTile(
                        leading=ft.Radio(value=choice.id),
                        title=ft.Text(ctx.pick(choice.title), size=ctx.sizes.body),
                        subtitle=ft.Row([penalty_chip(ctx, choice.penalty)]),
                        on_click=lambda _, chosen=choice.id: form._choose_tardiness(chosen),
                        content_padding=ft.Padding.symmetric(horizontal=0),
                    )
                    for choice in choices
                    if choice is not None
                ],
                spacing=0,
            ),
            value=form.draft.infraction_id,
            on_change=form._on_tardiness_choice,
        )
        controls: list[ft.Control] = [
            ft.Text(ctx.ui(S.TARDY_CHOOSE), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
            group,
        ]
        if "infraction" in form.draft.errors:
            controls.append(
                ft.Text(form.draft.errors["infraction"], color=ERROR_COLOR, size=ctx.sizes.body)
            )
        return controls
    assert infraction is not None  # a form without one is a tardiness form or picks one
    return [
        ft.Text(
            ctx.shown(ctx.regulation.standalone_title(infraction)),
            size=ctx.sizes.title,
            weight=ft.FontWeight.BOLD,
        ),
        penalty_row(form, infraction),
        text_button(
            ctx,
            S.PICK_CHANGE,
            kind=ft.TextButton,
            icon=ft.Icons.SWAP_HORIZ,
            on_click=form._open_picker,
        ),
    ]


def penalty_row(form: RecordForm, infraction: Infraction) -> ft.Control:
    """罰則：B 警告 — the infraction's own tier, as its page shows it."""
    ctx = form.ctx
    return ft.Row(
        [
            ft.Text(penalty_label(ctx), size=ctx.sizes.body),
            penalty_chip(ctx, infraction.penalty),
        ],
        wrap=True,
    )


def tardiness_controls(form: RecordForm) -> list[ft.Control]:
    if not form.tardiness_mode:
        return []
    ctx = form.ctx
    draft = form.draft
    controls: list[ft.Control] = [
        text_button(
            ctx,
            S.TARDY_ARRIVED_NOW,
            icon=ft.Icons.TIMER,
            on_click=form._arrived_now,
        )
    ]
    if draft.arrived_at is None:
        return controls
    found = suggestion(form.store, draft)
    if found is None:
        controls.append(
            ft.Text(
                ctx.ui(S.TARDY_NO_ASSEMBLY, round=round_label(ctx, draft.round)),
                size=ctx.sizes.body,
                color=ERROR_COLOR,
            )
        )
        controls.append(
            text_button(
                ctx,
                S.TARDY_SET_ASSEMBLY,
                kind=ft.TextButton,
                icon=ft.Icons.SCHEDULE,
                on_click=lambda _: ctx.actions.navigate(routes.LOG_EVENT.link()),
            )
        )
        return controls
    assembly = local_time(found.assembly_at)
    if found.infraction_id is None:
        controls.append(ft.Text(ctx.ui(S.TARDY_ON_TIME, assembly=assembly), size=ctx.sizes.body))
        return controls
    seconds = int(found.late_by.total_seconds())
    controls.append(
        ft.Text(
            ctx.ui(
                S.TARDY_LATE_BY,
                assembly=assembly,
                minutes=seconds // 60,
                seconds=seconds % 60,
                arrived=found.arrived_at.astimezone().strftime("%H:%M:%S"),
            ),
            size=ctx.sizes.body,
            weight=ft.FontWeight.BOLD,
        )
    )
    suggested = ctx.regulation.infraction(found.infraction_id)
    if suggested is not None:
        controls.append(
            ft.Text(
                f"{ctx.ui(S.TARDY_SUGGESTED)} {ctx.pick(suggested.title)}",
                size=ctx.sizes.body,
            )
        )
    if found.infraction_id == LATE_UNDER_THRESHOLDS:
        controls.append(ft.Text(ctx.ui(S.TARDY_UNDER_FIVE), size=ctx.sizes.small))
    controls.append(ft.Text(ctx.ui(S.TARDY_CONFIRM), size=ctx.sizes.small, italic=True))
    return controls


def suggestion_controls(form: RecordForm) -> list[ft.Control]:
    ctx = form.ctx
    current = form.player()
    players = [
        p
        for p in form.store.recent_players(
            form.draft.name, event_id=form.draft.event_id, limit=SUGGESTIONS
        )
        if (p.name, p.player_id) != (current.name.strip(), current.player_id)
    ]
    if not players:
        return []
    chips: list[ft.Control] = [
        # A button, not a chip: a chip's label is one line, a long name cut at 175 %.
        ft.OutlinedButton(
            content=ft.Text(player_label(ctx, p), size=ctx.sizes.small),
            icon=ft.Icon(ft.Icons.PERSON_OUTLINE, size=ctx.sizes.body),
            on_click=lambda _, p=p: form._pick_player(p),
        )
        for p in players
    ]
    return [
        ft.Text(ctx.ui(S.FORM_SUGGESTIONS), size=ctx.sizes.small),
        ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
    ]


def tier_controls(form: RecordForm) -> list[ft.Control]:
    ctx = form.ctx
    chosen = form.tier_id
    chips: list[ft.Control] = []
    for tier in ctx.regulation.tiers:
        colors = TIER_COLORS[tier.severity]
        selected = tier.id == chosen
        chips.append(
            ft.Chip(
                label=wrapping(tier_text(ctx, tier)),
                selected=selected,
                bgcolor=colors.background,
                selected_color=colors.background,
                check_color=colors.foreground,
                border_side=ft.BorderSide(3, ft.Colors.ON_SURFACE)
                if selected
                else ft.BorderSide(1, colors.background),
                on_select=lambda _, tier_id=tier.id: form._choose_tier(tier_id),
            )
        )
    controls: list[ft.Control] = [
        ft.Text(ctx.ui(S.FORM_TIER), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
        ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
    ]
    infraction = form.infraction
    if infraction is not None and chosen is not None and chosen != infraction.penalty.id:
        own = infraction.penalty
        controls.append(
            ft.Text(
                ctx.ui(S.FORM_TIER_CHANGED, tier=f"{own.letter} {ctx.pick(own.title)}"),
                size=ctx.sizes.body,
                weight=ft.FontWeight.BOLD,
            )
        )
    note = official_note(ctx, chosen) if chosen else None
    if note is not None:
        controls.append(note)
    return controls


def failure_controls(form: RecordForm) -> list[ft.Control]:
    if not form.draft.failure:
        return []
    ctx = form.ctx
    return [
        ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.ERROR_OUTLINE, color=ERROR_COLOR),
                    ft.Text(
                        ctx.ui(S.SAVE_FAILED, reason=form.draft.failure),
                        size=ctx.sizes.body,
                        expand=True,
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            border=ft.Border.all(2, ERROR_COLOR),
            border_radius=8,
            padding=12,
        )
    ]


def round_options(form: RecordForm) -> list[ft.DropdownOption]:
    assert form.event is not None
    numbers = round_numbers(form.event, form.draft.round)
    options = [ft.DropdownOption(key=NO_ROUND, text=round_choice(form.ctx, None))]
    options += [ft.DropdownOption(key=str(n), text=round_choice(form.ctx, n)) for n in numbers]
    return options


def wrapping(text: ft.Text) -> ft.Text:
    """A chip's label on as many lines as it needs: a chip draws one line by default, and
    "C デュエルの敗北 / Duel Forfeiture" was cut on a phone at 175 % in "both"."""
    text.max_lines = WHOLE_LINES
    return text

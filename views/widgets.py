"""Small building blocks shared by the screens: penalty chips, bilingual text, entry rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import flet as ft

from regulation.model import Entry, Infraction, Principle, Section, Text, Tier, entry_title

from . import routes
from . import strings as S
from .context import Context
from .theme import MARK_COLOR, MARK_OPACITY, TIER_COLORS

Spans = Sequence[tuple[int, int]]


# A field's error and placeholder wrap onto up to this many lines, the field growing with them:
# Flutter's default is one line, cut ("Enter the ti…") at 175 % or in "both" on a phone.
WHOLE_LINES = 8


def penalty_label(ctx: Context) -> str:
    """罰則： / Penalty: — the source's own label, from the data."""
    return ctx.shown(ctx.regulation.document.penalty_label)


def tier_label(ctx: Context, tier: Tier) -> str:
    """Letter and name: what a chip says, and what a screen reader reads."""
    return f"{tier.letter} {ctx.shown(tier.title)}"


def tier_text(ctx: Context, tier: Tier) -> ft.Text:
    """A tier's letter and name in its chip colour's text colour."""
    return ft.Text(
        tier_label(ctx, tier),
        color=TIER_COLORS[tier.severity].foreground,
        size=ctx.sizes.small,
        weight=ft.FontWeight.BOLD,
    )


def penalty_chip(ctx: Context, tier: Tier, clickable: bool = False) -> ft.Control:
    """The tier's colour, letter and name; a button to the tier page where `clickable`."""
    colors = TIER_COLORS[tier.severity]
    label = tier_text(ctx, tier)
    if clickable:
        return ft.FilledButton(
            content=label,
            style=ft.ButtonStyle(bgcolor=colors.background, color=colors.foreground),
            tooltip=f"{penalty_label(ctx)}{tier_label(ctx, tier)}",
            on_click=lambda _: ctx.actions.navigate(routes.TIER.link(tier.id)),
        )
    return ft.Container(
        content=label,
        bgcolor=colors.background,
        border_radius=6,
        padding=ft.Padding.symmetric(horizontal=8, vertical=3),
    )


ButtonKind = (
    type[ft.FilledButton]
    | type[ft.FilledTonalButton]
    | type[ft.OutlinedButton]
    | type[ft.TextButton]
)


def text_button(
    ctx: Context,
    message: str,
    *,
    on_click: ft.ControlEventHandler | None = None,
    kind: ButtonKind = ft.OutlinedButton,
    icon: ft.IconData | None = None,
    disabled: bool = False,
    style: ft.ButtonStyle | None = None,
) -> ft.Control:
    """A button labelled by a UI message in the judge's text size (a plain label would keep
    Flet's own size whatever the text-size setting)."""
    return kind(
        content=ft.Text(ctx.ui(message), size=ctx.sizes.body),
        icon=icon,
        on_click=on_click,
        disabled=disabled,
        style=style,
    )


def show_player_button(ctx: Context, infraction_id: str, tier_id: str | None = None) -> ft.Control:
    """Opens the page to hand to the player (views/screens/show.py): the infraction, and the
    tier given where it is not the infraction's own."""
    route = routes.SHOW.link(infraction_id, **({"tier": tier_id} if tier_id else {}))
    return text_button(
        ctx,
        S.SHOW_PLAYER,
        icon=ft.Icons.TRANSLATE,
        on_click=lambda _: ctx.actions.navigate(route),
    )


def icon_button(icon: ft.IconData, label: str, on_click, disabled: bool = False) -> ft.IconButton:
    """An icon button that screen readers announce by `label` (tooltip alone is not enough)."""
    return ft.IconButton(
        ft.Icon(icon, semantics_label=label),
        tooltip=label,
        on_click=on_click,
        disabled=disabled,
    )


def highlighted(text: str, spans: Spans, size: float, **style) -> ft.Text:
    """`text` with the `spans` (start, end) shown bold on a marker colour."""
    if not spans:
        return ft.Text(text, size=size, **style)
    pieces: list[ft.TextSpan] = []
    tint = ft.Colors.with_opacity(MARK_OPACITY, MARK_COLOR)
    mark = ft.TextStyle(weight=ft.FontWeight.BOLD, bgcolor=tint)
    cursor = 0
    for start, end in sorted(spans):
        if start < cursor:  # overlapping spans: keep the first
            continue
        if start > cursor:
            pieces.append(ft.TextSpan(text[cursor:start]))
        pieces.append(ft.TextSpan(text[start:end], style=mark))
        cursor = end
    if cursor < len(text):
        pieces.append(ft.TextSpan(text[cursor:]))
    return ft.Text(spans=pieces, size=size, **style)


def bilingual(
    ctx: Context,
    text: Text,
    size: float | None = None,
    weight: ft.FontWeight | None = None,
) -> ft.Control:
    """A regulation string in the chosen language, or both (side by side on wide screens).

    Not `selectable`: Flutter web exposes selectable text to screen readers as empty fields."""
    size = size or ctx.sizes.body
    if ctx.lang != "both":
        return ft.Text(ctx.pick(text), size=size, weight=weight)
    japanese = ft.Text(text.ja, size=size, weight=weight)
    english = ft.Text(text.en, size=size, weight=weight, italic=True)
    if ctx.state.wide:
        return ft.Row(
            [ft.Container(japanese, expand=True), ft.Container(english, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=24,
        )
    return ft.Column([japanese, english], spacing=4)


def heading(ctx: Context, message: str, **values: object) -> ft.Text:
    return ft.Text(
        ctx.ui(message, **values),
        size=ctx.sizes.heading,
        weight=ft.FontWeight.BOLD,
        color=ft.Colors.PRIMARY,
    )


def bilingual_heading(ctx: Context, text: Text) -> ft.Text:
    return ft.Text(
        ctx.shown(text),
        size=ctx.sizes.heading,
        weight=ft.FontWeight.BOLD,
        color=ft.Colors.PRIMARY,
    )


def section_heading(ctx: Context, section: Section) -> ft.Control:
    """A section's heading; one the source text leaves out (the original document's, from its
    public copies) is marked as the app's, like every string that is not the regulation's."""
    shown = bilingual_heading(ctx, section.title)
    if section.heading_in_source:
        return shown
    note = ft.Text(ctx.ui(S.HEADING_NOT_IN_SOURCE), size=ctx.sizes.small, italic=True)
    return ft.Column([shown, note], spacing=0, tight=True)


def entry_route(entry: Entry) -> str:
    if isinstance(entry, Tier):
        return routes.TIER.link(entry.id)
    if isinstance(entry, Principle):
        return routes.PRINCIPLE.link(entry.id)
    return routes.INFRACTION.link(entry.id)


def entry_row(
    ctx: Context,
    entry: Entry,
    spans: Mapping[str, Spans] | None = None,
    subtitle: str | None = None,
    explanation: ft.Control | None = None,
) -> ft.ListTile:
    """One tappable row: penalty chip (or kind), title with highlights, optional subtitle, and
    an optional explanation under them (why a search result matched)."""
    spans = spans or {}
    title = entry_title(entry)
    size = ctx.sizes.body
    if ctx.lang == "both":
        title_control: ft.Control = ft.Column(
            [
                highlighted(title.ja, spans.get("title.ja", ()), size),
                highlighted(title.en, spans.get("title.en", ()), ctx.sizes.small, italic=True),
            ],
            spacing=2,
        )
    else:
        lang = "en" if ctx.lang == "en" else "ja"
        title_control = highlighted(ctx.pick(title), spans.get(f"title.{lang}", ()), size)
    if isinstance(entry, Infraction):
        badge: ft.Control = penalty_chip(ctx, entry.penalty)
    elif isinstance(entry, Tier):
        badge = penalty_chip(ctx, entry)
    else:
        badge = kind_tag(ctx, S.KIND_PRINCIPLE)
    # Chip under the title, not beside it: a phone's width goes to the title.
    details: list[ft.Control] = [badge]
    if subtitle:
        details.append(ft.Text(subtitle, size=ctx.sizes.small))
    below: ft.Control = ft.Row(details, wrap=True, spacing=8, run_spacing=4)
    if explanation is not None:
        below = ft.Column([below, explanation], spacing=4, tight=True)
    return ft.ListTile(
        title=title_control,
        selected=entry.id == ctx.state.selected_id,
        subtitle=below,
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _: ctx.actions.navigate(entry_route(entry)),
        content_padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def kind_tag(ctx: Context, message: str) -> ft.Control:
    """A neutral tag (原則 / Principle) where an entry has no penalty."""
    return ft.Container(
        ft.Text(ctx.ui(message), size=ctx.sizes.small, weight=ft.FontWeight.BOLD),
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        border_radius=6,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def section_of(ctx: Context, infraction: Infraction) -> str:
    section = ctx.regulation.section(infraction.section_id)
    return ctx.pick(section.title) if section else ""


def scrolling_column(controls: Sequence[ft.Control], spacing: float = 12) -> ft.Column:
    """A screen's body: its controls in a column that scrolls."""
    return ft.Column(
        list(controls),
        spacing=spacing,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


def typical_situations(ctx: Context, situations: Sequence[Text]) -> ft.Control | None:
    """The app's own examples of an entry, set apart from the regulation text: a box of its
    own, a heading and a line that say whose words they are."""
    if not situations:
        return None
    items: list[ft.Control] = [
        heading(ctx, S.TYPICAL_SITUATIONS),
        ft.Text(ctx.ui(S.TYPICAL_SITUATIONS_NOTE), size=ctx.sizes.small, italic=True),
    ]
    items += [
        ft.Row(
            [ft.Text("•", size=ctx.sizes.body), ft.Container(bilingual(ctx, s), expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        for s in situations
    ]
    return ft.Container(
        ft.Column(items, spacing=6),
        padding=12,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
    )

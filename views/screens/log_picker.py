"""What the record form shows to help the judge choose: the infraction picker (type to search
the regulation's infractions, the same search as the search screen, or open the finder), used
by a new record started from the log (/log/new, issue 20 item 3) and to change a record's
infraction (item 6); and the player's whole tournament so far, once a name matches (item 7)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from records.model import Player
from records.store import LogStore
from regulation.model import Infraction

from .. import routes
from .. import strings as S
from ..context import Context
from ..fields import hint_while_empty
from ..widgets import WHOLE_LINES, text_button
from .log_parts import infraction_title, local_time, place_label, player_label, tier_of

MATCHES = 8


def infraction_matches(ctx: Context, query: str) -> list[Infraction]:
    """The infractions `query` finds, best first (principles are not recordable)."""
    if not query.strip():
        return []
    hits = ctx.index.search(query, limit=MATCHES * 2)
    return [hit.entry for hit in hits if isinstance(hit.entry, Infraction)][:MATCHES]


def infraction_picker(
    ctx: Context,
    query: str,
    on_query: Callable[[str], None],
    on_pick: Callable[[str], None],
    error: str | None = None,
    on_finder: Callable[[], None] | None = None,
) -> list[ft.Control]:
    """A search field and its matches, each a tap to choose; the finder for a judge without
    the words. `on_query` keeps what is typed (the form's draft), `on_pick` gets the id,
    `on_finder` is told before the finder opens."""

    def open_finder(_: ft.Event) -> None:
        if on_finder is not None:
            on_finder()
        ctx.actions.navigate(routes.FINDER.link())

    results = ft.Column(spacing=0)

    def fill(text: str) -> None:
        found = infraction_matches(ctx, text)
        results.controls = [match_row(ctx, infraction, on_pick) for infraction in found]
        if text.strip() and not found:
            results.controls = [ft.Text(ctx.ui(S.PICK_NONE), size=ctx.sizes.small)]

    def changed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        on_query(text)
        fill(text)
        results.update()

    fill(query)
    return [
        ft.Text(ctx.ui(S.PICK_INFRACTION), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
        hint_while_empty(
            ft.TextField(
                error_max_lines=WHOLE_LINES,
                hint_max_lines=WHOLE_LINES,
                value=query,
                label=ctx.ui(S.PICK_SEARCH),
                prefix_icon=ft.Icons.SEARCH,
                on_change=changed,
                error=error,
                text_size=ctx.sizes.body,
            ),
            ctx.ui(S.PICK_SEARCH_HINT),
        ),
        results,
        text_button(
            ctx,
            S.PICK_FINDER,
            kind=ft.TextButton,
            icon=ft.Icons.QUIZ,
            on_click=open_finder,
        ),
    ]


def match_row(ctx: Context, infraction: Infraction, on_pick: Callable[[str], None]) -> ft.Control:
    tier = infraction.penalty
    return ft.ListTile(
        title=ft.Text(ctx.pick(ctx.regulation.standalone_title(infraction)), size=ctx.sizes.body),
        subtitle=ft.Text(f"{tier.letter} {ctx.pick(tier.title)}", size=ctx.sizes.small),
        leading=ft.Icon(ft.Icons.ADD_TASK),
        on_click=lambda _: on_pick(infraction.id),
        dense=True,
        content_padding=ft.Padding.symmetric(horizontal=4),
    )


def player_event_lines(
    ctx: Context, store: LogStore, event_id: str, player: Player, leave_out: str | None
) -> list[ft.Control]:
    """Everything the named player already has in this tournament, whatever the infraction,
    one line each, oldest first (`leave_out`: the record being edited)."""
    if not player.name.strip():
        return []
    history = [r for r in store.player_history(event_id, player) if r.id != leave_out]
    if not history:
        return []
    lines: list[ft.Control] = [
        ft.Text(
            ctx.ui(S.FORM_PLAYER_SO_FAR, player=player_label(ctx, player), count=len(history)),
            size=ctx.sizes.small,
            weight=ft.FontWeight.BOLD,
        )
    ]
    for record in history:
        tier = tier_of(ctx, record.tier_id)
        facts = [place_label(ctx, record), f"{tier.letter} {ctx.pick(tier.title)}"]
        facts += [infraction_title(ctx, record.infraction_id), local_time(record.created_at)]
        lines.append(ft.Text("· " + " · ".join(f for f in facts if f), size=ctx.sizes.small))
    return lines

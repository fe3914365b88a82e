"""The penalty log: the current tournament's records grouped by round, the current round first,
newest first in each; filters by round, by table and by player; and a player's whole history in
the tournament."""

from __future__ import annotations

import time

import flet as ft

from records.model import Event, Player, Record
from records.store import LogStore, now_local
from regulation.model import Text

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..fields import hint_while_empty, menu_width
from ..routes import Route
from ..theme import FONT_FAMILY
from ..widgets import WHOLE_LINES, heading, penalty_chip, text_button
from .log_parts import (
    current_round,
    fault_screen,
    occurrences,
    open_store,
    player_label,
    player_route,
    record_row,
    recovery_banner,
    round_choice,
    round_label,
    round_numbers,
    tier_of,
)
from .sync_parts import sync_bar

PAGE = 30  # records shown at once ("show more" adds as many): each row costs Flet ~1 ms to send
PLAYER_MATCHES = 12


def log_screen(ctx: Context, route: Route) -> Screen:
    store = open_store(ctx)
    title = ctx.ui(S.LOG_TITLE)
    if store is None:
        return fault_screen(ctx, title)
    event = store.current_event()
    logbook = ctx.logbook
    results = ft.Column(spacing=2)

    def show(text: str) -> None:
        logbook.player_filter = text
        results.controls = (
            player_matches(ctx, store, event, text)
            if text.strip()
            else log_rows(ctx, store, event, results)
        )

    def on_filter(e: ft.Event[ft.TextField]) -> None:
        show(e.control.value or "")
        results.update()

    def on_round(e: ft.Event[ft.Dropdown]) -> None:
        value = e.control.value or ""
        logbook.round_filter = int(value) if value.isdigit() else None
        logbook.pages = 1
        show(logbook.player_filter)
        results.update()

    def on_table(e: ft.Event[ft.TextField]) -> None:
        logbook.table_filter = (e.control.value or "").strip()
        logbook.pages = 1
        show(logbook.player_filter)
        results.update()

    show(logbook.player_filter)
    rounds = round_options(ctx, store, event)
    controls: list[ft.Control] = []
    banner = recovery_banner(ctx)
    if banner:
        controls.append(banner)
    controls.append(event_bar(ctx, event))
    sharing = sync_bar(ctx)  # hosting / joined, last synced / offline, waiting
    if sharing is not None:
        controls.append(sharing)
    controls += [
        text_button(
            ctx,
            S.LOG_NEW_RECORD,
            kind=ft.FilledButton,
            icon=ft.Icons.ADD,
            on_click=lambda _: ctx.actions.navigate(routes.LOG_NEW.link()),
        ),
        text_button(
            ctx,
            S.LOG_RECORD_TARDINESS,
            kind=ft.FilledTonalButton,
            icon=ft.Icons.DIRECTIONS_RUN,
            # The moment of the tap travels in the route: going back to the form keeps it.
            on_click=lambda _: ctx.actions.navigate(
                routes.LOG_NEW.link(arrived=str(int(time.time())))
            ),
        ),
        hint_while_empty(
            ft.TextField(
                error_max_lines=WHOLE_LINES,
                hint_max_lines=WHOLE_LINES,
                value=logbook.player_filter,
                label=ctx.ui(S.LOG_FILTER),
                prefix_icon=ft.Icons.PERSON_SEARCH,
                on_change=on_filter,
                text_size=ctx.sizes.body,
            ),
            ctx.ui(S.LOG_FILTER_HINT),
        ),
        ft.Row(
            [
                ft.Dropdown(
                    label=ctx.ui(S.LOG_ROUND_FILTER),
                    value=str(logbook.round_filter or ALL_ROUNDS),
                    options=rounds,
                    on_select=on_round,
                    # Its arrow is a Tab stop of its own: named, not an empty stop.
                    trailing_icon=ft.Icon(
                        ft.Icons.ARROW_DROP_DOWN, semantics_label=ctx.ui(S.LOG_ROUND_FILTER)
                    ),
                    selected_trailing_icon=ft.Icon(
                        ft.Icons.ARROW_DROP_UP, semantics_label=ctx.ui(S.LOG_ROUND_FILTER)
                    ),
                    # Editable: Tab reaches it, named by its label (log_form.py).
                    editable=True,
                    # Not text_size: Flet 1.0.5 then drops the theme's font (log_form.py).
                    text_style=ft.TextStyle(size=ctx.sizes.body, font_family=FONT_FAMILY),
                    width=menu_width(ctx, [o.text or "" for o in rounds]),
                ),
                ft.TextField(
                    error_max_lines=WHOLE_LINES,
                    hint_max_lines=WHOLE_LINES,
                    value=logbook.table_filter,
                    label=ctx.ui(S.LOG_TABLE_FILTER),
                    on_change=on_table,
                    text_size=ctx.sizes.body,
                    width=round(110 * ctx.sizes.scale),
                ),
            ],
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        results,
    ]
    return Screen(
        title=title,
        body=ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True),
        detail_hint=S.LOG_DETAIL_HINT,
        rows_follow_selection=True,
    )


def event_bar(ctx: Context, event: Event) -> ft.Control:
    """Which tournament records go to, and its settings, export and import."""
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Icon(ft.Icons.EVENT),
                    ft.Text(
                        ctx.ui(S.LOG_EVENT_LINE, name=event.name),
                        size=ctx.sizes.heading,
                        weight=ft.FontWeight.BOLD,
                        expand=True,
                    ),
                ]
            ),
            ft.Row(
                [
                    text_button(
                        ctx,
                        S.EVENT_SETTINGS,
                        icon=ft.Icons.TUNE,
                        on_click=lambda _: ctx.actions.navigate(routes.LOG_EVENT.link()),
                    ),
                    text_button(
                        ctx,
                        S.EXCHANGE_TITLE,
                        icon=ft.Icons.IMPORT_EXPORT,
                        on_click=lambda _: ctx.actions.navigate(routes.LOG_EXCHANGE.link()),
                    ),
                    text_button(
                        ctx,
                        S.LOG_DELETED_TITLE,
                        icon=ft.Icons.DELETE_OUTLINE,
                        on_click=lambda _: ctx.actions.navigate(routes.LOG_DELETED.link()),
                    ),
                ],
                wrap=True,
            ),
        ],
        spacing=4,
    )


ALL_ROUNDS = "all"


def round_options(ctx: Context, store: LogStore, event: Event) -> list[ft.DropdownOption]:
    latest = store.records(event.id, limit=1)
    numbers = round_numbers(event, latest[0].round if latest else None)
    options = [ft.DropdownOption(key=ALL_ROUNDS, text=ctx.ui_short(S.LOG_ALL_ROUNDS))]
    return options + [ft.DropdownOption(key=str(n), text=round_choice(ctx, n)) for n in numbers]


def log_rows(ctx: Context, store: LogStore, event: Event, column: ft.Column) -> list[ft.Control]:
    """The tournament's records (of the round and table asked for), grouped by round with the
    current round first, newest first in each; a page at a time (as many pages as the judge
    asked for), "show more" below."""
    logbook = ctx.logbook
    wanted = PAGE * logbook.pages
    records = store.records(
        event.id,
        round_number=logbook.round_filter,
        table=logbook.table_filter or None,
        limit=wanted + 1,
    )
    if not records:
        filtered = logbook.round_filter is not None or logbook.table_filter
        return [ft.Text(ctx.ui(S.LOG_NONE_HERE if filtered else S.LOG_EMPTY), size=ctx.sizes.body)]
    shown = list(records[:wanted])
    latest = store.records(event.id, limit=1)
    now_round = current_round(event, latest[0].round if latest else None, now_local())
    controls = rows_by_round(ctx, store, shown, now_round)
    if len(records) > wanted:

        def more(_: ft.Event) -> None:
            logbook.pages += 1
            column.controls = log_rows(ctx, store, event, column)
            column.update()

        button = text_button(
            ctx,
            S.LOG_MORE,
            kind=ft.TextButton,
            icon=ft.Icons.EXPAND_MORE,
            on_click=more,
        )
        controls.append(button)
    return controls


def rows_by_round(
    ctx: Context, store: LogStore, records: list[Record], now_round: int
) -> list[ft.Control]:
    """Rows under one heading per round: the current round first, then the others from the
    latest down, records without a round last; newest first under each."""
    groups: dict[int | None, list[tuple[Record, int]]] = {}
    for record, occurrence in zip(records, occurrences(store, records), strict=True):
        groups.setdefault(record.round, []).append((record, occurrence))

    def order(number: int | None) -> tuple[int, int]:
        if number is None:
            return (2, 0)
        return (0 if number == now_round else 1, -number)

    controls: list[ft.Control] = []
    for number in sorted(groups, key=order):
        label = round_label(ctx, number)
        if number == now_round:  # each language's round in its own sentence: once in "both"
            found = ctx.text(S.ROUND_N, number=number)
            current = ctx.text(S.LOG_CURRENT_ROUND)
            now = Text(current.ja.format(round=found.ja), current.en.format(round=found.en))
            label = now.shown(ctx.lang)
        controls.append(ft.Container(heading_text(ctx, label), padding=ft.Padding.only(top=8)))
        controls += [record_row(ctx, record, occurrence) for record, occurrence in groups[number]]
    return controls


def heading_text(ctx: Context, text: str) -> ft.Text:
    return ft.Text(text, size=ctx.sizes.heading, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)


def player_matches(ctx: Context, store: LogStore, event: Event, text: str) -> list[ft.Control]:
    """Players of this tournament whose name (a word of it) or ID starts with `text`, each
    a way to their history; the forms of one player (山田 太郎, 山田太郎) count once."""
    rows: list[ft.Control] = []
    seen: set[frozenset[str]] = set()
    for player in store.recent_players(text, event_id=event.id, limit=PLAYER_MATCHES):
        history = store.player_history(event.id, player)
        if not history:
            break  # the tournament's players come first: the rest are from other tournaments
        key = frozenset(r.id for r in history)
        if key in seen:
            continue
        seen.add(key)
        rows.append(player_row(ctx, player, history))
    if not rows:
        return [ft.Text(ctx.ui(S.PLAYER_NONE), size=ctx.sizes.body)]
    return [ft.Text(ctx.ui(S.PLAYER_MATCHES), size=ctx.sizes.small), *rows]


def player_row(ctx: Context, player: Player, history: tuple[Record, ...]) -> ft.ListTile:
    severest = max((tier_of(ctx, r.tier_id) for r in history), key=lambda t: t.severity)
    return ft.ListTile(
        leading=ft.Icon(ft.Icons.PERSON),
        title=ft.Text(player_label(ctx, player), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
        subtitle=ft.Row(
            [
                ft.Text(ctx.ui(S.PLAYER_RECORDS, count=len(history)), size=ctx.sizes.small),
                penalty_chip(ctx, severest),
            ],
            wrap=True,
            spacing=8,
        ),
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _: ctx.actions.navigate(player_route(player)),
        content_padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def player_screen(ctx: Context, route: Route) -> Screen | None:
    """A player's whole history in the current tournament, oldest first, repeats marked."""
    name = route.item or ""
    if not name.strip():
        return None
    player = Player(name, route.value("pid") or None)
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, name)
    event = store.current_event()
    history = store.player_history(event.id, player)
    controls: list[ft.Control] = [
        ft.Text(player_label(ctx, player), size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Text(ctx.ui(S.LOG_EVENT_LINE, name=event.name), size=ctx.sizes.small),
    ]
    if history:
        severest = max((tier_of(ctx, r.tier_id) for r in history), key=lambda t: t.severity)
        controls.append(
            ft.Row(
                [
                    ft.Text(ctx.ui(S.PLAYER_RECORDS, count=len(history)), size=ctx.sizes.body),
                    ft.Text(ctx.ui(S.PLAYER_SEVEREST), size=ctx.sizes.body),
                    penalty_chip(ctx, severest),
                ],
                wrap=True,
            )
        )
        controls.append(heading(ctx, S.PLAYER_HISTORY))
        controls += [
            record_row(ctx, record, occurrence, show_player=False)
            for record, occurrence in zip(history, occurrences(store, history), strict=True)
        ]
    else:
        controls.append(ft.Text(ctx.ui(S.PLAYER_NO_RECORDS), size=ctx.sizes.body))
    return Screen(
        title=" ".join(name.split()),
        body=ft.Column(controls, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True),
        detail_hint=S.LOG_DETAIL_HINT,
        rows_follow_selection=True,
    )

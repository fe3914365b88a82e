"""What the penalty log's screens share: the store or why it cannot be opened, the notice of a
damaged file set aside, record rows, the repeat notice, round / table / time labels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

import flet as ft

from records.errors import InvalidInput, LogError
from records.model import Event, Player, Record, RepeatCheck
from records.store import LogStore
from records.tiers import OFFICIALLY_RECORDED, REPEAT_PRINCIPLE_ID, officially_recorded
from regulation.model import Tier

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..theme import TIER_COLORS, WARNING_BOX_OPACITY, WARNING_COLOR, WARNING_OPACITY
from ..widgets import bilingual, penalty_chip, scrolling_column, text_button
from .log_recorded import earlier_label, judge_label

ERROR_COLOR = ft.Colors.ERROR  # the theme's: readable on the page in both themes


# -- the store -----------------------------------------------------------------------------------


def change_log(
    ctx: Context,
    change: Callable[[], object],
    done: str,
    undo: Callable[[], None] | None = None,
) -> None:
    """One change of the penalty log from a screen: once it is saved, the screens that show the
    log are redrawn and `done` is said (with an undo button when `undo` is given); a failure to
    save (a full or read-only disk) is said instead and nothing changed. Invalid input goes
    back to the caller, to mark its field."""
    try:
        change()
    except InvalidInput:
        raise
    except LogError as exc:
        ctx.actions.notify(ctx.ui(S.SAVE_FAILED, reason=str(exc)))
        return
    log_changed(ctx, done, undo)


def log_changed(ctx: Context, done: str, undo: Callable[[], None] | None = None) -> None:
    """After a change of the log is saved: redraw what shows it, and say `done`."""
    ctx.actions.log_changed()
    ctx.actions.refresh()
    ctx.actions.notify(done, undo)


def open_store(ctx: Context) -> LogStore | None:
    """The store, or None when it cannot be opened (`ctx.logbook.fault` says why)."""
    try:
        return ctx.logbook.open()
    except LogError:
        return None


def fault_screen(ctx: Context, title: str) -> Screen:
    """The log cannot be opened (a read-only or full folder, …): one clear line, the exact
    fault, a way to try again; the regulation screens are unaffected."""
    controls: list[ft.Control] = [
        ft.Icon(ft.Icons.ERROR_OUTLINE, size=40, color=ERROR_COLOR),
        ft.Text(ctx.ui(S.LOG_UNAVAILABLE), size=ctx.sizes.title, weight=ft.FontWeight.BOLD),
        ft.Text(ctx.logbook.fault or "", size=ctx.sizes.body),
        ft.Text(ctx.ui(S.LOG_UNAVAILABLE_HINT), size=ctx.sizes.small),
        ft.Text(ctx.ui(S.DATA_FOLDER, path=str(ctx.logbook.folder)), size=ctx.sizes.small),
        text_button(
            ctx,
            S.RETRY,
            kind=ft.FilledButton,
            icon=ft.Icons.REFRESH,
            on_click=lambda _: ctx.actions.refresh(),
        ),
    ]
    return Screen(title=title, body=scrolling_column(controls))


def recovery_banner(ctx: Context) -> ft.Control | None:
    """A damaged log file was moved aside at start-up and a fresh log begun: said once, in
    one line, until the judge dismisses it."""
    recovery = ctx.logbook.notice()
    if recovery is None:
        return None

    def dismiss(_: ft.Event) -> None:
        ctx.logbook.dismiss_notice()
        ctx.actions.refresh()

    return ft.Container(
        ft.Row(
            [
                ft.Icon(ft.Icons.REPORT, color=ERROR_COLOR),
                ft.Text(
                    ctx.ui(S.LOG_RECOVERED, fault=recovery.fault, kept=str(recovery.moved_to)),
                    size=ctx.sizes.body,
                    expand=True,
                ),
                text_button(
                    ctx,
                    S.DISMISS,
                    kind=ft.TextButton,
                    on_click=dismiss,
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        border=ft.Border.all(2, ERROR_COLOR),
        border_radius=8,
        padding=12,
    )


# -- labels ----------------------------------------------------------------------------------------


def local_time(moment: datetime, with_date: bool = False) -> str:
    """A time as the device shows it (records keep their own UTC offset). One the device's
    time zone cannot hold (a log written before times were bounded: 9999-12-31) is shown as
    written, with its offset, rather than stopping the screen."""
    style = "%Y-%m-%d %H:%M" if with_date else "%H:%M"
    try:
        return moment.astimezone().strftime(style)
    except (OverflowError, ValueError, OSError):
        return moment.strftime(f"{style} UTC%z")


def round_label(ctx: Context, number: int | None) -> str:
    return ctx.ui(S.ROUND_N, number=number) if number is not None else ctx.ui(S.NO_ROUND)


def round_choice(ctx: Context, number: int | None) -> str:
    """A round menu's entry: one language in "both", as its field is one line (its label says
    what it is in both; "1回戦 / Round 1" was cut on a phone at 175 %)."""
    if number is None:
        return ctx.ui_short(S.NO_ROUND)
    return ctx.ui_short(S.ROUND_N, number=number)


def place_label(ctx: Context, record: Record) -> str:
    """3回戦 · 12卓 / Round 3 · Table 12 (what is known of it)."""
    parts = [round_label(ctx, record.round)] if record.round is not None else []
    if record.table:
        parts.append(ctx.ui(S.TABLE_N, table=record.table))
    return " · ".join(parts)


def player_label(ctx: Context, player: Player) -> str:
    name = " ".join(player.name.split())  # a name may hold line breaks; a label is one line
    if player.player_id:
        return ctx.ui(S.PLAYER_WITH_ID, name=name, id=player.player_id)
    return name


def player_route(player: Player) -> str:
    return routes.LOG_PLAYER.link(player.name, pid=player.player_id or "")


def tier_of(ctx: Context, tier_id: str) -> Tier:
    tier = ctx.regulation.tier(tier_id)
    assert tier is not None  # the store validates every tier it saves or imports
    return tier


def infraction_title(ctx: Context, infraction_id: str) -> str:
    infraction = ctx.regulation.infraction(infraction_id)
    return ctx.pick(ctx.regulation.standalone_title(infraction)) if infraction else infraction_id


def tier_badge(ctx: Context, tier: Tier) -> ft.Control:
    """The tier's colour and letter in a circle, at the start of a row (the row's text names
    the tier too: colour is never the only signal)."""
    colors = TIER_COLORS[tier.severity]
    side = round(34 * ctx.sizes.scale)
    return ft.Container(
        ft.Text(
            tier.letter, color=colors.foreground, weight=ft.FontWeight.BOLD, size=ctx.sizes.body
        ),
        bgcolor=colors.background,
        width=side,
        height=side,
        border_radius=side / 2,
        alignment=ft.Alignment.CENTER,
    )


def record_row(
    ctx: Context, record: Record, occurrence: int, *, show_player: bool = True
) -> ft.ListTile:
    """One record in a list: the tier's badge, the player, the infraction, the tier, where and
    when, and from the second time the player has this infraction in the tournament, a repeat
    mark. Few controls (a log shows many rows, and each control costs Flet time to send)."""
    tier = tier_of(ctx, record.tier_id)
    facts = [f"{tier.letter} {ctx.pick(tier.title)}", place_label(ctx, record)]
    facts.append(local_time(record.created_at))
    facts.append(judge_label(ctx, record) or "")  # who recorded it (venue sync)
    infraction = infraction_title(ctx, record.infraction_id)
    details = " · ".join(fact for fact in facts if fact)
    lines = f"{infraction}\n{details}" if show_player else details
    size = ctx.sizes.small
    if occurrence > 1:
        tint = ft.Colors.with_opacity(WARNING_OPACITY, WARNING_COLOR)
        mark = ft.TextStyle(weight=ft.FontWeight.BOLD, bgcolor=tint)
        subtitle = ft.Text(
            spans=[
                ft.TextSpan(lines + "\n"),
                ft.TextSpan(ctx.ui(S.REPEAT_TAG, count=occurrence), style=mark),
            ],
            size=size,
        )
    else:
        subtitle = ft.Text(lines, size=size)
    title = player_label(ctx, record.player) if show_player else infraction
    return ft.ListTile(
        data=record.id,  # a kept list pane moves the selection by it (views/wide.py)
        leading=tier_badge(ctx, tier),
        title=ft.Text(title, size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
        subtitle=subtitle,
        selected=record.id == ctx.state.selected_id,
        on_click=lambda _: ctx.actions.navigate(routes.LOG_RECORD.link(record.id)),
        content_padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


# -- repeats --------------------------------------------------------------------------------------


def repeat_notice(
    ctx: Context,
    check: RepeatCheck,
    *,
    saved: bool,
    choose_tier: Callable[[str], None] | None = None,
) -> ft.Control | None:
    """The player already has this infraction (or another of its section) in this tournament:
    how often and when, the principle in the regulation's own words, and, as the app's
    suggestion (the regulation names no tier), one tier above the infraction's own, which the
    judge *may* apply. The tier is never changed here; on the form the judge may choose it
    (`choose_tier`)."""
    if not check.is_repeat and not check.has_related:
        return None
    principle = ctx.regulation.principle(REPEAT_PRINCIPLE_ID)
    count_line = (
        ctx.ui(S.REPEAT_SAVED, count=check.occurrence)
        if saved
        else ctx.ui(S.REPEAT_BEFORE, count=len(check.previous))
    )
    controls: list[ft.Control] = [
        ft.Row(
            [
                ft.Icon(ft.Icons.WARNING_AMBER, color=WARNING_COLOR),
                ft.Text(
                    ctx.shown(principle.label) if principle else "",
                    size=ctx.sizes.heading,
                    weight=ft.FontWeight.BOLD,
                    expand=True,
                ),
            ]
        ),
    ]
    if check.is_repeat:
        controls.append(ft.Text(count_line, size=ctx.sizes.body, weight=ft.FontWeight.BOLD))
    controls += [_earlier_record(ctx, record, link=saved) for record in check.previous]
    if check.has_related:
        controls.append(ft.Text(ctx.ui(S.REPEAT_RELATED), size=ctx.sizes.body))
        controls += [_earlier_record(ctx, record, link=saved) for record in check.related]
    if principle:  # quoted as the regulation says it
        controls.append(
            ft.Container(
                bilingual(ctx, principle.text),
                border=ft.Border.only(left=ft.BorderSide(4, WARNING_COLOR)),
                padding=ft.Padding.only(left=12, top=4, bottom=4),
            )
        )
    higher = ctx.regulation.tier(check.next_tier_id) if check.next_tier_id else None
    if higher is None and not check.higher_chosen:
        controls.append(ft.Text(ctx.ui(S.REPEAT_NO_HIGHER), size=ctx.sizes.body))
    elif higher is None:
        pass  # a tier above the infraction's own is chosen: nothing more to suggest
    else:
        controls.append(
            ft.Row(
                [
                    ft.Text(ctx.ui(S.REPEAT_NEXT_TIER), size=ctx.sizes.body),
                    penalty_chip(ctx, higher),
                ],
                wrap=True,
            )
        )
        controls.append(ft.Text(ctx.ui(S.REPEAT_JUDGE_DECIDES), size=ctx.sizes.small))
        if choose_tier is not None:
            tier_id = higher.id
            controls.append(
                ft.OutlinedButton(
                    content=ft.Text(
                        ctx.ui(S.REPEAT_CHOOSE, tier=f"{higher.letter} {ctx.pick(higher.title)}"),
                        size=ctx.sizes.body,
                    ),
                    icon=ft.Icons.ARROW_UPWARD,
                    on_click=lambda _: choose_tier(tier_id),
                )
            )
    return ft.Container(
        ft.Column(controls, spacing=8, tight=True),
        bgcolor=ft.Colors.with_opacity(WARNING_BOX_OPACITY, WARNING_COLOR),
        border=ft.Border.all(2, WARNING_COLOR),
        border_radius=8,
        padding=12,
    )


def _earlier_record(ctx: Context, record: Record, link: bool) -> ft.Control:
    """An earlier record of the same infraction: when, where, its tier (a link on a saved
    record's page; on the form a link would leave the form)."""
    where = earlier_label(ctx, record, place_label(ctx, record))  # and the judge (venue sync)
    when = local_time(record.created_at, with_date=True)
    line = ft.Row(
        [
            ft.Text(f"{when} · {where}" if where else when, size=ctx.sizes.small),
            penalty_chip(ctx, tier_of(ctx, record.tier_id)),
        ],
        wrap=True,
        spacing=8,
    )
    if not link:
        return line
    return ft.ListTile(
        title=line,
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _: ctx.actions.navigate(routes.LOG_RECORD.link(record.id)),
        dense=True,
        content_padding=ft.Padding.symmetric(horizontal=4),
    )


def official_note(ctx: Context, tier_id: str) -> ft.Control | None:
    """デュエルの敗北は公式に記録される: the tier's own sentence, for the tiers that say so."""
    if not officially_recorded(ctx.regulation, tier_id):
        return None
    tier = tier_of(ctx, tier_id)
    point = next(p for p in tier.points if OFFICIALLY_RECORDED in p.ja)
    return ft.Row(
        # expand: the sentence wraps in the row's width (without, it ran off the right side)
        [
            ft.Icon(ft.Icons.VERIFIED, size=ctx.sizes.heading),
            ft.Container(bilingual(ctx, point), expand=True),
        ],
        vertical_alignment=ft.CrossAxisAlignment.START,
        wrap=False,
    )


# -- rounds ---------------------------------------------------------------------------------------


def current_round(event: Event, latest_recorded: int | None, now: datetime) -> int:
    """The round a new record most likely belongs to: the one whose assembly time passed
    last; before any, the first round set; with rounds set but no times, the highest (judges
    add rounds as they go); with no rounds, the round of the latest record, else 1."""
    started = [r for r in event.rounds if r.assembly_at is not None and r.assembly_at <= now]
    if started:
        return max(started, key=lambda r: (r.assembly_at, r.number)).number
    if event.rounds:
        timed = [r for r in event.rounds if r.assembly_at is not None]
        return min(r.number for r in timed) if timed else max(r.number for r in event.rounds)
    return latest_recorded or 1


def round_numbers(event: Event, *known: int | None) -> list[int]:
    """The rounds a form offers: 1 up to one past the highest set or known."""
    highest = max([r.number for r in event.rounds] + [n for n in known if n] + [0])
    return list(range(1, min(highest + 1, 999) + 1))


def occurrences(store: LogStore, records: Sequence[Record]) -> list[int]:
    """Each record's place among the same player's records of the same infraction (1: the
    first), as the record page and the slip line count it."""
    return [store.repeats_of(record).occurrence for record in records]

"""The record form: the player, the round and table, the tier (the infraction's, changeable),
a note; a repeat said before saving; for tardiness, "arrived now" against the round's assembly
time. The common case is a tap on "record this penalty", a name and a tap on Save.

What the judge has typed lives in a `Draft` kept by the session (views/logbook.py), not in the
controls: a language switch or a turned phone rebuilds the form without losing a letter.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

import flet as ft

from records.errors import InvalidInput, LogError
from records.model import Player, Record, RecordInput, RepeatCheck
from records.store import LogStore, now_local
from records.tardiness import LATE_UNDER_THRESHOLDS, TARDINESS_INFRACTION_IDS, TardinessSuggestion
from regulation.model import Infraction

from .. import routes
from .. import strings as S
from ..context import Context, Screen
from ..fields import menu_width
from ..routes import Route
from ..theme import FONT_FAMILY, TIER_COLORS
from ..widgets import (
    WHOLE_LINES,
    penalty_chip,
    penalty_label,
    scrolling_column,
    text_button,
    tier_text,
)
from .clock_calls import form_call_button
from .log_parts import (
    ERROR_COLOR,
    current_round,
    fault_screen,
    local_time,
    official_note,
    open_store,
    player_label,
    recovery_banner,
    repeat_notice,
    round_choice,
    round_label,
    round_numbers,
)
from .log_picker import infraction_picker, player_event_lines

SUGGESTIONS = 6
NO_ROUND = "none"  # the round menu's key for "no round"
# Where the store's field names (records.errors.InvalidInput.field) show on this form.
FIELDS = {
    "player.name": "name",
    "player.id": "player_id",
    "round": "round",
    "table": "table",
    "note": "note",
}
REASONS = {
    "required": S.FORM_REQUIRED,
    "too_long": S.FORM_TOO_LONG,
    "control_character": S.FORM_BAD_CHARACTER,
}


@dataclass
class Draft:
    """The form's values as the judge left them."""

    event_id: str
    infraction_id: str | None  # None: a tardiness entry still to choose
    round: int | None
    tier_id: str | None = None  # chosen by the judge; None follows the infraction's
    name: str = ""
    player_id: str = ""
    table: str = ""
    note: str = ""
    arrived_at: datetime | None = None  # tardiness: when the player arrived
    record_id: str | None = None  # the record being edited
    picking: bool = False  # the infraction picker is open (to change the infraction)
    pick_query: str = ""  # what the judge typed into it
    errors: dict[str, str] = field(default_factory=dict)  # by form field
    failure: str | None = None  # why the last save failed

    def answered(self, infraction_id: str) -> Draft:
        """These values with the finder's answer: its infraction and that infraction's tier,
        the picker closed."""
        return replace(
            self,
            infraction_id=infraction_id,
            tier_id=None,
            picking=False,
            pick_query="",
            errors={},
            failure=None,
        )


def arrival(value: str) -> datetime | None:
    """The `arrived` query value: whole seconds since the epoch, as the device's time."""
    try:
        return datetime.fromtimestamp(int(value)).astimezone()
    except (ValueError, OverflowError, OSError):
        return None


def new_record_screen(ctx: Context, route: Route) -> Screen | None:
    infraction_id = route.value("infraction") or None
    arrived = arrival(route.value("arrived")) if route.value("arrived") else None
    if infraction_id is not None and ctx.regulation.infraction(infraction_id) is None:
        return None
    if route.value("arrived") and arrived is None:
        return None  # a broken link, not a form without an arrival
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.FORM_NEW_TITLE))
    draft = ctx.logbook.drafts.get(route.path)
    waiting = ctx.logbook.finder_draft
    if not isinstance(draft, Draft):  # a form begun afresh: no other waits for the finder
        ctx.logbook.finder_draft = None
    if (
        not isinstance(draft, Draft)
        and isinstance(waiting, Draft)
        and waiting.record_id is None  # an edit's answer goes back to the edit (finder_link)
        and infraction_id is not None
    ):
        # The finder's answer to a form's picker: that form's values, with the infraction.
        draft = waiting.answered(infraction_id)
        ctx.logbook.drafts[route.path] = draft
    if not isinstance(draft, Draft):
        event = store.current_event()
        latest = store.records(event.id, limit=1)
        number = current_round(event, latest[0].round if latest else None, now_local())
        draft = Draft(event.id, infraction_id, number, arrived_at=arrived)
        if arrived is not None:
            suggested = suggestion(store, draft)
            if suggested is not None and suggested.infraction_id is not None:
                draft.infraction_id = suggested.infraction_id
        ctx.logbook.drafts[route.path] = draft
    return RecordForm(ctx, store, draft, route.path, None).screen()


def edit_record_screen(ctx: Context, route: Route) -> Screen | None:
    store = open_store(ctx)
    if store is None:
        return fault_screen(ctx, ctx.ui(S.FORM_EDIT_TITLE))
    record = store.record(route.item or "")
    if record is None or record.deleted:
        return None
    draft = ctx.logbook.drafts.get(route.path)
    if not isinstance(draft, Draft):  # a form begun afresh: no other waits for the finder
        ctx.logbook.finder_draft = None
        infraction = ctx.regulation.infraction(record.infraction_id)
        own_tier = infraction is not None and infraction.penalty.id == record.tier_id
        draft = Draft(
            record.event_id,
            record.infraction_id,
            record.round,
            tier_id=None if own_tier else record.tier_id,
            name=record.player.name,
            player_id=record.player.player_id or "",
            table=record.table or "",
            note=record.note or "",
            arrived_at=record.arrived_at,
            record_id=record.id,
        )
        ctx.logbook.drafts[route.path] = draft
    return RecordForm(ctx, store, draft, route.path, record).screen()


def suggestion(store: LogStore, draft: Draft) -> TardinessSuggestion | None:
    """The tardiness entry for the draft's arrival in its round; None without an arrival, a
    round or the round's assembly time."""
    if draft.arrived_at is None or draft.round is None:
        return None
    try:
        return store.suggest_tardiness(draft.event_id, draft.round, draft.arrived_at)
    except InvalidInput:
        return None


class RecordForm:
    def __init__(
        self,
        ctx: Context,
        store: LogStore,
        draft: Draft,
        path: str,
        original: Record | None,
    ) -> None:
        self.ctx = ctx
        self.store = store
        self.draft = draft
        self.path = path
        self.original = original
        self.event = store.event(draft.event_id)
        self.tardiness_mode = (
            draft.arrived_at is not None or draft.infraction_id in TARDINESS_INFRACTION_IDS
        )
        sizes = ctx.sizes
        errors = draft.errors
        self.name_field = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.PLAYER_NAME),
            value=draft.name,
            autofocus=original is None,
            on_change=self._on_name,
            on_submit=self._submit_name,  # Enter saves (a keyboard-only judge)
            error=errors.get("name"),
            text_size=sizes.body,
            prefix_icon=ft.Icons.PERSON,
        )
        self.id_field = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.PLAYER_ID),
            value=draft.player_id,
            on_change=self._on_player_id,
            error=errors.get("player_id"),
            text_size=sizes.body,
        )
        self.round_menu = ft.Dropdown(
            label=ctx.ui(S.FORM_ROUND),
            value=str(draft.round) if draft.round is not None else NO_ROUND,
            options=self._round_options(),
            on_select=self._on_round,
            # Its arrow is a Tab stop of its own: named, not an empty stop.
            trailing_icon=ft.Icon(ft.Icons.ARROW_DROP_DOWN, semantics_label=ctx.ui(S.FORM_ROUND)),
            selected_trailing_icon=ft.Icon(
                ft.Icons.ARROW_DROP_UP, semantics_label=ctx.ui(S.FORM_ROUND)
            ),
            # Editable: its field takes the keyboard's focus (Tab) and is named by its label; a
            # read-only one was skipped by Tab and had no accessible name (Chromium, Flet 1.0.5).
            editable=True,
            error_text=errors.get("round"),
            # Not text_size: Flet 1.0.5 then builds the field's style without the theme's font,
            # and Flutter web fetches a fallback font for the Japanese (seen in Chromium).
            text_style=ft.TextStyle(size=sizes.body, font_family=FONT_FAMILY),
            width=menu_width(ctx, [o.text or "" for o in self._round_options()]),
        )
        self.table_field = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.FORM_TABLE),
            value=draft.table,
            on_change=self._on_table,
            error=errors.get("table"),
            text_size=sizes.body,
            width=140,
        )
        self.note_field = ft.TextField(
            error_max_lines=WHOLE_LINES,
            hint_max_lines=WHOLE_LINES,
            label=ctx.ui(S.FORM_NOTE),
            value=draft.note,
            multiline=True,
            min_lines=2,
            on_change=self._on_note,
            error=errors.get("note"),
            text_size=sizes.body,
        )
        # The parts that follow what is typed or chosen.
        self.infraction_part = ft.Column(spacing=6)
        self.tardiness_part = ft.Column(spacing=6)
        self.suggestions_part = ft.Column(spacing=4)
        self.history_part = ft.Column(spacing=2)
        self.repeat_part = ft.Column()
        self.tier_part = ft.Column(spacing=6)
        self.failure_part = ft.Column()
        self._parts = (
            self.infraction_part,
            self.tardiness_part,
            self.suggestions_part,
            self.history_part,
            self.repeat_part,
            self.tier_part,
            self.failure_part,
        )
        self._fill()

    # -- values ---------------------------------------------------------------------------------

    @property
    def infraction(self) -> Infraction | None:
        infraction_id = self.draft.infraction_id
        return self.ctx.regulation.infraction(infraction_id) if infraction_id else None

    @property
    def tier_id(self) -> str | None:
        """The tier the record will carry: the judge's choice, else the infraction's."""
        if self.draft.tier_id:
            return self.draft.tier_id
        infraction = self.infraction
        return infraction.penalty.id if infraction else None

    def player(self) -> Player:
        return Player(self.draft.name, self.draft.player_id.strip() or None)

    def repeat_check(self) -> RepeatCheck | None:
        infraction, tier = self.draft.infraction_id, self.tier_id
        if not self.draft.name.strip() or infraction is None or tier is None:
            return None
        if self.original is None:
            return self.store.check_repeat(self.draft.event_id, self.player(), infraction, tier)
        # Editing: the records before this one, as the record's page counts them.
        edited = replace(
            self.original, player=self.player(), infraction_id=infraction, tier_id=tier
        )
        return self.store.repeats_of(edited)

    # -- the screen -------------------------------------------------------------------------------

    def screen(self) -> Screen:
        ctx = self.ctx
        controls: list[ft.Control] = []
        banner = recovery_banner(ctx)
        if banner:
            controls.append(banner)
        if self.event is not None:
            controls.append(
                ft.Text(ctx.ui(S.LOG_EVENT_LINE, name=self.event.name), size=ctx.sizes.small)
            )
        # The round clock: "judge call at table T" starts its stopwatch (clock_calls.py).
        found = form_call_button(ctx, self.store, self.table_field, self.draft.round)
        call = [found] if found is not None and self.original is None else []
        controls += [
            self.infraction_part,
            self.tardiness_part,
            self.name_field,
            self.suggestions_part,
            self.history_part,
            self.id_field,
            self.repeat_part,
            ft.Row(
                [self.round_menu, self.table_field, *call],
                wrap=True,
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            self.tier_part,
            self.note_field,
            self.failure_part,
            text_button(
                ctx,
                S.FORM_SAVE,
                kind=ft.FilledButton,
                icon=ft.Icons.SAVE,
                on_click=self._save,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=24, vertical=14)),
            ),
        ]
        title = S.FORM_EDIT_TITLE if self.original else S.FORM_NEW_TITLE
        return Screen(
            title=ctx.ui(title),
            body=scrolling_column(controls, spacing=12),
            focus=None if self.original else self.name_field,
        )

    def _fill(self) -> None:
        self.infraction_part.controls = self._infraction_controls()
        self.tardiness_part.controls = self._tardiness_controls()
        self.suggestions_part.controls = self._suggestion_controls()
        self.history_part.controls = player_event_lines(
            self.ctx,
            self.store,
            self.draft.event_id,
            self.player(),
            None if self.original is None else self.original.id,
        )
        check = self.repeat_check()
        notice = (
            repeat_notice(self.ctx, check, saved=False, choose_tier=self._choose_tier)
            if check
            else None
        )
        self.repeat_part.controls = [notice] if notice else []
        self.tier_part.controls = self._tier_controls()
        self.failure_part.controls = self._failure_controls()

    def _refresh(self) -> None:
        self._fill()
        for part in self._parts:
            part.update()

    def _infraction_controls(self) -> list[ft.Control]:
        ctx = self.ctx
        infraction = self.infraction
        if not self.tardiness_mode and (infraction is None or self.draft.picking):
            return infraction_picker(
                ctx,
                self.draft.pick_query,
                self._on_pick_query,
                self._pick_infraction,
                self.draft.errors.get("infraction"),
                on_finder=self._to_finder,
            )
        if self.tardiness_mode:
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
                            on_click=lambda _, chosen=choice.id: self._choose_tardiness(chosen),
                            content_padding=ft.Padding.symmetric(horizontal=0),
                        )
                        for choice in choices
                        if choice is not None
                    ],
                    spacing=0,
                ),
                value=self.draft.infraction_id,
                on_change=self._on_tardiness_choice,
            )
            controls: list[ft.Control] = [
                ft.Text(ctx.ui(S.TARDY_CHOOSE), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
                group,
            ]
            if "infraction" in self.draft.errors:
                controls.append(
                    ft.Text(self.draft.errors["infraction"], color=ERROR_COLOR, size=ctx.sizes.body)
                )
            return controls
        assert infraction is not None  # a form without one is a tardiness form or picks one
        return [
            ft.Text(
                ctx.shown(ctx.regulation.standalone_title(infraction)),
                size=ctx.sizes.title,
                weight=ft.FontWeight.BOLD,
            ),
            self._penalty_row(infraction),
            text_button(
                ctx,
                S.PICK_CHANGE,
                kind=ft.TextButton,
                icon=ft.Icons.SWAP_HORIZ,
                on_click=self._open_picker,
            ),
        ]

    def _open_picker(self, _: ft.Event) -> None:
        self.draft.picking = True
        self._refresh()

    def _to_finder(self) -> None:
        """The finder's answer (record this penalty) starts from this form: a new record's form
        begins with its values, an edit is opened again with the infraction changed
        (views/logbook.py `finder_link`)."""
        self.ctx.logbook.finder_draft = self.draft

    def _finder_answered(self) -> None:
        """This form no longer waits for the finder (picked by typing, or saved): a later
        "record this penalty" starts afresh, not with this form's player."""
        self.ctx.logbook.finder_draft = None

    def _on_pick_query(self, text: str) -> None:
        self.draft.pick_query = text

    def _pick_infraction(self, infraction_id: str) -> None:
        """A reclassification: the record follows the new infraction's tier (the judge may
        choose another again below)."""
        draft = self.draft
        self._finder_answered()
        draft.infraction_id = infraction_id
        draft.tier_id = None
        draft.picking = False
        draft.pick_query = ""
        draft.errors.pop("infraction", None)
        self._refresh()

    def _penalty_row(self, infraction: Infraction) -> ft.Control:
        """罰則：B 警告 — the infraction's own tier, as its page shows it."""
        ctx = self.ctx
        return ft.Row(
            [
                ft.Text(penalty_label(ctx), size=ctx.sizes.body),
                penalty_chip(ctx, infraction.penalty),
            ],
            wrap=True,
        )

    def _tardiness_controls(self) -> list[ft.Control]:
        if not self.tardiness_mode:
            return []
        ctx = self.ctx
        draft = self.draft
        controls: list[ft.Control] = [
            text_button(
                ctx,
                S.TARDY_ARRIVED_NOW,
                icon=ft.Icons.TIMER,
                on_click=self._arrived_now,
            )
        ]
        if draft.arrived_at is None:
            return controls
        found = suggestion(self.store, draft)
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
            controls.append(
                ft.Text(ctx.ui(S.TARDY_ON_TIME, assembly=assembly), size=ctx.sizes.body)
            )
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

    def _suggestion_controls(self) -> list[ft.Control]:
        ctx = self.ctx
        current = self.player()
        players = [
            p
            for p in self.store.recent_players(
                self.draft.name, event_id=self.draft.event_id, limit=SUGGESTIONS
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
                on_click=lambda _, p=p: self._pick_player(p),
            )
            for p in players
        ]
        return [
            ft.Text(ctx.ui(S.FORM_SUGGESTIONS), size=ctx.sizes.small),
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
        ]

    def _tier_controls(self) -> list[ft.Control]:
        ctx = self.ctx
        chosen = self.tier_id
        chips: list[ft.Control] = []
        for tier in ctx.regulation.tiers:
            colors = TIER_COLORS[tier.severity]
            selected = tier.id == chosen
            chips.append(
                ft.Chip(
                    label=tier_text(ctx, tier),
                    selected=selected,
                    bgcolor=colors.background,
                    selected_color=colors.background,
                    check_color=colors.foreground,
                    border_side=ft.BorderSide(3, ft.Colors.ON_SURFACE)
                    if selected
                    else ft.BorderSide(1, colors.background),
                    on_select=lambda _, tier_id=tier.id: self._choose_tier(tier_id),
                )
            )
        controls: list[ft.Control] = [
            ft.Text(ctx.ui(S.FORM_TIER), size=ctx.sizes.body, weight=ft.FontWeight.BOLD),
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
        ]
        infraction = self.infraction
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

    def _failure_controls(self) -> list[ft.Control]:
        if not self.draft.failure:
            return []
        ctx = self.ctx
        return [
            ft.Container(
                ft.Row(
                    [
                        ft.Icon(ft.Icons.ERROR_OUTLINE, color=ERROR_COLOR),
                        ft.Text(
                            ctx.ui(S.SAVE_FAILED, reason=self.draft.failure),
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

    def _round_options(self) -> list[ft.DropdownOption]:
        assert self.event is not None
        numbers = round_numbers(self.event, self.draft.round)
        options = [ft.DropdownOption(key=NO_ROUND, text=round_choice(self.ctx, None))]
        options += [ft.DropdownOption(key=str(n), text=round_choice(self.ctx, n)) for n in numbers]
        return options

    # -- what the judge does ---------------------------------------------------------------------

    def _on_name(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.name = e.control.value or ""
        self._clear_error("name", self.name_field)
        self._refresh()

    def _submit_name(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.name = e.control.value or ""  # the field's own, whatever came before
        self._save(e)

    def _on_player_id(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.player_id = e.control.value or ""
        self._clear_error("player_id", self.id_field)
        self._refresh()

    def _on_table(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.table = e.control.value or ""
        self._clear_error("table", self.table_field)

    def _on_note(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.note = e.control.value or ""
        self._clear_error("note", self.note_field)

    def _on_round(self, e: ft.Event[ft.Dropdown]) -> None:
        value = e.control.value
        self.draft.round = int(value) if value and value.isdigit() else None
        found = suggestion(self.store, self.draft)
        if found is not None and found.infraction_id is not None:
            self.draft.infraction_id = found.infraction_id
        self._refresh()

    def _on_tardiness_choice(self, e: ft.Event[ft.RadioGroup]) -> None:
        self._choose_tardiness(e.control.value or None)

    def _choose_tardiness(self, infraction_id: str | None) -> None:
        self.draft.infraction_id = infraction_id
        self.draft.errors.pop("infraction", None)
        self._refresh()

    def _arrived_now(self, _: ft.Event) -> None:
        self.draft.arrived_at = now_local()
        found = suggestion(self.store, self.draft)
        if found is not None and found.infraction_id is not None:
            self.draft.infraction_id = found.infraction_id
            self.draft.errors.pop("infraction", None)
        self._refresh()

    def _pick_player(self, player: Player) -> None:
        self.draft.name = player.name
        self.draft.player_id = player.player_id or ""
        self.name_field.value = self.draft.name
        self.id_field.value = self.draft.player_id
        self._clear_error("name", self.name_field)
        self.name_field.update()
        self.id_field.update()
        self._refresh()

    def _choose_tier(self, tier_id: str) -> None:
        """The judge chose a tier (the only way a record's tier differs from its infraction's)."""
        infraction = self.infraction
        own = infraction.penalty.id if infraction else None
        self.draft.tier_id = None if tier_id == own else tier_id
        self._refresh()

    def _clear_error(self, key: str, control: ft.TextField) -> None:
        if self.draft.errors.pop(key, None) is not None:
            control.error = None
            control.update()

    def _save(self, _: ft.Event) -> None:
        ctx = self.ctx
        draft = self.draft
        draft.failure = None
        if draft.infraction_id is None:
            first = S.TARDY_CHOOSE_FIRST if self.tardiness_mode else S.PICK_FIRST
            draft.errors["infraction"] = ctx.ui(first)
            self._refresh()
            return
        arrived_at, late_seconds = self._evidence()
        entry = RecordInput(
            player=self.player(),
            infraction_id=draft.infraction_id,
            tier_id=draft.tier_id,
            round=draft.round,
            table=draft.table,
            note=draft.note,
            arrived_at=arrived_at,
            late_seconds=late_seconds,
        )
        try:
            if draft.record_id is None:
                record = self.store.add_record(draft.event_id, entry)
            else:
                record = self.store.edit_record(draft.record_id, entry)
        except InvalidInput as exc:
            self._show_invalid(exc)
            return
        except LogError as exc:  # a full or read-only disk: nothing saved, nothing lost here
            draft.failure = str(exc)
            self._refresh()
            return
        ctx.logbook.drafts.pop(self.path, None)
        self._finder_answered()
        ctx.actions.log_changed()
        ctx.actions.notify(ctx.ui(S.SAVED))
        ctx.actions.replace(routes.LOG_RECORD.link(record.id))

    def _evidence(self) -> tuple[datetime | None, int | None]:
        """What a tardiness record keeps of "arrived now": the arrival, and how many seconds
        after the round's assembly time it was (none for another infraction, or on time)."""
        draft = self.draft
        if draft.arrived_at is None or draft.infraction_id not in TARDINESS_INFRACTION_IDS:
            return None, None
        found = suggestion(self.store, draft)
        if found is not None and found.late_by.total_seconds() > 0:
            return draft.arrived_at, int(found.late_by.total_seconds())
        original = self.original
        if original is not None and original.arrived_at == draft.arrived_at:
            return draft.arrived_at, original.late_seconds  # the assembly time since removed
        return draft.arrived_at, None

    def _show_invalid(self, exc: InvalidInput) -> None:
        key = FIELDS.get(exc.field or "")
        controls: dict[str, ft.TextField | ft.Dropdown] = {
            "name": self.name_field,
            "player_id": self.id_field,
            "round": self.round_menu,
            "table": self.table_field,
            "note": self.note_field,
        }
        if key is None:
            self.draft.failure = str(exc)
            self._refresh()
            return
        message = self.ctx.ui(
            S.FORM_NAME_REQUIRED
            if (key, exc.reason) == ("name", "required")
            else REASONS.get(exc.reason, S.FORM_INVALID)
        )
        self.draft.errors[key] = message
        control = controls[key]
        if isinstance(control, ft.Dropdown):
            control.error_text = message
        else:
            control.error = message
        control.update()

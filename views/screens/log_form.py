"""The record form: the player, the round and table, the tier (the infraction's, changeable),
a note; a repeat said before saving; for tardiness, "arrived now" against the round's assembly
time. The common case is a tap on "record this penalty", a name and a tap on Save.

What the judge has typed lives in a `Draft` kept by the session (log_draft.py). Here: the new
and edit screens, the fields, and what the judge does; what the form shows around its fields is
log_form_parts.py, saving log_form_save.py.
"""

from __future__ import annotations

from dataclasses import replace

import flet as ft

from records.model import Player, Record, RepeatCheck
from records.store import LogStore, now_local
from records.tardiness import TARDINESS_INFRACTION_IDS
from regulation.model import Infraction

from .. import strings as S
from ..context import Context, Screen
from ..fields import menu_width
from ..routes import Route
from ..theme import FONT_FAMILY
from ..widgets import WHOLE_LINES, scrolling_column, text_button
from .clock_calls import form_call_button
from .log_draft import Draft, arrival, suggestion
from .log_form_parts import (
    NO_ROUND,
    failure_controls,
    infraction_controls,
    round_options,
    suggestion_controls,
    tardiness_controls,
    tier_controls,
)
from .log_form_save import save
from .log_parts import (
    current_round,
    fault_screen,
    open_store,
    recovery_banner,
    repeat_notice,
)
from .log_picker import player_event_lines


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
        rounds = round_options(self)
        self.round_menu = ft.Dropdown(
            label=ctx.ui(S.FORM_ROUND),
            value=str(draft.round) if draft.round is not None else NO_ROUND,
            options=rounds,
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
            width=menu_width(ctx, [o.text or "" for o in rounds]),
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
        self.infraction_part.controls = infraction_controls(self)
        self.tardiness_part.controls = tardiness_controls(self)
        self._fill_player()
        self.tier_part.controls = tier_controls(self)
        self.failure_part.controls = failure_controls(self)

    def _fill_player(self) -> None:
        """The parts that follow the player: the names that match, the player's records in the
        tournament, the repeat notice."""
        self.suggestions_part.controls = suggestion_controls(self)
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

    def _refresh(self) -> None:
        self._fill()
        for part in self._parts:
            part.update()

    def _refresh_player(self) -> None:
        """After each key typed in the name or the player ID: only the parts that follow the
        player are built again and sent. The others (the infraction and its picker, the
        tardiness, the tiers, a failed save's message) read nothing of the player, and
        rebuilding them sent the same controls again with every key."""
        self._fill_player()
        for part in (self.suggestions_part, self.history_part, self.repeat_part):
            part.update()

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

    # -- what the judge does ---------------------------------------------------------------------

    def _on_name(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.name = e.control.value or ""
        self._clear_error("name", self.name_field)
        self._refresh_player()

    def _submit_name(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.name = e.control.value or ""  # the field's own, whatever came before
        self._save(e)

    def _on_player_id(self, e: ft.Event[ft.TextField]) -> None:
        self.draft.player_id = e.control.value or ""
        self._clear_error("player_id", self.id_field)
        self._refresh_player()

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
        self._refresh_player()

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
        save(self)  # views/screens/log_form_save.py

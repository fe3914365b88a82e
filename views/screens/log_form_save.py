"""Saving the record form (views/screens/log_form.py): a new record or the edit, the
tardiness evidence it keeps, and what the store refused shown under its field."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import flet as ft

from records.errors import InvalidInput, LogError
from records.model import RecordInput
from records.tardiness import TARDINESS_INFRACTION_IDS

from .. import routes
from .. import strings as S
from .log_draft import suggestion

if TYPE_CHECKING:
    from .log_form import RecordForm

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


def save(form: RecordForm) -> None:
    ctx = form.ctx
    draft = form.draft
    draft.failure = None
    if draft.infraction_id is None:
        first = S.TARDY_CHOOSE_FIRST if form.tardiness_mode else S.PICK_FIRST
        draft.errors["infraction"] = ctx.ui(first)
        form._refresh()
        return
    arrived_at, late_seconds = evidence(form)
    entry = RecordInput(
        player=form.player(),
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
            record = form.store.add_record(draft.event_id, entry)
        else:
            record = form.store.edit_record(draft.record_id, entry)
    except InvalidInput as exc:
        show_invalid(form, exc)
        return
    except LogError as exc:  # a full or read-only disk: nothing saved, nothing lost here
        draft.failure = str(exc)
        form._refresh()
        return
    ctx.logbook.drafts.pop(form.path, None)
    form._finder_answered()
    ctx.actions.log_changed()
    ctx.actions.notify(ctx.ui(S.SAVED))
    ctx.actions.replace(routes.LOG_RECORD.link(record.id))


def evidence(form: RecordForm) -> tuple[datetime | None, int | None]:
    """What a tardiness record keeps of "arrived now": the arrival, and how many seconds
    after the round's assembly time it was (none for another infraction, or on time)."""
    draft = form.draft
    if draft.arrived_at is None or draft.infraction_id not in TARDINESS_INFRACTION_IDS:
        return None, None
    found = suggestion(form.store, draft)
    if found is not None and found.late_by.total_seconds() > 0:
        return draft.arrived_at, int(found.late_by.total_seconds())
    original = form.original
    if original is not None and original.arrived_at == draft.arrived_at:
        return draft.arrived_at, original.late_seconds  # the assembly time since removed
    return draft.arrived_at, None


def show_invalid(form: RecordForm, exc: InvalidInput) -> None:
    key = FIELDS.get(exc.field or "")
    controls: dict[str, ft.TextField | ft.Dropdown] = {
        "name": form.name_field,
        "player_id": form.id_field,
        "round": form.round_menu,
        "table": form.table_field,
        "note": form.note_field,
    }
    if key is None:
        form.draft.failure = str(exc)
        form._refresh()
        return
    message = form.ctx.ui(
        S.FORM_NAME_REQUIRED
        if (key, exc.reason) == ("name", "required")
        else REASONS.get(exc.reason, S.FORM_INVALID)
    )
    form.draft.errors[key] = message
    control = controls[key]
    if isinstance(control, ft.Dropdown):
        control.error_text = message
    else:
        control.error = message
    control.update()

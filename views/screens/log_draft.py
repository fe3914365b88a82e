"""A record form's values as the judge left them (`Draft`, kept by the session in
views/logbook.py, not in the controls: a language switch or a turned phone rebuilds the form
without losing a letter), the arrival a tardiness link carries, and the tardiness entry an
arrival suggests."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from records.errors import InvalidInput
from records.store import LogStore
from records.tardiness import TardinessSuggestion


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


def suggestion(store: LogStore, draft: Draft) -> TardinessSuggestion | None:
    """The tardiness entry for the draft's arrival in its round; None without an arrival, a
    round or the round's assembly time."""
    if draft.arrived_at is None or draft.round is None:
        return None
    try:
        return store.suggest_tardiness(draft.event_id, draft.round, draft.arrived_at)
    except InvalidInput:
        return None

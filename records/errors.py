"""The errors the penalty log raises: `str()` is always one line a judge can act on."""

from __future__ import annotations


class LogError(Exception):
    """The log cannot do what was asked; nothing was changed. `str()` is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))  # one line, whatever the OS said


class InvalidInput(LogError):
    """A value given to the log (by a form, the command line or an imported file) is invalid.

    `field` names the value (`player.name`, `round`, …) and `reason` says what is wrong as a
    stable code (`required`, `too_long`, `control_character`, `out_of_range`, `unknown_id`,
    `duplicate`, `format`), so a screen can show its own translated message beside the field.
    """

    def __init__(self, message: str, field: str | None = None, reason: str = "format") -> None:
        super().__init__(message)
        self.field = field
        self.reason = reason


class Unwritable(LogError):
    """The log cannot be written where it is (a read-only folder or file, a full disk, a write
    error); it may still be read (records/opening.py opens it read-only then)."""

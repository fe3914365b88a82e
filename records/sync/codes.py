"""Join codes and the keys derived from them.

A join code is 12 symbols from a 32-symbol alphabet without 0/O and 1/I (60 bits from
`secrets`), shown in groups of four: K7QF-2MXD-9PLA. Typing is forgiving: case, width, spaces and
dashes are folded before checking. The code never travels: requests are signed
with a key derived from it (PBKDF2-HMAC-SHA256 salted with the event's id, so a captured request
cannot be tried against guessed codes cheaply), and a short key id (an HMAC of a fixed label)
tells the host which of its codes a device used, so that an old code gets "the code was
replaced" rather than "wrong code".

`Secret` never shows its value in `repr`/`str`, so a code or key cannot end up in a log line or
an error message by accident.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass, field

from ..errors import InvalidInput

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols: 5 bits each, no 0 O 1 I
CODE_LENGTH = 12  # 60 bits
GROUP = 4
KDF_ITERATIONS = 120_000


@dataclass(frozen=True, slots=True)
class Secret:
    """A join code or a key: compared and used, never printed."""

    value: str = field(repr=False)

    def __str__(self) -> str:
        return "<secret>"


def new_code() -> Secret:
    """A fresh join code, grouped for typing (60 bits of randomness from `secrets`)."""
    symbols = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return Secret(group(symbols))


def group(symbols: str) -> str:
    return "-".join(symbols[i : i + GROUP] for i in range(0, len(symbols), GROUP))


def parse_code(text: str) -> Secret:
    """A typed code, folded (case, spaces, dashes, look-alikes) and checked; InvalidInput else.

    The message never repeats what was typed."""
    if not isinstance(text, str):
        raise InvalidInput("the join code must be text", "code", "format")
    # Full-width letters (a Japanese keyboard) fold to ASCII; 0 O 1 I are never in a code.
    folded = "".join(ch for ch in unicodedata.normalize("NFKC", text).upper() if ch not in " -_\t")
    if len(folded) != CODE_LENGTH or any(ch not in ALPHABET for ch in folded):
        raise InvalidInput(
            f"the join code is {CODE_LENGTH} letters and digits in groups of {GROUP} "
            "(like K7QF-2MXD-9PLA); check it on the host's screen",
            "code",
            "format",
        )
    return Secret(group(folded))


def derive_key(code: Secret, event_id: str) -> Secret:
    """The signing key for an event from its join code (hex)."""
    raw = code.value.replace("-", "").encode("ascii")
    salt = f"ocg-penalty-guide/sync/v1/{event_id}".encode()
    return Secret(hashlib.pbkdf2_hmac("sha256", raw, salt, KDF_ITERATIONS).hex())


def key_id(key: Secret) -> str:
    """A short public name of a key (reveals nothing about it)."""
    return hmac.new(bytes.fromhex(key.value), b"key-id", hashlib.sha256).hexdigest()[:16]

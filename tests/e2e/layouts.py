"""The layouts the browser tests run in, defined once for every test file: a phone in portrait
and a laptop window (harness.SIZES), each in Japanese and in English.

    @pytest.mark.parametrize(("size", "lang", "locale"), layouts())           # all four
    @pytest.mark.parametrize(("size", "lang", "locale"), layouts(PAIR))       # two of them
    @pytest.mark.parametrize(("size", "lang"), layouts(PAIR, locale=False))

PAIR, a Japanese phone and an English desktop, covers both sizes and both languages in two
runs, for a test whose layouts matter less than its steps.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

# The browser's locale for each language of the app.
LOCALES = {"ja": "ja-JP", "en": "en-US"}

# (size, language): every combination, the pair first.
LAYOUTS: tuple[tuple[str, str], ...] = (
    ("phone", "ja"),
    ("desktop", "en"),
    ("phone", "en"),
    ("desktop", "ja"),
)
PAIR = LAYOUTS[:2]
OTHER_PAIR = LAYOUTS[2:]


def layouts(
    which: Sequence[tuple[str, str]] = LAYOUTS, *, locale: bool = True
) -> list[pytest.ParameterSet]:
    """The parameters (size, lang, locale), or (size, lang), of each layout, named
    "phone-ja", "desktop-en", …"""
    return [
        pytest.param(size, lang, *([LOCALES[lang]] if locale else []), id=f"{size}-{lang}")
        for size, lang in which
    ]

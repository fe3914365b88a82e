"""The bundled font draws every character the app shows, and all of JIS X 0208, so that no
platform ever needs a fallback font (Flutter web would fetch one; offline it draws boxes)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from views.theme import FONT_FAMILY, FONT_FILES

ROOT = Path(__file__).resolve().parent.parent
SHOWN_FILES = [
    ROOT / "assets" / "rules_ja.yaml",
    ROOT / "locales" / "en" / "LC_MESSAGES" / "messages.po",
    *sorted((ROOT / "views").rglob("*.py")),
]


@pytest.fixture(scope="module")
def covered() -> set[int]:
    font = TTFont(ROOT / "assets" / FONT_FILES[FONT_FAMILY], lazy=True)
    return set(font.getBestCmap())


def jis_x_0208() -> list[str]:
    """Every character of JIS X 0208 (rows 1-94, cells 1-94, as EUC-JP byte pairs)."""
    characters = []
    for row in range(0xA1, 0xFF):
        for cell in range(0xA1, 0xFF):
            try:
                characters.append(bytes((row, cell)).decode("euc_jp"))
            except UnicodeDecodeError:
                continue  # unassigned positions
    return characters


def test_jis_x_0208_is_covered(covered: set[int]) -> None:
    characters = jis_x_0208()
    assert len(characters) > 6800  # 6,879 assigned characters
    missing = [c for c in characters if ord(c) not in covered]
    assert not missing, f"{len(missing)} JIS X 0208 characters missing: {''.join(missing[:40])}"


def test_every_character_the_app_shows_is_covered(covered: set[int]) -> None:
    missing: dict[str, set[str]] = {}
    for path in SHOWN_FILES:
        for character in set(path.read_text(encoding="utf-8")):
            if unicodedata.category(character)[0] in "CZ" and character != "\u3000":
                continue  # line breaks and spaces are not drawn as glyphs
            if ord(character) not in covered:
                missing.setdefault(path.name, set()).add(character)
    assert not missing, missing

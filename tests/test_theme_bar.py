"""The bottom bar's labels fit their destination on a 390 px phone, at every text size, in each
language: measured with the bundled font's own glyph widths (fontTools), as Flutter lays them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from regulation.catalog import load_catalog
from views.screens import DESTINATIONS
from views.theme import FONT_FAMILY, FONT_FILES, TEXT_SCALES, bar_label_size

ROOT = Path(__file__).resolve().parent.parent
PHONE_WIDTH = 390
# Material 3's NavigationBar pads a label only above it (labelPadding: top 4); 2 px are kept
# for rounding and anti-aliasing.
LABEL_ROOM = PHONE_WIDTH / len(DESTINATIONS) - 2


@pytest.fixture(scope="module")
def widths():
    font = TTFont(ROOT / "assets" / FONT_FILES[FONT_FAMILY])
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    per_em = font["head"].unitsPerEm

    def width(text: str, size: float) -> float:
        return sum(metrics[cmap[ord(char)]][0] for char in text) * size / per_em

    return width


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("scale", TEXT_SCALES)
def test_every_label_fits_its_destination(widths, language: str, scale: float) -> None:
    catalog = load_catalog()
    size = bar_label_size(scale, language)
    for destination in DESTINATIONS:
        label = catalog.text(destination.label).pick(language)
        assert widths(label, size) <= LABEL_ROOM, (label, size, LABEL_ROOM)


def test_japanese_labels_still_grow_with_the_text_size() -> None:
    assert bar_label_size(TEXT_SCALES[-1], "ja") > bar_label_size(1.0, "ja")

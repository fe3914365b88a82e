"""Colours, type sizes and the Flet theme: one definition of each, used by every screen."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

FONT_FAMILY = "IPAexGothic"
FONT_FILES = {FONT_FAMILY: "fonts/ipaexg.ttf"}  # relative to assets/
SEED_COLOR = "#1F4E79"
WIDE_BREAKPOINT = 840  # px: rail and list + detail from here on
MASTER_PANE_WIDTH = 380


@dataclass(frozen=True, slots=True)
class TierColors:
    background: str
    foreground: str  # chosen for at least 4.5:1 contrast on `background`


# By severity, A (mildest) to F. Colour is never the only signal: chips also show letter and name.
TIER_COLORS: tuple[TierColors, ...] = (
    TierColors("#2E7D32", "#FFFFFF"),  # A caution: green
    TierColors("#F9A825", "#000000"),  # B warning: amber
    TierColors("#EF6C00", "#000000"),  # C duel forfeiture: orange
    TierColors("#C62828", "#FFFFFF"),  # D match forfeiture: red
    TierColors("#6A1B9A", "#FFFFFF"),  # E disqualification: purple
    TierColors("#212121", "#FFFFFF"),  # F total disqualification: black
)

TEXT_SCALES = (0.85, 1.0, 1.15, 1.3, 1.5, 1.75)


@dataclass(frozen=True, slots=True)
class TypeScale:
    """Font sizes for one text-size setting; every Text takes its size from here."""

    scale: float = 1.0

    def _px(self, base: float) -> float:
        return round(base * self.scale, 1)

    @property
    def label(self) -> float:
        """Navigation labels (Material's label size)."""
        return self._px(12)

    @property
    def small(self) -> float:
        return self._px(13)

    @property
    def body(self) -> float:
        return self._px(16)

    @property
    def heading(self) -> float:
        return self._px(18)

    @property
    def title(self) -> float:
        return self._px(22)

    @property
    def display(self) -> float:
        return self._px(28)


THEME_MODES = {
    "system": ft.ThemeMode.SYSTEM,
    "light": ft.ThemeMode.LIGHT,
    "dark": ft.ThemeMode.DARK,
}


# The bottom bar's English labels stay at this size whatever the text-size setting: with six
# destinations a label has a sixth of a 390 px phone, and "Categories" fills it at 12 px
# (tests/test_theme_bar.py measures every label with the bundled font). Japanese labels (two
# characters) grow with the setting.
BAR_LABEL_MAX_EN = 12.0


def bar_label_size(text_scale: float, language: str) -> float:
    size = TypeScale(text_scale).label
    return min(size, BAR_LABEL_MAX_EN) if language == "en" else size


def apply_theme(page: ft.Page, theme: str, text_scale: float = 1.0, language: str = "ja") -> None:
    """The theme mode, the bundled font, and the text size where Flutter's own widgets draw
    text (navigation labels): every Text of ours takes its size from TypeScale."""
    # On the web the font comes with the client's own font manifest (assets/assets/
    # FontManifest.json), loaded before the first frame; elsewhere Flet registers it.
    if not page.web:
        page.fonts = FONT_FILES
    page.theme = _theme(text_scale, language)
    page.dark_theme = _theme(text_scale, language)
    page.theme_mode = THEME_MODES.get(theme, ft.ThemeMode.SYSTEM)


def _theme(text_scale: float, language: str) -> ft.Theme:
    # The font again: a style given here replaces Flutter's default label style, font and all.
    labels = ft.TextStyle(size=TypeScale(text_scale).label, font_family=FONT_FAMILY)
    bar = ft.TextStyle(size=bar_label_size(text_scale, language), font_family=FONT_FAMILY)
    return ft.Theme(
        color_scheme_seed=SEED_COLOR,
        font_family=FONT_FAMILY,
        navigation_bar_theme=ft.NavigationBarTheme(label_text_style=bar),
        navigation_rail_theme=ft.NavigationRailTheme(
            selected_label_text_style=labels, unselected_label_text_style=labels
        ),
    )

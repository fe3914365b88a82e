"""Colours, type sizes and the Flet theme: one definition of each, used by every screen.

Every colour the app draws text in, or text on, is set here: the seed colour fills in the rest of
Material's scheme, but text/background pairs are not left to it (the seeded rail labels came out
dark grey on near-black in the dark theme). tests/test_contrast.py holds each pair to 4.5:1."""

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

# Tints drawn under text (a highlighted match, a repeat mark) and the repeat notice's colour.
MARK_COLOR = "#FFC107"
MARK_OPACITY = 0.35
WARNING_COLOR = "#F9A825"  # amber: a repeat is something to weigh, not an error
WARNING_OPACITY = 0.3  # under the repeat tag
WARNING_BOX_OPACITY = 0.12  # under the repeat notice

# The round clock's panel at 10 minutes left, 5 minutes left and time (views/screens/clock.py):
# amber, orange, red, each with text at least 4.5:1 on it.
CLOCK_COLORS: tuple[TierColors, ...] = (
    TierColors("#F9A825", "#000000"),
    TierColors("#EF6C00", "#000000"),
    TierColors("#C62828", "#FFFFFF"),
)
CALL_COLOR = WARNING_COLOR  # a running judge call, as the repeat notice: something to act on
OK_COLOR = "#2E7D32"  # green (an icon): the log is shared and in step


@dataclass(frozen=True, slots=True)
class Palette:
    """The colour roles the app sets for one brightness. An `on_…` role is text drawn on the role
    it names; `on_surface` and `on_surface_variant` are drawn on every surface role."""

    surface: str  # the page, the app bar, the rail
    surface_container: str  # the phone's navigation bar
    surface_container_highest: str  # boxes (typical situations)
    on_surface: str  # text; the selected navigation label
    on_surface_variant: str  # secondary text; the other navigation labels
    primary: str  # headings, text and outlined buttons
    secondary_container: str  # tonal buttons, the navigation indicator
    on_secondary_container: str
    error: str  # delete, a field's error
    on_error: str
    outline: str
    outline_variant: str
    inverse_surface: str  # snack bars
    on_inverse_surface: str

    def scheme(self) -> ft.ColorScheme:
        return ft.ColorScheme(
            surface=self.surface,
            surface_container=self.surface_container,
            surface_container_highest=self.surface_container_highest,
            on_surface=self.on_surface,
            on_surface_variant=self.on_surface_variant,
            primary=self.primary,
            secondary_container=self.secondary_container,
            on_secondary_container=self.on_secondary_container,
            error=self.error,
            on_error=self.on_error,
            outline=self.outline,
            outline_variant=self.outline_variant,
            inverse_surface=self.inverse_surface,
            on_inverse_surface=self.on_inverse_surface,
        )


# Material 3 tones of the seed's palette (tone 98/94/90/10/30/40… in light, 6/12/22/90/80… in dark).
LIGHT = Palette(
    surface="#F8F9FF",
    surface_container="#ECEEF4",
    surface_container_highest="#E1E2E8",
    on_surface="#191C20",
    on_surface_variant="#42474E",
    primary="#2B5F8E",
    secondary_container="#D3E4F8",
    on_secondary_container="#0D1D2A",
    error="#BA1A1A",
    on_error="#FFFFFF",
    outline="#72777F",
    outline_variant="#C2C7CF",
    inverse_surface="#2E3135",
    on_inverse_surface="#EFF0F7",
)
DARK = Palette(
    surface="#111418",
    surface_container="#1D2024",
    surface_container_highest="#32353A",
    on_surface="#E1E2E8",
    on_surface_variant="#C2C7CF",
    primary="#9ECAFF",
    secondary_container="#3B4858",
    on_secondary_container="#D7E3F7",
    error="#FFB4AB",
    on_error="#690005",
    outline="#8C9199",
    outline_variant="#42474E",
    inverse_surface="#E1E2E8",
    on_inverse_surface="#2E3135",
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
    page.theme = _theme(text_scale, language, LIGHT)
    page.dark_theme = _theme(text_scale, language, DARK)
    page.theme_mode = THEME_MODES.get(theme, ft.ThemeMode.SYSTEM)


def _theme(text_scale: float, language: str, palette: Palette) -> ft.Theme:
    # The font and the colour again: a style given here replaces Flutter's default label style,
    # font and colour and all (without a colour, the dark rail's labels were drawn dark).
    size = TypeScale(text_scale).label
    selected = ft.TextStyle(size=size, font_family=FONT_FAMILY, color=palette.on_surface)
    other = ft.TextStyle(size=size, font_family=FONT_FAMILY, color=palette.on_surface_variant)
    bar = ft.TextStyle(
        size=bar_label_size(text_scale, language),
        font_family=FONT_FAMILY,
        color=palette.on_surface_variant,
    )
    return ft.Theme(
        color_scheme_seed=SEED_COLOR,
        color_scheme=palette.scheme(),
        font_family=FONT_FAMILY,
        navigation_bar_theme=ft.NavigationBarTheme(
            label_text_style=bar, bgcolor=palette.surface_container
        ),
        navigation_rail_theme=ft.NavigationRailTheme(
            selected_label_text_style=selected,
            unselected_label_text_style=other,
            bgcolor=palette.surface,
        ),
    )

"""Contrast of every text the app colours against what it is drawn on, in both themes (WCAG 2:
at least 4.5:1 for body text). Computed, not judged by eye: the dark theme's rail labels were dark
grey on near-black at every text size (issue 20, item 10), and nothing but a look caught it."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest

from views.theme import (
    CLOCK_COLORS,
    DARK,
    LIGHT,
    MARK_COLOR,
    MARK_OPACITY,
    TIER_COLORS,
    WARNING_BOX_OPACITY,
    WARNING_COLOR,
    WARNING_OPACITY,
    Palette,
    apply_theme,
)

MINIMUM = 4.5
ROOT = Path(__file__).resolve().parent.parent
PALETTES = {"light": LIGHT, "dark": DARK}


def rgb(color: str) -> tuple[float, float, float]:
    value = color.lstrip("#")
    assert re.fullmatch(r"[0-9A-Fa-f]{6}", value), f"not an opaque #RRGGBB colour: {color}"
    return tuple(int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(color: str) -> float:
    """WCAG 2 relative luminance."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(text: str, background: str) -> float:
    lighter, darker = sorted((luminance(text), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def over(tint: str, opacity: float, background: str) -> str:
    """`tint` at `opacity` composited over an opaque `background`."""
    mixed = (
        round(255 * (opacity * t + (1 - opacity) * b))
        for t, b in zip(rgb(tint), rgb(background), strict=True)
    )
    return "#" + "".join(f"{c:02X}" for c in mixed)


def test_the_contrast_formula_matches_wcags_known_values() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # just below AA
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)  # just above
    assert over("#FFFFFF", 0.5, "#000000") == "#808080"


def text_on_background(palette: Palette) -> list[tuple[str, str, str]]:
    """(what, text, background) for every text the palette's roles carry."""
    surfaces = {
        "page": palette.surface,
        "navigation bar": palette.surface_container,
        "box": palette.surface_container_highest,
    }
    pairs = [
        (f"{role} on {where}", getattr(palette, role), background)
        for role in ("on_surface", "on_surface_variant", "primary")
        for where, background in surfaces.items()
    ]
    pairs += [
        ("error text on the page", palette.error, palette.surface),
        ("error button", palette.on_error, palette.error),
        ("tonal button", palette.on_secondary_container, palette.secondary_container),
        ("snack bar", palette.on_inverse_surface, palette.inverse_surface),
        (
            "a highlighted match",
            palette.on_surface,
            over(MARK_COLOR, MARK_OPACITY, palette.surface),
        ),
        (
            "a repeat tag",
            palette.on_surface,
            over(WARNING_COLOR, WARNING_OPACITY, palette.surface),
        ),
        (
            "the repeat notice",
            palette.on_surface,
            over(WARNING_COLOR, WARNING_BOX_OPACITY, palette.surface),
        ),
        (
            "a button in the repeat notice",
            palette.primary,
            over(WARNING_COLOR, WARNING_BOX_OPACITY, palette.surface),
        ),
    ]
    return pairs


@pytest.mark.parametrize("theme", PALETTES)
def test_every_text_role_is_readable_on_what_it_is_drawn_on(theme: str) -> None:
    low = [
        f"{what}: {text} on {background} is {contrast(text, background):.2f}:1"
        for what, text, background in text_on_background(PALETTES[theme])
        if contrast(text, background) < MINIMUM
    ]
    assert not low, f"{theme} theme, below {MINIMUM}:1:\n" + "\n".join(low)


def test_every_tier_colour_carries_readable_text() -> None:
    for tier in TIER_COLORS:
        assert contrast(tier.foreground, tier.background) >= MINIMUM, tier


def test_the_round_clocks_warning_panels_carry_readable_text() -> None:
    for look in CLOCK_COLORS:
        assert contrast(look.foreground, look.background) >= MINIMUM, look


def themes(text_scale: float = 1.0) -> dict[str, ft.Theme]:
    page = SimpleNamespace(web=True)
    apply_theme(page, "dark", text_scale)  # type: ignore[arg-type]
    return {"light": page.theme, "dark": page.dark_theme}


@pytest.mark.parametrize("theme", PALETTES)
def test_navigation_labels_are_readable_on_the_rail_and_the_bar(theme: str) -> None:
    """The labels' colours as the theme hands them to Flutter (a label style without a colour
    is what left the dark rail's labels unreadable), on the rail's and the bar's backgrounds."""
    built = themes()[theme]
    rail, bar = built.navigation_rail_theme, built.navigation_bar_theme
    assert rail is not None and bar is not None
    labels = {
        "rail, selected": (rail.selected_label_text_style, rail.bgcolor),
        "rail, other": (rail.unselected_label_text_style, rail.bgcolor),
        "bar": (bar.label_text_style, bar.bgcolor),
    }
    for where, (style, background) in labels.items():
        assert style is not None and style.color, f"{theme} {where}: the label has no colour"
        assert background, f"{theme} {where}: no background colour"
        ratio = contrast(str(style.color), str(background))
        assert ratio >= MINIMUM, f"{theme} {where}: {style.color} on {background} is {ratio:.2f}"
    # The scheme Flutter draws the rest with is the palette's.
    scheme = built.color_scheme
    assert scheme is not None and scheme.on_surface == PALETTES[theme].on_surface
    assert scheme.surface == PALETTES[theme].surface


HEX_COLOUR = re.compile(r"""["']#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?["']""")


def test_colours_are_set_only_in_the_theme() -> None:
    """A colour written into a screen escapes the pairs above (a fixed red read 3:1 on the dark
    page); screens take colours from views/theme.py or the theme's roles (ft.Colors.ERROR)."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "views").rglob("*.py"))
        if path.name != "theme.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HEX_COLOUR.search(line)
    ]
    assert not found, "colours outside views/theme.py:\n" + "\n".join(found)

"""View building blocks on their own: routes, stored state, highlighting, tier colours."""

from __future__ import annotations

import json

import flet as ft
import pytest

from views import routes
from views.screens import SCREEN_TABLE, Destination, ScreenTable
from views.state import AppState, negotiate_language, state_from_stored, stored_values
from views.theme import TIER_COLORS, TypeScale
from views.widgets import highlighted

SCREEN_NAMES = {
    routes.TIERS: "tiers",
    routes.TIER: "tier",
    routes.CATEGORY: "category",
    routes.INFRACTION: "infraction",
    routes.PRINCIPLE: "principle",
    routes.SETTINGS: "settings",
    routes.ABOUT: "about",
    None: "not-found",
}


@pytest.mark.parametrize(
    ("route", "screen", "item", "path"),
    [
        ("/", "tiers", None, "/tiers"),
        ("", "tiers", None, "/tiers"),
        ("/tiers", "tiers", None, "/tiers"),
        ("/tiers/warning", "tier", "warning", "/tiers/warning"),
        ("/tiers/warning/", "tier", "warning", "/tiers/warning"),
        ("/categories/play", "category", "play", "/categories/play"),
        ("/infractions/bribery", "infraction", "bribery", "/infractions/bribery"),
        ("/principles/repeat-offense", "principle", "repeat-offense", "/principles/repeat-offense"),
        ("/settings", "settings", None, "/settings"),
        ("/saved", "not-found", None, "/saved"),
        ("/about?q=ignored", "about", None, "/about"),
        ("/nope", "not-found", None, "/nope"),
        ("/infractions/a/b", "not-found", None, "/infractions/a/b"),
        ("/tiers/x/../warning", "not-found", None, "/tiers/x/../warning"),
    ],
)
def test_parse_routes(route: str, screen: str, item: str | None, path: str) -> None:
    parsed = SCREEN_TABLE.parse(route)
    assert (SCREEN_NAMES.get(parsed.pattern), parsed.item, parsed.path) == (screen, item, path)
    assert parsed.raw == (route or "/")


def test_search_route_round_trips_its_query() -> None:
    for query in ("slow play", "引きすぎ", "a&b=c?d#e", "100%", "a/b"):
        parsed = SCREEN_TABLE.parse(routes.SEARCH.link(q=query))
        assert parsed.pattern is routes.SEARCH and parsed.value("q") == query
    assert routes.SEARCH.link(q="") == "/search"


def test_an_item_with_a_slash_or_a_space_stays_one_segment() -> None:
    link = routes.INFRACTION.link("a/b c")
    assert link == "/infractions/a%2Fb%20c"
    assert SCREEN_TABLE.parse(link).item == "a/b c"


def test_a_link_needs_its_item_exactly_when_the_pattern_has_one() -> None:
    with pytest.raises(ValueError, match=r"^/tiers/\{id\} needs id$"):
        routes.TIER.link()
    with pytest.raises(ValueError, match=r"^/tiers takes no id$"):
        routes.TIERS.link("warning")


def test_a_search_route_keeps_its_query_in_one_spelling() -> None:
    """Spaces as %20 (never +), and the query is part of the path the history keeps."""
    assert routes.SEARCH.link(q="slow play") == "/search?q=slow%20play"
    parsed = SCREEN_TABLE.parse("/search?q=slow+play&other=1")
    assert parsed.path == "/search?q=slow%20play" and parsed.value("q") == "slow play"


def test_every_navigation_root_lights_its_own_tab() -> None:
    for index, destination in enumerate(SCREEN_TABLE.destinations):
        root = SCREEN_TABLE.parse(destination.root.link())
        assert SCREEN_TABLE.tab(root) == index and SCREEN_TABLE.is_root(root)
    assert not SCREEN_TABLE.is_root(SCREEN_TABLE.parse(routes.TIER.link("warning")))
    assert SCREEN_TABLE.tab(SCREEN_TABLE.parse(routes.INFRACTION.link("bribery"))) is None


def test_history_goes_back_to_an_open_screen_instead_of_stacking_it() -> None:
    parse = SCREEN_TABLE.parse
    history = routes.History()
    history.go(parse("/categories/play"), False, [parse("/categories")])
    assert [r.path for r in history.stack] == ["/categories", "/categories/play"]
    history.go(parse("/infractions/bribery"), False, [parse("/nope")])  # parents only at first
    history.go(parse("/categories/play/"), False, [])
    assert [r.path for r in history.stack] == ["/categories", "/categories/play"]
    assert history.stack[-1].raw == "/categories/play/"
    history.go(parse("/search"), True, [])
    assert [r.path for r in history.stack] == ["/search"]
    assert history.back() is None and len(history) == 1
    history.go(parse("/tiers/warning"), False, [])
    assert history.back() == parse("/search") and len(history) == 1


def test_going_to_the_open_screen_again_keeps_the_history_and_takes_the_new_address() -> None:
    parse = SCREEN_TABLE.parse
    history = routes.History()
    history.go(parse("/search"), True, [])
    history.go(parse("/search?"), True, [])  # the same screen, spelt otherwise
    assert [r.raw for r in history.stack] == ["/search?"]
    for path in ("/categories", "/categories/play", "/infractions/bribery", "/tiers/warning"):
        history.go(parse(path), False, [])
    history.go(parse("/infractions/bribery/"), False, [])
    assert [r.raw for r in history.stack] == [
        "/search?",
        "/categories",
        "/categories/play",
        "/infractions/bribery/",
    ]
    assert parse("/search").value("q") == ""  # a query value nobody gave


def test_a_destination_needs_a_screen() -> None:
    spare = Destination(routes.Pattern("/spare"), ft.Icons.ADD, ft.Icons.ADD, "spare")
    with pytest.raises(ValueError, match="/spare"):
        ScreenTable((*SCREEN_TABLE.destinations, spare), SCREEN_TABLE.screens)


def test_stored_state_round_trips() -> None:
    state = AppState()
    state.change_settings(language="both", theme="dark", text_scale=1.3)
    assert (state.settings.language, state.settings.theme, state.settings.text_scale) == (
        "both",
        "dark",
        1.3,
    )
    state.toggle_bookmark("bribery")
    state.visit("caution")
    stored = stored_values(state)
    assert all(isinstance(v, str) for v in stored.values())  # what every platform keeps
    again = state_from_stored(stored, lambda _id: True)
    assert again.settings == state.settings
    assert again.bookmarks == ["bribery"] and again.recent == ["caution"]
    assert again.language_chosen


@pytest.mark.parametrize(
    "stored",
    [
        {},
        {"language": "xx", "theme": "neon", "text_scale": "NaN", "bookmarks": "not json"},
        {"language": 1, "theme": None, "text_scale": True, "bookmarks": 5, "recent": {"a": 1}},
        {"text_scale": 1e309, "bookmarks": json.dumps([1, None, "unknown"])},
    ],
)
def test_unusable_stored_values_become_defaults(stored: dict) -> None:
    state = state_from_stored(stored, lambda entry_id: entry_id == "bribery")
    assert (state.settings.language, state.settings.theme, state.settings.text_scale) == (
        "ja",
        "system",
        1.0,
    )
    assert state.bookmarks == [] and state.recent == []
    assert not state.language_chosen


def test_unknown_ids_and_duplicates_are_dropped_from_lists() -> None:
    stored = {"bookmarks": json.dumps(["bribery", "gone", "bribery", "caution"])}
    state = state_from_stored(stored, lambda entry_id: entry_id != "gone")
    assert state.bookmarks == ["bribery", "caution"]


def test_recent_keeps_the_newest_first_without_repeats() -> None:
    state = AppState()
    for entry_id in ("a", "b", "a", "c"):
        state.visit(entry_id)
    assert state.recent == ["c", "a", "b"]


@pytest.mark.parametrize(
    ("locales", "expected"),
    [
        (["en_US"], "en"),
        (["en-GB", "ja-JP"], "en"),
        (["ja_JP"], "ja"),
        (["fr_FR"], "ja"),
        (["ja-JP", "en-US"], "ja"),  # the device's first choice that the app has
        ([], "ja"),
    ],
)
def test_first_start_follows_the_device_language(locales: list[str], expected: str) -> None:
    assert negotiate_language(locales) == expected


def test_highlighted_marks_exactly_the_spans() -> None:
    text = highlighted("abcdef", [(1, 3), (4, 5)], size=16)
    pieces = [(span.text, span.style is not None) for span in text.spans]
    assert pieces == [("a", False), ("bc", True), ("d", False), ("e", True), ("f", False)]
    assert "".join(span.text for span in text.spans) == "abcdef"


def test_highlighted_keeps_the_first_of_overlapping_spans_and_no_empty_pieces() -> None:
    text = highlighted("abcdef", [(4, 6), (2, 4), (0, 3)], size=16)
    pieces = [(span.text, span.style is not None) for span in text.spans]
    assert pieces == [("abc", True), ("d", False), ("ef", True)]


def test_highlighted_without_spans_is_plain_text() -> None:
    text = highlighted("abc", [], size=16)
    assert text.value == "abc" and not text.spans


def contrast(foreground: str, background: str) -> float:
    def luminance(color: str) -> float:
        channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_tier_colours_read_in_a_dim_hall() -> None:
    """WCAG AA for normal text (4.5:1) on every chip and card, and six distinct colours."""
    assert len(TIER_COLORS) == 6
    assert len({colors.background for colors in TIER_COLORS}) == 6
    for colors in TIER_COLORS:
        assert contrast(colors.foreground, colors.background) >= 4.5, colors


def test_text_size_setting_scales_every_size() -> None:
    normal, large = TypeScale(1.0), TypeScale(1.5)
    for size in ("small", "body", "heading", "title", "display"):
        assert getattr(large, size) == pytest.approx(getattr(normal, size) * 1.5, abs=0.1)
    # …and reaches highlighted text, marked or not.
    assert highlighted("x", [], size=large.body).size == large.body
    assert highlighted("xy", [(0, 1)], size=large.small).size == large.small

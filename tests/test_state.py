"""Stored settings come back from the device and may be anything: every stored value, of any
type and any size, becomes that setting's default, and the other settings are kept."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regulation.model import DISPLAY_LANGUAGES
from views.state import (
    DEFAULT_LANGUAGE,
    KEY_BOOKMARKS,
    KEY_LANGUAGE,
    KEY_RECENT,
    KEY_TEXT_SCALE,
    KEY_THEME,
    KEYS,
    MAX_BOOKMARKS,
    MAX_RECENT,
    MAX_STORED_CHARS,
    MAX_STORED_ITEMS,
    AppState,
    newest_first,
    state_from_stored,
    stored_values,
)
from views.theme import TEXT_SCALES, THEME_MODES

KNOWN = {"bribery", "caution", "drew-extra-cards"}

# A valid store with no setting at its default, so a fallback is visible on every key.
GOOD = {
    KEY_LANGUAGE: "en",
    KEY_THEME: "dark",
    KEY_TEXT_SCALE: "1.3",
    KEY_BOOKMARKS: json.dumps(["bribery", "caution"]),
    KEY_RECENT: json.dumps(["drew-extra-cards"]),
}
DEFAULTS = AppState()

# Anything a preferences store, a browser's localStorage or msgpack could hand back.
json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)
# …and JSON text of such values, which is how lists are stored.
stored_value = json_like | json_like.map(lambda v: json.dumps(v, default=repr))


def fields(state: AppState) -> dict[str, Any]:
    return {
        KEY_LANGUAGE: state.settings.language,
        KEY_THEME: state.settings.theme,
        KEY_TEXT_SCALE: state.settings.text_scale,
        KEY_BOOKMARKS: state.bookmarks,
        KEY_RECENT: state.recent,
    }


def well_formed(state: AppState) -> None:
    assert state.settings.language in DISPLAY_LANGUAGES
    assert state.settings.theme in THEME_MODES
    assert state.settings.text_scale in TEXT_SCALES
    for ids, limit in ((state.bookmarks, MAX_BOOKMARKS), (state.recent, MAX_RECENT)):
        assert all(isinstance(i, str) and i in KNOWN for i in ids)
        assert len(ids) == len(set(ids)) <= limit


@settings(max_examples=400, deadline=None)
@given(key=st.sampled_from(KEYS), value=stored_value)
def test_any_stored_value_spoils_only_its_own_setting(key: str, value: Any) -> None:
    state = state_from_stored({**GOOD, key: value}, KNOWN.__contains__)
    good = fields(state_from_stored(GOOD, KNOWN.__contains__))
    got = fields(state)
    well_formed(state)
    for other in KEYS:
        if other != key:
            assert got[other] == good[other], other
    if got[key] != fields(DEFAULTS)[key]:  # kept: then it is what was stored
        assert got[key] in (value, _number(value), _ids(value)), (key, value, got[key])


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _ids(value: Any) -> list[str] | None:
    try:
        decoded = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return None
    if not isinstance(decoded, list):
        return None
    return list(dict.fromkeys(i for i in decoded if isinstance(i, str) and i in KNOWN))


@settings(max_examples=100, deadline=None)
@given(stored=st.dictionaries(st.sampled_from(KEYS), stored_value))
def test_any_stored_values_at_all_give_a_usable_state(stored: dict[str, Any]) -> None:
    well_formed(state_from_stored(stored, KNOWN.__contains__))


DEEP = "[" * 100_000 + "]" * 100_000


class Built:
    """A stored value too large to make at collection, where every worker would make each one
    (0.4 s of CPU a worker): the one test that reads it makes it."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (KEY_BOOKMARKS, DEEP),  # RecursionError in json.loads
        (KEY_RECENT, DEEP),
        (KEY_BOOKMARKS, '{"a": ' * 50_000 + "1" + "}" * 50_000),
        (KEY_TEXT_SCALE, [1.3]),  # a list where a number is stored
        (KEY_TEXT_SCALE, {"value": 1.3}),
        (KEY_THEME, ["dark"]),
        (KEY_THEME, {"dark": True}),
        (KEY_LANGUAGE, ["en"]),
        (KEY_LANGUAGE, {"en": 1}),
        (KEY_TEXT_SCALE, 10**400),  # float() overflows
        (KEY_TEXT_SCALE, Built(lambda: "1" * 5_000_000)),  # a huge string
        (KEY_BOOKMARKS, Built(lambda: json.dumps(["bribery"] * 2_000_000))),
        (KEY_BOOKMARKS, Built(lambda: ["x" * 1_000_000] * 3)),
        (KEY_TEXT_SCALE, math.nan),
        (KEY_TEXT_SCALE, math.inf),
        (KEY_TEXT_SCALE, "-inf"),
        (KEY_TEXT_SCALE, True),
        (KEY_THEME, False),
        (KEY_BOOKMARKS, True),
        (KEY_RECENT, {"bribery": 1}),
        (KEY_RECENT, json.dumps({"bribery": 1})),
        (KEY_BOOKMARKS, b'["bribery"]'),
    ],
    ids=[
        "deep-list-bookmarks",
        "deep-list-recent",
        "deep-object-bookmarks",
        "list-for-a-number",
        "dict-for-a-number",
        "list-for-a-theme",
        "dict-for-a-theme",
        "list-for-a-language",
        "dict-for-a-language",
        "int-beyond-float",
        "huge-number-text",
        "huge-id-list-text",
        "huge-ids",
        "nan",
        "inf",
        "minus-inf-text",
        "bool-for-a-number",
        "bool-for-a-theme",
        "bool-for-bookmarks",
        "dict-for-recent",
        "dict-json-for-recent",
        "bytes-for-bookmarks",
    ],
)
def test_the_issues_cases_become_that_settings_default(key: str, value: Any) -> None:
    if isinstance(value, Built):
        value = value.make()
    started = time.perf_counter()
    state = state_from_stored({**GOOD, key: value}, KNOWN.__contains__)
    assert time.perf_counter() - started < 1.0  # any size: no slow path either
    expected = {**fields(state_from_stored(GOOD, KNOWN.__contains__)), key: fields(DEFAULTS)[key]}
    assert fields(state) == expected


def test_a_language_that_is_not_a_choice_is_not_a_choice() -> None:
    for value in (["en"], {"en": 1}, "EN", 0):
        state = state_from_stored({KEY_LANGUAGE: value}, KNOWN.__contains__)
        assert state.settings.language == DEFAULT_LANGUAGE and not state.language_chosen


def test_what_is_stored_reads_back() -> None:
    state = state_from_stored(GOOD, KNOWN.__contains__)
    assert stored_values(state) == GOOD


def test_a_bookmark_toggles_on_newest_first_and_off_again() -> None:
    state = AppState()
    assert state.toggle_bookmark("bribery") is True
    assert state.toggle_bookmark("caution") is True
    assert state.bookmarks == ["caution", "bribery"]
    assert state.toggle_bookmark("bribery") is False
    assert state.bookmarks == ["caution"]


@pytest.mark.parametrize(
    ("add", "read", "limit"),
    [
        (AppState.toggle_bookmark, lambda state: state.bookmarks, MAX_BOOKMARKS),
        (AppState.visit, lambda state: state.recent, MAX_RECENT),
    ],
    ids=["bookmarks", "recent"],
)
def test_bookmarks_and_history_keep_the_newest(add, read, limit: int) -> None:
    state = AppState()
    ids = [f"entry-{n}" for n in range(limit + 3)]
    for entry_id in ids:
        add(state, entry_id)
    assert read(state) == ids[::-1][:limit]


@pytest.mark.parametrize(
    ("key", "limit"), [(KEY_BOOKMARKS, MAX_BOOKMARKS), (KEY_RECENT, MAX_RECENT)]
)
def test_a_stored_list_keeps_its_first_ids_up_to_the_limit(key: str, limit: int) -> None:
    ids = [f"entry-{n}" for n in range(limit + 3)]
    state = state_from_stored({key: json.dumps(ids)}, lambda _id: True)
    assert fields(state)[key] == ids[:limit]


def test_stored_values_just_within_the_size_bounds_are_read() -> None:
    """Values up to MAX_STORED_CHARS characters and MAX_STORED_ITEMS items are read; one more
    and the value is corrupt (tests above: the default)."""
    larger = "1.3" + "0" * (MAX_STORED_CHARS - 3)
    assert state_from_stored({KEY_TEXT_SCALE: larger}, bool).settings.text_scale == 1.3
    assert state_from_stored({KEY_TEXT_SCALE: larger + "0"}, bool).settings.text_scale == 1.0
    spaced = json.dumps(["bribery"]).ljust(MAX_STORED_CHARS)
    assert state_from_stored({KEY_BOOKMARKS: spaced}, bool).bookmarks == ["bribery"]
    assert state_from_stored({KEY_BOOKMARKS: spaced + " "}, bool).bookmarks == []
    many = ["bribery"] * MAX_STORED_ITEMS
    assert state_from_stored({KEY_BOOKMARKS: many}, bool).bookmarks == ["bribery"]
    assert state_from_stored({KEY_BOOKMARKS: [*many, "x"]}, bool).bookmarks == []


def test_a_number_stored_as_a_number_is_read() -> None:
    """Some stores hand numbers back as numbers rather than as the text the app wrote."""
    assert state_from_stored({KEY_TEXT_SCALE: 1.3}, bool).settings.text_scale == 1.3
    assert state_from_stored({KEY_TEXT_SCALE: 1}, bool).settings.text_scale == 1.0


def test_two_id_lists_merge_newest_first_each_id_once() -> None:
    assert newest_first(["b", "a"], ["a", "c", "d"], 3) == ["b", "a", "c"]
    assert newest_first([], ["a"], 3) == ["a"]

"""Show the player (issue 20, item 8) in Debian's Chromium: from an infraction's page and from a
record, a page without the app's bars that says the penalty, the infraction, the remedy and the
repeat principle in the regulation's Japanese and its English, whatever language the app is in;
one tap goes back. Laid out on a phone and a desktop, nothing outside the page. Screenshots:
tests/e2e/screenshots/<size>-<lang>-show-player*.png."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from records.model import Player, RecordInput
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S

from .harness import FlutterApp
from .layouts import LOCALES, relaid_out, variant
from .test_browser import DESTINATIONS, assert_infraction_screen, infraction, ui

pytestmark = pytest.mark.browser

DREW = "drew-extra-cards"  # B Warning


def outside_the_page(app: FlutterApp) -> list[str]:
    """Accessibility nodes (every text, button, field) that reach past the page's left or right
    edge: text cut at the side of the window."""
    return app.page.evaluate(
        """() => {
            const width = window.innerWidth;
            const out = [];
            for (const node of document.querySelectorAll('flt-semantics')) {
                const box = node.getBoundingClientRect();
                if (box.width === 0 || box.height === 0) continue;
                if (box.left < -1 || box.right > width + 1) {
                    const name = node.getAttribute('aria-label') || node.textContent || '';
                    const where = `[${Math.round(box.left)}, ${Math.round(box.right)}]`;
                    out.push(`${name.slice(0, 60)} ${where}`);
                }
            }
            return out;
        }"""
    )


def assert_shown_to_the_player(app: FlutterApp, regulation: Regulation, tier_id: str) -> None:
    item = infraction(regulation, DREW)
    tier = regulation.tier(tier_id)
    principle = regulation.principle("repeat-offense")
    assert tier is not None and principle is not None
    label = regulation.document.penalty_label
    for lang in ("ja", "en"):  # both, whatever the app's language
        app.wait_for(app.text(f"{label[lang]}{tier.letter} {tier.title[lang]}"))
        app.wait_for(app.text(regulation.standalone_title(item)[lang]))
        app.wait_for(app.text(principle.text[lang]))  # verbatim: a higher penalty *may* apply
        app.wait_for(app.text(item.remedy[0][lang]))
    # No app bar, bar or rail: nothing of the app's around the page.
    for destination in DESTINATIONS:
        for lang in ("ja", "en"):
            assert app.text(ui(destination.label, lang)).count() == 0, destination.label
    assert app.labelled(ui(S.SETTINGS_TITLE, "ja")).count() == 0
    assert app.labelled(ui(S.SETTINGS_TITLE, "en")).count() == 0
    app.settle()
    assert not outside_the_page(app)


@pytest.mark.parametrize(("lang", "locale"), LOCALES.items())
def test_show_the_player_from_an_infraction_and_back_in_one_tap(
    open_app, regulation: Regulation, lang: str, locale: str
) -> None:
    """On a phone and on a desktop, in one start: the window is resized between the two."""
    item = infraction(regulation, DREW)
    sizes = ("phone", "desktop") if lang == "ja" else ("desktop", "phone")
    app = open_app(sizes[0], locale, f"/infractions/{DREW}")
    for size in sizes:
        with variant(f"{size}-{lang}"):
            if app.size != size:
                relaid_out(app, size)
            assert_infraction_screen(app, item, lang)
            app.tap(app.button(ui(S.SHOW_PLAYER, lang)))
            assert_shown_to_the_player(app, regulation, item.penalty.id)
            app.screenshot(f"{lang}-show-player")
            app.tap(app.button(ui(S.SHOW_BACK, "ja") + " / " + ui(S.SHOW_BACK, "en")))
            assert_infraction_screen(app, item, lang)


def test_show_the_player_from_a_record_shows_the_records_tier(
    open_app, regulation: Regulation
) -> None:
    """The judge raised the tier for a repeat: the player sees the tier recorded."""
    folder = Path(os.environ["PENALTY_GUIDE_DATA_DIR"])
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        event = store.current_event()
        record = store.add_record(
            event.id, RecordInput(Player("Chris Show"), DREW, tier_id="duel-forfeiture", round=3)
        )
    app = open_app("desktop", "en-US", f"/log/records/{record.id}")
    app.wait_for(app.button(ui(S.SHOW_PLAYER, "en")))
    app.tap(app.button(ui(S.SHOW_PLAYER, "en")))
    assert_shown_to_the_player(app, regulation, "duel-forfeiture")
    app.screenshot("en-show-player-record")
    app.tap(app.button(ui(S.SHOW_BACK, "ja") + " / " + ui(S.SHOW_BACK, "en")))
    app.wait_for(app.button(ui(S.SHOW_PLAYER, "en")))
    app.wait_for(app.text("Chris Show"))

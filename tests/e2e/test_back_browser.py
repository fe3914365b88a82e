"""Back after a reload in Debian's Chromium (issue 20, item 14): a tab reloaded at another
address re-attaches to its session, which still has the screens open before; the app bar's back
arrow must go up from the new screen (its category list), not to a screen from before."""

from __future__ import annotations

import pytest

from regulation.model import Regulation
from views import strings as S

from .harness import FlutterApp
from .layout import assert_laid_out
from .layouts import PAIR, layouts
from .test_browser import assert_tiers_shown, navigate_to, starts_with, ui

pytestmark = pytest.mark.browser


def back_arrow(app: FlutterApp, lang: str):
    """The app bar's back arrow, by Flutter's own tooltip (Material's localisation)."""
    return app.button({"ja": "戻る", "en": "Back"}[lang])


@pytest.mark.parametrize(("size", "lang", "locale"), layouts(PAIR))
def test_after_a_reload_at_another_address_back_goes_to_its_parent(
    open_app, size: str, lang: str, locale: str
) -> None:
    app = open_app(size, locale, "/log/event")
    app.wait_for(app.text(ui(S.EVENT_SETTINGS, lang)))
    app.open("/categories/play")  # the same tab, the same session, another address
    app.wait_for(app.text(ui("ルールに関する違反", lang)))
    app.tap(back_arrow(app, lang))
    app.wait_for(app.page.get_by_text(ui(S.CATEGORIES_TITLE, lang), exact=True))
    app.page.wait_for_url(app.base_url + "/categories")
    assert app.text(ui(S.EVENT_SETTINGS, lang)).count() == 0


@pytest.mark.parametrize(("size", "lang", "locale"), layouts(PAIR))
def test_the_back_arrow_adds_no_browser_history_entry(
    open_app, regulation: Regulation, size: str, lang: str, locale: str
) -> None:
    """Tiers → categories → a category, the app's back arrow, then the browser's Back: the
    browser goes on back to the tiers, not forward again to the category just left (the back
    arrow used to push the categories as a new entry)."""
    # The language stored: a loaded machine may answer the browser's languages too late.
    app = open_app(size, locale, "/tiers", settings={"language": lang})
    assert_tiers_shown(app, lang)
    navigate_to(app, S.NAV_CATEGORIES, lang)
    app.page.wait_for_url(app.base_url + "/categories")
    play = regulation.category("play")
    assert play is not None
    category = play.label[lang]
    app.tap(app.button(starts_with(category)))
    app.page.wait_for_url(app.base_url + "/categories/play")
    app.wait_for(app.heading(category))
    entries = app.page.evaluate("() => history.length")

    app.tap(back_arrow(app, lang))
    app.page.wait_for_url(app.base_url + "/categories")
    app.wait_for(app.heading(ui(S.CATEGORIES_TITLE, lang)))
    assert app.page.evaluate("() => history.length") == entries, "the back arrow added an entry"

    app.page.evaluate("() => history.back()")  # the browser's own Back
    app.page.wait_for_url(app.base_url + "/tiers")
    assert_tiers_shown(app, lang)
    assert app.heading(category).count() == 0
    assert_laid_out(app, "the tiers, after the back arrow and the browser's Back")

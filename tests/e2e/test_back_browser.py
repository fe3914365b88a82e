"""Back after a reload in Debian's Chromium (issue 20, item 14): a tab reloaded at another
address re-attaches to its session, which still has the screens open before; the app bar's back
arrow must go up from the new screen (its category list), not to a screen from before."""

from __future__ import annotations

import pytest

from views import strings as S

from .harness import FlutterApp
from .layouts import PAIR, layouts
from .test_browser import ui

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

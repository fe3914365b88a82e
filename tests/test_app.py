"""A judge's paths through the real app, in-process over the fake client (tests/flet_harness.py).

Each test starts `views.app.main` exactly as `ft.run` would, then taps, types and navigates the
way the Flutter client reports it, and reads what the views show.
"""

from __future__ import annotations

import json
import re

import flet as ft
import pytest
from flet.messaging.protocol import MessageAction

from regulation.model import Regulation
from views import routes
from views.device import CLIENT_TIMEOUT

try:
    from flet_harness import HOLD, FakeApp
except ImportError:  # tests/ as a package
    from tests.flet_harness import HOLD, FakeApp


def destination(app: FakeApp, label: str) -> ft.NavigationBarDestination:
    """The bottom bar's destination with this label."""
    found = [d for d in app.find(ft.NavigationBar).destinations if d.label == label]
    assert len(found) == 1, label
    return found[0]


def hold(*_args: object) -> object:
    """An invoke-method handler: the client does not answer (until `answer_held`)."""
    return HOLD


JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def title_of(app: FakeApp) -> str:
    appbar = app.top_view.appbar
    return appbar.title.value


def test_first_screen_shows_the_six_tiers_in_japanese(apps, regulation: Regulation) -> None:
    app = apps()
    texts = app.texts()
    for tier in regulation.tiers:
        assert f"{tier.letter} {tier.title.ja}" in texts
        count = len(regulation.infractions_with_penalty(tier.id))
        assert f"違反：{count} 件" in texts
    assert sum(len(regulation.infractions_with_penalty(t.id)) for t in regulation.tiers) == 28
    assert app.client_route in ("/", routes.TIERS.link())


def test_device_locale_english_starts_in_english(apps, regulation: Regulation) -> None:
    app = apps(locale="en-US")
    assert "A Caution" in app.texts()
    assert title_of(app) == "OCG Penalty Guide"


def test_unknown_device_locale_falls_back_to_japanese(apps) -> None:
    app = apps(locale="fr-FR")
    assert "A 注意" in app.texts()


@pytest.mark.parametrize("tier_index", range(6))
def test_open_each_tier(apps, regulation: Regulation, tier_index: int) -> None:
    tier = regulation.tiers[tier_index]
    app = apps()
    count = len(regulation.infractions_with_penalty(tier.id))
    app.click(app.find(ft.Container, tooltip=f"{tier.letter} {tier.title.ja} (違反：{count} 件)"))
    assert app.client_route == routes.TIER.link(tier.id)
    texts = app.texts()
    for point in tier.points:
        assert point.ja in texts
    for infraction in regulation.infractions_with_penalty(tier.id):
        assert infraction.title.ja in texts
    assert app.back()
    assert app.client_route == routes.TIERS.link()


@pytest.mark.parametrize("category_id", ["deck", "deck-list", "play", "conduct"])
def test_open_each_category(apps, regulation: Regulation, category_id: str) -> None:
    app = apps()
    app.click(destination(app, "分類"))
    assert app.client_route == routes.CATEGORIES.link()
    category = regulation.category(category_id)
    app.click(app.find(ft.Container, tooltip=category.label.ja))
    assert app.client_route == routes.CATEGORY.link(category_id)
    texts = app.texts()
    for section in regulation.sections_in_category(category_id):
        assert section.title.ja in texts
        for infraction in regulation.infractions_in_section(section.id):
            assert infraction.title.ja in texts


def test_browse_to_an_infraction_and_its_penalty(apps, regulation: Regulation) -> None:
    app = apps()
    app.route(routes.CATEGORY.link("play"))
    drew = regulation.infraction("drew-extra-cards")
    app.click(app.find(ft.ListTile, text=drew.title.ja))
    assert app.client_route == routes.INFRACTION.link("drew-extra-cards")
    texts = app.texts()
    assert "罰則：" in texts and "B 警告" in texts
    for paragraph in drew.remedy:
        assert paragraph.ja in texts
    # the principles that always apply
    assert regulation.principle("judge-discretion").text.ja in texts
    assert regulation.principle("repeat-offense").text.ja in texts
    # the penalty chip opens the tier
    app.click(app.find(ft.FilledButton, text="B 警告"))
    assert app.client_route == routes.TIER.link("warning")
    app.back()
    assert app.client_route == routes.INFRACTION.link("drew-extra-cards")
    app.back()
    assert app.client_route == routes.CATEGORY.link("play")


def test_language_switch_changes_every_visible_string(apps, regulation: Regulation) -> None:
    app = apps()
    app.route(routes.INFRACTION.link("drew-extra-cards"))
    japanese = app.texts()
    assert regulation.infraction("drew-extra-cards").title.ja in japanese
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    english = app.texts()
    assert "Unintentionally drew extra cards" in " ".join(english)
    leftover = [t for t in english if JAPANESE.search(t)]
    # Only the aliases list can hold Japanese jargon in English mode — and it does not.
    assert leftover == [], leftover  # a phone's language button is an icon, named by its tooltip
    app.click(app.find(ft.TextButton, tooltip="Switch language"))
    assert app.texts() == japanese


def test_both_languages_side_by_side(apps, regulation: Regulation) -> None:
    app = apps(prefs={"language": "both"}, **DESKTOP)
    app.route(routes.INFRACTION.link("deck-under-40-cards"))
    infraction = regulation.infraction("deck-under-40-cards")
    texts = app.texts()
    assert infraction.remedy[0].ja in texts and infraction.remedy[0].en in texts


def test_language_choice_persists(apps) -> None:
    app = apps()
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    restarted = apps(prefs=app.prefs, locale="ja-JP")
    assert "A Caution" in restarted.texts()


def test_the_language_is_stored_only_once_the_judge_chooses_one(apps) -> None:
    """A first start follows the device's language. Saving another setting must not pin that
    guess: the device's language may change before the judge ever picks one."""
    app = apps(locale="ja-JP")
    app.route(routes.INFRACTION.link("bribery"))
    app.click(app.find(ft.IconButton, tooltip="ブックマークに追加"))
    app.route(routes.SETTINGS.link())
    app.click(app.find(ft.IconButton, tooltip="文字を大きく"))
    assert "bookmarks" in app.prefs and "text_scale" in app.prefs
    assert "language" not in app.prefs
    moved = apps(prefs=app.prefs, locale="en-US")  # the device now prefers English
    assert moved.has_text("A Caution")
    moved.route(routes.SETTINGS.link())
    moved.select(moved.find_all(ft.RadioGroup)[0], "ja")  # chosen: kept whatever the device says
    assert moved.prefs["language"] == "ja"
    assert apps(prefs=moved.prefs, locale="en-US").has_text("A 注意")


@pytest.mark.parametrize(
    ("query", "expected_title"),
    [
        ("引きすぎ", "故意ではなく、過剰にカードを引いた"),
        ("slow play", "故意ではなく、不必要に長い時間をかけたプレイをした"),
    ],
)
def test_search_and_open_a_result(apps, query: str, expected_title: str) -> None:
    app = apps()
    app.click(destination(app, "検索"))
    assert app.client_route == routes.SEARCH.link()
    assert app.has_text("違反名、罰則名、用語を日本語か英語で入力してください。")
    app.type(app.find(ft.TextField), query)
    rows = app.find_all(ft.ListTile)
    assert rows, "no results"
    assert expected_title in "".join(app.texts(rows[0]))
    app.click(rows[0])
    assert app.top_view.appbar.title.value == expected_title


def test_search_highlights_the_match(apps) -> None:
    app = apps()
    app.route(routes.SEARCH.link(q="カードを引いた"))
    first = app.find_all(ft.ListTile)[0]
    marked = [
        span.text
        for text in app.find_all(ft.Text, scope=first)
        for span in (text.spans or [])
        if span.style is not None
    ]
    assert any("カードを引いた" in m or "引いた" in m for m in marked), marked


@pytest.mark.parametrize("query", ["", "   ", "zzzzqqqq", ".*[(", "🂠🂡", "\x00\x07", "あ" * 10_000])
def test_search_never_breaks(apps, query: str) -> None:
    app = apps()
    app.route(routes.SEARCH.link())
    app.type(app.find(ft.TextField), query)
    texts = " ".join(app.texts())
    assert "件" in texts or "入力してください" in texts or "一致する項目はありません" in texts


def test_bookmark_survives_a_restart(apps, regulation: Regulation) -> None:
    app = apps()
    app.route(routes.INFRACTION.link("marked-with-pattern"))
    app.click(app.find(ft.IconButton, tooltip="ブックマークに追加"))
    assert app.exists(ft.IconButton, tooltip="ブックマークから削除")
    assert json.loads(app.prefs["bookmarks"]) == ["marked-with-pattern"]
    restarted = apps(prefs=app.prefs)
    restarted.route(routes.SEARCH.link())
    title = regulation.infraction("marked-with-pattern").title.ja
    assert restarted.exists(ft.ListTile, text=title)
    restarted.click(restarted.find_all(ft.ListTile, text=title)[0])
    assert restarted.client_route == routes.INFRACTION.link("marked-with-pattern")


def test_recently_viewed(apps, regulation: Regulation) -> None:
    app = apps()
    app.route(routes.INFRACTION.link("bribery"))
    app.route(routes.TIER.link("caution"))
    app.route(routes.SEARCH.link())
    rows = app.find_all(ft.ListTile)
    titles = [" ".join(app.texts(r)) for r in rows]
    assert any("A 注意" in t for t in titles)
    assert any(regulation.infraction("bribery").title.ja in t for t in titles)
    app.click(app.find(ft.TextButton, text="履歴を消去"))
    assert app.has_text("最近見た項目はありません。")


def test_deep_link_opens_its_screen_and_back_goes_up_to_its_category(apps) -> None:
    app = apps(route=routes.INFRACTION.link("drew-extra-cards"))
    assert app.has_text("故意ではなく、過剰にカードを引いた")
    assert app.back()
    assert app.client_route == routes.CATEGORY.link("play")
    assert app.back()
    assert app.client_route == routes.CATEGORIES.link()
    assert not app.back()  # the root: the OS would close the app


def test_deep_link_on_a_wide_window_lists_its_category_beside_it(apps, regulation) -> None:
    app = apps(route=routes.INFRACTION.link("drew-extra-cards"), **DESKTOP)
    texts = app.texts()
    assert "ルールに関する違反" in texts and "不必要に長い時間をかけたプレイ" in texts
    assert regulation.infraction("looked-at-extra-cards").title.ja in texts
    assert regulation.infraction("drew-extra-cards").remedy[0].ja in texts


def test_deep_link_to_a_tier_goes_back_to_the_tiers(apps) -> None:
    app = apps(route=routes.TIER.link("warning"))
    assert app.back()
    assert app.client_route == routes.TIERS.link()


def test_the_open_item_is_marked_in_the_list_beside_it(apps) -> None:
    app = apps(**DESKTOP)
    app.route(routes.TIER.link("warning"))
    selected = [row for row in app.find_all(ft.ListTile) if row.selected]
    assert selected == []  # tier cards are not rows; the rows are its infractions
    app.route(routes.SEARCH.link())
    app.type(app.find(ft.TextField), "引きすぎ")
    app.click(app.find_all(ft.ListTile)[0])
    selected = [row for row in app.find_all(ft.ListTile) if row.selected]
    assert len(selected) == 1
    assert "故意ではなく、過剰にカードを引いた" in "".join(app.texts(selected[0]))


def test_unknown_route_shows_not_found_with_a_way_home(apps) -> None:
    app = apps(route="/infractions/no-such-thing")
    assert app.has_text("ページが見つかりません")
    app.click(app.find(ft.FilledButton, text="ホームに戻る"))
    assert app.client_route == routes.TIERS.link()
    assert app.has_text("A 注意")


@pytest.mark.parametrize(
    "stored",
    [
        {"language": "klingon", "theme": 5, "text_scale": "huge", "bookmarks": "{not json"},
        {"language": None, "text_scale": 99.0, "bookmarks": ["no-such-id", 3], "recent": "[1, 2"},
        {"bookmarks": '{"a": 1}', "recent": json.dumps(["bribery", "bribery", "gone"])},
        {"bookmarks": "[" * 100_000 + "]" * 100_000, "theme": ["dark"], "text_scale": [1.3]},
    ],
)
def test_corrupt_stored_settings_fall_back_to_defaults(apps, stored) -> None:
    app = apps(prefs=dict(stored))
    assert app.has_text("A 注意")
    assert app.page.theme_mode == ft.ThemeMode.SYSTEM
    app.route(routes.SEARCH.link())
    assert app.has_text("ブックマークはまだありません。項目のページで☆をタップすると追加されます。")


def test_settings_change_theme_text_size_and_language(apps) -> None:
    app = apps()
    app.route(routes.SETTINGS.link())
    body_before = app.find(ft.Text, text="見本：故意ではなく、過剰にカードを引いた").size
    app.click(app.find(ft.IconButton, tooltip="文字を大きく"))
    body_after = app.find(ft.Text, text="見本：故意ではなく、過剰にカードを引いた").size
    assert body_after > body_before
    app.select(app.find_all(ft.RadioGroup)[1], "dark")
    assert app.page.theme_mode == ft.ThemeMode.DARK
    app.select(app.find_all(ft.RadioGroup)[0], "en")
    assert app.has_text("Settings")
    restarted = apps(prefs=app.prefs)
    assert restarted.page.theme_mode == ft.ThemeMode.DARK
    assert restarted.has_text("A Caution")


def test_about_shows_versions_and_font_licence(apps, regulation: Regulation) -> None:
    app = apps(route=routes.ABOUT.link())
    texts = " ".join(app.texts())
    assert "1.0.0" in texts and regulation.document.text_as_of in texts
    # Not a version: the source carries none; it is when the text was taken (issue 19, item 10).
    assert f"規定の本文を収録した時期 {regulation.document.text_as_of}" in texts
    assert "規定の版" not in texts
    assert "IPAフォントライセンスv1.0" in texts


def test_wide_window_shows_rail_and_list_beside_detail(apps, regulation: Regulation) -> None:
    app = apps(**DESKTOP)
    assert app.exists(ft.NavigationRail) and not app.exists(ft.NavigationBar)
    app.route(routes.TIER.link("warning"))
    drew = regulation.infraction("drew-extra-cards")
    app.click(app.find(ft.ListTile, text=drew.title.ja))  # a tap (an address typed: a deep link)
    texts = app.texts()
    # The list it was opened from (the warning tier's infractions) stays beside the detail.
    assert "B 警告" in texts and regulation.infraction("outside-assistance").title.ja in texts
    assert regulation.infraction("drew-extra-cards").remedy[0].ja in texts
    app.resize(390, 844)
    assert app.exists(ft.NavigationBar) and not app.exists(ft.NavigationRail)


def test_every_interactive_control_has_a_label(apps) -> None:
    """Screen readers and browser tests find controls by name: no unlabeled icon buttons."""
    for route in (
        routes.TIERS.link(),
        routes.INFRACTION.link("bribery"),
        routes.SEARCH.link(),
        routes.SETTINGS.link(),
        routes.LOG.link(),
        routes.LOG_NEW.link(infraction="bribery"),
        routes.LOG_EVENT.link(),
        routes.LOG_EXCHANGE.link(),
    ):
        app = apps(route=route)
        for button in app.find_all(ft.IconButton):
            assert button.tooltip, f"unlabeled icon button on {route}"
        buttons = (ft.TextButton, ft.FilledButton, ft.FilledTonalButton, ft.OutlinedButton)
        for button in app.find_all(buttons):
            assert button.tooltip or app.texts(button), f"unlabeled button on {route}"


@pytest.mark.parametrize("size", [PHONE, DESKTOP])
def test_views_below_the_top_follow_a_language_switch(apps, regulation: Regulation, size) -> None:
    """Going back after a switch must not show the old language, even for an instant."""
    app = apps(**size)
    app.route(routes.CATEGORY.link("play"))
    app.route(routes.INFRACTION.link("drew-extra-cards"))
    below = app.page.views[1]
    assert regulation.infraction("misunderstood-rule").title.ja in "".join(app.texts(below))
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    below = app.page.views[1]
    assert regulation.infraction("misunderstood-rule").title.en in "".join(app.texts(below))
    for view in app.page.views:
        assert not any(JAPANESE.search(t) for t in app.texts(view) if t != "日本語"), view.route
    assert app.back()
    assert app.has_text(regulation.infraction("misunderstood-rule").title.en)


def test_window_title_follows_the_language(apps) -> None:
    app = apps()
    assert app.page.title == "罰則ガイド"
    app.click(app.find(ft.TextButton, tooltip="言語を切り替え"))
    assert app.page.title == "OCG Penalty Guide"
    app.route(routes.SETTINGS.link())
    app.select(app.find_all(ft.RadioGroup)[0], "both")
    assert app.page.title == "罰則ガイド / OCG Penalty Guide"


def test_both_languages_show_the_aliases_of_both(apps, regulation: Regulation) -> None:
    infraction = regulation.infraction("bribery")
    app = apps(prefs={"language": "both"})
    app.route(routes.INFRACTION.link("bribery"))
    texts = " ".join(app.texts())
    assert infraction.aliases.ja[0] in texts and infraction.aliases.en[0] in texts


def test_headings_say_what_the_paragraphs_under_them_are(apps, regulation: Regulation) -> None:
    assistance = regulation.infraction("outside-assistance")
    app = apps(route=routes.INFRACTION.link("outside-assistance"))
    texts = app.texts()
    assert "処置" not in texts  # nothing here is done to the game or the deck
    assert texts.index("注記") < texts.index(assistance.notes[0].ja)
    drew = regulation.infraction("drew-extra-cards")
    app.route(routes.INFRACTION.link("drew-extra-cards"))
    texts = app.texts()
    assert texts.index("処置") < texts.index(drew.remedy[0].ja) and "注記" not in texts
    app.route(routes.INFRACTION.link("intentional-slow-play"))
    texts = app.texts()
    # The source's examples begin with their own 一例：; no heading repeats it.
    assert regulation.infraction("intentional-slow-play").examples[0].ja in texts
    assert not {"例", "処置"} & set(texts)


@pytest.mark.parametrize("size", [PHONE, DESKTOP])
def test_text_size_reaches_the_navigation_labels_and_the_language_button(apps, size) -> None:
    app = apps(route=routes.SETTINGS.link(), **size)

    def sizes() -> tuple[float, ...]:
        theme = app.page.theme
        button = app.find(ft.TextButton, tooltip="言語を切り替え")
        labels = (
            theme.navigation_bar_theme.label_text_style.size,
            theme.navigation_rail_theme.unselected_label_text_style.size,
        )
        if size is PHONE:  # the icon alone on a phone (its label took the title's room)
            assert button.content is None
            return labels
        return (*labels, button.content.size)

    before = sizes()
    app.click(app.find(ft.IconButton, tooltip="文字を大きく"))
    after = sizes()
    assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)


def test_labelled_buttons_follow_the_text_size(apps) -> None:
    """A button's label is text the judge reads at the table: it grows with the setting too."""
    app = apps(route=routes.INFRACTION.link("drew-extra-cards"))

    def label_size() -> float:
        return app.find(ft.FilledTonalButton, text="この罰則を記録").content.size

    before = label_size()
    app.route(routes.SETTINGS.link())
    app.click(app.find(ft.IconButton, tooltip="文字を大きく"))
    app.route(routes.INFRACTION.link("drew-extra-cards"))
    assert label_size() > before


def test_a_client_that_never_answers_still_gets_the_app(apps) -> None:
    """A tab that outlived a server restart never answers the start-up's questions: after a
    short wait the app starts on the defaults instead of staying blank."""
    silent = {("SharedPreferences", "get"): hold, ("Page", "get_device_info"): hold}
    app = apps(locale="en-US", prefs={"language": "en"}, handlers=silent)
    assert app.texts() == []  # still waiting for the client
    app.settle(timers_within=CLIENT_TIMEOUT + 1)
    assert app.has_text("A 注意")  # the defaults: nothing said otherwise in time
    assert apps(locale="en-US").has_text("A Caution")  # an answering client is followed


def test_stored_settings_that_arrive_late_still_apply(apps, regulation: Regulation) -> None:
    prefs = {"language": "en", "bookmarks": '["bribery"]'}
    app = apps(prefs=prefs, handlers={("SharedPreferences", "get"): hold})
    app.settle(timers_within=CLIENT_TIMEOUT + 1)
    assert app.has_text("A 注意")
    app.answer_held()
    assert app.has_text("A Caution")
    app.route(routes.SEARCH.link())
    assert app.has_text(regulation.infraction("bribery").title.en)


def test_the_device_services_go_out_with_the_register_answer(apps) -> None:
    """The preferences and vibration services are in the page's first state (before_main):
    nothing but the questions is sent before the stored settings are asked for, no patch of
    their own the client handles first (issue 22, item 5); the stored settings still apply."""
    app = apps(prefs={"language": "en"})
    (action, answer), *later = app.messages
    assert action is MessageAction.REGISTER_CLIENT
    services = answer["page_patch"]["_services"]["_services"]
    assert [s["_c"] for s in services] == ["SharedPreferences", "HapticFeedback"]
    asked = next(i for i, (_a, body) in enumerate(later) if body.get("name") == "get")
    assert {a for a, _body in later[:asked]} <= {MessageAction.INVOKE_METHOD}
    prefs_id = services[0]["_i"]
    assert {b["control_id"] for _a, b in later if b.get("name") == "get"} == {prefs_id}
    assert app.has_text("A Caution")
    app.route(routes.SETTINGS.link())
    app.click(app.find(ft.IconButton, tooltip="Larger text"))
    assert app.prefs["text_scale"] != "1.0"  # saved through the service sent at the start


def test_a_tab_reloaded_at_a_new_width_takes_its_layout_from_it(apps) -> None:
    app = apps(route=routes.INFRACTION.link("bribery"))
    assert app.exists(ft.NavigationBar)
    app.reload(width=1280, height=800)  # widened, then reloaded at once: no resize event
    assert app.exists(ft.NavigationRail) and not app.exists(ft.NavigationBar)
    app.reload(width=390, height=844)
    assert app.exists(ft.NavigationBar) and not app.exists(ft.NavigationRail)


def test_english_settings_not_found_and_about_wording(apps) -> None:
    """The reviewed English (issue 11): the theme choice, the way home, the disclaimer."""
    app = apps(locale="en-US", route="/no-such-page")
    app.click(app.find(ft.FilledButton, text="Back to Home"))
    assert app.client_route == routes.TIERS.link()
    app.route(routes.SETTINGS.link())
    assert app.find(ft.Radio, label="Use device setting").value == "system"
    app.route(routes.ABOUT.link())
    about = " ".join(app.texts())
    assert re.search(r"Japanese regulation text is [a-z ]*verbatim", about), about
    assert "The English is a reference translation." in about
    app.route(routes.SETTINGS.link())
    app.select(app.find_all(ft.RadioGroup)[0], "ja")
    app.route(routes.ABOUT.link())
    assert app.has_text(re.compile(r"^日本語の規定本文は原文のまま.*英語は参考訳です。$"))


def test_settings_open_from_the_app_bar_and_back_returns(apps) -> None:
    app = apps(route=routes.INFRACTION.link("bribery"))
    app.click(app.find(ft.IconButton, tooltip="設定"))
    assert app.client_route == routes.SETTINGS.link()
    assert app.has_text("文字の大きさ")
    assert app.back()
    assert app.client_route == routes.INFRACTION.link("bribery")


def test_a_search_starts_from_the_bookmarks_and_recent_entries(apps, regulation) -> None:
    app = apps(prefs={"bookmarks": '["bribery"]'})
    app.route(routes.TIER.link("caution"))
    app.click(destination(app, "検索"))
    texts = " ".join(app.texts())
    assert regulation.infraction("bribery").title.ja in texts and "A 注意" in texts
    app.type(app.find(ft.TextField), "遅刻")
    assert regulation.infraction("bribery").title.ja not in " ".join(app.texts())


@pytest.mark.parametrize("lang", ["ja", "en", "both"])
def test_typical_situations_are_shown_as_the_apps_own_examples(apps, regulation, lang) -> None:
    drew = regulation.infraction("drew-extra-cards")
    assert drew.situations
    app = apps(prefs={"language": lang}, route=routes.INFRACTION.link("drew-extra-cards"))
    texts = app.texts()
    heading = {
        "ja": "よくある状況の例",
        "en": "Typical situations",
        "both": "よくある状況の例 / Typical situations",
    }[lang]
    note = "このアプリが用意した例です。規定の本文ではありません。"
    for situation in drew.situations:
        shown = situation.en if lang == "en" else situation.ja
        assert shown in texts
        # below the regulation's own text, after a heading that says whose words they are
        assert texts.index(heading) < texts.index(shown)
        assert texts.index(drew.remedy[-1].pick(lang)) < texts.index(shown)
    if lang == "both":
        assert drew.situations[0].en in texts
    assert any(text.startswith(note) for text in texts) == (lang != "en")


def test_typical_situations_on_a_principle_page(apps, regulation) -> None:
    principle = regulation.principle("judges-only")
    app = apps(route=routes.PRINCIPLE.link("judges-only"))
    assert principle.situations and all(app.has_text(s.ja) for s in principle.situations)


@pytest.mark.parametrize(
    ("query", "first", "because"),
    [
        ("わざと多く引いた", "故意に、ルールに違反したプレイをした", "故意"),
        ("12分遅刻", "指定の集合時間後10分経過しても、自分の席についていなかった", "12分"),
    ],
)
def test_a_result_says_why_it_matched(apps, query: str, first: str, because: str) -> None:
    app = apps(route=routes.SEARCH.link(q=query))
    row = app.find_all(ft.ListTile)[0]
    shown = app.texts(row)
    assert first in shown
    (why,) = [t for t in shown if "一致：" in t]  # the words found, and where
    assert why.startswith(f"{because} · ")  # what ranked it first


def test_why_it_matched_follows_the_language(apps) -> None:
    app = apps(prefs={"language": "en"}, route=routes.SEARCH.link(q="drew 2 cards on purpose"))
    shown = " ".join(app.texts(app.find_all(ft.ListTile)[0]))
    assert "Intentional" in shown and "Matched:" in shown
    assert not JAPANESE.search(shown.replace("日本語", ""))


def test_sessions_share_the_data_loaded_once(apps) -> None:
    """Each tab of the web mode is a session: none of them loads the data again."""
    first, second = apps(), apps(prefs={"language": "en"})
    assert first.page.data.regulation is second.page.data.regulation
    assert first.page.data.finder is second.page.data.finder
    assert first.page.data.search_index() is second.page.data.search_index()


@pytest.mark.parametrize(
    ("query", "lang", "note"),
    [
        (
            "結果を間違えて書いた",
            "ja",
            "うっかりした場合の項目はありません。判断はジャッジに委ねられます（アプリの注記）",
        ),
        (
            "wrong result reported by mistake",
            "en",
            "honest mistake; the judge decides (the app's note)",
        ),
    ],
)
def test_an_honest_mistake_says_the_source_has_no_entry_for_it(
    apps, query: str, lang: str, note: str
) -> None:
    """Issue 19, item 2: the result says, as the app's note, that the judge decides."""
    app = apps(prefs={"language": lang}, route=routes.SEARCH.link(q=query))
    rows = app.find_all(ft.ListTile)
    first, second = (" ".join(app.texts(row)) for row in rows[:2])
    assert (note in first and "(the app's note)" in first) or "アプリの注記" in first
    assert note in second  # the deliberate entry, lowered, says it too


@pytest.mark.parametrize("category_id", ["deck", "deck-list", "play", "conduct"])
def test_a_section_heading_the_source_leaves_out_is_marked_as_the_apps(
    apps, regulation: Regulation, category_id: str
) -> None:
    """Issue 19, item 11: 遅刻, 詐欺行為 … are the original document's headings, not the text."""
    app = apps(route=routes.CATEGORY.link(category_id))
    note = "この見出しは原文の公開版によるもので、収録した規定の本文にはありません。"
    sections = regulation.sections_in_category(category_id)
    missing = [s for s in sections if not s.heading_in_source]
    assert app.texts().count(note) == len(missing)
    texts = app.texts()
    for section in missing:  # each note right under its own heading
        (at,) = [i for i, text in enumerate(texts) if text.startswith(section.title.ja)]
        assert texts[at + 1] == note


def test_a_principles_label_is_marked_as_the_apps(apps, regulation: Regulation) -> None:
    app = apps(route=routes.PRINCIPLE.link("judge-discretion"))
    assert app.has_text("この見出しはアプリが付けたものです。規定の本文ではありません。")


def test_an_address_the_browser_opens_goes_back_to_its_own_parents(apps) -> None:
    """A reload of another address, or one typed, while the session still has the screens open
    before it (issue 20, item 14): back goes up from the new screen, not to the old ones."""
    app = apps(route=routes.LOG_EVENT.link())
    assert app.client_route == routes.LOG_EVENT.link()
    app.route(routes.CATEGORY.link("play"))  # the browser's own, not asked for by the app
    assert app.back()
    assert app.client_route == routes.CATEGORIES.link()
    assert not app.back()


def test_the_browser_going_back_to_an_open_screen_keeps_the_history(apps, regulation) -> None:
    app = apps()
    app.route(routes.CATEGORY.link("play"))
    item = regulation.infraction("drew-extra-cards")
    app.click(app.find(ft.ListTile, text=item.title.ja))
    assert app.client_route == routes.INFRACTION.link(item.id)
    app.route(routes.CATEGORY.link("play"))  # the browser's back button: a screen still open
    app.click(app.find(ft.ListTile, text=item.title.ja))
    assert app.back()
    assert app.client_route == routes.CATEGORY.link("play")
    assert app.back()
    assert app.client_route == routes.CATEGORIES.link()

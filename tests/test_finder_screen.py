"""The infraction finder as a judge uses it, in-process over the fake client: every answer path
tapped through to its entry's page, in both languages; breadcrumbs, start over, deep links."""

from __future__ import annotations

import flet as ft
import pytest

from regulation.model import Infraction, entry_title
from views import routes

try:
    from flet_harness import FakeApp
except ImportError:  # tests/ as a package
    from tests.flet_harness import FakeApp

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def answer(app: FakeApp, label: str) -> None:
    """Taps the answer button that shows `label`."""
    buttons = app.find_all(ft.OutlinedButton, text=label)
    assert len(buttons) == 1, (label, app.texts())
    app.click(buttons[0])


def entry_route(entry) -> str:
    pattern = routes.INFRACTION if isinstance(entry, Infraction) else routes.PRINCIPLE
    return pattern.link(entry.id)


@pytest.mark.parametrize(("lang", "size"), [("ja", PHONE), ("en", DESKTOP)])
def test_every_answer_path_taps_through_to_its_entry(apps, finder, regulation, lang, size):
    app = apps(prefs={"language": lang}, **size)
    reached: set[str] = set()
    for leaf in finder.leaves():
        app.click(
            next(
                d
                for d in app.find(
                    ft.NavigationRail if size is DESKTOP else ft.NavigationBar
                ).destinations
                if d.label == ("診断" if lang == "ja" else "Finder")
            )
        )
        assert app.client_route == routes.FINDER.link()
        for step in leaf.steps:
            assert app.has_text(step.node.question.pick(lang))
            answer(app, step.option.label.pick(lang))
        assert app.client_route == entry_route(leaf.entry), leaf
        title = entry_title(leaf.entry).pick(lang)
        assert app.top_view.appbar.title.value == title
        assert leaf.questions <= 4
        reached.add(leaf.entry.id)
    assert {i.id for i in regulation.infractions} <= reached


def test_answers_show_where_they_lead(apps, finder) -> None:
    app = apps(route=routes.FINDER_STEP.link("time-late"))
    node = finder.node("time-late")
    for option in node.options:
        if option.none is not None:
            continue  # no infraction: not a button (test_an_answer_that_is_no_infraction_…)
        button = app.find(ft.OutlinedButton, text=option.label.ja)
        penalty = option.result.penalty
        assert app.has_text(f"{penalty.letter} {penalty.title.ja}", scope=button)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_answer_that_is_no_infraction_says_so_and_leads_nowhere(apps, finder, lang) -> None:
    """Issue 19, items 5, 6: a plain concession is no infraction; the answer says why."""
    app = apps(prefs={"language": lang}, route=routes.FINDER_STEP.link("result-without-playing"))
    node = finder.node("result-without-playing")
    (option,) = [o for o in node.options if o.none is not None]
    assert not app.find_all(ft.OutlinedButton, text=option.label.pick(lang))  # not a way on
    assert app.has_text(option.label.pick(lang))
    assert app.has_text(option.none.text.pick(lang))
    assert app.has_text(
        "違反ではありません（アプリの説明）"
        if lang == "ja"
        else "No infraction (the app's explanation)"
    )


def test_breadcrumbs_change_an_answer_and_start_over_restarts(apps, finder) -> None:
    app = apps(route=routes.FINDER.link())
    answer(app, "プレイ・ゲームの状態")
    answer(app, "カードを引きすぎた")
    assert app.client_route == routes.FINDER_STEP.link("play-drew")
    crumbs = [tile for tile in app.find_all(ft.ListTile) if tile.tooltip == "この答えを変える"]
    assert [c.title.value for c in crumbs] == ["プレイ・ゲームの状態", "カードを引きすぎた"]
    app.click(crumbs[1])  # change "drew too many": back to the question it answered
    assert app.client_route == routes.FINDER_STEP.link("play")
    answer(app, "ルールと違うプレイをした")
    answer(app, "わざとではない（ルールの勘違い）")
    assert app.client_route == routes.INFRACTION.link("misunderstood-rule")
    assert app.back()  # back from the entry: the last question, answered as it was
    assert app.client_route == routes.FINDER_STEP.link("play-rule")
    app.click(app.find(ft.TextButton, text="最初からやり直す"))
    assert app.client_route == routes.FINDER.link()
    assert not app.exists(ft.ListTile, tooltip="この答えを変える")


def test_a_deep_linked_question_goes_back_up_the_answers(apps, finder) -> None:
    app = apps(route=routes.FINDER_STEP.link("result-without-playing"))
    assert app.has_text(finder.node("result-without-playing").question.ja)
    assert app.back()
    assert app.client_route == routes.FINDER_STEP.link("result")
    assert app.back()
    assert app.client_route == routes.FINDER.link()
    assert not app.back()


@pytest.mark.parametrize("node_id", ["no-such-question", "topic"])
def test_unknown_questions_and_the_first_one_by_id_are_not_found(apps, node_id) -> None:
    app = apps(route=routes.FINDER_STEP.link(node_id))
    assert app.has_text("ページが見つかりません")


def test_both_languages_show_question_and_answers_in_both(apps, finder) -> None:
    app = apps(prefs={"language": "both"}, route=routes.FINDER.link())
    root = finder.root
    assert app.has_text(f"{root.question.ja} / {root.question.en}")
    for option in root.options:
        assert app.exists(ft.OutlinedButton, text=f"{option.label.ja} / {option.label.en}")


def test_a_search_that_finds_nothing_offers_the_finder_and_the_categories(apps) -> None:
    app = apps(route=routes.SEARCH.link(q="zzzzqqqq"))
    app.click(app.find(ft.FilledButton, text="質問に答えて探す"))
    assert app.client_route == routes.FINDER.link()
    app.route(routes.SEARCH.link(q="zzzzqqqq"))
    app.click(app.find(ft.OutlinedButton, text="分類から探す"))
    assert app.client_route == routes.CATEGORIES.link()


def test_on_a_wide_window_the_entry_opens_beside_the_last_question(apps, regulation) -> None:
    app = apps(route=routes.FINDER_STEP.link("deck-marks"), **DESKTOP)
    answer(app, "規則性がある")
    texts = app.texts()
    assert regulation.infraction("marked-with-pattern").remedy[0].ja in texts
    assert "見分けのつくカードに規則性はありますか？（特定のカードだけ、など）" in texts

"""The layout checker (tests/e2e/layout.py) can fail: on a small Flet app with known faults
(tests/e2e/broken_app.py), each witness catches what it is for, and a fine screen passes.

The record page's old deleted banner (an expanding Text in a wrapping Row) is the fault of
issue 20, item 1; it stays here, on purpose, after the app's own banner was fixed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .harness import REPO_ROOT, AppServer
from .layout import assert_laid_out, layout_faults

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def broken_server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(
        REPO_ROOT,
        tmp_path_factory.mktemp("broken") / "server.log",
        script="tests/e2e/broken_app.py",
    )
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


def open_broken(open_app, server: AppServer, path: str, size: str = "phone"):
    app = open_app(size, "en-US", path, server=server)
    shown = {"/fine": "A fine screen", "/across": "Inside"}.get(path, "After the banner")
    app.wait_for(app.text(shown))
    return app


def test_a_fine_screen_passes(open_app, broken_server: AppServer) -> None:
    app = open_broken(open_app, broken_server, "/fine")
    assert_laid_out(app, "a fine screen")


def test_a_reported_error_fails_even_where_the_boxes_look_fine(
    open_app, broken_server: AppServer
) -> None:
    app = open_broken(open_app, broken_server, "/error-bounded")
    with pytest.raises(AssertionError, match="Flutter reported an error"):
        assert_laid_out(app, "the banner in a bounded box")
    assert "client error on /error-bounded" in broken_server.log()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_error_box_in_a_scrolling_column_fails_both_witnesses(
    open_app, broken_server: AppServer, size: str
) -> None:
    app = open_broken(open_app, broken_server, "/error-scrolling", size)
    app.settle()
    faults = layout_faults(app)
    assert any(f.startswith("Flutter reported an error") for f in faults), faults
    assert any("beyond 100,000 px" in f for f in faults), faults
    assert any(f.startswith("nothing on ") for f in faults), faults


def test_geometry_alone_catches_the_error_box_when_the_app_does_not_listen(
    open_app, broken_server: AppServer
) -> None:
    app = open_broken(open_app, broken_server, "/error-unreported")
    with pytest.raises(AssertionError, match=r"'Below' \(button\) is laid out beyond 100,000"):
        assert_laid_out(app, "the banner, errors not reported")
    assert not app.client_errors.reported


def test_a_text_off_the_right_edge_fails(open_app, broken_server: AppServer) -> None:
    app = open_broken(open_app, broken_server, "/across")
    with pytest.raises(AssertionError, match=r"'Off the right edge' .* cut at the window's edge"):
        assert_laid_out(app, "a row wider than the window")


def test_a_fault_drawn_in_a_second_update_is_waited_for(open_app, broken_server: AppServer) -> None:
    """The check waits for the screen to settle (two reads that agree, the server quiet), not
    a fixed time: a screen built in several updates 0.08 s apart is judged whole, its last
    row too wide included (checked with the settling left out: this test then fails)."""
    app = open_broken(open_app, broken_server, "/fine")
    app.go("/late")
    app.wait_for(app.text("A later screen"))
    with pytest.raises(AssertionError, match=r"'Off the right edge' .* cut at the window's edge"):
        assert_laid_out(app, "a screen that grows a row too wide")

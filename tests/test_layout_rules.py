"""The layout checker's rules (tests/e2e/layout.py) on boxes made up here: what counts as a
control outside the page. Its browser side is tests/e2e/test_layout_checker.py."""

from __future__ import annotations

from tests.e2e.layout import geometry_faults


def node(name: str, left: float, top: float, right: float, bottom: float, **where: str | None):
    box = {"left": left, "top": top, "right": right, "bottom": bottom}
    return {"id": name, "name": name, "role": "", "box": box, "sy": None, "sx": None, **where}


def scroller(top: float, height: float, extent: float, width: float = 390, **scrolled: float):
    return {
        "box": {"left": 0, "top": top, "right": width, "bottom": top + height},
        "name": "list",
        "scrollTop": scrolled.get("top", 0),
        "scrollLeft": scrolled.get("left", 0),
        "scrollHeight": extent,
        "scrollWidth": scrolled.get("width", width),
        "clientHeight": height,
        "clientWidth": width,
    }


def layout(*nodes: dict, **scrollers: dict) -> dict:
    return {"width": 390, "height": 844, "nodes": list(nodes), "scrollers": scrollers}


def test_rules_pass_a_page_whose_nodes_are_all_reachable() -> None:
    page = layout(
        node("title", 10, 10, 200, 40),
        node("first", 10, 60, 380, 90, sy="s"),
        node("middle", 10, 700, 380, 730, sy="s"),
        node("far down", 10, 1300, 380, 1330, sy="s"),  # scrolled to, not lost
        node("chip", 500, 100, 600, 130, sx="h"),  # in a row that scrolls sideways
        s=scroller(60, 700, 1330 - 60 + 100),
        h=scroller(100, 40, 40, width=390) | {"scrollWidth": 800},
    )
    assert geometry_faults(page) == []


def test_rules_find_a_node_off_the_right_edge_or_below_a_fixed_page() -> None:
    faults = geometry_faults(layout(node("over", 300, 10, 420, 40), node("low", 10, 900, 50, 930)))
    assert len(faults) == 2
    assert "'over' (text) lies outside the page across" in faults[0]
    assert "'low' (text) lies outside the page: y 900–930" in faults[1]


def test_rules_find_a_text_clipped_at_a_side_of_the_window_but_not_a_bar() -> None:
    faults = geometry_faults(
        layout(
            node("cut", 350, 10, 390, 40),
            node("bar", 0, 800, 390, 844),
            node("button", 350, 100, 390, 140, role="button"),
        )
    )
    assert faults == ["'cut' (text) is cut at the window's edge: x 350–390 of 0–390"]


def test_rules_find_an_empty_first_screen_a_gap_and_an_empty_end() -> None:
    pushed = geometry_faults(
        layout(node("restore", 10, 100_060, 100, 100_090, sy="s"), s=scroller(60, 700, 100_100))
    )
    assert any("beyond 100,000 px" in f for f in pushed)
    assert any(f.startswith("nothing on 100000 px") for f in pushed)
    gap = geometry_faults(
        layout(
            node("a", 10, 60, 50, 90, sy="s"),
            node("b", 10, 1000, 50, 1030, sy="s"),
            s=scroller(60, 700, 1000),
        )
    )
    assert gap == [
        "nothing on 910 px of 'list''s scrolling (a screen is 700 px) between 'a' (text)"
        " and 'b' (text)"
    ]
    tail = geometry_faults(layout(node("a", 10, 60, 50, 90, sy="s"), s=scroller(60, 700, 2000)))
    assert tail and "nothing on the last 1970 px" in tail[0]


def test_rules_do_not_judge_past_a_tall_text_clipped_at_the_pane_s_bottom() -> None:
    """Flutter clips a node's box to the scrolling pane: a long note's box ends at the pane's
    visible bottom; the next node, further down, is no sign of an empty screen."""
    page = layout(
        node("note", 10, 700, 380, 760, sy="s"),  # the pane shows 60–760
        node("after", 10, 1500, 380, 1530, sy="s"),
        s=scroller(60, 700, 1530 - 60),
    )
    assert geometry_faults(page) == []
    page["nodes"][0]["box"]["bottom"] = 740  # ends before the pane's bottom: a real gap
    assert len(geometry_faults(page)) == 1

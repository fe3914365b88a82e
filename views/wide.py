"""A wide window's one page, changed in place (issue 20, item 15).

On a phone every screen is a view of its own, stacked as the history is. On a wide window a tap
in the list used to push a whole new view too: the rail, the list (a log's 30 rows) and the new
screen, sent again and laid out again by the browser, 0.8-1.8 s in Chromium. Here a wide window
shows one view whose parts change in place: the list pane keeps its controls while the list is
the same (same address, nothing changed since; the selection moves in its rows), the rail stays
while its destination does, and only the detail pane and the app bar are new. Back is the app
bar's own arrow (the history is the shell's); a plain view below the page lets Android's system
back pop it, which the shell answers as a back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from . import strings as S
from .context import Context, Screen
from .layout import app_bar, navigation_rail
from .screens import Destination
from .sync_link import Redraw
from .theme import MASTER_PANE_WIDTH
from .widgets import icon_button


@dataclass(frozen=True, slots=True)
class ListPane:
    """What the list pane shows: its screen, built for `path` at the app's data `version`,
    with `selected` marked, and the status lines it watches (views/sync_link.py)."""

    path: str
    version: int
    screen: Screen
    selected: str | None
    watchers: tuple[Redraw, ...]


class WidePage:
    def __init__(self) -> None:
        self._below = ft.View(route="/_below", controls=[], padding=0)
        self._view: ft.View | None = None
        self._row: ft.Row | None = None
        self._rail: tuple[int, int] | None = None  # (tab, version) the rail was made for
        self._list: ListPane | None = None
        self._full_width = False  # the row's arrangement: rail and one pane (the clock)
        # What the app bar's actions were made for: the entry it stars, the app's version.
        self._actions: tuple[str | None, int] | None = None
        self._back: ft.Container | None = None
        self._pops = 0  # a popped view's address stays hidden by the client: a new one each time
        # What the last `views` changed in place, for Flet to compare and send alone (it would
        # otherwise compare the whole page, the kept list's rows and all); None: a new page.
        self.changed: list[ft.Control] | None = None
        self._moved: list[ft.Control] = []  # rows whose selection mark moved

    def popped(self) -> None:
        """The client hid the page (a system back): the next one must be a new view."""
        self._view = None
        self._pops += 1

    def forget(self) -> None:
        """Another kind of view was shown (a phone's, a full-screen one): start afresh."""
        self._view = None
        self._list = None

    def rebuild_list(self) -> None:
        """The list pane is built again at the next `list_pane` (a screen's own refresh)."""
        self._list = None

    def list_pane(
        self,
        path: str,
        version: int,
        selected: str | None,
        build: Callable[[], tuple[Screen, tuple[Redraw, ...]]],
    ) -> ListPane:
        """The list pane for `path`: the one shown already while the list is unchanged (only
        the selection moved, in rows that can follow it), else built anew by `build`, which
        returns the screen and the status lines it watches."""
        kept = self._list
        self._moved = []
        if kept is not None and (kept.path, kept.version) == (path, version):
            if kept.screen.rows_follow_selection:
                if kept.selected != selected:
                    self._moved = mark_selected(kept.screen.body, selected)
                    kept = self._list = ListPane(
                        path, version, kept.screen, selected, kept.watchers
                    )
                return kept
            if kept.selected == selected:
                return kept
        screen, watchers = build()
        self._list = ListPane(path, version, screen, selected, watchers)
        return self._list

    def views(
        self,
        ctx: Context,
        screen: Screen,
        listed: Screen,
        destinations: tuple[Destination, ...],
        tab: int,
        version: int,
        back: Callable[[], None] | None,
    ) -> list[ft.View]:
        """The page with `screen` in the detail pane beside `listed`; `screen is listed` when
        the screen is itself the list (the detail pane then says what to pick). A full-width
        screen (the round clock) has the whole area beside the rail."""
        appbar = app_bar(ctx, screen, can_go_back=False)
        if back is not None:
            appbar.leading = self._back_button(ctx, back, version)
        panes = self._panes(ctx, screen, listed)
        actions = (screen.bookmark_id, version)
        if self._view is None or self._row is None:
            rail = pane_group(navigation_rail(ctx, destinations, tab))
            self._row = ft.Row(
                [rail, ft.VerticalDivider(width=1), *panes],
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            )
            # An address of its own, kept while the page is: to Flutter's navigator a view
            # whose address changed is a new page, built again whole (the kept list too) and
            # slid in, while the judge may already be typing into it.
            self._view = ft.View(
                route=f"/_wide/{self._pops}", appbar=appbar, controls=[self._row], padding=0
            )
            self._rail = (tab, version)
            self._full_width = screen.full_width
            self._actions = actions
            self.changed = None
            return [self._below, self._view]
        bar = self._keep_app_bar(self._view.appbar, appbar, actions)
        changed = [*self._moved, bar]
        parts = self._row.controls
        if self._rail != (tab, version) or self._full_width != screen.full_width:
            parts[:] = [pane_group(navigation_rail(ctx, destinations, tab)), parts[1], *panes]
            self._rail = (tab, version)
            self._full_width = screen.full_width
            changed = [bar, self._row]  # the app bar too: the title, the back arrow
        else:
            for now_part, new_part in zip(parts[2:], panes, strict=True):
                # The same container, its content swapped: the list pane's rows, when kept,
                # are not sent or laid out again.
                now, new = pane_box(now_part), pane_box(new_part)
                if now is None or new is None:
                    continue  # a divider
                if now.content is not new.content:
                    now.content = new.content
                    changed.append(now)
        self.changed = changed
        return [self._below, self._view]

    def _back_button(self, ctx: Context, back: Callable[[], None], version: int) -> ft.Control:
        """The app bar's back arrow (the history is the shell's, not the client's), one while
        the language stays. Centred in its slot, as Flutter's own back button is: its tooltip
        then answers the arrow alone, not the slot's whole 56 px square up to the window's
        corner (with the accessibility tree on, a click on a text field while a tooltip shows
        lost the field's focus a moment later: tests/e2e/test_focus_browser.py)."""
        if self._back is None or self._back.data != version:
            arrow = icon_button(ft.Icons.ARROW_BACK, ctx.ui(S.SHOW_BACK), lambda _: back())
            self._back = ft.Container(arrow, alignment=ft.Alignment.CENTER, data=version)
        return self._back

    def _keep_app_bar(
        self,
        kept: ft.AppBar | ft.CupertinoAppBar | None,
        new: ft.AppBar,
        actions: tuple[str | None, int],
    ) -> ft.Control:
        """The page's app bar made to show `new`, changing only what differs: a new app bar
        would make the browser build the whole page again, the kept list included. Returns
        what changed (the app bar, or the view when it has a new one)."""
        assert self._view is not None
        if not isinstance(kept, ft.AppBar) or not isinstance(kept.title, ft.Text):
            self._view.appbar = new
            self._actions = actions
            return self._view
        assert isinstance(new.title, ft.Text)
        kept.title.value = new.title.value
        kept.title.size = new.title.size
        kept.title.max_lines = new.title.max_lines
        kept.toolbar_height = new.toolbar_height  # grown for a long title (views/layout.py)
        if kept.leading is not new.leading:
            kept.leading = new.leading
        if self._actions != actions:
            kept.actions = new.actions
            self._actions = actions
        return kept

    def _panes(self, ctx: Context, screen: Screen, listed: Screen) -> list[ft.Control]:
        if screen.full_width:  # the round clock: big digits, nothing beside them
            return [ft.Container(screen.body, expand=True, padding=16)]
        if screen is listed:
            detail: ft.Control = ft.Container(
                ft.Text(ctx.ui(screen.detail_hint or S.SELECT_AN_ITEM), size=ctx.sizes.body),
                alignment=ft.Alignment.CENTER,
            )
        else:
            detail = screen.body
        return [
            pane_group(ft.Container(listed.body, width=MASTER_PANE_WIDTH, padding=12)),
            ft.VerticalDivider(width=1),
            ft.Container(detail, expand=True, padding=16),
        ]


def pane_group(pane: ft.Control) -> ft.RadioGroup:
    """A pane that Tab goes through whole before the next one (issue 20, item 12).

    Flutter's default Tab order reads the window in bands, top to bottom and left to right
    within each band, so across a rail, a list and a detail pane it went row by row through
    all three. Flet 1.0.5 has no FocusTraversalGroup; Flutter's RadioGroup holds its content
    in one, and a group is ordered as one block by its whole rectangle: the rail (the window's
    whole height, leftmost) first, then the list pane (from the panes' top, left of the detail
    pane), then the detail pane's own controls, left ungrouped, in reading order. There are no
    radios inside (the group value stays None): typing, Space and Enter behave as outside
    (tests/e2e/test_pane_order_browser.py); screen readers hear the pane as a radio group."""
    return ft.RadioGroup(content=pane)


def pane_box(part: ft.Control) -> ft.Container | None:
    """The container of a pane (inside its group, if any); None for a divider."""
    if isinstance(part, ft.RadioGroup):
        part = part.content
    return part if isinstance(part, ft.Container) else None


def mark_selected(control: ft.Control, selected: str | None) -> list[ft.Control]:
    """Moves the selection mark of a list's rows (a ListTile whose `data` is its entry's or
    record's id) to `selected`; returns the rows that changed."""
    moved: list[ft.Control] = []
    stack: list[object] = [control]
    while stack:
        current = stack.pop()
        if isinstance(current, ft.ListTile) and isinstance(current.data, str):
            mark = current.data == selected
            if bool(current.selected) != mark:
                current.selected = mark
                moved.append(current)
        for name in ("content", "controls"):
            child = getattr(current, name, None)
            if isinstance(child, list):
                stack.extend(child)
            elif isinstance(child, ft.Control):
                stack.append(child)
    return moved

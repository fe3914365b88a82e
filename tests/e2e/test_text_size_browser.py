"""The largest text size (175 %) in Debian's Chromium (issue 20, items 11 and 13): nothing cut.

- App-bar titles: the bar grows with its title, which lies wholly inside it (a long infraction's
  title on a phone in both languages, "both" on a desktop, the tournament settings).
- The officially-recorded line on a record page wraps inside the page (it ran off the right).
- A bad time's error under its field wraps (it was cut: "Enter the ti…").
- A long placeholder wraps inside its field, the field growing with it (it was cut).

"Whole" is measured: the text's width in the bundled font (fontTools) at the size it is drawn
must fit the lines its box holds. Screenshots: tests/e2e/screenshots/<size>-175-*.png.
"""

from __future__ import annotations

import math
import re
import struct
import time
import zlib
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from playwright.sync_api import Locator

from records.model import Player, RecordInput, Round
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation
from views import strings as S
from views.theme import FONT_FAMILY, FONT_FILES, TypeScale

from .harness import REPO_ROOT, AppServer, FlutterApp
from .layout import assert_laid_out
from .layouts import LOCALES
from .test_browser import CATALOG, ui
from .test_log_layout import LONG_LATIN, server_for

pytestmark = pytest.mark.browser

LONG = "outside-assistance"  # the longest infraction title, in both languages
LARGEST = {"text_scale": "1.75", "theme": "dark"}
SIZES_175 = TypeScale(1.75)
# Flutter's Material 3 sizes where our text size does not reach: a field's error and
# placeholder (bodySmall 12 px, bodyLarge 16 px); a line is at least the font's size tall.
ERROR_PX = 12.0


@pytest.fixture(scope="module")
def measure():
    font = TTFont(REPO_ROOT / "assets" / FONT_FILES[FONT_FAMILY])
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    per_em = font["head"].unitsPerEm
    fallback = metrics[cmap[ord("M")]][0]

    def width(text: str, size: float) -> float:
        return sum(metrics.get(cmap.get(ord(c), ""), (fallback,))[0] for c in text) * size / per_em

    return width


def assert_whole(app: FlutterApp, node: Locator, text: str, size: float, measure) -> None:
    """`text`, drawn at `size` px in `node`'s box, fits it: inside the window across, and its
    width no more than the lines the box is tall enough for (a cut text keeps its full
    accessible name, but its box is one line, or runs off the side)."""
    box = node.first.bounding_box()
    assert box is not None, text
    width = app.page.viewport_size["width"]  # type: ignore[index]
    assert box["x"] + box["width"] <= width + 0.5, f"{text!r} runs off the right: {box}"
    lines = max(1, math.floor(box["height"] / size + 0.2))
    needed = measure(text, size)
    # 0.97: words move whole to the next line, so a wrapped text fills its lines less.
    assert needed <= box["width"] * lines * 1.02, (
        f"{text!r} needs {needed:.0f} px at {size} px, its box holds {lines} line(s) of"
        f" {box['width']:.0f} px: cut"
    )


def png_rows(data: bytes) -> list[list[tuple[int, ...]]]:
    """The pixels of a PNG that Chromium wrote (8-bit RGB or RGBA, not interlaced), by row."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos : pos + 4]), data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    channels = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(b"".join(chunks)), width * channels
    rows: list[list[tuple[int, ...]]] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, channels)])
        previous = line
    return rows


def inked(row: list[tuple[int, ...]], background: tuple[int, ...]) -> int:
    """How many pixels of `row` are drawn on (differ clearly from the background)."""
    return sum(
        1 for pixel in row if max(abs(a - b) for a, b in zip(pixel, background, strict=True)) > 60
    )


def title_inside_its_bar(app: FlutterApp, title: str) -> None:
    """The app bar's title (a heading) is whole: its box starts on the page, and its first and
    last rows of pixels are blank (a title taller than its bar is clipped there, glyphs cut
    through: Flutter clips its accessible box with it, so only the pixels tell)."""
    heading = app.page.get_by_role("heading", name=title, exact=True).first
    app.settle()
    box = heading.bounding_box()
    assert box is not None, title
    assert box["y"] >= -0.5, f"the title starts {-box['y']:.0f} px above the page: cut"
    clip = {"x": box["x"], "y": max(box["y"], 0), "width": box["width"], "height": box["height"]}
    rows = png_rows(app.page.screenshot(clip=clip))
    background = max(set(rows[0]) | set(rows[-1]), key=(rows[0] + rows[-1]).count)
    top, bottom = inked(rows[0], background), inked(rows[-1], background)
    assert top == 0 and bottom == 0, (
        f"the title {title[:20]!r}… is cut by its bar: {top} px of glyphs on its top row,"
        f" {bottom} on its bottom row ({box['width']:.0f}×{box['height']:.0f} px)"
    )


@pytest.mark.parametrize(
    ("size", "lang", "locale"),
    [("phone", "en", "en-US"), ("phone", "ja", "ja-JP"), ("desktop", "both", "ja-JP")],
)
def test_a_long_title_at_175_percent_is_whole(
    open_app, regulation: Regulation, size: str, lang: str, locale: str
) -> None:
    item = regulation.infraction(LONG)
    assert item is not None
    app = open_app(size, locale, f"/infractions/{LONG}", settings={"language": lang, **LARGEST})
    shown = item.title["ja" if lang == "both" else lang]
    app.wait_for(app.page.get_by_role("heading", name=shown, exact=True))
    assert_laid_out(app, f"{LONG} at 175 %")
    title_inside_its_bar(app, shown)
    app.screenshot(f"175-{lang}-long-title")


# -- the log's screens ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def late_record(regulation: Regulation, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """A data folder with rounds and one tardiness (a duel forfeiture: officially recorded)."""
    folder: Path = tmp_path_factory.mktemp("text-size-data")
    now = datetime.now().astimezone()
    with LogStore.open(regulation, folder / DATABASE_NAME) as store:
        event = store.current_event()
        store.set_rounds(event.id, [Round(1, now - timedelta(hours=1)), Round(2)])
        late = store.add_record(
            event.id,
            RecordInput(Player("遅刻 次郎"), "not-seated-5-minutes", round=1, table="9"),
        ).id
        store.add_record(event.id, RecordInput(Player(LONG_LATIN), "drew-extra-cards", round=1))
    return folder, late


@pytest.fixture(scope="module")
def text_size_server(browser, late_record):
    folder, _late = late_record
    yield from server_for(folder, folder.parent / "text-size-server.log")


@pytest.mark.parametrize(("size", "lang"), [("phone", "ja"), ("phone", "en"), ("desktop", "en")])
def test_the_tournament_settings_at_175_percent_cut_nothing(
    open_app, text_size_server: AppServer, measure, size, lang
) -> None:
    """The title in its bar; a bad time's error under its field whole."""
    app = open_app(
        size,
        LOCALES[lang],
        "/log/event",
        server=text_size_server,
        settings={"language": lang, **LARGEST},
    )
    # The tournament settings: the title in its bar; a bad time's error whole.
    title = ui(S.EVENT_SETTINGS, lang)
    app.wait_for(app.heading(title))
    title_inside_its_bar(app, title)
    assembly = app.page.get_by_role(
        "textbox", name=re.compile("^" + re.escape(ui(S.EVENT_ASSEMBLY, lang)))
    )
    app.type_into(assembly.last, "25:99")
    app.page.keyboard.press("Enter")
    error = ui(S.EVENT_BAD_TIME, lang)
    shown = app.text(re.compile(re.escape(error)))
    app.wait_for(shown)
    assert_laid_out(app, "the tournament settings with a bad time")
    assert_whole(app, shown, error, ERROR_PX, measure)
    app.screenshot(f"{lang}-175-event-bad-time")


@pytest.mark.parametrize(("size", "lang"), [("phone", "ja"), ("phone", "en"), ("desktop", "both")])
def test_the_officially_recorded_line_at_175_percent_is_whole(
    open_app, text_size_server: AppServer, late_record, regulation: Regulation, measure, size, lang
) -> None:
    """A record of a duel forfeiture: the regulation's sentence that it is officially recorded
    wraps inside the page."""
    _folder, late = late_record
    app = open_app(
        size,
        {"ja": "ja-JP", "en": "en-US", "both": "ja-JP"}[lang],
        f"/log/records/{late}",
        server=text_size_server,
        settings={"language": lang, **LARGEST},
    )
    tier = regulation.tier("duel-forfeiture")
    assert tier is not None
    point = next(p for p in tier.points if "公式に記録" in p.ja)
    sentence = point.ja if lang == "both" else point[lang]
    line = app.text(sentence)
    app.wait_for(line)
    assert_laid_out(app, "a record officially recorded")
    assert_whole(app, line, sentence, SIZES_175.body, measure)
    app.screenshot(f"{lang}-175-record-official")


def into_view(app, field) -> None:
    """Wheels the scrolling pane that holds `field` until the field lies between the app bar and
    the bottom of the window (a phone's navigation bar takes about 100 px of it). Playwright's
    own scrolling moves the DOM node, not Flutter's canvas."""
    viewport = app.page.viewport_size
    assert viewport is not None
    bottom = viewport["height"] - (100 if viewport["width"] < 600 else 10)
    for _ in range(30):
        box = field.first.bounding_box()
        assert box is not None
        if box["y"] >= 70 and box["y"] + 48 <= bottom:
            return
        app.page.mouse.move(box["x"] + box["width"] / 2, viewport["height"] / 2)
        app.page.mouse.wheel(0, 150 if box["y"] > 70 else -150)
        app.page.wait_for_timeout(150)
    raise AssertionError(f"{field} could not be scrolled into view")


@pytest.mark.parametrize(
    ("size", "lang", "locale"),
    [("phone", "en", "en-US"), ("phone", "both", "ja-JP"), ("desktop", "both", "en-US")],
)
def test_a_long_placeholder_wraps_inside_its_field(
    open_app, text_size_server: AppServer, measure, size: str, lang: str, locale: str
) -> None:
    """The log's player filter: its placeholder (shown once the field has the focus) is whole,
    the field as tall as its lines."""
    app = open_app(
        size, locale, "/log", server=text_size_server, settings={"language": lang, **LARGEST}
    )
    label = ui(S.LOG_FILTER, "ja" if lang == "both" else lang)
    box = app.page.get_by_role("textbox", name=re.compile("^" + re.escape(label)))
    table_label = ui(S.LOG_TABLE_FILTER, "ja" if lang == "both" else lang)
    table = app.page.get_by_role("textbox", name=re.compile("^" + re.escape(table_label)))
    app.wait_for(box)
    # At 175 % in "both" a phone's log header fills the screen and the filters are below the
    # fold: a click on a field's off-screen node lands on whatever the canvas shows there (the
    # deleted records' button). Scroll the log until the field sits above the bottom bar.
    into_view(app, box)
    app.type_into(box, "")
    app.settle(800)
    hint = S.LOG_FILTER_HINT
    placeholder = CATALOG.text(hint).shown(lang)  # type: ignore[arg-type]
    needed = measure(placeholder, SIZES_175.body)
    # The placeholder shows once the label has floated up, and the field grows to it after.
    deadline = time.monotonic() + 5
    while True:
        # The field's own node may keep one line's box: its height on the page is from its
        # top to the filters below it (12 px apart).
        field_box, below = box.first.bounding_box(), table.first.bounding_box()
        assert field_box is not None and below is not None
        field_box["height"] = below["y"] - 12 - field_box["y"]
        # Drawn in the field's own text size, inside its box less its icon and padding (about
        # 60 px across, 32 px down).
        lines = max(1, math.floor((field_box["height"] - 32) / SIZES_175.body + 0.2))
        room = (field_box["width"] - 60) * lines
        if needed <= room or time.monotonic() > deadline:
            break
        app.page.wait_for_timeout(200)
    app.screenshot(f"{lang}-175-filter-placeholder")
    assert needed <= room, (
        f"{placeholder!r} needs {needed:.0f} px at {SIZES_175.body} px; the field"
        f" ({field_box['width']:.0f}×{field_box['height']:.0f}) holds {lines} line(s): cut"
    )
    assert_laid_out(app, "the log with the filter's placeholder")


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("phone", "ja")])
def test_a_long_recent_name_on_the_form_is_whole(
    open_app, text_size_server: AppServer, measure, size: str, lang: str
) -> None:
    """The new record's recent players: a long name wraps in its button (a chip cut it)."""
    app = open_app(
        size,
        LOCALES[lang],
        "/log/new",
        server=text_size_server,
        settings={"language": lang, **LARGEST},
    )
    name = app.text(LONG_LATIN)
    app.wait_for(name)
    assert_laid_out(app, "the new record's recent players")
    assert_whole(app, name, LONG_LATIN, SIZES_175.small, measure)
    app.screenshot(f"{lang}-175-form-recent-players")

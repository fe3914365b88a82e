"""The README's pictures (docs/screenshots/), taken from the real app in Debian's Chromium.

    .venv/bin/python scripts/readme_screenshots.py

A development tool, not a test: it serves the app from this checkout (`main.py --web`, network
sealed as in the browser tests) with a penalty log of its own in a temporary folder, opens each
screen at phone or desktop size, and writes one PNG per picture. Look at them before committing.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SIZES,
    AppServer,
    FlutterApp,
    NetworkLog,
)

OUT = ROOT / "docs" / "screenshots"


def seed_log(data_dir: Path) -> None:
    """A round of a small tournament: two penalties for one player, one for another."""
    from records.model import Player, RecordInput
    from records.paths import DATABASE_NAME
    from records.store import LogStore
    from regulation.loader import load_regulation

    store = LogStore.open(load_regulation(), data_dir / DATABASE_NAME)
    event = store.current_event()
    for name, infraction, table in (
        ("山田 太郎", "drew-extra-cards", "12"),
        ("佐藤 花子", "marked-no-pattern", "7"),
        ("山田 太郎", "unintentional-slow-play", "12"),
    ):
        store.add_record(
            event.id,
            RecordInput(player=Player(name), infraction_id=infraction, round=1, table=table),
        )
    store.close()


Shot = tuple[str, str, str, str, dict[str, str], Callable[[FlutterApp], None]]


def wait_text(text: str) -> Callable[[FlutterApp], None]:
    return lambda app: app.wait_for(app.text(re.compile(re.escape(text))))


def tap_then(label: str, then: str) -> Callable[[FlutterApp], None]:
    def act(app: FlutterApp) -> None:
        app.tap(app.button(re.compile(re.escape(label))))
        app.wait_for(app.text(re.compile(re.escape(then))))

    return act


# (file name, size, locale, path, stored settings, what to wait for or do before the picture)
SHOTS: tuple[Shot, ...] = (
    ("phone-ja-tiers", "phone", "ja-JP", "/", {}, wait_text("受賞資格を失う失格")),
    (
        "phone-en-infraction",
        "phone",
        "en-US",
        "/infractions/drew-extra-cards",
        {},
        wait_text("Unintentionally drew extra cards"),
    ),
    ("phone-ja-search", "phone", "ja-JP", "/search?q=わざと多く引いた", {}, wait_text("一致：")),
    ("phone-dark-ja-tiers", "phone", "ja-JP", "/", {"theme": "dark"}, wait_text("受賞資格")),
    ("phone-ja-finder", "phone", "ja-JP", "/finder/time-late", {}, wait_text("5分以上10分未満")),
    ("desktop-ja-tier", "desktop", "ja-JP", "/tiers/warning", {}, wait_text("警告は、その行為")),
    (
        "desktop-both-infraction",
        "desktop",
        "ja-JP",
        "/infractions/outside-assistance",
        {"language": "both"},
        wait_text("Typical situations"),
    ),
    ("desktop-en-finder", "desktop", "en-US", "/finder/play-seen", {}, wait_text("How were")),
    ("phone-ja-log", "phone", "ja-JP", "/log", {}, wait_text("山田 太郎")),
    (
        "desktop-en-log-record",
        "desktop",
        "en-US",
        "/log",
        {},
        tap_then("佐藤 花子", "The line for the match slip"),
    ),
)


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="readme-shots-") as folder:
        data_dir = Path(folder)
        seed_log(data_dir)
        os.environ["PENALTY_GUIDE_DATA_DIR"] = str(data_dir)  # the server's log: the one seeded
        server = AppServer(ROOT, data_dir / "server.log").start()
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, size, locale, path, stored, ready in SHOTS:
                    width, height = SIZES[size]
                    context = browser.new_context(
                        locale=locale,
                        viewport={"width": width, "height": height},
                        service_workers="block",
                    )
                    NetworkLog().attach(context)  # sealed: nothing leaves the machine
                    for key, value in stored.items():  # shared_preferences' web storage
                        stored_value = json.dumps(json.dumps(value))
                        context.add_init_script(
                            f"localStorage.setItem('flutter.{key}', {stored_value})"
                        )
                    app = FlutterApp(context.new_page(), server.base_url, size, NetworkLog())
                    app.open(path)
                    ready(app)
                    app.settle(800)
                    app.page.mouse.move(1, 1)
                    app.page.screenshot(path=str(OUT / f"{name}.png"))
                    print(f"docs/screenshots/{name}.png")
                    context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

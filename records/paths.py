"""Where the penalty log lives on each platform."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

APP_DIR_NAME = "ocg-penalty-guide"
DATABASE_NAME = "penalty-log.sqlite3"


def data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The directory of the log's database, first match wins:

    1. `$PENALTY_GUIDE_DATA_DIR` (tests, checks, a judge who wants it elsewhere);
    2. `$FLET_APP_STORAGE_DATA`, which a packaged Flet app (Android, iOS, desktop builds) sets
       to its durable, app-private data directory (flet 1.0.5, StoragePaths);
    3. the platform's user data directory: %APPDATA% on Windows, ~/Library/Application Support
       on macOS, $XDG_DATA_HOME or ~/.local/share elsewhere; each with `ocg-penalty-guide/`.
    """
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    for variable in ("PENALTY_GUIDE_DATA_DIR", "FLET_APP_STORAGE_DATA"):
        if env.get(variable):
            return Path(env[variable])
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    if platform.startswith("win"):
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    return base / APP_DIR_NAME


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    return data_dir(environ) / DATABASE_NAME


def unused_path(now: datetime, name_for: Callable[[str], Path]) -> Path:
    """`name_for(stamp)` for the moment `now` (20261130T130501), or with -2, -3 … after the
    stamp: the first that names no existing file, so that nothing is ever overwritten."""
    stamp = now.strftime("%Y%m%dT%H%M%S")
    candidate = name_for(stamp)
    counter = 1
    while candidate.exists():
        counter += 1
        candidate = name_for(f"{stamp}-{counter}")
    return candidate

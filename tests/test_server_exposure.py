"""What the web mode serves is the app's decision alone (issue 21, items 5 and 6):

- no inherited FLET_* variable widens it: with FLET_ASSETS_DIR=/ the log's database and
  /etc/passwd still answer 404, and no response grants other origins a read
  (Access-Control-Allow-Origin);
- no other site can frame it: every response, the page and its assets included, forbids
  framing (X-Frame-Options and CSP frame-ancestors)."""

from __future__ import annotations

import re
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import flet_web
import pytest
from e2e.harness import AppServer

from views import server

ROOT = Path(__file__).resolve().parent.parent


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as error:
        headers = {k.lower(): v for k, v in error.headers.items()}
        return error.code, headers, error.read()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, Path]]:
    """The app served with the environment a hostile or careless shell might leave behind,
    and a penalty log in its data folder."""
    data = tmp_path_factory.mktemp("data")
    log = data / "penalty-log.sqlite3"
    sqlite3.connect(log).close()
    uploads = tmp_path_factory.mktemp("uploads")
    environ = {
        "PENALTY_GUIDE_DATA_DIR": str(data),
        "FLET_ASSETS_DIR": "/",
        "FLET_UPLOAD_DIR": str(uploads),
        "FLET_WEB_NO_CDN": "false",
        "FLET_SESSION_TIMEOUT": "86400",
    }
    app = AppServer(ROOT, tmp_path_factory.mktemp("served") / "server.log", extra_env=environ)
    app.start()
    yield app, log
    app.stop()


@pytest.mark.process
def test_an_inherited_assets_folder_does_not_expose_the_disk(
    hostile: tuple[AppServer, Path],
) -> None:
    app, log = hostile
    for file in (log, ROOT / "main.py", Path("/etc/passwd")):
        status, headers, body = fetch(app.base_url + str(file))
        assert body != file.read_bytes(), file
        # A path without an extension is a deep link of the app: its page, not the file.
        assert status == 404 or (file.suffix == "" and b"flutter" in body), (file, status)
        assert "access-control-allow-origin" not in headers
    status, _, index = fetch(app.base_url + "/")
    assert status == 200
    assert b"flet.noCdn=true" in index  # FLET_WEB_NO_CDN=false did not bring the CDN back


@pytest.mark.process
def test_an_inherited_upload_folder_opens_no_upload_endpoint(
    hostile: tuple[AppServer, Path],
) -> None:
    app, _ = hostile
    request = urllib.request.Request(app.base_url + "/upload?f=x", data=b"x", method="PUT")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    assert status in (404, 405)


def test_every_setting_flet_web_reads_from_the_environment_is_dropped() -> None:
    """Checked against flet_web's own source, so that an upgrade that reads a new variable
    fails here instead of quietly widening what is served."""
    source = Path(flet_web.__file__).parent
    read = set()
    for file in source.rglob("*.py"):
        read |= set(re.findall(r"\"(FLET_[A-Z_]+)\"", file.read_text("utf-8")))
    assert read, "flet_web reads no variable: the pattern is stale"
    assert read <= set(server.FLET_WEB_SETTINGS), read - set(server.FLET_WEB_SETTINGS)


@pytest.mark.process
@pytest.mark.parametrize(
    "path",
    [
        "/",  # the page
        "/log",  # a deep link (the page again)
        "/manifest.json",
        "/flutter_bootstrap.js",
        "/rules_ja.json",  # the app's own assets
        "/no-such-file.js",  # a 404 of Flet's
        "/docs",  # a 404 of ours
    ],
)
def test_no_response_can_be_framed_or_read_by_another_site(
    hostile: tuple[AppServer, Path], path: str
) -> None:
    app, _ = hostile
    status, headers, _ = fetch(app.base_url + path)
    assert status in (200, 404), status
    assert headers.get("x-frame-options") == "DENY"
    assert "frame-ancestors 'none'" in headers.get("content-security-policy", "")
    assert "access-control-allow-origin" not in headers

"""The settings the offline promise rests on: pinned Flet, no INTERNET permission on Android,
local web client (no_cdn), bundled font and icons, one version everywhere."""

from __future__ import annotations

import importlib.metadata
import json
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from regulation import APP_VERSION
from views import server
from views.theme import FONT_FAMILY, FONT_FILES

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_flet_is_pinned_exactly() -> None:
    """The in-process tests and the web font manifest rely on this exact Flet."""
    pins = {r.name: r for r in map(Requirement, PYPROJECT["project"]["dependencies"])}
    for package in ("flet", "flet-web", "flet-desktop"):
        assert str(pins[package].specifier) == "==1.0.5", package
        assert importlib.metadata.version(package) == "1.0.5", package
    # The browser and desktop clients are for desktop runs only, never in a phone package.
    for package in ("flet-web", "flet-desktop"):
        marker = pins[package].marker
        assert marker.evaluate({"platform_system": "Linux"})
        assert not marker.evaluate({"platform_system": "Android"})


def test_android_build_has_no_internet_permission() -> None:
    permissions = PYPROJECT["tool"]["flet"]["android"]["permission"]
    assert permissions["android.permission.INTERNET"] is False


def test_build_identity_is_complete_and_consistent() -> None:
    flet = PYPROJECT["tool"]["flet"]
    for key in ("product", "org", "bundle_id", "company", "copyright", "version"):
        assert flet.get(key), key
    assert flet["version"] == PYPROJECT["project"]["version"] == APP_VERSION
    assert flet["bundle_id"].startswith(flet["org"] + ".")
    assert flet["app"]["module"] == "main"


@pytest.mark.parametrize("name", ["icon.png", "splash.png"])
def test_icon_and_splash_are_pngs_in_assets(name: str) -> None:
    assert (ROOT / "assets" / name).read_bytes()[:8] == PNG_MAGIC


def test_bundled_font_and_its_licence_ship_in_assets() -> None:
    font = ROOT / "assets" / FONT_FILES[FONT_FAMILY]
    assert font.read_bytes()[:4] in (b"\x00\x01\x00\x00", b"OTTO")
    assert (font.parent / "IPA_Font_License_Agreement_v1.0.txt").read_text(encoding="utf-8")


def test_web_mode_serves_on_loopback_only(monkeypatch) -> None:
    """Binds 127.0.0.1, never all interfaces (tests/test_server.py: the client is served from
    the package, no CDN)."""
    served = []
    monkeypatch.setattr(server, "serve", lambda app, listener: served.append((app, listener)))
    monkeypatch.setenv("FLET_DISPLAY_URL_PREFIX", "")  # no browser opened by the test
    assert server.run_app(web=True, port=0) == 0
    ((_, listener),) = served
    with listener:
        host, port = listener.getsockname()
    assert host == "127.0.0.1" and port != 0
    assert Path(server.ASSETS_DIR) == ROOT / "assets"


def test_busy_port_gets_a_clear_message() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "main.py", "--web", "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stdout == ""  # nothing said it was serving
    assert result.stderr == f"error: port {port} on 127.0.0.1 is busy; choose another with --port\n"


def test_web_font_manifest_is_flets_own_plus_the_bundled_font() -> None:
    """Flutter web loads the fonts of this manifest before the first frame, so no glyph is ever
    drawn before the bundled font is there. It replaces Flet's: keep it Flet's plus ours."""
    import flet_web

    flets = Path(flet_web.__file__).parent / "web" / "assets" / "FontManifest.json"
    ours = json.loads((ROOT / "assets" / "assets" / "FontManifest.json").read_text("utf-8"))
    assert ours[:-1] == json.loads(flets.read_text("utf-8")), "regenerate after a flet upgrade"
    font_url = "../" + FONT_FILES[FONT_FAMILY]  # manifest paths are relative to /assets/
    assert ours[-1] == {"family": FONT_FAMILY, "fonts": [{"asset": font_url}]}

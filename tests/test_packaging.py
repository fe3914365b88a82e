"""The settings the offline promise rests on: pinned Flet, Android's INTERNET only for venue sync,
local web client (no_cdn), bundled font and icons, one version everywhere."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import shutil
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from regulation import APP_VERSION
from views import server, state
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


# What pip installs for `flet build`: serious_python's package command runs
# `python -m pip install --target … <each [project] dependency>` under a sitecustomize.py that
# replaces platform.system() with "Android" or "iOS" before pip starts; sys.platform stays the
# build machine's. pip keeps a requirement when its marker holds in packaging's default
# environment (docs/packaging.md cites the sources).
_KEPT_BY_PIP = """
import json, platform, sys
if sys.argv[1]:
    platform.system = lambda: sys.argv[1]
from packaging.requirements import Requirement
kept = [Requirement(line) for line in json.loads(sys.argv[2])]
kept = [r.name for r in kept if not r.marker or r.marker.evaluate({"extra": ""})]
print(json.dumps(kept))
"""


def installed_by_pip(platform_system: str) -> set[str]:
    """The dependencies pip installs when platform.system() says `platform_system` (or is
    left alone, for ""). A fresh process: packaging computes its environment once."""
    dependencies = json.dumps(PYPROJECT["project"]["dependencies"])
    result = subprocess.run(
        [sys.executable, "-c", _KEPT_BY_PIP, platform_system, dependencies],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(json.loads(result.stdout))


@pytest.mark.process
@pytest.mark.parametrize("platform_system", ["Android", "iOS"])
def test_phone_packages_leave_out_the_browser_and_desktop_clients(platform_system: str) -> None:
    assert installed_by_pip(platform_system) == {"flet", "pyyaml", "babel"}


@pytest.mark.process
def test_checkouts_get_the_browser_and_desktop_clients() -> None:
    """`pip install -e .` on a laptop (no patched platform) serves `--web` and desktop runs."""
    assert installed_by_pip("") == {"flet", "flet-web", "flet-desktop", "pyyaml", "babel"}


# [tool.flet.cleanup] package_files: globs that serious_python deletes from the packaged
# site-packages, matched relative to it. Ours are literal paths.
DROPPED_PACKAGE_FILES: list[str] = PYPROJECT["tool"]["flet"]["cleanup"]["package_files"]


def test_dropped_package_files_name_babels_data() -> None:
    import babel

    site_packages = Path(babel.__file__).parent.parent
    assert DROPPED_PACKAGE_FILES
    for path in DROPPED_PACKAGE_FILES:
        assert path.startswith("babel/"), path
        assert (site_packages / path).exists(), f"{path}: not in the installed babel any more"


@pytest.mark.process
def test_language_negotiation_needs_none_of_the_dropped_babel_data(tmp_path: Path) -> None:
    """The app's only babel call gives the same answers with babel as a package ships it."""
    import babel

    site_packages = Path(babel.__file__).parent.parent

    def dropped(folder: str, names: list[str]) -> list[str]:
        inside = Path(folder).relative_to(site_packages)
        return [name for name in names if (inside / name).as_posix() in DROPPED_PACKAGE_FILES]

    shutil.copytree(site_packages / "babel", tmp_path / "babel", ignore=dropped)
    device_locales = [["ja-JP"], ["en-US", "ja-JP"], ["en-GB"], ["fr-FR", "en-AU"], ["de-DE"], []]
    script = (
        "import json, sys, babel\n"
        "from views.state import negotiate_language as pick\n"
        "print(json.dumps([babel.__file__, [pick(x) for x in json.loads(sys.argv[1])]]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, json.dumps(device_locales)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    babel_file, languages = json.loads(result.stdout)
    assert Path(babel_file).parent == tmp_path / "babel"  # the copy without the data
    assert all(not (tmp_path / path).exists() for path in DROPPED_PACKAGE_FILES)
    assert languages == [state.negotiate_language(locales) for locales in device_locales]
    assert set(languages) == {"ja", "en"}


def _shipped_python_files() -> list[Path]:
    """The app's .py files a build packages: all but [tool.flet.app] exclude, hidden and build."""
    excluded = [ROOT / path for path in PYPROJECT["tool"]["flet"]["app"]["exclude"]]
    return [
        path
        for path in ROOT.rglob("*.py")
        if not any(part.startswith(".") or part == "build" for part in path.relative_to(ROOT).parts)
        and not any(path.is_relative_to(folder) for folder in excluded)
    ]


def test_the_app_calls_no_babel_api_that_reads_the_dropped_data() -> None:
    """Locale, dates, numbers and the like read babel's CLDR data, which a build deletes: using
    one means removing the [tool.flet.cleanup] setting first."""
    imported: set[str] = set()
    files = _shipped_python_files()
    assert ROOT / "views" / "state.py" in files
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names if alias.name.startswith("babel")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("babel"):
                imported |= {f"{node.module}.{alias.name}" for alias in node.names}
    assert imported == {"babel.negotiate_locale"}


def test_development_folders_stay_out_of_the_app() -> None:
    excluded = set(PYPROJECT["tool"]["flet"]["app"]["exclude"])
    for folder in ("tests", "bench", "scripts", ".ci", "docs"):
        assert (ROOT / folder).is_dir() and folder in excluded, folder


def test_android_build_asks_for_internet_only_for_venue_sync() -> None:
    """Sockets need INTERNET on Android, even toward a device on the same hotspot (venue sync,
    docs/sync.md); no other network permission is asked for."""
    permissions = PYPROJECT["tool"]["flet"]["android"]["permission"]
    assert permissions == {"android.permission.INTERNET": True}
    assert "android.permission.INTERNET" in (ROOT / "docs" / "sync.md").read_text(encoding="utf-8")


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


@pytest.mark.process
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

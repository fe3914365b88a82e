"""The warm profiles (profiles.py) carry caches only: nothing a page stored reaches a later one.
In-process: folders laid out as Chromium lays out a profile, no browser needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from .profiles import WarmProfiles

SERVER = "http://127.0.0.1:8550 4242"


def used_profile(root: Path) -> Path:
    """A profile as a closed context leaves it: caches, and what its pages stored."""
    for relative, content in {
        "Default/Cache/Cache_Data/data_1": "main.dart.wasm",
        "Default/Code Cache/wasm/index": "compiled",
        "GrShaderCache/data_0": "shaders",
        "Default/Local Storage/leveldb/000003.log": "flutter.language=en",
        "Default/Session Storage/000003.log": "session",
        "Default/Cookies": "penalty_guide_look=en",
        "Default/IndexedDB/http_127.0.0.1_8550.indexeddb.leveldb/LOG": "db",
        "Default/Sessions/Tabs_1": "http://127.0.0.1:8550/log",
        "Default/Preferences": "{}",
        "Default/History": "visits",
    }.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_a_copy_holds_the_caches_and_nothing_stored(tmp_path: Path) -> None:
    profiles = WarmProfiles(tmp_path / "profiles")
    first = profiles.copy(SERVER)
    assert files(first) == set()  # no template yet: a cold start
    used_profile(first)
    profiles.keep(SERVER, first)
    assert not first.exists()
    warm = profiles.copy(SERVER)
    assert files(warm) == {
        "Default/Cache/Cache_Data/data_1",
        "Default/Code Cache/wasm/index",
        "GrShaderCache/data_0",
    }


def test_another_server_gets_no_template(tmp_path: Path) -> None:
    profiles = WarmProfiles(tmp_path / "profiles")
    profiles.keep(SERVER, used_profile(profiles.copy(SERVER)))
    # The same port, another server process (a server restarted, or one without the font).
    assert files(profiles.copy("http://127.0.0.1:8550 4243")) == set()


def test_stored_data_inside_a_cache_folder_is_refused(tmp_path: Path) -> None:
    profiles = WarmProfiles(tmp_path / "profiles")
    used = used_profile(profiles.copy(SERVER))
    (used / "Default/Cache/Local Storage").mkdir()
    profiles.keep(SERVER, used)
    with pytest.raises(AssertionError, match="stored data"):
        profiles.copy(SERVER)

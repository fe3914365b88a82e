"""Warm browser profiles: each page of a browser test starts in a Chromium of its own whose disk
caches were filled by an earlier start against the same app server, and that holds nothing else.

A fresh (incognito) context fetches the Flutter client again and compiles its 8.5 MB
`main.dart.wasm`, and SwiftShader compiles its shaders again: about 4.5 s of CPU per start here,
the largest single part of the browser tests. A Chromium started on a profile whose caches are
warm spends about 1.8 s by bench/bench_e2e_boot.py (way `warm`), whose count of the process tree may
miss a Chromium that has exited: counted for the whole machine (/proc/stat), a warm start cost
more than a fresh context (docs/testing.md, 2026-12-02).

Isolation is kept whole: every page gets a new browser process on a new copy of the template,
and the copy holds only cache folders (CACHES, a list of what to keep, not of what to drop), so
no stored setting, cookie, history, session or tab of an earlier test can come along; `copy`
checks that. A template belongs to one server process (its URL and process id), so one server's
files never stand in for another's (e.g. the app served without its bundled font on a port an
earlier server had).

On by default (PENALTY_GUIDE_E2E_WARM=0 turns it off). On a quiet machine the Chromium launched for
every page cost more CPU than the compiling it saved (docs/testing.md has the figures).
Nothing here knows pytest; conftest.py's `open_app` uses it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# Chromium's disk caches, relative to the profile: HTTP and compiled code, and the GPU
# process's shader caches (SwiftShader here). Nothing of a page's storage is among them.
CACHES = (
    "Default/Cache",
    "Default/Code Cache",
    "Default/GPUCache",
    "Default/DawnGraphiteCache",
    "Default/DawnWebGPUCache",
    "GPUPersistentCache",
    "GrShaderCache",
    "ShaderCache",
    "GraphiteDawnCache",
)
# What a page stores, by the names Chromium gives it: never in a copy.
STORAGE = (
    "Local Storage",
    "Session Storage",
    "IndexedDB",
    "Cookies",
    "Sessions",
    "databases",
    "File System",
    "Service Worker",
    "WebStorage",
    "blob_storage",
)


class WarmProfiles:
    """Profiles for browser contexts, in `root`: a template per app server (the caches of the
    first context that ran against it), a new copy of it for every context after."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.templates: dict[str, Path] = {}  # by server (URL and process id)
        self.made = 0

    def copy(self, server: str) -> Path:
        """A new profile folder for a context of `server` (its URL and process id): its
        template's caches, or nothing yet."""
        self.made += 1
        target = self.root / f"profile-{self.made}"
        target.mkdir(parents=True)
        template = self.templates.get(server)
        if template is not None:
            for relative in CACHES:
                if (template / relative).is_dir():
                    shutil.copytree(template / relative, target / relative)
        stored = [path for path in target.rglob("*") if path.name in STORAGE]
        assert not stored, f"a copied profile holds stored data: {stored}"
        return target

    def keep(self, server: str, used: Path) -> None:
        """After a context of `server` closed: its caches become the server's template if it
        has none; the rest of the folder is removed."""
        if server not in self.templates:
            template = self.root / f"template-{len(self.templates) + 1}"
            template.mkdir(parents=True)
            for relative in CACHES:
                if (used / relative).is_dir():
                    shutil.copytree(used / relative, template / relative)
            self.templates[server] = template
        shutil.rmtree(used, ignore_errors=True)

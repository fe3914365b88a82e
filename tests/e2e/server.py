"""The app server of the browser tests (`main.py --web` on a free port of 127.0.0.1) and a
scratch copy of the repository for a server of a changed app. Nothing here knows pytest."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_environment() -> dict[str, str]:
    """The server's environment: no display (flet then serves the web client without trying
    to open a browser), and no FLET_* setting of the caller that would move the port or the
    assets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLET_")}
    for key in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(key, None)
    # With a display prefix set flet prints the URL instead of opening a browser (WSL has
    # no DISPLAY check), and the line doubles as a start-up message in the log.
    env["FLET_DISPLAY_URL_PREFIX"] = "App URL:"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class AppServer:
    """`python main.py --web --port N` in `root` (or another `script` taking the same
    arguments), its output in a log file; `extra_env` adds to or overrides its environment (a
    data folder of its own: PENALTY_GUIDE_DATA_DIR)."""

    def __init__(
        self,
        root: Path,
        log_path: Path,
        port: int | None = None,
        extra_env: dict[str, str] | None = None,
        *,
        script: str = "main.py",
    ) -> None:
        self.root = root
        self.port = port or free_port()
        self.log_path = log_path
        self.extra_env = extra_env or {}  # on top of server_environment() (a data folder, …)
        self.script = script
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def start(self, timeout: float = SERVER_TIMEOUT_S) -> AppServer:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, self.script, "--web", "--port", str(self.port)],
                cwd=self.root,
                env={**server_environment(), **self.extra_env},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends all of it
            )
        self._wait_until_serving(timeout)
        return self

    def _wait_until_serving(self, timeout: float) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the app server exited with {self.process.returncode} before serving:\n"
                    + self.log()
                )
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=2) as response:
                    if response.status == 200 and b"flutter" in response.read().lower():
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(
            f"the app server did not serve {self.base_url} in {timeout:.0f} s:\n{self.log()}"
        )

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.pyc",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "build",
    "screenshots",
    "*.egg-info",
    "bench",
)


def copy_repo(destination: Path, without: Iterable[str] = ()) -> Path:
    """A scratch copy of the repository (sources and assets only), minus `without` (paths
    relative to the root)."""
    shutil.copytree(REPO_ROOT, destination, ignore=COPY_IGNORE)
    for relative in without:
        target = destination / relative
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    return destination

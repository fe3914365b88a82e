"""The web mode (views/server.py) serves one person on this machine, restarts at once, and
refuses bad data and bad ports before it serves anything.

Most tests run the real `main.py --web` (tests/e2e/harness.py's AppServer); the session expiry is
read inside a server run in this process."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import msgpack
import pytest
from e2e.harness import AppServer, free_port, server_environment
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

import main as entry
from views import server

ROOT = Path(__file__).resolve().parent.parent


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def time_wait_ports() -> set[int]:
    """Local ports of this machine's IPv4 TCP sockets in TIME_WAIT (Linux's /proc)."""
    ports = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "06":  # TIME_WAIT
            ports.add(int(fields[1].split(":")[1], 16))
    return ports


def request_closed_by_the_server(port: int) -> None:
    """A real request whose connection the server closes first, so that the server's side of
    it waits in TIME_WAIT afterwards (as after a browser's visit)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        response = b""
        while chunk := client.recv(65536):  # until the server's FIN
            response += chunk
    assert response.startswith(b"HTTP/1.1 200"), response[:100]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(ROOT, tmp_path_factory.mktemp("served") / "server.log").start()
    yield app
    app.stop()


# -- restart ------------------------------------------------------------------------------------


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
def test_a_killed_server_restarts_at_once_on_the_same_port(tmp_path: Path) -> None:
    port = free_port()
    first = AppServer(ROOT, tmp_path / "first.log", port=port).start()
    try:
        request_closed_by_the_server(port)
        deadline = time.monotonic() + 5
        while port not in time_wait_ports() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert port in time_wait_ports(), "no TIME_WAIT socket: the test would prove nothing"
    finally:
        assert first.process is not None
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=10)
    assert port in time_wait_ports()
    second = AppServer(ROOT, tmp_path / "second.log", port=port)
    try:
        second.start(timeout=20)  # fails if the server exits ("port … is busy")
        assert get(second.base_url + "/tiers") == 200
    finally:
        second.stop()


def test_a_port_that_cannot_be_used_says_why(monkeypatch, capsys) -> None:
    def refused(port: int) -> socket.socket:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(server, "listen", refused)
    assert entry.main(["--web", "--port", "80"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: port 80 on 127.0.0.1 cannot be used: Permission denied\n"


# -- ports --------------------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "http", "8550.5"])
def test_a_port_outside_1_to_65535_is_one_line(port: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        entry.main(["--web", "--port", port])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "--port" in err and "0-65535" in err, err


@pytest.mark.process
def test_port_0_serves_on_a_free_port_and_says_which(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "main.py", "--web", "--port", "0"],
        cwd=ROOT,
        env=server_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Serving 罰則ガイド on http://127.0.0.1:"), line
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        assert port != 0
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                assert get(f"http://127.0.0.1:{port}/") == 200
                break
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.2)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=10)


# -- bad data: one line, nothing served -----------------------------------------------------------


def damaged_copy(tmp_path: Path) -> Path:
    app = tmp_path / "app"
    for name in ("regulation", "views", "locales", "assets"):
        shutil.copytree(ROOT / name, app / name, ignore=shutil.ignore_patterns("fonts"))
    shutil.copy(ROOT / "main.py", app)
    rules = app / "assets" / "rules_ja.yaml"
    rules.write_text(rules.read_text("utf-8").replace("penalty: warning", "penalty: x", 1), "utf-8")
    return app


@pytest.mark.process
@pytest.mark.parametrize("mode", [["--web", "--port", "0"], []], ids=["web", "desktop"])
def test_bad_data_is_one_line_before_anything_is_served(tmp_path: Path, mode: list[str]) -> None:
    result = subprocess.run(  # a run that got past the check would serve: a timeout here
        [sys.executable, "main.py", *mode],
        cwd=damaged_copy(tmp_path),
        env=server_environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout == ""  # no "Serving …"
    assert result.stderr.count("\n") == 1, result.stderr
    assert "rules_ja.yaml: changed since rules_ja.json was compiled" in result.stderr


# -- one person on this machine -------------------------------------------------------------------


def open_session(served: AppServer, origin: str | None) -> str:
    url = served.base_url.replace("http", "ws") + "/ws"
    try:
        with connect(url, origin=Origin(origin) if origin else None, open_timeout=10):
            return "accepted"
    except InvalidStatus as refused:
        return f"refused {refused.response.status_code}"


@pytest.mark.process
def test_sessions_open_from_the_apps_own_page(served: AppServer) -> None:
    for host in ("127.0.0.1", "localhost"):
        assert open_session(served, f"http://{host}:{served.port}") == "accepted"


@pytest.mark.process
@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://evil.example:{port}",  # DNS rebinding: another name for 127.0.0.1
        "http://127.0.0.1:{other}",  # another local server's page
        "https://127.0.0.1:{port}",
        "null",  # a sandboxed frame or a file:// page
        None,  # no Origin: not a browser page
    ],
)
def test_sessions_from_any_other_origin_are_refused(served: AppServer, origin: str | None) -> None:
    if origin is not None:
        origin = origin.format(port=served.port, other=served.port + 1)
    assert open_session(served, origin) == "refused 403"


@pytest.mark.process
@pytest.mark.parametrize(
    "path",
    ["/docs", "/docs/", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"],
)
def test_api_pages_are_not_served(served: AppServer, path: str) -> None:
    assert get(served.base_url + path) == 404


@pytest.mark.process
def test_the_app_and_its_deep_links_are_served_without_a_cdn(served: AppServer) -> None:
    for path in ("/", "/tiers", "/infractions/drew-extra-cards", "/manifest.json"):
        assert get(served.base_url + path) == 200, path
    with urllib.request.urlopen(served.base_url + "/", timeout=10) as response:
        index = response.read().decode()
    assert "flet.noCdn=true" in index and 'canvasKitBaseUrl="/canvaskit/"' in index


@pytest.mark.process
def test_the_page_sends_the_stored_look_and_gets_its_first_view_at_once(
    served: AppServer,
) -> None:
    """The served page holds the script that copies the stored look into a cookie (whole: a
    cached copy would not be revalidated), and a session whose WebSocket carries that cookie
    gets its first view, in that look, in the register answer (issue 22, item 5)."""
    from views import stored_look

    with urllib.request.urlopen(served.base_url + "/", timeout=10) as response:
        index = response.read()
        assert int(response.headers["Content-Length"]) == len(index)
        assert response.headers["ETag"] is None and response.headers["Last-Modified"] is None
    assert index.count(stored_look.SCRIPT.encode()) == 1
    look = json.dumps({"s": {"language": '"en"'}, "l": ["ja-JP"]})
    url = served.base_url.replace("http", "ws") + "/ws"
    headers = {"Cookie": f"{stored_look.COOKIE}={quote(look)}"}
    origin = Origin(served.base_url)
    with connect(url, origin=origin, additional_headers=headers, open_timeout=10) as ws:
        ws.send(register_frame())
        frame = ws.recv(timeout=10)
    answer = msgpack.unpackb(frame[1:], strict_map_key=False)  # [0x00][msgpack]
    assert answer[0] == 1  # MessageAction.REGISTER_CLIENT
    assert "A Caution" in str(answer[1]["page_patch"])


def register_frame() -> bytes:
    page = {"route": "/", "web": True, "width": 390.0, "height": 844.0, "platform": "linux"}
    body = {"session_id": None, "page_name": "", "page": page}
    return b"\x00" + msgpack.packb([1, body])  # 1: MessageAction.REGISTER_CLIENT


def test_a_disconnected_session_is_kept_minutes_not_an_hour(monkeypatch) -> None:
    """The expiry Flet gives a real session when its browser tab goes away, even with Flet's
    own FLET_SESSION_TIMEOUT set to an hour in the environment."""
    import uvicorn
    from flet.messaging.protocol import MessageAction
    from flet_web.fastapi import app_manager

    assert MessageAction.REGISTER_CLIENT.value == 1
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", "3600")
    expiries: list[tuple[datetime, datetime | None]] = []
    disconnect = app_manager.disconnect_session

    async def recording_disconnect(session_id: str, timeout_seconds: int) -> None:
        await disconnect(session_id, timeout_seconds)
        session = await app_manager.get_session(session_id)
        expiries.append((datetime.now(UTC), session.expires_at if session else None))

    monkeypatch.setattr(app_manager, "disconnect_session", recording_disconnect)
    listener = server.listen(0)
    port = listener.getsockname()[1]
    uvicorn_server = uvicorn.Server(
        uvicorn.Config(server.web_app(port), log_level="warning", ws="websockets-sansio")
    )
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [listener]})
    thread.start()
    try:
        own_page = Origin(f"http://127.0.0.1:{port}")
        with connect(f"ws://127.0.0.1:{port}/ws", origin=own_page) as ws:
            ws.send(register_frame())
            reply = msgpack.unpackb(ws.recv(timeout=30)[1:], strict_map_key=False)
            assert reply[0] == 1 and reply[1]["session_id"], reply
        deadline = time.monotonic() + 10
        while not expiries and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=30)
    ((disconnected_at, expires_at),) = expiries
    assert expires_at is not None
    kept = (expires_at - disconnected_at).total_seconds()
    assert abs(kept - server.SESSION_TIMEOUT_S) < 5
    assert 60 <= server.SESSION_TIMEOUT_S <= 15 * 60  # minutes: a reconnect, not an hour


# -- no window: the browser client on this machine, nothing downloaded --------------------------


def listening_addresses(pid: int) -> set[str]:
    """The local addresses of the TCP sockets process `pid` listens on (Linux's /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = set()
    for table, width in (("tcp", 8), ("tcp6", 32)):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                address = bytes.fromhex(fields[1].split(":")[0][:width])
                if width == 8:
                    found.add(socket.inet_ntop(socket.AF_INET, address[::-1]))
                else:  # four little-endian words
                    words = [address[i : i + 4][::-1] for i in range(0, 16, 4)]
                    found.add(socket.inet_ntop(socket.AF_INET6, b"".join(words)))
    return found


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("display", "reason"),
    [(None, "no display"), (":99", "Flet's desktop client is not installed")],
    ids=["no-display", "no-desktop-client"],
)
def test_without_a_window_the_app_is_served_on_this_machine_only(
    tmp_path: Path, display: str | None, reason: str
) -> None:
    """`main.py` where no window can open: one line saying so and where the app is, within
    seconds; the browser client on 127.0.0.1 only (Flet alone would listen on every interface,
    or download its desktop client); nothing downloaded."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**server_environment(), "HOME": str(home)}
    if display:
        env["DISPLAY"] = display
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--port", "0"],
        cwd=tmp_path,  # no `flet build` output here
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 10)
        assert ready, "no word within seconds"
        line = process.stdout.readline()
        assert line.startswith(f"No window can be opened here ({reason}"), line
        assert "http://127.0.0.1:" in line and line.count("\n") == 1
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                assert get(f"http://127.0.0.1:{port}/") == 200
                break
            assert time.monotonic() < deadline and process.poll() is None, process.stderr
            time.sleep(0.2)
        assert listening_addresses(process.pid) == {"127.0.0.1"}
        assert not (home / ".flet").exists()  # no desktop client fetched
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=10)


@pytest.mark.process
def test_a_window_opens_where_there_is_a_display_and_a_client(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("FLET_VIEW_PATH", raising=False)
    monkeypatch.delenv("FLET_PLATFORM", raising=False)
    monkeypatch.chdir(tmp_path)
    assert (
        server.no_window_reason()
        == "Flet's desktop client is not installed, and the app downloads nothing"
    )
    import flet_desktop.version

    (tmp_path / ".flet" / "client" / f"flet-desktop-light-{flet_desktop.version.version}").mkdir(
        parents=True
    )
    assert server.no_window_reason() is None
    monkeypatch.delenv("DISPLAY")
    assert server.no_window_reason() == "no display"
    monkeypatch.setenv("FLET_PLATFORM", "android")  # a packaged app: Flet's host runs it
    assert server.no_window_reason() is None


@pytest.mark.process
def test_the_server_stops_within_seconds_whatever_its_sessions(tmp_path: Path) -> None:
    """Ctrl+C (SIGTERM here) ends the server at once even after a WebSocket that closed before
    it registered: Flet's handler of such a socket never returns, and the server used to wait
    for it for ever."""
    app = AppServer(ROOT, tmp_path / "server.log").start()
    try:
        assert open_session(app, f"http://127.0.0.1:{app.port}") == "accepted"
        assert app.process is not None
        started = time.monotonic()
        os.killpg(app.process.pid, signal.SIGTERM)
        app.process.wait(timeout=server.SHUTDOWN_TIMEOUT_S + 5)
        assert time.monotonic() - started < server.SHUTDOWN_TIMEOUT_S + 5
    finally:
        app.stop()

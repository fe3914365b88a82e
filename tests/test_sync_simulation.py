"""Five devices, one host, on one machine (issue 17, "Done when"): random adds, edits, deletes
and restores everywhere; the host killed with SIGKILL and restarted; joiners killed mid-sync;
one device's clock 15 minutes behind; links cut and healed. After healing, every device's
`log list --json` is identical and every save any device confirmed is in the history.

Each device is a process of its own (tests/sync_worker.py) on its own data folder; each joiner
reaches the host through a loopback proxy the test cuts and heals (tests/sync_support.py).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from records_support import ROOT
from sync_support import Proxy

WORKER = ROOT / "tests" / "sync_worker.py"
STEPS = 90
SEED = int(os.environ.get("SYNC_SIMULATION_SEED", "17"))
SLOW_CLOCK = "-900"  # 15 minutes behind (records/sync/hlc.py, test-only)
EXPECTED = ("no record with id", "restore it first")


def env_for(folder: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PENALTY_GUIDE_DATA_DIR=str(folder), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PENALTY_GUIDE_TEST_CLOCK_OFFSET_S", None)
    env.update(extra)
    return env


class Device:
    """A device process running commands (sync_worker.py); killable, restartable."""

    def __init__(self, name: str, folder: Path, **env: str) -> None:
        self.name, self.folder, self.env = name, folder, env
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            env=env_for(self.folder, **self.env),
        )
        assert json.loads(self.process.stdout.readline()) == {"ready": True}  # type: ignore[union-attr]

    def send(self, *argv: str) -> None:
        assert self.process and self.process.stdin
        self.process.stdin.write(json.dumps(list(argv)) + "\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.process and self.process.stdout
        return json.loads(self.process.stdout.readline())

    def run(self, *argv: str) -> dict[str, Any]:
        self.send(*argv)
        return self.answer()

    def kill(self) -> None:
        if self.process:
            self.process.kill()
            self.process.wait()

    def restart_killed_mid(self, *argv: str, after_s: float) -> None:
        self.send(*argv)
        time.sleep(after_s)
        self.kill()
        self.start()


class Host:
    """`main.py sync host` as a process of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process: subprocess.Popen[str] | None = None

    def start(self, *extra: str) -> dict[str, Any]:
        self.process = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "main.py"),
                "sync",
                "host",
                "--bind",
                "127.0.0.1",
                "--json",
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env_for(self.folder),
        )
        line = self.process.stdout.readline()  # type: ignore[union-attr]
        assert line, self.process.stderr.read()  # type: ignore[union-attr]
        return json.loads(line)

    def kill(self) -> None:
        if self.process:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=10) == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cleanup() -> Iterator[list[Any]]:
    things: list[Any] = []
    yield things
    for thing in things:
        (thing.close if isinstance(thing, Proxy) else thing.kill)()


@pytest.mark.process
def test_five_devices_converge_through_kills_cuts_and_a_slow_clock(
    tmp_path: Path, cleanup: list[Any]
) -> None:
    rng = random.Random(SEED)
    started = time.monotonic()
    port = free_port()
    host = Host(tmp_path / "host")
    cleanup.append(host)
    announced = host.start("--port", str(port), "--event", "県大会", "--judge", "本部")
    assert announced["port"] == port and announced["addresses"] == [f"http://127.0.0.1:{port}"]
    code, event = announced["code"], announced["event"]

    head = Device("head", tmp_path / "host")  # the head judge's own saves, on the host's log
    devices = [head]
    proxies: dict[str, Proxy] = {}
    for number in range(1, 5):
        name = f"judge{number}"
        extra = {"PENALTY_GUIDE_TEST_CLOCK_OFFSET_S": SLOW_CLOCK} if number == 4 else {}
        device = Device(name, tmp_path / name, **extra)
        proxy = proxies[name] = Proxy(port)
        cleanup += [device, proxy]
        joined = device.run("sync", "join", proxy.url, "--code", code, "--judge", name, "--json")
        assert joined["rc"] == 0 and json.loads(joined["out"])["ok"], joined
        devices.append(device)
    cleanup.append(head)
    joiners = devices[1:]

    confirmed: list[tuple[str, dict[str, Any]]] = []  # (device, the record as saved)
    kinds: dict[str, int] = {}
    known: list[str] = []  # every record id some device confirmed
    host_down = False
    for step in range(STEPS):
        if step == 20:
            host.kill()  # SIGKILL: no goodbye
            host_down = True
        if step == 28:
            again = host.start()  # the same folder: the same event, code and port
            assert (again["code"], again["event"], again["port"]) == (code, event, port)
            host_down = False
        if step in (15, 45):
            for name in rng.sample(sorted(proxies), 2):
                proxies[name].cut()
        if step in (35, 60):
            for proxy in proxies.values():
                proxy.heal()
        if step in (25, 40, 55) and not host_down:
            victim = rng.choice(joiners)
            victim.restart_killed_mid("sync", "now", "--json", after_s=rng.uniform(0.0, 0.15))
        device = rng.choice(devices)
        action = rng.choice(["add", "add", "add", "edit", "edit", "delete", "restore", "sync"])
        syncs = action == "sync" or rng.random() < 0.3
        if syncs and device is not head:
            device.run("sync", "now", "--json")  # may fail: host down, link cut
        if action == "add":
            answer = device.run(
                "log", "add", "--player", rng.choice(["山田太郎", "鈴木", "ＹＡＭＡＤＡ"]),
                "--infraction", rng.choice(["drew-extra-cards", "looked-at-extra-cards"]),
                "--round", str(rng.randint(1, 5)), "--table", str(rng.randint(1, 40)),
                "--note", f"{device.name} step {step}", "--json",
            )  # fmt: skip
        elif action in ("edit", "delete", "restore") and known:
            target = rng.choice(known)
            if action == "edit":
                answer = device.run(
                    "log", "edit", target, "--note", f"{device.name} edit {step}",
                    "--tier", rng.choice(["warning", "duel-forfeiture"]), "--json",
                )  # fmt: skip
            else:
                answer = device.run("log", action, target, "--json")
        else:
            continue
        if answer["rc"] != 0:  # only what a judge could meet: not on this device yet, deleted
            assert any(why in answer["err"] for why in EXPECTED), answer
        else:
            kinds[action] = kinds.get(action, 0) + 1
            if action == "add":
                assert json.loads(answer["out"])["record"]["recorded_by"]["judge"] in (
                    device.name,
                    "本部",
                )
            record = json.loads(answer["out"])["record"]
            confirmed.append((device.name, record))
            if record["id"] not in known:
                known.append(record["id"])

    for proxy in proxies.values():
        proxy.heal()
    for _ in range(2):  # everyone sends, then everyone receives what the others sent
        for device in joiners:
            result = device.run("sync", "now", "--json")
            assert result["rc"] == 0 and json.loads(result["out"])["ok"], result

    listings = [device.run("log", "list", "--json") for device in devices]
    assert all(listing["rc"] == 0 for listing in listings)
    records = json.loads(listings[0]["out"])["records"]
    assert all(listing["out"] == listings[0]["out"] for listing in listings), [
        (d.name, len(json.loads(x["out"])["records"]))
        for d, x in zip(devices, listings, strict=True)
    ]
    assert len(confirmed) >= 25 and records, kinds  # the run did something of each kind
    assert all(kinds.get(action, 0) >= 2 for action in ("add", "edit", "delete", "restore")), kinds

    exports = {device.name: device.run("log", "export", "--format", "json") for device in devices}
    for name, export in exports.items():
        payload = json.loads(export["out"])
        recorders = {r["id"]: r["recorded_by"]["judge"] for r in payload["records"]}
        versions = {
            r["id"]: [(v["body"], datetime.fromisoformat(v["saved_at"])) for v in r["versions"]]
            for r in payload["records"]
        }
        for saver, saved in confirmed:
            kept = versions.get(saved["id"])
            assert kept is not None, (name, saver, saved)
            assert recorders[saved["id"]] == saved["recorded_by"]["judge"]
            when = datetime.fromisoformat(saved["updated_at"])
            assert any(
                at == when and body["note"] == saved["note"] and body["tier"] == saved["tier"]
                for body, at in kept
            ), (name, saver, saved)
    host.stop()
    assert time.monotonic() - started < 120

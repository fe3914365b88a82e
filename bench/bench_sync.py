"""Venue-sync benchmark (issue 17), on localhost only (127.0.0.1):

    python bench/bench_sync.py [--devices 10] [--records 1000] [--runs 3] [--joiners 30]
                               [--seconds 30] [--only join|save|memory|host]

1. join: a new device joins an event that holds `--devices` × `--records` records (each made
   on its own device, so 10,000 versions from 10 device ids); the time from `join()` until the
   whole event is in its log (target ≤ 2 s), wall and CPU (host and device together: both run
   in this process), `--runs` times, each on a new event, with the load average;
2. save → host: a joined device with its background loop on saves a record; the time until the
   host has it (its save listener fires), p50 and p95 over 40 saves (target p50 ≤ 100 ms);
3. host CPU: `main.py sync host` in a process of its own, `--joiners` devices (in this process)
   each syncing every 2 s for `--seconds`; the host's CPU time over the wall time, from
   /proc/<pid>/stat (target ≤ 5 % of one core);
4. memory: the host's peak Python allocation (tracemalloc) while a device pulls a whole event
   page by page, for an event 10 times larger; bounded by a page, not by the event.

The machine's load changes the figures; run it when the machine is quiet if you can.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from records.merge import apply  # noqa: E402
from records.model import Player, RecordInput  # noqa: E402
from records.store import LogStore  # noqa: E402
from records.sync.hlc import stamp_of  # noqa: E402
from records.sync.items import RECORD, ItemVersion, canonical  # noqa: E402
from records.sync.service import SyncService  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402

JST = timezone(timedelta(hours=9))
START = datetime(2026, 11, 28, 10, 0, tzinfo=JST)


def fill(store: LogStore, event_id: str, devices: int, per_device: int) -> None:
    """`devices` × `per_device` records in `event_id`, each made on its own device."""
    batch: list[ItemVersion] = []
    for device_number in range(devices):
        device = f"{device_number:032x}"
        for index in range(per_device):
            at = START + timedelta(seconds=index * devices + device_number)
            body = canonical(
                {
                    "created_at": at.isoformat(timespec="microseconds"),
                    "recorded_by": {"judge": f"ジャッジ{device_number}", "device": device},
                    "round": index % 8 + 1,
                    "table": str(index % 150 + 1),
                    "player": {"name": f"プレイヤー {index % 300:03d}", "id": None},
                    "infraction": "drew-extra-cards",
                    "tier": "warning",
                    "note": f"メモ {index}",
                    "deleted": False,
                }
            )
            batch.append(
                ItemVersion(
                    RECORD,
                    str(uuid.uuid4()),
                    event_id,
                    stamp_of(at),
                    device,
                    f"ジャッジ{device_number}",
                    at,
                    body,
                )
            )
    with store._database.write() as db:
        apply(db, store._events, store._history, batch)


def bench_joins(
    regulation: Regulation, folder: Path, devices: int, per_device: int, runs: int
) -> None:
    walls, cpus = [], []
    for run in range(runs):
        took, cpu = bench_join(regulation, folder / f"join{run}", devices, per_device)
        walls.append(took)
        cpus.append(cpu)
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"join over {runs} runs: wall {min(walls):.2f}–{max(walls):.2f} s (median "
        f"{statistics.median(walls):.2f}), CPU {min(cpus):.2f}–{max(cpus):.2f} s (median "
        f"{statistics.median(cpus):.2f}); load average {load} (1 / 5 / 15 min)"
    )


def bench_join(
    regulation: Regulation, folder: Path, devices: int, per_device: int
) -> tuple[float, float]:
    host = LogStore.open(regulation, folder / "host" / "log.sqlite3")
    event = host.create_event("県大会")
    fill(host, event.id, devices, per_device)
    host_sync = SyncService.for_store(host)
    status = host_sync.host(event.id, bind="127.0.0.1", port=0)
    joiner = LogStore.open(regulation, folder / "joiner" / "log.sqlite3")
    joiner_sync = SyncService.for_store(joiner)
    started, cpu = time.perf_counter(), time.process_time()
    result = joiner_sync.join(status.addresses[0], status.code or "")
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert result.ok, result
    got = len(joiner.records(event.id))
    assert got == devices * per_device, got
    print(
        f"join: {devices} devices × {per_device} records = {got} records in {took:.2f} s "
        f"(target ≤ 2 s), CPU {cpu:.2f} s (host and device together, this process); "
        f"pulled {result.pulled} versions"
    )
    for closing in (joiner_sync, host_sync):
        closing.close()
    joiner.close()
    host.close()
    return took, cpu


def bench_save_to_host(regulation: Regulation, folder: Path, samples: int) -> list[float]:
    host = LogStore.open(regulation, folder / "host2" / "log.sqlite3")
    event = host.create_event("県大会")
    host_sync = SyncService.for_store(host)
    status = host_sync.host(event.id, bind="127.0.0.1", port=0)
    joiner = LogStore.open(regulation, folder / "joiner2" / "log.sqlite3")
    joiner_sync = SyncService.for_store(joiner)
    assert joiner_sync.join(status.addresses[0], status.code or "").ok
    joiner_sync.start_background(2.0)
    arrived = threading.Event()
    host.add_save_listener(arrived.set)
    delays = []
    for index in range(samples):
        time.sleep(0.05)
        arrived.clear()
        started = time.perf_counter()
        record = joiner.add_record(
            event.id, RecordInput(Player(f"山田 {index}"), "looked-at-extra-cards")
        )
        assert arrived.wait(10), "the record never reached the host"
        delays.append((time.perf_counter() - started) * 1000)
        assert host.record(record.id) is not None
    delays.sort()
    p50, p95 = statistics.median(delays), delays[int(len(delays) * 0.95) - 1]
    print(
        f"save → host: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {samples} saves "
        "(target p50 ≤ 100 ms)"
    )
    for closing in (joiner_sync, host_sync):
        closing.close()
    joiner.close()
    host.close()
    return delays


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_host_cpu(regulation: Regulation, folder: Path, joiners: int, seconds: float) -> float:
    data = folder / "host3"
    env = dict(os.environ, PENALTY_GUIDE_DATA_DIR=str(data))
    host = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "sync", "host", "--bind", "127.0.0.1",
         "--port", "0", "--event", "県大会", "--json"],
        stdout=subprocess.PIPE, env=env, text=True,
    )  # fmt: skip
    try:
        announced = json.loads(host.stdout.readline())  # type: ignore[union-attr]
        services = []
        for number in range(joiners):
            store = LogStore.open(regulation, folder / f"j{number}" / "log.sqlite3")
            service = SyncService.for_store(store)
            assert service.join(announced["addresses"][0], announced["code"]).ok
            store.add_record(
                store.current_event().id, RecordInput(Player(f"J{number}"), "looked-at-extra-cards")
            )
            services.append(service)
        stop = threading.Event()

        def every_two_seconds(service: SyncService, offset: float) -> None:
            if stop.wait(offset):
                return
            while not stop.is_set():
                service.sync_now()
                stop.wait(2.0)

        threads = [
            threading.Thread(target=every_two_seconds, args=(s, 2.0 * i / joiners), daemon=True)
            for i, s in enumerate(services)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2.0)  # all running
        cpu0, wall0 = cpu_seconds(host.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, wall1 = cpu_seconds(host.pid), time.monotonic()
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
    share = (cpu1 - cpu0) / (wall1 - wall0) * 100
    print(
        f"host CPU: {share:.1f} % of one core with {joiners} devices syncing every 2 s "
        f"for {seconds:.0f} s (target ≤ 5 %)"
    )
    return share


def bench_memory(regulation: Regulation, folder: Path, sizes: tuple[int, ...]) -> list[int]:
    peaks = []
    for size in sizes:
        store = LogStore.open(regulation, folder / f"mem{size}" / "log.sqlite3")
        event = store.create_event("県大会")
        fill(store, event.id, 10, size // 10)
        ledger = store.ledger()
        tracemalloc.start()
        cursor, more, pages, peak = 0, True, 0, 0
        while more:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            _items, cursor, more = ledger.page(event.id, cursor, "f" * 32)
            peak = max(peak, tracemalloc.get_traced_memory()[1] - before)
            pages += 1
            del _items
        tracemalloc.stop()
        peaks.append(peak)
        print(f"memory: an event of {size} records, {pages} pages: peak {peak / 1e6:.2f} MB a page")
        store.close()
    return peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--devices", type=int, default=10)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--joiners", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("join", "save", "memory", "host"))
    args = parser.parse_args()
    regulation = load_regulation()
    wanted = {args.only} if args.only else {"join", "save", "memory", "host"}
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        if "join" in wanted:
            bench_joins(regulation, base, args.devices, args.records, args.runs)
        if "save" in wanted:
            bench_save_to_host(regulation, base, args.samples)
        if "memory" in wanted:
            bench_memory(regulation, base, (2_000, 20_000))
        if "host" in wanted:
            bench_host_cpu(regulation, base, args.joiners, args.seconds)


if __name__ == "__main__":
    main()

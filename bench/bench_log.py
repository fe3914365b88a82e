"""Penalty-log benchmark: a log of 10,000 records, the operations a judge waits for.

    python bench/bench_log.py [--records N] [--samples N] [--dir PATH]

The log is filled by merging a generated export (one transaction): one event of N records over
8 rounds and 300 players, plus an older event of 2,000, in a temporary folder on the disk
(`--dir` to choose another; a tmpfs would hide the cost of syncing). Then, each p50 / p99 over
`--samples` calls:

- save: `add_record`, durable (synchronous=FULL: the WAL is synced before it returns). Shown
  beside it: the same save with the sync off (our own work) and a bare append + fdatasync;
- log screen data: a page of the event's records, newest first, as dataclasses (`limit=100`;
  `after=` a record halfway for a later page), what a screen shows at once; and, for
  reference, the whole event at once (`records(event)`, 10,000 dataclasses);
- history: `player_history(event, player)`; repeat check: `check_repeat(event, player, id)`;
- type-ahead: `recent_players(prefix, event_id=…)`; open: `LogStore.open` of the filled file.

Targets: save ≤ 5 ms, history and repeat check ≤ 5 ms (p99), log screen data well under 100 ms.
The figures vary with the machine's load and, for saves, with the disk's sync latency.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from records.exchange import FORMAT, FORMAT_VERSION, json_bytes, parse_export  # noqa: E402
from records.model import Player, RecordInput  # noqa: E402
from records.store import LogStore  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402

JST = timezone(timedelta(hours=9))
PAGE = 100  # records a log screen shows before the judge scrolls for more
PLAYERS = 300
ROUNDS = 8
TARGETS_MS = {
    "save": 5.0,
    "history": 5.0,
    "repeat check": 5.0,
    f"log screen data: first page ({PAGE})": 100.0,
}


def player_name(index: int) -> str:
    family = ["山田", "鈴木", "佐藤", "田中", "高橋", "伊藤", "渡辺", "中村", "小林", "加藤"]
    return f"{family[index % 10]} {index:03d}"


def generated_export(regulation: Regulation, count: int, name: str, start: datetime) -> dict:
    chance = random.Random(count)
    infractions = [i for i in regulation.infractions]
    records = []
    for index in range(count):
        infraction = chance.choice(infractions)
        moment = (start + timedelta(seconds=2 * index)).isoformat(timespec="microseconds")
        player = chance.randrange(PLAYERS)
        records.append(
            {
                "id": str(uuid.uuid4()),
                "event": name,
                "created_at": moment,
                "updated_at": moment,
                "round": index * ROUNDS // count + 1,
                "table": str(chance.randrange(1, 151)),
                "player": {"name": player_name(player), "id": f"{player:010d}"},
                "infraction": infraction.id,
                "tier": infraction.penalty.id,
                "note": "メモ" if index % 7 == 0 else None,
                "deleted": index % 50 == 0,
            }
        )
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "event": {"id": str(uuid.uuid4()), "name": name, "date": None, "rounds": []},
        "records": records,
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def sample(action: Callable[[int], object], samples: int) -> list[float]:
    """Milliseconds taken by each of `samples` calls (the call's index as argument)."""
    taken = []
    for index in range(samples):
        start = time.perf_counter()
        action(index)
        taken.append((time.perf_counter() - start) * 1000)
    return taken


def bare_sync(folder: Path, samples: int) -> list[float]:
    """What SQLite's commit sync costs on this disk: a 4 KiB append, then fdatasync."""
    probe = folder / "sync-probe"
    descriptor = os.open(probe, os.O_CREAT | os.O_WRONLY, 0o600)
    sync = getattr(os, "fdatasync", os.fsync)
    try:

        def one(_: int) -> None:
            os.write(descriptor, b"x" * 4096)
            sync(descriptor)

        return sample(one, samples)
    finally:
        os.close(descriptor)
        probe.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None, help="where the log is made")
    args = parser.parse_args(argv)
    regulation = load_regulation()
    chance = random.Random(1)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "penalty-log.sqlite3"
        started = time.perf_counter()
        with LogStore.open(regulation, path) as store:
            older = generated_export(
                regulation, 2000, "先月の大会", datetime(2026, 10, 1, tzinfo=JST)
            )
            store.merge(parse_export(json_bytes(older), regulation))
            payload = generated_export(
                regulation, args.records, "本日の大会", datetime(2026, 11, 28, 10, tzinfo=JST)
            )
            event = store.merge(parse_export(json_bytes(payload), regulation)).event
        fill_s = time.perf_counter() - started
        size_mb = path.stat().st_size / 1e6
        figures: dict[str, list[float]] = {}
        figures["open"] = sample(lambda _: LogStore.open(regulation, path).close(), 10)
        with LogStore.open(regulation, path) as store:
            infractions = [i.id for i in regulation.infractions]

            def save(index: int) -> None:
                player = Player(player_name(chance.randrange(PLAYERS)), None)
                entry = RecordInput(player, chance.choice(infractions), round=ROUNDS, table="7")
                store.add_record(event.id, entry)

            figures["save"] = sample(save, args.samples)
            everything = store.records(event.id)
            middle = everything[len(everything) // 2]
            figures[f"log screen data: first page ({PAGE})"] = sample(
                lambda _: store.records(event.id, limit=PAGE), args.samples
            )
            figures[f"log screen data: a page halfway ({PAGE})"] = sample(
                lambda _: store.records(event.id, limit=PAGE, after=middle), args.samples
            )

            def history(_: int) -> None:
                number = chance.randrange(PLAYERS)
                store.player_history(event.id, Player(player_name(number), f"{number:010d}"))

            figures["whole event at once (all records)"] = sample(
                lambda _: store.records(event.id), 50
            )
            figures["history"] = sample(history, args.samples)

            def repeat(_: int) -> None:
                number = chance.randrange(PLAYERS)
                store.check_repeat(
                    event.id,
                    Player(player_name(number), f"{number:010d}"),
                    chance.choice(infractions),
                )

            figures["repeat check"] = sample(repeat, args.samples)
            prefixes = ["山", "鈴木", "さとう", "田中 0", "1", "タカ"]
            figures["type-ahead"] = sample(
                lambda i: store.recent_players(prefixes[i % len(prefixes)], event_id=event.id),
                args.samples,
            )
            live = len(store.records(event.id))
            # Reference only: the same save without the sync (what the app never does).
            store._db.execute("PRAGMA synchronous = OFF")
            figures["save, sync off (reference)"] = sample(save, args.samples)
        figures["bare sync of this disk (reference)"] = bare_sync(Path(folder), args.samples)

    print(
        f"{args.records} records in the event ({live} live) + 2000 in another;"
        f" file {size_mb:.1f} MB; filled in {fill_s:.1f} s; {args.samples} samples; times in ms\n"
    )
    print(f"{'':42} {'p50':>8} {'p99':>8}  target")
    met = True
    for name, values in figures.items():
        p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            ok = p99 <= target
            met = met and ok
            verdict = f"p99 ≤ {target:g} {'ok' if ok else 'MISSED'}"
        print(f"{name:42} {p50:8.2f} {p99:8.2f}  {verdict}")
    print(f"\nmean save {statistics.mean(figures['save']):.2f} ms")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

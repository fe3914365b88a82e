"""A child process for the penalty log's fault tests (tests/test_records_faults.py).

    python tests/records_worker.py write DATA_DIR SEED          # save, edit, delete forever
    python tests/records_worker.py fill DATA_DIR LIMIT_BYTES     # save until the disk is "full"
    python tests/records_worker.py import DATA_DIR FILE [LIMIT_BYTES]
    python tests/records_worker.py race DATA_DIR TAG COUNT GO_FILE
    python tests/records_worker.py first BASE_DIR TAG ROUNDS [EVENT]   # many new logs at once

Each operation's line is printed (and flushed) only after the store returned, i.e. after the
save was confirmed: "add UUID", "edit UUID N", "delete UUID". A "full disk" is RLIMIT_FSIZE,
which works unprivileged, in CI and as root: past the limit, a write fails with EFBIG (Python
ignores SIGXFSZ), as it would on a full disk.
"""

from __future__ import annotations

import io
import os
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from records.errors import LogError  # noqa: E402
from records.exchange import read_export  # noqa: E402
from records.model import Player, RecordInput  # noqa: E402
from records.paths import DATABASE_NAME  # noqa: E402
from records.store import LogStore  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402

INFRACTIONS = ("drew-extra-cards", "looked-at-extra-cards", "unintentional-slow-play", "bribery")


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def limit_file_size(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def write(store: LogStore, seed: int) -> None:
    chance = random.Random(seed)
    event = store.current_event()
    live: list[str] = []
    edits = 0
    while True:
        roll = chance.random()
        if live and roll < 0.2:
            edits += 1
            target = chance.choice(live)
            store.edit_record(target, RecordInput(Player("編集"), "bribery", note=f"n={edits}"))
            say(f"edit {target} {edits}")
        elif len(live) > 3 and roll < 0.3:
            target = live.pop(chance.randrange(len(live)))
            store.delete_record(target)
            say(f"delete {target}")
        else:
            name = chance.choice(['山田, "太郎"', "鈴木\n花子", "Smith"])
            entry = RecordInput(Player(name), chance.choice(INFRACTIONS), round=1, note="x" * 200)
            live.append(store.add_record(event.id, entry).id)
            say(f"add {live[-1]}")


def fill(store: LogStore, limit: int) -> int:
    event = store.current_event()
    limit_file_size(limit)
    for _ in range(20_000):
        try:
            record = store.add_record(
                event.id, RecordInput(Player("山田"), "bribery", note="x" * 1500)
            )
        except LogError as exc:
            say(f"error {exc}")
            return 3
        say(f"add {record.id}")
    return 4  # the limit never bit


def first_saves(base: Path, tag: str, rounds: int, event_name: str | None) -> None:
    """Round r: says "ready r", waits for BASE/go-r, then does what `main.py log add` does
    in the new log BASE/r (open, find or create the event, save, close) and says "saved r
    UUID" or "error r LINE". The regulation is loaded once, so that the opens coincide."""
    from main import parse_args
    from records.cli import log_command

    for index in range(rounds):
        say(f"ready {index}")
        go = base / f"go-{index}"
        while not go.exists():
            time.sleep(0.0005)
        args = ["log", "add", "--player", f"{tag}", "--infraction", "bribery"]
        if event_name:
            args += ["--event", event_name]
        out, err = io.StringIO(), io.StringIO()
        os.environ["PENALTY_GUIDE_DATA_DIR"] = str(base / str(index))
        status = log_command(parse_args(args), regulation_once(), out, err)
        if status == 0:
            saved = out.getvalue().splitlines()[0].rsplit(" ", 1)[1]
            warned = " | ".join(err.getvalue().strip().splitlines())
            say(f"saved {index} {saved}" + (f" {warned}" if warned else ""))
        else:
            say(f"error {index} " + " | ".join(err.getvalue().strip().splitlines()))


_REGULATION: list[Regulation] = []


def regulation_once() -> Regulation:
    if not _REGULATION:
        _REGULATION.append(load_regulation())
    return _REGULATION[0]


def main(argv: list[str]) -> int:
    mode, data_dir = argv[0], Path(argv[1])
    if mode == "first":
        regulation_once()
        first_saves(data_dir, argv[2], int(argv[3]), argv[4] if len(argv) > 4 else None)
        return 0
    regulation = load_regulation()
    store = LogStore.open(regulation, data_dir / DATABASE_NAME)
    say("ready")
    if mode == "write":
        write(store, int(argv[2]))
    elif mode == "fill":
        return fill(store, int(argv[2]))
    elif mode == "import":
        incoming = read_export(Path(argv[2]), regulation)
        if len(argv) > 3:
            limit_file_size(int(argv[3]))
        say("merging")
        try:
            report = store.merge(incoming)
        except LogError as exc:
            say(f"error {exc}")
            return 3
        say(f"done {report.added}")
    elif mode == "race":
        tag, count, go = argv[2], int(argv[3]), Path(argv[4])
        event = store.current_event()
        while not go.exists():
            time.sleep(0.002)
        for index in range(count):
            record = store.add_record(event.id, RecordInput(Player(f"{tag}-{index}"), "bribery"))
            say(f"add {record.id}")
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

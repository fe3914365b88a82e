"""The log can be read where it cannot be written (issue 21, item 9): in a read-only folder,
on a full disk, and with the app's bundled data damaged, `log list` and `log export` still
work, with one line saying the log is read-only (or shown with ids), so that the judge can
back it up; every change is refused in one line; the file is not touched.

A log whose last writer died leaves commits in its -wal file only; where SQLite cannot read
that file read-only, the log is refused in one line rather than listed without them."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from records_support import WORKER, child_env, file_size_limit, run_main
from test_records_faults import ADD, digest, filled_log, run_confined, shared_folder

from records.paths import DATABASE_NAME
from regulation.model import Regulation

__all__ = ["shared_folder"]  # the fixture, used by name below

pytestmark = pytest.mark.process  # every test runs main.py

ROOT = Path(__file__).resolve().parent.parent
EVENT = ["--event", "合成の大会"]  # records_support.synthetic_export's
LIST = ["log", "list", *EVENT]
EXPORT_JSON = ["log", "export", "--format", "json", *EVENT]
EXPORT_CSV = ["log", "export", "--format", "csv", *EVENT]
NOTE = "note: the penalty log is read-only here, so it can be listed and exported but not changed"


def assert_read(result: subprocess.CompletedProcess[str], records: int, note: str = NOTE) -> None:
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(note), result.stderr
    if result.stdout.startswith("{"):
        assert len(json.loads(result.stdout)["records"]) == records
    elif result.stdout.startswith("\ufeff"):
        rows = list(csv.reader(io.StringIO(result.stdout)))
        assert len(rows) == records + 1  # the header and one row each
    else:
        assert f": {records} record(s)" in result.stdout.splitlines()[0], result.stdout


def test_a_read_only_folder_can_be_listed_and_exported_not_changed(
    regulation: Regulation, shared_folder: Path
) -> None:
    data_dir = shared_folder / "data"
    path = filled_log(regulation, data_dir, 20)
    before, names = digest(path), sorted(p.name for p in data_dir.iterdir())
    data_dir.chmod(0o555)
    for args in (LIST, EXPORT_JSON, EXPORT_CSV):
        assert_read(run_confined(args, data_dir), 20)
    refused = run_confined(ADD, data_dir)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith("error: not saved: the penalty log is read-only here")
    assert digest(path) == before
    assert sorted(p.name for p in data_dir.iterdir()) == names


def test_a_full_disk_can_be_listed_and_exported(regulation: Regulation, tmp_path: Path) -> None:
    path = filled_log(regulation, tmp_path, 20)
    before = digest(path)
    # No file may grow: the -shm file SQLite needs to open a WAL log cannot be made (1 byte)
    # or given its size (4 KiB), SQLITE_IOERR_SHMOPEN / SHMSIZE, as on a full disk.
    for limit in (1, 4096):
        for args in (LIST, EXPORT_JSON, EXPORT_CSV):
            assert_read(run_main(args, tmp_path, preexec_fn=file_size_limit(limit)), 20)
        refused = run_main(ADD, tmp_path, preexec_fn=file_size_limit(limit))
        assert refused.returncode == 1 and "read-only here" in refused.stderr
        assert refused.stderr.count("\n") == 1
    assert digest(path) == before


def test_commits_only_in_the_wal_are_never_left_out(
    regulation: Regulation, shared_folder: Path
) -> None:
    """A writer killed with -9 leaves its last commits in the -wal file; in a read-only folder
    the log is either listed whole or refused in one line, never listed without them."""
    data_dir = shared_folder / "data"
    filled_log(regulation, data_dir, 5)
    writer = subprocess.Popen(
        [sys.executable, str(WORKER), "write", str(data_dir), "7"],
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(data_dir),
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "ready\n"
    confirmed: list[str] = []
    for line in writer.stdout:
        if line.startswith("add "):
            confirmed.append(line.split()[1])
        if len(confirmed) == 3:
            break
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=30)
    assert (data_dir / f"{DATABASE_NAME}-wal").stat().st_size > 0
    # The -shm file is only an index of the -wal (rebuilt from it); without it, and unable to
    # make it, SQLite cannot read the -wal read-only: the commits there are out of reach.
    (data_dir / f"{DATABASE_NAME}-shm").unlink()
    data_dir.chmod(0o555)
    for args in (["log", "export", "--format", "json"], ["log", "list"]):  # the writer's event
        result = run_confined(args, data_dir)
        if result.returncode == 0:  # every confirmed save in it (list prints the ids)
            assert all(uuid in result.stdout for uuid in confirmed), result.stdout[:300]
        else:
            assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
            assert "read-only" in result.stderr, result.stderr


def damaged_install(tmp_path: Path) -> Path:
    app = tmp_path / "app"
    for name in ("regulation", "records", "locales", "assets"):
        shutil.copytree(ROOT / name, app / name, ignore=shutil.ignore_patterns("fonts"))
    shutil.copy(ROOT / "main.py", app)
    rules = app / "assets" / "rules_ja.json"
    rules.write_bytes(rules.read_bytes()[:1000])
    return app


def test_with_the_apps_data_damaged_the_log_is_still_listed_and_exported(
    regulation: Regulation, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    path = filled_log(regulation, data_dir, 20)
    before = digest(path)
    app = damaged_install(tmp_path)

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "main.py", *args],
            cwd=app,
            env=child_env(data_dir),
            capture_output=True,
            text=True,
            timeout=60,
        )

    warning = "warning: the log is shown with ids for titles, the app's data being unusable: "
    for args in (LIST, EXPORT_JSON, EXPORT_CSV):
        result = run(args)
        assert_read(result, 20, note=warning)
        assert "rules_ja" in result.stderr
    listed = run(LIST).stdout
    assert "drew-extra-cards" in listed or "bribery" in listed  # ids where titles were
    refused = run(ADD)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: ") and "rules_ja" in refused.stderr
    assert digest(path) == before

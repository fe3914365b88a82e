"""The command line of venue sync (`sync join | now | status | leave`; `sync host` runs in
tests/test_sync_simulation.py) and `log edit | delete | restore`, in-process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_support import another_host

import main
from records.store import LogStore
from records.sync.service import SyncStatus
from regulation.model import Regulation


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "device"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def host(regulation: Regulation, tmp_path: Path) -> Iterator[tuple[LogStore, SyncStatus]]:
    """Another device hosting 県大会 on 127.0.0.1, in this process."""
    with another_host(regulation, tmp_path / "host") as host_device:
        yield host_device


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_join_now_status_and_leave(
    data_dir: Path, host: tuple[LogStore, SyncStatus], capsys: pytest.CaptureFixture[str]
) -> None:
    store, status = host
    assert status.code
    joined = run_json(
        capsys, "sync", "join", status.addresses[0], "--code", status.code, "--judge", "鈴木"
    )
    assert joined == {"ok": True, "pushed": 0, "pulled": 1, "host": status.addresses[0]}
    added = run_json(capsys, "log", "add", "--player", "山田", "--infraction", "drew-extra-cards")
    assert added["record"]["event"] == "県大会"  # the shared event is the current one
    assert added["record"]["recorded_by"]["judge"] == "鈴木"
    state = run_json(capsys, "sync", "status")
    assert (state["role"], state["waiting"], state["code"]) == ("joined", 1, None)
    assert state["host"] == status.addresses[0] and state["judge"] == "鈴木"
    assert run_json(capsys, "sync", "now") == {
        "ok": True,
        "pushed": 1,
        "pulled": 0,
        "host": status.addresses[0],
    }
    assert store.record(added["record"]["id"]) is not None
    code, out, _ = run(capsys, "sync", "leave")
    assert code == 0 and "left" in out
    assert run_json(capsys, "sync", "status")["role"] == "off"


def test_sync_refusals_are_one_line_and_a_non_zero_exit(
    data_dir: Path, host: tuple[LogStore, SyncStatus], capsys: pytest.CaptureFixture[str]
) -> None:
    _, status = host
    code, out, err = run(capsys, "sync", "now", "--json")
    assert code == 1 and json.loads(out)["ok"] is False
    assert err == "error: this device has not joined a host\n"
    code, out, err = run(capsys, "sync", "join", status.addresses[0], "--code", "WXYZ-2345-6789")
    assert code == 1 and err == "error: wrong join code\n"
    code, _, err = run(capsys, "sync", "join", status.addresses[0], "--code", "12")
    assert code == 2 and err.count("\n") == 1 and "join code" in err
    assert status.code and status.code not in err


def test_log_edit_delete_and_restore(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    added = run_json(
        capsys, "log", "add", "--player", "山田", "--infraction", "drew-extra-cards", "--round", "2"
    )
    record_id = added["record"]["id"]
    edited = run_json(
        capsys, "log", "edit", record_id, "--tier", "duel-forfeiture", "--note", "再確認"
    )
    assert edited["deleted"] is False
    assert (edited["record"]["tier"], edited["record"]["note"], edited["record"]["round"]) == (
        "duel-forfeiture",
        "再確認",
        2,  # not given: unchanged
    )
    assert run_json(capsys, "log", "delete", record_id)["deleted"] is True
    assert run_json(capsys, "log", "list")["records"] == []
    code, _, err = run(capsys, "log", "edit", record_id, "--note", "x")
    assert code == 2 and "restore it first" in err
    assert run_json(capsys, "log", "restore", record_id)["deleted"] is False
    listed = run_json(capsys, "log", "list")["records"]
    assert [r["note"] for r in listed] == ["再確認"]
    code, _, err = run(capsys, "log", "delete", "no-such-record")
    assert code == 2 and err == "error: no record with id 'no-such-record'\n"

"""The round clock over venue sync (issue 18 "Shared"): starts, corrections, pauses, extensions
and finished tables travel as versions under the records' rule, checked as strictly as records.

A host (in-process SyncService on 127.0.0.1) and a joined device driven through the command line
(`main.main` in-process, PENALTY_GUIDE_DATA_DIR switching devices); raw signed pushes for the
refusals."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from records_support import JST
from sync_support import post, signed_headers

import main
from records.clock_rows import round_row_id
from records.paths import DATABASE_NAME
from records.store import LogStore
from records.sync.service import SyncService
from regulation.model import Regulation

START = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
EVENT = "県大会"


class Venue:
    """A host log in `host_dir`, serving; a second device in `joiner_dir` (not joined yet)."""

    def __init__(self, regulation: Regulation, root: Path, monkeypatch: pytest.MonkeyPatch):
        self.monkeypatch = monkeypatch
        self.host_dir, self.joiner_dir = root / "host", root / "joiner"
        self.store = LogStore.open(regulation, self.host_dir / DATABASE_NAME)
        self.sync = SyncService.for_store(self.store)
        self.sync.set_judge("本部")
        self.event_id = self.store.create_event(EVENT).id
        status = self.sync.host(self.event_id, bind="127.0.0.1", port=0)
        assert status.code and status.port
        self.address, self.code, self.port = status.addresses[0], status.code, status.port

    def close(self) -> None:
        self.sync.close()
        self.store.close()

    def run(self, capsys: pytest.CaptureFixture[str], device: Path, *argv: str) -> Any:
        """`main.py ARGV --json` on `device`; its JSON answer (the command must succeed)."""
        self.monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(device))
        code = main.main([*argv, "--json"])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        return json.loads(captured.out)

    def status(self, capsys: pytest.CaptureFixture[str], device: Path, at: datetime) -> Any:
        return self.run(
            capsys, device, "round", "status", "1", "--event", EVENT, "--at", at.isoformat()
        )

    def join(self, capsys: pytest.CaptureFixture[str]) -> None:
        joined = self.run(
            capsys, self.joiner_dir, "sync", "join", self.address, "--code", self.code
        )
        assert joined["ok"], joined

    def sync_joiner(self, capsys: pytest.CaptureFixture[str]) -> Any:
        result = self.run(capsys, self.joiner_dir, "sync", "now")
        assert result["ok"], result
        return result


@pytest.fixture
def venue(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Venue]:
    made = Venue(regulation, tmp_path, monkeypatch)
    try:
        yield made
    finally:
        made.close()


def test_a_round_started_and_extended_on_one_device_shows_the_same_on_the_other(
    venue: Venue, capsys: pytest.CaptureFixture[str]
) -> None:
    host, joiner = venue.host_dir, venue.joiner_dir
    at = START + timedelta(minutes=20)
    venue.run(
        capsys,
        host,
        "round",
        "start",
        "1",
        "--at",
        START.isoformat(),
        "--minutes",
        "45",
        "--event",
        EVENT,
    )
    venue.run(
        capsys, host, "round", "extend", "1", "--table", "12", "--minutes", "3", "--event", EVENT
    )
    venue.join(capsys)  # the first sync pulls the clock with the event
    on_host = venue.status(capsys, host, at)
    assert on_host["started_at"].startswith("2026-11-28T13:00") and on_host["minutes"] == 45
    assert [(e["table"], e["minutes"]) for e in on_host["extensions"]] == [("12", 3)]
    assert venue.status(capsys, joiner, at) == on_host

    # The other way: the joined device pauses, resumes and extends; the host sees it.
    venue.run(
        capsys,
        joiner,
        "round",
        "pause",
        "1",
        "--at",
        (START + timedelta(minutes=5)).isoformat(),
        "--event",
        EVENT,
    )
    venue.run(
        capsys,
        joiner,
        "round",
        "resume",
        "1",
        "--at",
        (START + timedelta(minutes=7)).isoformat(),
        "--event",
        EVENT,
    )
    venue.run(
        capsys, joiner, "round", "extend", "1", "--table", "12", "--minutes", "2", "--event", EVENT
    )
    assert venue.sync_joiner(capsys)["pushed"] == 3
    on_joiner = venue.status(capsys, joiner, at)
    assert on_joiner["paused_s"] == 120 and on_joiner["remaining_s"] == 27 * 60
    assert [(e["table"], e["minutes"]) for e in on_joiner["extensions"]] == [("12", 5)]
    assert venue.status(capsys, host, at) == on_joiner

    # A table marked finished on the host is finished on the joined device too.
    venue.store.round_clock.set_finished(venue.event_id, 1, "12")
    assert venue.sync_joiner(capsys)["pulled"] >= 1
    venue.monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(joiner))
    with LogStore.open(venue.store.regulation) as seen:
        ((table),) = seen.round_clock.round(venue.event_id, 1).tables(at)
        assert table.table == "12" and table.finished


@pytest.mark.parametrize("host_first", [True, False])
def test_conflicting_corrections_of_a_start_converge_whatever_the_order(
    venue: Venue, capsys: pytest.CaptureFixture[str], host_first: bool
) -> None:
    """Both devices correct round 1's start while apart; after syncing both show the same start,
    the correction made later (the larger stamp), whichever device saved it."""
    venue.store.round_clock.start(venue.event_id, 1, START)
    venue.join(capsys)
    by_host, by_joiner = START + timedelta(minutes=1), START + timedelta(minutes=2)

    def correct_on_host() -> None:
        venue.store.round_clock.start(venue.event_id, 1, by_host)

    def correct_on_joiner() -> None:
        venue.run(
            capsys,
            venue.joiner_dir,
            "round",
            "start",
            "1",
            "--at",
            by_joiner.isoformat(),
            "--event",
            EVENT,
        )

    first, second = (
        (correct_on_host, correct_on_joiner) if host_first else (correct_on_joiner, correct_on_host)
    )
    first()
    # Later by the clock: two corrections in one millisecond on devices apart are ordered by
    # device id (records/sync/hlc.py), and a fresh clone's CI once had the host's there.
    time.sleep(0.002)
    second()
    expected = by_joiner if host_first else by_host
    venue.sync_joiner(capsys)
    venue.sync_joiner(capsys)
    at = START + timedelta(minutes=30)
    on_host = venue.status(capsys, venue.host_dir, at)
    assert datetime.fromisoformat(on_host["started_at"]) == expected
    assert venue.status(capsys, venue.joiner_dir, at) == on_host
    # Both corrections are kept as versions on both devices (the history loses nothing).
    for folder in (venue.host_dir, venue.joiner_dir):
        venue.monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
        with LogStore.open(venue.store.regulation) as seen:
            starts = {
                json.loads(v.body)["started_at"]
                for v in seen.export_versions(venue.event_id)
                if v.kind == "clock.round"
            }
        assert {s[:16] for s in starts} == {
            "2026-11-28T13:00",
            "2026-11-28T13:01",
            "2026-11-28T13:02",
        }


# -- refusals ------------------------------------------------------------------------------------


def _round_item(venue: Venue, number: int, **body: Any) -> dict[str, Any]:
    """A well-formed version of round `number`'s clock row, as a device would push it."""
    return {
        "kind": "clock.round",
        "id": round_row_id(venue.event_id, number),
        "stamp": 1 << 50,
        "device": "d" * 32,
        "judge": "鈴木",
        "saved_at": START.isoformat(timespec="microseconds"),
        "body": {
            "created_at": START.isoformat(timespec="microseconds"),
            "deleted": False,
            "number": number,
            "minutes": 40,
            "started_at": START.isoformat(timespec="microseconds"),
            **body,
        },
    }


def _extension_item(venue: Venue, **body: Any) -> dict[str, Any]:
    return {
        **_round_item(venue, 1),
        "kind": "clock.extension",
        "id": "0c7a1d52-5b1e-4a43-9d8e-2f5d0e6b7a22",
        "body": {
            "created_at": START.isoformat(timespec="microseconds"),
            "deleted": False,
            "round": 1,
            "table": "7",
            "minutes": 3,
            "record": None,
            "finished": False,
            **body,
        },
    }


def _changed(item: dict[str, Any], **body: Any) -> dict[str, Any]:
    return {**item, "body": {**item["body"], **body}}


def _push(venue: Venue, items: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    body = json.dumps({"judge": "鈴木", "cursor": 0, "push": items}).encode()
    headers = signed_headers(venue.code, venue.event_id, body, time_ms=int(time.time() * 1000))
    answer = post(venue.port, headers, body)
    return answer.status, json.loads(answer.body)


def _clock_state(venue: Venue) -> tuple[Any, ...]:
    return venue.store.round_clock.rows(venue.event_id), venue.store.export_versions(venue.event_id)


def test_a_well_formed_clock_version_from_the_network_is_taken(venue: Venue) -> None:
    status, answer = _push(venue, [_round_item(venue, 2), _extension_item(venue)])
    assert status == 200, answer
    clock = venue.store.round_clock.round(venue.event_id, 2)
    assert (clock.started_at, clock.minutes) == (START, 40)
    (extension,) = venue.store.round_clock.rows(venue.event_id).extensions
    assert (extension.table, extension.minutes, extension.round) == ("7", 3, 1)


@pytest.mark.parametrize(
    ("item", "named"),
    [
        (lambda v: _round_item(v, 2, started_at="13時"), "push[1].body.started_at"),
        (lambda v: _round_item(v, 2, minutes=0), "push[1].body.minutes"),
        (lambda v: _round_item(v, 2, minutes="40"), "push[1].body.minutes"),
        (lambda v: _changed(_round_item(v, 2), number=-1), "push[1].body.number"),
        (lambda v: _round_item(v, 2, deleted="no"), "push[1].body.deleted"),
        (lambda v: {**_round_item(v, 2), "id": round_row_id(v.event_id, 3)}, "push[1].id"),
        (lambda v: _extension_item(v, minutes=24 * 60 + 1), "push[1].body.minutes"),
        (lambda v: _extension_item(v, table=""), "push[1].body.table"),
        (lambda v: _extension_item(v, record="not-a-uuid"), "push[1].body.record"),
        (lambda v: _extension_item(v, finished=1), "push[1].body.finished"),
        (lambda v: _extension_item(v, table=" 7 "), "push[1].body"),  # not canonical
        (
            lambda v: {
                **_extension_item(v),
                "kind": "clock.mark",
                "body": {
                    "created_at": START.isoformat(),
                    "deleted": False,
                    "round": 1,
                    "kind": "stop",
                    "at": START.isoformat(),
                },
            },
            "push[1].body.kind",
        ),
    ],
)
def test_a_malformed_clock_body_is_refused_with_nothing_changed(
    venue: Venue, item: Any, named: str
) -> None:
    venue.store.round_clock.start(venue.event_id, 1, START)
    before = _clock_state(venue)
    status, answer = _push(venue, [_round_item(venue, 4), item(venue)])
    assert (status, answer["error"]) == (422, "bad_item")
    assert named in answer["message"] and "\n" not in answer["message"]
    assert _clock_state(venue) == before  # the valid first item was not stored either
    status, answer = _push(venue, [_round_item(venue, 4)])  # the host still serves
    assert status == 200 and venue.store.round_clock.round(venue.event_id, 4).started


def test_a_round_version_pushed_under_another_events_id_is_refused(venue: Venue) -> None:
    other = venue.store.create_event("別の大会")
    before = _clock_state(venue)
    item = {**_round_item(venue, 2), "id": round_row_id(other.id, 2)}
    status, answer = _push(venue, [item])
    assert (status, answer["error"]) == (422, "bad_item") and "push[0].id" in answer["message"]
    assert _clock_state(venue) == before


def test_a_clock_save_reaches_the_host_soon_in_the_background(venue: Venue) -> None:
    joiner = LogStore.open(venue.store.regulation, venue.joiner_dir / DATABASE_NAME)
    service = SyncService.for_store(joiner)
    try:
        service.set_judge("鈴木")
        assert service.join(venue.address, venue.code).ok
        service.start_background(interval_s=60.0)  # only a save can wake it this soon
        joiner.round_clock.start(venue.event_id, 1, START)
        deadline = time.monotonic() + 5.0
        while (
            time.monotonic() < deadline
            and not venue.store.round_clock.round(venue.event_id, 1).started
        ):
            time.sleep(0.05)
        assert venue.store.round_clock.round(venue.event_id, 1).started_at == START
    finally:
        service.close()
        joiner.close()

"""Mutation tests for records/cli.py (the log's command line): what every command on the log
shares. The log opened and what opening it found said in one line each (a damaged file set
aside, an upgrade's backup, a read-only log that still lists and exports); every refusal one line
on stderr, exit 2 for a bad value and 1 for anything else, nothing changed; text that is not
UTF-8 refused by its option's name before the log is opened; an unknown event named with the
events there are; the JSON printed as indented UTF-8. The commands one by one:
test_mutation_cli_commands.py. All in-process (`main.main` with an argv list)."""

from __future__ import annotations

import argparse
import io
import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import log

from main import parse_args
from records import opening
from records.cli import _check_text_options, _event, _list, _record, bare_regulation, log_command
from records.errors import InvalidInput, Unwritable
from records.paths import DATABASE_NAME
from records.schema import APPLICATION_ID
from records.store import LogStore
from regulation.model import Regulation

V1_SCHEMA = Path(__file__).resolve().parent / "data" / "penalty_log_v1.sql"
READ_ONLY = "cannot open the penalty log: the folder or the file is read-only (SQLITE_READONLY)"
NOT_UTF8 = "not valid text (bytes that are not UTF-8)"


def added(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code, out, err = log(capsys, "add", "--infraction", "drew-extra-cards", *args, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)["record"]


def listed(capsys: pytest.CaptureFixture[str], event: str) -> list[dict]:
    code, out, err = log(capsys, "list", "--event", event, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)["records"]


def refuse_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the log opens as in a read-only folder (records/opening.py then reads it)."""

    def refuse(*args: object) -> None:
        raise Unwritable(READ_ONLY)

    monkeypatch.setattr(opening, "_open_checked", refuse)


def test_a_read_only_log_lists_and_exports_after_one_note_and_refuses_changes(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    record = added(capsys, "--player", "山田", "--event", "地区予選")
    refuse_writes(monkeypatch)
    note = (
        "note: the penalty log is read-only here, so it can be listed and exported but not "
        f"changed ({READ_ONLY})\n"
    )
    code, out, err = log(capsys, "list", "--event", "地区予選")
    assert (code, err) == (0, note)
    assert out.startswith("地区予選: 1 record(s)\n") and record["id"] in out
    code, out, err = log(capsys, "export", "--event", "地区予選", "--format", "json")
    assert (code, err) == (0, note)
    assert [r["id"] for r in json.loads(out)["records"]] == [record["id"]]
    # A change is refused in one line, without the note, exit 1 (not a bad value).
    for args in (
        ("add", "--player", "鈴木", "--infraction", "bribery", "--event", "地区予選"),
        ("delete", record["id"]),
        ("edit", record["id"], "--note", "x"),
    ):
        code, out, err = log(capsys, *args)
        assert (code, out) == (1, ""), args
        assert err.startswith("error: ") and err.count("\n") == 1, err
        assert "note:" not in err
    monkeypatch.undo()
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(data_dir))
    assert listed(capsys, "地区予選") == [record]  # nothing changed


def test_a_damaged_log_is_set_aside_in_one_warning_line_and_a_new_one_started(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    (data_dir / DATABASE_NAME).write_bytes(b"this is not a database at all" * 100)
    code, out, err = log(capsys, "add", "--player", "山田", "--infraction", "bribery")
    assert code == 0 and out.startswith("saved in ")
    (kept,) = [
        p
        for p in data_dir.iterdir()
        if p.name.startswith("penalty-log.")
        and p.name != DATABASE_NAME
        and not p.name.endswith((".lock", "-wal", "-shm"))
    ]
    assert err.startswith(f"warning: the penalty log {data_dir / DATABASE_NAME} could not be read")
    assert err.endswith(f"it was kept as {kept.name} and a new log was started\n")
    assert err.count("\n") == 1
    code, out, err = log(capsys, "list")  # said once: the new log is sound
    assert (code, err) == (0, "") and "1 record(s)" in out


def test_an_upgraded_log_says_where_the_old_file_was_kept(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    connection = sqlite3.connect(data_dir / DATABASE_NAME)
    connection.executescript(V1_SCHEMA.read_text(encoding="utf-8"))
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute("PRAGMA user_version = 1")
    connection.commit()
    connection.close()
    before = set(data_dir.iterdir())
    code, out, err = log(capsys, "list", "--json")
    (backup,) = [
        p
        for p in set(data_dir.iterdir()) - before
        if p.suffix != ".lock" and not p.name.endswith(("-wal", "-shm"))
    ]
    assert code == 0 and "records" in json.loads(out)
    assert err == f"note: the penalty log was upgraded; the old file was kept as {backup}\n"
    assert log(capsys, "list", "--json")[2] == ""  # upgraded once


def test_a_bad_value_exits_2_anything_else_1_each_in_one_line(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = log(capsys, "delete", "no-such-id")
    assert (code, out, err) == (2, "", "error: no record with id 'no-such-id'\n")
    missing = tmp_path / "missing.json"
    code, out, err = log(capsys, "import", str(missing))
    assert (code, out) == (1, "")
    assert err.startswith("error: ") and "cannot read the file" in err and err.count("\n") == 1


def test_an_unknown_event_is_named_with_at_most_five_events_there_are(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = log(capsys, "list", "--event", "ない大会")
    assert (code, out, err) == (2, "", "error: no event named 'ない大会' (events: none yet)\n")
    for name in ("A", "B", "C", "D", "E", "F"):
        added(capsys, "--player", "山田", "--event", name)
    code, out, err = log(capsys, "export", "--event", "ない大会", "--format", "csv")
    assert (code, out) == (2, "")
    assert err.startswith("error: no event named 'ない大会' (events: '")
    named = err.removeprefix("error: no event named 'ない大会' (events: ").removesuffix(")\n")
    assert len(named.split(", ")) == 5 and all(n.startswith("'") for n in named.split(", "))
    assert not (data_dir / "ない大会").exists()
    assert log(capsys, "list", "--event", "ない大会")[0] == 2  # looking never makes it


@pytest.mark.parametrize(
    ("option", "name"),
    [
        ("--player", "player"),
        ("--player-id", "player_id"),
        ("--infraction", "infraction"),
        ("--tier", "tier"),
        ("--table", "table"),
        ("--note", "note"),
        ("--event", "event"),
    ],
)
@pytest.mark.parametrize("bad", ["\ud800", "a\udcffb", "\udfff"])
def test_text_that_is_not_utf8_is_refused_by_its_option_before_the_log_opens(
    data_dir: Path, capsys: pytest.CaptureFixture[str], option: str, name: str, bad: str
) -> None:
    args = {"--player": "山田", "--infraction": "bribery", option: bad}
    code, out, err = log(capsys, "add", *[part for pair in args.items() for part in pair])
    assert (code, out, err) == (2, "", f"error: {option}: {NOT_UTF8}\n")
    assert not data_dir.exists()  # refused before the log was opened (or made)
    namespace = parse_args(["log", "add", *[part for pair in args.items() for part in pair]])
    with pytest.raises(InvalidInput) as refused:
        _check_text_options(namespace)
    assert refused.value.field == name


def test_list_checks_its_own_options_and_text_next_to_surrogates_is_kept(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = log(capsys, "list", "--player-id", "\udc80")
    assert (code, out, err) == (2, "", f"error: --player-id: {NOT_UTF8}\n")
    # The characters just outside the surrogates are text, stored as given.
    record = added(capsys, "--player", "\ud7ff\ue000", "--note", "\U0001f600")
    assert (record["player"]["name"], record["note"]) == ("\ud7ff\ue000", "\U0001f600")
    code, out, err = log(capsys, "list", "--player", "\ud7ff\ue000", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)["records"]] == [record["id"]]


def test_a_namespace_without_text_options_passes_the_check() -> None:
    _check_text_options(argparse.Namespace(log_command="delete", record_id="\udcff"))
    _check_text_options(argparse.Namespace(player=3, note=None))


def test_json_is_indented_utf8_text_ending_in_a_newline(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = log(capsys, "add", "--player", "山田", "--infraction", "bribery", "--json")
    payload = json.loads(out)
    assert code == 0
    assert out == json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    assert '"name": "山田"' in out


def test_log_command_writes_to_the_streams_it_is_given(
    data_dir: Path, regulation: Regulation
) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = parse_args(["log", "add", "--player", "山田", "--infraction", "bribery", "--json"])
    assert log_command(args, regulation, out, err) == 0
    assert err.getvalue() == ""
    record = json.loads(out.getvalue())["record"]
    out, err = io.StringIO(), io.StringIO()
    assert log_command(parse_args(["log", "delete", "nope"]), regulation, out, err) == 2
    assert (out.getvalue(), err.getvalue()) == ("", "error: no record with id 'nope'\n")
    out = io.StringIO()
    assert log_command(parse_args(["log", "list", "--json"]), regulation, out, err) == 0
    assert [r["id"] for r in json.loads(out.getvalue())["records"]] == [record["id"]]


def test_with_the_bundled_data_unusable_the_log_is_listed_with_ids_for_titles(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = added(capsys, "--player", "山田", "--event", "地区予選", "--round", "2")
    bare = bare_regulation()
    assert bare.infractions == () and bare.tiers == () and bare.principles == ()
    out, err = io.StringIO(), io.StringIO()
    args = parse_args(["log", "list", "--event", "地区予選"])
    assert log_command(args, bare, out, err) == 0
    assert err.getvalue() == ""
    lines = out.getvalue().splitlines()
    assert lines[0] == "地区予選: 1 record(s)"
    assert "drew-extra-cards" in lines[1] and "warning" in lines[1]
    assert lines[2].endswith(f"[{record['id']}]")
    out = io.StringIO()
    args = parse_args(["log", "export", "--event", "地区予選", "--format", "csv"])
    assert log_command(args, bare, out, err) == 0
    assert record["id"] in out.getvalue() and "drew-extra-cards" in out.getvalue()


def test_a_refusal_names_the_field_and_reason_a_screen_places_it_by(
    data_dir: Path, regulation: Regulation
) -> None:
    """`_event` is also the round clock's (records/cli_round.py); the codes are InvalidInput's."""
    with LogStore.open(regulation) as store:
        with pytest.raises(InvalidInput) as refused:
            _event(store, "ない大会", create=False)
        assert (refused.value.field, refused.value.reason) == ("event", "unknown_id")
        assert store.event_by_name("ない大会") is None
        with pytest.raises(InvalidInput) as refused:
            _record(store, "nope")
        assert (refused.value.field, refused.value.reason) == ("record", "unknown_id")
        args = parse_args(["log", "list", "--player", " "])
        with pytest.raises(InvalidInput) as refused:
            _list(store, args, io.StringIO())
        assert (refused.value.field, refused.value.reason) == ("player.name", "required")
        made = _event(store, "新しい大会", create=True)
        assert _event(store, "新しい大会", create=True) == made
        assert _event(store, "新しい大会", create=False) == made
        assert _event(store, None, create=False) == store.current_event()

"""Mutation tests for records/cli.py (the log's command line), its commands one by one: `add`
says where the record was saved, its slip in both languages and, for a repeat, the earlier
records, the principle and the tier one up (never applied); `edit` changes only the fields given;
`delete` and `restore` say what they did, by the id given with or without spaces; `list` is
oldest first, one record in two lines, filtered by player; `export` writes the file or standard
output (bytes, or text where there are none), counting the records not deleted; `import` says
what it added, updated or left, and what it merged into another event. In-process (`main.main`
with an argv list, or `log_command` with text streams)."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path

import pytest
from cli_support import log

from main import main, parse_args
from records.cli import log_command
from regulation.model import Regulation

DREW = "警告：故意ではなく、過剰にカードを引いた"
DREW_EN = "Warning: Unintentionally drew extra cards"
PRINCIPLE = (
    "  同一の違反を繰り返した場合、ジャッジはより上位の罰則を適用できる。\n"
    "  If the same infraction is repeated, the judge may apply a higher penalty.\n"
)


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = log(capsys, *args)
    assert (code, err) == (0, ""), err
    return out


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    return json.loads(ok(capsys, *args, "--json"))


def records(capsys: pytest.CaptureFixture[str], event: str = "E") -> list[dict]:
    return as_json(capsys, "list", "--event", event)["records"]


def test_add_says_where_it_saved_and_the_slip_in_both_languages(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ok(
        capsys,
        "add",
        "--player",
        "山田",
        "--infraction",
        "drew-extra-cards",
        "--round",
        "2",
        "--table",
        "5",
        "--event",
        "E",
    )
    (record,) = records(capsys)
    assert out == (
        f"saved in 'E': {record['id']}\n  2回戦 5卓 山田 {DREW}\n  R2 T5 山田 {DREW_EN}\n"
    )


def test_a_repeat_names_the_earlier_records_the_principle_and_the_tier_one_up(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("add", "--player", "山田", "--infraction", "drew-extra-cards", "--event", "E")
    first = as_json(capsys, *args)
    second = as_json(capsys, *args)
    assert second["repeat_of"] == [first["record"]["id"]]
    out = ok(capsys, *args, "--note", "3枚目")
    ids = [r["id"] for r in records(capsys)]
    assert ids[:2] == [first["record"]["id"], second["record"]["id"]]
    assert out == (
        f"saved in 'E': {ids[2]}\n"
        f"  山田 {DREW}（同一違反3回目）\n"
        f"  山田 {DREW_EN} (3rd time)\n"
        "repeat: 2 earlier record(s) of this infraction for this player in this event "
        f"({ids[0]}, {ids[1]})\n"
        f"{PRINCIPLE}"
        "  the judge may apply a higher penalty; one tier up (the app's suggestion, the "
        "regulations name no tier): Duel Forfeiture (デュエルの敗北); the tier recorded is "
        "warning, unchanged\n"
    )
    assert [r["tier"] for r in records(capsys)] == ["warning"] * 3  # never upgraded
    assert as_json(capsys, *args)["repeat_of"] == ids


def test_a_repeat_at_the_highest_tier_names_no_tier_above(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("add", "--player", "佐藤", "--infraction", "bribery", "--event", "E")
    ok(capsys, *args)
    out = ok(capsys, *args)
    first, second = (r["id"] for r in records(capsys))
    assert out.endswith(
        f"repeat: 1 earlier record(s) of this infraction for this player in this event "
        f"({first})\n{PRINCIPLE}"
    )
    assert out.startswith(f"saved in 'E': {second}\n")
    assert "one tier up" not in out


def test_add_to_an_event_found_or_made_and_otherwise_the_current_one(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = as_json(capsys, "add", "--player", "山田", "--infraction", "bribery", "--event", "E")
    again = as_json(capsys, "add", "--player", "鈴木", "--infraction", "bribery", "--event", "E")
    assert made["record"]["event"] == again["record"]["event"] == "E"
    current = as_json(capsys, "add", "--player", "佐藤", "--infraction", "bribery")
    assert current["record"]["event"] != "E"
    assert [r["player"]["name"] for r in records(capsys)] == ["山田", "鈴木"]
    assert [r["player"]["name"] for r in records(capsys, current["record"]["event"])] == ["佐藤"]


def test_edit_changes_only_the_fields_given(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = as_json(
        capsys,
        "add",
        "--player",
        "山田",
        "--player-id",
        "7",
        "--infraction",
        "drew-extra-cards",
        "--round",
        "2",
        "--table",
        "5",
        "--note",
        "メモ",
        "--event",
        "E",
    )["record"]
    record_id = original["id"]
    out = ok(capsys, "edit", record_id, "--tier", "duel-forfeiture")
    assert out == f"saved in 'E': {record_id}\n"
    (edited,) = records(capsys)
    assert (edited["tier"], edited["round"], edited["table"], edited["note"]) == (
        "duel-forfeiture",
        2,
        "5",
        "メモ",
    )
    assert (edited["player"], edited["infraction"]) == (original["player"], "drew-extra-cards")
    ok(capsys, "edit", record_id, "--round", "3")
    ok(capsys, "edit", record_id, "--table", "9")
    changed = as_json(capsys, "edit", record_id, "--note", "別のメモ")
    assert changed["deleted"] is False
    expected = ("duel-forfeiture", 3, "9", "別のメモ", original["player"], "drew-extra-cards")
    for record in (changed["record"], records(capsys)[0]):
        assert (
            record["tier"],
            record["round"],
            record["table"],
            record["note"],
            record["player"],
            record["infraction"],
        ) == expected
    assert changed["record"]["event"] == "E"
    ok(capsys, "edit", record_id)  # nothing given: nothing changes
    assert records(capsys)[0]["note"] == "別のメモ"


def test_delete_and_restore_say_what_they_did_by_the_id_with_or_without_spaces(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = as_json(capsys, "add", "--player", "鈴木", "--infraction", "bribery", "--event", "E")
    record = as_json(capsys, "add", "--player", "山田", "--infraction", "bribery", "--event", "E")
    record_id = record["record"]["id"]
    assert ok(capsys, "delete", f" {record_id}\n") == f"deleted in 'E': {record_id}\n"
    assert [r["id"] for r in records(capsys)] == [kept["record"]["id"]]
    deleted = as_json(capsys, "delete", record_id)
    assert (deleted["deleted"], deleted["record"]["id"], deleted["record"]["event"]) == (
        True,
        record_id,
        "E",
    )
    assert ok(capsys, "restore", f"{record_id} ") == f"saved in 'E': {record_id}\n"
    assert [r["id"] for r in records(capsys)] == [kept["record"]["id"], record_id]
    ok(capsys, "delete", record_id)
    restored = as_json(capsys, "restore", record_id)
    assert (restored["deleted"], restored["record"]["id"]) == (False, record_id)
    code, out, err = log(capsys, "restore", "nope")
    assert (code, out, err) == (2, "", "error: no record with id 'nope'\n")
    code, out, err = log(capsys, "edit", " nope ", "--note", "x")
    assert (code, out, err) == (2, "", "error: no record with id ' nope '\n")
    assert len(records(capsys)) == 2


def test_list_is_oldest_first_two_lines_a_record_filtered_by_player(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, player_id in (("山田", "7"), ("鈴木", None), ("山田", None)):
        extra = ("--player-id", player_id) if player_id else ()
        ok(
            capsys,
            "add",
            "--player",
            name,
            *extra,
            "--infraction",
            "drew-extra-cards",
            "--round",
            "1",
            "--event",
            "E",
        )
    everything = records(capsys)
    out = ok(capsys, "list", "--event", "E")
    lines = [f"E: {len(everything)} record(s)"]
    for record in everything:
        when = datetime.fromisoformat(record["created_at"]).strftime("%Y-%m-%d %H:%M")
        name, player_id = record["player"]["name"], record["player"]["id"]
        ja, en = (
            (f"{name}（ID {player_id}）", f"{name} (ID {player_id})") if player_id else (name, name)
        )
        lines.append(f"{when}  1回戦 {ja} {DREW}")
        lines.append(f"{'':16}  R1 {en} {DREW_EN}  [{record['id']}]")
    assert out == "\n".join(lines) + "\n"
    by_name = ok(capsys, "list", "--event", "E", "--player", "山田")
    assert by_name.startswith("E: 2 record(s)\n") and everything[1]["id"] not in by_name
    by_id = as_json(capsys, "list", "--event", "E", "--player-id", "7")["records"]
    assert [r["id"] for r in by_id] == [everything[0]["id"]]
    code, out, err = log(capsys, "list", "--event", "E", "--player", " \u3000")
    assert (code, out, err) == (2, "", "error: --player: required\n")
    assert ok(capsys, "list", "--event", "E", "--player", "誰も") == "E: 0 record(s)\n"


def test_export_to_a_file_counts_the_records_not_deleted(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("山田", "鈴木", "佐藤"):
        ok(capsys, "add", "--player", name, "--infraction", "bribery", "--event", "E")
    ok(capsys, "add", "--player", "他", "--infraction", "bribery", "--event", "F")
    ok(capsys, "delete", records(capsys)[1]["id"])
    target = tmp_path / "out.csv"
    out = ok(capsys, "export", "--event", "E", "--format", "csv", "-o", str(target))
    assert out == f"exported 2 record(s) of 'E' to {target}\n"
    rows = list(csv.DictReader(io.StringIO(target.read_bytes().decode("utf-8-sig"))))
    assert {r["player_name"] for r in rows} >= {"山田", "佐藤"} and "他" not in str(rows)
    target = tmp_path / "out.json"
    out = ok(capsys, "export", "--event", "E", "--format", "json", "-o", str(target))
    assert out == f"exported 2 record(s) of 'E' to {target}\n"
    payload = json.loads(target.read_text(encoding="utf-8"))
    assert payload["format"] == "ocg-penalty-guide/penalty-log"
    assert payload["event"]["name"] == "E" and len(payload["records"]) == 3  # the tombstone too


def test_export_to_standard_output_writes_bytes_or_the_same_text(
    data_dir: Path, regulation: Regulation, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["log", "add", "--player", "山田", "--infraction", "bribery", "--event", "E"]) == 0
    capsysbinary.readouterr()
    assert main(["log", "export", "--event", "E", "--format", "csv"]) == 0
    raw = capsysbinary.readouterr().out
    assert raw.startswith(b"\xef\xbb\xbfrecord_id,") and "山田".encode() in raw
    text = io.StringIO()
    args = parse_args(["log", "export", "--event", "E", "--format", "csv"])
    assert log_command(args, regulation, text, io.StringIO()) == 0
    assert text.getvalue() == raw.decode("utf-8")
    text = io.StringIO()
    args = parse_args(["log", "export", "--event", "E", "--format", "json"])
    assert log_command(args, regulation, text, io.StringIO()) == 0
    payload = json.loads(text.getvalue())
    assert [r["player"]["name"] for r in payload["records"]] == ["山田"]


def test_import_says_what_it_added_updated_and_left(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    for name in ("山田", "鈴木"):
        ok(capsys, "add", "--player", name, "--infraction", "bribery", "--event", "E")
    exported = tmp_path / "e.json"
    ok(capsys, "export", "--event", "E", "--format", "json", "-o", str(exported))
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path / "other"))
    out = ok(capsys, "import", str(exported))
    assert out == (f"imported {exported} into 'E' (new event): added 2, updated 0, unchanged 0\n")
    ok(capsys, "edit", records(capsys)[0]["id"], "--note", "ここで")
    out = ok(capsys, "import", str(exported))
    assert out == f"imported {exported} into 'E': added 0, updated 0, unchanged 2\n"
    assert as_json(capsys, "import", str(exported)) == {"added": 0, "updated": 0, "unchanged": 2}
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(data_dir))
    ok(capsys, "edit", records(capsys)[1]["id"], "--note", "後で")
    ok(capsys, "export", "--event", "E", "--format", "json", "-o", str(exported))
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path / "other"))
    out = ok(capsys, "import", str(exported))
    assert out == f"imported {exported} into 'E': added 0, updated 1, unchanged 1\n"


def test_import_names_the_events_its_records_already_belong_to(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, event in (("山田", "1日目"), ("鈴木", "2日目"), ("佐藤", "2日目")):
        ok(capsys, "add", "--player", name, "--infraction", "bribery", "--event", event)
    files = []
    for event in ("1日目", "2日目"):
        target = tmp_path / f"{event}.json"
        ok(capsys, "export", "--event", event, "--format", "json", "-o", str(target))
        files.append(json.loads(target.read_text(encoding="utf-8")))
    merged = files[0]
    merged["records"] += files[1]["records"]
    merged["event"] = {
        **merged["event"],
        "id": "0b6f7d4e-6c2f-4f0e-9a43-7c1d4c0e6a11",
        "name": "3日目",
    }
    for record in merged["records"]:
        record["event"] = "3日目"
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(merged, ensure_ascii=False), encoding="utf-8")
    out = ok(capsys, "import", str(moved))
    assert out == (
        f"imported {moved} into '3日目' (new event): added 0, updated 0, unchanged 0; "
        "3 more already belong to another event here ('1日目', '2日目'): merged there, "
        "not moved\n"
    )
    report = as_json(capsys, "import", str(moved))
    assert report["elsewhere"] == 3
    assert records(capsys, "3日目") == []
    assert [r["player"]["name"] for r in records(capsys, "2日目")] == ["鈴木", "佐藤"]


def test_export_to_a_console_of_another_encoding_writes_the_exact_bytes_flushed(
    data_dir: Path, regulation: Regulation, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A console in Shift_JIS that writes \\r\\n for \\n (Windows): the export still goes out as
    its UTF-8 bytes, byte for byte the file's, and is out when the command returns."""
    ok(capsys, "add", "--player", "山田", "--infraction", "bribery", "--event", "E")
    for kind in ("csv", "json"):
        target = tmp_path / f"e.{kind}"
        ok(capsys, "export", "--event", "E", "--format", kind, "-o", str(target))
        raw = io.BytesIO()
        console = io.TextIOWrapper(io.BufferedWriter(raw), encoding="cp932", newline="\r\n")
        args = parse_args(["log", "export", "--event", "E", "--format", kind])
        assert log_command(args, regulation, console, io.StringIO()) == 0
        written = raw.getvalue()  # not flushed by the test
        expected = target.read_bytes()
        if kind == "json":  # the export's own time differs; everything else is the same
            written = written.split(b'"exported_at"')[0] + written.split(b'"app_version"')[1]
            expected = expected.split(b'"exported_at"')[0] + expected.split(b'"app_version"')[1]
        assert written == expected

"""`main.py log add | list | export | import`: the contract of docs/architecture.md "Command line".

Most cases run `main.main()` in-process (the same parser and dispatch, faster); the ones about
what a real process prints on a failure run `python main.py` in a child."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from cli_support import log
from records_support import run_main

from main import main

RECORD_KEYS = {
    "id",
    "event",
    "created_at",
    "updated_at",
    "round",
    "table",
    "player",
    "infraction",
    "tier",
    "note",
    "recorded_by",
}


def log_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code, out, err = log(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_add_prints_the_record_and_its_repeats(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = log_json(capsys, "add", "--player", "山田太郎", "--infraction", "drew-extra-cards")
    assert set(first) == {"record", "repeat_of"}
    record = first["record"]
    assert set(record) == RECORD_KEYS
    assert record["tier"] == "warning"  # the infraction's own tier
    assert record["player"] == {"name": "山田太郎", "id": None}
    assert (record["round"], record["table"], record["note"]) == (None, None, None)
    assert first["repeat_of"] == []
    second = log_json(
        capsys,
        *("add", "--player", "山田 太郎", "--player-id", "0012", "--infraction"),
        *("drew-extra-cards", "--round", "3", "--table", "12", "--note", "2枚目"),
    )
    assert second["repeat_of"] == [record["id"]]
    assert second["record"]["tier"] == "warning"  # a repeat is flagged, never upgraded
    assert second["record"]["event"] == record["event"]  # the current event, both times
    assert (second["record"]["round"], second["record"]["table"]) == (3, "12")
    assert second["record"]["player"] == {"name": "山田 太郎", "id": "0012"}
    assert (data_dir / "penalty-log.sqlite3").is_file()


def test_add_says_repeat_in_words_and_names_the_higher_tier(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("add", "--player", "鈴木", "--infraction", "drew-extra-cards", "--round", "1")
    code, out, _ = log(capsys, *args)
    assert code == 0 and "repeat" not in out
    assert "1回戦 鈴木 警告：故意ではなく、過剰にカードを引いた" in out
    code, out, _ = log(capsys, *args)
    assert "repeat: 1 earlier record" in out
    assert "同一の違反を繰り返した場合、ジャッジはより上位の罰則を適用できる。" in out
    assert "Duel Forfeiture" in out and "unchanged" in out
    assert "（同一違反2回目）" in out


def test_tier_and_event_options(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    added = log_json(
        capsys,
        *("add", "--player", "佐藤", "--infraction", "drew-extra-cards"),
        *("--tier", "duel-forfeiture", "--event", "地区予選"),
    )["record"]
    assert (added["tier"], added["event"]) == ("duel-forfeiture", "地区予選")
    in_event = log_json(capsys, "list", "--event", "地区予選")["records"]
    assert [r["id"] for r in in_event] == [added["id"]]
    assert log_json(capsys, "list")["records"] == []  # the current event is another one


def test_list_is_oldest_first_and_filters_by_player(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = []
    for name, player_id in (("山田", "7"), ("鈴木", None), ("ＹＡＭＡＤＡ", None), ("山田", None)):
        extra = ("--player-id", player_id) if player_id else ()
        added = log_json(capsys, "add", "--player", name, *extra, "--infraction", "bribery")
        ids.append(added["record"]["id"])
    everything = log_json(capsys, "list")["records"]
    assert [r["id"] for r in everything] == ids
    assert all(set(r) == RECORD_KEYS for r in everything)
    by_name = log_json(capsys, "list", "--player", "山田")["records"]
    assert [r["id"] for r in by_name] == [ids[0], ids[3]]
    by_id = log_json(capsys, "list", "--player-id", "7")["records"]
    assert [r["id"] for r in by_id] == [ids[0]]
    assert log_json(capsys, "list", "--player", "誰も")["records"] == []
    code, out, _ = log(capsys, "list")
    assert code == 0 and out.count("\n") == 1 + 2 * len(ids)


def test_export_csv_and_json_then_import_on_another_device(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    names = ['山田, "太郎"', "佐藤\n花子"]
    for name in names:
        log_json(capsys, "add", "--player", name, "--infraction", "marked-no-pattern")
    code = main(["log", "export", "--format", "csv", "-o", str(tmp_path / "log.csv")])
    assert code == 0 and "exported 2 record(s)" in capsys.readouterr().out
    raw = (tmp_path / "log.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert [r["player_name"] for r in rows] == names
    assert main(["log", "export", "--format", "json", "-o", str(tmp_path / "log.json")]) == 0
    capsys.readouterr()
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path / "second-device"))
    report = log_json(capsys, "import", str(tmp_path / "log.json"))
    assert report == {"added": 2, "updated": 0, "unchanged": 0}
    again = log_json(capsys, "import", str(tmp_path / "log.json"))
    assert again == {"added": 0, "updated": 0, "unchanged": 2}
    assert [r["player"]["name"] for r in log_json(capsys, "list")["records"]] == names


@pytest.mark.process
def test_export_to_standard_output(data_dir: Path) -> None:
    added = run_main(["log", "add", "--player", "山田", "--infraction", "bribery"], data_dir)
    assert added.returncode == 0, added.stderr
    result = run_main(["log", "export", "--format", "json"], data_dir)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["format"] == "ocg-penalty-guide/penalty-log"
    assert [r["player"]["name"] for r in payload["records"]] == ["山田"]
    csv_result = run_main(["log", "export", "--format", "csv"], data_dir)
    assert csv_result.stdout.startswith("\ufeffrecord_id,")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("add", "--player", "山田", "--infraction", "no-such"), "unknown infraction id"),
        (("add", "--player", "山田", "--infraction", "bribery", "--tier", "x"), "unknown tier"),
        (("add", "--player", " ", "--infraction", "bribery"), "player.name: required"),
        (("add", "--player", "山田", "--infraction", "bribery", "--round", "0"), "round"),
        (("add", "--player", "山田", "--infraction", "bribery", "--round", "x"), "invalid int"),
        (("add", "--infraction", "bribery"), "--player"),
        (("list", "--player", "a", "--player-id", "1"), "not allowed with"),
        (("list", "--event", "ない大会"), "no event named"),
        (("export", "--format", "xml"), "invalid choice"),
        (("export",), "--format"),
        (("import",), "FILE"),
        ((), "add|list|export|import"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_a_nonzero_exit(
    data_dir: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    try:
        code = main(["log", *args])
    except SystemExit as exit_:  # argparse's errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert code == 2
    assert expected in captured.err
    assert captured.err.count("\n") == 1
    assert captured.out == ""


@pytest.mark.process
def test_import_failures_in_a_real_process(data_dir: Path, tmp_path: Path) -> None:
    missing = run_main(["log", "import", str(tmp_path / "none.json")], data_dir)
    assert missing.returncode == 1
    assert "cannot read the file" in missing.stderr
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": "world"}', encoding="utf-8")
    refused = run_main(["log", "import", str(foreign), "--json"], data_dir)
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: import refused: ")
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert refused.stdout == ""

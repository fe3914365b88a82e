"""Hostile imports (issue 21, items 3 and 4): whatever the bytes, whatever the file, an import
is one line and changes nothing, or it is a valid export and the log still reads; the reading
and the parsing are bounded in time and memory.

- JSON that ends the parser (100,000 nested [, a 5000-digit number), text that is not text
  (a lone surrogate from \\ud800), in a file, on the command line and pasted in the app;
- files that are not files (/dev/zero, a FIFO with no writer, a folder) and 50 MB of `{}`,
  each refused at once in a child whose address space is capped (the old code grew to
  gigabytes and died with MemoryError, or blocked for ever on the FIFO);
- `log add --player $'\\xff'` (bytes that are not UTF-8 in an argument)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_support import child_env, entry, synthetic_export

from records.csv_export import export_csv
from records.errors import LogError
from records.exchange import export_json, json_bytes, parse_export
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent
NESTED = "[" * 100_000
SURROGATE = '"山田\\ud800太郎"'
LONG_NUMBER = "1" * 5000


def valid_export() -> dict[str, Any]:
    return synthetic_export(3, "敵対的な大会")


def with_raw(payload: dict[str, Any], path: tuple[str | int, ...], raw: str) -> bytes:
    """The payload as JSON text with the value at `path` replaced by the raw JSON `raw`."""
    node: Any = payload
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "\x00HOSTILE\x00"
    text = json.dumps(payload, ensure_ascii=False)
    return text.replace('"\\u0000HOSTILE\\u0000"', raw, 1).encode("utf-8")


PLACES: list[tuple[str | int, ...]] = [
    ("format",),
    ("version",),
    ("event", "id"),
    ("event", "name"),
    ("event", "date"),
    ("event", "rounds"),
    ("records",),
    ("records", 0),
    ("records", 0, "id"),
    ("records", 0, "created_at"),
    ("records", 0, "updated_at"),
    ("records", 0, "round"),
    ("records", 0, "table"),
    ("records", 0, "note"),
    ("records", 0, "infraction"),
    ("records", 0, "tier"),
    ("records", 0, "deleted"),
    ("records", 0, "player"),
    ("records", 0, "player", "name"),
    ("records", 0, "player", "id"),
]

any_text = st.text(
    st.one_of(st.characters(), st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
    max_size=40,
)
hostile_raw = st.one_of(
    st.sampled_from(
        [
            NESTED,
            NESTED + "]" * 100_000,
            '{"a":' * 50_000 + "1" + "}" * 50_000,
            LONG_NUMBER,
            "-" + LONG_NUMBER,
            SURROGATE,
            '"\\udfff"',
            '"a\\ud83d"',
            "1e999999",
            "NaN",
            "-Infinity",
            "1.5",
            "[]",
            "{}",
            "null",
            "true",
            '"9999-12-31T23:59:59.999999+00:00"',
            '"0001-01-01T00:00:00-23:59"',
            '"0001-01-01T00:00:00+23:59"',
        ]
    ),
    any_text.map(lambda t: json.dumps(t, ensure_ascii=True)),
    st.integers(-(10**40), 10**40).map(str),
)


@pytest.fixture(scope="module")
def store(regulation: Regulation, tmp_path_factory: pytest.TempPathFactory):
    with LogStore.open(regulation, tmp_path_factory.mktemp("log") / DATABASE_NAME) as opened:
        event = opened.create_event("元からある大会")
        opened.add_record(event.id, entry("山田太郎"))
        yield opened


def everything(store: LogStore) -> list[tuple[str, tuple[Any, ...]]]:
    return [(event.name, store.records(event.id, include_deleted=True)) for event in store.events()]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(place=st.sampled_from(PLACES), raw=hostile_raw)
def test_any_hostile_value_anywhere_is_one_line_and_changes_nothing(
    store: LogStore, regulation: Regulation, place: tuple[str | int, ...], raw: str
) -> None:
    data = with_raw(valid_export(), place, raw)
    before = everything(store)
    try:
        store.merge(parse_export(data, regulation, "hostile.json"))
    except LogError as refused:
        message = str(refused)
        assert "\n" not in message and message.startswith("import refused: hostile.json: ")
        assert everything(store) == before
        return
    # Accepted: a valid export after all. The log still reads and exports whole.
    for event in store.events():
        exported = store.export_records(event.id)
        export_csv(*exported, regulation)
        json_bytes(export_json(*exported))


@pytest.mark.parametrize(
    ("place", "raw", "fault"),
    [
        (("records",), NESTED, "nested too deeply"),
        (("records", 0, "player", "name"), SURROGATE, "lone surrogate U+D800"),
        (("records", 0, "note"), '"\\udc00"', "lone surrogate U+DC00"),
        (("event", "name"), '"\\ud800"', "lone surrogate U+D800"),
        (("records", 0, "round"), LONG_NUMBER, "a number of 5,000 digits"),
    ],
)
def test_the_issues_hostile_imports_each_give_their_line(
    store: LogStore, regulation: Regulation, place: tuple[str | int, ...], raw: str, fault: str
) -> None:
    with pytest.raises(LogError) as refused:
        parse_export(with_raw(valid_export(), place, raw), regulation, "x.json")
    assert fault in str(refused.value) and "\n" not in str(refused.value)


# -- files that are not files, files too big: in a child with capped memory ------------------------

MEMORY_CAP = 768 * 1024 * 1024  # address space: the old code needed 1.4 to 2.6 GB here


def run_capped(args: list[str | bytes], data_dir: Path) -> subprocess.CompletedProcess[bytes]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=child_env(data_dir),
        capture_output=True,
        preexec_fn=cap,
        timeout=120,  # the FIFO: the old code blocked here for ever
    )


def a_fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


def fifty_mb_of_braces(folder: Path) -> Path:
    path = folder / "braces.json"
    path.write_bytes(b"[" + b"{}," * (50 * 1024 * 1024 // 3 - 1) + b"{}]")
    return path


def nested(folder: Path) -> Path:
    path = folder / "nested.json"
    path.write_text(NESTED)
    return path


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs and /dev/zero")
@pytest.mark.parametrize(
    ("make", "fault"),
    [
        (lambda folder: Path("/dev/zero"), "not a file (a folder, a device or a pipe)"),
        (a_fifo, "not a file (a folder, a device or a pipe)"),
        (lambda folder: folder, "not a file (a folder, a device or a pipe)"),
        (fifty_mb_of_braces, "more than 1,000,000 objects and lists"),
        (nested, "nested too deeply"),
    ],
    ids=["dev-zero", "fifo", "folder", "50-MB-of-braces", "nested"],
)
def test_an_import_reads_and_parses_within_bounds(
    tmp_path: Path, make: Callable[[Path], Path], fault: str
) -> None:
    data_dir = tmp_path / "data"
    run_capped(["log", "add", "--player", "山田太郎", "--infraction", "drew-extra-cards"], data_dir)
    log = data_dir / DATABASE_NAME
    before = log.read_bytes()
    result = run_capped(["log", "import", str(make(tmp_path))], data_dir)
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode in (1, 2), stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert fault in stderr
    assert log.read_bytes() == before


@pytest.mark.process
def test_an_argument_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    run_capped(["log", "add", "--player", "山田太郎", "--infraction", "drew-extra-cards"], data_dir)
    before = (data_dir / DATABASE_NAME).read_bytes()
    for args in (
        ["log", "add", "--player", b"\xff", "--infraction", "drew-extra-cards"],
        ["log", "add", "--player", "山田", "--note", b"\xe5\xb1", "--infraction", "late"],
        ["log", "list", "--player", b"\xff"],
        ["log", "list", "--event", b"\xff\xfe"],
        ["log", "export", "--format", "json", "--event", b"\xff"],
    ):
        result = run_capped(args, data_dir)
        stderr = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2, (args, stderr)
        assert stderr.count("\n") == 1 and "Traceback" not in stderr, (args, stderr)
        assert "not valid text" in stderr, (args, stderr)
    assert (data_dir / DATABASE_NAME).read_bytes() == before


# -- pasted in the app ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "raw"),
    [(("records",), NESTED), (("records", 0, "player", "name"), SURROGATE)],
    ids=["nested", "surrogate"],
)
def test_hostile_json_pasted_in_the_app_is_one_line(
    apps, regulation: Regulation, tmp_path: Path, monkeypatch, place, raw
) -> None:
    from views import routes

    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(tmp_path / "data"))
    app = apps()
    app.route(routes.LOG_EXCHANGE.link())
    pasted = with_raw(valid_export(), place, raw).decode("utf-8")
    app.type(app.find(ft.TextField, label="書き出した JSON を貼り付け"), pasted)
    app.click(app.find(ft.OutlinedButton, text="貼り付けた JSON を読み込む"))
    refusal = [
        t for t in app.texts() if t.startswith("読み込みませんでした（何も変更していません）：")
    ]
    assert len(refusal) == 1 and "\n" not in refusal[0], app.texts()
    with LogStore.open(regulation, tmp_path / "data" / DATABASE_NAME) as disk:
        assert all(not disk.records(e.id, include_deleted=True) for e in disk.events())

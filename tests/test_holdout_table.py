"""The blind second held-out table (tests/situation_holdout2.yaml, issue 19) can be run as it is.

The table is run against the search once, at the end, by the lead
(`bench/eval_search.py --table tests/situation_holdout2.yaml --split holdout`); these tests never
search with its rows. They check what would spoil that single run: a row the runner refuses, an
entry id the app does not have, a query counted twice, an entry with too few rows.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT_PATH = ROOT / "tests" / "situation_holdout2.yaml"


def _load_eval_search() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_search", ROOT / "bench" / "eval_search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("eval_search", module)
    spec.loader.exec_module(module)
    return module


eval_search = _load_eval_search()


def known_ids(regulation: Regulation) -> set[str]:
    return {entry.id for entry in regulation.entries()}


def holdout_table() -> dict[str, list[dict[str, object]]]:
    table = yaml.safe_load(HOLDOUT_PATH.read_text(encoding="utf-8"))
    assert isinstance(table, dict)
    return table


def test_the_blind_table_has_no_problem_the_runner_would_refuse(regulation: Regulation) -> None:
    assert eval_search.table_problems(HOLDOUT_PATH, known_ids(regulation)) == []


def test_every_row_is_held_out_and_no_query_is_counted_twice() -> None:
    rows = eval_search.load_rows(None, HOLDOUT_PATH)
    table = holdout_table()
    assert len(rows) == len(table["ja"]) + len(table["en"]) >= 150
    assert {row.split for row in rows} == {"holdout"}
    assert eval_search.repeated_queries(rows) == []
    assert len(eval_search.load_rows("holdout", HOLDOUT_PATH)) == len(rows)


def test_every_entry_is_the_answer_of_at_least_three_rows(regulation: Regulation) -> None:
    rows = eval_search.load_rows(None, HOLDOUT_PATH)
    answered = Counter(target for row in rows for target in row.targets)
    assert {entry_id for entry_id in known_ids(regulation) if answered[entry_id] < 3} == set()


def test_about_three_fifths_of_the_rows_are_japanese() -> None:
    table = holdout_table()
    share = len(table["ja"]) / (len(table["ja"]) + len(table["en"]))
    assert 0.5 <= share <= 0.7


def _write(path: Path, table: dict[str, list[dict[str, object]]]) -> Path:
    path.write_text(yaml.safe_dump(table, allow_unicode=True), encoding="utf-8")
    return path


def test_an_unknown_id_is_reported_with_its_row(tmp_path: Path, regulation: Regulation) -> None:
    table = holdout_table()
    table["en"][2] = {**table["en"][2], "targets": ["no-such-entry"]}
    problems = eval_search.table_problems(_write(tmp_path / "t.yaml", table), known_ids(regulation))
    assert problems == ["en row 3: unknown target 'no-such-entry'"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"kind": None}, "ja row 1: expected exactly the fields q, targets, split, kind"),
        ({"split": "tuned"}, "ja row 1: split must be one of tune, holdout"),
        ({"targets": []}, "ja row 1: targets must be a non-empty list"),
        ({"q": " "}, "ja row 1: q must be a non-empty string"),
    ],
)
def test_a_malformed_row_is_reported(
    tmp_path: Path, regulation: Regulation, change: dict[str, object], expected: str
) -> None:
    table = holdout_table()
    row = {**table["ja"][0], **change}
    table["ja"][0] = {key: value for key, value in row.items() if value is not None}
    problems = eval_search.table_problems(_write(tmp_path / "t.yaml", table), known_ids(regulation))
    assert problems == [expected]


def test_a_repeated_query_is_found(tmp_path: Path) -> None:
    table = holdout_table()
    table["en"].append(dict(table["en"][0]))
    rows = eval_search.load_rows(None, _write(tmp_path / "t.yaml", table))
    assert eval_search.repeated_queries(rows) == [table["en"][0]["q"]]


def test_the_runner_refuses_a_bad_table_without_searching(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path / "bad.yaml", {"ja": [{"q": "x", "targets": ["nope"]}], "en": []})
    assert eval_search.main(["--table", str(bad), "--split", "holdout"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"not run: {bad} has 2 problem(s)")


def test_the_table_option_picks_the_table_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two rows made up here (not the held-out table's): only the option is under test.
    def row(query: str) -> dict[str, object]:
        return {"q": query, "targets": ["deck-under-40-cards"], "split": "tune", "kind": "x"}

    small = {"ja": [row("デッキが39枚")], "en": [row("39-card deck")]}
    path = _write(tmp_path / "small.yaml", small)
    assert eval_search.main(["--table", str(path), "--split", "tune", "--figures-only"]) == 0
    first_line = capsys.readouterr().out.splitlines()[0]
    assert first_line == f"situation table {path}, split tune: 2 queries"

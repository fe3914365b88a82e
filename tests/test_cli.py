"""The command line's contract (docs/architecture.md "Command line").

Most checks call `main.main(argv)` in this process; a few run `main.py` as a judge's tools would
(the JSON contract, a pager that leaves, a full disk, a closed stdout, a legacy code page)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import main
from regulation.loader import load_regulation
from regulation.model import Infraction, Regulation
from regulation.search import SearchIndex

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, **options) -> subprocess.CompletedProcess[str]:
    """main.py in a process of its own; its output read as UTF-8 whatever the locale."""
    if "stdout" not in options:
        options["capture_output"] = True
    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        text=True,
        encoding="utf-8",
        timeout=60,
        **options,
    )


def call(capsys, *args: str) -> tuple[int, str, str]:
    """main.main(args) in this process: (exit status, stdout, stderr)."""
    try:
        status = main.main(list(args))
    except SystemExit as exited:
        status = exited.code if isinstance(exited.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def test_list_json_has_every_entry_in_document_order(regulation: Regulation, capsys) -> None:
    status, out, err = call(capsys, "list", "--json")
    assert status == 0, err
    # Readable as it is: indented, Japanese as itself rather than \u escapes.
    assert out.startswith('{\n  "entries": [\n    {\n      "id": "caution",\n')
    assert '"ja": "故意ではなく、過剰にカードを引いた"' in out
    entries = json.loads(out)["entries"]
    kinds = [e["kind"] for e in entries]
    assert kinds == ["tier"] * 6 + ["principle"] * 4 + ["infraction"] * 28
    assert [e["id"] for e in entries] == [e.id for e in regulation.entries()]
    for entry in entries:
        assert set(entry) == {"id", "kind", "title", "section", "category", "penalty", "text"}
        for field in ("title", "text"):
            assert entry[field]["ja"] and entry[field]["en"], (entry["id"], field)
            assert entry[field]["ja"] != entry[field]["en"], (entry["id"], field)
    drew = next(e for e in entries if e["id"] == "drew-extra-cards")
    assert drew["penalty"] == "warning"
    assert drew["category"] == "play"
    assert drew["section"] == {"ja": "ルールに関する違反", "en": "Rules Violations"}
    assert drew["text"]["ja"].startswith("罰則：警告\n")
    assert drew["text"]["en"].startswith("Penalty: Warning\n")
    assert entries[0]["section"] is None and entries[0]["penalty"] is None


def test_list_groups_by_category_and_section(capsys, regulation: Regulation) -> None:
    status, out, _ = call(capsys, "list")
    assert status == 0
    lines = [line.strip() for line in out.splitlines()]
    order = [
        "罰則ガイドライン / Penalty Guidelines",
        "== 罰則 / Penalties ==",
        "A  注意 / Caution  [caution]",
        "== 罰則の適用 / Applying Penalties ==",
        "- 本規定は指針 / These regulations are guidelines  [judge-discretion]",
        "== デッキ / Deck ==",
        "1. デッキに関する違反 / Deck Violations",
        "== デッキリスト / Deck List ==",
        "== プレイ / Play ==",
        "== 行為 / Conduct ==",
    ]
    positions = [lines.index(marker) for marker in order]
    assert positions == sorted(positions)
    drew = lines.index("[B 警告] 故意ではなく、過剰にカードを引いた")
    assert lines[drew + 1] == "Warning: Unintentionally drew extra cards  [drew-extra-cards]"
    listed = [line.rpartition("  [")[2][:-1] for line in lines if line.endswith("]")]
    assert sorted(listed) == sorted(entry.id for entry in regulation.entries())  # each once


def test_search_json_contract(capsys) -> None:
    status, out, err = call(capsys, "search", "drawing extra cards", "--json", "--limit", "3")
    assert status == 0, err
    payload = json.loads(out)
    assert payload["query"] == "drawing extra cards"
    results = payload["results"]
    assert 1 <= len(results) <= 3
    assert results[0]["id"] == "drew-extra-cards"
    assert results[0]["title"]["ja"] == "故意ではなく、過剰にカードを引いた"
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    # The engine's scores, to three decimals.
    hits = SearchIndex.build(load_regulation()).search("drawing extra cards", limit=3)
    assert scores == [round(hit.score, 3) for hit in hits]
    assert any(score != round(score, 2) for score in scores)


def test_search_finds_a_tier_by_its_japanese_name(capsys) -> None:
    payload = json.loads(call(capsys, "search", "マッチの敗北", "--json")[1])
    assert payload["results"][0]["id"] == "match-forfeiture"
    assert payload["results"][0]["kind"] == "tier"


def test_search_readable_output_shows_rank_penalty_and_both_titles(capsys) -> None:
    status, out, _ = call(capsys, "search", "ひきすぎ")
    assert status == 0
    first = out.splitlines()[0]
    assert first.startswith(" 1. [B 警告 / Warning] 故意ではなく、過剰にカードを引いた")
    assert "Unintentionally drew extra cards" in out.splitlines()[1]


@pytest.mark.parametrize(
    ("query", "lines"),
    [
        ("注意", [" 1. [tier A] 注意", "    Caution  (caution)"]),
        ("情状酌量", [
            " 1. [principle] 本規定は指針",
            "    These regulations are guidelines  (judge-discretion)",
        ]),
        ("zzzzqqqq", ["no results for 'zzzzqqqq'"]),
    ],
    ids=["tier", "principle", "nothing"],
)  # fmt: skip
def test_search_readable_output_badges_tiers_and_principles(capsys, query, lines) -> None:
    status, out, _ = call(capsys, "search", query, "--limit", "1")
    assert status == 0
    assert out.splitlines() == lines


@pytest.mark.parametrize("query", ["", "   ", "(((", "\x07\x1b[31m", "🂡" * 50, "\udcff"])
def test_strange_queries_answer_without_a_traceback(query: str, capsys) -> None:
    status, out, err = call(capsys, "search", query, "--json")
    assert status == 0 and err == ""
    assert isinstance(json.loads(out)["results"], list)


@pytest.mark.parametrize(
    "args",
    [("search",), ("search", "x", "--limit", "0"), ("search", "x", "--limit", "ten"), ("nope",)],
)
def test_bad_commands_get_one_line_and_a_nonzero_exit(args: tuple[str, ...], capsys) -> None:
    status, out, err = call(capsys, *args)
    assert status != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err


def test_version(capsys) -> None:
    status, out, _ = call(capsys, "--version")
    assert status == 0
    assert out.strip() == "ocg-penalty-guide 1.0.0"


@pytest.mark.process
def test_output_cut_short_by_a_pager_is_not_an_error() -> None:
    """Like `main.py list | head`: the reader is gone before the first write."""
    process = subprocess.Popen(
        [sys.executable, "main.py", "list", "--json"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


# -- finder --------------------------------------------------------------------------------


def _walk_finder_json(node: dict, depth: int, seen: set[str], results: list[str]) -> int:
    """Checks one NODE of the contract and everything below it; returns the deepest depth."""
    assert set(node) == {"id", "question", "options"}, node
    assert isinstance(node["id"], str) and node["id"] not in seen
    seen.add(node["id"])
    assert set(node["question"]) == {"ja", "en"}
    assert all(node["question"].values()), node["id"]
    assert len(node["options"]) >= 2, node["id"]
    deepest = depth
    for option in node["options"]:
        assert set(option) in ({"label", "next"}, {"label", "result"}, {"label", "none"}), option
        assert set(option["label"]) == {"ja", "en"} and all(option["label"].values()), option
        if "next" in option:
            deepest = max(deepest, _walk_finder_json(option["next"], depth + 1, seen, results))
        elif "none" in option:  # no infraction: the app's words why, in both languages
            assert set(option["none"]) == {"ja", "en"} and all(option["none"].values()), option
        else:
            assert isinstance(option["result"], str)
            results.append(option["result"])
    return deepest


def test_finder_json_contract(regulation: Regulation, capsys) -> None:
    status, out, err = call(capsys, "finder", "--json")
    assert status == 0, err
    payload = json.loads(out)
    assert set(payload) == {"root"}
    seen: set[str] = set()
    results: list[str] = []
    deepest = _walk_finder_json(payload["root"], 1, seen, results)
    assert deepest <= 4
    kinds = {e.id: e for e in regulation.entries()}
    for entry_id in results:  # every result is an infraction or principle of `list --json`
        assert entry_id in kinds, entry_id
        assert regulation.infraction(entry_id) or regulation.principle(entry_id), entry_id
    assert {i.id for i in regulation.infractions} <= set(results)


def test_finder_json_is_the_loaded_tree(regulation: Regulation, capsys) -> None:
    from regulation.finder import load_finder

    finder = load_finder(regulation)
    root = json.loads(call(capsys, "finder", "--json")[1])["root"]
    assert root["id"] == finder.root.id
    assert root["question"] == finder.root.question.as_dict()
    for option, expected in zip(root["options"], finder.root.options, strict=True):
        assert option["label"] == expected.label.as_dict()
        if expected.next is not None:
            assert option["next"]["id"] == expected.next.id
        else:
            assert expected.result is not None and option["result"] == expected.result.id


def test_finder_readable_tree_shows_both_languages_and_every_infraction(
    regulation: Regulation, capsys
) -> None:
    status, out, err = call(capsys, "finder")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("? 何についての問題ですか？")
    assert lines[1].strip() == "What is it about?"
    for infraction in regulation.infractions:
        assert f"({infraction.id})" in out, infraction.id
    drew = lines.index(next(line for line in lines if "(drew-extra-cards)" in line))
    assert lines[drew].strip().startswith("Warning: Unintentionally drew extra cards")
    assert "[B 警告] 故意ではなく、過剰にカードを引いた" in lines[drew - 1]
    indents = {len(line) - len(line.lstrip()) for line in lines if line.lstrip().startswith("?")}
    assert len(indents) >= 3, "nested questions are indented deeper"


def test_finder_readable_tree_nests_each_question_under_its_answer(
    regulation: Regulation, capsys
) -> None:
    """Four spaces deeper per question asked before; each answer under its question, then the
    question it leads to or the entry it ends on (penalty and title, or 原則 and label)."""
    from regulation.finder import load_finder

    finder = load_finder(regulation)
    lines = call(capsys, "finder")[1].splitlines()
    for node in finder.nodes():
        pad = "    " * len(finder.path_to(node.id))
        at = lines.index(f"{pad}? {node.question.ja}  [{node.id}]")
        assert lines[at + 1] == f"{pad}  {node.question.en}"
        answers = [line for line in lines[at + 2 :] if line.startswith(f"{pad}  - ")]
        for option in node.options:
            answer = f"{pad}  - {option.label.ja} / {option.label.en}"
            below = lines[lines.index(answer, at) + 1 :]
            assert answer in answers[: len(node.options)], answer
            entry = option.result
            if option.next is not None:
                assert below[0] == f"{pad}    ? {option.next.question.ja}  [{option.next.id}]"
            elif option.none is not None:
                assert below[:2] == [
                    f"{pad}      → 違反ではない: {option.none.text.ja}",
                    f"{pad}        No infraction: {option.none.text.en}",
                ]
            elif isinstance(entry, Infraction):
                tier = entry.penalty
                assert below[:2] == [
                    f"{pad}      → [{tier.letter} {tier.title.ja}] {entry.title.ja}",
                    f"{pad}        {tier.title.en}: {entry.title.en}  ({entry.id})",
                ]
            else:
                assert entry is not None
                assert below[:2] == [
                    f"{pad}      → [原則] {entry.label.ja}",
                    f"{pad}        Principle: {entry.label.en}  ({entry.id})",
                ]


def _app_with_finder(tmp_path: Path, old: str, new: str) -> Path:
    import shutil

    app = tmp_path / "app"
    for name in ("regulation", "locales", "assets"):
        shutil.copytree(ROOT / name, app / name, ignore=shutil.ignore_patterns("fonts"))
    shutil.copy(ROOT / "main.py", app / "main.py")
    tree = app / "assets" / "finder.yaml"
    text = tree.read_text(encoding="utf-8")
    assert old in text
    tree.write_text(text.replace(old, new, 1), encoding="utf-8")
    return app


@pytest.mark.process
@pytest.mark.parametrize("as_json", [True, False])
def test_finder_with_a_broken_tree_fails_in_one_line(tmp_path: Path, as_json: bool) -> None:
    app = _app_with_finder(tmp_path, "result: bribery\n", "result: brbery\n")

    def run_in_app(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args], cwd=app, capture_output=True, text=True, timeout=60
        )

    # Compiling refuses the tree, naming the file, the question and the fault…
    compiled = run_in_app("-m", "regulation.compile")
    assert compiled.returncode == 1
    faults = [line for line in compiled.stderr.strip().splitlines()]
    assert len(faults) == 1, compiled.stderr
    assert "finder.yaml: node 'result' option 2" in faults[0]
    assert "unknown entry 'brbery'" in faults[0]
    # …and the app's command refuses the edited tree that nobody compiled.
    result = run_in_app("main.py", *(["finder", "--json"] if as_json else ["finder"]))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "finder.yaml" in lines[0]
    assert "changed since finder.json was compiled" in lines[0]
    # the other commands do not need the tree
    listed = run_in_app("main.py", "list", "--json")
    assert listed.returncode == 0


def test_finder_bad_option_gets_one_line(capsys) -> None:
    status, out, err = call(capsys, "finder", "--jsn")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.process
@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("12分遅刻", "not-seated-10-minutes"),
        ("わざと多く引いた", "broke-rules-on-purpose"),
        ("ちこくした", "not-seated-5-minutes"),
    ],
)
def test_search_json_reads_situations(query: str, first: str) -> None:
    """Situation search through the command line: minutes, intent and kana reach the JSON."""
    result = run("search", query, "--json", "--limit", "3")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["query"] == query
    assert payload["results"][0]["id"] == first
    assert set(payload["results"][0]) == {
        *("id", "kind", "title", "section", "category", "penalty", "text", "score"),
    }


# -- output that cannot be written, or not in the console's encoding ----------------------------


@pytest.mark.process
@pytest.mark.parametrize("args", [("list",), ("list", "--json"), ("search", "slow play")])
def test_a_full_disk_is_one_line_and_a_nonzero_exit(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        result = run(*args, stdout=full, stderr=subprocess.PIPE)
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.process
def test_a_closed_stdout_is_one_line_and_a_nonzero_exit() -> None:
    result = subprocess.run(
        ["bash", "-c", 'exec "$0" main.py list >&-', sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the output: standard output is closed\n"


@pytest.mark.process
@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "cp932"])
def test_output_is_utf8_whatever_the_console(encoding: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    listed = run("list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "[B 警告] 故意ではなく、過剰にカードを引いた" in listed.stdout
    searched = run("search", "ひきすぎ", "--json", env=env)
    assert json.loads(searched.stdout)["query"] == "ひきすぎ"
    refused = run("search", "x", "--limit", "0", env={**env, "LANG": "C"})
    assert refused.stderr == "main.py search: argument --limit: must be 1 or more, not 0\n"

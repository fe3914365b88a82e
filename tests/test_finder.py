"""The infraction finder's tree: the real one is complete and sound judging, a broken one is
refused at load with one line naming the file, the question and the fault."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from regulation import finder as finder_module
from regulation.catalog import load_catalog
from regulation.compile import compile_checked
from regulation.data import compile_data, compiled_path
from regulation.finder import (
    FINDER_PATH,
    MAX_QUESTIONS,
    Finder,
    FinderLeaf,
    build_finder,
    load_finder,
)
from regulation.loader import RegulationError, load_regulation
from regulation.model import Infraction, Principle, Regulation, entry_title

ROOT = Path(__file__).resolve().parent.parent
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture(scope="module")
def raw_tree() -> dict[str, Any]:
    """The real tree as parsed YAML, for the tests to break one fault at a time."""
    return yaml.safe_load(FINDER_PATH.read_text(encoding="utf-8"))


def shortest_paths(finder: Finder) -> dict[str, FinderLeaf]:
    best: dict[str, FinderLeaf] = {}
    for leaf in finder.leaves():
        known = best.get(leaf.entry.id)
        if known is None or leaf.questions < known.questions:
            best[leaf.entry.id] = leaf
    return best


# -- the real tree ----------------------------------------------------------------------------


def test_every_infraction_is_reachable_within_four_questions(
    regulation: Regulation, finder: Finder
) -> None:
    best = shortest_paths(finder)
    lines = []
    for infraction in regulation.infractions:
        assert infraction.id in best, f"no path to {infraction.id}"
        leaf = best[infraction.id]
        assert leaf.questions <= MAX_QUESTIONS, (infraction.id, leaf.questions)
        answers = " › ".join(step.option.label.en for step in leaf.steps)
        lines.append(f"{leaf.questions}  {infraction.id:32} {answers}")
    print("\nshortest path per infraction (questions answered):\n" + "\n".join(lines))
    assert len(best.keys() & {i.id for i in regulation.infractions}) == 28


def test_no_path_asks_more_than_four_questions(finder: Finder) -> None:
    for node in finder.nodes():
        assert len(finder.path_to(node.id)) + 1 <= MAX_QUESTIONS, node.id
    assert max(leaf.questions for leaf in finder.leaves()) <= MAX_QUESTIONS


def test_every_leaf_is_an_existing_infraction_or_principle(
    regulation: Regulation, finder: Finder
) -> None:
    leaves = finder.leaves()
    assert leaves
    for leaf in leaves:
        entry = leaf.entry
        assert isinstance(entry, Infraction | Principle), entry
        assert regulation.entry(entry.id) is entry


def test_every_question_has_answers_that_each_go_one_way(finder: Finder) -> None:
    for node in finder.nodes():
        assert len(node.options) >= 2, node.id
        for option in node.options:
            ways = (option.next, option.result, option.none)
            assert sum(way is not None for way in ways) == 1, (node.id, option.label)


def test_every_question_and_answer_reads_in_both_languages(finder: Finder) -> None:
    catalog = load_catalog()
    texts = [node.question for node in finder.nodes()]
    texts += [option.label for node in finder.nodes() for option in node.options]
    assert len(texts) > 40
    for text in texts:
        assert JAPANESE.search(text.ja), text
        assert text.en == catalog.english(text.ja)
        assert not JAPANESE.search(text.en), text


def test_ids_are_unique_route_safe_and_each_question_has_one_path(finder: Finder) -> None:
    nodes = finder.nodes()
    ids = [node.id for node in nodes]
    assert len(ids) == len(set(ids))
    for node in nodes:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", node.id), node.id
        assert finder.node(node.id) is node
    targets = [o.next.id for n in nodes for o in n.options if o.next is not None]
    assert sorted(targets) == sorted(ids[1:]), "every question but the first follows one answer"
    assert finder.root.id not in targets


def test_breadcrumbs_walk_from_the_first_question_to_the_node(finder: Finder) -> None:
    assert finder.path_to(finder.root.id) == ()
    assert finder.parent(finder.root.id) is None
    for node in finder.nodes():
        path = finder.path_to(node.id)
        current = finder.root
        for step in path:
            assert step.node is current
            assert step.option in step.node.options
            assert step.option.next is not None
            current = step.option.next
        assert current is node
        if path:
            assert finder.parent(node.id) == path[-1]
    deep = max(finder.nodes(), key=lambda n: len(finder.path_to(n.id)))
    assert len(finder.path_to(deep.id)) >= 2


def test_nodes_come_depth_first_in_the_order_of_the_answers(finder: Finder) -> None:
    def depth_first(node) -> list[str]:
        below = [depth_first(o.next) for o in node.options if o.next is not None]
        return [node.id, *(node_id for ids in below for node_id in ids)]

    order = [node.id for node in finder.nodes()]
    assert order == depth_first(finder.root)
    assert order[0] == finder.root.id and len(order) > 3


def test_unknown_node_ids(finder: Finder) -> None:
    assert finder.node("no-such-question") is None
    with pytest.raises(KeyError, match="'no-such-question'"):
        finder.path_to("no-such-question")
    with pytest.raises(KeyError, match="'no-such-question'"):
        finder.parent("no-such-question")


def test_leaves_for_an_entry_come_fewest_questions_first(finder: Finder) -> None:
    repeated = [e for e, n in _leaf_counts(finder).items() if n > 1]
    assert repeated, "some entries are reached by more than one path"
    for entry_id in repeated:
        leaves = finder.leaves_for(entry_id)
        assert len(leaves) > 1
        assert all(leaf.entry.id == entry_id for leaf in leaves)
        counts = [leaf.questions for leaf in leaves]
        assert counts == sorted(counts)
    assert finder.leaves_for("no-such-entry") == ()


def _leaf_counts(finder: Finder) -> dict[str, int]:
    counts: dict[str, int] = {}
    for leaf in finder.leaves():
        counts[leaf.entry.id] = counts.get(leaf.entry.id, 0) + 1
    return counts


# -- judging: the answers agree with the regulation's own wording -----------------------------

ON_PURPOSE = "わざと"
NOT_ON_PURPOSE = ("わざとではない", "うっかり")


def answers(leaf: FinderLeaf) -> list[str]:
    return [step.option.label.ja for step in leaf.steps]


def test_intent_answers_lead_to_entries_of_that_intent(finder: Finder) -> None:
    """故意ではなく… entries only after an 'not on purpose' answer; 故意に… only after 'on
    purpose'; and no 'on purpose' answer ends on an entry that says 故意ではなく."""
    checked = 0
    for leaf in finder.leaves():
        entry = leaf.entry
        if not isinstance(entry, Infraction):
            continue
        said = answers(leaf)
        accidental = any(any(word in a for word in NOT_ON_PURPOSE) for a in said)
        deliberate = any(ON_PURPOSE in a and not a.startswith("わざとではない") for a in said)
        if entry.title.ja.startswith("故意ではなく"):
            assert accidental and not deliberate, (entry.id, said)
            checked += 1
        if entry.title.ja.startswith("故意に"):
            assert deliberate and not accidental, (entry.id, said)
            checked += 1
    assert checked >= 10


def test_drawing_or_looking_on_purpose_is_a_deliberate_rule_violation(finder: Finder) -> None:
    """The regulation names only the accidental draw and look; on purpose both are
    故意に、ルールに違反したプレイをした (broke-rules-on-purpose)."""
    for accidental_id in ("drew-extra-cards", "looked-at-extra-cards"):
        (leaf,) = finder.leaves_for(accidental_id)
        question = leaf.steps[-1].node
        siblings = {o.result.id for o in question.options if o.result is not None}
        assert "broke-rules-on-purpose" in siblings, (accidental_id, siblings)


def test_revealing_on_purpose_is_apart_from_seeing_by_accident(finder: Finder) -> None:
    (revealed,) = finder.leaves_for("revealed-hidden-information")
    (looked,) = finder.leaves_for("looked-at-extra-cards")
    assert "相手" in answers(revealed)[-1] and ON_PURPOSE in answers(revealed)[-1]
    assert "相手" not in answers(looked)[-1]


def test_marked_cards_answers_name_the_pattern_of_their_entry(finder: Finder) -> None:
    for entry_id in ("marked-with-pattern", "marked-no-pattern"):
        for leaf in finder.leaves_for(entry_id):
            assert answers(leaf)[-1] in entry_title(leaf.entry).ja, (entry_id, answers(leaf))


def test_minutes_late_answers_match_the_regulation_thresholds(finder: Finder) -> None:
    for entry_id in ("not-seated-5-minutes", "not-seated-10-minutes"):
        title = entry_title(finder.leaves_for(entry_id)[0].entry).ja
        threshold = re.search(r"(\d+)分経過", title)
        assert threshold
        for leaf in finder.leaves_for(entry_id):
            lower = re.search(r"(\d+)分以上", answers(leaf)[-1])
            assert lower and lower.group(1) == threshold.group(1), answers(leaf)
    under_five = [leaf for leaf in finder.leaves() if re.match(r"5分未満", answers(leaf)[-1])]
    assert under_five
    for leaf in under_five:  # under 5 minutes is only the event's assembly conditions
        assert leaf.entry.id == "assembly-conditions-not-met"
        assert "集合条件" in answers(leaf)[-1]


def test_penalty_demands_end_on_the_principles(finder: Finder) -> None:
    judges_only = finder.leaves_for("judges-only")
    excessive = finder.leaves_for("excessive-demands")
    assert judges_only and excessive
    assert judges_only[0].steps[-1].node is excessive[0].steps[-1].node


# -- the validator: each fault caught, in one line naming the file, the question, the fault ---


def write_tree(tmp_path: Path, tree: Any) -> Path:
    path = tmp_path / "finder.yaml"
    path.write_text(yaml.safe_dump(tree, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def node_of(tree: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n for n in tree["nodes"] if n["id"] == node_id)


def load_error(regulation: Regulation, path: Path) -> str:
    """The one-line fault of compiling the tree at `path` for the app (the compiler runs the
    app's own checks before it writes anything; `regulation` is the one they check against)."""
    with pytest.raises(RegulationError) as caught:
        compile_checked(path, lambda p, c: build_finder(p, c, regulation, load_catalog()))
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message
    return message


def broken(raw_tree: dict[str, Any], change) -> dict[str, Any]:
    tree = copy.deepcopy(raw_tree)
    change(tree)
    return tree


def compiled_tree(path: Path) -> Path:
    """Writes the compiled twin of the tree at `path` unchecked, as an older app could have."""
    content, _compiled = compile_data(path)
    compiled_path(path).write_bytes(content)
    return path


def test_an_unchanged_copy_loads(tmp_path: Path, regulation: Regulation, raw_tree) -> None:
    """The baseline of the tests below: only their one change breaks the tree."""
    copied = load_finder(regulation, path=compiled_tree(write_tree(tmp_path, raw_tree)))
    assert [n.id for n in copied.nodes()] == [n.id for n in load_finder(regulation).nodes()]


def _set_result(node_id: str, index: int, result: str):
    def change(tree: dict[str, Any]) -> None:
        option = node_of(tree, node_id)["options"][index]
        option.pop("next", None)
        option["result"] = result

    return change


def _add_chain(under: str, index: int, ids: list[str]):
    """Replace an answer's result by a chain of new questions (translated strings reused)."""

    def change(tree: dict[str, Any]) -> None:
        option = node_of(tree, under)["options"][index]
        ending = option.pop("result")
        option["next"] = ids[0]
        for position, node_id in enumerate(ids):
            follow = {"next": ids[position + 1]} if position + 1 < len(ids) else {"result": ending}
            tree["nodes"].append(
                {
                    "id": node_id,
                    "question": "わざと引きすぎましたか？",
                    "options": [
                        {"label": "わざと", **follow},
                        {"label": "わざとではない", "result": ending},
                    ],
                }
            )

    return change


def _remove_leaves(entry_id: str):
    def change(tree: dict[str, Any]) -> None:
        for node in tree["nodes"]:
            node["options"] = [o for o in node["options"] if o.get("result") != entry_id]

    return change


def _pop(node_id: str, key: str, index: int | None = None):
    def change(tree: dict[str, Any]) -> None:
        node = node_of(tree, node_id)
        (node if index is None else node["options"][index]).pop(key)

    return change


def _put(node_id: str, key: str, value: Any, index: int | None = None):
    def change(tree: dict[str, Any]) -> None:
        node = node_of(tree, node_id)
        (node if index is None else node["options"][index])[key] = value

    return change


def _twice(tree: dict[str, Any]) -> None:
    tree["nodes"].append(copy.deepcopy(node_of(tree, "deck-marks")))


def _cycle(tree: dict[str, Any]) -> None:
    _add_chain("topic", 1, ["loop-a", "loop-b"])(tree)
    node_of(tree, "loop-b")["options"][0] = {"label": "わざと", "next": "loop-a"}


def _orphan(tree: dict[str, Any]) -> None:
    tree["nodes"].append(copy.deepcopy(node_of(tree, "play-drew")) | {"id": "orphan"})


def _two_parents(tree: dict[str, Any]) -> None:
    node_of(tree, "people")["options"][0] = {"label": "デッキ・スリーブ", "next": "deck"}


def _root_as_next(tree: dict[str, Any]) -> None:
    node_of(tree, "deck-marks")["options"][0] = {"label": "規則性がある", "next": "topic"}


def _self_loop(tree: dict[str, Any]) -> None:
    node_of(tree, "deck-marks")["options"].append({"label": "わざと", "next": "deck-marks"})


def _mapping_option(tree: dict[str, Any]) -> None:
    node_of(tree, "deck-marks")["options"].append("わざと")


TRANSLATE = "(translate it in messages.po, then pybabel compile)"
CASES = [
    # (test id, change, where the message points, the fault it states)
    (
        "unknown-entry",
        _set_result("deck", 0, "deck-under-41-cards"),
        "node 'deck' option 1",
        "result names unknown entry 'deck-under-41-cards'",
    ),
    (
        "tier-as-result",
        _set_result("deck", 0, "warning"),
        "node 'deck' option 1",
        "result 'warning' is a penalty tier, not an infraction or principle",
    ),
    (
        "infraction-unreachable",
        _remove_leaves("bribery"),
        "tree",
        "no answer leads to infraction 'bribery'",
    ),
    (
        "options-not-a-list",
        _put("deck-marks", "options", "規則性がある"),
        "node 'deck-marks'",
        "'options' must be a list of answers",
    ),
    (
        "next-not-text",
        _put("deck", "next", 7, 4),
        "node 'deck' option 5",
        "field 'next' must be a non-empty string",
    ),
    (
        "result-empty",
        _put("deck-marks", "result", " ", 0),
        "node 'deck-marks' option 1",
        "field 'result' must be a non-empty string",
    ),
    (
        "two-infractions-unreachable",
        lambda t: (_remove_leaves("bribery")(t), _remove_leaves("deck-under-40-cards")(t)),
        "tree",
        "no answer leads to infraction 'deck-under-40-cards', 'bribery'",
    ),
    (
        "dead-end-one-answer",
        lambda t: node_of(t, "deck-marks")["options"].pop(),
        "node 'deck-marks'",
        "dead end: a question needs at least 2 answers, this one has 1",
    ),
    (
        "dead-end-no-answers",
        _put("deck-marks", "options", []),
        "node 'deck-marks'",
        "dead end: a question needs at least 2 answers, this one has 0",
    ),
    (
        "both-next-and-result",
        _put("deck-marks", "next", "play", 0),
        "node 'deck-marks' option 1",
        "needs exactly one of 'next' (a question) or 'result' (an entry), has both",
    ),
    (
        "neither-next-nor-result",
        _pop("deck-marks", "result", 1),
        "node 'deck-marks' option 2",
        "needs exactly one of 'next' (a question) or 'result' (an entry), has neither",
    ),
    (
        "five-questions",
        _add_chain("deck-marks", 0, ["deeper", "deepest"]),
        "node 'deepest'",
        "5 questions on the way (topic › deck › deck-marks › deeper › deepest); at most 4 allowed",
    ),
    ("duplicate-id", _twice, "node 'deck-marks'", "duplicate id 'deck-marks'"),
    (
        "id-uppercase",
        _put("deck-marks", "id", "Deck-Marks"),
        "node #3 'Deck-Marks'",
        "id must be lowercase ASCII letters and digits joined by '-'",
    ),
    (
        "id-japanese",
        _put("deck-marks", "id", "デッキ"),
        "node #3 'デッキ'",
        "id must be lowercase ASCII letters and digits joined by '-'",
    ),
    (
        "id-double-dash",
        _put("deck-marks", "id", "deck--marks"),
        "node #3 'deck--marks'",
        "id must be lowercase ASCII letters and digits joined by '-'",
    ),
    (
        "id-slash",
        _put("deck-marks", "id", "deck/marks"),
        "node #3 'deck/marks'",
        "id must be lowercase ASCII letters and digits joined by '-'",
    ),
    ("id-number", _put("deck-marks", "id", 7), "node #3", "field 'id' must be a non-empty string"),
    (
        "untranslated-label",
        _put("deck-marks", "label", "規則性が少しある", 0),
        "node 'deck-marks' option 1",
        f"label 「規則性が少しある」 has no English in the catalog {TRANSLATE}",
    ),
    (
        "untranslated-question",
        _put("deck-marks", "question", "模様はありますか？"),
        "node 'deck-marks'",
        f"question 「模様はありますか？」 has no English in the catalog {TRANSLATE}",
    ),
    (
        "empty-label",
        _put("deck-marks", "label", "  ", 0),
        "node 'deck-marks' option 1",
        "field 'label' must be a non-empty string",
    ),
    (
        "missing-question",
        _pop("deck-marks", "question"),
        "node 'deck-marks'",
        "missing required field 'question'",
    ),
    (
        "no-infraction-with-a-result",
        _put("deck-marks", "none", "規則性がある", 0),
        "node 'deck-marks' option 1",
        "'none' (no infraction) takes no 'next' or 'result'",
    ),
    (
        "no-infraction-blank",
        _put("time-late", "none", " ", 0),
        "node 'time-late' option 1",
        "field 'none' must be a non-empty string",
    ),
    (
        "unknown-option-key",
        _put("deck-marks", "lable", "規則性がある", 0),
        "node 'deck-marks' option 1",
        "unknown key 'lable' (allowed: label, next, result, none)",
    ),
    (
        "unknown-node-key",
        _put("deck-marks", "help", "x"),
        "node 'deck-marks'",
        "unknown key 'help' (allowed: id, question, options)",
    ),
    (
        "unknown-top-key",
        lambda t: t.update(version=2),
        "top level",
        "unknown key 'version' (allowed: root, nodes)",
    ),
    (
        "unknown-next",
        _put("deck", "next", "deck-markings", 4),
        "node 'deck' option 5",
        "next names unknown question 'deck-markings'",
    ),
    ("cycle", _cycle, "node 'loop-b' option 1", "cycle: loop-a → loop-b → loop-a"),
    ("self-loop", _self_loop, "node 'deck-marks' option 3", "cycle: deck-marks → deck-marks"),
    (
        "next-is-root",
        _root_as_next,
        "node 'deck-marks' option 1",
        "cycle: topic → deck → deck-marks → topic",
    ),
    (
        "two-parents",
        _two_parents,
        "node 'people' option 1",
        "question 'deck' already follows node 'topic' option 1; "
        "a question follows one answer only (copy it under a new id)",
    ),
    (
        "unreachable",
        _orphan,
        "node 'orphan'",
        "unreachable: no answer leads to it from the first question 'topic'",
    ),
    (
        "unknown-root",
        lambda t: t.update(root="start"),
        "top level",
        "root names unknown question 'start'",
    ),
    ("missing-root", lambda t: t.pop("root"), "top level", "missing required field 'root'"),
    (
        "no-nodes",
        lambda t: t.update(nodes=[]),
        "top level",
        "'nodes' must list at least one question",
    ),
    (
        "same-answer-twice",
        _put("deck-marks", "label", "規則性がある", 1),
        "node 'deck-marks' option 2",
        "two answers read 「規則性がある」",
    ),
    (
        "option-not-a-mapping",
        _mapping_option,
        "node 'deck-marks' option 3",
        "must be a mapping with a label and 'next' or 'result'",
    ),
    (
        "node-not-a-mapping",
        lambda t: t["nodes"].append("deck"),
        "node #17",
        "must be a mapping with id, question and options",
    ),
]


@pytest.mark.parametrize(
    ("change", "where", "fault"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_broken_tree_is_refused_in_one_line(
    tmp_path: Path, regulation: Regulation, raw_tree, change, where: str, fault: str
) -> None:
    path = write_tree(tmp_path, broken(raw_tree, change))
    assert load_error(regulation, path) == f"{path}: {where}: {fault}"


def test_yaml_syntax_error_names_the_line(tmp_path: Path, regulation: Regulation) -> None:
    path = tmp_path / "finder.yaml"
    text = FINDER_PATH.read_text(encoding="utf-8")
    assert "  - id: deck\n" in text
    path.write_text(text.replace("  - id: deck\n", "  - id: [deck\n", 1), encoding="utf-8")
    message = load_error(regulation, path)
    line = text.splitlines().index("  - id: deck") + 1
    assert "YAML syntax error" in message
    assert re.search(rf"line ({line}|{line + 1})\b", message), message


def test_not_a_mapping_or_missing(tmp_path: Path, regulation: Regulation) -> None:
    path = tmp_path / "finder.yaml"
    path.write_text("- topic\n- deck\n", encoding="utf-8")
    assert "top level: must be a mapping with 'root' and 'nodes'" in load_error(regulation, path)
    missing = tmp_path / "nowhere.yaml"
    assert "nowhere.yaml: No such file" in load_error(regulation, missing)


# -- one reader for every data file: the compiled twin, and no PyYAML at run time -------------


def test_the_finder_is_read_from_its_compiled_twin(monkeypatch, regulation) -> None:
    from regulation import data

    def no_yaml(*_args):
        raise AssertionError("the YAML was parsed at run time")

    monkeypatch.setattr(data, "parse_yaml", no_yaml)
    assert load_finder(regulation).root.id == "topic"


def test_the_compiler_checks_the_tree_and_names_its_file(tmp_path: Path, raw_tree) -> None:
    """`python -m regulation.compile`'s own check of finder.yaml (against the compiled
    regulation): the fault names the file."""
    from regulation.compile import check_finder

    path = write_tree(tmp_path, broken(raw_tree, _put("deck-marks", "id", "Deck-Marks")))
    with pytest.raises(RegulationError) as caught:
        compile_checked(path, check_finder)
    assert str(caught.value) == (
        f"{path}: node #3 'Deck-Marks': id must be lowercase ASCII letters and digits joined by '-'"
    )
    assert check_finder(FINDER_PATH, compile_data(FINDER_PATH)[1]) == load_finder(load_regulation())


def test_a_finder_equals_the_same_tree_from_the_same_file(
    tmp_path: Path, regulation: Regulation, finder: Finder
) -> None:
    """Value semantics, like the regulation's: a copy of the files loads an equal finder; the
    same questions compiled from other YAML bytes (a comment added) are another finder."""
    import shutil

    for name in ("finder.yaml", "finder.json"):
        shutil.copy(FINDER_PATH.with_name(name), tmp_path / name)
    again = load_finder(regulation, path=tmp_path / "finder.yaml")
    assert again == finder and hash(again) == hash(finder)
    assert finder != finder.root and finder != "finder"
    commented = tmp_path / "commented" / "finder.yaml"
    commented.parent.mkdir()
    commented.write_text("# …\n" + FINDER_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    other = load_finder(regulation, path=compiled_tree(commented))
    assert other.root == finder.root and other != finder


@pytest.mark.process
def test_the_app_never_imports_pyyaml() -> None:
    code = (
        "import sys\n"
        "from regulation.loader import load_regulation\n"
        "from regulation.finder import load_finder\n"
        "load_finder(load_regulation())\n"
        "print('yaml' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


# -- the app starts only with a sound tree ----------------------------------------------------


def test_the_app_does_not_start_with_a_broken_tree(tmp_path, monkeypatch, raw_tree) -> None:
    from views.app import app_data, main

    try:
        from flet_harness import FakeApp
    except ImportError:  # tests/ as a package
        from tests.flet_harness import FakeApp

    path = compiled_tree(write_tree(tmp_path, broken(raw_tree, _remove_leaves("bribery"))))
    monkeypatch.setattr(finder_module, "FINDER_PATH", path)
    app_data.cache_clear()  # the data is loaded once per process: this process's is the good one
    app = FakeApp.start(main, locale="ja-JP", prefs={})
    try:
        assert any("finder.yaml" in c and "'bribery'" in c for c in app.crashes), app.crashes
    finally:
        app.stop()
        monkeypatch.undo()
        app_data.cache_clear()

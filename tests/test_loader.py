"""The loader rejects broken data with one clear line naming the file, the place and the fault.

The model's checks run when the YAML is compiled (`python -m regulation.compile` refuses to write
data the app would refuse), so a broken YAML is compiled here, as a developer would, and its
fault must come out of that; tests/test_data.py covers the compiled file itself."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from regulation.catalog import load_catalog
from regulation.compile import check_regulation, compile_checked
from regulation.data import compile_data, compiled_path
from regulation.loader import RULES_PATH, RegulationError, load_regulation
from regulation.model import Regulation

ROOT = Path(__file__).resolve().parent.parent


def corrupted(tmp_path: Path, old: str, new: str) -> Path:
    text = RULES_PATH.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not in the data"
    path = tmp_path / "rules_ja.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def load_error(path: Path) -> RegulationError:
    """The one-line fault of compiling the YAML at `path` for the app."""
    with pytest.raises(RegulationError) as caught:
        compile_checked(path, check_regulation)
    assert "\n" not in str(caught.value)
    return caught.value


def test_real_data_loads_with_english(regulation: Regulation) -> None:
    drew = regulation.infraction("drew-extra-cards")
    assert drew is not None
    assert drew.penalty.id == "warning"
    assert drew.title.ja == "故意ではなく、過剰にカードを引いた"
    assert drew.title.en and drew.title.en != drew.title.ja


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = corrupted(tmp_path, "  - id: warning\n", "  - id: [warning\n")
    error = load_error(path)
    line = RULES_PATH.read_text(encoding="utf-8").splitlines().index("  - id: warning") + 1
    assert str(path) in str(error)
    assert "YAML syntax error" in str(error)
    assert f"line {line}" in str(error) or f"line {line + 1}" in str(error)
    assert "\n" not in str(error)


def test_unknown_tier_names_entry_and_tier(tmp_path: Path) -> None:
    path = corrupted(tmp_path, "penalty: warning\n", "penalty: yellow-card\n")
    error = load_error(path)
    assert str(path) in str(error)
    assert "infraction 'drew-extra-cards'" in str(error)
    assert "unknown tier 'yellow-card'" in str(error)


def test_duplicate_id(tmp_path: Path) -> None:
    error = load_error(corrupted(tmp_path, "id: looked-at-extra-cards", "id: drew-extra-cards"))
    assert "duplicate id 'drew-extra-cards'" in str(error)


def test_missing_required_field(tmp_path: Path) -> None:
    path = corrupted(tmp_path, "    title: 故意に、途中棄権した\n", "")
    error = load_error(path)
    assert "infraction 'withdrew-on-purpose'" in str(error)
    assert "missing required field 'title'" in str(error)


def test_unknown_section(tmp_path: Path) -> None:
    error = load_error(corrupted(tmp_path, "section: fraud", "section: frauds"))
    assert "unknown section 'frauds'" in str(error)


def test_wrong_type(tmp_path: Path) -> None:
    path = corrupted(
        tmp_path, "remedy:\n      - デッキをデッキリスト通りに修正する。", "remedy: 42"
    )
    error = load_error(path)
    assert "infraction 'deck-list-mismatch'" in str(error)
    assert "'remedy' must be a list" in str(error)


def test_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "rules_ja.yaml"
    path.write_text("- just\n- a list\n", encoding="utf-8")
    expected = "top level: must be a mapping with tiers, principles, sections …"
    assert str(load_error(path)) == f"{path}: {expected}"


def test_a_compiled_file_the_model_refuses_names_its_yaml(tmp_path: Path) -> None:
    """Data compiled by an older app (or by hand, without the checks) is checked at load."""
    path = corrupted(tmp_path, "penalty: warning\n", "penalty: yellow-card\n")
    content, _compiled = compile_data(path)  # compiled without the model's checks
    compiled_path(path).write_bytes(content)
    with pytest.raises(RegulationError) as caught:
        load_regulation(path)
    assert str(caught.value).startswith(f"{path}: infraction 'drew-extra-cards': ")


def test_an_unreadable_catalog_is_one_line_naming_it(tmp_path: Path, monkeypatch) -> None:
    from regulation import loader

    broken = tmp_path / "en" / "LC_MESSAGES" / "messages.mo"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a catalog")
    monkeypatch.setattr(loader, "load_catalog", lambda: load_catalog(tmp_path))
    with pytest.raises(RegulationError) as caught:
        loader.english_catalog()
    assert str(caught.value) == f"{broken}: catalog: [Errno 0] Bad magic number: '{broken}'"


@pytest.mark.parametrize(
    "bad", ["Drew-Extra-Cards", "drew_extra", "-drew", "drew--extra", "ｄｒｅｗ"]
)
def test_an_id_must_be_lowercase_ascii_words_joined_by_hyphens(tmp_path: Path, bad: str) -> None:
    """Ids are routes (/infractions/<id>) and stored bookmarks: one spelling each."""
    error = load_error(corrupted(tmp_path, "id: drew-extra-cards\n", f"id: {bad}\n"))
    assert f"infraction #7 '{bad}': id must be lowercase ASCII words and '-'" in str(error)


def test_aliases_have_only_japanese_and_english(tmp_path: Path) -> None:
    path = corrupted(
        tmp_path,
        "      en: [warning, warn,",
        "      fr: [avertissement]\n      en: [warning, warn,",
    )
    error = load_error(path)
    assert "tier 'warning': aliases may only have 'ja' and 'en', not ['fr']" in str(error)


def test_a_section_is_in_one_category_only(tmp_path: Path) -> None:
    path = corrupted(
        tmp_path,
        "sections: [deck-list-violations]",
        "sections: [deck-list-violations, marked-cards]",
    )
    error = load_error(path)
    assert "category 'deck-list': section 'marked-cards' is in two categories" in str(error)


def test_a_section_must_belong_to_a_category(tmp_path: Path) -> None:
    path = corrupted(
        tmp_path, "sections: [deck-violations, marked-cards]", "sections: [deck-violations]"
    )
    error = load_error(path)
    assert "section 'marked-cards': section belongs to no category" in str(error)


CAUTION_ALIASES = (
    "    aliases:\n      ja: [ちゅうい, 口頭注意, 注意処分, 一番軽い罰則, 最も軽い罰則]\n"
)

# (id, text of the data, its replacement, where and fault of the one line that refuses it)
FAULTS = [
    ("document-not-a-mapping", "document:\n  #", "document: [x]\nold-document:\n  #",
     "top level", "field 'document' must be a mapping"),
    ("document-label-missing", "  label: 罰則ガイドライン\n", "",
     "document", "missing required field 'label'"),
    ("tiers-not-a-list", "tiers:\n", "tiers: caution\nold-tiers:\n",
     "top level", "field 'tiers' must be a list"),
    ("tiers-empty", "tiers:\n", "tiers: []\nold-tiers:\n",
     "top level", "'tiers' must list at least one entry"),
    ("tier-not-a-mapping", "tiers:\n", "tiers:\n  - caution\n",
     "tier #1", "must be a mapping"),
    ("tier-letter-missing", "    letter: A\n", "",
     "tier 'caution'", "missing required field 'letter'"),
    ("tier-title-blank", "    title: 注意\n", "    title: '  '\n",
     "tier 'caution'", "field 'title' must be a non-empty string"),
    ("tier-title-a-number", "    title: 注意\n", "    title: 5\n",
     "tier 'caution'", "field 'title' must be a non-empty string"),
    ("tier-points-missing", "    points:\n      - 注意は", "    old-points:\n      - 注意は",
     "tier 'caution'", "missing required field 'points'"),
    ("aliases-not-a-mapping", CAUTION_ALIASES, "    aliases: [ちゅうい]\n    old:\n      ja: [x]\n",
     "tier 'caution'", "field 'aliases' must be a mapping"),
    ("japanese-alias-blank", "      ja: [ちゅうい, 口頭注意,", "      ja: ['', 口頭注意,",
     "tier 'caution'", "every item of 'ja' must be a non-empty string"),
    ("english-alias-a-number", "      en: [caution, reminder,", "      en: [caution, 5,",
     "tier 'caution'", "every item of 'en' must be a non-empty string"),
    ("principle-label-missing", "      label: 本規定は指針\n", "",
     "principle 'judge-discretion'", "missing required field 'label'"),
    ("principle-text-blank", "      text: 本規定は指針であり", "      text: ' '\n      old: 本規定",
     "principle 'judge-discretion'", "field 'text' must be a non-empty string"),
    ("principle-alias-key", "        ja: [情状酌量,", "        fr: [x]\n        ja: [情状酌量,",
     "principle 'judge-discretion'", "aliases may only have 'ja' and 'en', not ['fr']"),
    ("principle-situation-blank", "        - 状況を考慮", "        - ''\n        - 状況を考慮",
     "principle 'judge-discretion'", "every item of 'situations' must be a non-empty string"),
    ("category-label-missing", "    label: デッキ\n", "",
     "category 'deck'", "missing required field 'label'"),
    ("category-sections-missing", "    sections: [deck-list-violations]\n", "",
     "category 'deck-list'", "missing required field 'sections'"),
    ("section-heading-not-a-bool", "    heading_in_source: true\n", "    heading_in_source: 1\n",
     "section 'deck-violations'", "field 'heading_in_source' must be true or false"),
    ("duplicate-id", "id: looked-at-extra-cards", "id: drew-extra-cards",
     "infraction #8 'drew-extra-cards'", "duplicate id 'drew-extra-cards'"),
    ("document-text-as-of-missing", '  text_as_of: "2026-11"\n', "",
     "document", "missing required field 'text_as_of'"),
    ("penalty-label-missing", "  penalty_label: 罰則：\n", "",
     "document", "missing required field 'penalty_label'"),
    ("document-source-a-number", "  source: regulation/", "  source: 5\n  old: regulation/",
     "document", "field 'source' must be a non-empty string"),
    ("principles-not-a-mapping", "principles:\n", "principles: [x]\nold-principles:\n",
     "top level", "field 'principles' must be a mapping"),
    ("principles-heading-missing", "  heading: 罰則の適用\n", "",
     "principles", "missing required field 'heading'"),
    ("principles-empty", "  items:\n    - id: judge-discretion", "  items: []\n  old:\n    - id: x",
     "principles", "'items' must list at least one entry"),
    ("categories-empty", "categories:\n", "categories: []\nold-categories:\n",
     "top level", "'categories' must list at least one entry"),
    ("category-unknown-section", "sections: [deck-violations, marked-cards]",
     "sections: [deck-violations, marked-cards, ghost]",
     "category 'deck'", "unknown section 'ghost'"),
    ("sections-empty", "sections:\n  - id: deck-violations", "sections: []\nold:\n  - id: x",
     "top level", "'sections' must list at least one entry"),
    ("section-letter-a-number", "    letter: A\n    title: デッキに関する違反",
     "    letter: 1\n    title: デッキに関する違反",
     "section 'deck-violations'", "field 'letter' must be a non-empty string"),
    ("section-title-missing", "    title: デッキに関する違反\n", "",
     "section 'deck-violations'", "missing required field 'title'"),
    ("infractions-empty", "infractions:\n", "infractions: []\nold-infractions:\n",
     "top level", "'infractions' must list at least one entry"),
    ("infraction-section-missing", "    section: deck-violations\n    title: デッキが40枚未満",
     "    title: デッキが40枚未満",
     "infraction 'deck-under-40-cards'", "missing required field 'section'"),
    ("infraction-unknown-section", "section: fraud\n", "section: frauds\n",
     "infraction 'false-result-report'", "unknown section 'frauds'"),
    ("example-blank", "      - 一例：「１ターン中", "      - ''\n      - 一例：「１ターン中",
     "infraction 'intentional-slow-play'", "every item of 'examples' must be a non-empty string"),
    ("section-titles-need-section-not-a-bool", "    titles_need_section: true ",
     "    titles_need_section: 1 ",
     "section 'marked-cards'", "field 'titles_need_section' must be true or false"),
    ("section-aliases-not-a-mapping", "    aliases:\n      ja: [デッキ違反",
     "    aliases: [x]\n    old:\n      ja: [デッキ違反",
     "section 'deck-violations'", "field 'aliases' must be a mapping"),
    ("infraction-aliases-not-a-mapping", "    aliases:\n      ja: [マーク, マークド, 規則性あり",
     "    aliases: [x]\n    old:\n      ja: [マーク, マークド, 規則性あり",
     "infraction 'marked-with-pattern'", "field 'aliases' must be a mapping"),
    ("infraction-penalty-missing",
     "    title: デッキが40枚未満である\n    penalty: duel-forfeiture\n",
     "    title: デッキが40枚未満である\n",
     "infraction 'deck-under-40-cards'", "missing required field 'penalty'"),
    ("note-blank", "    notes:\n      - ※カードスリーブ・プロテクターを使用しない",
     "    notes:\n      - ''\n      - ※カードスリーブ・プロテクターを使用しない",
     "infraction 'marked-with-pattern'",
     "every item of 'notes' must be a non-empty string"),
    ("infraction-id-missing", "  - id: deck-under-40-cards\n    section:", "  - section:",
     "infraction #1", "missing required field 'id'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("old", "new", "where", "fault"), [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS]
)
def test_a_fault_in_the_data_is_one_line_naming_the_place(
    tmp_path: Path, old: str, new: str, where: str, fault: str
) -> None:
    path = corrupted(tmp_path, old, new)
    assert str(load_error(path)) == f"{path}: {where}: {fault}"


def test_optional_fields_may_be_left_out(tmp_path: Path) -> None:
    """No aliases, no section letter, no document source, notes without examples: all load."""
    text = RULES_PATH.read_text(encoding="utf-8")
    for old, new in (
        (
            CAUTION_ALIASES
            + "      en: [caution, reminder, lightest penalty, least severe penalty]\n",
            "",
        ),
        ("    letter: A\n    title: デッキに関する違反", "    title: デッキに関する違反"),
        ("  source: regulation/source/penalty_guidelines_ja.txt\n", ""),
        ("    examples:\n      - 一例", "    notes:\n      - 一例"),
    ):
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "rules_ja.yaml"
    path.write_text(text, encoding="utf-8")
    content, _compiled = compile_checked(path, check_regulation)
    compiled_path(path).write_bytes(content)
    regulation = load_regulation(path)
    caution, slow = regulation.tier("caution"), regulation.infraction("intentional-slow-play")
    section = regulation.section("deck-violations")
    assert caution is not None and caution.aliases.all() == ()
    assert section is not None and section.letter is None
    assert slow is not None and slow.examples == () and len(slow.notes) == 1


def copy_app(tmp_path: Path) -> Path:
    app = tmp_path / "app"
    for name in ("regulation", "locales", "assets"):
        shutil.copytree(ROOT / name, app / name, ignore=shutil.ignore_patterns("fonts"))
    shutil.copy(ROOT / "main.py", app / "main.py")
    return app


def run_in(app: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=app, capture_output=True, text=True, timeout=60
    )


def assert_one_line(result: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert all(part in lines[0] for part in parts), lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.process
@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("  - id: warning\n", "  - id: [warning\n", "YAML syntax error"),
        ("penalty: warning\n", "penalty: yellow-card\n", "unknown tier 'yellow-card'"),
    ],
)
def test_broken_yaml_is_refused_by_the_app_and_by_the_compiler(
    tmp_path: Path, old: str, new: str, fault: str
) -> None:
    """A judge's machine with an edited YAML: the app names the file and the command to run;
    that command names the fault and leaves the compiled data as it was."""
    app = copy_app(tmp_path)
    rules = app / "assets" / "rules_ja.yaml"
    compiled_before = rules.with_suffix(".json").read_bytes()
    rules.write_text(rules.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")

    listed = run_in(app, "main.py", "list")
    assert_one_line(listed, "rules_ja.yaml", "changed since", "python -m regulation.compile")

    compiled = run_in(app, "-m", "regulation.compile")
    assert compiled.returncode != 0
    lines = compiled.stderr.strip().splitlines()
    assert len(lines) == 1 and "rules_ja.yaml" in lines[0] and fault in lines[0], compiled.stderr
    assert "Traceback" not in compiled.stderr
    assert rules.with_suffix(".json").read_bytes() == compiled_before


FIRST_BRIBERY_SITUATION = "      - 勝ちを譲ってくれたらお金を払う、と持ちかけた\n"


@pytest.mark.parametrize("bad", ["[nested]", "''"])
def test_every_situation_must_be_a_non_empty_string(tmp_path: Path, bad: str) -> None:
    error = load_error(corrupted(tmp_path, FIRST_BRIBERY_SITUATION, f"      - {bad}\n"))
    assert "infraction 'bribery'" in str(error)
    assert "every item of 'situations' must be a non-empty string" in str(error)


def test_a_situation_listed_twice_is_refused(tmp_path: Path) -> None:
    twice = FIRST_BRIBERY_SITUATION * 2
    error = load_error(corrupted(tmp_path, FIRST_BRIBERY_SITUATION, twice))
    assert "infraction 'bribery'" in str(error)
    assert "situation listed twice: 勝ちを譲ってくれたらお金を払う、と持ちかけた" in str(error)

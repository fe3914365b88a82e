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

from regulation.compile import check_regulation, compile_checked
from regulation.loader import RULES_PATH, RegulationError
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
    assert "must be a mapping" in str(load_error(path))


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

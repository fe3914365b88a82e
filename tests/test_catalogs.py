"""The English catalog is complete, clean, compiled and in step with the data and the code."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from regulation.catalog import LOCALES_DIR, MissingTranslation, load_catalog
from regulation.extract import extract_regulation_yaml
from regulation.model import Regulation, Text

ROOT = Path(__file__).resolve().parent.parent
PO_PATH = LOCALES_DIR / "en" / "LC_MESSAGES" / "messages.po"
MO_PATH = PO_PATH.with_suffix(".mo")
# Kana, CJK ideographs, CJK and full-width punctuation: none of it belongs in English text.
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.fixture(scope="module")
def po_catalog():
    with PO_PATH.open("rb") as fp:
        return read_po(fp)


def messages(catalog):
    return [m for m in catalog if m.id]


def msgstrs(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def test_every_message_is_translated(po_catalog) -> None:
    untranslated = [m.id for m in messages(po_catalog) if not all(msgstrs(m))]
    assert not untranslated, f"untranslated: {untranslated}"


def test_no_fuzzy_translation(po_catalog) -> None:
    fuzzy = [m.id for m in messages(po_catalog) if m.fuzzy]
    assert not fuzzy, f"fuzzy: {fuzzy}"


def test_no_japanese_left_in_english(po_catalog) -> None:
    leftovers = [(m.id, s) for m in messages(po_catalog) for s in msgstrs(m) if JAPANESE.search(s)]
    assert not leftovers, f"Japanese characters in English: {leftovers}"


def test_placeholders_survive_translation(po_catalog) -> None:
    for message in messages(po_catalog):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set(PLACEHOLDER.findall(ids[0]))
        for string in msgstrs(message):
            assert set(PLACEHOLDER.findall(string)) == expected, (message.id, string)


def test_compiled_catalog_matches_its_source(po_catalog) -> None:
    """The committed .mo is what `pybabel compile` makes of the .po (run it after editing)."""
    fresh = io.BytesIO()
    write_mo(fresh, po_catalog)
    fresh.seek(0)
    with MO_PATH.open("rb") as fp:
        committed = read_mo(fp)
    compiled = read_mo(fresh)
    as_dict = lambda c: {(m.context, m.id): m.string for m in c if m.id}  # noqa: E731
    assert as_dict(committed) == as_dict(compiled), "run: pybabel compile -d locales"


# The tests that read the extraction (2-3 s of CPU) run on one worker, which makes it once.
ONE_EXTRACTION = pytest.mark.xdist_group("extracted_messages")


@ONE_EXTRACTION
def test_catalog_holds_every_extracted_string(po_catalog, extracted_messages) -> None:
    """What `pybabel extract` finds in the data and the code is in the catalog (no stale .po)."""
    extracted = {
        (context, message) for _file, _line, message, _comments, context in extracted_messages
    }
    in_catalog = {(m.context, m.id) for m in messages(po_catalog)}
    missing = sorted(str(m) for m in extracted - in_catalog)
    assert not missing, f"run pybabel extract + update; not in the catalog: {missing}"


def test_regulation_strings_come_out_in_english(regulation: Regulation) -> None:
    catalog = load_catalog()
    texts = [t.title for t in regulation.tiers] + [i.title for i in regulation.infractions]
    for text in texts:
        assert text.en == catalog.english(text.ja)
        assert not JAPANESE.search(text.en), text


def test_one_japanese_word_with_two_meanings_gets_two_translations() -> None:
    """分類 is both the Categories tab and an infraction's category (pgettext contexts)."""
    from views import strings as S

    catalog = load_catalog()
    navigation, location = catalog.text(S.NAV_CATEGORIES), catalog.text(S.LOCATION)
    assert navigation.ja == location.ja == "分類"
    assert (navigation.en, location.en) == ("Categories", "Category")


@ONE_EXTRACTION
def test_the_extractor_finds_every_finder_question_and_answer(
    regulation: Regulation, extracted_messages
) -> None:
    """babel.cfg maps assets/finder.yaml, so the catalog tests above cover the finder too: its
    questions and answers (not its ids or results) come out, each tagged with its question."""
    from regulation.finder import load_finder

    finder = load_finder(regulation)
    found = [
        (message, comments)
        for file, _line, message, comments, _context in extracted_messages
        if file == "assets/finder.yaml"
    ]
    expected = {node.question.ja for node in finder.nodes()}
    expected |= {option.label.ja for node in finder.nodes() for option in node.options}
    expected |= {o.none.text.ja for node in finder.nodes() for o in node.options if o.none}
    assert {message for message, _comments in found} == expected
    node_ids = {node.id for node in finder.nodes()}
    assert all(comments and comments[0] in node_ids for _message, comments in found), found


def test_a_string_the_catalog_lacks_shows_its_japanese() -> None:
    """An untranslated sentence (a revision not yet translated) shows the Japanese in English
    mode instead of stopping the app; only `english` insists on a translation."""
    catalog = load_catalog()
    missing = "カタログにない文"
    assert missing not in catalog and catalog.lookup(missing) is None
    assert catalog.text(missing) == Text(missing, missing)
    assert catalog.text(f"navigation\x04{missing}") == Text(missing, missing)
    with pytest.raises(MissingTranslation, match=f"^{missing}$"):
        catalog.english(missing)
    assert "注意" in catalog and catalog.english("注意") == catalog.lookup("注意") == "Caution"


SAMPLE_YAML = """\
document:
  label: 罰則ガイドライン
tiers:
  - id: caution
    title: 注意
    points:
      - 一つ目
      - 二つ目
    aliases:
      ja: [ちゅうい]
infractions:
  - id: bribery
    section: fraud
    title: 買収
"""


def test_the_extractor_yields_each_string_with_its_line_and_entry() -> None:
    """What `pybabel extract` puts in the template: every string people read (list items
    too), on its own line, tagged with the id of the entry it belongs to; never ids,
    aliases or cross-references."""
    found = list(extract_regulation_yaml(io.BytesIO(SAMPLE_YAML.encode()), (), (), {}))
    assert found == [
        (2, None, "罰則ガイドライン", []),
        (5, None, "注意", ["caution"]),
        (7, None, "一つ目", ["caution"]),
        (8, None, "二つ目", ["caution"]),
        (14, None, "買収", ["bribery"]),
    ]

"""Write assets/readings.json: the hiragana readings of the data's Japanese, for search.

    .venv/bin/python scripts/build_readings.py          # after changing assets/rules_ja.yaml

A judge types ちこくした or あいてのてふだをみた; the text says 遅刻 and 相手の手札. The search
matches such queries against readings, which a morphological analyzer (SudachiPy with its core
dictionary) gives. The analyzer is a development tool only: this script runs it and the result
is committed, so the app reads plain JSON at run time and needs no new dependency.
tests/test_readings.py regenerates the file in memory and fails when the committed one differs.

The file holds, for every Japanese string that search indexes and that has kanji, its reading
(`strings`: text → reading; kanji words read, everything else kept as written). A mixed query
(相手のてふだ) meets the text through both: pairs of the text and pairs of its reading.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation, entry_title  # noqa: E402
from regulation.normalize import KANJI_PATTERN  # noqa: E402
from regulation.paths import READINGS_PATH  # noqa: E402

FORMAT = 1


def japanese_strings(regulation: Regulation) -> Iterator[str]:
    """Every Japanese string the search index holds (regulation.search: the documents)."""
    for entry in regulation.entries():
        yield entry_title(entry).ja
        yield regulation.body(entry, "ja")
        yield from entry.aliases.ja
        yield from (situation.ja for situation in getattr(entry, "situations", ()))
    for section in regulation.sections:
        yield section.title.ja
        yield from section.aliases.ja


def katakana_to_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def build(regulation: Regulation) -> dict:
    from sudachipy import Dictionary, SplitMode  # a development dependency (the test extra)

    tokenizer = Dictionary(dict="core").tokenizer(mode=SplitMode.C)
    strings: dict[str, str] = {}
    for text in japanese_strings(regulation):
        if text in strings or not KANJI_PATTERN.search(text):
            continue
        pieces = []
        # Line by line: the analyzer drops line breaks, which separate paragraphs in a body.
        for line in text.split("\n"):
            read = []
            for morpheme in tokenizer.tokenize(line):
                surface = morpheme.surface()
                if KANJI_PATTERN.search(surface) and morpheme.reading_form():
                    read.append(katakana_to_hiragana(morpheme.reading_form()))
                else:
                    read.append(surface)
            pieces.append("".join(read))
        strings[text] = "\n".join(pieces)
    return {
        "format": FORMAT,
        "analyzer": "SudachiPy + sudachidict_core",
        "strings": dict(sorted(strings.items())),
    }


def render(readings: dict) -> str:
    return json.dumps(readings, ensure_ascii=False, indent=0, sort_keys=False) + "\n"


def main() -> int:
    READINGS_PATH.write_text(render(build(load_regulation())), encoding="utf-8")
    print(f"wrote {READINGS_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

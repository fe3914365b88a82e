"""Text folding and English word forms for search: what makes two spellings "the same".

Folding turns any string into a search form: NFKC (full-width and half-width forms, half-width
katakana), case folding, katakana as hiragana, the long-vowel mark ー removed (so スロープレイ,
スロプレイ and すろーぷれい meet), apostrophes removed (doesn't → doesnt), punctuation (but
the colon of 4:59), symbols, controls and emoji as spaces (a line break stays one: it separates
fields folded together),
invisible marks dropped. The index and the query go through the same function, and
`fold_with_offsets` also says where each folded character came from, so that a match found in the
folded form can be highlighted in the original.

English words are compared by a small stem (`stem`) and, for typos, by one edit
(`within_one_edit`). Japanese needs neither: it is matched by substrings and character pairs.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

VOICING_MARKS = "\u3099\u309a"  # combining dakuten / handakuten, what ﾞ and ﾟ become under NFKC
_KATAKANA_FIRST, _KATAKANA_LAST = 0x30A1, 0x30F6  # ァ … ヶ: each is its hiragana + 0x60
_DROPPED = frozenset("ー'’`")  # the long-vowel mark and apostrophes
_KEPT = frozenset(":")  # minutes:seconds (4:59) is read as a time (regulation.quantities)
_INVISIBLE_CATEGORIES = frozenset({"Mn", "Me", "Cf"})  # combining marks, ZWJ, variation selectors
# Table cache bound: the folding of each character ever seen is remembered, but a stream of
# random text (a pasted log, a fuzzer) must not grow it without end.
_MAX_CACHED_CHARS = 20_000

# A word of English (or any Latin script) and digits, in folded text.
WORD_PATTERN = re.compile(r"[0-9a-z\u00df-\u024f]+")

# The Japanese scripts, as regular-expression character ranges: defined here once.
HIRAGANA_CHARS = "\u3041-\u309f"  # ぁ … ゟ, with the iteration marks ゝゞ
KATAKANA_CHARS = "\u30a0-\u30ff"  # ゠ァ … ヿ, with the long-vowel mark ー
KANJI_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆"  # CJK ideographs, 々 and 〆
HIRAGANA_PATTERN = re.compile(f"[{HIRAGANA_CHARS}]+")
KATAKANA_PATTERN = re.compile(f"[{KATAKANA_CHARS}]+")
KANJI_PATTERN = re.compile(f"[{KANJI_CHARS}]")
JAPANESE_PATTERN = re.compile(f"[{HIRAGANA_CHARS}{KATAKANA_CHARS}{KANJI_CHARS}]")


def _fold_char(char: str) -> str:
    """What one character of the original becomes in the search form."""
    folded: list[str] = []
    for part in unicodedata.normalize("NFKC", char).casefold():
        code = ord(part)
        if _KATAKANA_FIRST <= code <= _KATAKANA_LAST:
            part = chr(code - 0x60)
        if part in _DROPPED:
            continue
        if part in VOICING_MARKS:
            folded.append(part)  # composed with the previous character in a second pass
            continue
        category = unicodedata.category(part)
        if category in _INVISIBLE_CATEGORIES:
            continue
        if part == "\n" or part in _KEPT:
            folded.append(part)  # a line break tells apart several fields folded at once
        elif category[0] in "PSZC":
            folded.append(" ")  # punctuation, symbols (emoji too), separators, controls
        else:
            folded.append(part)
    return "".join(folded)


class _FoldTable(dict):
    """`str.translate` table computed on first sight of each character: C-speed folding."""

    def __missing__(self, code: int) -> str:
        folded = _fold_char(chr(code))
        if len(self) < _MAX_CACHED_CHARS:
            self[code] = folded
        return folded


_TABLE = _FoldTable()


@dataclass(frozen=True, slots=True)
class Folded:
    """A string in search form, and where each of its characters came from in the original.

    `starts[k]` and `ends[k]` bound the original characters that folded character `k` came
    from; both are None when folding kept every character in place (the common case).
    """

    text: str
    original_length: int
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The [start, end) of the original that folded [start, end) (end > start) came from."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def fold(text: str) -> str:
    """The search form of `text` (same as `fold_with_offsets(text).text`, faster)."""
    folded = text.translate(_TABLE)
    if "\u3099" in folded or "\u309a" in folded:
        return fold_with_offsets(text).text
    return folded


def fold_with_offsets(text: str) -> Folded:
    """The search form of `text` with the map back to `text`'s character offsets."""
    pieces = [_TABLE[ord(char)] for char in text]
    if all(len(piece) == 1 for piece in pieces):
        folded = "".join(pieces)
        if "\u3099" not in folded and "\u309a" not in folded:
            return Folded(folded, len(text))
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, piece in enumerate(pieces):
        for char in piece:
            if char in VOICING_MARKS:
                # ｶﾞ is two characters in the original and one (が) once folded.
                composed = unicodedata.normalize("NFC", chars[-1] + char) if chars else ""
                if len(composed) == 1:
                    chars[-1] = composed
                    ends[-1] = index + 1
                continue  # a mark that composes with nothing is dropped
            chars.append(char)
            starts.append(index)
            ends.append(index + 1)
    return Folded("".join(chars), len(text), tuple(starts), tuple(ends))


def has_japanese(text: str) -> bool:
    return JAPANESE_PATTERN.search(text) is not None


def pairs_of(text: str) -> set[str]:
    """The character pairs of the non-ASCII runs of folded `text`: how Japanese is indexed.

    A query term never has a space, so pairs across one never match; runs of plain ASCII are
    the word index's business.
    """
    pairs: set[str] = set()
    for run in text.split():
        if not run.isascii():
            pairs.update(map(str.__add__, run, run[1:]))
    return pairs


def is_hiragana(text: str) -> bool:
    """Whether `text` is hiragana only (an empty string is not)."""
    return HIRAGANA_PATTERN.fullmatch(text) is not None


# Scripts, for cutting a Japanese query into words where the script changes (see `script`).
KANJI, KATAKANA, HIRAGANA, LATIN, OTHER = "kanji", "katakana", "hiragana", "latin", "other"


def script(char: str) -> str:
    """The script of one character of the original text, after NFKC (ｶ is katakana)."""
    normal = unicodedata.normalize("NFKC", char)[:1] or char
    if HIRAGANA_PATTERN.fullmatch(normal):
        return HIRAGANA
    if KATAKANA_PATTERN.fullmatch(normal):
        return KATAKANA
    if KANJI_PATTERN.fullmatch(normal):
        return KANJI
    if WORD_PATTERN.fullmatch(normal.casefold()):
        return LATIN
    return OTHER


# -- English word forms ------------------------------------------------------------------------

# Irregular forms a judge writes, mapped to the form the suffix rules give the base word
# ("seen" and "saw" → "see"; "taken" → "tak" because "take" and "taking" stem to "tak").
_IRREGULAR: dict[str, str] = {
    "drew": "draw",
    "drawn": "draw",
    "overdrew": "overdraw",
    "overdrawn": "overdraw",
    "withdrew": "withdraw",
    "withdrawn": "withdraw",
    "saw": "see",
    "seen": "see",
    "seeing": "see",
    "sees": "see",
    "shown": "show",
    "took": "tak",
    "taken": "tak",
    "gave": "giv",
    "given": "giv",
    "spoke": "speak",
    "spoken": "speak",
    "told": "tell",
    "said": "say",
    "made": "mak",
    "paid": "pay",
    "lied": "lie",
    "lying": "lie",
    "lies": "lie",
    "broke": "break",
    "broken": "break",
    "left": "leav",
    "got": "get",
    "gotten": "get",
    "came": "com",
    "went": "go",
    "gone": "go",
    "found": "find",
    "thought": "think",
    "held": "hold",
    "won": "win",
    "lost": "los",
    "sat": "sit",
    "chose": "choos",
    "chosen": "choos",
    "bought": "buy",
    "brought": "bring",
    "threw": "throw",
    "thrown": "throw",
    "wrote": "writ",
    "written": "writ",
    "forgot": "forget",
    "forgotten": "forget",
    "kept": "keep",
    "knew": "know",
    "known": "know",
    "did": "do",
    "done": "do",
    "does": "do",
    "had": "hav",
    "has": "hav",
    "was": "be",
    "were": "be",
    "been": "be",
    "is": "be",
    "are": "be",
    "mistook": "mistak",
    "mistaken": "mistak",
    "misunderstood": "misunderstand",
    "understood": "understand",
    "hid": "hid",
    "hidden": "hid",
    "dealt": "deal",
    "fought": "fight",
    "began": "begin",
    "begun": "begin",
    "ran": "run",
    "hung": "hang",
    "stole": "steal",
    "stolen": "steal",
    "swore": "swear",
    "sworn": "swear",
    "meant": "mean",
    "sent": "send",
    "spent": "spend",
    "men": "man",
    "people": "person",
    "children": "child",
}
_KEEP_DOUBLE = frozenset("lsz")  # "called" → "call", not "cal"; "passed" → "pass"


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """A crude English stem: enough that draw/draws/drawing, card/cards, reveal/revealed,
    look/looked/looking, see/saw/seen and take/took/taking meet. Not linguistics: both sides
    go through it, so it only has to be consistent."""
    irregular = _IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    if len(word) <= 3 or not word.isalpha():
        return word
    base = word
    if base.endswith("ies") and len(base) > 4:
        base = base[:-3] + "y"  # penalties → penalty
    elif base.endswith("ied") and len(base) > 4:
        base = base[:-3] + "y"  # copied → copy
    elif base.endswith("ss") or base.endswith("us") or base.endswith("is"):
        pass  # loss, bonus, analysis: not plurals
    elif base.endswith("s"):
        base = base[:-1]
    if base.endswith("eed"):
        base = base[:-1]  # agreed → agree
    elif base.endswith("ing") and len(base) > 5:
        base = _undouble(base[:-3])
    elif base.endswith("ed") and len(base) > 4:
        base = _undouble(base[:-2])
    elif base.endswith("ly") and len(base) > 5:
        base = base[:-2]  # deliberately → deliberate
    if base.endswith("e") and not base.endswith("ee") and len(base) > 3:
        base = base[:-1]  # take/taking, decide/decided, matches/match
    return base


def _undouble(base: str) -> str:
    if len(base) > 2 and base[-1] == base[-2] and base[-1] not in _KEEP_DOUBLE:
        return base[:-1]  # dropped → drop, stopping → stop
    return base


def within_one_edit(first: str, second: str) -> bool:
    """True when one insertion, deletion, substitution or swap of neighbours turns one word
    into the other (a typing slip: forbiden, disqualifed, reveled, recieve)."""
    if first == second:
        return True
    if abs(len(first) - len(second)) > 1:
        return False
    if len(first) < len(second):
        first, second = second, first
    # Skip the common prefix, then the rest must line up after one edit.
    index = 0
    shorter = len(second)
    while index < shorter and first[index] == second[index]:
        index += 1
    if len(first) != len(second):
        return first[index + 1 :] == second[index:]
    if first[index + 1 :] == second[index + 1 :]:
        return True
    return (
        first[index : index + 2] == second[index : index + 2][::-1]
        and first[index + 2 :] == second[index + 2 :]
    )

"""Query parsing: a judge's raw query → the terms the search index looks up.

English (any Latin) words and numbers are terms as they are. Japanese has no spaces: a run is
cut into words where the script changes (わざと|手札公開, スリーブに|傷) and loses a trailing
particle (罰則を → 罰則). Filler (stopwords, a lone particle) is dropped unless the query is
nothing else. Every bound here keeps any input, even a pasted page, to a bounded amount of work.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .cues import Cues, read_cues
from .normalize import (
    HIRAGANA,
    KANJI,
    KATAKANA,
    LATIN,
    OTHER,
    WORD_PATTERN,
    fold_with_offsets,
    has_japanese,
    is_hiragana,
    script,
    stem,
)

MAX_QUERY_CHARS = 200
MAX_TERMS = 12
MAX_TERM_CHARS = 32  # a Japanese run without a script change longer than this is cut

# Words that carry no meaning in a judge's query; dropped unless the query is nothing else.
STOPWORDS = frozenset(
    {
        *("a", "an", "the", "this", "that", "of", "to", "in", "on", "at", "for", "with", "by"),
        *("from", "as", "and", "or", "it", "its", "his", "her", "their", "my", "me", "i", "he"),
        *("she", "they", "them", "be", "is", "was", "are", "were", "been", "him", "you", "your"),
        *("we", "our", "us", "all", "some", "any", "so", "but", "if", "just", "very", "can"),
    }
)


@dataclass(frozen=True, slots=True)
class Term:
    """One term of the query, in folded form."""

    text: str
    is_word: bool  # a Latin word or number (word index) rather than Japanese (pair index)
    # For Japanese with okurigana (決めた, 引きすぎた): its leading kanji (決, 引), a weaker
    # fallback when the inflected form is nowhere in the text.
    core: str = ""
    typed: str = ""  # as the judge typed it (ｽﾘｰﾌﾞ, Drew), for saying why a hit matched


@dataclass(frozen=True, slots=True)
class Query:
    terms: tuple[Term, ...]
    whole: str  # the folded query, spaces collapsed, for the whole-field bonus
    # Runs of Japanese that the query cut into several terms (わざと手札公開), and pairs of
    # neighbouring English words (check in), both worth a bonus where found together.
    phrases: tuple[str, ...] = ()
    word_pairs: tuple[str, ...] = ()
    cues: Cues = field(default_factory=Cues)  # intent and quantities stated (regulation.cues)


# Script changes that start a new word in Japanese typed without spaces: kana → kanji,
# kanji ↔ katakana, to and from Latin. Kanji → hiragana does not (okurigana: 引きすぎ), nor
# katakana → hiragana (a particle: スリーブに), nor digit → kanji (a counter: 39枚).
_WORD_BREAKS = frozenset(
    {
        (HIRAGANA, KANJI),
        (HIRAGANA, KATAKANA),
        (HIRAGANA, LATIN),
        (KATAKANA, KANJI),
        (KATAKANA, LATIN),
        (KANJI, KATAKANA),
        (KANJI, LATIN),
        (LATIN, KATAKANA),
    }
)
# Particles that end a typed word (スリーブに, じゃんけんで, 罰則を): longest first.
_PARTICLES = ("から", "まで", "より", "って", *"をにでとがはのもへや")
_CHUNK_PATTERN = re.compile(r"\S+")


def parse(query: str) -> Query:
    """Cut a raw query into terms: Latin words, and Japanese words found by script changes."""
    original = query[: MAX_QUERY_CHARS * 2]
    folded = fold_with_offsets(original)
    text = folded.text[:MAX_QUERY_CHARS]
    scripts = [script(original[folded.original_span(i, i + 1)[0]]) for i in range(len(text))]
    cues = read_cues(text)
    # An intent word is a word of its own, however it is typed (わざと多く引いた).
    cuts = {position for span in cues.spans for position in span}

    def typed(start: int, end: int) -> str:
        """The original of folded [start, end) (never empty), with what folding dropped at its
        end (ドロー). Whitespace is never dropped (it folds to a space), so none is taken."""
        first, last = folded.original_span(start, end)
        after = folded.original_span(end, end + 1)[0] if end < len(folded.text) else len(original)
        # Empty only inside one character folded to several (㍻ → 平成): then that character.
        return original[first:after] or original[first:last]

    terms: list[Term] = []
    phrases: list[str] = []
    chunks: list[str] = []
    for match in _CHUNK_PATTERN.finditer(text):
        chunk = match.group()
        chunks.append(chunk)
        if WORD_PATTERN.fullmatch(chunk):
            terms.append(Term(chunk, is_word=True, typed=typed(*match.span())))
            continue
        pieces = _japanese_words(chunk, match.start(), scripts, cuts, typed)
        terms += pieces
        if len(pieces) > 1:
            phrases.append(strip_particle(chunk))
    meaningful = [term for term in terms if not _is_filler(term)]
    unique: dict[str, Term] = {}
    for term in meaningful or terms:
        unique.setdefault(term.text, term)  # one term per folded text, as first typed
    word_pairs = tuple(
        f"{stem(first)} {stem(second)}"
        for first, second in itertools.pairwise(chunks)
        if WORD_PATTERN.fullmatch(first) and WORD_PATTERN.fullmatch(second)
    )
    kept = tuple(unique.values())[:MAX_TERMS]
    return Query(kept, " ".join(chunks), tuple(phrases), word_pairs, cues)


def _japanese_words(
    chunk: str,
    offset: int,
    scripts: list[str],
    cuts: set[int],
    typed: Callable[[int, int], str],
) -> list[Term]:
    """The terms of a run of text without spaces (at `offset` in the folded query), cut where
    the script changes and around intent words."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(chunk)):
        previous, current = scripts[offset + index - 1], scripts[offset + index]
        if (
            (previous, current) in _WORD_BREAKS
            or (previous != current and OTHER in (previous, current))
            or offset + index in cuts
        ):
            bounds.append((start, index))
            start = index
    bounds.append((start, len(chunk)))
    terms: list[Term] = []
    for start, end in bounds:
        word = strip_particle(chunk[start:end][:MAX_TERM_CHARS])
        as_typed = typed(offset + start, offset + start + len(word))
        if WORD_PATTERN.fullmatch(word):
            terms.append(Term(word, is_word=True, typed=as_typed))  # DQに → dq
        elif has_japanese(word) or not WORD_PATTERN.search(word):
            terms.append(Term(word, is_word=False, core=_kanji_core(word), typed=as_typed))
        else:
            at = offset + start
            terms += [
                Term(part.group(), is_word=True, typed=typed(at + part.start(), at + part.end()))
                for part in WORD_PATTERN.finditer(word)
            ]
    return terms


def strip_particle(word: str) -> str:
    for particle in _PARTICLES:
        if word.endswith(particle):
            rest = word[: -len(particle)]
            # Keep わざと whole: only a word that is more than a short kana run loses its tail.
            if rest and (not is_hiragana(rest) or len(rest) >= 3):
                return rest
            break
    return word


# Verb endings a judge types after a word in kana (ちこくした, みちゃった), longest first.
_KANA_ENDINGS = tuple(
    sorted(
        (
            *("してしまった", "してしまいました", "しちゃった", "しました", "している", "してる"),
            *("してた", "しない", "された", "される", "させた", "した", "して", "する"),
            *("てしまった", "ちゃった", "じゃった", "ました", "ている", "てる", "てた", "った"),
        ),
        key=len,
        reverse=True,
    )
)
MIN_KANA_CORE = 2


def _kanji_core(word: str) -> str:
    """決めた → 決: the leading kanji (or digits) of a word that continues in hiragana; in a
    word typed all in kana, what is left without a verb ending (ちこくした → ちこく)."""
    if is_hiragana(word):
        for ending in _KANA_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= MIN_KANA_CORE:
                return word[: -len(ending)]
        return ""
    index = 0
    while index < len(word) and not is_hiragana(word[index]):
        index += 1
    if 0 < index < len(word) and has_japanese(word[:index]):
        return word[:index]
    return ""


def _is_filler(term: Term) -> bool:
    if term.is_word:
        return term.text in STOPWORDS
    # A lone hiragana (を, の, が, お) typed between words is a particle or a prefix.
    return len(term.text) == 1 and is_hiragana(term.text)

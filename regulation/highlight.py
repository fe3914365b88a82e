"""Highlighting: where a query's terms are in an entry's displayed strings.

A hit carries, for its title and body in each language, the [start, end) character offsets of
what matched, in the strings as displayed (folding maps back to the original's offsets). English
words match as the index matched them (the same expansions: word forms, prefixes, typos);
Japanese terms whole, else by their longest pieces, and by their kanji core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .normalize import WORD_PATTERN, Folded, fold_with_offsets
from .query import Query, Term

# The displayed strings of a hit: title (a principle's label) and `Regulation.body`, per language.
SPAN_KEYS = ("title.ja", "title.en", "text.ja", "text.en")

Spans = tuple[tuple[int, int], ...]
# Query word → the indexed words that answer it, with the quality of the match (search.py).
Expansions = Mapping[str, Mapping[str, float]]


@dataclass(frozen=True, slots=True)
class Shown:
    """A displayed string, folded, with where each of its words is."""

    folded: Folded
    words: dict[str, list[tuple[int, int]]]  # folded word → its [start, end) in folded.text
    ascii: bool

    @classmethod
    def of(cls, text: str) -> Shown:
        folded = fold_with_offsets(text)
        words: dict[str, list[tuple[int, int]]] = {}
        for match in WORD_PATTERN.finditer(folded.text):
            words.setdefault(match.group(), []).append(match.span())
        return cls(folded, words, folded.text.isascii())


def spans(query: Query, expansions: Expansions, shown: Shown) -> Spans:
    """[start, end) offsets in the displayed string of what the query's terms match."""
    found: list[tuple[int, int]] = []
    for term in query.terms:
        if not term.is_word:
            if not shown.ascii:  # English has no Japanese to find
                found += japanese_spans(term, shown.folded.text)
            continue
        for word in expansions[term.text].keys() & shown.words.keys():
            found += shown.words[word]
    if not found:
        return ()
    return merge_spans(shown.folded.original_span(start, end) for start, end in found)


def japanese_spans(term: Term, text: str) -> list[tuple[int, int]]:
    """Where a Japanese term is in `text`: the whole term, else its longest pieces (two
    characters or more) left to right, so カード引きすぎた lights カード in a title; and its
    kanji core (決 of 決めた)."""
    word = term.text
    pieces = [word]
    if word not in text:
        pieces = []
        start = 0
        while start < len(word) - 1:
            end = start + 2
            if word[start:end] not in text:
                start += 1
                continue
            # Every prefix of a substring is one: grow the piece while it is still found.
            while end < len(word) and word[start : end + 1] in text:
                end += 1
            pieces.append(word[start:end])
            start = end
    if term.core:
        pieces.append(term.core)
    found: list[tuple[int, int]] = []
    for piece in pieces:
        position = text.find(piece)
        while position >= 0:
            found.append((position, position + len(piece)))
            position = text.find(piece, position + len(piece))
    return found


def merge_spans(found: Iterable[tuple[int, int]]) -> Spans:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)

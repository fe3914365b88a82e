"""Why a hit matched: the query's words and the field each was found in, the typical situation
that matched, and the cues (intent, a quantity) that moved it up or down.

Data only: a view renders it in one line in either language (the field names and cue kinds are
fixed identifiers, never display strings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .cues import Intent
from .model import Text
from .normalize import WORD_PATTERN, pairs_of
from .quantities import QuantityKind
from .query import Query, Term

Field = Literal["title", "alias", "situation", "section", "body"]
FIELDS: tuple[Field, ...] = ("title", "alias", "situation", "section", "body")  # best first

# A Japanese word counts as found in a field when this share of its character pairs is there.
MIN_PAIR_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class MatchedWord:
    """A word of the query (as typed) and the best field of the entry it was found in."""

    word: str
    field: Field


@dataclass(frozen=True, slots=True)
class Cue:
    """Something the query stated that moved this hit: intent ("deliberate" / "accidental"; and
    "no_accidental_entry" on a deliberate entry a query of an honest mistake lowered, which the
    source has no accidental entry for) or a quantity (minutes, deck_size, copies, with the
    quantity as read: 12, 4:59, <5) read against the regulation's thresholds; or "typical": the
    situation model (regulation/situation_model.py) ranked it up, the query reading like the
    typical situations of this entry. `raised` is True when it ranked the hit up, False when
    down."""

    kind: Literal["intent", "typical"] | QuantityKind
    value: Intent | Literal["no_accidental_entry", "typical"] | str
    raised: bool


@dataclass(frozen=True, slots=True)
class Why:
    words: tuple[MatchedWord, ...] = ()
    situation: Text | None = None  # the entry's typical situation that matched best, if any
    cues: tuple[Cue, ...] = ()


@dataclass(frozen=True, slots=True)
class FieldText:
    """One field of an entry (all its strings: both languages and readings), folded."""

    field: Field
    text: str
    words: frozenset[str]
    pairs: frozenset[str]

    @classmethod
    def of(cls, field: Field, folded: str) -> FieldText:
        return cls(
            field, folded, frozenset(WORD_PATTERN.findall(folded)), frozenset(pairs_of(folded))
        )


Expansions = Mapping[str, Mapping[str, float]]


def _whole_in(term: Term, text: str) -> bool:
    return term.text in text or bool(term.core and term.core in text)


def found_in(term: Term, expansions: Expansions, field: FieldText) -> bool:
    """Whether `term` matches `field` by the search's rules (word forms, whole, or in pieces)."""
    if term.is_word:
        return not field.words.isdisjoint(expansions.get(term.text, ()))
    if _whole_in(term, field.text):
        return True
    pairs = pairs_of(term.text)
    return bool(pairs) and len(pairs & field.pairs) >= MIN_PAIR_SHARE * len(pairs)


def explain(
    query: Query,
    expansions: Expansions,
    fields: tuple[FieldText, ...],
    situations: tuple[tuple[Text, FieldText], ...],
    cues: tuple[Cue, ...],
) -> Why:
    words = []
    for term in query.terms:
        for field in fields:
            if found_in(term, expansions, field):
                words.append(MatchedWord(term.typed or term.text, field.field))
                break
    best: Text | None = None
    best_count = 0
    if any(word.field == "situation" for word in words):
        for situation, folded in situations:
            # Terms found, and found whole (or by their core) counting twice.
            count = sum(
                found_in(term, expansions, folded)
                + (not term.is_word and _whole_in(term, folded.text))
                for term in query.terms
            )
            if count > best_count:
                best, best_count = situation, count
    return Why(tuple(words), best, cues)

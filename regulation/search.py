"""Ranked search over the regulation, both languages at once (pure Python, no Flet).

`SearchIndex.build(regulation)` folds every searchable string once (see `normalize`) and
indexes it two ways:

- English (any Latin) words and numbers: word → documents, and a sorted vocabulary for stems
  (drew → draw), prefixes ("disq" while typing) and typos (one edit in words of five letters
  or more);
- Japanese, which has no word breaks: character pairs, and single kanji, → documents. A query
  term found whole in a field is an exact match; otherwise the share of its pairs found in the
  document, weighted by how rare each pair is, is a partial match (カード引きすぎた finds
  過剰にカードを引いた through its title and its alias 引きすぎ). A query typed without spaces
  is cut into words where the script changes (わざと|手札公開, スリーブに|傷).

The documents are the entries (tiers, principles, infractions) and the sections, whose name and
aliases reach every infraction of the section at query time. Every field has a weight: title >
entry alias > section > body. A term scores the best weight it reaches times the quality of the
match (exact > same stem > prefix > typo > partial), times how rare the term is; an entry scores
the sum over terms plus bonuses for the query's words found together, scaled by the square of
the share of terms it matched, so that matching every word beats matching some. Ties keep
document order.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .blend import add_model, best_first, moved_up
from .cues import (
    DELIBERATE_FORM,
    HONEST_ERROR_ENTRY,
    REVEALING_ENTRIES,
    THRESHOLDS,
    Intent,
    intent_of,
    threshold_range,
)
from .explain import FIELDS, Cue, Field, FieldText, Why, explain
from .highlight import SPAN_KEYS, Shown, Spans, spans
from .model import Entry, Infraction, Principle, Regulation, Section, Text, Tier, entry_title
from .normalize import (
    KANJI_PATTERN,
    WORD_PATTERN,
    fold,
    pairs_of,
    stem,
    within_one_edit,
)
from .quantities import QuantityKind
from .query import Query, Term, parse
from .readings import Readings, load_readings
from .situation_model import SituationModel, load_situation_model

# Field weights: where a match is found.
TITLE = 10.0
ALIAS = 7.0
SITUATION = 5.0  # the app's typical situations: the entry's own, but plain sentences
SECTION = 3.0
BODY = 2.0
FIELD_OF_WEIGHT: dict[float, Field] = {
    TITLE: "title",
    ALIAS: "alias",
    SITUATION: "situation",
    SECTION: "section",
    BODY: "body",
}

# Match qualities: how a term matched.
EXACT = 1.0
SAME_STEM = 0.9
PREFIX = 0.7
TYPO = 0.5
PARTIAL = 0.6  # a Japanese term found in pieces; scaled by the share found
CORE = 0.5  # only the kanji of an inflected Japanese word (決 of 決めた)
CORE_SHARE = 0.5  # …which counts as half a matched term (違 of 違う is not 違反)
NEGATED = 0.5  # a word right after no/not/without

# A Japanese term counts as matched when this (rarity-weighted) share of its pairs is found.
MIN_PARTIAL_COVERAGE = 0.5
# The query as a whole equal to a title or alias ("注意", "match loss") earns this much more.
WHOLE_FIELD_BONUS = 0.5
# Query words found side by side ("check in"), or a Japanese run found whole, earn this more.
PHRASE_BONUS = 0.6
# How much rarer terms count ("39" over "cards"): 1 + strength × ln(entries / entries matched).
RARITY_STRENGTH = 0.3
# A hit scoring under this share of the best hit is dropped (see SearchIndex.search).
RELATIVE_FLOOR = 0.1
# Intent stated in the query (regulation.cues): entries of that intent are raised, entries of
# the other lowered; a deliberate act's entry first takes the score of its accidental form.
INTENT_RAISE = 1.5
INTENT_LOWER = 0.4
# A deliberate entry the source has no accidental twin for, described as an honest mistake
# ("wrote the wrong result by mistake"): the judge's discretion principle (HONEST_ERROR_ENTRY)
# takes this share of that entry's score before it was lowered, so it ranks above it.
HONEST_ERROR_SHARE = 0.5
# A quantity read against the regulation's thresholds: the entry whose range holds it (the
# least value it allows, or most of a range: "under 10 minutes") is raised with the best score
# of its siblings, a sibling it only reaches is kept at that score, the others are lowered.
# A question ranks the tiers and principles (which answer rules) up; a query about looking at
# someone's cards lowers the entry of revealing them.
QUESTION_RAISE = 1.6
LOOKING_LOWER = 0.4
QUANTITY_RAISE = 1.5
QUANTITY_REACHED = 1.0
QUANTITY_LOWER = 0.3

PREFIX_MIN_LENGTH = 3  # "dq", "no" and "at" are words, not the start of longer ones
TYPO_MIN_LENGTH = 5  # the rule: one edit in words of five letters or more
NEGATIONS = frozenset({"no", "not", "non", "without", "never"})


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One result: the entry, its score (higher is better) and what to highlight.

    `spans` maps "title.ja", "title.en", "text.ja" and "text.en" to [start, end) character
    offsets of the matches in the displayed strings: the title (a principle's label) and
    `Regulation.body(entry, lang)`. `why` says briefly why it matched (regulation.explain).
    """

    entry: Entry
    score: float
    spans: Mapping[str, Spans] = field(compare=False, hash=False)
    why: Why = field(default_factory=Why, compare=False, hash=False)


Postings = dict[str, dict[int, float]]  # key → {document: best field weight}


def _situations(entry: Entry) -> tuple[Text, ...]:
    return entry.situations if not isinstance(entry, Tier) else ()


def _with_readings(readings: Readings, strings: list[str]) -> list[str]:
    """`strings` and the readings of their Japanese (ちこく for 遅刻), one field with them."""
    read = (readings.of(text) for text in strings if not text.isascii())
    return strings + [reading for reading in read if reading]


def _entry_strings(
    regulation: Regulation, entry: Entry, readings: Readings
) -> list[tuple[float, list[str]]]:
    """The strings that find `entry` itself, by field weight, lowest first."""
    title = entry_title(entry)
    situations = _situations(entry)
    fields = [
        (BODY, [regulation.body(entry, "ja"), regulation.body(entry, "en")]),
        (SITUATION, [text for situation in situations for text in (situation.ja, situation.en)]),
        (ALIAS, list(entry.aliases.all())),
        (TITLE, [title.ja, title.en]),
    ]
    return [(weight, _with_readings(readings, strings)) for weight, strings in fields]


def _section_strings(section: Section, readings: Readings) -> list[tuple[float, list[str]]]:
    strings = [section.title.ja, section.title.en, *section.aliases.all()]
    return [(SECTION, _with_readings(readings, strings))]


# One kanji: a query's lone kanji (傷) or the kanji of an inflected word (決 of 決めた) is looked
# up in its own small index; a lone kana is a particle, rare enough alone to look for by scanning.

# Words, and the line breaks between the fields of one weight (which end a phrase).
_WORDS_AND_BREAKS = re.compile(WORD_PATTERN.pattern + "|\n")


@dataclass(slots=True)
class _DocumentKeys:
    """What one document is indexed under, each key with the best weight it has there.

    Texts are added in rising weight, so a plain `dict.update` keeps the best weight. A text is
    all the document's fields of one weight, one per line.
    """

    words: dict[str, float] = field(default_factory=dict)
    word_pairs: dict[str, float] = field(default_factory=dict)
    pairs: dict[str, float] = field(default_factory=dict)
    kanji: dict[str, float] = field(default_factory=dict)

    def add(self, text: str, weight: float, non_ascii: str) -> None:
        """Add `text`, whose lines that are not plain ASCII are `non_ascii` (the only ones with
        Japanese to index)."""
        words = WORD_PATTERN.findall(text)
        negated: dict[str, float] = {}
        if not NEGATIONS.isdisjoint(words):
            tokens = _WORDS_AND_BREAKS.findall(text)
            negated = {word: self.words.get(word, 0.0) for word in _only_negated(tokens)}
        self.words.update(dict.fromkeys(words, weight))
        for word, earlier in negated.items():
            self.words[word] = max(earlier, weight * NEGATED)
        if weight >= SECTION and len(words) > 1:
            # Phrases matter in titles, aliases and section names, not in running text. A pair
            # across a line break ("x \n") is never a query's, so it is kept rather than sifted.
            stems = list(map(stem, _WORDS_AND_BREAKS.findall(text)))
            self.word_pairs.update(dict.fromkeys(map("{} {}".format, stems, stems[1:]), weight))
        if non_ascii:
            self.pairs.update(dict.fromkeys(pairs_of(non_ascii), weight))
            self.kanji.update(dict.fromkeys(KANJI_PATTERN.findall(non_ascii), weight))


def _only_negated(tokens: list[str]) -> set[str]:
    """Words that only ever follow no/not/without: "no pattern" is not about a pattern, and
    "marked cards pattern" must prefer "when there is a pattern"."""
    negated = {word for before, word in itertools.pairwise(tokens) if before in NEGATIONS}
    plain = {word for before, word in itertools.pairwise(tokens) if before not in NEGATIONS}
    return negated - plain - {tokens[0]}


class SearchIndex:
    """The regulation's entries, indexed once for ranked search in both languages."""

    __slots__ = (
        "_deliberate_forms",
        "_deliberate_twins",
        "_display",
        "_entries",
        "_entry_ids",
        "_explained",
        "_honest_error",
        "_intent",
        "_kanji",
        "_members",
        "_model",
        "_model_entries",
        "_pairs",
        "_readings",
        "_regulation",
        "_revealing",
        "_stem_words",
        "_texts",
        "_thresholds",
        "_vocabulary",
        "_vocabulary_by_length",
        "_whole_fields",
        "_word_pairs",
        "_words",
    )

    def __init__(
        self,
        regulation: Regulation,
        readings: Readings | None = None,
        model: SituationModel | bool = True,
    ) -> None:
        self._regulation = regulation
        self._readings = load_readings() if readings is None else readings
        self._entries: tuple[Entry, ...] = regulation.entries()
        self._entry_ids = [entry.id for entry in self._entries]
        # The index holds "documents": every entry (0 … n-1), then every section (n …), whose
        # name and aliases are indexed once and reach its infractions at query time.
        entry_number = {entry.id: index for index, entry in enumerate(self._entries)}
        self._model = load_situation_model() if model is True else model or None
        if self._model is not None and not set(self._model.labels) <= set(entry_number):
            # Not trained on this regulation (a test's small one): words only. The app checks
            # the shipped model against its regulation at start-up (verify_situation_model).
            self._model = None
        labels = self._model.labels if self._model is not None else ()
        self._model_entries = {label: entry_number[label] for label in labels}
        self._members: dict[int, tuple[int, ...]] = {
            len(self._entries) + number: tuple(
                entry_number[infraction.id]
                for infraction in regulation.infractions_in_section(section.id)
            )
            for number, section in enumerate(regulation.sections)
        }
        # Per document, its fields joined by weight, best first: where a Japanese term is
        # looked for whole (a term has no space, so it never spans two fields).
        self._texts: list[tuple[tuple[float, str], ...]] = []
        # Only ever read with .get() after the build, so a missing key never adds itself.
        self._words: Postings = defaultdict(dict)  # Latin word or number → documents
        self._word_pairs: Postings = defaultdict(dict)  # "stem stem" of neighbouring words
        self._pairs: Postings = defaultdict(dict)  # pair of characters (Japanese) → documents
        self._kanji: Postings = defaultdict(dict)  # one kanji → documents
        self._whole_fields: Postings = defaultdict(dict)  # a whole title or alias → documents
        # Folded display strings (with offsets) for highlighting, filled on first use.
        self._display: dict[int, tuple[Shown, ...]] = {}
        # Folded fields and situations of an entry, for saying why it matched, on first use.
        self._explained: dict[int, tuple[tuple[FieldText, ...], tuple[tuple[Text, FieldText], ...]]]
        self._explained = {}
        self._intent: list[Intent | None] = [
            intent_of(entry.title.ja) if not isinstance(entry, Principle) else None
            for entry in self._entries
        ]
        self._honest_error = entry_number.get(HONEST_ERROR_ENTRY)
        self._revealing = [entry_number[i] for i in REVEALING_ENTRIES if i in entry_number]
        self._deliberate_twins = {
            entry_number[deliberate]
            for deliberate in DELIBERATE_FORM.values()
            if deliberate in entry_number
        }
        self._deliberate_forms = [
            (entry_number[accidental], entry_number[deliberate])
            for accidental, deliberate in DELIBERATE_FORM.items()
            if accidental in entry_number and deliberate in entry_number
        ]
        self._thresholds: dict[QuantityKind, list[tuple[int, int, int | None]]] = {}
        for threshold in THRESHOLDS:
            if threshold.entry_id in entry_number:
                self._thresholds.setdefault(threshold.kind, []).append(
                    (entry_number[threshold.entry_id], *threshold_range(threshold))
                )
        readings = self._readings
        documents = [_entry_strings(regulation, entry, readings) for entry in self._entries]
        documents += [_section_strings(section, readings) for section in regulation.sections]
        for document, strings in enumerate(documents):
            self._add_document(document, strings)
        self._vocabulary: list[str] = sorted(self._words)
        self._vocabulary_by_length: dict[int, list[str]] = {}
        self._stem_words: dict[str, list[str]] = {}  # stem → the words that have it
        for word in self._vocabulary:
            self._vocabulary_by_length.setdefault(len(word), []).append(word)
            self._stem_words.setdefault(stem(word), []).append(word)

    def _add_document(self, document: int, strings: list[tuple[float, list[str]]]) -> None:
        """Index one document from its strings, by field weight, lowest first."""
        keys = _DocumentKeys()
        texts: list[tuple[float, str]] = []
        whole: dict[str, float] = {}
        for weight, raw in strings:
            # All fields of one weight folded at once, one per line: far fewer calls; English
            # apart, as an all-ASCII string takes str.translate's fast path.
            english = fold("\n".join(part for part in raw if part.isascii()))
            other = fold("\n".join(part for part in raw if not part.isascii()))
            text = f"{other}\n{english}" if english and other else other or english
            if not text.strip():
                continue
            texts.append((weight, text))
            keys.add(text, weight, other)
            if weight >= ALIAS:
                for line in text.split("\n"):
                    whole[" ".join(line.split())] = weight
        self._texts.append(tuple(reversed(texts)))
        for postings, found in (
            (self._words, keys.words),
            (self._word_pairs, keys.word_pairs),
            (self._pairs, keys.pairs),
            (self._kanji, keys.kanji),
            (self._whole_fields, whole),
        ):
            for key, weight in found.items():
                postings[key][document] = weight

    @classmethod
    def build(
        cls,
        regulation: Regulation,
        readings: Readings | None = None,
        model: SituationModel | bool = True,
    ) -> SearchIndex:
        """The index of `regulation`; `readings` default to the committed assets/readings.json,
        `model` (True) to the committed assets/situation_model.json (False: words only).
        Raises DataError when the model's file is unusable."""
        return cls(regulation, readings, model)

    # -- searching ---------------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> list[SearchHit]:
        """Entries matching `query`, best first; an empty or meaningless query finds nothing."""
        parsed = parse(query)
        if not parsed.terms or (limit is not None and limit < 1):
            return []
        total = len(self._entries)
        expansions = self._expansions(parsed)
        scores: dict[int, float] = {}
        matched: dict[int, float] = {}
        for term in parsed.terms:
            core_only: set[int] = set()
            if term.is_word:
                term_scores = self._spread(self._score_word(expansions[term.text]))
            else:
                found, core_only = self._score_japanese(term)
                term_scores = self._spread(found)
            if not term_scores:
                continue
            rarity = 1.0 + RARITY_STRENGTH * math.log(total / len(term_scores))
            for entry_index, score in term_scores.items():
                scores[entry_index] = scores.get(entry_index, 0.0) + score * rarity
                share = CORE_SHARE if entry_index in core_only else 1.0
                matched[entry_index] = matched.get(entry_index, 0.0) + share
        term_count = len(parsed.terms)
        self._add_bonuses(parsed, scores)
        final = {
            entry_index: score * (matched[entry_index] / term_count) ** 2
            for entry_index, score in scores.items()
        }
        words_only = dict(final)
        # A query that is a title or alias whole ("intentional draw") is a name: the words know.
        probabilities = {}
        if self._model is not None and parsed.whole not in self._whole_fields:
            probabilities = self._model.probabilities(query)
            if not add_model(final, probabilities, self._model_entries):
                probabilities = {}
        decided = self._apply_cues(parsed, final)
        if probabilities:
            self._apply_cues(parsed, words_only)
            for entry_index in moved_up(final, words_only, probabilities, self._entry_ids):
                cue = Cue("typical", "typical", True)
                decided[entry_index] = (cue, *decided.get(entry_index, ()))
        pairs = ((score, entry_index) for entry_index, score in final.items() if score > 0)
        ranked = (
            sorted(pairs, key=best_first)
            if limit is None
            else heapq.nsmallest(limit, pairs, key=best_first)
        )
        # Hits far below the best one are noise to a judge (after "slow play" matched exactly,
        # "play" as the prefix of "player" in other titles). The best is the words' (cues
        # applied): the model's share may add hits, never hide one the words found.
        best = max(words_only.values(), default=0.0) if probabilities else 0.0
        floor = (best or (ranked[0][0] if ranked else 0.0)) * RELATIVE_FLOOR
        return [
            SearchHit(
                self._entries[entry_index],
                round(score, 6),
                self._hit_spans(parsed, expansions, entry_index),
                self._why(parsed, expansions, entry_index, decided.get(entry_index, ())),
            )
            for score, entry_index in ranked
            if score >= floor
        ]

    def _apply_cues(self, parsed: Query, final: dict[int, float]) -> dict[int, tuple[Cue, ...]]:
        """Raise and lower entries by the intent and quantities the query states (in place);
        return, per entry moved, the cues that moved it."""
        decided: dict[int, list[Cue]] = {}
        intent = parsed.cues.intent
        if parsed.whole in self._whole_fields:
            intent = None  # a name, not a description: "intentional draw" is an agreed result
        if intent is not None and final:
            for accidental, deliberate in self._deliberate_forms:
                # The deliberate form of what the query describes takes that match's score.
                source, target = (
                    (accidental, deliberate) if intent == "deliberate" else (deliberate, accidental)
                )
                if final.get(source, 0.0) > final.get(target, 0.0):
                    final[target] = final[source]
            honest_error = 0.0  # the best score of a deliberate entry with no accidental twin
            for entry_index in final:
                own = self._intent[entry_index]
                if own is None:
                    continue
                twinless = (
                    own == "deliberate"
                    and intent == "accidental"
                    and entry_index not in self._deliberate_twins
                )
                if twinless:
                    honest_error = max(honest_error, final[entry_index])
                final[entry_index] *= INTENT_RAISE if own == intent else INTENT_LOWER
                cues = decided.setdefault(entry_index, [])
                cues.append(Cue("intent", intent, own == intent))
                if twinless:
                    # The source has no entry for doing this by honest mistake: say so.
                    cues.append(Cue("intent", "no_accidental_entry", False))
            if honest_error and self._honest_error is not None:
                # …and lead to the principle that leaves it to the judge, above those entries.
                target = self._honest_error
                final[target] = max(final.get(target, 0.0), honest_error * HONEST_ERROR_SHARE)
                decided.setdefault(target, []).append(Cue("intent", "no_accidental_entry", True))
        if parsed.cues.question:
            for entry_index in final:
                if isinstance(self._entries[entry_index], Tier | Principle):
                    final[entry_index] *= QUESTION_RAISE
        if parsed.cues.looking:
            for entry_index in self._revealing:
                if entry_index in final:
                    final[entry_index] *= LOOKING_LOWER
        for quantity in parsed.cues.quantities:
            siblings = self._thresholds.get(quantity.kind, [])
            best = max((final.get(index, 0.0) for index, _, _ in siblings), default=0.0)
            if best <= 0.0:
                continue  # the query is not about these entries: its number means something else
            overlaps = {index: quantity.overlap(low, high) for index, low, high in siblings}
            most = max((n for n in overlaps.values() if n is not None), default=0)
            for entry_index, low, high in siblings:
                overlap = overlaps[entry_index]
                held = quantity.holds(low, high) if quantity.high is None else overlap == most > 0
                if held:
                    final[entry_index] = best * QUANTITY_RAISE
                elif overlap is None or overlap > 0:
                    final[entry_index] = best * QUANTITY_REACHED
                elif entry_index in final:
                    final[entry_index] *= QUANTITY_LOWER
                else:
                    continue
                cue = Cue(quantity.kind, quantity.said, held)
                decided.setdefault(entry_index, []).append(cue)
        return {entry_index: tuple(cues) for entry_index, cues in decided.items()}

    def _spread(self, found: dict[int, float]) -> dict[int, float]:
        """Document scores as entry scores: a section's reach each of its infractions."""
        entries = len(self._entries)
        if all(document < entries for document in found):
            return found
        spread = {document: score for document, score in found.items() if document < entries}
        for document, score in found.items():
            for entry_index in self._members.get(document, ()):
                if spread.get(entry_index, 0.0) < score:
                    spread[entry_index] = score
        return spread

    def _add_bonuses(self, parsed: Query, scores: dict[int, float]) -> None:
        """Reward entries that have the query's words together, not just somewhere."""
        # The whole query, or its words without the filler the parser dropped ("the caution").
        whole = self._whole_fields.get(parsed.whole) or self._whole_fields.get(
            " ".join(term.text for term in parsed.terms), {}
        )
        bonuses = [(whole, WHOLE_FIELD_BONUS)]
        bonuses += [(self._word_pairs.get(pair, {}), PHRASE_BONUS) for pair in parsed.word_pairs]
        bonuses += [(self._exact_japanese(phrase), PHRASE_BONUS) for phrase in parsed.phrases]
        for found, share in bonuses:
            for entry_index, weight in self._spread(found).items():
                if entry_index in scores:
                    scores[entry_index] += weight * share

    def _expansions(self, parsed: Query) -> dict[str, dict[str, float]]:
        return {term.text: self._expand(term.text) for term in parsed.terms if term.is_word}

    def _expand(self, word: str) -> dict[str, float]:
        """The indexed words that answer a query word, each with the quality of the match:
        itself, the same stem (drew → draw, drawing), longer words it starts (disq →
        disqualified), and, for a word found nowhere, words one typing slip away."""
        found: dict[str, float] = {}
        if len(word) >= PREFIX_MIN_LENGTH and not word.isdigit():  # "4" is not the start of "40"
            start = bisect.bisect_left(self._vocabulary, word)
            for candidate in itertools.islice(self._vocabulary, start, None):
                if not candidate.startswith(word):
                    break
                found[candidate] = PREFIX
        same_stem = self._stem_words.get(stem(word), ())
        for candidate in same_stem:
            found[candidate] = SAME_STEM
        if word in self._words:
            found[word] = EXACT
        if not same_stem and len(word) >= TYPO_MIN_LENGTH and not word.isdigit():
            # Only a word that exists nowhere is a typo: "marked" must not also find "market".
            for length in (len(word) - 1, len(word), len(word) + 1):
                for candidate in self._vocabulary_by_length.get(length, ()):
                    if within_one_edit(word, candidate):
                        found[candidate] = TYPO
        return found

    def _score_word(self, expansion: dict[str, float]) -> dict[int, float]:
        """Document → best weight × quality for one query word, from its expansion."""
        found: dict[int, float] = {}
        for candidate, quality in expansion.items():
            for document, weight in self._words[candidate].items():
                score = weight * quality
                if found.get(document, 0.0) < score:
                    found[document] = score
        return found

    def _score_japanese(self, term: Term) -> tuple[dict[int, float], set[int]]:
        """Document → score for one Japanese term: whole, in pieces, or by its kanji core; and
        the documents found by the kanji core alone."""
        found = {doc: weight * EXACT for doc, weight in self._exact_japanese(term.text).items()}
        if len(term.text) > 1:
            for document, score in self._partial_japanese(term.text).items():
                if found.get(document, 0.0) < score:
                    found[document] = score
        core_only: set[int] = set()
        if term.core:
            # A name the data knows, typed with a verb ending (遅刻した, ちこくした): as good as
            # the name itself, in the titles and aliases that are exactly it.
            for document, weight in self._whole_fields.get(term.core, {}).items():
                if found.get(document, 0.0) < weight * SAME_STEM:
                    found[document] = weight * SAME_STEM
            for document, weight in self._exact_japanese(term.core).items():
                if found.get(document, 0.0) < weight * CORE:
                    found[document] = weight * CORE
                    core_only.add(document)
        return found, core_only

    def _exact_japanese(self, text: str) -> dict[int, float]:
        """Document → best weight of a field that contains `text` whole."""
        if len(text) == 1:
            if KANJI_PATTERN.fullmatch(text):
                return dict(self._kanji.get(text, {}))
            candidates: Iterable[int] = range(len(self._texts))  # a lone kana: look everywhere
        elif len(text) == 2:
            # A pair is indexed with the best weight of a field that has it: that is the answer.
            return dict(self._pairs.get(text, {}))
        else:
            # Only documents with every pair of `text` can contain it; check those few.
            postings = sorted((self._pairs.get(pair, {}) for pair in pairs_of(text)), key=len)
            if not postings or not postings[0]:
                return {}
            candidates = set(postings[0]).intersection(*postings[1:])
        found: dict[int, float] = {}
        for document in candidates:
            for weight, joined in self._texts[document]:
                if text in joined:
                    found[document] = weight
                    break
        return found

    def _partial_japanese(self, text: str) -> dict[int, float]:
        """Document → score for the pairs of `text` it has, if they are enough of them.

        Each pair counts by its rarity (を引 says more than カー) and by the weight of the field
        it is in; a document needs MIN_PARTIAL_COVERAGE of the rarity to match at all.
        """
        pairs = pairs_of(text)
        if not pairs:
            return {}
        total = len(self._entries)
        rarity = {
            pair: math.log(1.0 + total / (1 + len(self._pairs.get(pair, ())))) for pair in pairs
        }
        rarity_sum = sum(rarity.values())
        weighted: dict[int, float] = {}
        coverage: dict[int, float] = {}
        for pair in pairs:
            for document, weight in self._pairs.get(pair, {}).items():
                weighted[document] = weighted.get(document, 0.0) + rarity[pair] * weight
                coverage[document] = coverage.get(document, 0.0) + rarity[pair]
        return {
            document: PARTIAL * weighted[document] / rarity_sum
            for document, share in coverage.items()
            if share >= MIN_PARTIAL_COVERAGE * rarity_sum
        }

    def _hit_spans(
        self, parsed: Query, expansions: dict[str, dict[str, float]], entry_index: int
    ) -> Mapping[str, Spans]:
        return MappingProxyType(
            {
                key: spans(parsed, expansions, shown)
                for key, shown in zip(SPAN_KEYS, self._shown(entry_index), strict=True)
            }
        )

    def _shown(self, entry_index: int) -> tuple[Shown, ...]:
        """An entry's displayed strings (SPAN_KEYS order), folded on first use and kept."""
        shown = self._display.get(entry_index)
        if shown is None:
            entry = self._entries[entry_index]
            title = entry_title(entry)
            body = self._regulation.body
            strings = (title.ja, title.en, body(entry, "ja"), body(entry, "en"))
            shown = self._display[entry_index] = tuple(map(Shown.of, strings))
        return shown

    def _why(
        self,
        parsed: Query,
        expansions: dict[str, dict[str, float]],
        entry_index: int,
        cues: tuple[Cue, ...],
    ) -> Why:
        fields, situations = self._fields(entry_index)
        return explain(parsed, expansions, fields, situations, cues)

    def _fields(
        self, entry_index: int
    ) -> tuple[tuple[FieldText, ...], tuple[tuple[Text, FieldText], ...]]:
        """An entry's fields, best first, and its situations, folded on first use and kept."""
        explained = self._explained.get(entry_index)
        if explained is None:
            entry = self._entries[entry_index]
            readings = self._readings
            strings = {
                FIELD_OF_WEIGHT[w]: s for w, s in _entry_strings(self._regulation, entry, readings)
            }
            if isinstance(entry, Infraction):
                section = self._regulation.section(entry.section_id)
                if section is not None:
                    strings["section"] = _section_strings(section, readings)[0][1]
            fields = tuple(
                FieldText.of(name, fold("\n".join(strings[name])))
                for name in FIELDS
                if strings.get(name)
            )
            situations = tuple(
                (
                    situation,
                    FieldText.of(
                        "situation",
                        fold("\n".join(_with_readings(readings, [situation.ja, situation.en]))),
                    ),
                )
                for situation in _situations(entry)
            )
            explained = self._explained[entry_index] = (fields, situations)
        return explained

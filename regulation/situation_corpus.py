"""The situation model's training inputs: the corpus (corpus/situations_*.yaml) and the
entries' own typical situations and aliases. Development only: the app reads the trained
weights (regulation/situation_model.py), never this.

A corpus file is `entries: {entry id: {ja: [situation, …], en: [situation, …]}}`: situations as
judges, reporting players and opponents describe them, written apart from the evaluation
tables. The loader checks every id against the regulation, that each row is a one-line text and
that no row repeats another (after folding, across files); each fault is one `DataError` line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .data import DataError, parse_yaml
from .model import LANGS, Infraction, Regulation, Tier, entry_title
from .normalize import fold
from .paths import ROOT

CORPUS_DIR = ROOT / "corpus"
CORPUS_GLOB = "situations_*.yaml"
MAX_ROW_CHARS = 300
MIN_QUOTED_CHARS = 12  # a sentence of the regulation this long, found in a row, is a quotation
# The evaluation tables: a corpus row that is one of their queries (after folding) is left out
# of training, so that no figure measured on them is a row the model learned. (The blind second
# table is not read: its writer and the corpus's wrote apart.)
EVALUATION_TABLES = (
    ROOT / "tests" / "situation_queries.yaml",
    ROOT / "tests" / "search_queries.yaml",
    ROOT / "tests" / "situation_holdout2.yaml",
)


@dataclass(frozen=True, slots=True, order=True)
class Example:
    """One training text and the entry it describes."""

    entry_id: str
    lang: str
    text: str
    source: str  # "corpus" or the entry's own field: "situation", "alias", "title"


def corpus_paths(folder: Path = CORPUS_DIR) -> list[Path]:
    return sorted(folder.glob(CORPUS_GLOB))


def folded_key(text: str) -> str:
    """What two rows must differ in: the folded text, spaces collapsed."""
    return " ".join(fold(text).split())


def load_corpus(regulation: Regulation, paths: Iterable[Path] | None = None) -> list[Example]:
    """Every corpus row, in file order, checked (see the module's doc). Raises DataError."""
    known = {entry.id for entry in regulation.entries()}
    examples: list[Example] = []
    seen: dict[str, str] = {}  # folded row → where it was first
    for path in corpus_paths() if paths is None else paths:
        try:
            source = path.read_bytes()
        except OSError as exc:
            raise DataError(path, "", exc.strerror or str(exc)) from None
        data = parse_yaml(path, source)
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, dict) or set(data) != {"entries"}:
            raise DataError(path, "", "must be one mapping, `entries: {id: {ja: […], en: […]}}`")
        for entry_id, rows in entries.items():
            if entry_id not in known:
                raise DataError(path, entry_id, "no such entry in the regulation")
            if not isinstance(rows, dict) or not set(rows) <= set(LANGS):
                raise DataError(path, entry_id, "must map ja and en to lists of situations")
            for lang in LANGS:
                texts = rows.get(lang) or []
                if not isinstance(texts, list):
                    raise DataError(path, f"{entry_id}.{lang}", "must be a list of situations")
                for number, text in enumerate(texts, 1):
                    where = f"{entry_id}.{lang}[{number}]"
                    if not isinstance(text, str) or not text.strip() or "\n" in text.strip():
                        raise DataError(path, where, "must be one line of text")
                    if len(text) > MAX_ROW_CHARS:
                        raise DataError(path, where, f"longer than {MAX_ROW_CHARS} characters")
                    key = folded_key(text)
                    if key in seen:
                        raise DataError(path, where, f"repeats {seen[key]}: {text.strip()!r}")
                    seen[key] = f"{path.name} {where}"
                    examples.append(Example(entry_id, lang, text.strip(), "corpus"))
    return examples


def own_examples(regulation: Regulation) -> list[Example]:
    """The entries' own searchable words, as training texts: their titles, typical
    situations (both languages) and aliases."""
    examples: list[Example] = []
    for entry in regulation.entries():
        title = entry_title(entry)
        examples += [
            Example(entry.id, "ja", title.ja, "title"),
            Example(entry.id, "en", title.en, "title"),
        ]
        if not isinstance(entry, Tier):
            for situation in entry.situations:
                examples.append(Example(entry.id, "ja", situation.ja, "situation"))
                examples.append(Example(entry.id, "en", situation.en, "situation"))
        examples += [Example(entry.id, "ja", alias, "alias") for alias in entry.aliases.ja]
        examples += [Example(entry.id, "en", alias, "alias") for alias in entry.aliases.en]
    return examples


def evaluation_queries(tables: Iterable[Path] = EVALUATION_TABLES) -> frozenset[str]:
    """Every query of the evaluation tables, folded (see `folded_key`)."""
    queries: set[str] = set()
    for path in tables:
        table = parse_yaml(path, path.read_bytes())
        queries.update(folded_key(str(row["q"])) for lang in LANGS for row in table[lang])
    return frozenset(queries)


def quotes_regulation(regulation: Regulation) -> Callable[[str], bool]:
    """Whether a folded row is regulation text: a tier's or infraction's title, or holding a
    sentence of an entry's text (MIN_QUOTED_CHARS or longer). Naming an entry is not quoting it
    ("one step below Match Forfeiture"), and principles' labels are the app's own."""
    named: list[Tier | Infraction] = [*regulation.tiers, *regulation.infractions]
    titles = {folded_key(entry.title[lang]) for entry in named for lang in LANGS}
    sentences: set[str] = set()
    for entry in regulation.entries():
        for lang in LANGS:
            text = regulation.body(entry, lang).replace("。", "\n").replace(". ", "\n")
            sentences.update(folded_key(line) for line in text.splitlines())
    quoted = sorted(s for s in sentences - titles if len(s) >= MIN_QUOTED_CHARS)
    return lambda row: row in titles or any(sentence in row for sentence in quoted)


def training_examples(regulation: Regulation, paths: Iterable[Path] | None = None) -> list[Example]:
    """The corpus and the entries' own examples, sorted (training is then order-free). Corpus
    rows that are an evaluation query or regulation text are left out."""
    excluded = evaluation_queries()
    quotes = quotes_regulation(regulation)
    corpus = [
        example
        for example in load_corpus(regulation, paths)
        if (key := folded_key(example.text)) not in excluded and not quotes(key)
    ]
    return sorted({*corpus, *own_examples(regulation)})


def inputs_sha256(examples: Sequence[Example], settings: dict[str, object]) -> str:
    """The fingerprint of a training run's inputs: its examples and its settings."""
    payload = {
        "examples": [[e.entry_id, e.lang, e.text, e.source] for e in sorted(examples)],
        "settings": settings,
    }
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

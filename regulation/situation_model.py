"""The situation model: a small linear classifier from a described situation to the entry
that answers it, learned from a bilingual corpus of situations (corpus/situations_*.yaml) and
the entries' own typical situations and aliases. Pure Python, no Flet.

Features are read off the app's own folding (`normalize.fold`): character 1–3-grams of every
Japanese run (Japanese has no word breaks, and n-grams survive okurigana and word order), and,
for English, word stems, pairs of neighbouring stems and character trigrams of each word (word
forms and typing slips). Each feature counts 1/√n for a query of n features. The model is
multinomial logistic regression: one weight per (feature, entry) kept by training
(scripts/train_situation_model.py), small weights pruned; an entry's probability is the
softmax of its bias plus its features' weights. Scoring a query is a few dozen dictionary
look-ups (well under a millisecond).

The weights are data, `assets/situation_model.json`, checked like every compiled data file
(`regulation/data.py`): its first line is a manifest with the SHA-256 and size of the weights
below it, and the SHA-256 of the training inputs (tests/test_situation_model.py fails when the
corpus changed and the weights were not retrained). A missing, cut short or damaged file, or one
that names an entry the regulation does not have, is one `DataError` line naming the file and
the fault, before anything is shown, like every other bundled data file.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cues import without_intent
from .data import DataError, check_payload, read_sealed
from .normalize import WORD_PATTERN, fold, stem
from .paths import ASSETS_DIR
from .query import STOPWORDS

MODEL_PATH = ASSETS_DIR / "situation_model.json"
FORMAT = 1
TRAIN_COMMAND = "python scripts/train_situation_model.py"
MAX_MODEL_BYTES = 4 * 1024 * 1024  # the shipped file is well under 1 MB: a bound, not a size
MAX_QUERY_CHARS = 200  # as the search's parser: a pasted page is scored on its start only
JAPANESE_GRAMS = (1, 2, 3)
ENGLISH_CHAR_GRAM = 3


def features(text: str) -> list[str]:
    """The features of `text`, sorted: `j` Japanese character n-grams, `w` English word stems,
    `b` pairs of neighbouring stems, `c` character trigrams of English words (padded). Intent
    words (わざと, by mistake …) are left out: the search's intent cue weighs them, once."""
    found: set[str] = set()
    previous = ""
    for run in without_intent(fold(text)[:MAX_QUERY_CHARS]).split():
        if run.isascii():
            for word in WORD_PATTERN.findall(run):
                if word in STOPWORDS:
                    continue  # as the search's parser: "the caution" is "caution"
                stemmed = stem(word)
                found.add("w " + stemmed)
                if previous:
                    found.add(f"b {previous} {stemmed}")
                previous = stemmed
                padded = f"<{word}>"
                found.update(
                    "c " + padded[i : i + ENGLISH_CHAR_GRAM]
                    for i in range(len(padded) - ENGLISH_CHAR_GRAM + 1)
                )
            continue
        previous = ""
        for size in JAPANESE_GRAMS:
            found.update("j " + run[i : i + size] for i in range(len(run) - size + 1))
    return sorted(found)


@dataclass(frozen=True, slots=True)
class SituationModel:
    """Trained weights: `labels` are entry ids; `weights` maps a feature to its non-zero
    weights, flat: label index, weight, label index, weight…; `bias` has one per label."""

    labels: tuple[str, ...]
    bias: tuple[float, ...]
    weights: Mapping[str, Sequence[float]]
    inputs_sha256: str  # of the training inputs (see regulation.situation_corpus)

    def probabilities(self, text: str) -> dict[str, float]:
        """Entry id → probability that `text` describes it (summing to 1); empty for a text
        with no known feature (the model knows nothing about it)."""
        weights = self.weights
        found = [weights[f] for f in features(text) if f in weights]
        if not found:
            return {}
        value = 1.0 / math.sqrt(len(found))
        scores = list(self.bias)
        for row in found:
            for position in range(0, len(row), 2):
                scores[int(row[position])] += row[position + 1] * value
        top = max(scores)
        exps = [math.exp(score - top) for score in scores]
        total = sum(exps)
        return {label: e / total for label, e in zip(self.labels, exps, strict=True)}


# -- the file -----------------------------------------------------------------------------------


def render(model: SituationModel, summary: Mapping[str, Any]) -> bytes:
    """The file's bytes: a manifest line, then the weights as JSON (see the module's doc)."""
    data = {
        "labels": list(model.labels),
        "bias": [round(b, 4) for b in model.bias],
        "weights": {f: list(row) for f, row in sorted(model.weights.items())},
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    manifest = {
        "format": FORMAT,
        "inputs_sha256": model.inputs_sha256,
        "data_sha256": hashlib.sha256(payload).hexdigest(),
        "data_bytes": len(payload),
        "labels": list(model.labels),
        **summary,
        "trained_by": TRAIN_COMMAND,
    }
    return json.dumps(manifest, ensure_ascii=False).encode() + b"\n" + payload


_LOADED: dict[Path, SituationModel] = {}


def load_situation_model(path: Path = MODEL_PATH) -> SituationModel:
    """The model in `path`, read and checked once per process. Raises DataError."""
    loaded = _LOADED.get(path)
    if loaded is None:
        loaded = _LOADED[path] = read_situation_model(path)
    return loaded


def verify_situation_model(entry_ids: Iterable[str], path: Path = MODEL_PATH) -> None:
    """Checks that `path` is whole, the one trained (its manifest and hash) and for these
    entries, without reading the weights: a few milliseconds, for the start-up. Raises
    DataError."""
    _, manifest = _verified(path)
    unknown = sorted(set(manifest["labels"]) - set(entry_ids))
    if unknown:
        fault = f"names entry '{unknown[0]}', which the regulation does not have: {_RETRAIN}"
        raise DataError(path, "labels", fault)


def read_situation_model(path: Path) -> SituationModel:
    """Reads and checks `path` (see the module's doc). Raises DataError."""
    payload, manifest = _verified(path)
    try:
        model = _model(json.loads(payload.decode("utf-8")), manifest["inputs_sha256"])
        if list(model.labels) != manifest["labels"]:
            raise ValueError("labels")
        return model
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        # Only if the trainer itself wrote nonsense: the hash caught any damage.
        raise DataError(path, "weights", f"not a situation model: {_RETRAIN}") from None


_RETRAIN = f"run {TRAIN_COMMAND}"


def _verified(path: Path) -> tuple[bytes, dict[str, Any]]:
    """The weights' bytes and the manifest, once both are checked. Raises DataError."""
    try:
        manifest, payload = read_sealed(
            path, MAX_MODEL_BYTES, _MANIFEST_FIELDS, FORMAT, "not a situation model", _RETRAIN
        )
    except FileNotFoundError:
        raise DataError(path, "", f"missing: {_RETRAIN}") from None
    fault = f"cut short or damaged (not what was trained): {_RETRAIN}"
    check_payload(path, manifest, payload, "weights", fault)
    return payload, manifest


_MANIFEST_FIELDS: dict[str, type] = {
    "format": int,
    "inputs_sha256": str,
    "data_sha256": str,
    "data_bytes": int,
    "labels": list,
}


def _model(data: Any, inputs_sha256: str) -> SituationModel:
    """The model of parsed weights; raises ValueError (or TypeError…) on any wrong shape."""
    labels = tuple(data["labels"])
    bias = tuple(map(float, data["bias"]))
    if not labels or len(bias) != len(labels) or not all(isinstance(x, str) for x in labels):
        raise ValueError("labels")
    weights = data["weights"]
    if not isinstance(weights, dict) or not all(map(math.isfinite, bias)):
        raise ValueError("weights")
    # The rows are used as parsed: converting 10⁵ numbers would cost more than the search's
    # whole index. Their shape is the trainer's (tests/test_situation_model.py checks the
    # shipped file's every row); the hash above rules out damage.
    return SituationModel(labels, bias, weights, inputs_sha256)

"""Training the situation model (regulation/situation_model.py): multinomial logistic
regression by stochastic gradient descent, pure Python, deterministic (sorted inputs, a fixed
seed, a fixed number of passes). Development only: scripts/train_situation_model.py runs it
and writes the weights; the app only reads them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from .situation_corpus import Example
from .situation_model import SituationModel, features

MIN_GRADIENT = 1e-4  # a label whose probability is already this close is left as it is


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything besides the examples that decides the weights (part of the inputs' hash)."""

    epochs: int = 24
    learning_rate: float = 0.5
    decay: float = 0.0002  # the rate at step t is learning_rate / (1 + decay · t)
    prune_below: float = 0.07  # weights smaller than this (in absolute value) are not kept
    digits: int = 2  # weights are rounded to this many decimals in the file
    seed: int = 19

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def train(examples: Sequence[Example], settings: Settings, inputs_sha256: str) -> SituationModel:
    """The model of `examples` (any order: they are sorted first)."""
    ordered = sorted(examples)
    labels = tuple(sorted({example.entry_id for example in ordered}))
    label_of = {label: index for index, label in enumerate(labels)}
    count = len(labels)
    vocabulary: dict[str, int] = {}
    rows: list[tuple[list[int], float, int]] = []  # feature ids, each one's value, label
    for example in ordered:
        ids = [vocabulary.setdefault(f, len(vocabulary)) for f in features(example.text)]
        if ids:
            rows.append((ids, 1.0 / math.sqrt(len(ids)), label_of[example.entry_id]))
    weights = [[0.0] * count for _ in vocabulary]
    bias = [0.0] * count
    shuffler = random.Random(settings.seed)
    step = 0
    for _ in range(settings.epochs):
        order = list(range(len(rows)))
        shuffler.shuffle(order)
        for position in order:
            ids, value, label = rows[position]
            rate = settings.learning_rate / (1.0 + settings.decay * step)
            step += 1
            sums = map(sum, zip(*(weights[feature] for feature in ids), strict=True))
            scores = [b + value * total for b, total in zip(bias, sums, strict=True)]
            top = max(scores)
            exps = [math.exp(score - top) for score in scores]
            total = sum(exps)
            gradient = [e / total for e in exps]
            gradient[label] -= 1.0
            # Only the labels the example still moves: late in training, a handful.
            moved = [(k, rate * g) for k, g in enumerate(gradient) if abs(g) > MIN_GRADIENT]
            for feature in ids:
                row = weights[feature]
                for k, change in moved:
                    row[k] -= change * value
            for k, change in moved:
                bias[k] -= change
    kept: dict[str, tuple[float, ...]] = {}
    for name, index in vocabulary.items():
        row = [
            number
            for label_index, w in enumerate(weights[index])
            if abs(w) >= settings.prune_below
            for number in (label_index, round(w, settings.digits))
        ]
        if row:
            kept[name] = tuple(row)
    return SituationModel(
        labels, tuple(round(b, settings.digits + 1) for b in bias), kept, inputs_sha256
    )

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


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything besides the examples that decides the weights (part of the inputs' hash)."""

    epochs: int = 12
    learning_rate: float = 0.5
    decay: float = 0.0002  # the rate at step t is learning_rate / (1 + decay · t)
    l2: float = 1e-5
    prune_below: float = 0.02  # weights smaller than this (in absolute value) are not kept
    digits: int = 3  # weights are rounded to this many decimals in the file
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
            scores = list(bias)
            for feature in ids:
                scores = [s + w * value for s, w in zip(scores, weights[feature], strict=True)]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            gradient = [e / total for e in exps]
            gradient[label] -= 1.0
            shrink = 1.0 - rate * settings.l2
            step_sizes = [rate * g * value for g in gradient]
            for feature in ids:
                weights[feature] = [
                    w * shrink - d for w, d in zip(weights[feature], step_sizes, strict=True)
                ]
            bias = [b - rate * g for b, g in zip(bias, gradient, strict=True)]
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

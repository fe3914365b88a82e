"""Train the situation model and write assets/situation_model.json (regulation/situation_model.py).

    python scripts/train_situation_model.py            # train on everything, write the weights
    python scripts/train_situation_model.py --check    # writes nothing: fails if they are stale
    python scripts/train_situation_model.py --cv 5     # cross-validation inside the corpus

The inputs are the corpus (corpus/situations_*.yaml) and the entries' titles, typical situations
and aliases (assets/rules_ja.yaml, English from the catalog). Training is deterministic: the same
inputs give the same bytes. Cross-validation cuts the corpus rows of each entry into K folds
(the entries' own examples always train), trains on K-1, and ranks each held-out row with the
model alone, the search without the model, and the search with it; nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regulation.data import DataError  # noqa: E402
from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402
from regulation.search import SearchIndex  # noqa: E402
from regulation.situation_corpus import (  # noqa: E402
    Example,
    inputs_sha256,
    own_examples,
    training_examples,
)
from regulation.situation_model import (  # noqa: E402
    MODEL_PATH,
    SituationModel,
    read_situation_model,
    render,
)
from regulation.situation_training import Settings, train  # noqa: E402

SETTINGS = Settings()


def trained(regulation: Regulation, settings: Settings = SETTINGS) -> tuple[SituationModel, bytes]:
    """The model of the committed inputs, and the file's bytes."""
    examples = training_examples(regulation)
    model = train(examples, settings, inputs_sha256(examples, settings.as_dict()))
    weights = sum(len(row) // 2 for row in model.weights.values())
    summary = {
        "examples": len(examples),
        "corpus_rows": sum(example.source == "corpus" for example in examples),
        "features": len(model.weights),
        "weights": weights,
        "settings": settings.as_dict(),
    }
    return model, render(model, summary)


def current_inputs_sha256(regulation: Regulation, settings: Settings = SETTINGS) -> str:
    return inputs_sha256(training_examples(regulation), settings.as_dict())


def ranked(index: SearchIndex, query: str) -> list[str]:
    return [hit.entry.id for hit in index.search(query, limit=3)]


def cross_validate(regulation: Regulation, folds: int, settings: Settings = SETTINGS) -> None:
    corpus = [e for e in training_examples(regulation) if e.source == "corpus"]
    own = own_examples(regulation)
    by_entry: dict[str, list[Example]] = defaultdict(list)
    for example in sorted(corpus):
        by_entry[example.entry_id].append(example)
    fold_of = {
        example: position % folds
        for rows in by_entry.values()
        for position, example in enumerate(rows)
    }
    words_only = SearchIndex.build(regulation, model=False)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # n, top-1, top-3
    for fold in range(folds):
        train_rows = [example for example in corpus if fold_of[example] != fold] + own
        model = train(train_rows, settings, "")
        blended = SearchIndex.build(regulation, model=model)
        for example in corpus:
            if fold_of[example] != fold:
                continue
            probabilities = model.probabilities(example.text)
            alone = sorted(probabilities, key=lambda label: -probabilities[label])[:3]
            for name, ids in (
                ("model alone", alone),
                ("words only", ranked(words_only, example.text)),
                ("words + model", ranked(blended, example.text)),
            ):
                for group in (name, f"{name} {example.lang}"):
                    tally = counts[group]
                    tally[0] += 1
                    tally[1] += bool(ids) and ids[0] == example.entry_id
                    tally[2] += example.entry_id in ids
        print(f"  fold {fold + 1}/{folds} done", file=sys.stderr)
    print(f"cross-validation over {len(corpus)} corpus rows (as trained on), {folds} folds")
    print(f"  {'ranking':<20}{'n':>6}  {'top-1':>7} {'top-3':>7}")
    for group, (n, top1, top3) in sorted(counts.items()):
        print(f"  {group:<20}{n:>6}  {top1 / n:>7.1%} {top3 / n:>7.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the weights are stale")
    parser.add_argument("--cv", type=int, metavar="K", help="K-fold cross-validation only")
    args = parser.parse_args(argv)
    try:
        regulation = load_regulation()
        if args.cv:
            cross_validate(regulation, args.cv)
            return 0
        if args.check:
            shipped = read_situation_model(MODEL_PATH)
            if shipped.inputs_sha256 != current_inputs_sha256(regulation):
                print(f"{MODEL_PATH}: stale (its inputs changed): run {__file__}", file=sys.stderr)
                return 1
            print(f"{MODEL_PATH.name}: up to date")
            return 0
        start = time.process_time()
        model, data = trained(regulation)
        seconds = time.process_time() - start
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    MODEL_PATH.write_bytes(data)
    weights = sum(len(row) // 2 for row in model.weights.values())
    print(
        f"wrote {MODEL_PATH.relative_to(ROOT)}: {len(data):,} bytes, {len(model.labels)} entries,"
        f" {len(model.weights):,} features, {weights:,} weights; trained in {seconds:.1f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Search quality on the situation table (tests/situation_queries.yaml), by split.

    python bench/eval_search.py --split tune        # what the search was tuned on
    python bench/eval_search.py --split holdout --figures-only   # while tuning: figures, no rows
    python bench/eval_search.py --split holdout     # run once, at the end (see the table's header)

Prints top-1 / top-3 (right entry first / in the first three) overall, by language and by kind
of query, and every query whose answer is not first. Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regulation.loader import load_regulation  # noqa: E402
from regulation.search import SearchIndex  # noqa: E402

TABLE_PATH = ROOT / "tests" / "situation_queries.yaml"


@dataclass(frozen=True, slots=True)
class Row:
    lang: str
    query: str
    targets: frozenset[str]
    split: str
    kind: str


def load_rows(split: str | None = None) -> list[Row]:
    table = yaml.safe_load(TABLE_PATH.read_text(encoding="utf-8"))
    rows = [
        Row(lang, str(row["q"]), frozenset(row["targets"]), row["split"], row["kind"])
        for lang in ("ja", "en")
        for row in table[lang]
    ]
    return [row for row in rows if split in (None, row.split)]


@dataclass(frozen=True, slots=True)
class Rates:
    n: int
    top1: float
    top3: float


def rates(rows: list[Row], ranked: list[list[str]]) -> Rates:
    top1 = sum(bool(ids) and ids[0] in row.targets for row, ids in zip(rows, ranked, strict=True))
    top3 = sum(bool(row.targets & set(ids[:3])) for row, ids in zip(rows, ranked, strict=True))
    return Rates(len(rows), top1 / len(rows), top3 / len(rows)) if rows else Rates(0, 0.0, 0.0)


def evaluate(index: SearchIndex, rows: list[Row]) -> tuple[Rates, list[str]]:
    ranked = [[hit.entry.id for hit in index.search(row.query, limit=3)] for row in rows]
    lines = [f"  {'group':<12}{'n':>4}  {'top-1':>7} {'top-3':>7}"]
    groups: dict[str, list[int]] = defaultdict(list)
    for position, row in enumerate(rows):
        groups["all"].append(position)
        groups[row.lang].append(position)
        groups[f"kind:{row.kind}"].append(position)
    for name in sorted(groups, key=lambda g: (g != "all", g.startswith("kind"), g)):
        picked = groups[name]
        result = rates([rows[i] for i in picked], [ranked[i] for i in picked])
        lines.append(f"  {name:<12}{result.n:>4}  {result.top1:>7.1%} {result.top3:>7.1%}")
    misses = [
        f"    {'MISS ' if not row.targets & set(ids) else ''}{row.lang} {row.query!r}: "
        f"expected {sorted(row.targets)}, got {ids}"
        for row, ids in zip(rows, ranked, strict=True)
        if not ids or ids[0] not in row.targets
    ]
    return rates(rows, ranked), [*lines, "", "  not first:", *misses]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "holdout", "all"], default="tune")
    parser.add_argument(
        "--figures-only",
        action="store_true",
        help="print the figures, not the queries missed (to measure the holdout while tuning)",
    )
    args = parser.parse_args(argv)
    rows = load_rows(None if args.split == "all" else args.split)
    overall, lines = evaluate(SearchIndex.build(load_regulation()), rows)
    print(f"situation table, split {args.split}: {overall.n} queries")
    if args.figures_only:
        lines = lines[: lines.index("")]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

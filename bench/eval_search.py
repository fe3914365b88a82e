"""Search quality on a situation table (tests/situation_queries.yaml unless --table), by split.

    python bench/eval_search.py --split tune        # what the search was tuned on
    python bench/eval_search.py --split holdout --figures-only   # while tuning: figures, no rows
    python bench/eval_search.py --split holdout     # run once, at the end (see the table's header)
    python bench/eval_search.py --table tests/situation_holdout2.yaml --split holdout
                                                    # the blind second table: once, by the lead

Prints top-1 / top-3 (right entry first / in the first three) overall, by language and by kind
of query, and every query whose answer is not first. Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
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


SPLITS = ("tune", "holdout")


def load_rows(split: str | None = None, table_path: Path = TABLE_PATH) -> list[Row]:
    table = yaml.safe_load(table_path.read_text(encoding="utf-8"))
    rows = [
        Row(lang, str(row["q"]), frozenset(row["targets"]), row["split"], row["kind"])
        for lang in ("ja", "en")
        for row in table[lang]
    ]
    return [row for row in rows if split in (None, row.split)]


def table_problems(table_path: Path, known_ids: set[str]) -> list[str]:
    """What is wrong with a situation table, one line each (none: it can be run).

    Checked before a run so that a held-out table that is run once is not spent on a typo.
    """
    try:
        text = table_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return [f"{table_path}: cannot be read ({type(error).__name__})"]
    try:
        table = yaml.safe_load(text)
    except yaml.YAMLError:
        return [f"{table_path}: not valid YAML"]
    if not isinstance(table, dict) or set(table) != {"ja", "en"}:
        return [f"{table_path}: expected exactly the keys ja and en"]
    problems: list[str] = []
    for lang in ("ja", "en"):
        rows = table[lang]
        if not isinstance(rows, list) or not rows:
            problems.append(f"{lang}: expected a non-empty list of rows")
            continue
        for number, row in enumerate(rows, start=1):
            where = f"{lang} row {number}"
            if not isinstance(row, dict) or set(row) != {"q", "targets", "split", "kind"}:
                problems.append(f"{where}: expected exactly the fields q, targets, split, kind")
                continue
            query, targets = row["q"], row["targets"]
            if not isinstance(query, str) or not query.strip():
                problems.append(f"{where}: q must be a non-empty string")
            if not isinstance(targets, list) or not targets:
                problems.append(f"{where}: targets must be a non-empty list")
            else:
                problems.extend(
                    f"{where}: unknown target {target!r}"
                    for target in targets
                    if not isinstance(target, str) or target not in known_ids
                )
                if len(set(map(str, targets))) != len(targets):
                    problems.append(f"{where}: a target is listed twice")
            if row["split"] not in SPLITS:
                problems.append(f"{where}: split must be one of {', '.join(SPLITS)}")
            if not isinstance(row["kind"], str) or not row["kind"].strip():
                problems.append(f"{where}: kind must be a non-empty string")
    return problems


def repeated_queries(rows: list[Row]) -> list[str]:
    """Queries that occur in more than one row (each is then counted more than once)."""
    counts = Counter(row.query for row in rows)
    return sorted(query for query, count in counts.items() if count > 1)


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


def display(path: Path) -> str:
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "holdout", "all"], default="tune")
    parser.add_argument(
        "--figures-only",
        action="store_true",
        help="print the figures, not the queries missed (to measure the holdout while tuning)",
    )
    parser.add_argument(
        "--table",
        type=Path,
        default=TABLE_PATH,
        help="the situation table to run (default: tests/situation_queries.yaml)",
    )
    args = parser.parse_args(argv)
    regulation = load_regulation()
    problems = table_problems(args.table, {entry.id for entry in regulation.entries()})
    if problems:
        print(f"not run: {args.table} has {len(problems)} problem(s)", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 2
    rows = load_rows(None if args.split == "all" else args.split, args.table)
    if not rows:
        print(f"not run: {args.table} has no rows in split {args.split}", file=sys.stderr)
        return 2
    for query in repeated_queries(rows):
        print(f"note: {query!r} is in more than one row (counted each time)", file=sys.stderr)
    overall, lines = evaluate(SearchIndex.build(regulation), rows)
    print(f"situation table {display(args.table)}, split {args.split}: {overall.n} queries")
    if args.figures_only:
        lines = lines[: lines.index("")]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

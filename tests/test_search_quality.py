"""Search quality on realistic judge queries.

The keyword table (tests/search_queries.yaml): every query must find one of its expected entries
in the top 3, and top-1 must stay at least 97 %. The report (`pytest -s`) compares our search with
the baseline a judge has without the app: Ctrl+F of the raw query over the official Japanese
page, i.e. the entries whose Japanese title or body contains the query, in document order.

The situation table (tests/situation_queries.yaml, issue 8): its `tune` half must reach top-3
≥ 95 % and top-1 ≥ 85 %. Its `holdout` half was run once, untouched, by bench/eval_search.py at
the end of the tuning (top-1 89.0 %, top-3 96.6 %), and again at the end of issue 19's, with its
new rows (85.0 %, 94.8 %); it is kept here only as a regression floor at that figure: tuning on
it would make it a second tune half. Nothing is written to disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from regulation.model import Entry, Regulation, entry_title
from regulation.search import SearchIndex

QUERIES_PATH = Path(__file__).with_name("search_queries.yaml")
SITUATIONS_PATH = Path(__file__).with_name("situation_queries.yaml")
MIN_TOP3 = 1.0
MIN_TOP1 = 0.97  # measured 98.5 % after issue 8 (97.4 % before it)
SITUATION_MIN_TOP3 = 0.98  # 98.5 % with the situation model (issue 19)
SITUATION_MIN_TOP1 = 0.93  # 93.8 %
# The holdout half as run at the end of issue 19's second round, with the situation model (178
# and 191 of 193; at the end of its first round 164 and 183, before it 161 and 180), a floor
# against regressions: tuning on it would make it a second tune half.
HOLDOUT_FLOOR_TOP1 = 178 / 193
HOLDOUT_FLOOR_TOP3 = 191 / 193


@dataclass(frozen=True, slots=True)
class Case:
    lang: str
    query: str
    expected: frozenset[str]


# Both workers read the two tables at collection: libyaml's safe loader where PyYAML has it
# (the same data from these tables, a tenth of the CPU: 0.3 s a worker), else the pure-Python one.
TABLE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_cases() -> list[Case]:
    table = yaml.load(QUERIES_PATH.read_text(encoding="utf-8"), Loader=TABLE_LOADER)
    return [
        Case(lang, str(row["q"]), frozenset(row["expect"]))
        for lang in ("ja", "en")
        for row in table[lang]
    ]


CASES = load_cases()


def ours(index: SearchIndex, query: str) -> list[str]:
    return [hit.entry.id for hit in index.search(query, limit=3)]


def baseline(regulation: Regulation, query: str) -> list[str]:
    """Ctrl+F on the official page: raw substring of the Japanese title or body."""

    def japanese(entry: Entry) -> str:
        title = entry_title(entry)
        return f"{title.ja}\n{regulation.body(entry, 'ja')}"

    return [entry.id for entry in regulation.entries() if query in japanese(entry)][:3]


@dataclass(frozen=True, slots=True)
class Rates:
    top1: float
    top3: float

    @classmethod
    def of(cls, cases: list[Case], ranked: list[list[str]]) -> Rates:
        top1 = sum(
            bool(ids) and ids[0] in case.expected for case, ids in zip(cases, ranked, strict=True)
        )
        top3 = sum(
            bool(case.expected & set(ids[:3])) for case, ids in zip(cases, ranked, strict=True)
        )
        return cls(top1 / len(cases), top3 / len(cases))


def test_the_table_is_realistic_in_size_and_balanced() -> None:
    by_lang = {lang: sum(case.lang == lang for case in CASES) for lang in ("ja", "en")}
    assert len(CASES) >= 80
    assert min(by_lang.values()) >= 0.4 * len(CASES), by_lang


def test_every_expected_id_exists(regulation: Regulation) -> None:
    unknown = {i for case in CASES for i in case.expected if regulation.entry(i) is None}
    assert not unknown


# Ids by position (ja-001 …): pytest would escape Japanese ids; the message names the query.
CASE_IDS = [f"{case.lang}-{number:03d}" for number, case in enumerate(CASES, 1)]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_query_finds_its_entry_in_top_3(index: SearchIndex, case: Case) -> None:
    top3 = ours(index, case.query)
    assert case.expected & set(top3), (
        f"{case.query!r}: expected {sorted(case.expected)}, got {top3}"
    )


def test_quality_report(index: SearchIndex, regulation: Regulation) -> None:
    our_ranked = [ours(index, case.query) for case in CASES]
    base_ranked = [baseline(regulation, case.query) for case in CASES]
    lines = ["", "search quality: right entry at rank 1 / in the top 3", ""]
    header = ("queries", "n", "ours top1", "top3", "Ctrl+F top1", "top3")
    lines.append("  {:<10}{:>4}   {:>9} {:>6}   {:>11} {:>6}".format(*header))
    overall: dict[str, Rates] = {}
    for label, selected in (("ja", "ja"), ("en", "en"), ("all", None)):
        picked = [i for i, case in enumerate(CASES) if selected in (None, case.lang)]
        cases = [CASES[i] for i in picked]
        our = Rates.of(cases, [our_ranked[i] for i in picked])
        base = Rates.of(cases, [base_ranked[i] for i in picked])
        overall[label] = our
        lines.append(
            f"  {label:<10}{len(cases):>4}   {our.top1:>9.1%} {our.top3:>6.1%}"
            f"   {base.top1:>11.1%} {base.top3:>6.1%}"
        )
    misses = [
        f"    {case.lang} {case.query!r}: expected {sorted(case.expected)}, got {ids}"
        for case, ids in zip(CASES, our_ranked, strict=True)
        if not ids or ids[0] not in case.expected
    ]
    if misses:
        lines += ["", "  not first:", *misses]
    print("\n".join(lines))
    assert overall["all"].top3 >= MIN_TOP3
    assert overall["all"].top1 >= MIN_TOP1


# -- the situation table (issue 8) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    lang: str
    query: str
    targets: frozenset[str]
    split: str
    kind: str


def load_situations() -> list[Situation]:
    table = yaml.load(SITUATIONS_PATH.read_text(encoding="utf-8"), Loader=TABLE_LOADER)
    return [
        Situation(lang, str(row["q"]), frozenset(row["targets"]), row["split"], row["kind"])
        for lang in ("ja", "en")
        for row in table[lang]
    ]


SITUATIONS = load_situations()


def test_situation_table_is_large_balanced_and_split(regulation: Regulation) -> None:
    by_lang = {lang: sum(s.lang == lang for s in SITUATIONS) for lang in ("ja", "en")}
    assert len(SITUATIONS) >= 160 and min(by_lang.values()) >= 80, by_lang
    assert {s.split for s in SITUATIONS} == {"tune", "holdout"}
    tune = sum(s.split == "tune" for s in SITUATIONS)
    assert 0.4 <= tune / len(SITUATIONS) <= 0.6
    unknown = {t for s in SITUATIONS for t in s.targets if regulation.entry(t) is None}
    assert not unknown
    # Every infraction and principle is asked for in both halves.
    for split in ("tune", "holdout"):
        asked = {t for s in SITUATIONS if s.split == split for t in s.targets}
        for entry in (*regulation.infractions, *regulation.principles):
            assert entry.id in asked, (split, entry.id)


@pytest.mark.parametrize(
    ("split", "min_top1", "min_top3"),
    [
        ("tune", SITUATION_MIN_TOP1, SITUATION_MIN_TOP3),
        ("holdout", HOLDOUT_FLOOR_TOP1, HOLDOUT_FLOOR_TOP3),
    ],
)
def test_situation_table(index: SearchIndex, split: str, min_top1: float, min_top3: float) -> None:
    cases = [s for s in SITUATIONS if s.split == split]
    ranked = [ours(index, case.query) for case in cases]
    top1 = sum(bool(ids) and ids[0] in c.targets for c, ids in zip(cases, ranked, strict=True))
    top3 = sum(bool(c.targets & set(ids)) for c, ids in zip(cases, ranked, strict=True))
    misses = [
        f"{c.query!r}: expected {sorted(c.targets)}, got {ids}"
        for c, ids in zip(cases, ranked, strict=True)
        if not c.targets & set(ids)
    ]
    assert top3 / len(cases) >= min_top3 - 1e-9, misses
    assert top1 / len(cases) >= min_top1 - 1e-9, (top1, len(cases))

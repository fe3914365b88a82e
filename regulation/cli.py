"""The command line's commands: `list`, `search`, `finder`, `--version` (docs/architecture.md).

Output only; argument parsing lives in main.py. Nothing here imports flet.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from .finder import Finder, FinderNode, FinderOption
from .model import Entry, Infraction, Principle, Regulation, Tier, entry_title


def entry_kind(entry: Entry) -> str:
    if isinstance(entry, Tier):
        return "tier"
    if isinstance(entry, Principle):
        return "principle"
    return "infraction"


def entry_json(regulation: Regulation, entry: Entry) -> dict:
    """ENTRY of the JSON contract."""
    section = category = penalty = None
    if isinstance(entry, Infraction):
        found = regulation.section(entry.section_id)
        section = found.title.as_dict() if found else None
        category = found.category_id if found else None
        penalty = entry.penalty.id
    title = entry_title(entry)
    return {
        "id": entry.id,
        "kind": entry_kind(entry),
        "title": title.as_dict(),
        "section": section,
        "category": category,
        "penalty": penalty,
        "text": {lang: regulation.body(entry, lang) for lang in ("ja", "en")},
    }


def print_json(payload: dict, out: TextIO = sys.stdout) -> None:
    json.dump(payload, out, ensure_ascii=False, indent=2)
    out.write("\n")


def list_command(regulation: Regulation, as_json: bool, out: TextIO = sys.stdout) -> None:
    if as_json:
        entries = [entry_json(regulation, e) for e in regulation.entries()]
        print_json({"entries": entries}, out)
        return
    write = out.write
    write(f"{regulation.document.label.ja} / {regulation.document.label.en}\n\n")
    write("== 罰則 / Penalties ==\n")
    for tier in regulation.tiers:
        write(f"  {tier.letter}  {tier.title.ja} / {tier.title.en}  [{tier.id}]\n")
    heading = regulation.principles_heading
    write(f"\n== {heading.ja} / {heading.en} ==\n")
    for principle in regulation.principles:
        write(f"  - {principle.label.ja} / {principle.label.en}  [{principle.id}]\n")
    for category in regulation.categories:
        write(f"\n== {category.label.ja} / {category.label.en} ==\n")
        for section in regulation.sections_in_category(category.id):
            write(f"  {section.number}. {section.title.ja} / {section.title.en}\n")
            for infraction in regulation.infractions_in_section(section.id):
                tier = infraction.penalty
                write(f"     [{tier.letter} {tier.title.ja}] {infraction.title.ja}\n")
                write(f"        {tier.title.en}: {infraction.title.en}  [{infraction.id}]\n")


def search_command(
    regulation: Regulation, query: str, limit: int, as_json: bool, out: TextIO = sys.stdout
) -> int:
    from .data import DataError
    from .search import SearchIndex
    from .situation_model import verify_situation_model

    try:
        verify_situation_model(entry.id for entry in regulation.entries())
        index = SearchIndex.build(regulation)
    except DataError as exc:  # the situation model's weights: one line, like any data file
        sys.stderr.write(f"error: {exc}\n")
        return 1
    hits = index.search(query, limit=limit)
    if as_json:
        results = [{**entry_json(regulation, h.entry), "score": round(h.score, 3)} for h in hits]
        print_json({"query": query, "results": results}, out)
        return 0
    if not hits:
        out.write(f"no results for {query!r}\n")
        return 0
    for rank, hit in enumerate(hits, 1):
        entry = hit.entry
        if isinstance(entry, Infraction):
            badge = f"{entry.penalty.letter} {entry.penalty.title.ja} / {entry.penalty.title.en}"
        elif isinstance(entry, Tier):
            badge = f"tier {entry.letter}"
        else:
            badge = "principle"
        title = entry_title(entry)
        out.write(f"{rank:>2}. [{badge}] {title.ja}\n    {title.en}  ({entry.id})\n")
    return 0


def finder_node_json(node: FinderNode) -> dict:
    """NODE of the `finder --json` contract, with every question below it inlined."""
    return {
        "id": node.id,
        "question": node.question.as_dict(),
        "options": [finder_option_json(option) for option in node.options],
    }


def finder_option_json(option: FinderOption) -> dict:
    """OPTION: a label and either the next NODE or the id of the entry it ends on."""
    if option.next is not None:
        return {"label": option.label.as_dict(), "next": finder_node_json(option.next)}
    if option.none is not None:  # no infraction: the app's words why
        return {"label": option.label.as_dict(), "none": option.none.text.as_dict()}
    result = option.result
    assert result is not None  # an option has exactly one of the two (FinderOption.target)
    return {"label": option.label.as_dict(), "result": result.id}


def finder_command(finder: Finder, as_json: bool, out: TextIO = sys.stdout) -> None:
    if as_json:
        print_json({"root": finder_node_json(finder.root)}, out)
        return
    _write_finder_node(finder.root, 0, out)


def _write_finder_node(node: FinderNode, depth: int, out: TextIO) -> None:
    pad = "    " * depth
    out.write(f"{pad}? {node.question.ja}  [{node.id}]\n{pad}  {node.question.en}\n")
    for option in node.options:
        out.write(f"{pad}  - {option.label.ja} / {option.label.en}\n")
        if option.next is not None:
            _write_finder_node(option.next, depth + 1, out)
            continue
        if option.none is not None:
            out.write(f"{pad}      → 違反ではない: {option.none.text.ja}\n")
            out.write(f"{pad}        No infraction: {option.none.text.en}\n")
            continue
        entry = option.result
        if isinstance(entry, Infraction):
            tier = entry.penalty
            out.write(f"{pad}      → [{tier.letter} {tier.title.ja}] {entry.title.ja}\n")
            out.write(f"{pad}        {tier.title.en}: {entry.title.en}  ({entry.id})\n")
        elif entry is not None:
            out.write(f"{pad}      → [原則] {entry.label.ja}\n")
            out.write(f"{pad}        Principle: {entry.label.en}  ({entry.id})\n")

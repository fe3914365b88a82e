"""Load assets/rules_ja.yaml (through its compiled twin, regulation/data.py) and the English
catalog into a validated `Regulation`.

Every fault is reported as one `RegulationError` naming the file, the line or entry, and what is
wrong, so that a broken data file never surfaces as a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .catalog import Catalog, load_catalog
from .data import Compiled, DataError, read_compiled
from .model import (
    Aliases,
    Category,
    Document,
    Infraction,
    Principle,
    Regulation,
    Section,
    Text,
    Tier,
)
from .paths import RULES_PATH

RegulationError = DataError  # the name the app and its tests know the data's faults by
# Every id of the data, the finder's too: lowercase ASCII words joined by '-', route-safe
# (/infractions/<id>, /finder/<id>) and one spelling per entry (stored bookmarks).
ENTRY_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def load_regulation(rules_path: Path = RULES_PATH, catalog: Catalog | None = None) -> Regulation:
    """Read, validate and translate the regulation. Raises RegulationError."""
    compiled = read_compiled(rules_path)
    if catalog is None:
        catalog = english_catalog()
    return build_regulation(rules_path, compiled, catalog)


def english_catalog() -> Catalog:
    """The shipped English catalog. Raises RegulationError."""
    try:
        return load_catalog()
    except OSError as exc:  # missing or not a compiled catalog (gettext raises OSError)
        raise RegulationError(exc.filename or "catalog", "catalog", str(exc)) from None


def build_regulation(rules_path: Path, compiled: Compiled, catalog: Catalog) -> Regulation:
    """The model of checked data (also run by `python -m regulation.compile` before writing)."""
    return _Builder(rules_path, catalog, compiled.source_sha256).build(compiled.data)


class _Builder:
    """Turns the parsed YAML into model objects, checking as it goes.

    Every key is read through `field` (or a reader built on it), which remembers it: a key that
    no reader asked for is unknown, a typo or a field the app does not have, and is refused
    (`known_keys_only`) rather than silently dropped."""

    def __init__(self, path: Path, catalog: Catalog, digest: str) -> None:
        self.path = path
        self.catalog = catalog
        self.digest = digest
        self.seen_ids: set[str] = set()
        self.read_keys: set[tuple[int, str]] = set()  # (id(mapping), key) of every key read

    def fail(self, where: str, fault: str) -> RegulationError:
        return RegulationError(self.path, where, fault)

    # -- field readers ------------------------------------------------------------------

    def text(self, japanese: str) -> Text:
        return self.catalog.text(japanese)

    def field(self, node: dict, key: str, where: str, kind: type = str, required: bool = True):
        self.read_keys.add((id(node), key))
        if key not in node or node[key] is None:
            if required:
                raise self.fail(where, f"missing required field '{key}'")
            return None
        value = node[key]
        if kind is str and not (isinstance(value, str) and value.strip()):
            raise self.fail(where, f"field '{key}' must be a non-empty string")
        if kind is list and not isinstance(value, list):
            raise self.fail(where, f"field '{key}' must be a list")
        if kind is dict and not isinstance(value, dict):
            raise self.fail(where, f"field '{key}' must be a mapping")
        if kind is bool and not isinstance(value, bool):
            raise self.fail(where, f"field '{key}' must be true or false")
        return value

    def strings(self, node: dict, key: str, where: str, required: bool = False) -> list[str]:
        values = self.field(node, key, where, list, required) or []
        for value in values:
            if not (isinstance(value, str) and value.strip()):
                raise self.fail(where, f"every item of '{key}' must be a non-empty string")
        return values

    def texts(self, node: dict, key: str, where: str, required: bool = False) -> tuple[Text, ...]:
        return tuple(self.text(s) for s in self.strings(node, key, where, required))

    def aliases(self, node: dict, where: str) -> Aliases:
        raw = self.field(node, "aliases", where, dict, required=False) or {}
        unknown = set(raw) - {"ja", "en"}
        if unknown:
            raise self.fail(where, f"aliases may only have 'ja' and 'en', not {sorted(unknown)}")
        return Aliases(
            ja=tuple(self.strings(raw, "ja", where)), en=tuple(self.strings(raw, "en", where))
        )

    def situations(self, node: dict, where: str) -> tuple[Text, ...]:
        """Typical situations: Japanese strings, translated through the catalog, each once."""
        situations = self.strings(node, "situations", where)
        repeated = sorted({s for s in situations if situations.count(s) > 1})
        if repeated:
            raise self.fail(where, f"situation listed twice: {repeated[0]}")
        return tuple(self.text(s) for s in situations)

    def known_keys_only(self, node: dict, where: str) -> None:
        unknown = [key for key in node if (id(node), key) not in self.read_keys]
        if unknown:
            raise self.fail(where, f"unknown key '{unknown[0]}'")

    def entry_id(self, node: Any, where: str) -> str:
        if not isinstance(node, dict):
            raise self.fail(where, "must be a mapping")
        entry_id = self.field(node, "id", where)
        if not ENTRY_ID.fullmatch(entry_id):
            raise self.fail(f"{where} '{entry_id}'", "id must be lowercase ASCII words and '-'")
        if entry_id in self.seen_ids:
            raise self.fail(f"{where} '{entry_id}'", f"duplicate id '{entry_id}'")
        self.seen_ids.add(entry_id)
        return entry_id

    def items(self, data: dict, key: str, where: str) -> list:
        items = self.field(data, key, where, list)
        if not items:
            raise self.fail(where, f"'{key}' must list at least one entry")
        return items

    def each(self, items: list, kind: str, build: Callable[[dict, str, str, int], Any]) -> tuple:
        built = []
        for index, node in enumerate(items):
            entry_id = self.entry_id(node, f"{kind} #{index + 1}")
            built.append(build(node, entry_id, f"{kind} '{entry_id}'", index))
            self.known_keys_only(node, f"{kind} '{entry_id}'")
        return tuple(built)

    # -- the document -------------------------------------------------------------------

    def build(self, data: Any) -> Regulation:
        if not isinstance(data, dict):
            raise self.fail("top level", "must be a mapping with tiers, principles, sections …")
        doc = self.field(data, "document", "top level", dict)
        document = Document(
            label=self.text(self.field(doc, "label", "document")),
            text_as_of=str(self.field(doc, "text_as_of", "document")),
            source_sha256=self.digest,
            penalty_label=self.text(self.field(doc, "penalty_label", "document")),
        )
        self.field(doc, "source", "document", required=False)  # for people: where the text is
        self.known_keys_only(doc, "document")
        tiers = self.each(self.items(data, "tiers", "top level"), "tier", self.tier)
        tiers_by_id = {t.id: t for t in tiers}

        principles_node = self.field(data, "principles", "top level", dict)
        principles_heading = self.text(self.field(principles_node, "heading", "principles"))
        principles = self.each(
            self.items(principles_node, "items", "principles"), "principle", self.principle
        )
        self.known_keys_only(principles_node, "principles")

        categories = self.each(
            self.items(data, "categories", "top level"), "category", self.category
        )
        category_of_section: dict[str, str] = {}
        for category in categories:
            for section_id in category.section_ids:
                if section_id in category_of_section:
                    raise self.fail(
                        f"category '{category.id}'", f"section '{section_id}' is in two categories"
                    )
                category_of_section[section_id] = category.id

        def section(node: dict, entry_id: str, where: str, index: int) -> Section:
            if entry_id not in category_of_section:
                raise self.fail(where, "section belongs to no category")
            return Section(
                id=entry_id,
                number=index + 1,
                letter=self.field(node, "letter", where, required=False),
                title=self.text(self.field(node, "title", where)),
                category_id=category_of_section[entry_id],
                heading_in_source=self.field(node, "heading_in_source", where, bool),
                titles_need_section=bool(
                    self.field(node, "titles_need_section", where, bool, required=False)
                ),
                aliases=self.aliases(node, where),
            )

        sections = self.each(self.items(data, "sections", "top level"), "section", section)
        section_ids = {s.id for s in sections}
        for section_id, category_id in category_of_section.items():
            if section_id not in section_ids:
                raise self.fail(f"category '{category_id}'", f"unknown section '{section_id}'")

        def infraction(node: dict, entry_id: str, where: str, index: int) -> Infraction:
            section_id = self.field(node, "section", where)
            if section_id not in section_ids:
                raise self.fail(where, f"unknown section '{section_id}'")
            tier_id = self.field(node, "penalty", where)
            if tier_id not in tiers_by_id:
                known = ", ".join(tiers_by_id)
                raise self.fail(where, f"penalty names unknown tier '{tier_id}' (known: {known})")
            return Infraction(
                id=entry_id,
                number=index + 1,
                section_id=section_id,
                title=self.text(self.field(node, "title", where)),
                penalty=tiers_by_id[tier_id],
                remedy=self.texts(node, "remedy", where),
                examples=self.texts(node, "examples", where),
                notes=self.texts(node, "notes", where),
                aliases=self.aliases(node, where),
                situations=self.situations(node, where),
            )

        infractions = self.each(
            self.items(data, "infractions", "top level"), "infraction", infraction
        )
        self.known_keys_only(data, "top level")
        return Regulation(
            document=document,
            tiers=tiers,
            principles_heading=principles_heading,
            principles=principles,
            categories=categories,
            sections=sections,
            infractions=infractions,
        )

    def tier(self, node: dict, entry_id: str, where: str, index: int) -> Tier:
        return Tier(
            id=entry_id,
            letter=self.field(node, "letter", where),
            severity=index,
            title=self.text(self.field(node, "title", where)),
            points=self.texts(node, "points", where, required=True),
            aliases=self.aliases(node, where),
        )

    def principle(self, node: dict, entry_id: str, where: str, index: int) -> Principle:
        return Principle(
            id=entry_id,
            label=self.text(self.field(node, "label", where)),
            text=self.text(self.field(node, "text", where)),
            aliases=self.aliases(node, where),
            situations=self.situations(node, where),
        )

    def category(self, node: dict, entry_id: str, where: str, index: int) -> Category:
        return Category(
            id=entry_id,
            label=self.text(self.field(node, "label", where)),
            section_ids=tuple(self.strings(node, "sections", where, required=True)),
        )

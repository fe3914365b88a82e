"""The penalty guidelines as typed, immutable values.

Every regulation string is a `Text`: the verbatim Japanese and its English translation. The
loader (`regulation.loader`) builds these from assets/rules_ja.yaml and the gettext catalogs;
nothing here knows about YAML, catalogs or Flet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Lang = Literal["ja", "en"]
LANGS: tuple[Lang, ...] = ("ja", "en")


@dataclass(frozen=True, slots=True)
class Text:
    """One string in both languages: `ja` is the source, `en` its translation."""

    ja: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.en if lang == "en" else self.ja

    def as_dict(self) -> dict[str, str]:
        return {"ja": self.ja, "en": self.en}


@dataclass(frozen=True, slots=True)
class Aliases:
    """Search aids for one entry, never shown as regulation text."""

    ja: tuple[str, ...] = ()
    en: tuple[str, ...] = ()

    def all(self) -> tuple[str, ...]:
        return self.ja + self.en


@dataclass(frozen=True, slots=True)
class Tier:
    """A penalty tier, A (mildest) to F (most severe)."""

    id: str
    letter: str
    severity: int  # 0 for A … 5 for F: the order of the source
    title: Text
    points: tuple[Text, ...]
    aliases: Aliases = field(default_factory=Aliases)


@dataclass(frozen=True, slots=True)
class Principle:
    """One of the four rules for applying penalties (罰則の適用)."""

    id: str
    label: Text  # the app's short heading; the source has none
    text: Text
    aliases: Aliases = field(default_factory=Aliases)
    situations: tuple[Text, ...] = ()  # the app's typical situations, never regulation text


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of the original document (デッキに関する違反 …)."""

    id: str
    number: int  # 1-based, document order
    letter: str | None  # "A" / "B" where the source prints one
    title: Text
    category_id: str
    heading_in_source: bool
    aliases: Aliases = field(default_factory=Aliases)


@dataclass(frozen=True, slots=True)
class Category:
    """A browsing group the judges asked for: deck, deck list, play, conduct."""

    id: str
    label: Text
    section_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Infraction:
    """One situation of the guidelines and what the judge does about it."""

    id: str
    number: int  # 1-based, document order
    section_id: str
    title: Text  # the situation
    penalty: Tier
    remedy: tuple[Text, ...] = ()
    examples: tuple[Text, ...] = ()
    notes: tuple[Text, ...] = ()
    aliases: Aliases = field(default_factory=Aliases)
    # Typical situations a judge sees at the table: the app's own words, never regulation text.
    situations: tuple[Text, ...] = ()

    def paragraphs(self) -> tuple[Text, ...]:
        """Remedy, examples and notes, in the source's order."""
        return (*self.remedy, *self.examples, *self.notes)


Entry = Tier | Principle | Infraction


def entry_title(entry: Entry) -> Text:
    """What a list shows for an entry: its title, or a principle's label (it has no title)."""
    return entry.label if isinstance(entry, Principle) else entry.title


@dataclass(frozen=True, slots=True)
class Document:
    """Metadata about the regulation (About screen)."""

    label: Text
    version: str
    source_sha256: str  # of the data file, so a judge can tell two builds' data apart
    penalty_label: Text  # 罰則：, the prefix of every penalty line


@dataclass(frozen=True, slots=True)
class Regulation:
    """The whole guideline, in document order, with look-ups by id."""

    document: Document
    tiers: tuple[Tier, ...]
    principles_heading: Text
    principles: tuple[Principle, ...]
    categories: tuple[Category, ...]
    sections: tuple[Section, ...]
    infractions: tuple[Infraction, ...]
    _by_id: dict[str, object] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = {
            e.id: e
            for group in (self.tiers, self.principles, self.categories, self.sections)
            for e in group
        }
        by_id.update((i.id, i) for i in self.infractions)
        object.__setattr__(self, "_by_id", by_id)

    def entries(self) -> tuple[Entry, ...]:
        """Tiers, principles and infractions in the source's order."""
        return (*self.tiers, *self.principles, *self.infractions)

    def tier(self, tier_id: str) -> Tier | None:
        found = self._by_id.get(tier_id)
        return found if isinstance(found, Tier) else None

    def category(self, category_id: str) -> Category | None:
        found = self._by_id.get(category_id)
        return found if isinstance(found, Category) else None

    def section(self, section_id: str) -> Section | None:
        found = self._by_id.get(section_id)
        return found if isinstance(found, Section) else None

    def infraction(self, infraction_id: str) -> Infraction | None:
        found = self._by_id.get(infraction_id)
        return found if isinstance(found, Infraction) else None

    def principle(self, principle_id: str) -> Principle | None:
        found = self._by_id.get(principle_id)
        return found if isinstance(found, Principle) else None

    def entry(self, entry_id: str) -> Entry | None:
        found = self._by_id.get(entry_id)
        return found if isinstance(found, Tier | Principle | Infraction) else None

    def penalty_line(self, infraction: Infraction, lang: str) -> str:
        """The source's 罰則：… line, in `lang`."""
        return f"{self.document.penalty_label[lang]}{infraction.penalty.title[lang]}"

    def body(self, entry: Entry, lang: str) -> str:
        """An entry's whole text in `lang` (the command line's `text`)."""
        if isinstance(entry, Tier):
            return "\n".join(p[lang] for p in entry.points)
        if isinstance(entry, Principle):
            return entry.text[lang]
        lines = [self.penalty_line(entry, lang), *(p[lang] for p in entry.paragraphs())]
        return "\n".join(lines)

    def infractions_in_section(self, section_id: str) -> tuple[Infraction, ...]:
        return tuple(i for i in self.infractions if i.section_id == section_id)

    def infractions_with_penalty(self, tier_id: str) -> tuple[Infraction, ...]:
        return tuple(i for i in self.infractions if i.penalty.id == tier_id)

    def sections_in_category(self, category_id: str) -> tuple[Section, ...]:
        category = self.category(category_id)
        return tuple(self._by_id[s] for s in category.section_ids) if category else ()  # type: ignore[misc]

    def category_of(self, section: Section) -> Category:
        return self._by_id[section.category_id]  # type: ignore[return-value]

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
# What the judge reads: one language, or both side by side (for showing a player).
DisplayLanguage = Literal["ja", "en", "both"]
DISPLAY_LANGUAGES: tuple[DisplayLanguage, ...] = ("ja", "en", "both")


@dataclass(frozen=True, slots=True)
class Text:
    """One string in both languages: `ja` is the source, `en` its translation.

    The language rule lives here and nowhere else: `pick` where one string fits (Japanese in
    "both" mode), `shown` where a line may carry both ("ja / en", once when they are equal)."""

    ja: str
    en: str

    def pick(self, language: str) -> str:
        return self.en if language == "en" else self.ja

    __getitem__ = pick

    def shown(self, language: str) -> str:
        if language == "both" and self.ja != self.en:
            return f"{self.ja} / {self.en}"
        return self.pick(language)

    def format(self, **values: object) -> Text:
        """Both languages with their {placeholders} filled in."""
        return Text(self.ja.format(**values), self.en.format(**values))

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
    # The section's infractions are titled by their case alone (規則性がない場合): where a title
    # stands without its section (a log row, a match slip), the section's title goes first.
    titles_need_section: bool = False
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
    text_as_of: str  # when the text was taken: the source carries no version or date
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
    _by_id: dict[str, Tier | Principle | Category | Section | Infraction] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        groups: tuple[tuple[Tier | Principle | Category | Section | Infraction, ...], ...] = (
            self.tiers,
            self.principles,
            self.categories,
            self.sections,
            self.infractions,
        )
        object.__setattr__(self, "_by_id", {e.id: e for group in groups for e in group})

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

    def standalone_title(self, infraction: Infraction) -> Text:
        """The title where it stands alone: with its section's title when the title is only
        the case of that section ("Marked cards: when there is no pattern")."""
        section = self.section(infraction.section_id)
        if section is None or not section.titles_need_section:
            return infraction.title
        return Text(
            f"{section.title.ja}：{infraction.title.ja}",
            f"{section.title.en}: {_lower_first(infraction.title.en)}",
        )

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
        if category is None:
            return ()
        return tuple(s for s in map(self.section, category.section_ids) if s is not None)

    def category_of(self, section: Section) -> Category:
        category = self.category(section.category_id)
        assert category is not None, section.category_id  # the loader checked every section
        return category


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]

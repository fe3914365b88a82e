"""One reader for every quantity a judge types: minutes (and seconds) late, cards in a deck,
copies of a card, each with the comparison words of both languages (未満, 以内, 以下, 以上, 超,
前, less than, under, within, up to, at least, over, more than …).

A quantity is read as the range of values it allows, in whole base units (seconds for time,
cards for decks and copies): 「5分未満」 is 0–299 seconds, 「4分59秒」 299, "at least 4 copies"
4 and up. The search reads the range against the regulation's thresholds (regulation.cues), so
"less than 5 minutes" can never be read as "5 minutes". Everything is matched on folded text
(see normalize.fold: full-width digits and colons as ASCII, katakana as hiragana, lower case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

QuantityKind = Literal["minutes", "deck_size", "copies"]
Comparison = Literal["<", "<=", ">", ">="]

# Base units per regulation unit: the regulation counts minutes, a judge may type seconds.
SECONDS_PER_MINUTE = 60
# A count of cards (枚, cards) is a deck's size from this many, else a number of copies.
DECK_SIZE_FROM = 10

# Comparison words, each with what it means of the number it qualifies. Before the number
# (English), and after the unit (Japanese, and English "or more").
BEFORE: dict[str, Comparison] = {
    **dict.fromkeys(("less than", "fewer than", "under", "below", "just under"), "<"),
    **dict.fromkeys(("nearly", "almost", "not even", "shorter than", "earlier than"), "<"),
    **dict.fromkeys(("within", "up to", "at most", "no more than", "not more than"), "<="),
    **dict.fromkeys(("no later than", "max", "maximum"), "<="),
    **dict.fromkeys(("more than", "over", "above", "longer than", "later than"), ">"),
    **dict.fromkeys(("at least", "no less than", "not less than", "no fewer than"), ">="),
    **dict.fromkeys(("a minimum of", "minimum"), ">="),
}
AFTER: dict[str, Comparison] = {
    **dict.fromkeys(("未満", "に満たない", "にみたない", "より少ない", "より少なく", "弱"), "<"),
    **dict.fromkeys(("前", "経過前", "たつ前", "経つ前", "過ぎる前", "すぎる前", "近く"), "<"),
    **dict.fromkeys(("以内", "以下", "まで"), "<="),
    **dict.fromkeys(("超", "超え", "超える", "を超える", "を超えて", "を超え", "超過"), ">"),
    **dict.fromkeys(("より多い", "より多く", "より長い", "より長く"), ">"),
    **dict.fromkeys(("以上",), ">="),
    **dict.fromkeys(("or less", "or fewer", "or under", "and under", "or below"), "<="),
    **dict.fromkeys(("or more", "or longer", "or over", "and over", "and up", "plus"), ">="),
}


@dataclass(frozen=True, slots=True)
class Quantity:
    """A quantity the query states: the values it allows, `low`–`high` inclusive, in base units
    (seconds for minutes; `high` None: no bound). `said` is how it reads back (12, 4:59, <5)."""

    kind: QuantityKind
    low: int
    high: int | None
    said: str

    @classmethod
    def exactly(cls, kind: QuantityKind, value: int) -> Quantity:
        """The quantity of one value, in the regulation's unit (minutes, cards)."""
        scale = SECONDS_PER_MINUTE if kind == "minutes" else 1
        return cls(kind, value * scale, value * scale, str(value))

    def overlap(self, low: int, high: int | None) -> int | None:
        """How many base units of [low, high] (high None: no bound) this quantity allows, or
        None when it allows no bound of its own above (at least …) and reaches the range."""
        top = self.high if high is None else high if self.high is None else min(self.high, high)
        bottom = max(self.low, low)
        if top is None:
            return None
        return max(0, top - bottom + 1)

    def holds(self, low: int, high: int | None) -> bool:
        """Whether the quantity's least value lies in [low, high]: "at least 5 minutes" is
        the 5-minute entry, not the 10-minute one it also reaches."""
        return low <= self.low and (high is None or self.low <= high)


# -- numbers ---------------------------------------------------------------------------------

_KANJI_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_KANA_NUMBERS = {  # read only right before a unit (よんまい, じゅっぷん), longest first
    "じゅうご": 15,
    "じゅうに": 12,
    "にじゅう": 20,
    "じゅっ": 10,
    "じっ": 10,
    "じゅう": 10,
    "いち": 1,
    "いっ": 1,
    "さん": 3,
    "よん": 4,
    "ろく": 6,
    "ろっ": 6,
    "なな": 7,
    "はち": 8,
    "はっ": 8,
    "きゅう": 9,
    "に": 2,
    "ご": 5,
}
_WORD_NUMBERS = {
    word: value
    for value, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
            *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"),
            *("seventeen", "eighteen", "nineteen", "twenty"),
        )
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1}
_ORDINALS |= {"2nd": 2, "3rd": 3, "4th": 4, "5th": 5}


def _alternatives(words: dict[str, Comparison]) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


_NUMBER = (
    r"(?P<n>\d{1,3}|[〇一二三四五六七八九十]{1,3}|"
    + "|".join(sorted(_KANA_NUMBERS, key=len, reverse=True))
    + r"|(?<![a-z])(?:"
    + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
    + r")(?![a-z]))"
)
_BEFORE = rf"(?:(?<![a-z])(?P<before>{_alternatives(BEFORE)})\s+)?"
_AFTER = rf"(?:\s*(?P<after>{_alternatives(AFTER)})(?![a-z]))?"
_MINUTE = r"(?:分|ふん|ぷん|min(?:ute)?s?(?![a-z]))"
_SECOND = r"(?:秒|びょう|s(?:ec(?:ond)?s?)?(?![a-z]))"


def _quantity(unit: str) -> re.Pattern[str]:
    """A number with its unit, between the comparison words of both languages."""
    return re.compile(_BEFORE + unit + _AFTER)


# Kind ("cards" is a deck's size or copies, by the number) → pattern; tried in this order, a
# span taken by one is not read again by a later one.
_PATTERNS: tuple[tuple[QuantityKind | Literal["cards", "seconds"], re.Pattern[str]], ...] = (
    # 4分59秒, 4:59 (minutes:seconds), 4 min 59 s
    (
        "minutes",
        _quantity(
            _NUMBER
            + r"(?:\s*"
            + _MINUTE
            + r"\s*(?P<s>\d{1,2})\s*"
            + _SECOND
            + r"|:(?P<s2>[0-5]\d)(?!\d)(?:\s*"
            + _MINUTE
            + r")?|\s*"
            + _MINUTE
            + r")"
        ),
    ),
    ("seconds", _quantity(r"(?P<n>\d{1,3})\s*" + _SECOND)),
    ("copies", _quantity(_NUMBER + r"\s*(?:枚目|まいめ|積み|づみ|投)")),
    (
        "copies",
        _quantity(
            _NUMBER + r"[\s-]*(?:copies|copy|of (?:a|the same|one) card|of them|-of(?![a-z]))"
        ),
    ),
    (
        "copies",
        _quantity(r"(?<![a-z])(?P<ord>" + "|".join(_ORDINALS) + r")\s+(?:copy|one|card)(?![a-z])"),
    ),
    # "of one card" names the card, it does not count copies
    ("cards", _quantity(r"(?!(?<=of )one(?![a-z]))" + _NUMBER + r"\s*(?:枚|まい|cards?(?![a-z]))")),
)


def _value(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text in _KANA_NUMBERS:
        return _KANA_NUMBERS[text]
    if text in _WORD_NUMBERS:
        return _WORD_NUMBERS[text]
    if all(c in _KANJI_DIGITS or c == "十" for c in text):  # 七, 十二, 二十, 二十五
        tens, _, ones = text.partition("十")
        if "十" not in text:
            return int("".join(str(_KANJI_DIGITS[c]) for c in text))
        return (_KANJI_DIGITS.get(tens, 1) if tens else 1) * 10 + (
            _KANJI_DIGITS.get(ones, 0) if ones else 0
        )
    return None


def bounds(value: int, comparison: Comparison | None) -> tuple[int, int | None]:
    """The whole values allowed by `comparison` `value` (none: exactly `value`)."""
    if comparison is None:
        return value, value
    if comparison == "<":
        return 0, max(0, value - 1)
    if comparison == "<=":
        return 0, value
    if comparison == ">":
        return value + 1, None
    return value, None


_SYMBOLS: dict[Comparison, str] = {"<": "<", "<=": "≤", ">": ">", ">=": "≥"}


def _said(value: str, comparison: Comparison | None) -> str:
    return value if comparison is None else f"{_SYMBOLS[comparison]}{value}"


def _read(kind: str, groups: dict[str, str | None]) -> Quantity | None:
    if groups.get("ord"):
        value: int | None = _ORDINALS[str(groups["ord"])]
    else:
        value = _value(str(groups["n"]))
    if value is None:
        return None
    before, after = groups.get("before"), groups.get("after")
    comparison = BEFORE[before] if before else AFTER[after] if after else None
    said = str(value)
    if kind in ("minutes", "seconds"):
        seconds = groups.get("s") or groups.get("s2")
        if kind == "seconds":
            said = f"0:{value:02d}" if value < SECONDS_PER_MINUTE else f"{value}s"
        elif seconds is not None:
            said = f"{value}:{int(seconds):02d}"
            value = value * SECONDS_PER_MINUTE + int(seconds)
        else:
            value *= SECONDS_PER_MINUTE
        kind = "minutes"
    elif kind == "cards":
        kind = "deck_size" if value >= DECK_SIZE_FROM else "copies"
    low, high = bounds(value, comparison)
    return Quantity(kind, low, high, _said(said, comparison))  # type: ignore[arg-type]


# Every quantity has one of these: a query with none (most) is not read further.
_UNIT_HINT = re.compile(
    r"分|ふん|ぷん|秒|びょう|枚|まい|投|積み|づみ|min|sec|card|cop|of|first|second|third|fourth"
    r"|fifth|1st|2nd|3rd|4th|5th|\d\s*s(?![a-z])|\d:\d"
)


def read_quantities(folded: str) -> tuple[tuple[Quantity, ...], tuple[tuple[int, int], ...]]:
    """The quantities a folded query states, and where: 12分 → 12 minutes, 5分未満 → under 5
    minutes, 4:59 → 4 minutes 59 seconds, 39枚以下 → a deck of at most 39, 4枚目 / fourth copy →
    4 copies. Exact copies counted in several places (メインに3枚サイドに1枚) add up; of several
    exact deck sizes the smallest counts, of several exact times the latest; otherwise the first
    of a kind counts."""
    if _UNIT_HINT.search(folded) is None:
        return (), ()
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(folded):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue
            quantity = _read(kind, match.groupdict())
            if quantity is None:
                continue
            taken.append(match.span())
            found.append(quantity)
    return _combined(found), tuple(taken)


def _combined(found: list[Quantity]) -> tuple[Quantity, ...]:
    by_kind: dict[QuantityKind, Quantity] = {}
    for quantity in found:
        earlier = by_kind.get(quantity.kind)
        if earlier is None:
            by_kind[quantity.kind] = quantity
        elif earlier.low != earlier.high or quantity.low != quantity.high:
            continue  # a range: the first one stated counts
        elif quantity.kind == "copies":
            total = earlier.low + quantity.low
            by_kind["copies"] = Quantity("copies", total, total, str(total))
        elif (quantity.low < earlier.low) == (quantity.kind == "deck_size"):
            by_kind[quantity.kind] = quantity
    return tuple(by_kind.values())

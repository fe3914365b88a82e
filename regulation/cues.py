"""What a query says beyond its words: intent (on purpose / by accident) and quantities
(minutes late, cards in a deck, copies of a card), read against the regulation's thresholds.

The word lists and thresholds are the tables below, in one place. Which entries are intentional
or not is the regulation's own wording (故意に / 故意ではなく in the title, see `intent_of`);
which deliberate entry answers a deliberate version of an accidental one is `DELIBERATE_FORM`.
Everything is matched on folded text (see normalize.fold: katakana as hiragana, lower case,
full-width digits as digits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .normalize import fold

Intent = Literal["deliberate", "accidental"]
QuantityKind = Literal["minutes", "deck_size", "copies"]

# Words that state intent, in both languages, as a judge types them. Longest match wins, so
# "not on purpose" and 故意ではなく are read before "on purpose" and 故意.
INTENT_WORDS: dict[Intent, tuple[str, ...]] = {
    "deliberate": (
        *("わざと", "わざわざ", "故意に", "故意で", "故意の", "こいに", "意図的", "こっそり"),
        *("隠れて", "ばれないように", "気づかれないように", "確信犯", "狙って", "隙に"),
        *("見ていない間に", "見てない間に"),
        *("on purpose", "purposely", "purposefully", "deliberately", "deliberate"),
        *("intentionally", "intentional", "knowingly", "sneaking", "sneaked", "sneak", "snuck"),
        *("secretly", "covertly", "willfully", "behind his back", "behind her back"),
    ),
    "accidental": (
        *("うっかり", "間違えて", "まちがえて", "間違って", "まちがって", "誤って", "あやまって"),
        *("故意ではなく", "故意ではない", "故意じゃない", "悪気はない", "悪気なく"),
        *("わざとじゃない", "わざとではない", "気づかず", "知らずに", "ついうっかり"),
        *("by accident", "accidentally", "accidental", "by mistake", "mistakenly", "inadvertently"),
        *("unintentionally", "unintentional", "not on purpose", "not intentional"),
        *("not deliberate", "without meaning to", "didn't mean to", "didnt mean to"),
    ),
}

# An accidental entry → the entry for doing the same on purpose. Drawing or looking at extra
# cards, or misplaying, done on purpose is cheating: "intentionally made a play that broke the
# rules" (故意に、ルールに違反したプレイをした).
DELIBERATE_FORM: dict[str, str] = {
    "drew-extra-cards": "broke-rules-on-purpose",
    "looked-at-extra-cards": "broke-rules-on-purpose",
    "misunderstood-rule": "broke-rules-on-purpose",
    "unintentional-slow-play": "intentional-slow-play",
}


@dataclass(frozen=True, slots=True)
class Threshold:
    """Entry `entry_id` answers a quantity of `kind` in [low, high) (high None: no bound)."""

    kind: QuantityKind
    entry_id: str
    low: int
    high: int | None


# The regulation's own thresholds. Late by under 5 minutes: the only entry is "did not meet the
# conditions set for the assembly time" (Warning); 5 and 10 minutes after it, the two seat
# entries. A deck of 40 cards or more is legal in the OCG (40–60); four copies or more is not.
THRESHOLDS: tuple[Threshold, ...] = (
    Threshold("minutes", "assembly-conditions-not-met", 0, 5),
    Threshold("minutes", "not-seated-5-minutes", 5, 10),
    Threshold("minutes", "not-seated-10-minutes", 10, None),
    Threshold("deck_size", "deck-under-40-cards", 0, 40),
    Threshold("copies", "four-or-more-copies", 4, None),
)

# A count of cards (枚, cards) is a deck's size from this many, else a number of copies.
DECK_SIZE_FROM = 10


def intent_of(title_ja: str) -> Intent | None:
    """The intent an entry's title states: 故意ではなく (accidental) or 故意に (deliberate)."""
    if title_ja.startswith("故意ではなく"):
        return "accidental"
    if "故意に" in title_ja:
        return "deliberate"
    return None


@dataclass(frozen=True, slots=True)
class Quantity:
    kind: QuantityKind
    value: int


@dataclass(frozen=True, slots=True)
class Cues:
    """What the query states: intent, and quantities; `spans` are where the folded query says
    them (intent words, 12分, 39枚), which the parser keeps apart as words of their own."""

    intent: Intent | None = None
    quantities: tuple[Quantity, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()


# -- reading numbers -------------------------------------------------------------------------

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

_NUMBER = (
    r"(?P<n>\d{1,3}|[〇一二三四五六七八九十]{1,3}|"
    + "|".join(sorted(_KANA_NUMBERS, key=len, reverse=True))
    + r"|(?<![a-z])(?:"
    + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
    + r")(?![a-z]))"
)
_MORE = r"(?P<more>more than |over |at least )?"
_LESS = r"(?P<less>less than |fewer than |under |below )?"
_AFTER = r"(?P<after>未満|以下|以上|超)?"
_PATTERNS: tuple[tuple[QuantityKind | Literal["cards"], re.Pattern[str]], ...] = (
    ("minutes", re.compile(_NUMBER + r"\s*(?:分|ふん|ぷん|min(?:ute)?s?(?![a-z]))")),
    ("copies", re.compile(_NUMBER + r"\s*(?:枚目|まいめ|積み|づみ|投)")),
    (
        "copies",
        re.compile(
            _MORE
            + _LESS
            + _NUMBER
            + r"[\s-]*(?:copies|copy|of (?:a|the same|one) card|of them|-of(?![a-z]))"
        ),
    ),
    (
        "copies",
        re.compile(r"(?<![a-z])(?P<ord>" + "|".join(_ORDINALS) + r")\s+(?:copy|one|card)(?![a-z])"),
    ),
    ("cards", re.compile(_MORE + _LESS + _NUMBER + r"\s*(?:枚|まい|cards?(?![a-z]))" + _AFTER)),
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


def read_quantities(folded: str) -> tuple[tuple[Quantity, ...], tuple[tuple[int, int], ...]]:
    """The quantities a folded query states: 12分 → 12 minutes, 39枚 → a 39-card deck, 4枚目 /
    fourth copy → 4 copies. Copies counted in several places (メインに3枚サイドに1枚) add up;
    of several deck sizes the smallest counts. Also returns where they are."""
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(folded):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue
            groups = match.groupdict()
            value = _ORDINALS[groups["ord"]] if groups.get("ord") else _value(groups["n"])
            if value is None:
                continue
            if groups.get("more") or groups.get("after") == "超":
                value += 1
            elif groups.get("less") or groups.get("after") == "未満":
                value -= 1
            taken.append(match.span())
            if kind == "cards":
                kind = "deck_size" if value >= DECK_SIZE_FROM else "copies"
            found.append(Quantity(kind, value))
    return _combined(found), tuple(taken)


def _combined(found: list[Quantity]) -> tuple[Quantity, ...]:
    by_kind: dict[QuantityKind, int] = {}
    for quantity in found:
        if quantity.kind not in by_kind:
            by_kind[quantity.kind] = quantity.value
        elif quantity.kind == "copies":
            by_kind["copies"] += quantity.value
        elif quantity.kind == "deck_size":
            by_kind["deck_size"] = min(by_kind["deck_size"], quantity.value)
        else:
            by_kind[quantity.kind] = max(by_kind[quantity.kind], quantity.value)
    return tuple(Quantity(kind, value) for kind, value in by_kind.items())


# -- reading intent --------------------------------------------------------------------------

_INTENT_TABLE = sorted(
    ((fold(word), intent) for intent, words in INTENT_WORDS.items() for word in words),
    key=lambda item: -len(item[0]),
)
_INTENT_PATTERN = re.compile(
    "|".join(
        rf"(?<![a-z]){re.escape(word)}(?![a-z])" if word.isascii() else re.escape(word)
        for word, _ in _INTENT_TABLE
    )
)
_INTENT_OF_WORD = dict(_INTENT_TABLE)


def read_cues(folded: str) -> Cues:
    """Intent words and quantities in a folded query. When a query states both intents (by
    accident … then on purpose), the last one stated counts."""
    intent: Intent | None = None
    spans: list[tuple[int, int]] = []
    for match in _INTENT_PATTERN.finditer(folded):
        intent = _INTENT_OF_WORD[match.group()]
        spans.append(match.span())
    quantities, quantity_spans = read_quantities(folded)
    return Cues(intent, quantities, tuple(sorted((*spans, *quantity_spans))))

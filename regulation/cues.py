"""What a query says beyond its words: intent (on purpose / by accident) and quantities
(minutes late, cards in a deck, copies of a card), read against the regulation's thresholds.

The word lists and thresholds are the tables below, in one place. Which entries are intentional
or not is the regulation's own wording (故意ではなく, and 故意に, 偽って, なりすまし, 約束し in the
title, see `intent_of`); quantities are read by regulation.quantities;
which deliberate entry answers a deliberate version of an accidental one is `DELIBERATE_FORM`.
Everything is matched on folded text (see normalize.fold: katakana as hiragana, lower case,
full-width digits as digits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .normalize import fold
from .quantities import SECONDS_PER_MINUTE, Quantity, QuantityKind, read_quantities

Intent = Literal["deliberate", "accidental"]

# Words that state intent, in both languages, as a judge types them. Longest match wins, so
# "not on purpose" and 故意ではなく are read before "on purpose" and 故意.
INTENT_WORDS: dict[Intent, tuple[str, ...]] = {
    "deliberate": (
        *("わざと", "わざわざ", "故意に", "故意で", "故意の", "こいに", "意図的", "こっそり"),
        *("隠れて", "ばれないように", "気づかれないように", "確信犯", "狙って", "隙に"),
        *("見ていない間に", "見てない間に", "知りながら", "知っていて", "分かっていて"),
        *("わかっていて", "承知で", "承知の上で", "偽って", "装って", "ふりをして", "名乗って"),
        *("持ちかけ", "約束して", "約束で", "約束した", "約束と", "引き換えに", "示し合わせ"),
        *("なりすまして", "なりすまし", "時間稼ぎ", "時間を稼", "告げずに", "無断で", "勝手に"),
        *("on purpose", "purposely", "purposefully", "deliberately", "deliberate"),
        *("intentionally", "intentional", "knowingly", "sneaking", "sneaked", "sneak", "snuck"),
        *("secretly", "covertly", "willfully", "behind his back", "behind her back"),
        *(
            "knowing",
            "pretending",
            "impersonating",
            "posing as",
            "falsely",
            "lied",
            "lying",
            "colluded",
        ),
        *("promised", "promising", "promise", "in exchange for", "offered", "offering"),
        *("stalling", "without telling", "of their own accord", "colluding"),
    ),
    "accidental": (
        *("うっかり", "間違えて", "まちがえて", "間違って", "まちがって", "誤って", "あやまって"),
        *("故意ではなく", "故意ではない", "故意じゃない", "悪気はない", "悪気なく"),
        *("わざとじゃない", "わざとではない", "気づかず", "知らずに", "ついうっかり"),
        *("間違えた", "間違い", "まちがい", "勘違い", "かんちがい", "ミスで", "記入ミス"),
        *("書き間違え", "書きまちがえ"),
        *("by accident", "accidentally", "accidental", "by mistake", "mistakenly", "inadvertently"),
        *("unintentionally", "unintentional", "not on purpose", "not intentional"),
        *("not deliberate", "without meaning to", "didn't mean to", "didnt mean to"),
        *("mistake", "honest mistake", "in error", "misremembered", "misread", "miscounted"),
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

# Where an honest mistake leads when the source has an entry only for doing it on purpose
# (対戦結果を偽って報告した has no "by mistake" twin): the principle that the guideline is a
# guide and the judge decides (本規定は指針であり…).
HONEST_ERROR_ENTRY = "judge-discretion"


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

# Words in an entry's title by which the source makes it deliberate: an act that cannot be
# done by honest mistake (故意に, 偽って "knowingly falsely", なりすまし "posing as", 約束し "a
# promise"). 故意ではなく, the source's own "not on purpose", is read first.
DELIBERATE_IN_TITLE = ("故意に", "偽って", "偽り", "なりすまし", "成りすまし", "約束し")


def intent_of(title_ja: str) -> Intent | None:
    """The intent an entry's title states: 故意ではなく (accidental), or deliberate where the
    title has a word that makes the act deliberate (DELIBERATE_IN_TITLE)."""
    if title_ja.startswith("故意ではなく"):
        return "accidental"
    if any(word in title_ja for word in DELIBERATE_IN_TITLE):
        return "deliberate"
    return None


def threshold_range(threshold: Threshold) -> tuple[int, int | None]:
    """The base units (seconds for minutes, cards) of a threshold's range, both ends inclusive."""
    scale = SECONDS_PER_MINUTE if threshold.kind == "minutes" else 1
    high = None if threshold.high is None else threshold.high * scale - 1
    return threshold.low * scale, high


# A rule asked about as a question ("what happens if it happens between duels", 失格でも賞品は
# もらえる？): the tiers and principles answer questions, infractions describe acts. Japanese
# question endings anywhere; English question words at the start of the query.
QUESTION_ENDINGS = (
    *("どうなる", "どうする", "ですか", "ますか", "できる", "できます", "もらえる", "いいの"),
    *("だろう", "でしょう", "かどうか", "とは"),
)
QUESTION_STARTS = (
    *("what", "does", "do", "can", "is", "are", "how", "when", "should", "may", "will"),
    *("who", "which", "why"),
)

# Who did what (the source tells the looker from the revealer): words of looking at someone
# else's cards, by which the query is about the looker, never the entry of showing them.
LOOKING_WORDS = (
    *("のぞき", "覗", "盗み見", "見られた", "見てきた", "見ようと"),
    *("peek", "peeked", "peeking", "peeks", "looked at my", "saw my", "looking at my"),
)
# The entries of revealing, which a query about looking lowers.
REVEALING_ENTRIES = ("revealed-hidden-information",)


@dataclass(frozen=True, slots=True)
class Cues:
    """What the query states: intent, and quantities; `spans` are where the folded query says
    them (intent words, 12分, 39枚), which the parser keeps apart as words of their own; whether
    it asks a question, and whether it is about looking at someone else's cards."""

    intent: Intent | None = None
    quantities: tuple[Quantity, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    question: bool = False
    looking: bool = False


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


def without_intent(folded: str) -> str:
    """A folded text with its intent words blanked: what the situation model reads (intent is
    the cues' to weigh, once; the model learns the situation)."""
    return _INTENT_PATTERN.sub(" ", folded)


def read_cues(folded: str) -> Cues:
    """Intent words and quantities in a folded query. When a query states both intents (by
    accident … then on purpose), the last one stated counts."""
    intent: Intent | None = None
    spans: list[tuple[int, int]] = []
    for match in _INTENT_PATTERN.finditer(folded):
        intent = _INTENT_OF_WORD[match.group()]
        spans.append(match.span())
    quantities, quantity_spans = read_quantities(folded)
    words = folded.split()
    question = any(ending in folded for ending in _QUESTION_ENDINGS) or bool(
        words and words[0] in QUESTION_STARTS
    )
    looking = _LOOKING_PATTERN.search(folded) is not None
    return Cues(intent, quantities, tuple(sorted((*spans, *quantity_spans))), question, looking)


_QUESTION_ENDINGS = tuple(fold(ending) for ending in QUESTION_ENDINGS)
_LOOKING_PATTERN = re.compile(
    "|".join(
        rf"(?<![a-z]){re.escape(fold(word))}(?![a-z])" if word.isascii() else re.escape(fold(word))
        for word in LOOKING_WORDS
    )
)

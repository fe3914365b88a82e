"""Who a record is about: the rule that makes two records "the same player".

Judges type names in a hurry, on different devices: 山田太郎, 山田　太郎 (full-width space),
ＹＡＭＡＤＡ, yamada. The rule, used for repeats, a player's history and the `--player` filters:

1. Both records carry a player ID: the same player exactly when the IDs are equal after
   `id_key` (NFKC width folding, case folding, whitespace removed). Two 田中 with different IDs
   are two players; one player whose name was misspelt once is still one player.
2. Otherwise (one or both without an ID): the same player when the names are equal after
   `name_key` (NFKC width folding, case folding, every space removed, so 山田 太郎 = 山田太郎).

Invisible characters do not count (`visible`): format characters (Unicode category Cf: zero
width spaces and joiners, bidi controls, the BOM, the soft hyphen) and the other default-ignorable
code points (variation selectors, Hangul fillers, …) are left out of both keys, so 山\u200b田太郎
is 山田太郎; a name or ID made of nothing else is refused (records/validate.py). The name is kept
as written (an emoji's joiner, a kanji's variation selector stay in the record).

Names are not folded further for identity: katakana and hiragana stay apart (ユキ and ゆき may
be two people) and the long-vowel mark counts (ユーキ is not ユキ). Type-ahead, which only
offers names, is looser: `search_key` is regulation.normalize.fold (kana, width, case,
punctuation), so typing ゆき offers ユキ.
"""

from __future__ import annotations

import re
import unicodedata

from regulation.normalize import fold

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) outside category Cf.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong / jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned specials
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement
)


def invisible(char: str) -> bool:
    """A character that shows nothing: a format character or another default ignorable."""
    if unicodedata.category(char) == "Cf":
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


_IGNORABLE = re.compile(
    "[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _IGNORABLE_RANGES) + "]"
)


def visible(text: str) -> str:
    """`text` without its invisible characters."""
    if text.isprintable():
        # No format character (Cf) is printable: only the other ignorables can be here, found
        # by one search instead of a look-up per character (thousands of names in a sync).
        return _IGNORABLE.sub("", text)
    return "".join(char for char in text if not invisible(char))


def _key(text: str) -> str:
    return "".join(visible(unicodedata.normalize("NFKC", text)).casefold().split())


def name_key(name: str) -> str:
    """A name's identity form: width and case folded, without spaces or invisible characters."""
    return _key(name)


def id_key(player_id: str | None) -> str | None:
    """A player ID's identity form (None for no ID)."""
    if player_id is None:
        return None
    return _key(player_id) or None


def search_words(name: str) -> str:
    """Folded words of a name, each preceded by a space: ' やまだ たろう'.

    A type-ahead prefix matches when ' ' + prefix occurs in it (the start of any word).
    """
    return "".join(" " + word for word in fold(name).split())


def search_compact(text: str) -> str:
    """Folded, without spaces: a prefix typed without the space still matches (やまだた)."""
    return "".join(fold(text).split())


def same_player(name_a: str, player_id_a: str | None, name_b: str, player_id_b: str | None) -> bool:
    """The identity rule above, for two (name, player ID) pairs."""
    id_a, id_b = id_key(player_id_a), id_key(player_id_b)
    if id_a is not None and id_b is not None:
        return id_a == id_b
    return name_key(name_a) == name_key(name_b)

"""Who a record is about: the rule that makes two records "the same player".

Judges type names in a hurry, on different devices: 山田太郎, 山田　太郎 (full-width space),
ＹＡＭＡＤＡ, yamada. The rule, used for repeats, a player's history and the `--player` filters:

1. Both records carry a player ID: the same player exactly when the IDs are equal after
   `id_key` (NFKC width folding, case folding, whitespace removed). Two 田中 with different IDs
   are two players; one player whose name was misspelt once is still one player.
2. Otherwise (one or both without an ID): the same player when the names are equal after
   `name_key` (NFKC width folding, case folding, every space removed, so 山田 太郎 = 山田太郎).

Names are not folded further for identity: katakana and hiragana stay apart (ユキ and ゆき may
be two people) and the long-vowel mark counts (ユーキ is not ユキ). Type-ahead, which only
offers names, is looser: `search_key` is regulation.normalize.fold (kana, width, case,
punctuation), so typing ゆき offers ユキ.
"""

from __future__ import annotations

import unicodedata

from regulation.normalize import fold


def name_key(name: str) -> str:
    """A name's identity form: width and case folded, without spaces."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def id_key(player_id: str | None) -> str | None:
    """A player ID's identity form (None for no ID)."""
    if player_id is None:
        return None
    key = "".join(unicodedata.normalize("NFKC", player_id).casefold().split())
    return key or None


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

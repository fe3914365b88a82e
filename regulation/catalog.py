"""English for every string, from the gettext catalogs in locales/.

Japanese is the source language: a message id is the Japanese string itself, and the `en`
catalog maps it to English. The compiled catalogs (`.mo`) are committed beside their `.po`
sources so that a fresh clone runs without a compile step; tests/test_catalogs.py fails when
they drift apart. Loading uses the stdlib `gettext` reader (babel's importer alone costs more
than the whole load); babel manages the catalogs (`pybabel extract/update/compile`).
"""

from __future__ import annotations

import gettext
from pathlib import Path

from .data import DataError
from .model import Text
from .paths import LOCALES_DIR

DOMAIN = "messages"
CONTEXT_SEPARATOR = "\x04"  # gettext's key for a message with a context: context + EOT + id


class MissingTranslation(LookupError):
    """A Japanese string that the English catalog does not translate."""


class Catalog:
    """Japanese → English look-up over a compiled gettext catalog."""

    def __init__(self, path: Path) -> None:
        """Raises OSError (missing, unreadable, not a catalog) or DataError (damaged)."""
        with path.open("rb") as fp:
            try:
                self._translations = gettext.GNUTranslations(fp)
            except OSError:  # not a catalog (bad magic number, "File is corrupt")
                raise
            except Exception as exc:
                # gettext trusts the offsets, lengths and headers it reads: a truncated or
                # damaged file fails anywhere in its parsing (struct.error, ValueError,
                # UnicodeDecodeError, LookupError for a charset, …), with no contract.
                raise DataError(
                    path, "catalog", f"damaged or truncated ({exc}); reinstall the app"
                ) from None
        self._messages: dict[object, str] = self._translations._catalog  # type: ignore[attr-defined]

    def lookup(self, japanese: str) -> str | None:
        """The English for `japanese`, or None when the catalog has none."""
        return self._messages.get(japanese) or None

    def text(self, message: str) -> Text:
        """A message in both languages. The message is its Japanese, or gettext's key for a
        message with a context ("context\\x04Japanese"). An untranslated string shows its
        Japanese in English mode rather than stopping the app at a venue;
        tests/test_catalogs.py keeps the shipped catalog complete."""
        japanese = message.rpartition(CONTEXT_SEPARATOR)[2]
        return Text(ja=japanese, en=self.lookup(message) or japanese)

    def english(self, japanese: str) -> str:
        """The English for `japanese`; raises MissingTranslation when there is none."""
        english = self._messages.get(japanese)
        if not english:
            raise MissingTranslation(japanese)
        return english

    def __contains__(self, japanese: str) -> bool:
        return bool(self._messages.get(japanese))


def load_catalog(locales_dir: Path = LOCALES_DIR, lang: str = "en") -> Catalog:
    return Catalog(locales_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo")

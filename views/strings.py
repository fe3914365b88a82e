"""Every UI string, defined once. The Japanese is the message id; the English comes from the
gettext catalog (`pybabel extract` finds these through the N_ marker).

Show one with `ctx.ui(message)` (views/context.py), never write UI text inline.
"""

from __future__ import annotations

from regulation.catalog import CONTEXT_SEPARATOR


def N_(message: str) -> str:
    """Marks a string for extraction without translating it here."""
    return message


def pgettext(context: str, message: str) -> str:
    """Marks a message whose Japanese has more than one meaning (分類: the Categories tab, an
    infraction's category): `context` tells them apart in the catalog. Like N_, it translates
    nothing; babel extracts it as a msgctxt, and the id it returns is gettext's own key for a
    message with a context, which the catalog looks up as it is (regulation/catalog.py)."""
    return f"{context}{CONTEXT_SEPARATOR}{message}"


APP_TITLE = N_("罰則ガイド")

# Navigation destinations (bottom bar / rail)
NAV_TIERS = N_("罰則")
NAV_CATEGORIES = pgettext("navigation", "分類")
NAV_FINDER = N_("診断")
NAV_SEARCH = N_("検索")

# Screen titles and headings
TIERS_TITLE = N_("罰則の種類")
CATEGORIES_TITLE = N_("違反の分類")
SEARCH_TITLE = N_("検索")
SETTINGS_TITLE = N_("設定")
ABOUT_TITLE = N_("このアプリについて")
BOOKMARKS = N_("ブックマーク")
RECENT = N_("最近見た項目")
INFRACTIONS_WITH_TIER = N_("この罰則が適用される違反")
NO_INFRACTIONS_WITH_TIER = N_("この罰則が適用される違反はありません。")
REMEDY = N_("処置")
NOTES = N_("注記")
LOCATION = pgettext("infraction location", "分類")
ALWAYS_APPLIES = N_("常に適用される原則")
ALSO_KNOWN_AS = N_("別名")
TYPICAL_SITUATIONS = N_("よくある状況の例")
TYPICAL_SITUATIONS_NOTE = N_("このアプリが用意した例です。規定の本文ではありません。")
INFRACTION_COUNT = N_("違反：{count} 件")
SELECT_AN_ITEM = N_("左の一覧から項目を選んでください。")

# Infraction finder
FINDER_TITLE = N_("質問で探す")
FINDER_YOUR_ANSWERS = N_("これまでの答え")
FINDER_CHANGE_ANSWER = N_("この答えを変える")
FINDER_START_OVER = N_("最初からやり直す")
FINDER_HINT = N_("左の質問に答えると、ここに違反が表示されます。")

# Search
SEARCH_HINT = N_("違反・罰則・用語を検索")
SEARCH_EMPTY = N_("違反名、罰則名、用語を日本語か英語で入力してください。")
SEARCH_EXAMPLES = N_("例：引きすぎ、遅刻、slow play、marked cards")
SEARCH_NO_RESULTS = N_("「{query}」に一致する項目はありません。")
SEARCH_NO_RESULTS_HINT = N_(
    "別の言葉や短い言葉で試すか、質問に答えて探すか、分類から探してください。"
)
SEARCH_TRY_FINDER = N_("質問に答えて探す")
SEARCH_BROWSE_CATEGORIES = N_("分類から探す")
SEARCH_RESULT_COUNT = N_("検索結果：{count} 件")
CLEAR_SEARCH = N_("検索語を消去")
KIND_PRINCIPLE = N_("原則")
# Why a result matched (a line under it)
WHY_MATCHED = N_("一致：{words}")
WHY_WORD_IN = N_("「{word}」（{field}）")
WHY_FIELD_TITLE = N_("題名")
WHY_FIELD_ALIAS = pgettext("matched field", "別名")
WHY_FIELD_SITUATION = N_("よくある状況")
WHY_FIELD_SECTION = N_("節の見出し")
WHY_FIELD_BODY = N_("本文")
WHY_INTENTIONAL = N_("故意")
WHY_UNINTENTIONAL = N_("故意ではなく")
WHY_MINUTES = N_("{n}分")
WHY_DECK_SIZE = N_("デッキ{n}枚")
WHY_COPIES = N_("同じカード{n}枚")
WHY_SITUATION = N_("状況例：{situation}")

# Saved
NO_BOOKMARKS = N_("ブックマークはまだありません。項目のページで☆をタップすると追加されます。")
NO_RECENT = N_("最近見た項目はありません。")
ADD_BOOKMARK = N_("ブックマークに追加")
REMOVE_BOOKMARK = N_("ブックマークから削除")
CLEAR_RECENT = N_("履歴を消去")

# Settings
LANGUAGE = N_("言語")
LANG_JA = N_("日本語")
LANG_EN = N_("英語")
LANG_BOTH = N_("両方（並べて表示）")
SWITCH_LANGUAGE = N_("言語を切り替え")
THEME = N_("テーマ")
THEME_SYSTEM = N_("端末の設定に従う")
THEME_LIGHT = N_("ライト")
THEME_DARK = N_("ダーク")
TEXT_SIZE = N_("文字の大きさ")
TEXT_SIZE_VALUE = N_("{percent}%")
SMALLER_TEXT = N_("文字を小さく")
LARGER_TEXT = N_("文字を大きく")
SAMPLE_TEXT = N_("見本：故意ではなく、過剰にカードを引いた")

# About
APP_VERSION = N_("アプリのバージョン")
REGULATION = N_("規定")
REGULATION_VERSION = N_("規定の版")
DATA_CHECKSUM = N_("データのチェックサム")
LICENCES = N_("ライセンス")
FONT_LICENCE = N_(
    "IPAexゴシック（IPAフォントライセンスv1.0）。フォントは改変せずに同梱しています。"
)
APP_LICENCE = N_("このアプリ：MIT ライセンス。")
OFFLINE_NOTE = N_("このアプリはネットワークを使いません。すべての情報は端末内にあります。")
DISCLAIMER = N_("日本語の規定本文は原文のまま収録しています。英語は参考訳です。")

# Not found
NOT_FOUND_TITLE = N_("ページが見つかりません")
NOT_FOUND_BODY = N_("「{route}」というページはありません。")
GO_HOME = N_("ホームに戻る")

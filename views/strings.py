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
NAV_LOG = N_("記録")
NAV_CLOCK = N_("時計")

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
# Headings the app shows that the regulation text it carries does not print.
FINDER_NO_INFRACTION = N_("違反ではありません（アプリの説明）")
HEADING_NOT_IN_SOURCE = N_(
    "この見出しは原文の公開版によるもので、収録した規定の本文にはありません。"
)
LABEL_NOT_IN_SOURCE = N_("この見出しはアプリが付けたものです。規定の本文ではありません。")
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
WHY_NO_ACCIDENTAL_ENTRY = N_(
    "規定には、うっかりした場合の項目はありません。判断はジャッジに委ねられます（アプリの注記）"
)

# Saved
NO_BOOKMARKS = N_("ブックマークはまだありません。項目のページで☆をタップすると追加されます。")
NO_RECENT = N_("最近見た項目はありません。")
ADD_BOOKMARK = N_("ブックマークに追加")
REMOVE_BOOKMARK = N_("ブックマークから削除")
CLEAR_RECENT = N_("履歴を消去")

# The penalty log (views/screens/log*.py)
LOG_TITLE = N_("罰則の記録")
LOG_EVENT_LINE = N_("大会：{name}")
LOG_RECORD_TARDINESS = N_("遅刻を記録（今到着）")
LOG_FILTER = N_("プレイヤーで絞り込む")
LOG_FILTER_HINT = N_("名前かプレイヤーIDの最初の文字")
LOG_EMPTY = N_("この大会の記録はまだありません。違反のページの「この罰則を記録」から記録できます。")
LOG_MORE = N_("さらに表示")
LOG_DETAIL_HINT = N_("記録を選ぶと、ここに表示されます。")
LOG_UNAVAILABLE = N_("罰則の記録を開けません。")
LOG_UNAVAILABLE_HINT = N_(
    "データフォルダに書き込めるか、空き容量があるかを確かめて、再試行してください。"
    "規定はこのまま読めます。"
)
LOG_RECOVERED = N_(
    "罰則の記録ファイルが読めなかったため（{fault}）、{kept} として残し、新しい記録を始めました。"
)
DATA_FOLDER = N_("データフォルダ：{path}")
RETRY = N_("再試行")
DISMISS = N_("閉じる")
ROUND_N = N_("{number}回戦")
NO_ROUND = N_("回戦なし")
TABLE_N = N_("{table}卓")
PLAYER_WITH_ID = N_("{name}（ID {id}）")
PLAYER_NAME = N_("プレイヤー名")
PLAYER_ID = N_("プレイヤーID（任意）")
PLAYER_MATCHES = N_("一致するプレイヤー")
PLAYER_NONE = N_("この大会に一致するプレイヤーはいません。")
PLAYER_RECORDS = N_("この大会での記録：{count} 件")
PLAYER_SEVEREST = N_("最も重い罰則：")
PLAYER_HISTORY = N_("この大会での記録（古い順）")
PLAYER_NO_RECORDS = N_("この大会では、このプレイヤーの記録はありません。")

# Repeats: the judge MAY apply a higher penalty (the principle is quoted from the regulation).
REPEAT_TAG = N_("同一違反{count}回目")
REPEAT_BEFORE = N_("このプレイヤーは、この大会で同じ違反を既に {count} 回記録されています。")
REPEAT_SAVED = N_("このプレイヤーのこの大会での同じ違反の {count} 回目の記録です。")
REPEAT_NEXT_TIER = N_("一段上の罰則（参考。規定は段階を定めていません）：")
REPEAT_RELATED = N_("同じ節の別の違反の記録があります。同一の違反かどうかはジャッジが判断します。")
REPEAT_JUDGE_DECIDES = N_(
    "適用するかどうかはジャッジが判断します。記録の罰則は自動では変わりません。"
)
REPEAT_NO_HIGHER = N_("これより上位の罰則はありません。")
REPEAT_CHOOSE = N_("{tier} を選ぶ")

# The record form
RECORD_THIS = N_("この罰則を記録")
FORM_NEW_TITLE = N_("罰則を記録")
FORM_EDIT_TITLE = N_("記録を編集")
FORM_ROUND = N_("回戦")
FORM_TABLE = N_("卓")
FORM_NOTE = N_("メモ（任意）")
FORM_TIER = N_("適用する罰則")
FORM_TIER_CHANGED = N_("この違反の罰則（{tier}）から変更しています。")
FORM_SAVE = N_("保存")
SAVED = N_("保存しました")
FORM_SUGGESTIONS = N_("最近のプレイヤー")
FORM_NAME_REQUIRED = N_("プレイヤー名を入力してください。")
FORM_REQUIRED = N_("入力してください。")
FORM_TOO_LONG = N_("長すぎます。")
FORM_BAD_CHARACTER = N_("使えない文字（制御文字）が含まれています。")
FORM_INVALID = N_("この値は使えません。")
SAVE_FAILED = N_("保存できませんでした（入力した内容はそのままです）：{reason}")
TARDY_CHOOSE = N_("遅刻の違反")
TARDY_CHOOSE_FIRST = N_("遅刻の違反を選んでください。")
TARDY_ARRIVED_NOW = N_("今到着した")
TARDY_LATE_BY = N_("集合時間 {assembly} から {minutes} 分 {seconds} 秒後に到着（{arrived}）")
TARDY_ON_TIME = N_("集合時間 {assembly} より前の到着です。遅刻ではありません。")
TARDY_SUGGESTED = N_("遅れた分数による違反：")
TARDY_UNDER_FIVE = N_(
    "5分未満の遅れは、集合時間に着席していることがこの大会の条件である場合の違反です。"
)
TARDY_CONFIRM = N_("確かめてから保存してください。違反も罰則も変更できます。")
TARDY_NO_ASSEMBLY = N_("{round}の集合時間が設定されていません。")
TARDY_SET_ASSEMBLY = N_("集合時間を設定する")

# A record's page
RECORD_TITLE = N_("記録の内容")
RECORD_PLAYER_HISTORY = N_("このプレイヤーの記録をすべて見る")
RECORD_OPEN_INFRACTION = N_("この違反のページを開く")
RECORD_CREATED = N_("記録：{time}")
RECORD_UPDATED = N_("最終更新：{time}")
RECORD_SLIP = N_("マッチスリップに書く一行")
RECORD_COPY_JA = N_("日本語の行をコピー")
RECORD_COPY_EN = N_("英語の行をコピー")
RECORD_COPIED = N_("コピーしました：{line}")
RECORD_EDIT = N_("編集")
RECORD_DELETE = N_("削除")
RECORD_DELETE_CONFIRM = N_("この記録を削除しますか？")
RECORD_DELETE_DETAIL = N_(
    "{player}：{infraction}。削除した記録は「削除した記録」からいつでも元に戻せます。"
)
CANCEL = N_("キャンセル")
RECORD_DELETED = N_("この記録は削除されています。")
RECORD_RESTORE = N_("元に戻す")
RECORD_DELETED_DONE = N_("削除しました")
RECORD_RESTORED = N_("元に戻しました")
UNDO = pgettext("snack bar", "元に戻す")
RECORD_ARRIVED = N_("到着：{arrived}")
LOG_NEW_RECORD = N_("新しい記録")
LOG_ROUND_FILTER = N_("回戦で絞り込む")
LOG_ALL_ROUNDS = N_("すべての回戦")
LOG_TABLE_FILTER = N_("卓で絞り込む")
LOG_CURRENT_ROUND = N_("{round}（現在）")
LOG_NONE_HERE = N_("この条件の記録はありません。")
FORM_PLAYER_SO_FAR = N_("{player}のこの大会での記録（{count} 件）")
PICK_INFRACTION = N_("違反を選ぶ")
PICK_SEARCH = N_("違反を探す")
PICK_SEARCH_HINT = N_("例：引きすぎ、遅刻")
PICK_NONE = N_("見つかりません。言葉を変えるか、診断で探してください。")
PICK_FINDER = N_("診断で探す")
PICK_CHANGE = N_("違反を変える")
PICK_FIRST = N_("違反を選んでください。")
RECORD_ARRIVED_LATE = N_("到着：{arrived}（集合時刻から{minutes}分{seconds}秒）")
LOG_DELETED_TITLE = N_("削除した記録")
LOG_DELETED_EMPTY = N_("この大会で削除した記録はありません。")

# Tournament settings
EVENT_SETTINGS = N_("大会の設定")
EVENT_CURRENT = N_("記録中の大会")
EVENT_NAME = N_("大会名")
EVENT_DATE = N_("日付（YYYY-MM-DD）")
EVENT_BAD_DATE = N_("日付は YYYY-MM-DD の形で入力してください。")
EVENT_DUPLICATE = N_("同じ名前の大会が既にあります。")
EVENT_NAME_REQUIRED = N_("大会名を入力してください。")
EVENT_ROUNDS = N_("回戦と集合時間")
EVENT_ROUNDS_HINT = N_(
    "集合時間を入れておくと、「今到着した」で遅れた分数と遅刻の違反がわかります。"
)
EVENT_ASSEMBLY = N_("集合時間")
EVENT_BAD_TIME = N_("時刻は HH:MM の形で入力してください（例 13:00）。")
EVENT_ASSEMBLY_NOW = N_("{round}の集合時間を今にする")
EVENT_ASSEMBLY_SET = N_("{round}の集合時間を保存しました")
EVENT_REMOVE_ROUND = N_("{round}を削除")
EVENT_REMOVE_ROUND_CONFIRM = N_("{round}を削除しますか？")
EVENT_REMOVE_ROUND_DETAIL = N_(
    "{round}とその集合時刻を削除します。この回戦の記録 {count} 件は削除されず、回戦の番号も残ります。"
)
EVENT_REMOVE = N_("削除する")
EVENT_ADD_ROUND = N_("回戦を追加")
EVENT_OTHERS = N_("ほかの大会")
EVENT_NO_OTHERS = N_("ほかの大会はありません。")
EVENT_SWITCH = N_("切り替える")
EVENT_SWITCHED = N_("「{name}」に切り替えました")
EVENT_NEW = N_("新しい大会")
EVENT_NEW_NAME = N_("新しい大会の名前")
EVENT_CREATE = N_("作成して切り替える")

# Export and import
EXCHANGE_TITLE = N_("書き出し・読み込み")
EXPORT_TITLE = N_("書き出し")
EXPORT_HINT = N_(
    "この大会の記録を書き出します。CSV は表計算ソフト用（日本語もそのまま開けます）、"
    "JSON は別の端末での読み込み用です。"
)
EXPORT_CSV = N_("CSV を保存")
EXPORT_JSON = N_("JSON を保存")
EXPORT_TO_FOLDER = N_("データフォルダに書き出す")
EXPORT_COPY_JSON = N_("JSON をクリップボードにコピー")
EXPORT_SAVED = N_("{count} 件を保存しました：{path}")
EXPORT_DOWNLOADED = N_("{count} 件をダウンロードしました：{path}")
EXPORT_WRITTEN = N_("{count} 件を書き出しました：{path}")
EXPORT_COPIED = N_("{count} 件の JSON をコピーしました")
EXPORT_FAILED = N_("書き出せませんでした：{reason}")
EXPORT_NO_DIALOG = N_(
    "保存のダイアログを開けませんでした（{reason}）。「データフォルダに書き出す」を使ってください。"
)
IMPORT_TITLE = N_("読み込み（マージ）")
IMPORT_HINT = N_(
    "別の端末で書き出した JSON を読み込み、この端末の記録にまとめます。"
    "同じ記録は一度だけ数え、後から更新された方を残します。"
    "壊れたファイルや別の形式のファイルは読み込まず、何も変更しません。"
)
IMPORT_PICK = N_("JSON ファイルを選ぶ")
IMPORT_PASTE = N_("書き出した JSON を貼り付け")
IMPORT_PASTE_BUTTON = N_("貼り付けた JSON を読み込む")
IMPORT_DONE = N_(
    "「{name}」に読み込みました：追加 {added} 件、更新 {updated} 件、変更なし {unchanged} 件"
)
IMPORT_ELSEWHERE = N_(
    "ほかの {count} 件は、この端末では別の大会（{names}）の記録のため、"
    "そちらで照合し、移していません"
)
IMPORT_REFUSED = N_("読み込みませんでした（何も変更していません）：{reason}")
IMPORT_SWITCH = N_("「{name}」に切り替える")

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
# The source carries no version or date: this is when the app's copy of the text was taken.
REGULATION_TEXT_AS_OF = N_("規定の本文を収録した時期")
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

# Judges' sync: one log for the whole judge team over the venue's own network
# (views/screens/sync*.py, views/sync_link.py)
SYNC_TITLE = N_("ジャッジ間の共有")
SYNC_OPEN = N_("ジャッジ間の共有")
SYNC_INTRO = N_(
    "会場のネットワーク（ヘッドジャッジの端末のテザリングなど）で、ジャッジ全員の記録を"
    "一つにまとめます。インターネットは使いません。"
)
SYNC_JUDGE = N_("ジャッジ名")
SYNC_JUDGE_HINT = N_("記録に「記録したジャッジ」として残ります。")
SYNC_JUDGE_SAVE = N_("ジャッジ名を保存")
SYNC_JUDGE_SAVED = N_("ジャッジ名を「{name}」にしました")
SYNC_JUDGE_FIRST = N_("先にジャッジ名を入力してください。")
SYNC_THIS_DEVICE = N_("この端末：ジャッジ {judge}（端末 {device}）")
SYNC_HOST_HEADING = N_("この大会をホストする")
SYNC_HOST_HINT = N_(
    "ヘッドジャッジの端末で使います。ほかのジャッジは、表示されるアドレスと参加コードを入力して参加します。"
)
SYNC_HOST_START = N_("「{name}」をホストする")
SYNC_JOIN_HEADING = N_("ホストに参加する")
SYNC_JOIN_HINT = N_("ヘッドジャッジの端末に表示されているアドレスと参加コードを入力します。")
SYNC_ADDRESS = N_("ホストのアドレス")
SYNC_ADDRESS_HINT = N_("例 http://192.168.43.1:8765")
SYNC_CODE = N_("参加コード")
SYNC_CODE_HINT = N_("例 K7QF-2MXD-9PLA")
SYNC_MOVE = N_("この端末の「{name}」の記録（{count} 件）を共有の大会に移す")
SYNC_JOIN = N_("参加する")
SYNC_WORKING = N_("接続しています…")
SYNC_JOINED_DONE = N_("「{name}」に参加しました：送信 {pushed} 件、受信 {pulled} 件")
SYNC_MOVED_DONE = N_(
    "記録を移しました：追加 {added} 件、更新 {updated} 件、変更なし {unchanged} 件"
)
SYNC_NOT_DONE = N_("できませんでした：{reason}")
SYNC_HOSTING = N_("ホスト中：「{name}」")
SYNC_ADDRESSES = N_("アドレス（どれか一つを入力）")
SYNC_CODE_SHOWN = N_("参加コード")
SYNC_DEVICES = N_("参加している端末：{count} 台")
SYNC_NO_DEVICES = N_("まだ参加している端末はありません。")
SYNC_DEVICE_LINE = N_("ジャッジ {judge}・端末 {device}・{seen}")
SYNC_NEW_CODE = N_("新しい参加コードにする")
SYNC_NEW_CODE_CONFIRM = N_("新しい参加コードにしますか？")
SYNC_NEW_CODE_DETAIL = N_(
    "今のコードはすぐに使えなくなります。参加中の端末は、新しいコードで参加し直すまで同期できません。"
)
SYNC_NEW_CODE_DONE = N_("新しい参加コードにしました")
SYNC_STOP_HOSTING = N_("ホストを終了する")
SYNC_STOP_CONFIRM = N_("ホストを終了しますか？")
SYNC_STOP_DETAIL = N_("参加中の端末は同期できなくなります。記録はどの端末にもそのまま残ります。")
SYNC_STOPPED = N_("ホストを終了しました")
SYNC_JOINED = N_("参加中：「{name}」")
SYNC_HOST_AT = N_("ホスト：{address}")
SYNC_LAST = N_("最終同期：{ago}")
SYNC_NEVER = N_("まだ同期していません")
SYNC_WAITING = N_("未送信の記録：{count} 件")
SYNC_NOW = N_("今すぐ同期")
SYNC_NOW_DONE = N_("同期しました：送信 {pushed} 件、受信 {pulled} 件")
SYNC_REJOIN = N_("参加し直す（ホストのアドレスか参加コードが変わったとき）")
SYNC_LEAVE = N_("共有をやめる")
SYNC_LEAVE_CONFIRM = N_("共有をやめますか？")
SYNC_LEAVE_DETAIL = N_(
    "この端末の記録はそのまま残ります。未送信の記録（{count} 件）はホストに届きません。"
)
SYNC_LEFT = N_("共有をやめました")
SYNC_SECONDS_AGO = N_("{count} 秒前")
SYNC_MINUTES_AGO = N_("{count} 分前")
SYNC_HOURS_AGO = N_("{count} 時間前")
# The log's header: sharing at a glance
SYNC_STATUS_HOSTING = N_("共有：ホスト中（{count} 台が参加）")
SYNC_STATUS_JOINED = N_("共有：{address} のホストに参加中・最終同期 {ago}")
SYNC_STATUS_OFFLINE = N_("共有：オフライン・未送信 {count} 件")
SYNC_STATUS_WAITING = N_("未送信 {count} 件")
# Why a sync did not happen (records/sync: SyncStatus.problem_code), in one line
SYNC_PROBLEM_UNREACHABLE = N_(
    "ホスト {address} に接続できません。同じWi-Fiかテザリングにつながっているか確認してください。"
)
SYNC_PROBLEM_NOT_A_HOST = N_("{address} からの応答を読めませんでした。アドレスを確認してください。")
SYNC_PROBLEM_WRONG_CODE = N_("参加コードが違います。")
SYNC_PROBLEM_OLD_CODE = N_(
    "参加コードが新しくなりました。ヘッドジャッジに新しいコードを聞いてください。"
)
SYNC_PROBLEM_CLOCK = N_("この端末の時計がホストと大きくずれています。時刻を確認してください。")
SYNC_PROBLEM_REPLAY = N_("ホストが同じ要求を二度受け取りました。もう一度同期してください。")
SYNC_PROBLEM_OTHER_EVENT = N_("このホストは別の大会を共有しています。アドレスを確認してください。")
SYNC_PROBLEM_REFUSED = N_("ホストがこの端末のデータを受け付けませんでした（{detail}）")
SYNC_PROBLEM_BAD_DATA = N_("ホストから届いたデータを保存できませんでした（{detail}）")
SYNC_PROBLEM_RATE_LIMITED = N_("参加コードの誤りが続きました。1分待ってからやり直してください。")
SYNC_PROBLEM_BUSY = N_("ホストが混み合っています。少し待ってからやり直してください。")
SYNC_PROBLEM_NOT_JOINED = N_("この端末はホストに参加していません。")
# Who recorded it
RECORDED_BY = N_("ジャッジ {judge}")
RECORDED_BY_DEVICE = N_("記録したジャッジ：{judge}（端末 {device}）")
RECORD_VERSIONS = N_("この記録の変更履歴")
RECORD_VERSION_LINE = N_("{time}・ジャッジ {judge}（端末 {device}）")
RECORD_VERSION_CURRENT = N_("現在の内容")
RECORD_VERSION_DELETED = N_("削除")
REPEAT_EARLIER_BY = N_("{round}、ジャッジ {judge}")
UNKNOWN_JUDGE = N_("（不明）")
# The round clock (views/screens/clock*.py)
CLOCK_NO_ROUND = N_("まだどの回戦も始まっていません。")
CLOCK_NOT_STARTED = N_("{round}はまだ始まっていません（{minutes}分）。")
CLOCK_START = N_("{round}を今すぐ開始")
CLOCK_ENDS_AT = N_("終了 {time}")
CLOCK_PAUSED = N_("一時停止中")
CLOCK_PAUSE = N_("一時停止")
CLOCK_RESUME = N_("再開")
CLOCK_LEFT_10 = N_("残り10分")
CLOCK_LEFT_5 = N_("残り5分")
CLOCK_TIME = N_("時間です")
CLOCK_OVERTIME = N_("時間終了から")
CLOCK_ROUND_DIGITS = N_("{round}：{digits}")
CLOCK_CALL = N_("ジャッジコール")
CLOCK_CALL_TABLE = N_("ジャッジコールの卓")
CLOCK_CALL_START = N_("計測を開始")
CLOCK_CALL_RUNNING = N_("卓{table}のジャッジコール")
CLOCK_CALL_STARTED = N_("卓{table}のジャッジコールを計測しています")
CLOCK_PLAY_RESUMES = N_("プレイ再開")
CLOCK_CALL_LASTED = N_("コールの時間：{elapsed}")
CLOCK_EXTENSION_FOR = N_("卓{table}の延長")
CLOCK_EXTENSION_MINUTES = N_("延長（分）")
CLOCK_CONFIRM = N_("延長を確定")
CLOCK_ADD_EXTENSION = N_("延長を追加（デッキチェックなど）")
CLOCK_EXTENSION_ADDED = N_("卓{table}に{minutes}分の延長を付けました")
CLOCK_BAD_MINUTES = N_("1〜1440の分数を入力してください。")
CLOCK_BAD_TABLE = N_("卓を入力してください。")
CLOCK_NEEDS_START = N_("ラウンドが始まっていないため、延長は付けられません。")
CLOCK_TABLES = N_("延長中の卓")
CLOCK_NO_TABLES = N_("延長の付いた卓はありません。")
CLOCK_TABLE = N_("卓{table}")
CLOCK_PLUS = N_("+{minutes}分")
CLOCK_TABLE_ENDS = N_("{time}終了")
CLOCK_MARK_FINISHED = N_("終了にする")
CLOCK_FINISHED = N_("終了済み")
CLOCK_MARKED_FINISHED = N_("卓{table}を終了にしました")
CLOCK_REAL_END = N_("ラウンドの実際の終了：{time}")
CLOCK_SETTINGS = N_("回戦の時間の設定")
CLOCK_RECORD_DURING_CALL = N_("卓{table}のジャッジコールを計測中です（{elapsed}）。")
CLOCK_STOP_FOR_RECORD = N_("計測を止めて、この記録に延長を付ける")
RECORD_EXTENSION = N_("時間の延長 +{minutes}分（{round}・卓{table}）")
EVENT_CLOCK = N_("回戦の時間")
EVENT_CLOCK_HINT = N_(
    "回戦の長さと開始時刻です。時計の画面は、保存した時刻から残り時間を計算します。"
    "開始時刻は後から直せます。"
)
EVENT_DEFAULT_MINUTES = N_("1回戦の長さ（分）")
EVENT_ROUND_MINUTES = N_("長さ（分）")
EVENT_ROUND_START = N_("開始時刻")
EVENT_CLOCK_SAVED = N_("{round}の時間を保存しました")
EVENT_CLOCK_STARTED = N_("{round}を開始しました")
EVENT_CLOCK_PAUSED = N_("{round}を一時停止しました")
EVENT_CLOCK_RESUMED = N_("{round}を再開しました")

# Show the player (views/screens/show.py): the page shows both languages whatever the setting
SHOW_PLAYER = N_("プレイヤーに見せる")
SHOW_BACK = N_("戻る")
SHOW_REPEAT = N_("同じ違反を繰り返した場合")

"""The line a judge writes on a match slip for a record, in Japanese and in English.

    3回戦 12卓 山田太郎（ID 0012345678） 警告：故意ではなく、過剰にカードを引いた（同一違反2回目）
    R3 T12 山田太郎 (ID 0012345678) Warning: Unintentionally drew extra cards (2nd time)
    2回戦 5卓 鈴木 注意：…（8分26秒の遅刻）

Round, table and ID appear when recorded; the repeat mark only for a repeat; how late the
player was, for a record that kept it (tardiness: "arrived now"). The line is one
line whatever the name holds (line breaks become spaces). Both languages are produced whatever
the display language, so the formats live here rather than in the UI catalog.
"""

from __future__ import annotations

from regulation.model import Regulation

from .model import Record


def _one_line(text: str) -> str:
    return " ".join(text.split())


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def slip_line(record: Record, regulation: Regulation, lang: str, occurrence: int = 1) -> str:
    """The match-slip line of `record` in `lang` ("ja" or "en"). `occurrence` is
    `RepeatCheck.occurrence` (2 for the first repeat); 1 adds no mark."""
    infraction = regulation.infraction(record.infraction_id)
    tier = regulation.tier(record.tier_id)
    infraction_title = (
        regulation.standalone_title(infraction)[lang] if infraction else record.infraction_id
    )
    tier_title = tier.title[lang] if tier else record.tier_id
    name = _one_line(record.player.name)
    player_id = _one_line(record.player.player_id) if record.player.player_id else None
    table = _one_line(record.table) if record.table else None
    parts: list[str] = []
    if lang == "ja":
        if record.round is not None:
            parts.append(f"{record.round}回戦")
        if table:
            parts.append(f"{table}卓")
        parts.append(f"{name}（ID {player_id}）" if player_id else name)
        line = f"{' '.join(parts)} {tier_title}：{infraction_title}"
        if record.late_seconds is not None:
            minutes, seconds = divmod(record.late_seconds, 60)
            line += f"（{minutes}分{seconds}秒の遅刻）"
        return line + (f"（同一違反{occurrence}回目）" if occurrence > 1 else "")
    if record.round is not None:
        parts.append(f"R{record.round}")
    if table:
        parts.append(f"T{table}" if table.isdigit() else f"Table {table}")
    parts.append(f"{name} (ID {player_id})" if player_id else name)
    line = f"{' '.join(parts)} {tier_title}: {infraction_title}"
    if record.late_seconds is not None:
        minutes, seconds = divmod(record.late_seconds, 60)
        line += f" ({minutes} min {seconds} s late)"
    return line + (f" ({ordinal(occurrence)} time)" if occurrence > 1 else "")

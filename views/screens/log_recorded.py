"""Who recorded it (venue sync): the judge on a log row, "recorded by judge X on device Y" on a
record's page, and the judge named beside each earlier record of a repeat ("round 1, judge
佐藤"). Records made before venue sync name nobody. (Labels only: log_parts uses them.)"""

from __future__ import annotations

from records.model import Record

from .. import strings as S
from ..context import Context
from ..sync_link import short_device


def judge_label(ctx: Context, record: Record) -> str | None:
    """ジャッジ 佐藤 / judge 佐藤, for a log row; None when nobody is known."""
    by = record.recorded_by
    return ctx.ui(S.RECORDED_BY, judge=by.judge) if by is not None else None


def recorded_by_line(ctx: Context, record: Record) -> str | None:
    """記録したジャッジ：佐藤（端末 ab12cd34）, for the record's page."""
    by = record.recorded_by
    if by is None:
        return None
    return ctx.ui(S.RECORDED_BY_DEVICE, judge=by.judge, device=short_device(by.device))


def earlier_label(ctx: Context, record: Record, where: str) -> str:
    """An earlier record of a repeat: where it was (`where`), and the judge who recorded it
    (1回戦、ジャッジ 佐藤); just where, for a record that names nobody."""
    by = record.recorded_by
    if by is None:
        return where
    return ctx.ui(S.REPEAT_EARLIER_BY, round=where or ctx.ui(S.NO_ROUND), judge=by.judge)

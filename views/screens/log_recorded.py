"""Who recorded it (venue sync): the judge on a log row, "recorded by judge X on device Y" on a
record's page, and the judge named beside each earlier record of a repeat ("round 1, judge
佐藤"). Records made before venue sync name nobody. (Labels only: log_parts uses them.)"""

from __future__ import annotations

from records.model import Record

from .. import strings as S
from ..context import Context
from ..sync_link import short_device


def judge_of(record: Record) -> str | None:
    """The name of the judge who recorded it; None when nobody is known (a record made
    before venue sync, or on a device whose judge had not given a name yet)."""
    by = record.recorded_by
    return by.judge if by is not None and by.judge else None


def judge_label(ctx: Context, record: Record) -> str | None:
    """ジャッジ 佐藤 / judge 佐藤, for a log row; None when nobody is known."""
    judge = judge_of(record)
    return ctx.ui(S.RECORDED_BY, judge=judge) if judge else None


def recorded_by_line(ctx: Context, record: Record) -> str | None:
    """記録したジャッジ：佐藤（端末 ab12cd34）, for the record's page; the device alone is
    worth saying when the judge is not known."""
    by = record.recorded_by
    if by is None or not (by.judge or by.device):
        return None
    return ctx.ui(
        S.RECORDED_BY_DEVICE,
        judge=by.judge or ctx.ui(S.UNKNOWN_JUDGE),
        device=short_device(by.device) or "—",
    )


def earlier_label(ctx: Context, record: Record, where: str) -> str:
    """An earlier record of a repeat: where it was (`where`), and the judge who recorded it
    (1回戦、ジャッジ 佐藤); just where, for a record that names nobody."""
    judge = judge_of(record)
    if judge is None:
        return where
    return ctx.ui(S.REPEAT_EARLIER_BY, round=where or ctx.ui(S.NO_ROUND), judge=judge)

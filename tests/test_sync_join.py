"""What makes a join fast (bench/bench_sync.py) must not change what is sent, stored or refused:
pages written as text read back as the same items, versions stored a page at a time keep the
same one under a key whatever the batching, and the quick test for invisible characters finds
every one the character-by-character rule finds."""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_support import JST, open_store
from test_sync_merge import EVENT_ID, delivered_to_two_stores, state, versions

from records import validate
from records.errors import InvalidInput
from records.identity import _IGNORABLE, invisible, visible
from records.sync import protocol
from records.sync import versions as stored_versions
from records.sync.items import RECORD, ItemVersion, canonical, check_body, check_record_body
from regulation.model import Regulation

AT = datetime(2026, 11, 28, 10, 0, tzinfo=JST)


def a_version(judge: str | None, body: dict[str, object]) -> ItemVersion:
    return ItemVersion(
        RECORD, "6f1d2a9c-0000-4000-8000-000000000042", EVENT_ID, 7, "ab" * 16, judge, AT,
        canonical(body),
    )  # fmt: skip


def test_an_item_written_as_text_reads_back_as_the_item() -> None:
    awkward = ['引用 "符" と \\ と\n改行', "emoji 🃏\u200d", "</script>", "\u2028\u2029", ""]
    for judge in [None, *awkward]:
        for note in awkward:
            version = a_version(judge, {"note": note, "player": {"name": "山田", "id": None}})
            text = protocol.item_text(version)
            assert json.loads(text) == protocol.item_json(version)
    texts = [protocol.item_text(a_version(j, {"n": j})) for j in ("佐藤", None)]
    for key, rest in (("items", {"cursor": 3, "more": True, "accepted": 0}), ("push", {})):
        sent = protocol.encode_with_items(key, texts, rest)
        assert json.loads(sent) == {key: [json.loads(t) for t in texts], **rest}


@st.composite
def broken_pools(draw: st.DrawFn) -> list[ItemVersion]:
    """Versions, some of them twice under one key with another body (a broken device)."""
    pool = draw(st.lists(versions(), min_size=1, max_size=8, unique_by=lambda v: v.key))
    twins = []
    for version in pool:
        if version.kind == RECORD and draw(st.booleans()):
            body = json.loads(version.body)
            body["note"] = draw(st.sampled_from(["X", "Y", "ずれ"]))
            twin = replace(version, body=canonical(body))
            if twin != version:
                twins.append(twin)
    return pool + twins


# `regulation` is read only: shared between examples on purpose (it is made per test while
# mutmut collects its statistics, and hypothesis refuses that unless told).
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), pool=broken_pools())
def test_two_versions_under_one_key_keep_the_same_one_whatever_the_batching(
    regulation: Regulation, data: st.DataObject, pool: list[ItemVersion]
) -> None:
    with delivered_to_two_stores(regulation, data, pool) as (one, two):
        assert state(one) == state(two)
        kept = {v.key: v for v in one.export_versions(EVENT_ID)}
        for version in pool:
            twins = [v for v in pool if v.key == version.key]
            assert kept[version.key] == max(twins, key=lambda v: v.order)


def test_a_page_stored_at_once_numbers_versions_in_their_order_of_arrival(
    regulation: Regulation, tmp_path: Path
) -> None:
    """The host pages by arrival (seq): a page stored in one go keeps the order it came in."""
    page = [
        replace(
            a_version("佐藤", {"n": n}),
            item_id=f"6f1d2a9c-0000-4000-8000-0000000001{n:02d}",
            saved_at=AT + timedelta(seconds=n),
        )
        for n in (5, 1, 9, 3, 7)
    ]
    with open_store(regulation, tmp_path / "log") as store:
        with store._database.write() as db:
            touched = stored_versions.add(db, page)
            rows = stored_versions.page(db, EVENT_ID, 0, 10)
        assert [v.item_id for _seq, v in rows] == [v.item_id for v in page]
        assert touched == {(RECORD, EVENT_ID, v.item_id) for v in page}


def test_the_quick_test_for_invisible_characters_finds_every_printable_one() -> None:
    """`visible` searches printable text only for the ignorables outside category Cf: no
    character of category Cf is printable, so none can hide there."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char.isprintable():
            assert bool(_IGNORABLE.match(char)) == invisible(char), hex(code)
        elif unicodedata.category(char) == "Cf":
            assert invisible(char)
    assert visible("山\u200b田\ufe0f太\u034f郎") == "山田太郎"
    assert visible("ｙａｍａｄａ　太郎") == "ｙａｍａｄａ　太郎"
    assert visible("佐藤\U000e0041") == "佐藤"


def test_a_value_met_again_gets_the_same_answer_and_a_refusal_names_its_place_each_time(
    regulation: Regulation,
) -> None:
    """Checked judges, players and tables are found again instead of checked again; a refused
    value is refused every time, named where it is, and a value that cannot be a key (a list
    from a hostile peer) is refused, not a crash."""
    good = json.loads(a_record_body("山田 太郎", "12"))
    assert check_record_body(good, "a", regulation) == good
    assert check_record_body(good, "b", regulation) == good  # found checked
    for bad_name in ["\u200b", "山田\x00", ["山田"], {"n": 1}, 7]:
        for where in ("items[1].body", "items[2].body"):
            bad = {**good, "player": {"name": bad_name, "id": None}}
            with pytest.raises(InvalidInput) as refused:
                check_record_body(bad, where, regulation)
            assert str(refused.value).startswith(f"{where}.player.name")
    for bad_by in [{"judge": "佐藤", "device": ""}, {"judge": ["佐藤"], "device": "ab" * 16}]:
        for where in ("x", "y"):
            with pytest.raises(InvalidInput, match=rf"^{where}\.recorded_by\."):
                check_record_body({**good, "recorded_by": bad_by}, where, regulation)
    with pytest.raises(InvalidInput, match=r"^z\.table"):
        check_record_body({**good, "table": "1" * 40}, "z", regulation)
    # The same text in a wider form is not the canonical one: refused, cached or not.
    with pytest.raises(InvalidInput, match="canonical"):
        check_body(RECORD, {**good, "table": "１２"}, "w", regulation)


def a_record_body(name: str, table: str) -> str:
    return canonical(
        {
            "created_at": AT.isoformat(timespec="microseconds"),
            "recorded_by": {"judge": "佐藤", "device": "ab" * 16},
            "round": 1,
            "table": table,
            "player": {"name": name, "id": None},
            "infraction": "drew-extra-cards",
            "tier": "warning",
            "note": None,
            "deleted": False,
        }
    )


@pytest.mark.parametrize(
    "moment",
    [
        "2000-01-01T00:00:00+00:00",
        "1999-12-31T23:59:59.999999+00:00",
        "2000-01-01T08:59:59.999999+09:00",
        "2000-01-01T09:00:00+09:00",
        "1999-12-31T20:00:00-04:00",
        "2099-12-31T23:59:59.999999+00:00",
        "2100-01-01T00:00:00+00:00",
        "2100-01-01T08:59:59.999999+09:00",
        "2100-01-01T09:00:00+09:00",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-01:00",
    ],
)
def test_the_bounds_of_a_time_are_those_of_the_instant_whatever_its_offset(moment: str) -> None:
    parsed = datetime.fromisoformat(moment)
    inside = validate.EARLIEST <= parsed < validate.LATEST  # the aware comparison
    if inside:
        assert validate.iso_datetime(moment, "t") == parsed
    else:
        with pytest.raises(InvalidInput, match="is not between 2000 and 2099"):
            validate.iso_datetime(moment, "t")

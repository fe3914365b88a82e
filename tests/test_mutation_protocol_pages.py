"""The sync protocol's pages (records/sync/protocol.py): a version sent as ITEM text with its
stored body spliced in is the very JSON `encode` makes of it, and a request body built from
such texts reads back as the payload with its list first."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from records_support import JST

from records.clock_rows import round_row_id
from records.errors import InvalidInput
from records.sync import protocol
from records.sync.clock_items import CLOCK_ROUND, check_round
from records.sync.items import RECORD, ItemVersion
from regulation.model import Regulation

EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000001"
RECORD_ID = "6f1d2a9c-0000-4000-8000-000000000011"
SAVED = datetime(2026, 11, 28, 13, 5, 30, 123456, tzinfo=JST)
BODY = '{"note":"\\"引用\\" \\\\ 改行\\n","round":2}'


def version(**changes: Any) -> ItemVersion:
    fields: dict[str, Any] = {
        "kind": RECORD,
        "item_id": RECORD_ID,
        "event_id": EVENT_ID,
        "stamp": 1 << 40,
        "device": "a1" * 16,
        "judge": '佐藤 "審判" \\ 長',
        "saved_at": SAVED,
        "body": BODY,
    }
    fields.update(changes)
    return ItemVersion(**fields)


@pytest.mark.parametrize(
    "sent",
    [
        version(),
        version(judge=None, device=""),
        version(judge="", saved_at=SAVED.replace(microsecond=0)),
        version(judge="tab\there\u2028", stamp=1),
    ],
)
def test_an_item_text_is_the_json_encode_makes_of_it(sent: ItemVersion) -> None:
    text = protocol.item_text(sent)
    assert text.encode() == protocol.encode(protocol.item_json(sent))
    found = json.loads(text)
    assert list(found) == ["kind", "id", "stamp", "device", "judge", "saved_at", "body"]
    assert found["judge"] == sent.judge and found["stamp"] == sent.stamp
    assert datetime.fromisoformat(found["saved_at"]) == sent.saved_at
    assert found["saved_at"].endswith(".000000+09:00") or sent.saved_at.microsecond


def test_a_body_is_spliced_in_as_stored() -> None:
    text = protocol.item_text(version())
    assert text.endswith(',"body":' + BODY + "}")
    assert json.loads(text)["body"] == {"note": '"引用" \\ 改行\n', "round": 2}


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"judge": None, "cursor": 0},
        {"judge": "佐藤", "cursor": 12, "more": True},
    ],
)
@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_request_body_with_items_reads_back_as_its_payload(
    payload: dict[str, Any], count: int
) -> None:
    texts = [protocol.item_text(version(stamp=n + 1)) for n in range(count)]
    body = protocol.encode_with_items("push", texts, payload)
    found = json.loads(body.decode("utf-8"))
    assert list(found) == ["push", *payload]
    assert found == {"push": [json.loads(t) for t in texts], **payload}
    assert body == protocol.encode({"push": [json.loads(t) for t in texts], **payload})


def round_item(regulation: Regulation, item_id: str) -> dict[str, Any]:
    """A round's clock row as a peer sends it (its body in canonical form)."""
    raw = {"created_at": SAVED.isoformat(), "deleted": False, "number": 3, "minutes": 50}
    body = check_round({**raw, "started_at": None}, "body", regulation)
    return {
        "kind": CLOCK_ROUND,
        "id": item_id,
        "stamp": 7,
        "device": "",
        "judge": None,
        "saved_at": SAVED.isoformat(),
        "body": body,
    }


def test_a_rounds_clock_row_comes_under_the_id_its_event_and_number_give(
    regulation: Regulation,
) -> None:
    mine = round_row_id(EVENT_ID, 3)
    version = protocol.parse_item(round_item(regulation, mine), "push[0]", EVENT_ID, regulation)
    assert (version.kind, version.item_id, version.event_id) == (CLOCK_ROUND, mine, EVENT_ID)
    assert json.loads(version.body)["number"] == 3
    for other in (RECORD_ID, round_row_id(EVENT_ID, 4), round_row_id(RECORD_ID, 3)):
        with pytest.raises(InvalidInput) as refused:
            protocol.parse_item(round_item(regulation, other), "push[0]", EVENT_ID, regulation)
        assert (refused.value.field, str(refused.value)) == (
            "push[0].id",
            "push[0].id: not this event's clock row id",
        )

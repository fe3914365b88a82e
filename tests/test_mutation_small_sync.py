"""The small modules of venue sync at the edges mutation testing found untested: a join code
typed any forgiving way is the same code, anything else is refused in one line that never repeats
it, and a key depends on the code and the event (records/sync/codes.py); a host listens only on
addresses a judge can reach, found without sending anything (records/sync/addresses.py); what a
device remembers about sync survives the settings table unchanged, and anything unreadable there
counts as not set (records/sync/state.py)."""

from __future__ import annotations

import errno
import itertools
import socket
import struct
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from records_support import entry, open_store

from records.errors import InvalidInput
from records.sync import addresses, codes
from records.sync.addresses import local_addresses, usable
from records.sync.codes import ALPHABET, Secret, derive_key, group, key_id, new_code, parse_code
from records.sync.state import KEYS, SyncState, from_settings
from regulation.model import Regulation


def test_a_join_code_typed_any_forgiving_way_is_the_same_code() -> None:
    code = "K7QF-2MXD-9PLA"
    wide = "Ｋ７ＱＦ－２ＭＸＤ－９ＰＬＡ"  # a Japanese keyboard
    typings = ("k7qf2mxd9pla", " K7QF 2MXD_9PLA ", wide, "k7qf\t2mxd-9pla")
    for typed in typings:
        assert parse_code(typed).value == code, typed


@pytest.mark.parametrize(
    "typed",
    ["K7QF-2MXD-9PL", "K7QF-2MXD-9PLAB", "K7QF-2MXD-9PL0", "K7QF-2MXD-9PLI", "", "K7QF.2MXD.9PLA"],
)
def test_a_code_of_the_wrong_length_or_symbols_is_refused_without_repeating_it(typed: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_code(typed)
    error = caught.value
    assert (error.field, error.reason) == ("code", "format")
    assert str(error) == (
        "the join code is 12 letters and digits in groups of 4 (like K7QF-2MXD-9PLA); "
        "check it on the host's screen"
    )


def test_a_new_code_is_twelve_symbols_of_the_alphabet_in_groups_of_four() -> None:
    codes = {new_code().value for _ in range(20)}
    assert len(codes) == 20  # 60 bits: never the same twice here
    for code in codes:
        groups = code.split("-")
        assert [len(g) for g in groups] == [4, 4, 4]
        assert all(ch in ALPHABET for ch in "".join(groups))
        assert parse_code(code).value == code
    assert group("ABCDEFGHJKLM") == "ABCD-EFGH-JKLM"


def test_a_key_depends_on_the_code_and_the_event_and_its_id_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(codes, "KDF_ITERATIONS", 1_000)  # the same derivation, faster
    code = parse_code("K7QF-2MXD-9PLA")
    key = derive_key(code, "event-1")
    assert len(key.value) == 64 and int(key.value, 16) >= 0
    assert derive_key(parse_code("k7qf2mxd9pla"), "event-1") == key
    assert derive_key(code, "event-2") != key
    assert derive_key(parse_code("K7QF-2MXD-9PLB"), "event-1") != key
    assert len(key_id(key)) == 16
    assert key_id(key) != key_id(derive_key(code, "event-2"))
    assert key.value not in repr(key) and str(key) == "<secret>"


EVENT = "6f1d2a9c-0000-4000-8000-000000000001"


def test_the_key_and_its_id_are_those_every_version_of_sync_v1_derives() -> None:
    # A host and a joiner running different versions of the app must derive the same key from
    # the same code (PBKDF2-HMAC-SHA256 over the 12 symbols, salted with the event's id) and
    # name it alike: a change here is a new protocol version, not a fix.
    key = derive_key(Secret("K7QF-2MXD-9PLA"), EVENT)
    assert key.value == "679f6c309d2bafc0d9fed60f6acc57f991a85ae964c83afc62549ef09b41db13"
    assert key_id(key) == "aca82a214baef3ab"
    assert derive_key(Secret("K7QF2MXD9PLA"), EVENT) == key  # the dashes are only for the eye


@pytest.mark.parametrize("typed", [None, 123456789012, b"K7QF2MXD9PLA"])
def test_a_code_that_is_not_text_is_refused_in_one_line(typed: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_code(typed)  # type: ignore[arg-type]
    error = caught.value
    assert (str(error), error.field, error.reason) == (
        "the join code must be text",
        "code",
        "format",
    )


# -- what a device remembers about sync (records/sync/state.py) ---------------------------------

SYNCED_AT = datetime(2026, 12, 2, 13, 5, 1, tzinfo=timezone(timedelta(hours=9)))


def test_a_hosts_and_a_joiners_state_survive_the_settings_table_unchanged() -> None:
    host = SyncState(
        role="host",
        event_id="ev-1",
        code=Secret("K7QF-2MXD-9PLA"),
        retired=("aaaa", "bbbb"),
        bind=("192.168.1.5", "10.0.0.2"),
        port=8765,
        last_synced=SYNCED_AT,
    )
    settings = host.to_settings()
    assert settings == {
        "sync.role": "host",
        "sync.event": "ev-1",
        "sync.code": "K7QF-2MXD-9PLA",
        "sync.retired": "aaaa bbbb",
        "sync.host_url": None,
        "sync.bind": "192.168.1.5 10.0.0.2",
        "sync.port": "8765",
        "sync.cursor": "0",
        "sync.pushed": "0",
        "sync.last_synced": "2026-12-02T13:05:01+09:00",
    }
    assert tuple(settings) == KEYS  # every key the ledger reads, and only those
    assert from_settings({k: v for k, v in settings.items() if v is not None}) == host
    joined = SyncState(
        role="joined", event_id="ev-1", host_url="http://192.168.1.5:8765", cursor=41, pushed=7
    )
    stored = {k: v for k, v in joined.to_settings().items() if v is not None}
    assert stored["sync.cursor"] == "41" and stored["sync.pushed"] == "7"
    assert "sync.port" not in stored and "sync.code" not in stored
    assert from_settings(stored) == joined
    assert joined.replaced(cursor=42) == SyncState(
        role="joined", event_id="ev-1", host_url="http://192.168.1.5:8765", cursor=42, pushed=7
    )
    assert SyncState(port=0).to_settings()["sync.port"] == "0"  # a port of 0 is still a port


def test_nothing_stored_is_sync_off() -> None:
    state = from_settings({})
    assert state == SyncState()
    assert (state.role, state.event_id, state.code, state.port, state.cursor) == (
        "off",
        None,
        None,
        None,
        0,
    )
    assert state.to_settings()["sync.role"] == "off"


def test_unreadable_settings_count_as_not_set() -> None:
    state = from_settings(
        {
            "sync.role": "admin",
            "sync.event": "",
            "sync.code": "",
            "sync.host_url": "",
            "sync.port": "eighty",
            "sync.cursor": "-5",
            "sync.pushed": "many",
            "sync.last_synced": "yesterday",
        }
    )
    assert state == SyncState(port=0)
    assert from_settings({"sync.port": "-1", "sync.cursor": "12"}) == SyncState(port=0, cursor=12)
    assert from_settings({"sync.port": ""}).port is None


def test_a_join_code_is_never_shown_by_a_sync_state() -> None:
    state = SyncState(role="host", code=Secret("K7QF-2MXD-9PLA"))
    assert "K7QF" not in repr(state) and "K7QF" not in str(state)


# -- the host's addresses (records/sync/addresses.py) -------------------------------------------


@pytest.mark.parametrize(
    ("address", "usable_here"),
    [
        ("192.168.1.5", True),
        ("10.0.0.2", True),
        ("172.16.0.1", True),
        ("127.0.0.1", False),
        ("169.254.3.4", False),
        ("0.0.0.0", False),
        ("224.0.0.251", False),
        ("::1", False),
        ("fe80::1", False),
        ("not an address", False),
        ("", False),
    ],
)
def test_only_addresses_a_judge_can_reach_are_usable(address: str, usable_here: bool) -> None:
    assert usable(address) is usable_here


# The check reads the kernel's routing table, which Linux shows in /proc/net/fib_trie (a kernel
# built without it, or a sandbox hiding it, cannot say; the addresses code itself still runs).
FIB_TRIE = Path("/proc/net/fib_trie")


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not FIB_TRIE.is_file(),
    reason="no /proc/net/fib_trie to check the kernel's interface list against",
)
def test_the_kernels_interface_list_names_every_interface_address() -> None:
    found = addresses._from_interfaces()
    # What the kernel says it answers to, read another way (its routing table's local hosts).
    lines = FIB_TRIE.read_text(encoding="ascii").splitlines()
    local = {
        line.split("|-- ")[1]
        for line, after in itertools.pairwise(lines)
        if "|-- " in line and after.strip() == "/32 host LOCAL"
    }
    assert "127.0.0.1" in found  # the loopback, always up, before it is left out
    assert sorted(set(found)) == sorted(local) and len(found) == len(local)
    assert local_addresses() == tuple(dict.fromkeys(a for a in found if usable(a)))


@dataclass
class Routes:
    """UDP sockets that only say which local address a route would use (nothing is sent)."""

    routes: dict[str, str] = field(default_factory=dict)
    asked: list[tuple[str, int]] = field(default_factory=list)
    closed: int = 0
    local: str = ""

    def socket(self, family: int, kind: int) -> Routes:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        return self

    def __enter__(self) -> Routes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed += 1

    def connect(self, target: tuple[str, int]) -> None:
        self.asked.append(target)
        if target[0] not in self.routes:
            raise OSError(errno.ENETUNREACH, "Network is unreachable")
        self.local = self.routes[target[0]]

    def getsockname(self) -> tuple[str, int]:
        return (self.local, 40000)


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> Routes:
    routes = Routes()
    monkeypatch.setattr(addresses.socket, "socket", routes.socket)
    return routes


def test_elsewhere_each_private_range_is_asked_for_its_route(
    probe: Routes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    # no route to 10/8: the others are still asked; the same address twice is named once
    probe.routes = {"172.31.255.254": "192.168.1.5", "192.168.255.254": "192.168.1.5"}
    assert local_addresses() == ("192.168.1.5",)
    assert [host for host, _ in probe.asked] == [
        "10.255.255.254",
        "172.31.255.254",
        "192.168.255.254",
    ]
    assert probe.closed == 3  # every probe closed, the unreachable one too
    probe.asked.clear()
    probe.routes = {"10.255.255.254": "10.0.0.2", "192.168.255.254": "127.0.0.1"}
    assert local_addresses() == ("10.0.0.2",)  # a loopback route is no address for judges


@pytest.mark.parametrize("fault", [OSError, ImportError, struct.error])
def test_when_the_interface_list_fails_the_routes_are_asked(
    probe: Routes, monkeypatch: pytest.MonkeyPatch, fault: type[Exception]
) -> None:
    def interfaces() -> list[str]:
        raise fault("no interface list here")

    monkeypatch.setattr(addresses, "_from_interfaces", interfaces)
    probe.routes = {"192.168.255.254": "192.168.1.5"}
    for platform in ("linux", "android"):
        monkeypatch.setattr(sys, "platform", platform)
        assert local_addresses() == ("192.168.1.5",)


def test_on_linux_the_interface_list_is_used_and_the_routes_only_when_it_is_empty(
    probe: Routes, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = ["127.0.0.1", "192.168.1.5", "10.0.0.2", "192.168.1.5", "169.254.1.1"]
    monkeypatch.setattr(addresses, "_from_interfaces", lambda: listed)
    probe.routes = {"172.31.255.254": "172.16.0.9"}
    for platform in ("linux", "android"):
        monkeypatch.setattr(sys, "platform", platform)
        assert local_addresses() == ("192.168.1.5", "10.0.0.2")
    assert probe.asked == []
    listed.clear()
    assert local_addresses() == ("172.16.0.9",)


# -- a log made before sync (records/store.py: LogStore.open) -----------------------------------


def test_a_log_made_before_sync_gets_its_versions_at_the_next_opening(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path) as store:
        event_id = store.current_event().id
        saved = store.add_record(event_id, entry("A"))
        store.round_clock.set_default_minutes(event_id, 50)
        with store._database.write() as db:  # as an older app left it: no versions, no mark
            db.execute("DELETE FROM item_versions")
            db.execute("DELETE FROM settings WHERE key LIKE 'sync.%backfilled'")
    with open_store(regulation, tmp_path) as store:
        assert [v.record for v in store.record_versions(saved.id)] == [saved]
        kinds = store._db.execute("SELECT DISTINCT kind FROM item_versions").fetchall()
        assert len(kinds) >= 2  # the record's and the round clock's settings

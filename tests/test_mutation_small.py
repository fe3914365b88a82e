"""The small modules of records/ (join codes, the host's addresses, where the log lives, an
export written whole, the model's values, the errors, what a device remembers about sync), at
the edges mutation testing found untested: a join code typed any forgiving way is the same code
and anything else is refused in one line that never repeats it; a key depends on the code and
the event; the log's folder is the one each platform documents; an export never overwrites a
file; a sync state survives the settings table unchanged."""

from __future__ import annotations

import pytest

from records.errors import InvalidInput
from records.sync.codes import ALPHABET, derive_key, group, key_id, new_code, parse_code


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


def test_a_key_depends_on_the_code_and_the_event_and_its_id_names_it() -> None:
    code = parse_code("K7QF-2MXD-9PLA")
    key = derive_key(code, "event-1")
    assert len(key.value) == 64 and int(key.value, 16) >= 0
    assert derive_key(parse_code("k7qf2mxd9pla"), "event-1") == key
    assert derive_key(code, "event-2") != key
    assert derive_key(parse_code("K7QF-2MXD-9PLB"), "event-1") != key
    assert len(key_id(key)) == 16
    assert key_id(key) != key_id(derive_key(code, "event-2"))
    assert key.value not in repr(key) and str(key) == "<secret>"

"""The data the app ships is whole and is what its YAML says (regulation/data.py).

Every data file has a committed compiled twin; the app reads only that, refuses one that is cut
short, damaged or compiled from another YAML, and compiling refuses YAML that could hide a fault
(anchors and aliases, duplicate keys, non-text keys, unknown keys, bad bytes)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import time
from pathlib import Path

import pytest

from regulation.compile import DATA_FILES, check_regulation, compile_checked
from regulation.data import (
    COMPILE_COMMAND,
    MAX_COMPILED_BYTES,
    DataError,
    compile_data,
    compiled_path,
    read_compiled,
    read_data,
)
from regulation.loader import RULES_PATH, RegulationError, load_regulation
from regulation.model import Regulation

YAML_BYTES = RULES_PATH.read_bytes()
JSON_BYTES = compiled_path(RULES_PATH).read_bytes()


def cut_points(size: int, samples: int, seed: int) -> list[int]:
    """Where to cut a file of `size` bytes: its first and last bytes, every line end of a
    sample, and random places (fixed seed: the same cuts every run)."""
    rng = random.Random(seed)
    points = {0, 1, 2, size // 2, size - 2, size - 1}
    points.update(rng.randrange(1, size) for _ in range(samples))
    return sorted(p for p in points if 0 <= p < size)


def data_dir(tmp_path: Path, yaml: bytes | None, compiled: bytes | None) -> Path:
    """A directory with a rules_ja.yaml and rules_ja.json holding these bytes (None: absent)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "rules_ja.yaml"
    for target, content in ((path, yaml), (compiled_path(path), compiled)):
        target.unlink(missing_ok=True)
        if content is not None:
            target.write_bytes(content)
    return path


def refusal(path: Path) -> str:
    with pytest.raises(RegulationError) as caught:
        load_regulation(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- the committed compiled files ------------------------------------------------------------


@pytest.mark.parametrize(("yaml_path", "check"), DATA_FILES, ids=lambda v: getattr(v, "name", ""))
def test_every_compiled_file_is_what_compiling_its_yaml_gives(yaml_path: Path, check) -> None:
    content, _ = compile_checked(yaml_path, check)
    assert compiled_path(yaml_path).read_bytes() == content, (
        f"{compiled_path(yaml_path).name} is stale: run {COMPILE_COMMAND} and commit it"
    )


def test_the_manifest_counts_the_entries(regulation: Regulation) -> None:
    manifest = json.loads(JSON_BYTES.split(b"\n", 1)[0])
    assert manifest["counts"] == {
        "tiers": len(regulation.tiers),
        "principles": len(regulation.principles),
        "categories": len(regulation.categories),
        "sections": len(regulation.sections),
        "infractions": len(regulation.infractions),
    }
    assert regulation.document.source_sha256 == manifest["source_sha256"]


def test_read_data_returns_the_yaml_as_plain_data() -> None:
    """The generic reader (the infraction finder's file uses it too) gives what PyYAML gives."""
    import yaml

    assert read_data(RULES_PATH) == yaml.safe_load(YAML_BYTES)
    assert read_compiled(RULES_PATH) == compile_data(RULES_PATH)[1]  # data, digest, counts


def test_a_packaged_app_may_ship_the_compiled_data_alone(tmp_path: Path, regulation) -> None:
    assert load_regulation(data_dir(tmp_path, None, JSON_BYTES)) == regulation


# -- nothing cut short or changed loads --------------------------------------------------------


def test_a_yaml_cut_anywhere_is_refused_in_one_line(tmp_path: Path) -> None:
    for cut in cut_points(len(YAML_BYTES), samples=80, seed=6):
        message = refusal(data_dir(tmp_path, YAML_BYTES[:cut], JSON_BYTES))
        assert "rules_ja.yaml: changed since rules_ja.json was compiled" in message, cut
        assert COMPILE_COMMAND in message


def test_a_compiled_file_cut_anywhere_is_refused_in_one_line(tmp_path: Path) -> None:
    for cut in cut_points(len(JSON_BYTES), samples=80, seed=7):
        message = refusal(data_dir(tmp_path, YAML_BYTES, JSON_BYTES[:cut]))
        assert "rules_ja.json" in message, cut
        assert COMPILE_COMMAND in message, cut


def test_a_changed_byte_in_the_compiled_data_is_refused(tmp_path: Path) -> None:
    # Same length, one letter changed in the middle of a regulation text.
    position = JSON_BYTES.index("過剰にカードを引いた".encode())
    damaged = JSON_BYTES[:position] + "少".encode() + JSON_BYTES[position + 3 :]
    assert len(damaged) == len(JSON_BYTES)
    message = refusal(data_dir(tmp_path, YAML_BYTES, damaged))
    assert "rules_ja.json: data: cut short or damaged" in message


def test_an_edited_yaml_that_nobody_compiled_is_refused(tmp_path: Path) -> None:
    edited = YAML_BYTES.replace(b"penalty: warning\n", b"penalty: caution\n", 1)
    message = refusal(data_dir(tmp_path, edited, JSON_BYTES))
    assert message.endswith(f"changed since rules_ja.json was compiled: run {COMPILE_COMMAND}")


def compiled_with_payload(payload: bytes) -> bytes:
    """A compiled file whose manifest vouches for `payload` (as if the compiler wrote it)."""
    manifest = json.loads(JSON_BYTES.split(b"\n", 1)[0])
    manifest |= {"data_bytes": len(payload), "data_sha256": hashlib.sha256(payload).hexdigest()}
    return json.dumps(manifest).encode() + b"\n" + payload


STALE = f"run {COMPILE_COMMAND}"


@pytest.mark.parametrize(
    ("compiled", "fault"),
    [
        (None, f"missing (not compiled): {STALE}"),
        (b"", f"manifest: missing or damaged: {STALE}"),
        (JSON_BYTES.split(b"\n", 1)[0], f"manifest: missing or damaged: {STALE}"),  # no data
        (b'{"tiers": [' + b"\n" + b"[" * 100_000, f"manifest: missing or damaged: {STALE}"),
        (b"[" * 100_000 + b"\n{}", f"manifest: missing or damaged: {STALE}"),
        (b'{"format": "1"}\n{}', f"manifest: missing or damaged: {STALE}"),
        (JSON_BYTES.replace(b'"format": 1', b'"format": 2', 1), f"manifest: format 2: {STALE}"),
        (compiled_with_payload(b'{"tiers": ['), f"data: not readable JSON: {STALE}"),
    ],
    ids=[
        "missing",
        "empty",
        "manifest-only",
        "deep-data",
        "deep-manifest",
        "wrong-types",
        "other-format",
        "bad-json",
    ],
)
def test_a_compiled_file_of_the_wrong_shape_is_refused(
    tmp_path: Path, compiled: bytes | None, fault: str
) -> None:
    path = data_dir(tmp_path, YAML_BYTES, compiled)
    assert refusal(path) == f"{compiled_path(path)}: {fault}"


def test_a_missing_or_unreadable_data_file_is_one_line_naming_it(tmp_path: Path) -> None:
    nothing = data_dir(tmp_path / "nothing", None, None)
    assert refusal(nothing) == f"{compiled_path(nothing)}: no such file"
    folder = data_dir(tmp_path / "folder", YAML_BYTES, None)
    compiled_path(folder).mkdir()
    assert refusal(folder) == f"{compiled_path(folder)}: {os.strerror(errno.EISDIR)}"
    unreadable_yaml = data_dir(tmp_path / "yaml", None, JSON_BYTES)
    unreadable_yaml.mkdir()
    assert refusal(unreadable_yaml) == f"{unreadable_yaml}: {os.strerror(errno.EISDIR)}"


def test_a_data_file_of_the_largest_size_is_read(tmp_path: Path) -> None:
    """Only what is larger than MAX_COMPILED_BYTES is refused unread (this one is damaged)."""
    path = data_dir(tmp_path, None, b"x" * MAX_COMPILED_BYTES)
    assert refusal(path) == f"{compiled_path(path)}: manifest: missing or damaged: {STALE}"


def test_an_endless_compiled_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = data_dir(tmp_path, YAML_BYTES, None)
    compiled_path(path).symlink_to("/dev/zero")
    started = time.perf_counter()
    fault = f"larger than {MAX_COMPILED_BYTES} bytes: not a data file"
    assert refusal(path) == f"{compiled_path(path)}: {fault}"
    assert time.perf_counter() - started < 5


# -- compiling refuses what could hide a fault ----------------------------------------------------


def compile_error(tmp_path: Path, yaml: bytes) -> str:
    path = data_dir(tmp_path, yaml, None)
    with pytest.raises(DataError) as caught:
        compile_checked(path, check_regulation)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path)), message
    assert not compiled_path(path).exists()
    return message


def edited(old: str, new: str) -> bytes:
    text = YAML_BYTES.decode()
    assert old in text, old
    return text.replace(old, new, 1).encode()


def test_an_alias_is_refused_with_its_line(tmp_path: Path) -> None:
    yaml = edited("  label: 罰則ガイドライン\n", "  label: &name 罰則ガイドライン\n")
    yaml = yaml.replace("penalty_label: 罰則：".encode(), b"penalty_label: *name", 1)
    line = YAML_BYTES.decode().splitlines().index("  label: 罰則ガイドライン") + 1
    message = compile_error(tmp_path, yaml)
    assert f"line {line}: YAML anchors and aliases are not allowed" in message


def test_an_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    levels = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 12)]
    started = time.perf_counter()
    message = compile_error(tmp_path, ("\n".join(levels) + "\n").encode())
    assert "line 1: YAML anchors and aliases are not allowed" in message
    assert time.perf_counter() - started < 2


AS_OF = "  text_as_of: "  # a key of the document's mapping, where a fault is put


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("    penalty: warning\n", "    penalty: warning\n    penalty: caution\n", "duplicate key"),
        (AS_OF, "  1: x\n" + AS_OF, "key '1' must be text"),
        (AS_OF, "  yes: x\n" + AS_OF, "key 'yes' must be text"),
        (AS_OF + '"2026-11"', AS_OF + "2026-11-01", "a timestamp value is not plain data"),
        (AS_OF, "  weight: .nan\n" + AS_OF, "'.nan' is not a finite number"),
        (AS_OF, "  x: !!binary aGVsbG8=\n" + AS_OF, "a binary value is not plain data"),
        (AS_OF, "  x: !!set {a}\n" + AS_OF, "a set value is not plain data"),
        (AS_OF, "  x: !!omap [a: 1]\n" + AS_OF, "a omap value is not plain data"),
        (AS_OF, "  x: !!pairs [a: 1]\n" + AS_OF, "a pairs value is not plain data"),
        (AS_OF, "  x: !!python/name:os.system\n" + AS_OF, "could not determine"),
    ],
    ids=["duplicate", "int-key", "bool-key", "date", "nan", "binary", "set", "omap", "pairs",
         "python-tag"],
)  # fmt: skip
def test_yaml_that_could_hide_a_fault_is_refused_with_its_line(
    tmp_path: Path, old: str, new: str, fault: str
) -> None:
    message = compile_error(tmp_path, edited(old, new))
    assert ": line " in message and fault in message, message


@pytest.mark.parametrize(
    ("where", "key", "old", "new"),
    [
        ("top level", "tierz", "tiers:\n", "tierz: []\ntiers:\n"),
        ("document", "edition", AS_OF, "  edition: 2\n" + AS_OF),
        ("principles", "intro", "principles:\n", "principles:\n  intro: x\n"),
        ("infraction 'drew-extra-cards'", "remedies", "    penalty: warning\n",
         "    penalty: warning\n    remedies: [x]\n"),
        ("tier 'caution'", "colour", "    letter: A\n", "    letter: A\n    colour: green\n"),
    ],
    ids=["top", "document", "principles", "infraction", "tier"],
)  # fmt: skip
def test_an_unknown_key_is_refused_with_its_place(
    tmp_path: Path, where: str, key: str, old: str, new: str
) -> None:
    message = compile_error(tmp_path, edited(old, new))
    assert f": {where}: unknown key '{key}'" in message


def test_bytes_that_are_not_utf8_are_one_line_with_the_offset(tmp_path: Path) -> None:
    offset = YAML_BYTES.index("故意ではなく".encode())
    yaml = YAML_BYTES[:offset] + b"\xff" + YAML_BYTES[offset + 1 :]
    message = compile_error(tmp_path, yaml)
    assert f": byte {offset}: not UTF-8 text" in message


def test_a_control_character_is_one_line_with_its_line(tmp_path: Path) -> None:
    line = YAML_BYTES.decode().splitlines().index("  - id: warning") + 1
    message = compile_error(tmp_path, edited("  - id: warning\n", "  - id: warn\x07ing\n"))
    assert f": line {line}: character U+0007 is not allowed" in message


def test_text_that_cannot_be_utf8_is_one_line(tmp_path: Path) -> None:
    """A lone surrogate (a "\\uD800" escape) parses as YAML but is no text: refused whole."""
    path = data_dir(tmp_path, b'x: "\\uD800"\n', None)
    with pytest.raises(DataError) as caught:
        compile_data(path)
    assert str(caught.value).startswith(f"{path}: not plain data: ")
    assert "surrogates not allowed" in str(caught.value) and "\n" not in str(caught.value)


def test_the_line_of_a_bad_character_counts_a_leading_empty_line(tmp_path: Path) -> None:
    assert ": line 3: character U+0007" in compile_error(tmp_path, b"\nx: 1\ny: \x07\n")


def test_deep_nesting_is_one_line(tmp_path: Path) -> None:
    message = compile_error(tmp_path, b"x: " + b"[" * 50_000 + b"]" * 50_000 + b"\n")
    assert ": structure: nested too deeply" in message


def test_compile_writes_what_loads(tmp_path: Path, regulation: Regulation) -> None:
    """The whole round trip in a scratch directory: compile, then load the result."""
    path = data_dir(tmp_path, YAML_BYTES, None)
    content, compiled = compile_data(path)
    compiled_path(path).write_bytes(content)
    assert load_regulation(path) == regulation
    assert compiled.counts["infractions"] == len(regulation.infractions)


def test_compile_command_checks_and_writes(tmp_path: Path, monkeypatch, capsys) -> None:
    from regulation import compile as compile_module

    path = data_dir(tmp_path, YAML_BYTES, None)
    monkeypatch.setattr(compile_module, "DATA_FILES", ((path, check_regulation),))
    assert compile_module.main(["--check"]) == 1
    assert "stale or missing" in capsys.readouterr().err
    assert not compiled_path(path).exists()
    assert compile_module.main([]) == 0
    assert "28 infractions" in capsys.readouterr().out
    assert compiled_path(path).read_bytes() == JSON_BYTES
    assert compile_module.main(["--check"]) == 0
    assert capsys.readouterr().out == "rules_ja.json: up to date\n"


def test_compile_command_stops_at_the_first_broken_file(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """The files after a broken one may be checked against it: nothing more is compiled."""
    from regulation import compile as compile_module

    broken = data_dir(tmp_path / "a", edited("penalty: warning\n", "penalty: yellow-card\n"), None)
    later = data_dir(tmp_path / "b", YAML_BYTES, None)
    files = ((broken, check_regulation), (later, check_regulation))
    monkeypatch.setattr(compile_module, "DATA_FILES", files)
    assert compile_module.main([]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"error: {broken}: infraction 'drew-extra-cards': ")
    assert err.endswith(
        "unknown tier 'yellow-card' (known: caution, warning, duel-forfeiture, "
        "match-forfeiture, disqualification, total-disqualification)\n"
    )
    assert not compiled_path(broken).exists() and not compiled_path(later).exists()


def test_compile_command_names_a_file_it_cannot_write_and_goes_on(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from regulation import compile as compile_module

    full, fine = (
        data_dir(tmp_path / "a", YAML_BYTES, None),
        data_dir(tmp_path / "b", YAML_BYTES, None),
    )
    monkeypatch.setattr(
        compile_module, "DATA_FILES", ((full, check_regulation), (fine, check_regulation))
    )
    write = compile_module.write_atomically

    def disk_full_for_the_first(path: Path, content: bytes) -> None:
        if path == compiled_path(full):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        write(path, content)

    monkeypatch.setattr(compile_module, "write_atomically", disk_full_for_the_first)
    assert compile_module.main([]) == 1
    out, err = capsys.readouterr()
    assert err == f"error: {compiled_path(full)}: No space left on device\n"
    assert out == (
        "rules_ja.json: compiled from rules_ja.yaml "
        "(6 tiers, 4 principles, 4 categories, 9 sections, 28 infractions)\n"
    )
    assert compiled_path(fine).read_bytes() == JSON_BYTES
    assert not compiled_path(full).exists()


def test_compile_command_says_what_it_does(capsys) -> None:
    from regulation import compile as compile_module

    with pytest.raises(SystemExit) as exited:
        compile_module.main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m regulation.compile [-h] [--check]\n\nCompile every")
    assert "\n  --check     fail if any is stale; write none\n" in out

"""The app's data files: YAML written by people, compiled once into JSON that the app reads.

Like the `.mo` catalogs beside their `.po`, every data file `X.yaml` has a committed compiled
twin `X.json` (`python -m regulation.compile` writes it; tests/test_data.py fails when it is
stale). The app never parses YAML: reading JSON costs almost nothing, and PyYAML more than the
rest of the start-up.

A compiled file proves itself. Its first line is a manifest: the SHA-256 of the YAML it was
compiled from, the SHA-256 and size of the data below it, and the number of entries under each
top-level key (for people reviewing a change). At load the data must match its manifest (so a
file cut short or damaged is refused), and when the YAML is present it must be the one the data
was compiled from (so an edit nobody compiled is refused, and so is a YAML cut short).

Compiling is strict: the YAML must be UTF-8 text, with no anchors or aliases (an alias bomb
expands to gigabytes), no duplicate keys, text keys only, and only plain values (text, numbers,
true/false, null, lists, mappings). Every fault is one `DataError` line: file, place, fault.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, NamedTuple

FORMAT = 1
COMPILE_COMMAND = "python -m regulation.compile"
# Far above any real data file (ours is ~50 kB): a bound, so that a file replaced by something
# endless (a link to /dev/zero) is refused instead of read until memory runs out.
MAX_COMPILED_BYTES = 16 * 1024 * 1024


class DataError(ValueError):
    """A data file is unusable. `str()` is one line: file, place (if any), fault."""

    def __init__(self, path: Path | str, where: str, fault: str) -> None:
        self.path, self.where, self.fault = str(path), where, fault
        super().__init__(f"{self.path}: {where}: {fault}" if where else f"{self.path}: {fault}")


class Compiled(NamedTuple):  # immutable like the model's dataclasses; 15× cheaper to define
    """A compiled data file, checked: the parsed data and the manifest it came with."""

    data: Any
    source_sha256: str  # of the YAML the data was compiled from
    counts: dict[str, int]  # entries (mappings with an `id`) under each top-level key


def compiled_path(yaml_path: Path) -> Path:
    return yaml_path.with_suffix(".json")


# -- reading (the app) -------------------------------------------------------------------------


def read_data(yaml_path: Path) -> Any:
    """The data of `yaml_path`, read from its compiled twin and checked. Raises DataError."""
    return read_compiled(yaml_path).data


def read_compiled(yaml_path: Path) -> Compiled:
    """Reads and checks `yaml_path`'s compiled twin (see the module's doc). Raises DataError."""
    json_path = compiled_path(yaml_path)
    stale = f"run {COMPILE_COMMAND}"
    try:
        manifest, payload = read_sealed(
            json_path, MAX_COMPILED_BYTES, _MANIFEST_FIELDS, FORMAT, "not a data file", stale
        )
    except FileNotFoundError:
        if yaml_path.exists():
            raise DataError(json_path, "", f"missing (not compiled): {stale}") from None
        raise DataError(json_path, "", "no such file") from None

    # Between the manifest and the payload: an edited YAML is named before a damaged payload.
    try:
        source = yaml_path.read_bytes()
    except FileNotFoundError:
        source = None  # a packaged app may ship the compiled data alone
    except OSError as exc:
        raise DataError(yaml_path, "", exc.strerror or str(exc)) from None
    if source is not None and hashlib.sha256(source).hexdigest() != manifest["source_sha256"]:
        raise DataError(yaml_path, "", f"changed since {json_path.name} was compiled: {stale}")

    fault = f"cut short or damaged (not what was compiled): {stale}"
    check_payload(json_path, manifest, payload, "data", fault)
    try:
        data = json.loads(payload.decode("utf-8"))
    except (ValueError, RecursionError):  # only if the compiler itself wrote nonsense
        raise DataError(json_path, "data", f"not readable JSON: {stale}") from None
    return Compiled(data, manifest["source_sha256"], manifest["counts"])


def read_sealed(
    path: Path, max_bytes: int, fields: dict[str, type], fmt: int, not_this: str, remedy: str
) -> tuple[dict[str, Any], bytes]:
    """A compiled file's checked manifest and its unchecked payload (`check_payload`), read
    within `max_bytes`. The compiled data and the situation model's weights share it; each words
    its own missing file, so FileNotFoundError passes through. Raises DataError."""
    try:
        with path.open("rb") as file:
            raw = file.read(max_bytes + 1)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise DataError(path, "", exc.strerror or str(exc)) from None
    if len(raw) > max_bytes:
        raise DataError(path, "", f"larger than {max_bytes} bytes: {not_this}")
    head, newline, payload = raw.partition(b"\n")
    manifest = manifest_line(head, fields) if newline else None
    if manifest is None:
        raise DataError(path, "manifest", f"missing or damaged: {remedy}")
    if manifest["format"] != fmt:
        raise DataError(path, "manifest", f"format {manifest['format']!r}: {remedy}")
    return manifest, payload


def check_payload(
    path: Path, manifest: dict[str, Any], payload: bytes, part: str, fault: str
) -> None:
    """Raises DataError(path, part, fault) unless `payload` is the size and SHA-256 that its
    manifest says."""
    if (
        len(payload) != manifest["data_bytes"]
        or hashlib.sha256(payload).hexdigest() != manifest["data_sha256"]
    ):
        raise DataError(path, part, fault)


_MANIFEST_FIELDS: dict[str, type] = {
    "format": int,
    "source_sha256": str,
    "data_sha256": str,
    "data_bytes": int,
    "counts": dict,
}


def manifest_line(head: bytes, fields: dict[str, type]) -> dict[str, Any] | None:
    """A compiled file's manifest line (its first), or None unless it has every field of
    `fields` with its type (a bool is not an int here). The situation model's weights share it."""
    try:
        manifest = json.loads(head.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(manifest, dict):
        return None
    for key, kind in fields.items():
        if not isinstance(manifest.get(key), kind) or isinstance(manifest.get(key), bool):
            return None
    return manifest


# -- compiling (developers, `python -m regulation.compile`) -----------------------------------


def compile_data(yaml_path: Path) -> tuple[bytes, Compiled]:
    """The compiled file's bytes for `yaml_path`, and what they hold. Raises DataError."""
    try:
        source = yaml_path.read_bytes()
    except OSError as exc:
        raise DataError(yaml_path, "", exc.strerror or str(exc)) from None
    data = parse_yaml(yaml_path, source)
    try:
        payload = json.dumps(data, ensure_ascii=False, indent=0, allow_nan=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError) as exc:  # the loader lets none through
        raise DataError(yaml_path, "", f"not plain data: {exc}") from None
    compiled = Compiled(data, hashlib.sha256(source).hexdigest(), entry_counts(data))
    manifest = {
        "format": FORMAT,
        "source": yaml_path.name,
        "source_sha256": compiled.source_sha256,
        "counts": compiled.counts,
        "data_bytes": len(payload),
        "data_sha256": hashlib.sha256(payload).hexdigest(),
        "compiled_by": COMPILE_COMMAND,
    }
    head = json.dumps(manifest, ensure_ascii=False).encode("utf-8")
    return head + b"\n" + payload, compiled


def entry_counts(data: Any) -> dict[str, int]:
    """How many mappings with an `id` each top-level key holds (at any depth)."""

    def count(node: Any) -> int:
        if isinstance(node, dict):
            return ("id" in node) + sum(count(value) for value in node.values())
        if isinstance(node, list):
            return sum(count(item) for item in node)
        return 0

    if not isinstance(data, dict):
        return {}
    return {key: n for key, value in data.items() if (n := count(value))}


def parse_yaml(path: Path, source: bytes) -> Any:
    """Strict YAML → plain data (see the module's doc). Raises DataError."""
    import yaml  # here: only compiling needs it

    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(path, f"byte {exc.start}", f"not UTF-8 text ({exc.reason})") from None
    try:
        return yaml.load(text, Loader=_strict_loader())
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        fault = f"character U+{exc.character:04X} is not allowed in YAML"
        raise DataError(path, f"line {line}", fault) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark else "syntax"
        problem = exc.problem or exc.context or "invalid"
        if isinstance(exc, (yaml.scanner.ScannerError, yaml.parser.ParserError)):
            problem = f"YAML syntax error: {problem}"
        elif not isinstance(exc, _Refused):
            problem = f"YAML error: {problem}"
        raise DataError(path, where, problem) from None
    except yaml.YAMLError as exc:
        raise DataError(path, "syntax", f"YAML error: {exc}".replace("\n", " ")) from None
    except RecursionError:
        raise DataError(path, "structure", "nested too deeply") from None


_LOADER: type | None = None


def _strict_loader() -> type:
    """PyYAML's safe loader (the pure-Python one: the same result on every machine), refusing
    anchors, aliases, duplicate and non-text keys, and values that are not plain data."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import math

    import yaml

    class Refused(_Refused, yaml.MarkedYAMLError):
        pass

    def refuse(node: yaml.Node, problem: str) -> Refused:
        return Refused(problem=problem, problem_mark=node.start_mark)

    class StrictLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise Refused(
                    problem="YAML anchors and aliases are not allowed: write the value out",
                    problem_mark=event.start_mark,
                )
            return super().compose_node(parent, index)

        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
            seen: set[str] = set()
            for key_node, _ in node.value:
                if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag.endswith(":str")):
                    raise refuse(key_node, f"key {key_node.value!r} must be text: quote it")
                if key_node.value in seen:
                    raise refuse(key_node, f"duplicate key '{key_node.value}'")
                seen.add(key_node.value)
            return super().construct_mapping(node, deep=deep)

        def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
            value = super().construct_yaml_float(node)
            if not math.isfinite(value):
                raise refuse(node, f"{node.value!r} is not a finite number")
            return value

    def not_plain(loader: StrictLoader, node: yaml.Node) -> Any:
        kind = node.tag.rsplit(":", 1)[-1]
        raise refuse(node, f"a {kind} value is not plain data: quote it as text")

    StrictLoader.add_constructor("tag:yaml.org,2002:float", StrictLoader.construct_yaml_float)
    for kind in ("timestamp", "binary", "set", "omap", "pairs"):
        StrictLoader.add_constructor(f"tag:yaml.org,2002:{kind}", not_plain)
    _LOADER = StrictLoader
    return StrictLoader


class _Refused(Exception):
    """Marks a fault of ours (not PyYAML's syntax errors) in the strict loader."""

"""A babel extractor: the translatable strings of the data files, assets/rules_ja.yaml and
assets/finder.yaml.

Registered as the `regulation_yaml` extraction method (pyproject.toml entry point, babel.cfg),
so `pybabel extract` puts every regulation string and every finder question and answer into the
template with its line number and the entry or question it belongs to. A new or reworded
Japanese sentence then shows up as an untranslated entry after `pybabel update`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

import yaml

# Keys whose string values people read; ids, aliases and cross-references (a finder answer's
# `next` and `result`) are not translated. `question`, `label` and `none` carry the finder's words.
TRANSLATABLE_KEYS = frozenset(
    {
        *("title", "points", "text", "remedy", "examples", "notes", "label", "heading"),
        *("penalty_label", "situations", "question", "none"),
    }
)


def translatable_strings(stream: BinaryIO | str) -> Iterator[tuple[int, str, str]]:
    """(line, text, owner id) for every translatable string, in document order."""
    root = yaml.compose(stream, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    yield from _walk(root, key=None, owner="")


def _walk(node: Any, key: str | None, owner: str) -> Iterator[tuple[int, str, str]]:
    if isinstance(node, yaml.MappingNode):
        ids = [v.value for k, v in node.value if k.value == "id"]
        owner = ids[0] if ids else owner
        for key_node, value_node in node.value:
            yield from _walk(value_node, key_node.value, owner)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _walk(item, key, owner)
    elif isinstance(node, yaml.ScalarNode) and key in TRANSLATABLE_KEYS:
        yield node.start_mark.line + 1, node.value, owner


def extract_regulation_yaml(
    fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: dict
) -> Iterator[tuple[int, None, str, list[str]]]:
    """babel's extractor protocol: (lineno, funcname, message, comments)."""
    for line, text, owner in translatable_strings(fileobj):
        yield line, None, text, [owner] if owner else []

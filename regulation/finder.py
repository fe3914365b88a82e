"""The infraction finder: a tree of questions (assets/finder.yaml) whose answers end on entries
of the regulation, so a judge who does not know what a situation is called reaches it in a few
taps.

`load_finder` reads the file's compiled twin like the regulation's (regulation/data.py: one
reader for every data file), checks it whole and returns a `Finder`; a broken tree is one
`RegulationError` line (file, question, fault), like broken regulation data. The app and the
command line both call it, so neither starts with a broken tree.

English is strict here. The regulation loader shows the Japanese when the catalog lacks a
sentence (the verbatim Japanese is the authority, and one untranslated line after a revision
must not take the app away from a judge at a venue). A finder question or answer without
English is a load error instead: a judge reading English cannot answer a question they cannot
read, and a wrong answer leads to a wrong penalty. The finder's words are the app's own,
written and translated in the same change, so the error only reaches whoever edits them
(tests/test_finder.py and tests/test_catalogs.py fail first).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .catalog import Catalog
from .data import Compiled, read_compiled
from .loader import ENTRY_ID, RegulationError, english_catalog
from .model import Infraction, Principle, Regulation, Text
from .paths import FINDER_PATH

MAX_QUESTIONS = 4  # on any path from the first question to an entry (docs: product.md)
MIN_OPTIONS = 2  # fewer is a dead end or no question at all
TOP_KEYS = ("root", "nodes")
NODE_KEYS = ("id", "question", "options")
OPTION_KEYS = ("label", "next", "result", "none")

FinderResult = Infraction | Principle


class NoInfraction(NamedTuple):
    """An answer that is no infraction (a plain concession): the app's words saying so."""

    text: Text


@dataclass(frozen=True, slots=True)
class FinderOption:
    """One answer. Its target is the next question, the entry it ends on, or no infraction;
    exactly one of them."""

    label: Text
    target: FinderNode | Infraction | Principle | NoInfraction

    @property
    def next(self) -> FinderNode | None:
        return self.target if isinstance(self.target, FinderNode) else None

    @property
    def result(self) -> FinderResult | None:
        return None if isinstance(self.target, FinderNode | NoInfraction) else self.target

    @property
    def none(self) -> NoInfraction | None:
        return self.target if isinstance(self.target, NoInfraction) else None


@dataclass(frozen=True, slots=True)
class FinderNode:
    """One question and its answers."""

    id: str  # stable, route-safe: /finder/<id>
    question: Text
    options: tuple[FinderOption, ...]


# The small value types below are NamedTuples, not dataclasses: creating a dataclass costs the
# app's start-up about 0.8 ms here, a NamedTuple about half that (the app imports this module
# before its first view; bench/bench_startup.py).


class FinderStep(NamedTuple):
    """A question answered on the way to somewhere: one breadcrumb."""

    node: FinderNode
    option: FinderOption


class FinderLeaf(NamedTuple):
    """An answer that ends on an entry, with every question answered to get there."""

    steps: tuple[FinderStep, ...]  # first question first; the last step's answer ends here

    @property
    def entry(self) -> FinderResult:
        result = self.steps[-1].option.result
        assert result is not None  # a leaf's last answer always has a result
        return result

    @property
    def questions(self) -> int:
        """How many taps this entry is from the start."""
        return len(self.steps)


class Finder:
    """The validated tree (made by load_finder), with look-ups for the screen: a question by id,
    its parent, its path (breadcrumbs). Read-only: the tree itself is frozen dataclasses."""

    __slots__ = ("_nodes", "_parents", "root", "source_sha256")

    def __init__(self, root: FinderNode, source_sha256: str) -> None:
        self.root = root
        self.source_sha256 = source_sha256  # of assets/finder.yaml
        nodes: dict[str, FinderNode] = {}
        parents: dict[str, FinderStep] = {}
        pending = [self.root]
        while pending:  # depth first, in the file's order of answers: the order of nodes()
            node = pending.pop()
            nodes[node.id] = node
            children = [o.next for o in node.options if o.next is not None]
            for option in node.options:
                if option.next is not None:
                    parents[option.next.id] = FinderStep(node, option)
            pending.extend(reversed(children))
        self._nodes = nodes
        self._parents = parents

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finder) and (self.root, self.source_sha256) == (
            other.root,
            other.source_sha256,
        )

    def __hash__(self) -> int:
        return hash((self.root, self.source_sha256))

    def node(self, node_id: str) -> FinderNode | None:
        """The question with this id (a route's last part), or None."""
        return self._nodes.get(node_id)

    def nodes(self) -> tuple[FinderNode, ...]:
        """Every question, depth first in the order of the answers (as `finder` prints it)."""
        return tuple(self._nodes.values())

    def parent(self, node_id: str) -> FinderStep | None:
        """The question and answer that lead to this question; None for the first one.
        Raises KeyError for an unknown id."""
        if node_id not in self._nodes:
            raise KeyError(node_id)
        return self._parents.get(node_id)

    def path_to(self, node_id: str) -> tuple[FinderStep, ...]:
        """The breadcrumbs of a question: every question answered to reach it, first question
        first; () for the first question. Raises KeyError for an unknown id."""
        steps: list[FinderStep] = []
        step = self.parent(node_id)
        while step is not None:
            steps.append(step)
            step = self._parents.get(step.node.id)
        return tuple(reversed(steps))

    def leaves(self) -> tuple[FinderLeaf, ...]:
        """Every answer that ends on an entry, with its path, in the order of nodes()."""
        return tuple(
            FinderLeaf((*self.path_to(node.id), FinderStep(node, option)))
            for node in self._nodes.values()
            for option in node.options
            if option.result is not None
        )

    def leaves_for(self, entry_id: str) -> tuple[FinderLeaf, ...]:
        """Every way to an entry, fewest questions first."""
        found = [leaf for leaf in self.leaves() if leaf.entry.id == entry_id]
        return tuple(sorted(found, key=lambda leaf: leaf.questions))


def load_finder(
    regulation: Regulation, catalog: Catalog | None = None, path: Path | None = None
) -> Finder:
    """Read and check the finder's tree (FINDER_PATH unless `path` is given) against the loaded
    regulation. The app and the command line both start with this. Raises RegulationError."""
    path = path or FINDER_PATH
    compiled = read_compiled(path)
    return build_finder(path, compiled, regulation, catalog or english_catalog())


def build_finder(
    path: Path, compiled: Compiled, regulation: Regulation, catalog: Catalog
) -> Finder:
    """The tree of checked data (also run by `python -m regulation.compile` before writing)."""
    return _Builder(path, regulation, catalog).build(compiled.data, compiled.source_sha256)


class _OptionSpec:
    """An answer as read, before the tree is checked and built."""

    __slots__ = ("label", "next_id", "none", "result", "where")

    def __init__(
        self,
        where: str,
        label: Text,
        next_id: str | None,
        result: FinderResult | None,
        none: Text | None = None,
    ) -> None:
        self.where, self.label, self.next_id, self.result = where, label, next_id, result
        self.none = none


class _NodeSpec:
    """A question as read."""

    __slots__ = ("id", "options", "question")

    def __init__(self, node_id: str, question: Text, options: tuple[_OptionSpec, ...]) -> None:
        self.id, self.question, self.options = node_id, question, options


class _Builder:
    """Checks the parsed YAML in full, then builds the frozen tree from the first question."""

    def __init__(self, path: Path, regulation: Regulation, catalog: Catalog) -> None:
        self.path = path
        self.regulation = regulation
        self.catalog = catalog

    def fail(self, where: str, fault: str) -> RegulationError:
        return RegulationError(self.path, where, fault)

    def build(self, data: Any, digest: str) -> Finder:
        where = "top level"
        if not isinstance(data, dict):
            raise self.fail(where, "must be a mapping with 'root' and 'nodes'")
        self.known_keys(data, TOP_KEYS, where)
        root_id = self.string(data, "root", where)
        raw_nodes = data.get("nodes")
        if not isinstance(raw_nodes, list) or not raw_nodes:
            raise self.fail(where, "'nodes' must list at least one question")
        specs: dict[str, _NodeSpec] = {}
        for index, raw in enumerate(raw_nodes):
            spec = self.node(raw, index)
            if spec.id in specs:
                raise self.fail(f"node '{spec.id}'", f"duplicate id '{spec.id}'")
            specs[spec.id] = spec
        if root_id not in specs:
            raise self.fail(where, f"root names unknown question '{root_id}'")
        self.check_shape(specs, root_id)
        finder = Finder(self.assemble(specs, root_id), digest)
        self.check_coverage(finder)
        return finder

    # -- one question at a time ------------------------------------------------------------

    def known_keys(self, raw: dict, allowed: tuple[str, ...], where: str) -> None:
        unknown = [str(key) for key in raw if key not in allowed]
        if unknown:
            raise self.fail(where, f"unknown key '{unknown[0]}' (allowed: {', '.join(allowed)})")

    def string(self, raw: dict, key: str, where: str) -> str:
        value = raw.get(key)
        if value is None:
            raise self.fail(where, f"missing required field '{key}'")
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"field '{key}' must be a non-empty string")
        return value

    def text(self, raw: dict, key: str, where: str) -> Text:
        japanese = self.string(raw, key, where)
        english = self.catalog.lookup(japanese)
        if not english:
            raise self.fail(
                where,
                f"{key} 「{japanese}」 has no English in the catalog "
                "(translate it in messages.po, then pybabel compile)",
            )
        return Text(ja=japanese, en=english)

    def node(self, raw: Any, index: int) -> _NodeSpec:
        where = f"node #{index + 1}"
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a mapping with id, question and options")
        node_id = self.string(raw, "id", where)
        if not ENTRY_ID.fullmatch(node_id):
            raise self.fail(
                f"{where} '{node_id}'",
                "id must be lowercase ASCII letters and digits joined by '-'",
            )
        where = f"node '{node_id}'"
        self.known_keys(raw, NODE_KEYS, where)
        question = self.text(raw, "question", where)
        raw_options = raw.get("options")
        if not isinstance(raw_options, list):
            raise self.fail(where, "'options' must be a list of answers")
        if len(raw_options) < MIN_OPTIONS:
            raise self.fail(
                where,
                f"dead end: a question needs at least {MIN_OPTIONS} answers, "
                f"this one has {len(raw_options)}",
            )
        options = tuple(
            self.option(item, f"{where} option {number}")
            for number, item in enumerate(raw_options, 1)
        )
        seen: set[str] = set()
        for option in options:
            if option.label.ja in seen:
                raise self.fail(option.where, f"two answers read 「{option.label.ja}」")
            seen.add(option.label.ja)
        return _NodeSpec(node_id, question, options)

    def option(self, raw: Any, where: str) -> _OptionSpec:
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a mapping with a label and 'next' or 'result'")
        self.known_keys(raw, OPTION_KEYS, where)
        label = self.text(raw, "label", where)
        if "none" in raw:  # no infraction: the app's words why, and nothing else
            if "next" in raw or "result" in raw:
                raise self.fail(where, "'none' (no infraction) takes no 'next' or 'result'")
            return _OptionSpec(where, label, None, None, self.text(raw, "none", where))
        has_next, has_result = "next" in raw, "result" in raw
        if has_next == has_result:
            which = "has both" if has_next else "has neither"
            raise self.fail(
                where, f"needs exactly one of 'next' (a question) or 'result' (an entry), {which}"
            )
        if has_next:
            return _OptionSpec(where, label, self.string(raw, "next", where), None)
        entry_id = self.string(raw, "result", where)
        entry = self.regulation.entry(entry_id)
        if entry is None:
            raise self.fail(where, f"result names unknown entry '{entry_id}'")
        if not isinstance(entry, Infraction | Principle):
            raise self.fail(
                where, f"result '{entry_id}' is a penalty tier, not an infraction or principle"
            )
        return _OptionSpec(where, label, None, entry)

    # -- the tree as a whole ---------------------------------------------------------------

    def check_shape(self, specs: dict[str, _NodeSpec], root_id: str) -> None:
        """A tree: every `next` known, no cycle, each question after exactly one answer (so a
        question's id gives one path: its breadcrumbs), no path longer than MAX_QUESTIONS,
        every question reachable from the first."""
        for spec in specs.values():
            for option in spec.options:
                if option.next_id is not None and option.next_id not in specs:
                    raise self.fail(option.where, f"next names unknown question '{option.next_id}'")
        linked_from: dict[str, str] = {root_id: "the top level's root"}
        self.walk(specs, [root_id], linked_from)
        for node_id in specs:
            if node_id not in linked_from:
                raise self.fail(
                    f"node '{node_id}'",
                    f"unreachable: no answer leads to it from the first question '{root_id}'",
                )

    def walk(
        self, specs: dict[str, _NodeSpec], path: list[str], linked_from: dict[str, str]
    ) -> None:
        if len(path) > MAX_QUESTIONS:  # checked on entry: this recursion stays shallow
            raise self.fail(
                f"node '{path[-1]}'",
                f"{len(path)} questions on the way ({' › '.join(path)}); "
                f"at most {MAX_QUESTIONS} allowed",
            )
        for option in specs[path[-1]].options:
            target = option.next_id
            if target is None:
                continue
            if target in path:
                loop = [*path[path.index(target) :], target]
                raise self.fail(option.where, f"cycle: {' → '.join(loop)}")
            if target in linked_from:
                raise self.fail(
                    option.where,
                    f"question '{target}' already follows {linked_from[target]}; a question "
                    "follows one answer only (copy it under a new id)",
                )
            linked_from[target] = option.where
            self.walk(specs, [*path, target], linked_from)

    def assemble(self, specs: dict[str, _NodeSpec], node_id: str) -> FinderNode:
        spec = specs[node_id]  # the shape is checked: this recursion is at most 4 deep
        options = []
        for option in spec.options:
            target: FinderNode | Infraction | Principle | NoInfraction
            if option.next_id is not None:
                target = self.assemble(specs, option.next_id)
            elif option.none is not None:
                target = NoInfraction(option.none)
            else:
                assert option.result is not None
                target = option.result
            options.append(FinderOption(option.label, target))
        return FinderNode(spec.id, spec.question, tuple(options))

    def check_coverage(self, finder: Finder) -> None:
        reached = {leaf.entry.id for leaf in finder.leaves()}
        missing = [i.id for i in self.regulation.infractions if i.id not in reached]
        if missing:
            raise self.fail(
                "tree", f"no answer leads to infraction {', '.join(repr(m) for m in missing)}"
            )

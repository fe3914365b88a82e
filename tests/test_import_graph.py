"""No import circle among the project's modules (main.py, regulation/, records/, views/).

Read from the source with `ast`, not by importing: every import statement counts, the ones
inside functions too (a late import still closes a circle when it runs), except those under
`if TYPE_CHECKING:` (never run). Importing `a.b.c` runs the packages `a` and `a.b` first, so
they count as well, except a package the importer itself belongs to (already running).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("regulation", "records", "views")


def module_files(root: Path) -> dict[str, Path]:
    """Module name → file, for main.py and every module of the project's packages."""
    found = {"main": root / "main.py"}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (not under `if TYPE_CHECKING:`)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that importing `name` (at `path`) runs directly."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        targets.add(base)
        # `from package import name`: name may be a module of that package.
        targets.update(f"{base}.{alias.name}" for alias in node.names)
    runs: set[str] = set()
    for target in targets:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            module = ".".join(parts[:end])
            inside = name == module or name.startswith(module + ".")
            if module in known and not inside:
                runs.add(module)
    return runs


def import_graph(root: Path) -> dict[str, set[str]]:
    files = module_files(root)
    known = set(files)
    return {name: imported_modules(name, path, known) for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def test_the_project_has_no_import_circle() -> None:
    graph = import_graph(ROOT)
    shell = graph["views.shell"] | graph["views.shell_start"] | graph["views.logbook"]
    assert {"views.screens", "views.logbook", "records.paths"} <= shell  # read, not empty
    assert circles(graph) == []


def test_the_graph_sees_late_imports_and_packages(tmp_path: Path) -> None:
    """The circle this test was written against (views/context → views/logbook → a screen
    module imported inside a function → views/context), rebuilt in a small tree; an import
    under TYPE_CHECKING alone is no circle."""
    views = tmp_path / "views"
    (views / "screens").mkdir(parents=True)
    (tmp_path / "main.py").write_text("import views.context\n")
    for package in ("regulation", "records"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (views / "__init__.py").write_text("")
    (views / "context.py").write_text("from .logbook import Logbook\n")
    (views / "screens" / "__init__.py").write_text("")
    (views / "screens" / "log.py").write_text("from ..context import Context\n")
    (views / "logbook.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from views.context import Context\n"
        "class Logbook:\n    def warm(self):\n        import views.screens.log\n"
    )
    assert circles(import_graph(tmp_path)) == [
        ["views.context", "views.logbook", "views.screens.log"]
    ]
    (views / "logbook.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from views.context import Context\n"
    )
    assert circles(import_graph(tmp_path)) == []

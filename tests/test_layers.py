"""The floors of the code base (docs/architecture.md): every import, lazy ones included, goes to the same floor or
one below, and no modules import each other in a circle.

The floor order is written here once. An import under ``if TYPE_CHECKING:`` never runs: it must still go
downward, but a type-only reference back inside one floor is not counted as a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"oracle": ROOT / "oracle", "vale_invariants": ROOT / "invariants" / "vale_invariants",
            "vale_fixtures": ROOT / "fixtures" / "vale_fixtures"}
FLOORS = (
    "oracle.core",
    "oracle.reference",
    "oracle.engines",
    "vale_fixtures",
    "oracle.scenarios",
    "vale_invariants",
    "oracle.suites",
    "oracle.run",
    "oracle.reports",
    "oracle.cli",
    "oracle",
)
"""Bottom to top. ``oracle`` itself is the top: the package and the public names kept at its first level."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    type_only: bool


def floor(module: str) -> int:
    """The index in :data:`FLOORS` of the longest floor that holds ``module``."""
    holders = [i for i, name in enumerate(FLOORS) if module == name or module.startswith(name + ".")]
    assert holders, f"{module} is on no floor: add its package to FLOORS"
    return max(holders, key=lambda i: len(FLOORS[i]))


def module_sources() -> dict[str, tuple[str, bool]]:
    """Every module of the three packages: its source and whether it is a package's ``__init__``."""
    sources: dict[str, tuple[str, bool]] = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            sources[".".join(parts[:-1] if is_package else parts)] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports(sources: Mapping[str, tuple[str, bool]]) -> list[Import]:
    """Every import of one of the modules by another, wherever in the file it stands."""
    known = set(sources)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    found: list[Import] = []
    for module, (source, is_package) in sources.items():
        tree = ast.parse(source)
        type_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    package = module.split(".") if is_package else module.split(".")[:-1]
                    base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{alias.name}" for alias in node.names]
            for name in names:
                target = resolve(name)
                if target is not None and target != module:
                    found.append(Import(module, target, node.lineno, node.lineno in type_only))
    return found


def upward(found: Iterable[Import]) -> list[str]:
    return [f"{i.importer}:{i.line} imports {i.imported} ({FLOORS[floor(i.importer)]} < {FLOORS[floor(i.imported)]})"
            for i in found if floor(i.imported) > floor(i.importer)]


def circles(found: Iterable[Import]) -> list[list[str]]:
    """The strongly connected groups of more than one module, by the imports that run."""
    graph: dict[str, set[str]] = {}
    for i in found:
        if not i.type_only:
            graph.setdefault(i.importer, set()).add(i.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_every_import_goes_to_the_same_floor_or_below() -> None:
    found = imports(module_sources())
    assert len(found) > 500
    assert [] == upward(found)


def test_no_modules_import_each_other_in_a_circle() -> None:
    found = imports(module_sources())
    assert [] == circles(found)


def test_a_planted_upward_import_is_found_even_inside_a_function() -> None:
    planted = dict(module_sources())
    planted["oracle.core.planted"] = ("def f() -> None:\n    from oracle.cli.app import main\n", False)
    assert ["oracle.core.planted:2 imports oracle.cli.app (oracle.core < oracle.cli)"] == upward(imports(planted))


def test_a_planted_circle_is_found_and_a_type_only_one_is_not() -> None:
    planted = dict(module_sources())
    planted["oracle.core.planted_a"] = ("from oracle.core.planted_b import x\n", False)
    planted["oracle.core.planted_b"] = ("import oracle.core.planted_a\nx = 1\n", False)
    planted["oracle.core.planted_c"] = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                        "    from oracle.core.planted_d import y\n", False)
    planted["oracle.core.planted_d"] = ("import oracle.core.planted_c\ny = 1\n", False)
    assert [["oracle.core.planted_a", "oracle.core.planted_b"]] == circles(imports(planted))


def test_every_module_is_on_a_floor() -> None:
    modules = module_sources()
    assert len(modules) > 200
    assert {FLOORS[floor(m)] for m in modules} == set(FLOORS)


def test_the_architecture_page_draws_the_floors_in_this_order() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = page.split("```")[1]
    drawn = [line.split()[0] for line in drawing.splitlines() if line.strip()]
    assert list(reversed(FLOORS[:-1])) == drawn

"""The test suite's own habits: no test whose every assertion sits in a loop that may run zero times.

Such a test passes when its loop finds nothing to check (an empty registry, a glob that matches no file), so it
cannot fail. A loop that surely runs (over a literal tuple or list, ``range`` of a positive literal, ``while True``)
counts as straight code; any other loop needs a guard outside it, such as ``assert ITEMS, "no item"``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
Loop = ast.For | ast.AsyncFor | ast.While
Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


def _surely_runs(loop: Loop) -> bool:
    if isinstance(loop, ast.While):
        return isinstance(loop.test, ast.Constant) and bool(loop.test.value)
    over = loop.iter
    if isinstance(over, ast.Tuple | ast.List | ast.Set):
        return bool(over.elts)
    if isinstance(over, ast.Call) and isinstance(over.func, ast.Name) and over.func.id == "range" \
            and len(over.args) == 1:
        bound = over.args[0]
        return isinstance(bound, ast.Constant) and isinstance(bound.value, int) and bound.value > 0
    return False


def _assertions(node: ast.AST, in_loop: bool = False) -> list[bool]:
    """For each ``assert`` under ``node`` (not in nested functions or classes): whether a loop that may run zero
    times holds it."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, Scope):
            continue
        if isinstance(child, ast.Assert):
            found.append(in_loop)
        loop_may_skip = isinstance(child, Loop) and not _surely_runs(child)
        found += _assertions(child, in_loop or loop_may_skip)
    return found


def loop_only_tests(source: str) -> list[str]:
    """The test functions in ``source`` that assert something, but only inside loops that may not run."""
    return [
        node.name for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
        and (held := _assertions(node)) and all(held)
    ]


def test_no_test_asserts_only_inside_loops_that_may_not_run() -> None:
    flagged = [f"{path.name}::{name}" for path in sorted(TESTS.glob("test_*.py"))
               for name in loop_only_tests(path.read_text(encoding="utf-8"))]
    assert [] == flagged


def test_a_loop_without_a_guard_is_flagged_and_a_guard_or_a_sure_loop_clears_it() -> None:
    source = '''
def test_unguarded():
    for item in registry():
        assert item.ok

def test_guarded():
    assert registry(), "no item"
    for item in registry():
        assert item.ok

def test_over_a_literal():
    for n in (1, 2):
        assert n

def test_nested_in_an_unguarded_loop():
    for n in (1, 2):
        for item in registry():
            assert item.ok
'''
    assert ["test_unguarded", "test_nested_in_an_unguarded_loop"] == loop_only_tests(source)

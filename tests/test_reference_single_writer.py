"""Tests pinning the reference engine's single writer: only the table (and the snapshot reader) writes the state.

The check reads the source (``ast``), it does not run it. What it detects, in every module of
``oracle/reference`` but the writers:

* an assignment, augmented assignment or ``del`` whose target is an attribute named like a field of the state
  (``GameState``, ``PlayerState``, ``Frame``), or an attribute or item of an expression that reaches the state;
* a call of a mutating method (``append``, ``remove``, ``pop``, ``update``...) on an expression that reaches
  the state;
* any call of ``setattr``, ``delattr`` or ``__setattr__``.

An expression reaches the state when its chain of attributes, items and calls passes through ``state``,
``frame`` or a field name of the state (``ctx.table.state.display``, ``frame.memo``, ``ctx.hand()``), or
starts at a local name bound to such an expression (``players = table.state.players``) or at a name spelled
like a field or ``state``/``frame``. What it cannot see: a state object handed to a function under another
parameter name and written there, and writes by dynamic attribute access (``getattr(x, name).append``).
The state classes have ``__slots__``, so no write can go to an attribute that is not a field.
"""

from __future__ import annotations

import ast
import dataclasses
import shutil
from pathlib import Path

import pytest

from oracle.reference.state import Frame, FrameKind, GameState, PlayerState

PACKAGE = Path(__file__).resolve().parent.parent / "oracle" / "reference"
WRITERS = frozenset({"table.py", "snapshot.py"})
FIELDS = frozenset(f.name for cls in (GameState, PlayerState, Frame) for f in dataclasses.fields(cls))
REACHING = FIELDS | {"state", "frame"}
MUTATORS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update", "setdefault",
    "popitem", "add", "discard", "__setitem__", "__delitem__", "__iadd__",
})
DYNAMIC_WRITES = frozenset({"setattr", "delattr", "__setattr__", "__delattr__"})
FRESH_VALUES = frozenset({"list", "sorted", "tuple", "set", "frozenset", "dict", "len", "sum", "any", "all",
                          "min", "max", "bool", "int", "str"})


def _reaches(node: ast.AST, aliases: set[str]) -> bool:
    """Whether the expression's chain of attributes, items and calls leads into the state."""
    while True:
        if isinstance(node, ast.Attribute):
            if node.attr in REACHING:
                return True
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            return node.id in REACHING or node.id in aliases
        else:
            return False


def _is_alias(value: ast.AST, aliases: set[str]) -> bool:
    """A binding that may share a mutable object of the state (not a fresh list, number or comparison)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in FRESH_VALUES:
        return False
    return isinstance(value, ast.Attribute | ast.Subscript | ast.Name | ast.Call) and _reaches(value, aliases)


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for t in target.elts for n in _names(t)]
    return []


def _aliases(scope: ast.AST) -> set[str]:
    """Local names bound (by ``=`` or ``for``) to an expression that reaches the state, to a fixed point."""
    aliases: set[str] = set()
    while True:
        before = len(aliases)
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and _is_alias(node.value, aliases):
                aliases.update(n for t in node.targets for n in _names(t))
            elif isinstance(node, ast.For) and _reaches(node.iter, aliases):
                aliases.update(_names(node.target))
        if len(aliases) == before:
            return aliases


def _writes_target(target: ast.AST, aliases: set[str]) -> bool:
    if isinstance(target, ast.Attribute):
        return target.attr in FIELDS or _reaches(target.value, aliases)
    if isinstance(target, ast.Subscript):
        return _reaches(target.value, aliases)
    if isinstance(target, ast.Tuple | ast.List):
        return any(_writes_target(t, aliases) for t in target.elts)
    return False


def _scopes(tree: ast.Module) -> list[ast.AST]:
    return [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))]


def state_writes(source: str, filename: str) -> list[str]:
    """``file:line: code`` of every write to the game state the check detects in ``source``."""
    tree = ast.parse(source, filename)
    found: set[tuple[int, str]] = set()
    for scope in _scopes(tree):
        aliases = _aliases(scope)
        for node in ast.walk(scope):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.target is not None:
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            if isinstance(node, ast.stmt) and any(_writes_target(t, aliases) for t in targets):
                found.add((node.lineno, ast.unparse(node)))
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                mutates = isinstance(func, ast.Attribute) and name in MUTATORS and _reaches(func.value, aliases)
                if mutates or name in DYNAMIC_WRITES:
                    found.add((node.lineno, ast.unparse(node)))
    return [f"{filename}:{line}: {code}" for line, code in sorted(found)]


def package_writes(package: Path) -> list[str]:
    """State writes in every module of ``package`` except the writers."""
    out: list[str] = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() not in WRITERS:
            out.extend(state_writes(path.read_text(encoding="utf-8"), path.relative_to(package).as_posix()))
    return out


# ---------------------------------------------------------------- the package keeps the promise


def test_only_the_table_and_the_snapshot_reader_write_the_state() -> None:
    assert [] == package_writes(PACKAGE)


def test_the_check_sees_the_writes_of_the_table_itself() -> None:
    """Not vacuous: run over the writer, it finds the writes the writer really makes."""
    found = state_writes((PACKAGE / "table.py").read_text(encoding="utf-8"), "table.py")
    assert len(found) > 40
    assert any("frame.stage += 1" in line for line in found)
    assert any("frame.memo[note] = value" in line for line in found)
    assert any("self.state.stack.pop()" in line for line in found)


def test_the_state_classes_take_no_attribute_beyond_their_fields() -> None:
    frame = Frame(FrameKind.KEEP, 0)
    with pytest.raises(AttributeError):
        frame.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        PlayerState().nickname = "x"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- planted writes are caught

PLANTED = {
    "a list of the state changed through the table": "def f(ctx):\n    ctx.table.state.display.remove('x')\n",
    "a frame's stage": "def f(frame):\n    frame.stage += 1\n",
    "a frame's note": "def f(ctx, note):\n    ctx.frame.memo[note] = ()\n",
    "a field set through any name": "def f(p):\n    p.score = 3\n",
    "an alias of the players": "def f(table):\n    players = table.state.players\n    players[0].hand.append('x')\n",
    "an alias of a hand": "def f(table):\n    held = table.state.players[0].hand\n    held.append('x')\n",
    "a loop over the players": "def f(table):\n    for seat in table.state.players:\n        seat.markers.clear()\n",
    "a hand returned by a query": "def f(ctx):\n    ctx.hand().append('x')\n",
    "a dynamic write": "def f(frame):\n    setattr(frame, 'stage', 2)\n",
    "a deletion": "def f(table):\n    del table.state.draw_pile[0]\n",
}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_a_planted_write_is_reported(planted: str) -> None:
    assert 1 == len(state_writes(PLANTED[planted], "planted.py"))


def test_reads_and_fresh_copies_are_not_writes() -> None:
    source = (
        "def f(ctx, table):\n"
        "    out = []\n"
        "    placed = list(table.state.players[0].area)\n"
        "    placed.append('x')\n"
        "    for c in table.state.display:\n"
        "        out.append(c)\n"
        "    table.discard_from_hand(0, 'x', 'y')\n"
        "    return [c for c in ctx.table.state.discard_pile if c != ctx.card_id], out, placed\n"
    )
    assert [] == state_writes(source, "reads.py")


def test_a_write_planted_in_a_copy_of_the_flow_fails_the_package_check(tmp_path: Path) -> None:
    copy = tmp_path / "reference"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    flow = copy / "flow.py"
    source = flow.read_text(encoding="utf-8")
    planted = source.replace("        table.mark_display_dealt()\n", "        table.state.revealed = True\n", 1)
    assert planted != source
    flow.write_text(planted, encoding="utf-8")
    found = package_writes(copy)
    assert 1 == len(found)
    assert found[0].startswith("flow.py:") and found[0].endswith("table.state.revealed = True")

"""How a state machine's failure reaches its user: the traceback and Hypothesis's notes trimmed to the user's frames.

A failure of :class:`~vale_invariants.machine.ValeMachine` is raised deep inside the oracle and Hypothesis; what
the user can act on is the message (the invariant, the rule, expected and actual), the shrunk program, and any
frame of their own code. So the machine's test case re-raises the failure with the frames of Hypothesis, the
oracle and the machine taken out of its traceback (pytest then hides the test case's own frame too, by its
``__tracebackhide__``), and with the lines of Hypothesis's explanation that point into the oracle taken out of its
notes: those list the oracle's own checks, which every failure of the same invariant runs.
"""

from __future__ import annotations

import os
import unittest
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

import hypothesis
from hypothesis import HealthCheck, Verbosity
from hypothesis import settings as Settings
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from oracle.core import json_types

__unittest = True
"""unittest leaves this module's frames (the test case's own) out of its reports, as it does its own modules'."""

INTERNAL_FOLDERS = tuple(f"{folder}{os.sep}" for folder in (Path(hypothesis.__file__).resolve().parent,
                                                            Path(json_types.__file__).resolve().parents[1],
                                                            Path(__file__).resolve().parent))
"""Where the frames the user did not write live (Hypothesis, the oracle, and this package), each with its final
separator (a user's ``oracle_adapter`` folder beside the oracle's is the user's)."""
EXPLANATION = "Explanation:"
EXPLAINED = "    These lines were always and only run by failing test cases:"
EXPLAINED_LINE = " " * 8
"""Hypothesis's explanation: its header, then one note per source line, indented by eight spaces."""


def internal(filename: str) -> bool:
    """Whether ``filename`` is a file of Hypothesis or the oracle (never one of the user's)."""
    try:
        where = str(Path(filename).resolve())
    except (OSError, ValueError):
        return False
    return where.startswith(INTERNAL_FOLDERS)


def user_frames(traceback: TracebackType | None) -> TracebackType | None:
    """The traceback with only the user's frames, in their order (None when none is the user's)."""
    kept: list[TracebackType] = []
    while traceback is not None:
        if not internal(traceback.tb_frame.f_code.co_filename):
            kept.append(traceback)
        traceback = traceback.tb_next
    trimmed: TracebackType | None = None
    for entry in reversed(kept):
        trimmed = TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return trimmed


def user_notes(notes: list[str]) -> list[str]:
    """Hypothesis's notes without the explanation's lines in the oracle; the explanation goes when none is left (its
    "and N more" line too: whose lines those are is not said)."""
    explaining = [n for n in notes if n.startswith(EXPLAINED_LINE) and not n.strip().startswith("(and ")]
    own = [n for n in explaining if not internal(n.strip().rsplit(":", 1)[0])]
    dropped = set(explaining) - set(own)
    kept = [n for n in notes if n not in dropped and not (dropped and n.strip().startswith("(and "))]
    if not own:
        kept = [n for n in kept if n not in (EXPLANATION, EXPLAINED)]
    return kept


def trimmed(error: BaseException) -> BaseException:
    """``error`` (and each error of a group) with its traceback and notes trimmed to the user's."""
    error.__traceback__ = user_frames(error.__traceback__)
    notes = getattr(error, "__notes__", None)
    if isinstance(notes, list):
        notes[:] = user_notes(notes)
    for inner in error.exceptions if isinstance(error, BaseExceptionGroup) else ():
        trimmed(inner)
    return error


run_machine_as_test: Callable[..., None] = run_state_machine_as_test
"""Hypothesis's runner of a state machine as a test, typed for every Hypothesis the floor allows (it is annotated
only from 6.170.6 on)."""


class MachineTestCase(unittest.TestCase):
    """A machine as a ``unittest.TestCase`` (as Hypothesis's ``TestCase`` makes one), reporting a failure trimmed to
    the user's frames and notes; at ``Verbosity.debug`` untrimmed (Hypothesis, too, shows its own frames then)."""

    machine: ClassVar[type[RuleBasedStateMachine]]
    settings: ClassVar[Settings] = Settings(deadline=None, suppress_health_check=list(HealthCheck))

    def runTest(self) -> None:
        __tracebackhide__ = True
        try:
            run_machine_as_test(self.machine, settings=self.settings)
        except BaseException as error:
            if self.settings.verbosity >= Verbosity.debug:
                raise
            raise trimmed(error)  # noqa: B904 - the same error, its own cause kept

    runTest.is_hypothesis_test = True  # type: ignore[attr-defined]


@cache
def trimmed_test_case(machine: type[RuleBasedStateMachine]) -> type[MachineTestCase]:
    """The test case of ``machine``, named after it in its module."""
    test_case = type(f"{machine.__name__}.TestCase", (MachineTestCase,), {"machine": machine})
    test_case.__qualname__ = f"{machine.__qualname__}.TestCase"
    test_case.__module__ = machine.__module__
    return test_case


class TrimmedTestCase:
    """``Machine.TestCase``: the test case of :func:`trimmed_test_case` for the class it is read on."""

    def __get__(self, machine: Any, owner: type[RuleBasedStateMachine] | None = None) -> type[MachineTestCase]:
        cls: type[RuleBasedStateMachine] | None = type(machine) if machine is not None else owner
        assert cls is not None
        return trimmed_test_case(cls)

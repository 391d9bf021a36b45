"""The vocabulary of the conformance table: cases, their follow-ups, divergences, diagnoses and rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.results import Outcome

SUITE = "z3"
PLAYER = 0



@dataclass(frozen=True)
class Follow:
    """An action to apply from the case's position: either the model rejects it (``reject`` = code, rule id),
    or the model accepts it and expects these stones (and this kind of decision) afterwards."""

    action: JSON
    rules: tuple[str, ...]
    stones_after: Stones | None = None
    decision_kind: str | None = None
    reject: tuple[str, str] | None = None
    player_after: JSON = field(default_factory=dict)
    """Other fields of the player's exported state expected afterwards (``extra_areas`` after buying an area)."""
    player_rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    row: str
    key: str
    title: str
    given: JSON
    decision: JSON
    expected: tuple[JSON, ...]
    follow: tuple[Follow, ...] = ()
    facts: JSON = field(default_factory=dict)
    cards: tuple[str, ...] = ()
    prelude: tuple[JSON, ...] = ()
    """Actions applied from the loaded position before the decision is compared (each must be accepted)."""

    @property
    def id(self) -> str:
        return f"{self.row}/{self.key}"


@dataclass(frozen=True)
class Divergence:
    """One way the engine differs from the model in one case, with the scenario steps that pin it."""

    case: Case
    rules: tuple[str, ...]
    outcome: Outcome
    message: str
    expected: str
    actual: str
    steps: tuple[JSON, ...]
    details: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Diagnosis:
    rules: tuple[str, ...]
    message: str
    reject: tuple[str, str] | None = None


@dataclass(frozen=True)
class Row:
    """One table entry: a bounded domain of cases and how to compare an engine with the model on it."""

    name: str
    title: str
    rules: tuple[str, ...]
    sample: int
    domain: Callable[[], list[str]]
    build: Callable[[str], Case]
    compared: Callable[[JSON], bool]
    diagnose: Callable[[Case, list[JSON], list[JSON]], Diagnosis]
    decision_rules: tuple[str, ...]
    requires: tuple[str, ...] = ()

"""What a loaded scenario is: its metadata, its position, and its steps (card names already resolved to ids)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from oracle.core.json_types import JSON


class ScenarioError(Exception):
    """A scenario file is not valid; always names the file and the line."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Step:
    """One step of a scenario; ``number`` is 1-based, ``line`` is its ``[[steps]]`` line.

    ``do`` is in canonical form (it fits ``action.schema.json``) unless ``probe`` is set: a probe is an
    action sent as written, deliberately not canonical, that the step expects the engine to reject.
    """

    number: int
    line: int
    do: JSON | None = None
    reject: JSON | None = None
    expect: JSON | None = None
    decision: JSON | str | None = None
    events: list[JSON] | None = None
    legal: list[JSON] = field(default_factory=list)
    not_legal: list[JSON] = field(default_factory=list)
    legal_exactly: list[JSON] | None = None
    note: str = ""
    probe: bool = False


@dataclass(frozen=True)
class Scenario:
    """A scenario file, validated: ids instead of card names everywhere."""

    id: str
    title: str
    rules: tuple[str, ...]
    cards: tuple[str, ...]
    source: str
    requires: tuple[str, ...]
    given: JSON
    steps: tuple[Step, ...]
    expect_end: JSON | None
    path: Path
    file: str
    line: int
    end_line: int = 0
    raw: JSON = field(default_factory=dict, compare=False)
    new_game: JSON | None = None
    """The complete set-up sent to ``new_game`` (deck in full) when the scenario starts a game instead of
    loading a position; ``given`` then holds only its ``setup``."""

    @property
    def variants(self) -> dict[str, str]:
        """The variant values the scenario plays (``setup.variants`` of its position, filled from ``requires``)."""
        named = self.given.get("setup", {}).get("variants", {})
        return {str(k): str(v) for k, v in named.items()}

    @property
    def reject_rules(self) -> tuple[str, ...]:
        """The rule ids named by the steps' ``reject`` tables."""
        out: list[str] = []
        for step in self.steps:
            rule = (step.reject or {}).get("rule")
            if isinstance(rule, str) and rule not in out:
                out.append(rule)
        return tuple(out)

    def where(self, step: Step | None = None) -> str:
        """``file:line`` of the scenario, or of one of its steps."""
        return f"{self.file}:{step.line if step is not None else self.line}"

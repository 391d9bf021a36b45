"""Reaching a whole suite (``oracle scenarios reach``): the finder on every scenario starting from ``[given]``, in
worker processes, each candidate verified before it is kept; the preambles and reasons written beside the scenario
files, and the reached share per folder (issue 39)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from oracle.scenarios.model import Scenario
from oracle.scenarios.reach.finder import Found, find_preamble
from oracle.scenarios.reach.preamble import Preamble, Preambles
from oracle.scenarios.reach.verify import verify


@dataclass(frozen=True)
class FolderShare:
    """One folder of the suite: how many of its ``[given]`` scenarios a verified preamble reaches."""

    folder: str
    reached: int
    total: int


def _find_verified(job: tuple[Scenario, float]) -> tuple[str, Found]:
    scenario, limit = job

    def check(preamble: Preamble) -> str:
        return verify(scenario, preamble)

    return scenario.id, find_preamble(scenario, limit, check)


def reach_suite(scenarios: Iterable[Scenario], time_limit: float, jobs: int) -> Preambles:
    """Search a verified preamble for every scenario that starts from ``[given]`` (deterministic: each search
    depends only on its scenario; ``jobs`` worker processes share them)."""
    work = [(s, time_limit) for s in scenarios if s.new_game is None]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            found = dict(pool.map(_find_verified, work, chunksize=1))
    else:
        found = dict(map(_find_verified, work))
    reached = {k: f.preamble for k, f in found.items() if f.preamble is not None}
    return Preambles(reached, {k: f.reason for k, f in found.items() if f.preamble is None})


def folder_of(scenario: Scenario, directory: Path) -> str:
    """The scenario's folder inside the suite, two levels deep (``cards/fire``, ``payment``)."""
    try:
        parts = scenario.path.resolve().relative_to(directory.resolve()).parts[:-1]
    except ValueError:
        parts = ()
    return "/".join(parts[:2]) or "."


def shares(scenarios: Iterable[Scenario], directory: Path, preambles: Preambles) -> list[FolderShare]:
    """The reached share of every folder (the ``[given]`` scenarios only), folders in name order."""
    counts: dict[str, list[int]] = {}
    for scenario in scenarios:
        if scenario.new_game is not None:
            continue
        row = counts.setdefault(folder_of(scenario, directory), [0, 0])
        row[0] += scenario.id in preambles.reached
        row[1] += 1
    return [FolderShare(folder, r, t) for folder, (r, t) in sorted(counts.items())]


def reason_groups(preambles: Preambles, top: int = 10) -> list[tuple[str, int]]:
    """The finder's reasons, grouped by their words before the first detail, biggest group first."""
    groups: dict[str, int] = {}
    for reason in preambles.unreached.values():
        head = reason.split(" = ")[0].split(" (")[0].split(":")[0]
        groups[head] = groups.get(head, 0) + 1
    return sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))[:top]

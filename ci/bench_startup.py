"""Start-up of the ``oracle`` entry point, side by side with another install (issue 40, item 4), not in the test run.

Each round runs every command once with this interpreter's ``oracle`` and once with the other install's, in turns
(so that a change of the machine's load hits both): ``oracle --version``, ``oracle check --help`` and
``oracle rules``. Each figure is the wall-clock and CPU time of the process, median and best of N, with the load
average, and the ratio of this install's median to the other's. Target (``docs/performance.md``; quiet 2-core
machine): ``oracle --version`` in at most 0.12 s.

Run: ``python3 ci/bench_startup.py --against /work/venv [--repeats N]`` (``--against``: the other install's venv,
whose ``bin/oracle`` is run).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPEATS = 7
COMMANDS = (("--version",), ("check", "--help"), ("rules",))


@dataclass(frozen=True)
class Figure:
    wall: float
    cpu: float


def timed(command: list[str]) -> Figure:
    """One run of ``command``: its wall-clock and CPU seconds (user and system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Figure(wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="the other install's venv")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args(argv)
    installs = {"this": Path(sys.executable).with_name("oracle"), "against": args.against / "bin" / "oracle"}
    figures: dict[tuple[str, str], list[Figure]] = {}
    loads = []
    for _ in range(args.repeats):
        loads.append(os.getloadavg()[0])
        for words in COMMANDS:
            for name, oracle in installs.items():
                figures.setdefault((" ".join(words), name), []).append(timed([str(oracle), *words]))
    print(f"load average (1 min) during the rounds: {min(loads):.2f}-{max(loads):.2f}; {args.repeats} rounds")
    print(f"{'command':16} {'install':8} {'wall median':>12} {'wall best':>10} {'CPU median':>11} {'ratio':>6}")
    for words in COMMANDS:
        command = " ".join(words)
        medians = {name: statistics.median(f.wall for f in figures[command, name]) for name in installs}
        for name in installs:
            runs = figures[command, name]
            print(f"{command:16} {name:8} {medians[name]:11.3f}s {min(f.wall for f in runs):9.3f}s "
                  f"{statistics.median(f.cpu for f in runs):10.3f}s {medians[name] / medians['against']:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

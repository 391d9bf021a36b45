"""The default ``oracle check`` as a user runs it (start-up, workers and reports included), not in the test run.

Two runs side by side, each round running both once (so a change of the machine's load hits both): ``oracle
check`` on the reference in-process and ``oracle check --impl 'cmd:oracle serve'``. Each figure is the wall-clock
time and the CPU time of the command and every process it started (workers and engine processes), best of N,
with the load average. Targets (issue 25, ``docs/performance.md``; quiet 2-core machine): the reference in at
most 3 s of wall-clock, and ``cmd:oracle serve`` in at most 1.5x the reference's.

``--against DIR`` runs every command a second time with the oracle of another checkout (``DIR`` first on
``PYTHONPATH``, with its ``fixtures`` and ``invariants``), so that a change is measured beside the code before it.

Run: ``python3 ci/bench_cli.py [--repeats N] [--against /path/to/main/checkout]`` (about 3 minutes on a busy
2-core machine).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

REPEATS = 3
CHECK = [sys.executable, "-P", "-m", "oracle.cli", "check"]
SERVE = f"cmd:{sys.executable} -P -m oracle.cli serve"


@dataclass(frozen=True)
class Figure:
    wall: float
    cpu: float
    load: float
    code: int


def timed(command: list[str], env: dict[str, str]) -> Figure:
    """Wall-clock and CPU seconds (this command and all it started) of one run, from a neutral folder."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Figure(wall, cpu, os.getloadavg()[0], done.returncode)


def environment(checkout: str | None) -> dict[str, str]:
    if checkout is None:
        return dict(os.environ)
    paths = [checkout, os.path.join(checkout, "fixtures"), os.path.join(checkout, "invariants")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--against", help="another checkout of the oracle, run beside this one")
    args = parser.parse_args(argv)
    oracles = [("this", None)] + ([("against", args.against)] if args.against else [])
    runs = [(f"{name}: oracle check", CHECK, environment(path)) for name, path in oracles]
    runs += [(f"{name}: --impl cmd:oracle serve", [*CHECK, "--impl", SERVE], environment(path))
             for name, path in oracles]
    figures: dict[str, list[Figure]] = {label: [] for label, _, _ in runs}
    for _ in range(args.repeats):
        for label, command, env in runs:
            figure = timed(command, env)
            figures[label].append(figure)
            print(f"  {label:40s} {figure.wall:6.2f} s wall {figure.cpu:6.2f} s CPU (load {figure.load:.1f}, exit "
                  f"{figure.code})", flush=True)
    print(f"best of {args.repeats}:")
    for label, rows in figures.items():
        print(f"  {label:40s} {min(f.wall for f in rows):6.2f} s wall {min(f.cpu for f in rows):6.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

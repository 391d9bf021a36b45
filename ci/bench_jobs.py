"""Wall time of the default ``oracle check`` on the reference with ``--jobs 1`` against ``--jobs 2``, side by side.

The project's goal is 2.5 s wall for the default check on 2 cores. Each run is a fresh ``oracle check``
process (start-up, worker start-up and the report included), timed from outside; the table shows the best
and the median of the rounds. Not part of the default test run::

    python ci/bench_jobs.py [ROUNDS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

GOAL = 2.5
JOBS = (1, 2)


def wall_seconds(jobs: int) -> float:
    """One default ``oracle check --jobs N`` on the reference, in wall-clock seconds (it must pass)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--jobs", str(jobs)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(rounds: int) -> None:
    times: dict[int, list[float]] = {jobs: [] for jobs in JOBS}
    for _ in range(rounds):
        for jobs in JOBS:
            times[jobs].append(wall_seconds(jobs))
    print(f"default oracle check on the reference, {rounds} round(s), goal {GOAL:g} s wall")
    print(f"{'jobs':>4}  {'best':>7}  {'median':>7}")
    for jobs, seconds in times.items():
        print(f"{jobs:>4}  {min(seconds):6.2f}s  {statistics.median(seconds):6.2f}s")
    print(f"--jobs 2 / --jobs 1 (median): {statistics.median(times[2]) / statistics.median(times[1]):.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)

"""What N shards buy on one machine: N ``oracle check --shard K/N --jobs 1`` processes at once, timed from outside,
and what ``oracle report merge`` costs; the figures of docs/scaling.md.

Each row starts the N shards together (as N jobs of a CI matrix would on N machines, here sharing this machine's
cores), waits for the last, and merges their reports; the load average is read before each row, since the
machine may be shared. Not part of the default test run::

    python ci/bench_shards.py [SHARD-COUNTS] [-- CHECK-ARGS...]
    python ci/bench_shards.py 1,2,4 -- --suite scenarios   (default: the default check)
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ORACLE = [sys.executable, "-P", "-m", "oracle.cli.app"]
DEFAULT_ARGS: tuple[str, ...] = ()


def cpu_seconds() -> float:
    """User and system seconds of every child process waited for so far (the shards, their workers, the merges)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_shards(count: int, args: tuple[str, ...], folder: Path) -> tuple[float, list[Path]]:
    """Wall seconds of ``count`` shards run at once, and their reports."""
    reports = [folder / f"shard-{count}-{k}.json" for k in range(1, count + 1)]
    started = time.perf_counter()
    shards = [subprocess.Popen([*ORACLE, "check", *args, "--budget-scale", "1", "--jobs", "1", "--shard",
                                f"{k}/{count}", "--report-json", str(report)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
              for k, report in enumerate(reports, 1)]
    for shard in shards:
        shard.wait()
    return time.perf_counter() - started, reports


def merge_seconds(reports: list[Path], folder: Path) -> float:
    """Wall seconds of ``oracle report merge`` of the reports, the process's start-up included."""
    started = time.perf_counter()
    subprocess.run([*ORACLE, "report", "merge", *map(str, reports), "-o", str(folder / "merged.json")],
                   stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main(counts: list[int], args: tuple[str, ...]) -> None:
    print(f"oracle check {' '.join(args)} --budget-scale 1 --jobs 1, N shards at once on {os.cpu_count()} core(s)")
    print(f"{'N':>2}  {'load':>5}  {'wall':>7}  {'cpu':>7}  {'checks':>6}  {'checks/s':>8}  {'merge':>6}")
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as scratch:
        folder = Path(scratch)
        for count in counts:
            load = os.getloadavg()[0]
            cpu = cpu_seconds()
            wall, reports = run_shards(count, args, folder)
            cpu = cpu_seconds() - cpu
            checks = sum(len(json.loads(r.read_text(encoding="utf-8"))["results"]) for r in reports)
            merged = merge_seconds(reports, folder)
            print(f"{count:>2}  {load:5.2f}  {wall:6.2f}s  {cpu:6.2f}s  {checks:>6}  {checks / wall:8.1f}  "
                  f"{merged:5.2f}s")


if __name__ == "__main__":
    given = sys.argv[1:]
    extra = tuple(given[given.index("--") + 1:]) if "--" in given else DEFAULT_ARGS
    head = given[: given.index("--")] if "--" in given else given
    main([int(n) for n in (head[0].split(",") if head else ["1", "2", "4"])], extra)

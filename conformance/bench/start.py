"""``ginspec bench start``: how long a whole ``ginspec conform`` run against the reference takes,
start-up included, with the committed suite verified by its digest (A) beside the same suite with
every case schema-checked, as a user's own case files are (B: a copy whose manifest has no
``content`` digest). docs/performance.md, section "Fast start".

Each run is a fresh process (``python -m ginspec.conformance.cli conform --adapter reference
--no-progress``), A and B in turn so that a drift of the machine's speed touches both; wall time is
a monotonic clock around the child, CPU time the operating system's account of it (user + system,
``os.wait4``). The figures are medians.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ginspec.conformance.generate.suite import SUITE_DIR


def _timed(argv: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, exit code) of one fresh process."""
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, child.returncode


def _without_digest(folder: Path) -> Path:
    """A copy of the committed suite whose manifest lacks the digest: every case is checked."""
    copy = folder / "suite-without-digest"
    shutil.copytree(SUITE_DIR, copy)
    manifest = copy / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data.pop("content", None)
    manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return copy


def run_start_bench(runs: int) -> dict[str, Any]:
    """``runs`` paired runs of A (digest) and B (every case checked), after one warm-up each."""
    base = [sys.executable, "-m", "ginspec.conformance.cli", "conform", "--adapter", "reference",
            "--no-progress"]
    with tempfile.TemporaryDirectory(prefix="ginspec-bench-start-") as tmp:
        sides = {"digest": base, "every case checked": [*base, "--suite",
                                                         str(_without_digest(Path(tmp)))]}
        for argv in sides.values():
            _timed(argv)  # warm-up: the files are in the page cache for both
        times: dict[str, list[tuple[float, float, int]]] = {name: [] for name in sides}
        load = os.getloadavg()[0]
        for _ in range(runs):
            for name, argv in sides.items():
                times[name].append(_timed(argv))
    medians = {name: (statistics.median(t[0] for t in got), statistics.median(t[1] for t in got))
               for name, got in times.items()}
    measures = [{"name": name, "runs": runs, "wall_s": wall, "cpu_s": cpu,
                 "exit_codes": sorted({t[2] for t in times[name]})}
                for name, (wall, cpu) in medians.items()]
    (wall_a, cpu_a), (wall_b, cpu_b) = medians.values()
    return {"benchmark": "start", "python": platform.python_version(),
            "machine": platform.machine(), "load_average_1min": round(load, 2),
            "measures": measures, "ratio_wall": wall_a / wall_b, "ratio_cpu": cpu_a / cpu_b}

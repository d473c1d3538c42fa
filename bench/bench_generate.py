"""Benchmark ``mcpforge generate``: median wall time and peak RSS per document.

Usage: python bench/bench_generate.py [--runs N] [SPEC ...]
(default: the GitHub REST spec from ../shared/corpus/bench). Each run is a fresh process, as a
user or CI would start it; RSS is the child's peak resident set size from wait4().
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "corpus" / "bench" / "octokit-openapi__generated_api.github.com.json"


def run_once(spec: Path, out: Path, extra: list[str]) -> tuple[float, float]:
    """One generate run: (wall seconds, peak RSS in MB)."""
    cmd = [sys.executable, "-m", "mcpforge", "generate", str(spec), "-o", str(out), "--force", *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"generate failed for {spec}: {proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="options passed to generate after --")
    args = parser.parse_args()
    print("| document | tools | median wall (s) | min (s) | peak RSS (MB) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs:
            out = Path(tmp) / spec.stem
            results = [run_once(spec, out, args.extra[1:] if args.extra else []) for _ in range(args.runs)]
            walls = [w for w, _ in results]
            import json

            ops = len(json.loads((out / "manifests" / "mcp-tools.json").read_text()))
            print(
                f"| {spec.name} | {ops:,} | {statistics.median(walls):.2f} | {min(walls):.2f} | "
                f"{max(r for _, r in results):.0f} |"
            )


if __name__ == "__main__":
    main()

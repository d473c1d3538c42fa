"""Benchmark ``mcpforge generate`` side by side with openapi-mcp-generator 4.0.1: median wall time and peak RSS.

Usage: python bench/bench_generate.py [--runs N] [--no-peer] [--python PATH] [SPEC ...] [-- generate options]
(default: the GitHub REST and Microsoft Graph specs from ../shared/corpus/bench). Each run is a
fresh process, as a user or CI would start it, and the two tools alternate run by run so that
both see the same machine; RSS is the child's peak resident set size from wait4(). The peer is
installed with npm into .tools/peer on first use.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shared_corpus import GITHUB, GRAPH  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFAULTS = [
    GITHUB,
    GRAPH,
]
PEER = "openapi-mcp-generator@4.0.1"
PEER_DIR = ROOT / ".tools" / "peer"


def peer_command() -> Path:
    """The peer's executable, installed on first use."""
    binary = PEER_DIR / "node_modules" / ".bin" / "openapi-mcp-generator"
    if not binary.exists():
        PEER_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(PEER_DIR), PEER], check=True)
    return binary


# As an installed mcpforge runs: with its bytecode (a sandbox may set PYTHONDONTWRITEBYTECODE, making
# every run compile mcpforge's sources again, which no installed copy does).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(cmd: list[str]) -> tuple[float, float]:
    """One run: (wall seconds, peak RSS in MB)."""
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a chatty tool never blocks on it
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            raise SystemExit(f"{cmd[0]} failed: {errors.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", type=Path, default=DEFAULTS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-peer", action="store_true", help="time mcpforge only")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the Python whose mcpforge is timed (for example a venv with the compiled wheel; default: this one)",
    )
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="options passed to generate after --")
    args = parser.parse_args()
    extra = args.extra[1:] if args.extra else []
    peer = None if args.no_peer else peer_command()
    print("| document | tools | mcpforge (s) | peak RSS (MB) | peer (s) | peer RSS (MB) | paired ratio |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs:
            out, peer_out = Path(tmp) / spec.stem, Path(tmp) / f"{spec.stem}-peer"
            ours: list[tuple[float, float]] = []
            theirs: list[tuple[float, float]] = []
            for _ in range(args.runs):
                shutil.rmtree(out, ignore_errors=True)  # a first generation each time, like the peer's
                ours.append(measure([args.python, "-m", "mcpforge", "generate", str(spec), "-o", str(out), *extra]))
                if peer is not None:
                    shutil.rmtree(peer_out, ignore_errors=True)
                    base = ["--base-url", "https://api.example.com", "--force"]
                    theirs.append(measure([str(peer), "-i", str(spec), "-o", str(peer_out), *base]))
            # One tool per line: counted without loading the manifest here. A child's peak RSS (wait4)
            # starts from this process's size when it forks, so this process must stay small.
            with (out / "manifests" / "mcp-tools.json").open("rb") as manifest:
                tools = sum(1 for line in manifest if line.startswith(b"{"))
            wall, rss = statistics.median(w for w, _ in ours), max(r for _, r in ours)
            row = f"| {spec.name} | {tools:,} | {wall:.2f} | {rss:.0f} |"
            if theirs:
                peer_wall, peer_rss = statistics.median(w for w, _ in theirs), max(r for _, r in theirs)
                # The ratio of each pair of runs made back to back, then their median: the machine's
                # speed drifts from minute to minute (other tenants), and a pair sees the same minute.
                paired = statistics.median(o / t for (o, _), (t, _) in zip(ours, theirs, strict=True))
                row += f" {peer_wall:.2f} | {peer_rss:.0f} | {paired:.2f} |"
            else:
                row += " | | |"
            print(row, flush=True)


if __name__ == "__main__":
    main()

"""``mcpforge diff`` on a large API beside one ``mcpforge generate``: median wall time of fresh processes.

Usage: python bench/bench_diff.py [--runs N] [SPEC]
(default: GitHub REST from ../shared/corpus/bench). NEW is a copy of SPEC changed the ways a spec
bump changes a document (an operation removed and one added, a required and an optional parameter
added, a type changed, an enum value removed, a description reworded); the diff must find each.
The two commands alternate run by run, so both see the same machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shared_corpus import GITHUB  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = GITHUB


def changed(spec: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``spec`` with one change of each kind, on its first operations that allow it."""
    new = copy.deepcopy(spec)
    paths = new["paths"]
    items = [(path, method, op) for path, item in paths.items() for method, op in item.items() if isinstance(op, dict)]
    first_path, first_method, _ = items[0]
    del paths[first_path][first_method]
    paths["/mcpforge/bench"] = {"get": {"operationId": "bench/added", "responses": {"200": {"description": "ok"}}}}
    _, _, op = items[1]
    op.setdefault("parameters", []).append({"name": "bench_required", "in": "query", "required": True,
                                            "schema": {"type": "string"}})  # fmt: skip
    op["parameters"].append({"name": "bench_optional", "in": "query", "schema": {"type": "integer"}})
    op["description"] = "Reworded for the benchmark."
    typed = next(
        p for _, _, o in items[2:] for p in o.get("parameters", [])
        if isinstance(p, dict) and isinstance(p.get("schema"), dict) and p["schema"].get("type") == "string"
    )  # fmt: skip
    typed["schema"] = {"type": "integer"}
    for _, _, op in items[2:]:
        for parameter in op.get("parameters", []):
            schema = parameter.get("schema") if isinstance(parameter, dict) else None
            if isinstance(schema, dict) and isinstance(schema.get("enum"), list) and len(schema["enum"]) > 1:
                schema["enum"] = schema["enum"][:-1]
                return new
    return new


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return time.perf_counter() - began, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    mcpforge = [sys.executable, "-m", "mcpforge"]
    with tempfile.TemporaryDirectory() as folder:
        old, new, out = Path(folder) / "old.json", Path(folder) / "new.json", Path(folder) / "out"
        spec = json.loads(args.spec.read_bytes())
        old.write_text(json.dumps(spec))
        new.write_text(json.dumps(changed(spec)))
        diffs, generates = [], []
        for _ in range(args.runs):
            seconds, done = timed([*mcpforge, "diff", str(old), str(new), "--format", "json", "--fail-on", "none"])
            diffs.append(seconds)
            kinds = sorted({c["kind"] for c in json.loads(done.stdout)["changes"]})
            seconds, _ = timed([*mcpforge, "generate", str(old), "-o", str(out), "--force"])
            generates.append(seconds)
    print(f"| {args.spec.name} | diff {statistics.median(diffs):.2f} s | generate {statistics.median(generates):.2f} s "
          f"| ratio {statistics.median(diffs) / statistics.median(generates):.2f} | runs {args.runs} |")  # fmt: skip
    print("kinds found:", ", ".join(kinds))


if __name__ == "__main__":
    main()

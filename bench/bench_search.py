"""Search quality on mcpforge's own task sets: recall@1/5/10 and MRR, beside plain BM25 (bm25s) in the same run.

Usage: python bench/bench_search.py [TASKS.yaml ...] [--split dev|test|all] [--show-misses]

Each task set (``bench/search/*.yaml``, see ``bench/search/README.md``) names a document of the
shared corpus and lists requests in people's words, each with every operation that does what it
asks. The document's tools are generated as ``mcpforge generate`` makes them; the generated
server's own index (``mcpforge.runtime.modes.index``) answers each request, and bm25s (BM25 with
English stopwords and the Snowball stemmer, over each operation's name, summary, description,
path and tags) answers it beside. A task counts as found at k when any acceptable operation is
among the first k results. Every third task (index % 3 == 2) is held out as ``test``: the weights
and the lexicon were tuned on the others (``dev``). A set marked ``held_out: true`` was never tuned
on: all its tasks are ``test`` tasks.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from shared_corpus import CORPUS, TOOLS  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
TASKS = sorted((ROOT / "bench" / "search").glob("*.yaml"))
KS = (1, 5, 10)


@dataclass
class Task:
    ask: str
    ok: set[str]
    split: str


@dataclass
class TaskSet:
    name: str
    entries: list[Any]
    tasks: list[Task] = field(default_factory=list)
    documents: list[dict[str, list[str]]] = field(default_factory=list)  # what search.json holds


def _acceptable(labels: list[str], entries: list[Any], where: str) -> set[str]:
    found: set[str] = set()
    for label in labels:
        method, _, path = label.lstrip("~").partition(" ")
        if label.startswith("~"):
            pattern = re.compile(path)
            matched = {e["tool"]["name"] for e in entries if e["method"] == method and pattern.search(e["path"])}
        else:
            matched = {e["tool"]["name"] for e in entries if e["method"] == method and e["path"] == path}
        if not matched:
            raise SystemExit(f"{where}: the label {label!r} names no operation of the document")
        found |= matched
    return found


def _document(spec: str) -> Path:
    """A task set's document: a path in the shared corpus, or ``apis-guru:NAME`` in the APIs.guru directory."""
    if spec.startswith("apis-guru:"):
        folder = subprocess.run(
            [str(TOOLS / "fetch-apis-guru.sh")], check=True, capture_output=True, text=True
        ).stdout.strip()
        return Path(folder) / spec.removeprefix("apis-guru:")
    return CORPUS / spec


def load(path: Path) -> TaskSet:
    """A task set with its document's tools, every label resolved to tool names."""
    from mcpforge.diagnostics import Diagnostics
    from mcpforge.options.model import Options
    from mcpforge.pipeline import build
    from mcpforge.targets.runtime import runtime_contract
    from mcpforge.targets.search import search_documents

    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    options = Options(spec=_document(raw["spec"]))
    toolset = build(options, Diagnostics()).toolset
    entries = list(runtime_contract(toolset, toolset.api.project_names(None))["tools"])
    held_out = bool(raw.get("held_out"))  # a set never tuned on: every task is a test task
    tasks = [
        Task(
            t["ask"],
            _acceptable(t["ok"], entries, f"{path.name} task {i + 1}"),
            "test" if held_out or i % 3 == 2 else "dev",
        )
        for i, t in enumerate(raw["tasks"])
    ]
    return TaskSet(path.stem, entries, tasks, search_documents(toolset))


def _bm25s(entries: list[Any]) -> Any:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    texts = []
    for e in entries:
        tool = e["tool"]
        parts = [tool["name"], tool.get("title", ""), tool.get("description", ""), e["path"], *e.get("toolsets", [])]
        texts.append(" ".join(parts))
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False), show_progress=False)

    def search(ask: str, k: int) -> list[str]:
        tokens = bm25s.tokenize([ask], stopwords="en", stemmer=stemmer, show_progress=False)
        if not tokens.vocab:
            return []
        results, _ = retriever.retrieve(tokens, k=min(k, len(entries)), show_progress=False)
        return [entries[int(i)]["tool"]["name"] for i in results[0]]

    return search


def _ours(taskset: TaskSet) -> Any:
    from mcpforge.runtime.modes.index import SearchIndex

    index = SearchIndex(taskset.entries, analysed=taskset.documents)

    def search(ask: str, k: int) -> list[str]:
        return index.names(index.search(ask, limit=k))

    return search


def score(search: Any, tasks: list[Task]) -> dict[str, float]:
    """recall@k and MRR over ``tasks``."""
    found = dict.fromkeys(KS, 0)
    reciprocal = []
    for task in tasks:
        ranked = search(task.ask, max(KS))
        rank = next((i + 1 for i, name in enumerate(ranked) if name in task.ok), None)
        for k in KS:
            found[k] += rank is not None and rank <= k
        reciprocal.append(1 / rank if rank else 0.0)
    n = max(len(tasks), 1)
    return {**{f"r@{k}": found[k] / n for k in KS}, "mrr": statistics.fmean(reciprocal) if reciprocal else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks", nargs="*", type=Path, default=TASKS)
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--show-misses", action="store_true", help="print each request ours misses at 10")
    args = parser.parse_args()
    print("| task set | operations | split | tasks | engine | r@1 | r@5 | r@10 | MRR | ms per request |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in args.tasks:
        taskset = load(path)
        engines = {"mcpforge": _ours(taskset), "bm25s": _bm25s(taskset.entries)}
        splits = ["dev", "test", "all"] if args.split == "all" else [args.split]
        for split in splits:
            tasks = [t for t in taskset.tasks if split in ("all", t.split)]
            if not tasks:  # a held-out set has no dev tasks
                continue
            for engine, search in engines.items():
                began = time.perf_counter()
                result = score(search, tasks)
                ms = 1000 * (time.perf_counter() - began) / max(len(tasks), 1)
                numbers = " | ".join(f"{result[key]:.2f}" for key in ("r@1", "r@5", "r@10", "mrr"))
                print(
                    f"| {taskset.name} | {len(taskset.entries):,} | {split} | {len(tasks)} | {engine} | {numbers} | "
                    f"{ms:.1f} |",
                    flush=True,
                )
        if args.show_misses:
            ours = engines["mcpforge"]
            for task in taskset.tasks:
                ranked = ours(task.ask, 10)
                if not set(ranked) & task.ok:
                    print(f"  miss [{task.split}] {task.ask!r}: got {ranked[:3]}; want e.g. {sorted(task.ok)[:2]}",
                          file=sys.stderr)  # fmt: skip


if __name__ == "__main__":
    main()

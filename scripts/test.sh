#!/usr/bin/env bash
# The whole test suite, on a fresh machine: creates .venv, installs mcpforge with its dev
# dependencies, then runs ruff, mypy --strict and pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
# End-to-end tests drive generated servers with the MCP Inspector CLI against a Prism mock of the
# same spec. Both are pinned: newer releases need node >= 22.
NODE_TOOLS=".tools/node"
if [ ! -x "$NODE_TOOLS/node_modules/.bin/prism" ] || [ ! -d "$NODE_TOOLS/node_modules/@modelcontextprotocol/inspector-cli" ]; then
  mkdir -p "$NODE_TOOLS"
  npm install --prefix "$NODE_TOOLS" --no-audit --no-fund --loglevel=error \
    @stoplight/prism-cli@5.14.2 @modelcontextprotocol/inspector@0.15.0 >/dev/null
fi
.venv/bin/ruff check src tests bench
.venv/bin/black --check --quiet src tests bench
.venv/bin/mypy
# pytest exits 5 when no test ran: that is a failure too, and set -e makes it one.
.venv/bin/python -m pytest "$@"

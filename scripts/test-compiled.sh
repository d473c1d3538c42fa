#!/usr/bin/env bash
# The fast tier (unit, golden, corpus tests) on the compiled build: mypyc checks annotations at run
# time and compiles the code it is given differently, so the wheel users get from
# scripts/build-compiled.sh is tested as itself. Builds it, installs it with the dev dependencies
# into .tools/compiled, and runs pytest there. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=.tools/compiled
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv  # the build only needs pip
# mypyc's output is C: a compiler and Python's headers (Debian's packages when they are missing).
need=()
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
.venv/bin/python -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  || need+=(python3-dev)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
./scripts/build-compiled.sh .venv/bin/python >/dev/null
wheel=$(ls dist/mcpforge-*-cp*.whl)
if [ ! -x "$VENV/bin/python" ]; then
  .venv/bin/python -m venv "$VENV"  # the interpreter the wheel was built for
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi
"$VENV/bin/python" -m pip uninstall --quiet --yes mcpforge >/dev/null 2>&1 || true
"$VENV/bin/python" -m pip install --quiet "$wheel[dev]"
# The tests must import the installed, compiled mcpforge: check before trusting a green run.
"$VENV/bin/python" -c 'import sys, mcpforge.openapi.convert as m; sys.exit(0 if m.__file__.endswith(".so") else "not compiled: " + m.__file__)'
"$VENV/bin/python" -m pytest -m "not e2e" -p no:cacheprovider "$@"

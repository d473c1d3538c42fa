#!/usr/bin/env bash
# The whole test suite, on a fresh machine: creates .venv, installs mcpforge with its dev
# dependencies, the pinned npm tools and the Debian packages the end-to-end tests drive, then runs
# ruff, black, mypy --strict and pytest. It builds nothing with a C compiler. Extra arguments go to
# pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
echo "test.sh: installing mcpforge and its dev dependencies into .venv" >&2
.venv/bin/python -m pip install --quiet -e ".[dev]"
# End-to-end tests drive generated servers with the MCP Inspector CLI against a Prism mock of the
# same spec, and take tokens from a real OAuth authorization server (oidc-provider). All pinned:
# newer releases need node >= 22.
NODE_TOOLS=".tools/node"
if [ ! -x "$NODE_TOOLS/node_modules/.bin/prism" ] || [ ! -d "$NODE_TOOLS/node_modules/@modelcontextprotocol/inspector-cli" ] \
  || [ ! -d "$NODE_TOOLS/node_modules/oidc-provider" ]; then
  mkdir -p "$NODE_TOOLS"
  echo "test.sh: installing the pinned npm tools into $NODE_TOOLS" >&2
  npm install --prefix "$NODE_TOOLS" --no-audit --no-fund --loglevel=error \
    @stoplight/prism-cli@5.14.2 @modelcontextprotocol/inspector@0.15.0 oidc-provider@8.8.1 >/dev/null
fi
# The scale-out test runs replicas behind a real load balancer (Debian's HAProxy, which checks
# each replica's readiness actively); the deployment test runs the generated nginx configuration
# in real nginx; the sign-in store is tested against a real redis-server.
MISSING=""
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || MISSING="$MISSING haproxy"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx-light"
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || MISSING="$MISSING redis-server"
if [ -n "$MISSING" ]; then
  echo "test.sh: installing Debian packages:$MISSING" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $MISSING >/dev/null
fi
.venv/bin/ruff check src tests bench
.venv/bin/black --check --quiet src tests bench
.venv/bin/mypy
# pytest exits 5 when no test ran: that is a failure too, and set -e makes it one.
echo "test.sh: ruff, black, mypy --strict passed; running pytest" >&2
# The whole suite tries more random documents than the quick loop (tests/test_properties.py).
MCPFORGE_PROPERTY_EXAMPLES="${MCPFORGE_PROPERTY_EXAMPLES:-150}" .venv/bin/python -m pytest "$@"

"""Remote deployment benchmark: latency and throughput through a load balancer, static tokens and JWT validation.

Usage: python bench/bench_remote.py [--users 50] [--calls 20] [--replicas 3]

Generates the bundled pet store's server, starts REPLICAS stateless replicas behind HAProxy, and
has USERS concurrent users (each with their own upstream credential, sent per request) make CALLS
tool calls each, against a local upstream that answers at once and checks every request carried
its user's credential. Runs twice: endpoint protected by a static bearer token, then by OAuth JWT
access tokens from a real authorization server (oidc-provider), one per user, verified by
signature, issuer, audience, expiry and scope on every call.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

from e2e.authserver import auth_server  # noqa: E402
from e2e.scaleout import ENDPOINT_TOKEN, Recorder, load_balancer, replicas, run_users  # noqa: E402
from helpers import free_port, serve  # noqa: E402

SPEC = ROOT / "fixtures" / "golden" / "petstore_30" / "openapi.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--replicas", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(
            [sys.executable, "-m", "mcpforge", "generate", str(SPEC), "-o", str(work / "out")],
            check=True,
            capture_output=True,
        )
        command = [sys.executable, "-m", "petstore_mcp"]
        upstream = Recorder(delay=0.0)
        with serve(upstream) as url:
            base = {"PYTHONPATH": str(work / "out" / "src"), "PETSTORE_BASE_URL": url}
            common = {**base, "PETSTORE_PER_USER_CREDENTIALS": "all", "PATH": "/usr/bin:/bin"}
            users = range(1, args.users + 1)
            env = {**common, "PETSTORE_AUTH_TOKENS": ENDPOINT_TOKEN}
            with (
                replicas(command, "PETSTORE", env, args.replicas, work, log_level="WARNING") as running,
                load_balancer([r.port for r in running], work) as port,
            ):
                tokens = dict.fromkeys(users, ENDPOINT_TOKEN)
                report = anyio.run(run_users, f"http://127.0.0.1:{port}/mcp", tokens, args.calls)
                rows.append(report.row("static bearer token"))
            port = free_port()
            resource = f"http://127.0.0.1:{port}/mcp"
            secret = "agent-secret-0123456789abcdef"
            with auth_server({resource: {"scope": "tools:call", "format": "jwt"}}, {"agent": secret}, work) as server:
                oauth = {**common, "PETSTORE_OAUTH_ISSUER": server.issuer, "PETSTORE_OAUTH_RESOURCE": resource,
                         "PETSTORE_OAUTH_SCOPES": "tools:call"}  # fmt: skip
                tokens = {user: server.token("agent", resource) for user in users}
                with (
                    replicas(command, "PETSTORE", oauth, args.replicas, work, log_level="WARNING") as running,
                    load_balancer([r.port for r in running], work, port),
                ):
                    report = anyio.run(run_users, resource, tokens, args.calls)
                    rows.append(report.row("OAuth JWT (RS256, JWKS cached)"))
        assert not upstream.foreign, upstream.foreign[:3]
    print(f"{args.replicas} replicas behind HAProxy, {args.users} users x {args.calls} calls, per-user credentials:")
    print("| endpoint protection | calls | failed | p50 (ms) | p99 (ms) | calls/s |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()

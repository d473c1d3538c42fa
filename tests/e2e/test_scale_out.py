"""Issue 12's scale-out proof: 3 stateless replicas behind HAProxy, 50 users with their own upstream credential,
20 calls each; one replica is sent SIGTERM mid-run. No call fails, no request carries another user's
credential, and no secret reaches any log."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import httpx

from e2e.harness import Project, server_env
from e2e.scaleout import ENDPOINT_TOKEN, Recorder, load_balancer, replicas, run_users, stop, user_secret
from helpers import serve

USERS, CALLS = 50, 20


def test_replicas_behind_a_load_balancer_keep_users_apart_and_survive_sigterm(
    petstore: Project, tmp_path: Path
) -> None:
    upstream = Recorder(delay=0.02)
    with serve(upstream) as url:
        env = server_env(
            petstore,
            url,
            {"PETSTORE_AUTH_TOKENS": ENDPOINT_TOKEN, "PETSTORE_PER_USER_CREDENTIALS": "all",
             "PETSTORE_SHUTDOWN_TIMEOUT": "20", "PETSTORE_SHUTDOWN_DRAIN": "1"},
        )  # fmt: skip
        with (
            replicas([str(petstore.command)], petstore.prefix, env, 3, tmp_path) as running,
            load_balancer([r.port for r in running], tmp_path) as port,
        ):
            balancer = f"http://127.0.0.1:{port}"
            assert httpx.get(balancer + "/healthz").status_code == 200
            stopped = running[0]

            def progress(done: int) -> None:
                if done == USERS * CALLS // 3:
                    stop(stopped)

            tokens = dict.fromkeys(range(1, USERS + 1), ENDPOINT_TOKEN)
            report = anyio.run(lambda: run_users(balancer + "/mcp", tokens, CALLS, on_progress=progress))
            # uvicorn finishes in-flight calls, then re-raises SIGTERM: it ends as a process stopped by it would.
            assert stopped.proc.wait(timeout=30) in (0, -signal.SIGTERM)
            assert "Application shutdown complete" in stopped.log.read_text(errors="replace")
            assert httpx.post(balancer + "/mcp", json={}).status_code == 401  # still protected
    assert report.calls == USERS * CALLS
    assert not report.failures, report.failures[:5]
    assert not upstream.foreign, upstream.foreign[:5]
    assert upstream.requests == USERS * CALLS
    secrets = [ENDPOINT_TOKEN, *(user_secret(u) for u in range(1, USERS + 1))]
    for replica in running:
        written = replica.log.read_text(errors="replace")
        assert "showPetById" in written or "GET /pets" in written  # DEBUG logs were written
        leaked = [s for s in secrets if s in written]
        assert not leaked, (replica.log.name, leaked[:2])

"""The deployment files of a generated project: an image, compose, nginx and Kubernetes, checked statically.

Kubernetes manifests are validated by kubernetes-validate in strict mode (unknown fields are
errors); nginx runs for real in front of two replicas in tests/e2e/test_nginx.py. There is no
container daemon here: the Dockerfile and compose file are checked for what they must say.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from conftest import FIXTURES, ROOT
from helpers import write_project

SPEC = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deploy") / "out"
    write_project(SPEC, out)
    return out


def test_kubernetes_manifests_pass_strict_validation_and_probe_the_real_health_paths(project: Path) -> None:
    documents: list[dict[str, Any]] = list(yaml.safe_load_all((project / "deploy" / "kubernetes.yaml").read_text()))
    assert [d["kind"] for d in documents] == ["Deployment", "Service", "HorizontalPodAutoscaler"]
    for document in documents:
        kubernetes_validate.validate(document, kubernetes_validate.latest_version(), strict=True)
    pod = documents[0]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert {"cpu", "memory"} <= set(container["resources"]["limits"])
    assert container["envFrom"] == [{"secretRef": {"name": "petstore-mcp"}}]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["PETSTORE_TRANSPORT"] == "http" and env["PETSTORE_HOST"] == "0.0.0.0"
    assert env["PETSTORE_STATELESS"] == "true"
    assert not any("TOKEN" in name or "KEY" in name for name in env)  # secrets only from the Secret
    hpa = documents[2]["spec"]
    assert hpa["scaleTargetRef"]["name"] == documents[0]["metadata"]["name"] and hpa["minReplicas"] >= 2


def test_the_dockerfile_runs_the_server_as_a_non_root_user_with_a_health_check(project: Path) -> None:
    text = (project / "Dockerfile").read_text()
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0].startswith("FROM python:") and "slim" in lines[0]
    user = next(line for line in lines if line.startswith("USER "))
    assert user.split()[1] not in ("root", "0")
    assert lines.index(user) > max(i for i, line in enumerate(lines) if line.startswith("RUN "))
    health = text[text.index("HEALTHCHECK") :]
    assert "/healthz" in health.split("\n\n")[0]
    assert json.loads(lines[-1].removeprefix("CMD ")) == ["petstore-mcp"]
    assert "EXPOSE 8000" in lines and "PETSTORE_HOST=0.0.0.0" in text
    assert not re.search(r"(TOKEN|SECRET|KEY)=", text)  # credentials come from the environment


def test_compose_runs_two_replicas_behind_the_generated_nginx_configuration(project: Path) -> None:
    compose = yaml.safe_load((project / "compose.yaml").read_text())
    services = compose["services"]
    replicas = [name for name, service in services.items() if service.get("build") == "."]
    assert replicas == ["replica-1", "replica-2"]
    for name in replicas:
        assert services[name]["env_file"] == ".env"
        assert services[name]["environment"]["PETSTORE_STATELESS"] == "true"
        # Both replicas keep users' sign-ins in the same Redis, which keeps them across restarts.
        assert services[name]["environment"]["PETSTORE_REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["depends_on"] == ["redis"]
    assert services["redis"]["image"].startswith("redis:") and "--appendonly" in services["redis"]["command"]
    assert services["redis"]["volumes"] == ["redis-data:/data"] and "redis-data" in compose["volumes"]
    nginx = services["nginx"]
    assert nginx["volumes"] == ["./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"]
    conf = (project / "deploy" / "nginx.conf").read_text()
    for name in replicas:
        assert f"server {name}:8000" in conf
    for directive in ("proxy_set_header Host $http_host;", "proxy_buffering off;", "proxy_http_version 1.1;"):
        assert directive in conf


def test_the_readme_documents_every_deployment_file(project: Path) -> None:
    readme = (project / "README.md").read_text()
    for name in ("`Dockerfile`", "`compose.yaml`", "`deploy/nginx.conf`", "`deploy/kubernetes.yaml`"):
        assert name in readme
    assert "kubectl create secret generic petstore-mcp --from-env-file=.env" in readme


def test_strict_validation_would_catch_a_misspelt_field(project: Path) -> None:
    deployment = next(yaml.safe_load_all((project / "deploy" / "kubernetes.yaml").read_text()))
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["readinessProbes"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, kubernetes_validate.latest_version(), strict=True)


def test_mcpforge_itself_depends_on_everything_a_generated_server_declares() -> None:
    """``mcpforge serve`` runs the same runtime from mcpforge's own environment: nothing it imports may be missing."""
    import tomllib

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[<>=;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}

    template = (ROOT / "templates" / "pyproject.toml.jinja").read_text(encoding="utf-8")
    block = template.split("\ndependencies = [", 1)[1].split("\n]", 1)[0]
    declared = names([line.split('"')[1] for line in block.splitlines() if line.strip().startswith('"')])
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    ours = names(project["dependencies"])
    # jsonschema, anyio, starlette and uvicorn come with mcp, which mcpforge depends on as the generated servers do;
    # the code-mode sandbox, a dependency of a server generated in code mode only, is mcpforge's `code` extra.
    assert declared - ours <= {"jsonschema", "anyio", "starlette", "uvicorn", "pydantic-monty"}, declared - ours
    assert names(project["optional-dependencies"]["code"]) == {"pydantic-monty"}
    assert {"httptools", "uvloop", "cryptography", "redis", "aiohttp"} <= ours

"""Session fixtures for end-to-end tests (one venv, one generated petstore, one Prism)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import FIXTURES
from e2e.harness import Project, generate_project, make_venv, prism

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"


@pytest.fixture(scope="session")
def e2e_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_venv(tmp_path_factory.mktemp("venv") / "venv")


@pytest.fixture(scope="session")
def petstore(e2e_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Project:
    return generate_project(PETSTORE, tmp_path_factory.mktemp("gen") / "petstore", e2e_python)


@pytest.fixture(scope="session")
def petstore_prism() -> Iterator[str]:
    with prism(PETSTORE) as url:
        yield url

